// Stage 4 on the GPU (gpu/gpu_contact_stage.h: tethers, the strain limiter, the colliders' position passes,
// alternated) against the CPU's resolve_contacts, on meshes that are not grids: a disc with a hole
// (make_annulus) and an irregular sheet (make_irregular). Each parity case runs the same GPU solve twice, with
// stage 4 on the CPU (GpuStepOptions::contact_stage false) and on the GPU, so that the difference is stage
// 4's alone, and checks the GPU world against the CPU's default step too.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>

#include "engine/material_loader.h"
#include "gpu/gpu_contact_stage.h"
#include "gpu/gpu_integrator.h"
#include "gpu/step_device.h"
#include "sim/mesh_generators.h"
#include "sim/strain_limit.h"
#include "tests/gpu/gpu_world.h"
#include "tests/sim/pose_samples.h"
#include "tests/skip.h"

using namespace weft;
using weft::test::open_device;
using weft::test::rms_difference;
using weft::test::table_height_disc;
using weft::test::sample;

TEST_SUITE_BEGIN("gpu");

namespace {

World gpu_world_with(Scene s, std::shared_ptr<ComputeContext> ctx, bool contact_stage) {
  s.world.make_custom_integrator = [ctx, contact_stage](const ClothModel& m, const SolverOptions& o) {
    GpuStepOptions g;
    g.contact_stage = contact_stage;
    return std::make_unique<GpuIntegrator>(ctx, m, o, g);
  };
  return build_world(s);
}

// The same with stage 4 on the CPU and the solve's tolerance 0.9e-4 for 1e-4: how far the scene's own
// sensitivity carries a change that small (the spread the GPU's stage 4 is held to once contacts decide).
World perturbed_world(Scene s, std::shared_ptr<ComputeContext> ctx) {
  s.world.make_custom_integrator = [ctx](const ClothModel& m, const SolverOptions& o) {
    GpuStepOptions g;
    g.contact_stage = false;
    g.tolerance = 0.9e-4f;
    return std::make_unique<GpuIntegrator>(ctx, m, o, g);
  };
  return build_world(s);
}

uint32_t extreme(const Mesh& m, float ax, float az) {  // the vertex furthest along (ax, 0, az)
  uint32_t best = 0;
  for (uint32_t i = 0; i < m.positions.size(); ++i)
    if (ax * m.positions[i].x + az * m.positions[i].z > ax * m.positions[best].x + az * m.positions[best].z) best = i;
  return best;
}

// An annulus of 0.5 m with a 0.1 m hole lying 1.5 cm over table.json's table (a box on a floor, their
// frictions): it falls on it and drapes over the edges. `hands`: the hands' colliders on.
Scene table_disc(bool hands) {
  Scene s = table_height_disc("gpu stage 4: disc on a table");
  Collider ball;  // a sphere and a capsule the draping edge meets
  ball.shape = ColliderShape::Sphere;
  ball.pose.position = glm::vec3(0.3f, 0.6f, 0.f);
  ball.radius = 0.06f;
  Collider bar;
  bar.shape = ColliderShape::Capsule;
  bar.pose.position = glm::vec3(0.f, 0.65f, -0.28f);
  bar.pose.orientation = glm::angleAxis(1.5707963f, glm::vec3(0.f, 0.f, 1.f));
  bar.radius = 0.02f;
  bar.half_length = 0.2f;
  s.colliders = weft::test::table_and_floor(glm::vec3(0.25f, 0.375f, 0.2f));
  s.colliders.push_back(ball);
  s.colliders.push_back(bar);
  s.hand_colliders.enabled = hands;
  return s;
}

// From t = 0.25 s the right hand takes the disc's rightmost vertex and lifts it by `lift` over 0.5 s.
void table_tick(World& w, int k, const glm::vec3& at, float lift) {
  if (k >= 60) {
    const double t = w.state().time, h = w.time_step();
    const float up = lift * float(std::clamp((t - 0.25) / 0.5, 0.0, 1.0));
    w.submit_pose(sample(hand_device(Hand::Right), t + h, at + glm::vec3(0.f, up, 0.f)));
    if (k == 60) {
      Pose pose;
      pose.position = at;
      w.grab(Hand::Right, pose, 0.03f);
    }
  }
  w.step();
}

// An irregular annulus hung from two vertices near its top in a tilted plane; both hands take its two
// lowest vertices at t = 0.25 s and pull them down and apart by 30 cm over 0.4 s, then hold: the limiter and
// the tethers keep it from stretching.
Scene hung_disc(const Material& material) {
  Scene s;
  s.name = "gpu stage 4: disc pulled by two hands";
  AnnulusSpec a;
  a.inner_radius = 0.05f;
  a.outer_radius = 0.25f;
  a.rings = 5;
  a.edge = 0.04f;
  a.seed = 9;
  s.mesh = make_annulus(a);
  for (glm::vec3& p : s.mesh.positions) {
    const float x = p.x - 0.25f, y = p.y - 0.25f;
    p = glm::vec3(x, 1.2f + 0.9f * y, -0.4f * y + 0.1f * x);
  }
  s.material = material;
  s.hand_colliders.enabled = false;
  auto top = [&](float ax) {
    uint32_t best = 0;
    for (uint32_t i = 0; i < s.mesh.positions.size(); ++i)
      if (ax * s.mesh.positions[i].x + s.mesh.positions[i].y > ax * s.mesh.positions[best].x + s.mesh.positions[best].y) best = i;
    return best;
  };
  s.pins = {top(0.5f), top(-0.5f)};
  return s;
}

uint32_t lowest(const Mesh& m, float ax) {
  uint32_t best = 0;
  for (uint32_t i = 0; i < m.positions.size(); ++i)
    if (ax * m.positions[i].x - m.positions[i].y > ax * m.positions[best].x - m.positions[best].y) best = i;
  return best;
}

void pull_tick(World& w, int k, const std::array<uint32_t, 2>& corner, const std::array<glm::vec3, 2>& at) {
  const double t = w.state().time, h = w.time_step();
  const float pull = float(std::clamp((t - 0.25) / 0.4, 0.0, 1.0));
  for (int hand = 0; hand < 2; ++hand)
    w.submit_pose(sample(hand_device(Hand(hand)), t + h, at[hand] + pull * glm::vec3(hand ? 0.3f : -0.3f, -0.3f, 0.f)));
  if (k == 60)
    for (int hand = 0; hand < 2; ++hand) {
      Pose p;
      p.position = w.state().position[corner[hand]];
      w.grab(Hand(hand), p, 0.03f);
    }
  w.step();
}

Material preset(const char* name) { return load_material_preset(name, WEFT_SOURCE_DIR "/assets/materials"); }

}  // namespace

