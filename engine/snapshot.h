#pragma once
// What the render side sees of the simulation: an immutable mesh description sent once, and a
// per-tick snapshot of the mutable part. Snapshot buffers are sized once (no allocation per tick).
#include <array>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace weft {

struct ClothModel;

// Static for the whole session: topology and material coordinates for texturing.
struct SnapshotMesh {
  std::vector<std::array<uint32_t, 3>> triangles;  // vertex indices per triangle (ntri)
  std::vector<glm::vec2> material;                 // material (weft, warp) coordinates (nvert), m
};
SnapshotMesh make_snapshot_mesh(const ClothModel& model);

// A hand or tracker as the renderer draws it.
struct DeviceGizmo {
  bool active = false;        // pose known this tick
  bool grabbing = false;      // holds cloth
  glm::vec3 position{0.f};    // m, world
  glm::quat orientation{1.f, 0.f, 0.f, 0.f};
};

// Per-tick timing statistics published by the sim thread.
struct TickStats {
  double step_ms_p50 = 0, step_ms_p99 = 0, step_ms_max = 0;
  double lateness_ms_p99 = 0;
  uint64_t skipped_ticks = 0;
};

struct ClothSnapshot {
  uint64_t tick = 0;           // sim tick number
  double sim_time = 0;         // s
  std::vector<glm::vec3> position;  // per vertex (nvert), m
  std::vector<glm::vec3> normal;    // unit normal per vertex (nvert)
  std::vector<float> strain;        // max edge strain (l / l0 - 1) around each vertex (nvert)
  std::vector<uint8_t> grasped;     // bit 0: left hand, bit 1: right hand, bit 2: tracker or pin (nvert)
  std::array<DeviceGizmo, 2> hands;        // left, right
  std::array<DeviceGizmo, 4> trackers;     // up to 4 trackers
  TickStats stats;

  void resize(size_t vertex_count);
};

}  // namespace weft
