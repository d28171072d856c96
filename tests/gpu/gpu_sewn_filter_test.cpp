// The sewn seams kept in the GPU solve (gpu/shaders/sewn_project.comp, as mg keeps them: sim/sewn_filter.h)
// against the CPU's default step, on two irregular panels (make_irregular, not a grid) 1 cm apart, sewn along
// one side: stage 2's elastics close the seam, then the solve keeps every pair (the command buffer recorded
// again, once, with the projections). Stage 4 runs on the CPU here (GpuStepOptions::contact_stage false):
// the GPU's limiter does not weld the sewn seams yet (sim/sewn_weld.h), so seams stay refused for --device gpu.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <stdexcept>

#include "gpu/gpu_integrator.h"
#include "gpu/step_device.h"
#include "sim/mesh_generators.h"
#include "tests/gpu/gpu_world.h"
#include "tests/skip.h"

using namespace weft;
using weft::test::open_device;
using weft::test::rms_difference;

TEST_SUITE_BEGIN("gpu");

namespace {

World sewn_gpu_world(Scene s, std::shared_ptr<ComputeContext> ctx, float tolerance = 1e-4f) {
  s.world.make_custom_integrator = [ctx, tolerance](const ClothModel& m, const SolverOptions& o) {
    GpuStepOptions g;
    g.contact_stage = false;
    g.tolerance = tolerance;
    return std::make_unique<GpuIntegrator>(ctx, m, o, g);
  };
  return build_world(s);
}

// Panel A (an irregular 20 x 25 cm sheet) and its mirror image B, 1 cm apart in a vertical plane, A's right side
// sewn to B's left, hung from their outer top corners with their hem 5 mm over a floor; a ball under the seam.
Scene sewn_panels() {
  Scene s;
  s.name = "gpu sewn filter: two panels";
  IrregularSpec spec;
  spec.width = 0.2f;
  spec.height = 0.25f;
  spec.columns = 5;
  spec.rows = 6;
  spec.seed = 4;
  const Mesh a = make_irregular(spec);
  const uint32_t na = uint32_t(a.vertex_count());
  for (const glm::vec3& p : a.positions) s.mesh.positions.push_back(glm::vec3(p.x - spec.width - 0.005f, 0.009f + p.y, 0.f));
  for (const glm::vec3& p : a.positions) s.mesh.positions.push_back(glm::vec3(spec.width + 0.005f - p.x, 0.009f + p.y, 0.f));
  s.mesh.material = a.material;
  for (const glm::vec2& m : a.material) s.mesh.material.push_back(glm::vec2(2.f * spec.width - m.x, m.y));
  s.mesh.triangles = a.triangles;
  for (const auto& t : a.triangles) s.mesh.triangles.push_back({t[0] + na, t[2] + na, t[1] + na});
  uint32_t top_left = 0;
  for (uint32_t i = 0; i < na; ++i) {
    if (a.positions[i].x > spec.width - 1e-5f) s.seams.push_back({i, i + na});
    if (a.positions[i].y - a.positions[i].x > a.positions[top_left].y - a.positions[top_left].x) top_left = i;
  }
  s.pins = {top_left, top_left + na};
  s.material.areal_density = 0.15f;
  s.material.stretch_stiffness = 500.f;
  s.material.bend_stiffness = 2.f;
  s.material.damping = 0.01f;
  s.hand_colliders.enabled = false;
  s.world.interaction.seam.tau = 0.02f;
  s.world.interaction.sew_gap = 0.003f;
  Collider floor;
  Collider ball;
  ball.shape = ColliderShape::Sphere;
  ball.pose.position = glm::vec3(0.f, 0.05f, 0.06f);
  ball.radius = 0.05f;
  s.colliders = {floor, ball};
  return s;
}

}  // namespace