TEST_CASE("gpu stage 4: the GPU step claims the limiter and the colliders once it steps a world") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  const Scene s = table_disc(true);
  REQUIRE(gpu_unsupported_feature(s) == nullptr);
  World w = gpu_world_with(s, ctx, true);
  w.step();
  const auto* gpu = dynamic_cast<const GpuIntegrator*>(&w.integrator());
  REQUIRE(gpu);
  CHECK(gpu->runs(PostSolveStage::StrainLimit));
  CHECK(gpu->runs(PostSolveStage::ColliderPasses));
  CHECK_FALSE(gpu->runs(PostSolveStage::SelfContacts));
  REQUIRE(gpu->contact_stage());
  CHECK(gpu->contact_stage()->colour_count() >= 3);
  // and not without the stage (World::step runs stage 4 on the CPU then)
  World off = gpu_world_with(s, ctx, false);
  off.step();
  CHECK_FALSE(off.integrator().runs(PostSolveStage::ColliderPasses));
}

// The disc lands on the table (0.25 s) within 0.01 mm of the CPU's stage 4: every vertex that lands is put
// back by the colliders' passes. Draping over the box's edges, it is chaotic: a solve tolerance of 0.9e-4
// for 1e-4 moves it 4.9 mm after 0.5 s (the GPU's stage 4: 4.3 mm), so after 1 s the bound is that spread
// plus 1 mm. The hand lifts its edge 4 cm from 0.25 s, its colliders on.
TEST_CASE("gpu stage 4: a disc dropped on a table, a ball and a bar, lifted by a hand, as with stage 4 on the CPU") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  const Scene s = table_disc(true);
  World cpu4 = gpu_world_with(s, ctx, false), gpu4 = gpu_world_with(s, ctx, true), spread = perturbed_world(s, ctx);
  const glm::vec3 at = cpu4.state().position[extreme(s.mesh, 1.f, 0.f)] - glm::vec3(0.f, 0.009f, 0.f);
  uint32_t contacts_cpu = 0, contacts_gpu = 0;
  for (int k = 0; k < 240; ++k) {
    table_tick(cpu4, k, at, 0.04f);
    table_tick(gpu4, k, at, 0.04f);
    table_tick(spread, k, at, 0.04f);
    if (k == 59) {
      const double landed = rms_difference(cpu4, gpu4);
      MESSAGE("landed (0.25 s): stage 4 GPU against CPU RMS " << landed * 1e3 << " mm, collider contacts CPU "
                                                            << cpu4.step_report().collision.contacts << ", GPU "
                                                            << gpu4.step_report().collision.contacts);
      CHECK(landed <= 1e-5);
      CHECK(gpu4.step_report().collision.contacts == cpu4.step_report().collision.contacts);
    }
    contacts_cpu = std::max(contacts_cpu, cpu4.step_report().collision.contacts);
    contacts_gpu = std::max(contacts_gpu, gpu4.step_report().collision.contacts);
  }
  const double stage4 = rms_difference(cpu4, gpu4), own = rms_difference(cpu4, spread);
  MESSAGE("1 s: stage 4 GPU against CPU RMS " << stage4 * 1e3 << " mm (the scene's own spread " << own * 1e3
                                              << " mm); most collider contacts in a tick CPU " << contacts_cpu << ", GPU "
                                              << contacts_gpu << "; solve contacts CPU " << cpu4.state().contact_filter.size()
                                              << ", GPU " << gpu4.state().contact_filter.size());
  CHECK(stage4 <= own + 1e-3);
  CHECK(contacts_gpu > 0);
  CHECK(std::abs(int(contacts_gpu) - int(contacts_cpu)) <= std::max(3, int(contacts_cpu) / 10));
  CHECK(gpu4.held_vertices(Device::RightHand).vertex.size() == cpu4.held_vertices(Device::RightHand).vertex.size());
  CHECK(gpu4.held_vertices(Device::RightHand).vertex.size() > 0);
  // nothing inside the colliders: the pushes hold
  for (const Collider& c : gpu4.colliders()) {
    if (c.follows) continue;
    for (const glm::vec3& p : gpu4.state().position) {
      glm::vec3 n;
      CHECK(collider_distance(c, p, n) > -1e-3f);
    }
  }
}

