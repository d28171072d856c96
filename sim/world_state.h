#pragma once
// Everything a tick changes: the cloth's state, where the colliders and rigid boxes are, and what each
// device (two hands, four trackers) holds and where it is going. Reset, snapshots and replays read or
// restore this; the step's stages (sim/world_stages.h) are its only writers, through World.
#include <array>
#include <cstdint>
#include <vector>

#include "sim/cloth_state.h"
#include "sim/collider.h"
#include "sim/device.h"
#include "sim/elastic_constraint.h"
#include "sim/grasp_release.h"
#include "sim/kinematic_safety.h"
#include "sim/pose.h"
#include "sim/pose_track.h"
#include "sim/release_recoil.h"
#include "sim/rigid_body.h"
#include "sim/seam.h"
#include "sim/tether.h"

namespace weft {

struct WorldModel;

struct WorldState {
  ClothState cloth;
  std::vector<Collider> colliders;  // poses and velocities now (model order)
  std::vector<RigidBox> boxes;
  SeamSet seams;                    // the scene's seams and those sewn during the session (World::sew), with
                                    // which of them are closed; vertex indices: an edit remaps them

  // per device (kDeviceCount), indexed by device_index
  std::array<PoseTrack, kDeviceCount> tracks;        // the device's recent pose samples
  std::array<ElasticSet, kDeviceCount> held;         // the vertices it holds, offsets in its frame
  std::array<Pose, kDeviceCount> attach_pose;        // its frame at attach time, used while its track is empty
  std::array<Tethers, kDeviceCount> tethers;         // long-range tethers to its fully held vertices
  std::array<SafeTarget, kDeviceCount> safe;         // its target after the kinematic safety layer
  std::array<glm::vec3, kDeviceCount> held_shift{};  // this tick's held-patch shift (sim/held_clearance.h)
  std::array<GraspRelease, kDeviceCount> release{};  // a release under way: the patch sliding out (sim/grasp_release.h)
  ReleaseRecoil recoil;  // the window after a release in which the cloth is not thrown (sim/release_recoil.h)
  // Set when a grip lets a patch go, cleared once anything holds or touches the cloth: the flight after a
  // release, in which crushed links buckle (sim/buckled_links.h kBuckledInFlight).
  bool flying_since_release = false;

  std::vector<uint32_t> elastic_held;  // vertices the elastics made kinematic last tick (capacity nvert)
  std::vector<uint32_t> seam_driven;   // vertices the open seams drive through this tick's solve (capacity nvert)
  uint64_t invalid_poses = 0;          // pose samples and grab poses refused
  uint64_t refused_sews = 0;           // World::sew calls that added no seam
  uint64_t clipped_sews = 0;           // World::sew calls whose longer run was clipped (SewReport::clipped_m)
  std::array<uint64_t, 5> rejected{};  // pose samples refused, per PoseRejection
};

// The cloth at time 0: its rest state, a flat sheet seeded out of its plane (sim/planar_seed.h).
ClothState make_start_state(const ClothModel& model);

// The state at time 0: the cloth at rest, colliders and boxes where the model puts them, nothing held,
// every per-device buffer sized so that grabs and attachments on the sim thread never allocate.
WorldState make_initial_state(const WorldModel& model);

// The device's pose as the sim uses it at time t: its track, else its attach frame while it holds (false
// when neither is known).
bool device_pose(const WorldModel& model, const WorldState& state, Device device, double t, Pose& out);

}  // namespace weft
