#include "lab/interaction_validation.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

#include "sim/force_field.h"
#include "sim/mesh_generators.h"

namespace weft::lab {
namespace {

double ease(double s) { return s <= 0 ? 0 : s >= 1 ? 1 : 0.5 - 0.5 * std::cos(M_PI * s); }

// p-quantile of the structural edge strains (values is scratch, sized nedge).
void edge_strains(const ClothModel& model, const glm::vec3* x, std::vector<float>& values, double& p99, double& max) {
  for (size_t e = 0; e < model.edge_count; ++e)
    values[e] = glm::length(x[model.link[e][1]] - x[model.link[e][0]]) / model.rest_length[e] - 1.f;
  const size_t k = size_t(0.99 * double(values.size() - 1));
  std::nth_element(values.begin(), values.begin() + long(k), values.end());
  p99 = values[k];
  max = *std::max_element(values.begin() + long(k), values.end());
}

}  // namespace

double shake_offset(double t, const InteractionTimeline& tl) {
  if (t <= tl.pull_end || t >= tl.shake_end) return 0;
  return tl.shake_amplitude * (1 - std::cos(2 * M_PI * tl.shake_hz * (t - tl.pull_end)));
}

InteractionResult run_interaction(const InteractionSetup& setup, const InteractionTimeline& tl) {
  // The table scene's cloth and material (assets/scenes/table.json), on a table deep enough that it lies flat.
  const float size = 0.8f, table_top = 0.75f;
  const uint32_t n = setup.quads;
  Mesh mesh = make_grid({.width = size, .height = size, .columns = n, .rows = n});
  transform_mesh(mesh, glm::translate(glm::mat4(1.f), glm::vec3(-size / 2, table_top + 0.005f, size / 2)) *
                           glm::rotate(glm::mat4(1.f), -float(M_PI / 2), glm::vec3(1, 0, 0)));
  Material m;
  m.areal_density = 0.15f;
  m.stretch_stiffness = 500.f;
  m.bend_stiffness = 5.f;
  m.damping = setup.damping ? 0.01f : 0.f;
  m.drag = setup.damping ? 0.5f : 0.f;
  WorldConfig config;
  config.tick_hz = setup.tick_hz;
  config.integrator = setup.solver;
  config.solver = setup.options;
  config.make_custom_integrator = setup.make_integrator;
  World w(build_cloth_model(mesh, m), config);
  Collider floor, table;
  table.shape = ColliderShape::Box;
  table.pose.position = {0.f, table_top / 2, 0.f};
  table.half_extents = {1.f, table_top / 2, 1.f};  // no edge within reach: the cloth lands on the top
  w.add_collider(floor);
  if (setup.table) w.add_collider(table);

  // Grasps at the two front corners (row 0, z = +size/2). (Grasped 5 cm inside the corners, the flap beyond
  // each hand swings up to 3.4 cm above it while the hands rise, with the converged reference too.)
  const glm::vec3* x = w.state().position.data();
  auto nearest = [&](float px) {
    uint32_t best = 0;
    for (uint32_t i = 0; i <= n; ++i)
      if (std::abs(x[i].x - px) < std::abs(x[best].x - px)) best = i;
    return best;
  };
  const glm::vec3 start[2] = {x[nearest(-0.4f)], x[nearest(0.4f)]};
  const float rest_apart = start[1].x - start[0].x;
  const float together = 0.4f, apart = setup.apart * rest_apart;  // separations after the lift and after the pull
  const float grasp_radius = 0.03f;
  for (int hnd = 0; hnd < 2; ++hnd) {
    Pose p;
    p.position = start[hnd];
    w.grab(hnd == 0 ? Hand::Left : Hand::Right, p, grasp_radius);
  }
  auto hand_position = [&](int hnd, double t) {
    const double sign = hnd == 0 ? -1 : 1;
    const double mid = 0.5 * (start[0].x + start[1].x);
    double half = 0.5 * rest_apart;
    half += (0.5 * together - 0.5 * rest_apart) * ease(t / tl.lift_end);
    half += (0.5 * apart - 0.5 * together) * ease((t - tl.lift_end) / (tl.pull_end - tl.lift_end));
    double y = start[hnd].y + 0.4 * ease(t / tl.lift_end);
    y += shake_offset(t, tl);
    return glm::vec3(float(mid + sign * half), float(y), start[hnd].z);
  };

  InteractionResult r;
  r.vertices = w.model().vertex_count();
  const ClothModel& model = w.model();
  std::vector<float> strains(model.edge_count);
  std::vector<uint8_t> held(model.vertex_count());
  const double h = w.time_step();
  const double e0 = compute_energy(model, x, w.state().velocity.data()).total();
  double e_hold = 0, e_release = 0, release_time = -1;
  std::vector<double> kinetic_after;  // (time since release, kinetic) samples
  std::vector<double> kinetic_time;
  double step_ms = 0, iterations = 0;
  int steps = 0;
  bool holding = true;
  auto last_progress = std::chrono::steady_clock::now();
  for (double t = 0; t < tl.end - 0.5 * h; t = w.state().time) {
    // A converged reference on 16k vertices takes seconds a step: say where it is every 10 s of wall time.
    if (std::chrono::steady_clock::now() - last_progress > std::chrono::seconds(10)) {
      last_progress = std::chrono::steady_clock::now();
      std::fprintf(stderr, "validate interaction:   t = %.2f of %.2f s simulated, %.0f ms a step\n", t, tl.end,
                   steps > 0 ? step_ms / steps : 0.);
    }
    if (holding && t >= tl.release - 0.5 * h) {
      w.release(Hand::Left);
      w.release(Hand::Right);
      holding = false;
      release_time = t;
      e_release = compute_energy(model, x, w.state().velocity.data()).total();
    }
    if (holding)
      for (int hnd = 0; hnd < 2; ++hnd) {
        PoseSample s;
        s.time = t;
        s.device = hnd == 0 ? Device::LeftHand : Device::RightHand;
        s.pose.position = hand_position(hnd, t);
        w.submit_pose(s);
      }
    const auto c0 = std::chrono::steady_clock::now();
    w.step();
    step_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - c0).count();
    iterations += w.integrator_stats().solver_iterations;
    if (setup.solver == IntegratorKind::ConjugateGradient)
      r.max_cg_residual = std::max(r.max_cg_residual, double(w.integrator_stats().residual));
    ++steps;
    r.grasp_saturated += w.step_report().grasp.saturated;
    const double now = w.state().time;
    x = w.state().position.data();
    const glm::vec3* v = w.state().velocity.data();
    const Energy e = compute_energy(model, x, v);
    r.peak_elastic = std::max(r.peak_elastic, e.elastic);
    r.peak_kinetic = std::max(r.peak_kinetic, e.kinetic);
    if (holding) {
      std::fill(held.begin(), held.end(), 0);
      for (Device d : {Device::LeftHand, Device::RightHand})
        for (uint32_t i : w.held_vertices(d).vertex) held[i] = 1;
      const float top = std::max(hand_position(0, now).y, hand_position(1, now).y);
      for (size_t i = 0; i < model.vertex_count(); ++i) {
        if (!held[i]) r.max_height_above_hand = std::max(r.max_height_above_hand, double(x[i].y - top));
        r.max_speed_held = std::max(r.max_speed_held, double(glm::length(v[i])));
      }
      double p99 = 0, mx = 0;
      edge_strains(model, x, strains, p99, mx);
      r.strain_p99 = std::max(r.strain_p99, p99);
      r.strain_max = std::max(r.strain_max, mx);
      if (now >= tl.still_from - 0.5 * h) {
        if (e_hold == 0) e_hold = e.total();
        r.grasp_saturated_still += w.step_report().grasp.saturated;
        r.hold_energy_rise = std::max(r.hold_energy_rise, e.total() - e_hold);
      }
    } else {
      r.release_energy_rise = std::max(r.release_energy_rise, e.total() - e_release);
      kinetic_time.push_back(now - release_time);
      kinetic_after.push_back(e.kinetic);
    }
  }
  r.energy_input = e_release - e0;
  // settle time: the first moment after which KE stays under 1 % of the run's peak
  r.settle_time = -1;
  for (size_t k = kinetic_after.size(); k-- > 0;) {
    if (kinetic_after[k] >= 0.01 * r.peak_kinetic) break;
    r.settle_time = kinetic_time[k];
  }
  r.mean_step_ms = steps ? step_ms / steps : 0;
  r.mean_solver_iterations = steps ? iterations / steps : 0;
  return r;
}

}  // namespace weft::lab
