// The buckled links' force cap on the GPU (gpu/shaders/link_forces.comp, the marks uploaded each tick:
// step_layout.glsl's Buckled) against evaluate_forces with ForceOptions::buckled (sim/buckled_links.h's
// cap_buckled_links), on an irregular disc crushed to 90 % of its size with every third structural link marked.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "gpu/gpu_integrator.h"
#include "sim/buckled_links.h"
#include "sim/mesh_generators.h"
#include "tests/gpu/gpu_world.h"
#include "tests/skip.h"

using namespace weft;
using weft::test::open_device;

TEST_SUITE_BEGIN("gpu");

TEST_CASE("gpu buckled links: a marked link pushes no harder than at the buckling strain, as evaluate_forces caps it") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  Scene s;
  s.name = "gpu buckled links";
  AnnulusSpec a;
  a.inner_radius = 0.05f;
  a.outer_radius = 0.25f;
  a.rings = 5;
  a.edge = 0.04f;
  a.seed = 9;
  s.mesh = make_annulus(a);
  s.material.stretch_stiffness = 500.f;
  s.hand_colliders.enabled = false;
  World w = build_world(s);
  const ClothModel& model = w.model();
  REQUIRE(springs_buckle(model));
  const float h = float(w.time_step());
  ClothState state = w.state();
  const glm::vec3 centre(0.25f, 0.25f, 0.f);
  for (size_t i = 0; i < model.vertex_count(); ++i) {
    state.position[i] = centre + 0.9f * (state.position[i] - centre) + glm::vec3(0.f, 0.f, 0.01f * float(i % 3));
    state.velocity[i] = glm::vec3(0.f, 0.f, 0.05f * float(i % 5));
  }
  REQUIRE(state.buckled.size() == model.edge_count);
  for (size_t l = 0; l < model.edge_count; ++l) state.buckled[l] = l % 3 == 0;
  state.any_buckled = true;

  ForceBuffers capped(model), plain(model);
  evaluate_forces(model, state.position.data(), state.velocity.data(), capped,
                  {.jacobian = true, .viscosity_h = h, .buckled = state.buckled.data()});
  evaluate_forces(model, state.position.data(), state.velocity.data(), plain, {.jacobian = true, .viscosity_h = h});
  SolverOptions solver;
  GpuStepOptions options;
  options.read_back_solve = true;
  options.contact_stage = false;
  GpuIntegrator gpu(ctx, model, solver, options);
  ClothState stepped = state;
  gpu.step(model, stepped, h);
  double worst = 0, largest = 0, cap = 0;
  for (size_t i = 0; i < model.vertex_count(); ++i) {
    worst = std::max(worst, double(glm::length(gpu.forces().force[i] - capped.force[i])));
    largest = std::max(largest, double(glm::length(capped.force[i])));
    cap = std::max(cap, double(glm::length(capped.force[i] - plain.force[i])));
  }
  MESSAGE("largest force " << largest << " N, the cap changes it by up to " << cap << " N, GPU - CPU " << worst << " N");
  CHECK(cap > 0.1 * largest);
  CHECK(worst <= 1e-5 * largest);

  // Unmarked (any_buckled false: World::step cleared them), every link a spring again.
  ClothState unmarked = state;
  unmarked.any_buckled = false;
  gpu.step(model, unmarked, h);
  double worst_plain = 0;
  for (size_t i = 0; i < model.vertex_count(); ++i)
    worst_plain = std::max(worst_plain, double(glm::length(gpu.forces().force[i] - plain.force[i])));
  CHECK(worst_plain <= 1e-5 * largest);
}

TEST_SUITE_END();
