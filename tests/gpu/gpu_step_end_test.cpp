// The end of the GPU step on the device (gpu/shaders/translation_sums.comp, translation_reduce.comp,
// end_step.comp) against the CPU's apply_implicit_step on the same solved dv, forces and contact impulses
// (read back with GpuStepOptions::read_back_solve), on an irregular disc: in free flight, with a pinned
// vertex, and lying on a table with its contacts (their axes stuck or not).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "gpu/gpu_integrator.h"
#include "sim/implicit_step.h"
#include "sim/mesh_generators.h"
#include "tests/gpu/gpu_world.h"
#include "tests/skip.h"

using namespace weft;
using weft::test::open_device;
using weft::test::table_height_disc;

TEST_SUITE_BEGIN("gpu");

namespace {

// An annulus of 0.3 m with a 0.05 m hole, 0.765 m up (over a table when `table`), 151 vertices.
Scene disc(bool table) {
  Scene s = table_height_disc("gpu end of step");
  s.hand_colliders.enabled = false;
  Collider floor;
  floor.mu_static = 0.6f;
  floor.mu_kinetic = 0.5f;
  s.colliders = {floor};
  if (table) {
    Collider box;
    box.shape = ColliderShape::Box;
    box.pose.position = glm::vec3(0.f, 0.375f, 0.f);
    box.half_extents = glm::vec3(0.25f, 0.375f, 0.2f);
    box.mu_static = 0.4f;
    box.mu_kinetic = 0.3f;
    s.colliders.push_back(box);
  }
  return s;
}

struct Gap {
  double x = 0, v = 0;         // largest GPU - CPU difference, m and m/s
  double correction = 0;       // largest |v| difference the correction makes on the CPU, m/s
};

// One GPU step from `state` (a loose solve: a large correction), against apply_implicit_step on its read-back
// dv, forces and contact work, with and without the correction.
Gap end_of_step_gap(const std::shared_ptr<ComputeContext>& ctx, const ClothModel& model, const ClothState& start,
                    float h) {
  SolverOptions solver;
  solver.translation_correction = true;
  GpuStepOptions options;
  options.read_back_solve = true;
  options.tolerance = 0.3f;  // a few iterations: the solve misses much of h g, c is large
  options.max_iterations = 4;
  options.warm_start = false;
  options.contact_stage = false;
  GpuIntegrator gpu(ctx, model, solver, options);
  ClothState state = start;
  gpu.step(model, state, h);
  ClothState cpu = start, plain = start;
  cpu.contact_filter.impulse = plain.contact_filter.impulse = state.contact_filter.impulse;
  cpu.contact_filter.work = plain.contact_filter.work = state.contact_filter.work;
  std::vector<glm::vec3> dv = gpu.solved_dv(), dv_plain = gpu.solved_dv();
  apply_implicit_step(model, cpu, gpu.forces(), h, dv.data(), true);
  apply_implicit_step(model, plain, gpu.forces(), h, dv_plain.data(), false);
  Gap g;
  for (size_t i = 0; i < model.vertex_count(); ++i) {
    g.x = std::max(g.x, double(glm::length(state.position[i] - cpu.position[i])));
    g.v = std::max(g.v, double(glm::length(state.velocity[i] - cpu.velocity[i])));
    g.correction = std::max(g.correction, double(glm::length(cpu.velocity[i] - plain.velocity[i])));
  }
  CHECK(state.time == cpu.time);
  CHECK(state.step_count == cpu.step_count);
  return g;
}

}  // namespace

TEST_CASE("gpu end of step: the translation correction, v += dv and x += h v match apply_implicit_step") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  // In free flight, stretched by 8 % and spinning: forces in every link.
  World w = build_world(disc(false));
  const ClothModel& model = w.model();
  const float h = float(w.time_step());
  ClothState flight = w.state();
  const glm::vec3 centre(0.f, 0.765f, 0.f);
  for (size_t i = 0; i < model.vertex_count(); ++i) {
    const glm::vec3 r = flight.position[i] - centre;
    flight.position[i] = centre + 1.08f * r;
    flight.velocity[i] = glm::vec3(-r.z, 0.2f, r.x) * 2.f;
  }
  const Gap free = end_of_step_gap(ctx, model, flight, h);
  MESSAGE("free flight: correction " << free.correction << " m/s; GPU - CPU " << free.x << " m, " << free.v << " m/s");
  CHECK(free.correction > 1e-3);
  CHECK(free.v <= 1e-3 * free.correction);
  CHECK(free.x <= 1e-6);

  // A pinned vertex: no correction on either side.
  ClothState pinned = flight;
  pinned.kinematic[3] = 1;
  pinned.kinematic_velocity[3] = glm::vec3(0.f);
  const Gap pin = end_of_step_gap(ctx, model, pinned, h);
  MESSAGE("pinned: GPU - CPU " << pin.x << " m, " << pin.v << " m/s");
  CHECK(pin.correction == 0);
  CHECK(pin.v <= 1e-6);
  CHECK(pin.x <= 1e-6);

  // Lying on a table (a CPU world, 40 ticks: landed and draping), its contacts kept in the solve: their
  // impulses in the sum, their normal component imposed again, the correction along the contact normals only
  // when one stuck.
  World t = build_world(disc(true));
  for (int k = 0; k < 40; ++k) t.step();
  ClothState on_table = t.state();
  REQUIRE(on_table.contact_filter.size() > 10);
  REQUIRE(on_table.contact_axes.count > 0);
  for (bool stuck : {false, true}) {
    on_table.contact_axes.stuck = stuck;
    const Gap g = end_of_step_gap(ctx, t.model(), on_table, h);
    MESSAGE("on the table, stuck " << stuck << ": correction " << g.correction << " m/s; GPU - CPU " << g.x << " m, "
                                   << g.v << " m/s");
    CHECK(g.correction > 1e-4);
    CHECK(g.v <= 1e-3 * g.correction);
    CHECK(g.x <= 1e-6);
  }
}

TEST_SUITE_END();
