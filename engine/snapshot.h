#pragma once
// What the render side sees of the simulation: an immutable mesh description sent once, and a
// per-tick snapshot of the mutable part. Snapshot buffers are sized once (no allocation per tick).
#include <array>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "engine/stream_metrics.h"

namespace weft {

struct ClothModel;

// The mesh at load: topology and material coordinates for texturing. Tools (cut, remove) change the topology
// during a session: the snapshot then carries the new one (ClothSnapshot::topology). The capacities are what
// the snapshot buffers and the renderer reserve at load, so that edits within them allocate nothing.
struct SnapshotMesh {
  std::vector<std::array<uint32_t, 3>> triangles;  // vertex indices per triangle (ntri)
  std::vector<glm::vec2> material;                 // material (weft, warp) coordinates (nvert), m
  size_t vertex_capacity = 0;                      // >= nvert: vertices reserved for cuts
  size_t triangle_capacity = 0;                    // >= ntri
};
// Headroom reserved for edits: a cut adds vertices along its path (2x covers cutting a cloth into strips).
constexpr size_t kTopologyHeadroom = 2;
SnapshotMesh make_snapshot_mesh(const ClothModel& model);

// The topology of a cloth: written into a snapshot only when its generation changes (an edit), not per tick.
struct SnapshotTopology {
  uint64_t generation = 0;                         // 0 at load; bumped by every edit that changed the mesh
  std::vector<std::array<uint32_t, 3>> triangles;  // (ntri)
  std::vector<glm::vec2> material;                 // (nvert)
};

// A hand or tracker as the renderer draws it. Whether it holds cloth is the sim's truth at the end of the
// tick (World::held_vertices), not what the input side asked for: a grab that caught nothing holds nothing.
struct DeviceGizmo {
  bool active = false;        // pose known this tick
  bool grabbing = false;      // holds cloth: a hand's grasp or a tracker clipped on (held_vertices > 0)
  uint32_t held_vertices = 0; // vertices the device holds
  glm::vec3 position{0.f};    // m, world
  glm::quat orientation{1.f, 0.f, 0.f, 0.f};
};

// A collider or rigid box as the renderer draws it, at the end of the tick. The floor plane and the box
// drawn as the table (SceneProps) are not among them.
enum class SolidShape : uint8_t { Box, Sphere, Capsule };
struct SolidGizmo {
  SolidShape shape = SolidShape::Box;
  bool rigid = false;         // a simulated rigid box (else a collider)
  glm::vec3 position{0.f};    // m, world
  glm::quat orientation{1.f, 0.f, 0.f, 0.f};
  glm::vec3 size{0.f};        // box: half extents; sphere, capsule: {radius, half length along local y, 0}
};

// Timing and input statistics published by the sim thread with every snapshot, cumulative since the
// thread started. Step time is World::step alone; lateness is a tick's start minus its deadline.
struct TickStats {
  double step_ms_p50 = 0, step_ms_p99 = 0, step_ms_max = 0;
  double lateness_ms_p99 = 0;
  uint64_t skipped_ticks = 0;     // due ticks dropped by the catch-up bound (wall time not simulated)
  double lateness_ms_p50 = 0, lateness_ms_max = 0;
  double publish_ms_p50 = 0, publish_ms_p99 = 0;  // writing and publishing one snapshot
  uint64_t ticks = 0;             // ticks stepped
  uint64_t wakes = 0;             // times the sim thread woke and ran at least one tick
  uint64_t events_applied = 0;    // discrete events applied
  uint64_t events_late = 0;       // events that arrived after their tick and applied at a later one
  uint64_t events_rejected = 0;   // pushes refused because the event queue was full
  uint64_t events_unhandled = 0;  // parameter changes nobody handles
  uint64_t poses_applied = 0;     // pose samples handed to the world
  uint64_t poses_overwritten = 0; // pose samples replaced before the sim read them
  uint64_t poses_invalid = 0;     // pose samples the world rejected (NaN, non-unit quaternion, ...; see below)
  uint64_t input_stalls = 0;      // lockstep: wakes that waited for the input horizon
  // Pose samples the conditioner rejected (outliers, bad quaternions, ...). A sample is counted once: the world
  // sees, and counts in poses_invalid, only what the conditioner let through (engine/sim_thread.h).
  uint64_t poses_conditioned_out = 0;
  uint64_t grabs = 0;             // grab events that caught at least one vertex
  uint64_t grab_misses = 0;       // grab events that caught nothing
  uint64_t releases = 0;          // release events
  uint64_t held_vertices_min = 0; // fewest vertices one successful grab took (0: no grab)
  uint64_t held_vertices_max = 0; // most vertices one successful grab took
  uint64_t attaches = 0;          // tracker attach events that caught at least one vertex (misses: grab_misses)
  uint64_t input_log_dropped = 0; // applied inputs the input log had no room for (the recording is incomplete)
  StreamMetrics stream;           // strain, energy and speed over the whole run
  uint64_t speed_clamps = 0;      // vertices the fail-safe slowed (sim/failsafe.h), summed over the ticks
  uint64_t energy_clamps = 0;     // ticks on which the fail-safe took kinetic energy back
  uint64_t failsafe_first_tick = 0;  // the first tick either engaged (0: never)
  uint64_t grasp_saturated = 0;   // patch-ticks a held patch was stopped at the saturation strain (sim/grasp_saturation.h)
  uint64_t grasp_sliding = 0;     // patch-ticks a released patch slid out of the grip (sim/grasp_release.h)
  bool has_body = false;          // the world has body colliders (hands' palms and forearms, body parts)
  double body_penetration_max_m = 0;  // deepest a cloth vertex sat inside a body collider at any tick's end, m
  double body_penetration_end_m = 0;  // the same at the last tick
  uint64_t seam_pairs = 0;        // seam pairs at the last tick (sim/seam.h; 0: no seams)
  uint64_t seams_sewn = 0;        // of those, sewn for good
  uint64_t seams_sewn_tick = 0;   // the first tick after which every pair was sewn (0: not yet)
  double seam_gap_end = 0;        // m, largest seam gap at the last tick
  double seam_gap_worst = 0;      // m, largest seam gap at any tick
  double seam_gap_worst_sewn = 0; // m, largest seam gap at any tick once every pair was sewn
  uint64_t self_contacts_max = 0; // most self-collision contacts (vertex-triangle + edge-edge) in one tick
  uint64_t self_zones_max = 0;    // most impact zones in one tick
  uint64_t self_contacts_sum = 0; // self-collision contacts summed over the ticks (mean: / ticks)
  uint64_t self_largest_zone_max = 0;  // most vertices in one impact zone
  uint64_t self_intersecting_max = 0;  // most tangled triangle pairs (crossing at a tick's start) left out in one tick
  uint64_t self_intersecting_end = 0;  // the same at the last tick
  uint64_t self_tangled_at_scan = 0;   // crossing triangle pairs found by the last tangle scan (load, reset)
  uint64_t self_tangled_later = 0;     // crossing pairs the periodic scans found since (formed while moving)
  uint64_t self_untangle_moves = 0;    // vertex moves that shortened the tangles' crossing contours, summed over ticks
  uint64_t self_capped_ticks = 0;      // ticks on which a self-collision cap engaged (pairs, zones, contacts)
  double self_ms_p50 = 0, self_ms_p99 = 0, self_ms_max = 0;  // self-collision part of World::step
  uint64_t edits_applied = 0;     // tool edits (cut, remove, scale) the world applied
  uint64_t edits_refused = 0;     // tool edits it refused (the reason printed once per reason)
  uint64_t sews_applied = 0;      // seams sewn by the seam tool
  uint64_t sews_refused = 0;      // seam requests refused
  uint64_t sews_clipped = 0;      // of the sews applied, those whose longer run was clipped (sim/seam_line.h kMaxSeamGather)
  uint64_t topology_changes = 0;  // edits that changed the mesh (a new snapshot topology generation)
  double edit_ms_max = 0;         // longest edit or sew, applying and rebuilding, ms
  uint8_t priority = 0;           // scheduling class the sim thread got (SimPriority: 0 normal, 1 high, 2 realtime)
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
  static constexpr size_t kMaxSolids = 32;  // a mannequin's 16 parts, two hands' 4, the props
  std::array<SolidGizmo, kMaxSolids> solids;  // the first solid_count colliders and rigid boxes
  uint32_t solid_count = 0;                 // <= kMaxSolids (fill_solids)
  uint32_t solids_left_out = 0;             // beyond kMaxSolids: not drawn
  TickStats stats;
  SnapshotTopology topology;  // the triangles the arrays above are drawn with

  void resize(size_t vertex_count);
  // Reserves room for the mesh's capacities (no allocation while an edit stays within them).
  void reserve(const SnapshotMesh& mesh);
};

}  // namespace weft