// 0.75 s at 240 Hz: the seam sews within 0.03 s, then the solve keeps its pairs. Against mg at 1e-5 (this
// scene moves with mg's own tolerance: mg at 1e-3 ends 6 mm from it), the existing parity tests' 1 mm, with
// the pairs and the resting contacts as many on both sides. Without the projections (the kernel returning at
// once) the GPU step tears the pairs apart inside the solve and ends 12.8 mm from it.
TEST_CASE("gpu sewn filter: two sewn panels hanging over a ball, as on the CPU") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  const Scene s = sewn_panels();
  REQUIRE(s.seams.size() >= 5);
  CHECK(std::string(gpu_unsupported_feature(s)) == "seams");  // stage 4's weld is not on the GPU yet
  Scene tight = s;
  tight.world.solver.mg_tolerance = 1e-5f;
  tight.world.solver.mg_max_iterations = 200;
  World cpu = build_world(tight), mg = build_world(s), gpu = sewn_gpu_world(s, ctx);
  size_t kept_cpu = 0, kept_gpu = 0;
  float gap_gpu = 0.f;
  int iterations = 0;
  for (int k = 0; k < 180; ++k) {
    cpu.step();
    mg.step();
    gpu.step();
    kept_cpu = std::max(kept_cpu, cpu.state().sewn_filter.size());
    kept_gpu = std::max(kept_gpu, gpu.state().sewn_filter.size());
    iterations = std::max(iterations, gpu.integrator().stats().solver_iterations);
    if (k >= 60) gap_gpu = std::max(gap_gpu, gpu.step_report().seams.gap_max);
  }
  const double rms = rms_difference(cpu, gpu), own = rms_difference(cpu, mg);
  const auto& g = dynamic_cast<const GpuIntegrator&>(gpu.integrator());
  MESSAGE("0.75 s: RMS against mg at 1e-5 " << rms * 1e3 << " mm (mg at 1e-3: " << own * 1e3 << " mm); pairs kept in the solve CPU "
                                    << kept_cpu << ", GPU " << kept_gpu << " of " << s.seams.size() << "; seams sewn CPU "
                                    << cpu.step_report().seams.sewn << ", GPU " << gpu.step_report().seams.sewn
                                    << "; largest gap after 0.25 s " << gap_gpu * 1e3 << " mm; resting contacts CPU "
                                    << cpu.state().contact_filter.size() << ", GPU " << gpu.state().contact_filter.size()
                                    << "; most PCG iterations " << iterations << ", last residual " << g.stats().residual);
  CHECK(kept_gpu == s.seams.size());
  CHECK(kept_cpu == kept_gpu);
  CHECK(gpu.step_report().seams.sewn == s.seams.size());
  CHECK(rms <= 1e-3);
  CHECK(std::abs(int(gpu.state().contact_filter.size()) - int(cpu.state().contact_filter.size())) <=
        std::max(3, int(cpu.state().contact_filter.size()) / 10));
  // The state (80 bytes a vertex), the contact axes (64) and the buckled marks (a byte a link, in words), then
  // the sewn pairs (32 bytes a vertex, once the world has pairs).
  const size_t n = gpu.state().position.size(), marks = 4 * std::max<size_t>((gpu.model().edge_count + 3) / 4, 1);
  CHECK(g.tick_upload_bytes() == 80 * n + 64 + marks + 32 * n);
}

TEST_CASE("gpu sewn filter: two runs give one hash, and the validation layer says nothing") {
  std::string why;
  const std::shared_ptr<ComputeContext> ctx = weft::test::open_validated_device(why);
  WEFT_SKIP_IF(!ctx, why.c_str());
  const Scene s = sewn_panels();
  auto run = [&] {
    World w = sewn_gpu_world(s, ctx);
    for (int k = 0; k < 60; ++k) w.step();
    CHECK(w.state().sewn_filter.size() == s.seams.size());
    return w.state_hash();
  };
  CHECK(run() == run());
  INFO(ctx->first_validation_message());
  CHECK(ctx->validation_messages() == 0);
}

TEST_SUITE_END();