TEST_CASE("gpu stage 4: the strain bound holds at every tick on a disc pulled by two hands (cotton, denim, isotropic)") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  for (const char* name : {"cotton", "denim", "isotropic"}) {
    CAPTURE(std::string(name));
    const Scene s = hung_disc(preset(name));
    REQUIRE(gpu_unsupported_feature(s) == nullptr);
    World cpu4 = gpu_world_with(s, ctx, false), gpu4 = gpu_world_with(s, ctx, true), spread = perturbed_world(s, ctx);
    const float limit = gpu4.config().interaction.strain.max_strain;
    const std::array<uint32_t, 2> corner = {lowest(s.mesh, -0.5f), lowest(s.mesh, 0.5f)};
    const std::array<glm::vec3, 2> at = {gpu4.state().position[corner[0]], gpu4.state().position[corner[1]]};
    float worst_gpu = 0.f, worst_cpu = 0.f;
    uint32_t corrected = 0;
    for (int k = 0; k < 240; ++k) {
      pull_tick(cpu4, k, corner, at);
      pull_tick(gpu4, k, corner, at);
      pull_tick(spread, k, corner, at);
      worst_gpu = std::max(worst_gpu, max_edge_strain(gpu4.model(), gpu4.state().position.data()));
      worst_cpu = std::max(worst_cpu, max_edge_strain(cpu4.model(), cpu4.state().position.data()));
      corrected += gpu4.step_report().strain.corrected;
    }
    const double rms = rms_difference(cpu4, gpu4), own = rms_difference(cpu4, spread);
    MESSAGE(std::string(name) << ": largest edge strain over 1 s GPU " << worst_gpu * 100 << " %, CPU " << worst_cpu * 100
                 << " % (limit " << limit * 100 << " %); GPU corrections " << corrected << "; RMS " << rms * 1e3
                 << " mm (the scene's own spread " << own * 1e3 << " mm); first pass sweeps (last tick) "
                 << dynamic_cast<const GpuIntegrator&>(gpu4.integrator()).contact_stage()->first_sweeps());
    CHECK(corrected > 0);  // the pull stretched it: the limiter worked
    CHECK(worst_gpu <= limit + 0.01f);
    CHECK(rms <= own + 1e-3);
  }
}

TEST_CASE("gpu stage 4: two runs on a table with a hand give one hash") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  const Scene s = table_disc(true);
  auto run = [&] {
    World w = gpu_world_with(s, ctx, true);
    const glm::vec3 at = w.state().position[extreme(s.mesh, 1.f, 0.f)] - glm::vec3(0.f, 0.009f, 0.f);
    for (int k = 0; k < 120; ++k) table_tick(w, k, at, 0.04f);
    return w.state_hash();
  };
  CHECK(run() == run());
}

TEST_SUITE_END();
