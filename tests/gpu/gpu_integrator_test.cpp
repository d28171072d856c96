// The GPU step (gpu/gpu_integrator.h) against the CPU's on small scenes, on whatever Vulkan device there is
// (lavapipe in CI): parity after 1 s, one hash for two runs, the validation layer silent.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <memory>

#include "gpu/gpu_integrator.h"
#include "gpu/step_device.h"
#include "sim/mesh_generators.h"
#include "tests/allocation_counter.h"
#include "tests/skip.h"

using namespace weft;

TEST_SUITE_BEGIN("gpu");

namespace {

// A 0.6 m cloth of 16 x 16 quads hanging from its two top corners (pinned), tilted so it swings.
Scene hanging_scene() {
  Scene s;
  s.name = "gpu parity";
  GridSpec g;
  g.width = g.height = 0.6f;
  g.columns = g.rows = 16;
  s.mesh = make_grid(g);
  for (glm::vec3& p : s.mesh.positions) p = glm::vec3(p.x - 0.3f, 1.2f + p.y * 0.8f, -0.6f * p.y * 0.6f + 0.1f * p.x);
  s.pins = {16 * 17, 16 * 17 + 16};
  return s;
}

std::shared_ptr<ComputeContext> open_device(bool validation) {
  const auto devices = list_compute_devices();
  if (devices.empty()) return nullptr;
  return std::make_shared<ComputeContext>(devices.front().index, validation);
}

World gpu_world(Scene s, std::shared_ptr<ComputeContext> ctx) {
  s.world.make_custom_integrator = [ctx](const ClothModel& m, const SolverOptions& o) {
    return std::make_unique<GpuIntegrator>(ctx, m, o);
  };
  return build_world(s);
}

double rms_difference(const World& a, const World& b) {
  double s = 0;
  const auto& x = a.state().position;
  const auto& y = b.state().position;
  for (size_t i = 0; i < x.size(); ++i) {
    const glm::vec3 d = x[i] - y[i];
    s += double(glm::dot(d, d));
  }
  return std::sqrt(s / double(x.size()));
}

PoseSample sample(Device d, double t, const glm::vec3& p) {
  PoseSample s;
  s.time = t;
  s.device = d;
  s.pose.position = p;
  return s;
}

// Both hands take the two lower corners at t = 0.25 s and lift them 20 cm and apart over 0.5 s.
void two_hand_tick(World& w, int k, const std::array<glm::vec3, 2>& corner) {
  const double t = w.state().time, h = w.time_step();
  const float lift = float(std::clamp((t - 0.25) / 0.5, 0.0, 1.0));
  for (int hand = 0; hand < 2; ++hand) {
    const glm::vec3 p = corner[hand] + lift * glm::vec3(hand ? 0.1f : -0.1f, 0.2f, 0.f);
    w.submit_pose(sample(hand_device(Hand(hand)), t + h, p));
  }
  if (k == 60)
    for (int hand = 0; hand < 2; ++hand) {
      Pose p;
      p.position = w.state().position[hand ? 16 : 0];
      w.grab(Hand(hand), p, 0.05f);
    }
  w.step();
}

}  // namespace

TEST_CASE("gpu step: the hanging cloth and a two-hand grab match the CPU step after 1 s") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  const Scene s = hanging_scene();
  World cpu = build_world(s);
  World gpu = gpu_world(s, ctx);
  REQUIRE(std::string(gpu.integrator_stats().solver_iterations >= 0 ? "ok" : "") == "ok");
  for (int k = 0; k < 240; ++k) {
    cpu.step();
    gpu.step();
  }
  const double hanging = rms_difference(cpu, gpu);
  MESSAGE("hanging: RMS " << hanging * 1e3 << " mm, GPU PCG iterations " << gpu.integrator_stats().solver_iterations
                            << ", CPU mg iterations " << cpu.integrator_stats().solver_iterations);
  CHECK(hanging <= 1e-3);
  CHECK(std::isfinite(hanging));

  World cpu2 = build_world(s);
  World gpu2 = gpu_world(s, ctx);
  const std::array<glm::vec3, 2> corner = {cpu2.state().position[0], cpu2.state().position[16]};
  for (int k = 0; k < 240; ++k) {
    two_hand_tick(cpu2, k, corner);
    two_hand_tick(gpu2, k, corner);
  }
  const double grabbed = rms_difference(cpu2, gpu2);
  MESSAGE("two hands: RMS " << grabbed * 1e3 << " mm, GPU PCG iterations " << gpu2.integrator_stats().solver_iterations
                              << ", CPU mg iterations " << cpu2.integrator_stats().solver_iterations);
  CHECK(grabbed <= 1e-3);
  for (Device d : {Device::LeftHand, Device::RightHand}) {
    CHECK(gpu2.held_vertices(d).vertex.size() > 0);
    CHECK(gpu2.held_vertices(d).vertex.size() == cpu2.held_vertices(d).vertex.size());
  }
}

TEST_CASE("gpu step: two runs of one scene on one device give one hash") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  const Scene s = hanging_scene();
  // One whole run, then another (stepping the two worlds in turn gave two hashes in one build of this test
  // and one in others: docs/gpu.md, not yet explained).
  auto run = [&] {
    World w = gpu_world(s, ctx);
    const std::array<glm::vec3, 2> corner = {w.state().position[0], w.state().position[16]};
    for (int k = 0; k < 120; ++k) two_hand_tick(w, k, corner);
    return w.state_hash();
  };
  const uint64_t first = run(), second = run();
  CHECK(first == second);
  CHECK(first != build_world(s).state_hash());
}

TEST_CASE("gpu step: a tick allocates nothing once the command buffer is recorded") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  World w = gpu_world(hanging_scene(), ctx);
  const std::array<glm::vec3, 2> corner = {w.state().position[0], w.state().position[16]};
  for (int k = 0; k < 62; ++k) two_hand_tick(w, k, corner);  // recorded at the first tick; grabbed at 60
  const uint64_t before = test::allocation_count();
  for (int k = 62; k < 80; ++k) two_hand_tick(w, k, corner);
  CHECK(test::allocation_count() - before == 0);
}

TEST_CASE("gpu step: the Vulkan validation layer says nothing") {
  const auto devices = list_compute_devices();
  WEFT_SKIP_IF(devices.empty(), "no Vulkan device");
  std::shared_ptr<ComputeContext> ctx;
  try {
    ctx = open_device(true);
  } catch (const std::runtime_error& e) {
    WEFT_SKIP_IF(true, e.what());  // the layer is not installed
  }
  {
    World w = gpu_world(hanging_scene(), ctx);
    for (int k = 0; k < 30; ++k) w.step();
  }
  INFO(ctx->first_validation_message());
  CHECK(ctx->validation_messages() == 0);
}

TEST_SUITE_END();
