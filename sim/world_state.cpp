#include "sim/world_state.h"

#include "sim/planar_seed.h"
#include "sim/world_model.h"

namespace weft {

ClothState make_start_state(const ClothModel& model) {
  ClothState s = make_rest_state(model);
  seed_out_of_plane(model, s);  // a flat sheet must be able to buckle
  return s;
}

WorldState make_initial_state(const WorldModel& model) {
  WorldState s;
  const size_t n = model.cloth.vertex_count();
  s.cloth = make_start_state(model.cloth);
  s.colliders = model.colliders;
  s.boxes = model.boxes;
  s.seams = model.seams;
  // Grabs and attachments are applied on the sim thread: size everything they fill now.
  for (int d = 0; d < kDeviceCount; ++d) {
    s.held[d].vertex.reserve(n);
    s.held[d].offset.reserve(n);
    s.held[d].weight.reserve(n);
    s.tethers[d].anchor.resize(n);
    s.tethers[d].length.resize(n);
  }
  s.elastic_held.reserve(n);
  s.seam_driven.reserve(n);
  return s;
}

bool device_pose(const WorldModel& model, const WorldState& state, Device device, double t, Pose& out) {
  const int d = device_index(device);
  if (state.tracks[d].sample(t, model.config.interaction.extrapolation_horizon, out)) return true;
  out = state.attach_pose[d];
  return !state.held[d].vertex.empty();
}

}  // namespace weft
