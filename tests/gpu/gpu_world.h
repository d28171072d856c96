#pragma once
// The GPU tests' shared pieces: the first compute device, a world stepped by the GPU integrator on it, and the
// RMS position difference between two worlds (the parity measure).
#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/compute_context.h"
#include "gpu/gpu_integrator.h"
#include "sim/body.h"
#include "sim/mesh_generators.h"
#include "sim/scene.h"
#include "sim/world.h"
#include "tests/sim/pose_samples.h"

namespace weft::test {

inline std::shared_ptr<ComputeContext> open_device(bool validation) {
  const auto devices = list_compute_devices();
  if (devices.empty()) return nullptr;
  return std::make_shared<ComputeContext>(devices.front().index, validation);
}

// The first device with the Vulkan validation layer on, for the tests that check the layer says nothing; null
// with the reason to skip (no device, or the layer not installed).
inline std::shared_ptr<ComputeContext> open_validated_device(std::string& why) {
  if (list_compute_devices().empty()) {
    why = "no Vulkan device";
    return nullptr;
  }
  try {
    return open_device(true);
  } catch (const std::runtime_error& e) {
    why = e.what();
    return nullptr;
  }
}

inline World gpu_world(Scene s, std::shared_ptr<ComputeContext> ctx) {
  s.world.make_custom_integrator = [ctx](const ClothModel& m, const SolverOptions& o) {
    return std::make_unique<GpuIntegrator>(ctx, m, o);
  };
  return build_world(s);
}

// table.json's floor and table (a box standing on it, 0.75 m high), their frictions; the table's half extents
// as each test needs them.
inline std::vector<Collider> table_and_floor(const glm::vec3& table_half_extents) {
  Collider floor;
  floor.mu_static = 0.6f;
  floor.mu_kinetic = 0.5f;
  Collider table;
  table.shape = ColliderShape::Box;
  table.pose.position = glm::vec3(0.f, 0.375f, 0.f);
  table.half_extents = table_half_extents;
  table.mu_static = 0.4f;
  table.mu_kinetic = 0.3f;
  return {floor, table};
}

// A 0.4 m disc with a 6 cm hole hung like an apron from two vertices 9 cm in front of a 1.75 m mannequin's
// neck, tilted 30 degrees away from it: it swings back onto the chest (a capsule of radius 0.13 m) and the
// waist. The body and the resting-contact tests share it.
inline Scene apron_on_mannequin(const char* name) {
  Scene s;
  s.name = name;
  AnnulusSpec a;
  a.inner_radius = 0.03f;
  a.outer_radius = 0.2f;
  a.rings = 5;
  a.edge = 0.04f;
  a.seed = 3;
  s.mesh = make_annulus(a);
  for (glm::vec3& p : s.mesh.positions) {
    const float down = 0.4f - p.y;
    p = glm::vec3(p.x - 0.2f, 1.55f - 0.866f * down, -0.09f - 0.5f * down);
  }
  s.material.areal_density = 0.15f;
  s.material.stretch_stiffness = 500.f;
  s.material.bend_stiffness = 2.f;
  s.material.damping = 0.01f;
  s.hand_colliders.enabled = false;
  auto top = [&](float ax) {
    uint32_t best = 0;
    for (uint32_t i = 0; i < s.mesh.positions.size(); ++i)
      if (ax * s.mesh.positions[i].x + s.mesh.positions[i].y > ax * s.mesh.positions[best].x + s.mesh.positions[best].y) best = i;
    return best;
  };
  s.pins = {top(0.5f), top(-0.5f)};
  s.body = make_mannequin(Pose{}, 1.75f, 0.6f, 0.5f);
  return s;
}

// An irregular annulus of 0.3 m with a 0.05 m hole (151 vertices) lying flat 0.765 m up, 1.5 cm over
// table.json's table, in a light, stiff test material: the disc the stage-4 and end-of-step tests drop.
inline Scene table_height_disc(const char* name) {
  Scene s;
  s.name = name;
  AnnulusSpec a;
  a.inner_radius = 0.05f;
  a.outer_radius = 0.3f;
  a.rings = 6;
  a.edge = 0.05f;
  a.seed = 5;
  s.mesh = make_annulus(a);
  for (glm::vec3& p : s.mesh.positions) p = glm::vec3(p.x - 0.3f, 0.765f, 0.3f - p.y);
  s.material.areal_density = 0.15f;
  s.material.stretch_stiffness = 500.f;
  s.material.bend_stiffness = 5.f;
  s.material.damping = 0.01f;
  return s;
}

inline double rms_difference(const World& a, const World& b) {
  double s = 0;
  const auto& x = a.state().position;
  const auto& y = b.state().position;
  for (size_t i = 0; i < x.size(); ++i) {
    const glm::vec3 d = x[i] - y[i];
    s += double(glm::dot(d, d));
  }
  return std::sqrt(s / double(x.size()));
}


// The right hand at `target` from tick `from` on, grabbing there (5 cm) on that tick: the table tests' hold.
inline void right_hand_at(World& w, int k, int from, const glm::vec3& target) {
  if (k < from) return;
  w.submit_pose(sample(hand_device(Hand::Right), w.state().time + w.time_step(), target));
  if (k == from) {
    Pose pose;
    pose.position = target;
    w.grab(Hand::Right, pose, 0.05f);
  }
}

// An irregular 0.3 x 0.2 m sheet folded about x = 0.15 over a half cylinder of radius 2.5 mm: the right half back
// over the left 5 mm up plus `amplitude` waves (3 periods along y), so that its troughs cross the lower layer; at
// the step's start (xp) it was `drop` higher. The fold of the self-response, crossing and impact-zone tests.
struct WavyFold {
  ClothModel model;
  std::vector<glm::vec3> x, xp;
};
inline WavyFold wavy_fold(float amplitude = 0.007f, float drop = 0.01f) {
  Mesh m = make_irregular({.width = 0.3f, .height = 0.2f, .columns = 14, .rows = 10, .grading = 1.5f, .seed = 3});
  const float x0 = 0.15f, r = 0.0025f, pi = 3.14159265f;
  std::vector<glm::vec3> x(m.positions.size()), xp(m.positions.size());
  for (size_t i = 0; i < m.positions.size(); ++i) {
    const glm::vec3 p = m.positions[i];
    const float s = p.x - x0;
    if (s <= 0.f) {
      x[i] = xp[i] = glm::vec3(p.x, p.y, 0.f);
    } else if (s < pi * r) {
      const float a = s / r;
      x[i] = xp[i] = glm::vec3(x0 + r * std::sin(a), p.y, r * (1.f - std::cos(a)));
    } else {
      const float ramp = std::min(1.f, (s - pi * r) / 0.03f);
      x[i] = glm::vec3(x0 - (s - pi * r), p.y, 2.f * r + ramp * amplitude * std::sin(2.f * pi * 3.f * p.y / 0.2f));
      xp[i] = x[i] + glm::vec3(0.f, 0.f, ramp * drop);
    }
  }
  return {build_cloth_model(m, Material{}), x, xp};
}

}  // namespace weft::test
