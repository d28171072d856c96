#include "engine/snapshot_builder.h"

#include <cmath>

namespace weft {

void compute_vertex_normals(const std::vector<glm::vec3>& position,
                            const std::vector<std::array<uint32_t, 3>>& triangles, std::vector<glm::vec3>& normal) {
  normal.assign(position.size(), glm::vec3(0.f));
  for (const auto& t : triangles) {
    const glm::vec3 n = glm::cross(position[t[1]] - position[t[0]], position[t[2]] - position[t[0]]);  // 2 x area
    normal[t[0]] += n;
    normal[t[1]] += n;
    normal[t[2]] += n;
  }
  for (glm::vec3& n : normal) {
    const float len = glm::length(n);
    n = len > 1e-20f ? n / len : glm::vec3(0.f, 1.f, 0.f);
  }
}

void compute_vertex_strain(const ClothModel& model, const std::vector<glm::vec3>& position, std::vector<float>& strain) {
  strain.assign(position.size(), 0.f);
  for (size_t e = 0; e < model.edge_count; ++e) {
    const auto [a, b] = model.link[e];
    const float s = glm::length(position[a] - position[b]) / model.rest_length[e] - 1.f;
    if (std::abs(s) > std::abs(strain[a])) strain[a] = s;
    if (std::abs(s) > std::abs(strain[b])) strain[b] = s;
  }
}

int table_collider_index(const std::vector<Collider>& colliders) {
  for (size_t k = 0; k < colliders.size(); ++k) {
    const Collider& c = colliders[k];
    if (c.shape == ColliderShape::Box && !c.follows && c.linear_velocity == glm::vec3(0.f) &&
        c.angular_velocity == glm::vec3(0.f) && c.pose.orientation == glm::quat(1.f, 0.f, 0.f, 0.f))
      return int(k);
  }
  return -1;
}

void fill_solids(const World& world, ClothSnapshot& snapshot) {
  const std::vector<Collider>& colliders = world.colliders();
  const int table = table_collider_index(colliders);
  snapshot.solid_count = snapshot.solids_left_out = 0;
  auto add = [&](const SolidGizmo& g) {
    if (snapshot.solid_count < ClothSnapshot::kMaxSolids) snapshot.solids[snapshot.solid_count++] = g;
    else ++snapshot.solids_left_out;
  };
  for (size_t k = 0; k < colliders.size(); ++k) {
    const Collider& c = colliders[k];
    if (c.shape == ColliderShape::Plane || c.parked || int(k) == table) continue;  // a parked hand is unseen
    SolidGizmo g;
    g.position = c.pose.position;
    g.orientation = c.pose.orientation;
    if (c.shape == ColliderShape::Box) {
      g.shape = SolidShape::Box;
      g.size = c.half_extents;
    } else {
      g.shape = c.shape == ColliderShape::Sphere ? SolidShape::Sphere : SolidShape::Capsule;
      g.size = {c.radius, c.shape == ColliderShape::Capsule ? c.half_length : 0.f, 0.f};
    }
    add(g);
  }
  for (const RigidBox& b : world.rigid_boxes())
    add({.shape = SolidShape::Box, .rigid = true, .position = b.pose.position, .orientation = b.pose.orientation,
         .size = b.half_extents});
}

void fill_snapshot(const World& world, ClothSnapshot& snapshot) {
  const ClothModel& model = world.model();
  const ClothState& state = world.state();
  const size_t n = model.vertex_count();
  snapshot.resize(n);
  snapshot.tick = state.step_count;
  snapshot.sim_time = state.time;
  snapshot.position = state.position;  // same size: copies without allocating
  compute_vertex_normals(state.position, model.triangle, snapshot.normal);
  compute_vertex_strain(model, state.position, snapshot.strain);
  world.grasp_mask(snapshot.grasped.data());  // bit 0 left hand, bit 1 right hand, bit 2 tracker or pin
  auto held = [&](DeviceGizmo& g, Device d) {
    g.held_vertices = uint32_t(world.held_vertices(d).size());
    g.grabbing = g.held_vertices > 0;
  };
  for (size_t h = 0; h < snapshot.hands.size(); ++h) held(snapshot.hands[h], hand_device(Hand(h)));
  for (size_t k = 0; k < snapshot.trackers.size(); ++k)
    held(snapshot.trackers[k], Device(device_index(Device::Tracker0) + int(k)));
  fill_solids(world, snapshot);
}

}  // namespace weft
