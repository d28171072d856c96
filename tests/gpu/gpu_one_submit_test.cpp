// One submit a tick (GpuStepOptions::one_submit): stage 4 recorded into the step's command buffer, the release
// grip's throw (gpu/shaders/release_throw.comp) between them on the device, against the same GPU step with two
// submits and the throw on the CPU (sim/release_grip.h take_release_throw), on an irregular sheet held by two
// hands and released one hand after the other.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "engine/material_loader.h"
#include "gpu/gpu_contact_stage.h"
#include "gpu/gpu_integrator.h"
#include "gpu/step_device.h"
#include "sim/contact_filter.h"
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

World world_with(Scene s, std::shared_ptr<ComputeContext> ctx, bool one_submit, int brief_sweeps = -1,
                 int brief_rounds = -1) {
  s.world.make_custom_integrator = [=](const ClothModel& m, const SolverOptions& o) {
    GpuStepOptions g;
    g.one_submit = one_submit;
    if (brief_sweeps >= 0) g.brief_sweeps = brief_sweeps;
    if (brief_rounds >= 0) g.brief_rounds = brief_rounds;
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

// `yank`: the hands 6 cm apart each in 0.05 s instead (the limiter's passes take several sweeps).
void tick(World& w, int k, const std::array<glm::vec3, 2>& at, bool yank = false) {
  const double t = w.state().time, h = w.time_step();
  const float pull = float(std::clamp(t / (yank ? 0.05 : 0.2), 0.0, 1.0));
  const float apart = yank ? 0.06f : 0.04f;
  for (int hand = 0; hand < 2; ++hand)
    w.submit_pose(sample(hand_device(Hand(hand)), t + h, at[hand] + pull * glm::vec3(hand ? apart : -apart, 0.02f, 0.f)));
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

// The same irregular cotton sheet lying flat 3 mm over a floor (within the resting search's reach): the hands
// take its left and right corners, lift them 4 cm and 6 cm apart in 0.2 s (wider than
// the cloth gives: taut), lay them back on the floor by
// 0.4 s and let go at tick 110 and 120; the middle rests on the floor throughout, its contacts kept by the
// solve (found on the device: gpu/gpu_resting_contacts.h).
Scene sheet_on_floor() {
  Scene s = held_sheet();
  s.name = "gpu one submit: sheet on the floor, corners lifted by two hands";
  IrregularSpec spec;
  spec.width = spec.height = 0.4f;
  spec.columns = spec.rows = 10;
  spec.seed = 11;
  s.mesh = make_irregular(spec);
  for (glm::vec3& p : s.mesh.positions) p = glm::vec3(p.x - 0.2f, 0.003f, p.y - 0.2f);
  Collider floor;
  floor.mu_static = 0.6f;
  floor.mu_kinetic = 0.5f;
  s.colliders = {floor};
  return s;
}

uint32_t side_corner(const Mesh& m, float side) {
  uint32_t best = 0;
  for (uint32_t i = 0; i < m.positions.size(); ++i)
    if (side * m.positions[i].x + m.positions[i].z > side * m.positions[best].x + m.positions[best].z) best = i;
  return best;
}

void floor_tick(World& w, int k, const std::array<glm::vec3, 2>& at) {
  const double t = w.state().time + w.time_step();
  const float up = float(t < 0.2 ? t / 0.2 : std::max(0.0, (0.4 - t) / 0.2));
  const float apart = float(std::min(t / 0.2, 1.0));
  for (int hand = 0; hand < 2; ++hand)
    w.submit_pose(sample(hand_device(Hand(hand)), t,
                         at[hand] + glm::vec3((hand ? 0.03f : -0.03f) * apart, 0.04f * up, 0.f)));
  if (k == 0)
    for (int hand = 0; hand < 2; ++hand) {
      Pose p;
      p.position = at[hand];
      w.grab(Hand(hand), p, 0.1f);
    }
  if (k == 110) w.release(Hand::Left);
  if (k == 120) w.release(Hand::Right);
  w.step();
}

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
      CHECK(g.submits() == uint64_t(k + 1) + g.stage4_reruns());
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
  MESSAGE("stage 4 reruns " << gpu_of(one).stage4_reruns() << " (brief: " << gpu_of(one).contact_stage()->recorded_dispatches(true)
          << " dispatches recorded, whole " << gpu_of(one).contact_stage()->recorded_dispatches() << ")");
  MESSAGE("two-submit ticks " << two_submit_ticks << "; freed " << freed << " vertices, fastest " << release_speed << " m/s, one submit - two: " << release_v
                   << " m/s; RMS after the second release " << rms_difference(one, two) * 1e3 << " mm");
  REQUIRE(freed > 0);
  CHECK(release_v <= 1e-5 * std::max(1.0, release_speed));
  CHECK(rms_difference(one, two) < 1e-5);  // the same kernels on the same inputs: float rounding apart
  // After the second release the recoil's end runs on the CPU between the step and stage 4: two submits.
  CHECK(two_submit_ticks > 0);
  CHECK(gpu_of(one).submits() == 130 + two_submit_ticks + gpu_of(one).stage4_reruns());
}

TEST_CASE("gpu one submit: the kept resting contacts come down with stage 4 on a lean tick, as with two submits") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  const Scene s = sheet_on_floor();
  REQUIRE(gpu_unsupported_feature(s) == nullptr);
  World one = world_with(s, ctx, true), two = world_with(s, ctx, false);
  const std::array<glm::vec3, 2> at = {s.mesh.positions[side_corner(s.mesh, -1.f)],
                                      s.mesh.positions[side_corner(s.mesh, 1.f)]};
  const size_t n = s.mesh.positions.size();
  int lean = 0, differ = 0;
  size_t most = 0, least = n;
  double impulse = 0, largest = 0;
  size_t freed = 0, freed_resting = 0;
  double release_v = 0, release_speed = 0;
  for (int k = 0; k < 150; ++k) {
    const std::vector<uint8_t> held = one.state().kinematic;
    floor_tick(one, k, at);
    floor_tick(two, k, at);
    // The release ticks: the throw on the device, which skips the freed vertices the solve kept on the floor.
    for (size_t i = 0; i < held.size(); ++i) {
      if (!held[i] || one.state().kinematic[i]) continue;
      ++freed;
      const ContactFilter& f = two.state().contact_filter;
      if (f.entry_of_vertex[i] != ContactFilter::kNone) ++freed_resting;
      const glm::vec3 a = one.state().velocity[i], b = two.state().velocity[i];
      release_v = std::max(release_v, double(glm::length(a - b)));
      release_speed = std::max(release_speed, double(glm::length(b)));
    }
    const GpuIntegrator& g = gpu_of(one);
    REQUIRE(g.runs(PostSolveStage::RestingContacts));  // found on the device, both ways
    if (g.last_tick_one_submit() && !g.last_tick_brought_solved_state()) ++lean;
    const ContactFilter& a = one.state().contact_filter;
    const ContactFilter& b = two.state().contact_filter;
    if (k < 110) {
      most = std::max(most, b.size());
      least = std::min(least, b.size());
    }
    // The same vertices rest, in the same order, with the same normal impulses (the next tick's N).
    if (a.vertex != b.vertex) ++differ;
    for (size_t j = 0; j < std::min(a.size(), b.size()); ++j) {
      impulse = std::max(impulse, double(std::abs(a.impulse[j] - b.impulse[j])));
      largest = std::max(largest, double(std::abs(b.impulse[j])));
    }
  }
  MESSAGE("stage 4 reruns " << gpu_of(one).stage4_reruns());
  MESSAGE("lean one-submit ticks " << lean << " of 150; resting contacts " << least << "-" << most
                                   << " a held tick; ticks whose kept vertices differ " << differ
                                   << "; largest impulse difference " << impulse << " of " << largest
                                   << "; freed " << freed << " vertices (" << freed_resting
                                   << " resting), fastest " << release_speed << " m/s, one submit - two " << release_v
                                   << " m/s; RMS " << rms_difference(one, two) * 1e3 << " mm");
  CHECK(lean >= 100);   // the hands do work: no passive fail-safe check; cotton does not buckle
  CHECK(least >= 20);   // the middle rests on the floor while the corners are up
  CHECK(differ == 0);
  CHECK(freed > 0);
  CHECK(release_v <= 1e-5 * std::max(1.0, release_speed));
  CHECK(impulse <= 1e-6 * std::max(1.0, largest));
  CHECK(rms_difference(one, two) < 1e-5);
}

// Stage 4 recorded brief on a one-submit tick (GpuStepOptions::brief_sweeps, brief_rounds): cut to 1 sweep a
// pass and 1 round, the yanked sheet's limiter runs out of them while the hands pull; those ticks rerun stage 4
// whole and both sheets end where the two-submit step (stage 4 recorded whole) ends, to the bit.
TEST_CASE("gpu one submit: a brief stage 4 that runs out is rerun whole, to the same bits") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  const Scene held = held_sheet(), lying = sheet_on_floor();
  const std::array<glm::vec3, 2> top = {held.mesh.positions[top_corner(held.mesh, -1.f)],
                                       held.mesh.positions[top_corner(held.mesh, 1.f)]};
  const std::array<glm::vec3, 2> side = {lying.mesh.positions[side_corner(lying.mesh, -1.f)],
                                        lying.mesh.positions[side_corner(lying.mesh, 1.f)]};
  for (int floor = 0; floor < 2; ++floor) {
    CAPTURE(floor);
    const Scene& s = floor ? lying : held;
    World one = world_with(s, ctx, true, 1, 1), two = world_with(s, ctx, false);
    int reran = 0, ticks = floor ? 110 : 60;
    for (int k = 0; k < ticks; ++k) {
      const uint64_t before = gpu_of(one).stage4_reruns();
      if (floor) {
        floor_tick(one, k, side);
        floor_tick(two, k, side);
      } else {
        tick(one, k, top, true);
        tick(two, k, top, true);
      }
      if (gpu_of(one).stage4_reruns() > before) ++reran;
      CHECK(gpu_of(one).last_tick_one_submit());
    }
    MESSAGE(std::string(floor ? "sheet on the floor" : "yanked sheet") << ": " << reran << " of " << ticks
                                                          << " ticks reran stage 4 whole (brief: "
                                                          << gpu_of(one).contact_stage()->recorded_dispatches(true)
                                                          << " dispatches); RMS " << rms_difference(one, two) * 1e3 << " mm");
    if (!floor) CHECK(reran > 0);  // the limiter's first pass takes more than a sweep while the hands pull
    CHECK(one.state_hash() == two.state_hash());
  }
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
