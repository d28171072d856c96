// One submit a tick (GpuStepOptions::one_submit): stage 4 recorded into the step's command buffer, the release
// grip's throw (gpu/shaders/release_throw.comp) between them on the device, against the same GPU step with two
// submits and the throw on the CPU (sim/release_grip.h take_release_throw), on an irregular sheet held by two
// hands and released one hand after the other.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "engine/material_loader.h"
#include "gpu/gpu_contact_stage.h"
#include "gpu/gpu_integrator.h"
#include "gpu/step_device.h"
#include "sim/mesh_generators.h"
#include "tests/gpu/gpu_world.h"
#include "tests/sim/pose_samples.h"
#include "tests/skip.h"

using namespace weft;
using weft::test::open_device;
using weft::test::open_validated_device;
using weft::test::rms_difference;
using weft::test::sample;

TEST_SUITE_BEGIN("gpu");

namespace {

World world_with(Scene s, std::shared_ptr<ComputeContext> ctx, bool one_submit) {
  s.world.make_custom_integrator = [ctx, one_submit](const ClothModel& m, const SolverOptions& o) {
    GpuStepOptions g;
    g.one_submit = one_submit;
    return std::make_unique<GpuIntegrator>(ctx, m, o, g);
  };
  return build_world(s);
}

// An irregular 0.4 m sheet (11 x 11 vertices) hanging in cotton (weft/warp: no freed relaxation, which stays
// on the CPU) from its top corners, which the two hands take at once and pull 8 cm apart in 0.2 s: wider than
// the cloth gives, so the sheet is taut when the left hand lets go at tick 50 (its patch slides out for
// release_time, 18 ticks, then is freed and springs back); the right lets go at tick 90.
Scene held_sheet() {
  Scene s;
  s.name = "gpu one submit: sheet held by two hands";
  IrregularSpec spec;
  spec.width = spec.height = 0.4f;
  spec.columns = spec.rows = 10;
  spec.seed = 7;
  s.mesh = make_irregular(spec);
  for (glm::vec3& p : s.mesh.positions) p = glm::vec3(p.x - 0.2f, 1.f + p.y, 0.05f * p.x);
  s.material = load_material_preset("cotton", WEFT_SOURCE_DIR "/assets/materials");
  s.hand_colliders.enabled = false;
  return s;
}

uint32_t top_corner(const Mesh& m, float side) {
  uint32_t best = 0;
  for (uint32_t i = 0; i < m.positions.size(); ++i)
    if (side * m.positions[i].x + m.positions[i].y > side * m.positions[best].x + m.positions[best].y) best = i;
  return best;
}

void tick(World& w, int k, const std::array<glm::vec3, 2>& at) {
  const double t = w.state().time, h = w.time_step();
  const float pull = float(std::clamp(t / 0.2, 0.0, 1.0));
  for (int hand = 0; hand < 2; ++hand)
    w.submit_pose(sample(hand_device(Hand(hand)), t + h, at[hand] + pull * glm::vec3(hand ? 0.04f : -0.04f, 0.02f, 0.f)));
  if (k == 0)
    for (int hand = 0; hand < 2; ++hand) {
      Pose p;
      p.position = at[hand];
      w.grab(Hand(hand), p, 0.06f);
    }
  if (k == 50) w.release(Hand::Left);
  if (k == 90) w.release(Hand::Right);
  w.step();
}

const GpuIntegrator& gpu_of(const World& w) { return dynamic_cast<const GpuIntegrator&>(w.integrator()); }

}  // namespace

TEST_CASE("gpu one submit: a sheet released by one hand, then the other, the freed vertices as the CPU throw leaves them") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  const Scene s = held_sheet();
  REQUIRE(gpu_unsupported_feature(s) == nullptr);
  World one = world_with(s, ctx, true), two = world_with(s, ctx, false);
  const std::array<glm::vec3, 2> at = {s.mesh.positions[top_corner(s.mesh, -1.f)],
                                      s.mesh.positions[top_corner(s.mesh, 1.f)]};
  double release_v = 0, release_speed = 0;
  size_t freed = 0, two_submit_ticks = 0;
  for (int k = 0; k < 130; ++k) {
    const std::vector<uint8_t> held = one.state().kinematic;
    tick(one, k, at);
    tick(two, k, at);
    const GpuIntegrator& g = gpu_of(one);
    if (k < 90) {  // one submit a tick while a hand holds (no release recoil: the other hand does work)
      CHECK(g.last_tick_one_submit());
      CHECK(g.submits() == uint64_t(k + 1));
      // nor, the hands doing work (no passive fail-safe check) and cotton not buckling, the state after the
      // solve brought back: stage 4's alone
      CHECK_FALSE(g.last_tick_brought_solved_state());
    }
    if (!g.last_tick_one_submit()) ++two_submit_ticks;
    CHECK_FALSE(gpu_of(two).last_tick_one_submit());
    if (k == 10) {  // a held tick: x and v go up once (32 bytes a vertex less) and come down once (32 less)
      const uint64_t n = one.model().vertex_count();
      MESSAGE("held tick, bytes up / down: one submit " << g.tick_upload_bytes() << " / " << g.tick_download_bytes()
                                                        << ", two " << gpu_of(two).tick_upload_bytes() << " / "
                                                        << gpu_of(two).tick_download_bytes());
      CHECK(g.tick_upload_bytes() + 32 * n == gpu_of(two).tick_upload_bytes() + 16 * GpuContactStage::kMaxFreed);
      CHECK(g.tick_download_bytes() + 32 * n == gpu_of(two).tick_download_bytes());
    }
    // The ticks a grip let go: the throw on the device against the CPU's, on the vertices it freed.
    for (size_t i = 0; i < held.size(); ++i) {
      if (!held[i] || one.state().kinematic[i]) continue;
      ++freed;
      const glm::vec3 a = one.state().velocity[i], b = two.state().velocity[i];
      release_v = std::max(release_v, double(glm::length(a - b)));
      release_speed = std::max(release_speed, double(glm::length(b)));
    }
  }
  MESSAGE("two-submit ticks " << two_submit_ticks << "; freed " << freed << " vertices, fastest " << release_speed << " m/s, one submit - two: " << release_v
                   << " m/s; RMS after the second release " << rms_difference(one, two) * 1e3 << " mm");
  REQUIRE(freed > 0);
  CHECK(release_v <= 1e-5 * std::max(1.0, release_speed));
  CHECK(rms_difference(one, two) < 1e-5);  // the same kernels on the same inputs: float rounding apart
  // After the second release the recoil's end runs on the CPU between the step and stage 4: two submits.
  CHECK(two_submit_ticks > 0);
  CHECK(gpu_of(one).submits() == 130 + two_submit_ticks);
}

TEST_CASE("gpu one submit: two runs give one hash and the validation layer is silent") {
  std::string why;
  auto ctx = open_validated_device(why);
  WEFT_SKIP_IF(!ctx, why.c_str());
  const Scene s = held_sheet();
  const std::array<glm::vec3, 2> at = {s.mesh.positions[top_corner(s.mesh, -1.f)],
                                      s.mesh.positions[top_corner(s.mesh, 1.f)]};
  World a = world_with(s, ctx, true), b = world_with(s, ctx, true);
  for (int k = 0; k < 75; ++k) {
    tick(a, k, at);
    tick(b, k, at);
  }
  CHECK(a.state_hash() == b.state_hash());
  CHECK(ctx->validation_messages() == 0);
}
