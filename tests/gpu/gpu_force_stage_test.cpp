// The GPU step's force models beyond springs (gpu/gpu_force_stage.h) against the CPU's default mg step on a
// hanging disc with a hole (an annulus: no rows or columns, edges at every angle to the weave), lifted by two
// hands: after 1 s the RMS position difference is at most 1 mm and the hands hold as many vertices. One case
// per feature: every fabric preset of assets/materials (the weft/warp model on four, springs on one),
// Volino's triangles, air drag and lift, the plasticity of the weft/warp model. And, tighter, the forces at
// a step's start against evaluate_forces and one tightly solved step against the CPU's CG (the blocks).
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>

#include "engine/material_loader.h"
#include "gpu/gpu_integrator.h"
#include "gpu/step_device.h"
#include "sim/mesh_generators.h"
#include "sim/plasticity.h"
#include "tests/allocation_counter.h"
#include "tests/gpu/gpu_world.h"
#include "tests/skip.h"

using namespace weft;
using weft::test::gpu_world;
using weft::test::open_device;
using weft::test::rms_difference;

TEST_SUITE_BEGIN("gpu");

namespace {

uint32_t extreme(const Mesh& m, float ax, float ay) {  // the vertex furthest along (ax, ay)
  uint32_t best = 0;
  for (uint32_t i = 0; i < m.positions.size(); ++i)
    if (ax * m.positions[i].x + ay * m.positions[i].y > ax * m.positions[best].x + ay * m.positions[best].y) best = i;
  return best;
}

// A disc of 0.5 m with a 0.1 m hole, hung in a tilted vertical plane from two vertices near its top.
Scene disc_scene(const Material& material) {
  Scene s;
  s.name = "gpu force parity";
  AnnulusSpec a;
  a.inner_radius = 0.05f;
  a.outer_radius = 0.25f;
  a.rings = 5;
  a.edge = 0.05f;
  s.mesh = make_annulus(a);
  for (glm::vec3& p : s.mesh.positions) {
    const float x = p.x - 0.25f, y = p.y - 0.25f;
    p = glm::vec3(x, 1.2f + 0.9f * y, -0.4f * y + 0.1f * x);
  }
  s.material = material;
  s.hand_colliders.enabled = false;  // the GPU step has no colliders yet (gpu_unsupported_feature)
  s.pins = {extreme(s.mesh, 0.5f, 1.f), extreme(s.mesh, -0.5f, 1.f)};
  return s;
}

Material preset(const char* name) { return load_material_preset(name, WEFT_SOURCE_DIR "/assets/materials"); }

// Both hands take the two lowest vertices at t = 0.25 s and lift them 20 cm and apart over 0.5 s.
void two_hand_tick(World& w, int k, const std::array<uint32_t, 2>& corner, const std::array<glm::vec3, 2>& at) {
  const double t = w.state().time, h = w.time_step();
  const float lift = float(std::clamp((t - 0.25) / 0.5, 0.0, 1.0));
  for (int hand = 0; hand < 2; ++hand) {
    PoseSample s;
    s.time = t + h;
    s.device = hand_device(Hand(hand));
    s.pose.position = at[hand] + lift * glm::vec3(hand ? 0.1f : -0.1f, 0.2f, 0.f);
    w.submit_pose(s);
  }
  if (k == 60)
    for (int hand = 0; hand < 2; ++hand) {
      Pose p;
      p.position = w.state().position[corner[hand]];
      w.grab(Hand(hand), p, 0.05f);
    }
  w.step();
}

struct Parity {
  double rms = 0;
  World cpu, gpu;
};

// 1 s of the two-hand lift on the CPU's default step (mg, to cpu_tolerance) and on the GPU's; checks the
// bound and the grasps.
Parity run_parity(const Scene& s, const std::shared_ptr<ComputeContext>& ctx, float cpu_tolerance = 0) {
  Scene reference = s;
  if (cpu_tolerance > 0) reference.world.solver.mg_tolerance = cpu_tolerance;
  Parity p{0, build_world(reference), gpu_world(s, ctx)};
  const std::array<uint32_t, 2> corner = {extreme(s.mesh, -0.5f, -1.f), extreme(s.mesh, 0.5f, -1.f)};
  const std::array<glm::vec3, 2> at = {p.cpu.state().position[corner[0]], p.cpu.state().position[corner[1]]};
  for (int k = 0; k < 240; ++k) {
    two_hand_tick(p.cpu, k, corner, at);
    two_hand_tick(p.gpu, k, corner, at);
  }
  p.rms = rms_difference(p.cpu, p.gpu);
  MESSAGE(s.name << " (" << s.mesh.positions.size() << " vertices): RMS " << p.rms * 1e3 << " mm, GPU PCG iterations "
                 << p.gpu.integrator_stats().solver_iterations);
  CHECK(std::isfinite(p.rms));
  CHECK(p.rms <= 1e-3);
  for (Device d : {Device::LeftHand, Device::RightHand}) {
    CHECK(p.gpu.held_vertices(d).vertex.size() > 0);
    CHECK(p.gpu.held_vertices(d).vertex.size() == p.cpu.held_vertices(d).vertex.size());
  }
  return p;
}

void preset_case(const char* name, float cpu_tolerance = 0) {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  Scene s = disc_scene(preset(name));
  s.name = name;
  REQUIRE(gpu_unsupported_feature(s) == nullptr);
  run_parity(s, ctx, cpu_tolerance);
}

}  // namespace

TEST_CASE("gpu forces: the weft/warp model matches the CPU step on cotton") { preset_case("cotton"); }
TEST_CASE("gpu forces: the weft/warp model matches the CPU step on denim") { preset_case("denim"); }
// Silk (35 g/m^2) is so light that the default mg's own tolerance moves it: 2.2 mm between mg at 1e-3 and at
// 1e-5 after 1 s (the GPU's PCG at 1e-4: 2.9 mm from the first, 0.9 mm from the second): the reference is mg
// at 1e-5.
TEST_CASE("gpu forces: the weft/warp model matches the CPU step on silk") { preset_case("silk", 1e-5f); }
TEST_CASE("gpu forces: the weft/warp model matches the CPU step on wool jersey") { preset_case("wool_jersey"); }
TEST_CASE("gpu forces: springs match the CPU step on the disc with the isotropic preset") { preset_case("isotropic"); }

// The weft/warp model's isotropic membrane (sim/isotropic_membrane.h, `weave membrane isotropic`): the weft
// curve on the principal stretches, the eigen-decomposed blocks (isotropic_triangles.comp). In-plane plasticity
// off: the membrane has none (build_weft_warp_model refuses it); the hinges' plasticity stays on.
static Material isotropic_membrane(const char* name) {
  Material m = preset(name);
  m.weave.membrane = Membrane::Isotropic;
  m.weave.plasticity.in_plane = false;
  return m;
}

// Cotton's curve (1600 N/m at 8 %) in every direction snaps this disc between 0.83 and 1 s on the CPU alone (mg
// at 1e-3 and at 1e-5 end 75 mm apart, mg at 1e-5 and CG at 1e-6 78 mm; the GPU 42 mm from mg): its forces are
// checked at a state instead (below).
TEST_CASE("gpu forces: the isotropic membrane matches the CPU step on denim, silk and wool jersey") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  for (const char* name : {"denim", "silk", "wool_jersey"}) {
    Scene s = disc_scene(isotropic_membrane(name));
    s.name = std::string(name) + ", isotropic membrane";
    REQUIRE(gpu_unsupported_feature(s) == nullptr);
    run_parity(s, ctx);
  }
}

// Crease lines (sim/crease_line.h) only set the hinges' rest angles and stiffnesses when the model is built,
// which the GPU's hinges read: one line per interior edge of the disc in a band across it (its edges lie on no
// straight line), folded 90 degrees and three times as stiff, on cotton (whose plasticity starts from them).
TEST_CASE("gpu forces: crease lines match the CPU step") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  Scene s = disc_scene(preset("cotton"));
  s.name = "cotton, creased";
  std::map<std::pair<uint32_t, uint32_t>, int> sides;
  for (const auto& t : s.mesh.triangles)
    for (int k = 0; k < 3; ++k) ++sides[std::minmax(t[k], t[(k + 1) % 3])];
  for (const auto& [edge, count] : sides) {
    const glm::vec2 a = s.mesh.material[edge.first], b = s.mesh.material[edge.second], mid = 0.5f * (a + b);
    if (count == 2 && std::abs(mid.y - 0.25f) < 0.04f && std::abs(mid.x - 0.25f) > 0.06f)
      s.creases.push_back({.from = a, .to = b, .rest_angle_deg = 90.f, .stiffness_scale = 3.f});
  }
  REQUIRE(s.creases.size() >= 8);
  REQUIRE(gpu_unsupported_feature(s) == nullptr);
  const Parity p = run_parity(s, ctx);
  size_t folded = 0;
  for (float angle : p.cpu.model().weft_warp.hinge_rest_angle) folded += std::fabs(angle) > 1.f;
  MESSAGE(s.creases.size() << " crease lines, " << folded << " hinges folded");
  CHECK(folded >= s.creases.size() / 2);
}

TEST_CASE("gpu forces: Volino's triangles match the CPU step") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  for (bool general_mass : {false, true}) {
    Material m = preset("isotropic");
    m.stretch_model = StretchModel::Volino;
    m.volino_general_mass = general_mass;
    Scene s = disc_scene(m);
    s.name = general_mass ? "volino, general masses" : "volino, equal masses";
    REQUIRE(gpu_unsupported_feature(s) == nullptr);
    run_parity(s, ctx);
  }
}

TEST_CASE("gpu forces: air drag and lift match the CPU step") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  // Springs flutter in a stronger wind (drag 2, lift 1, 1.1 m/s: 16 mm from mg after 1 s, mg 2 mm from CG at
  // 1e-6, with forces equal to 1e-6: the case above), so they get a gentler one than cotton.
  for (const char* name : {"isotropic", "cotton"}) {
    Material m = preset(name);
    const bool cotton = std::string(name) == "cotton";
    m.drag = cotton ? 2.f : 1.f;
    m.lift = cotton ? 1.f : 0.5f;
    m.wind = cotton ? glm::vec3(0.5f, 0.f, 1.f) : glm::vec3(0.f, 0.f, 0.5f);
    Scene s = disc_scene(m);
    s.name = std::string(name) + " in wind";
    REQUIRE(gpu_unsupported_feature(s) == nullptr);
    run_parity(s, ctx);
  }
}

TEST_CASE("gpu forces: the plastic rest state yields as on the CPU step") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  Material m = preset("cotton");  // bending and in-plane plasticity on; yields low enough to set within 1 s
  m.weave.plasticity.yield_curvature = 2.f;
  m.weave.plasticity.yield_strain = 0.002f;
  m.weave.plasticity.shear_yield_strain = 0.002f;
  Scene s = disc_scene(m);
  s.name = "cotton, low yield";
  const Parity p = run_parity(s, ctx);
  // the plastic state moved, and the same way on both
  double set_cpu = 0, set_gpu = 0, angle_cpu = 0, angle_gpu = 0;
  const ClothModel& model = p.cpu.model();
  for (size_t t = 0; t < p.cpu.state().plastic_strain.size(); ++t)
    for (int k = 0; k < 3; ++k) {
      set_cpu = std::max(set_cpu, double(std::fabs(p.cpu.state().plastic_strain[t][k])));
      set_gpu = std::max(set_gpu, double(std::fabs(p.gpu.state().plastic_strain[t][k])));
    }
  for (size_t e = 0; e < p.cpu.state().hinge_rest_angle.size(); ++e) {
    angle_cpu = std::max(angle_cpu, double(std::fabs(p.cpu.state().hinge_rest_angle[e] - model.weft_warp.hinge_rest_angle[e])));
    angle_gpu = std::max(angle_gpu, double(std::fabs(p.gpu.state().hinge_rest_angle[e] - model.weft_warp.hinge_rest_angle[e])));
  }
  MESSAGE("largest plastic strain: CPU " << set_cpu << ", GPU " << set_gpu << "; largest plastic angle: CPU "
                                         << angle_cpu << " rad, GPU " << angle_gpu << " rad");
  CHECK(set_cpu > 0.005);
  CHECK(angle_cpu > 0.05);
  CHECK(set_gpu == doctest::Approx(set_cpu).epsilon(0.05));
  CHECK(angle_gpu == doctest::Approx(angle_cpu).epsilon(0.05));
}

// Stage 6 on the GPU (gpu/shaders/plasticity.comp), entry by entry: from a moving, deformed state with low
// yields (0.4 s into the two-hand lift on the CPU), the GPU integrator's first tick takes the state's plastic
// rest state and leaves it (the CPU has no update before a first step); its second runs the update at the head
// of the submit on the positions the first left, which is update_plasticity on that state.
TEST_CASE("gpu plasticity: the rest-state update matches update_plasticity entry by entry") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  Material m = preset("cotton");
  m.weave.plasticity.yield_curvature = 2.f;
  m.weave.plasticity.yield_strain = 0.002f;
  m.weave.plasticity.shear_yield_strain = 0.002f;
  m.weave.plasticity.relaxation_time = 0.05f;  // short: the relaxation shows within a tick
  m.weave.plasticity.strain_relaxation_time = 0.05f;
  Scene s = disc_scene(m);
  World w = build_world(s);
  const std::array<uint32_t, 2> corner = {extreme(s.mesh, -0.5f, -1.f), extreme(s.mesh, 0.5f, -1.f)};
  const std::array<glm::vec3, 2> at = {w.state().position[corner[0]], w.state().position[corner[1]]};
  for (int k = 0; k < 96; ++k) two_hand_tick(w, k, corner, at);
  const ClothModel& model = w.model();
  const float h = float(w.time_step());
  GpuIntegrator gpu(ctx, model, s.world.solver);
  CHECK(gpu.runs(PostSolveStage::Plasticity));
  CHECK_FALSE(gpu.runs(PostSolveStage::StrainLimit));
  ClothState b = w.state();
  gpu.step(model, b, h);
  CHECK(b.hinge_rest_angle == w.state().hinge_rest_angle);  // seeded, not updated
  CHECK(b.plastic_strain == w.state().plastic_strain);
  ClothState a = b;
  update_plasticity(model, a, h);
  gpu.step(model, b, h);
  double angle_diff = 0, angle_moved = 0, strain_diff = 0, strain_moved = 0;
  for (size_t e = 0; e < a.hinge_rest_angle.size(); ++e) {
    angle_diff = std::max(angle_diff, double(std::fabs(a.hinge_rest_angle[e] - b.hinge_rest_angle[e])));
    angle_moved = std::max(angle_moved, double(std::fabs(a.hinge_rest_angle[e] - w.state().hinge_rest_angle[e])));
  }
  for (size_t t = 0; t < a.plastic_strain.size(); ++t)
    for (int k = 0; k < 3; ++k) {
      strain_diff = std::max(strain_diff, double(std::fabs(a.plastic_strain[t][k] - b.plastic_strain[t][k])));
      strain_moved = std::max(strain_moved, double(std::fabs(a.plastic_strain[t][k] - w.state().plastic_strain[t][k])));
    }
  MESSAGE("one update: rest angles moved up to " << angle_moved << " rad, GPU off by " << angle_diff
                                                 << "; plastic strains moved up to " << strain_moved << ", off by "
                                                 << strain_diff);
  REQUIRE(a.hinge_rest_angle.size() == model.weft_warp.hinge_count());
  REQUIRE(a.plastic_strain.size() == model.triangle_count());
  CHECK(angle_moved > 1e-3);
  CHECK(strain_moved > 1e-5);
  // float on both sides, with the GPU's own sqrt and exp: 1.5e-6 rad and 5e-6 seen (plastic strains up to 0.6)
  CHECK(angle_diff <= 1e-5);
  CHECK(strain_diff <= 2e-5);
}

TEST_CASE("gpu forces: two runs of a weft/warp scene in wind give one hash") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  Material m = preset("cotton");
  m.drag = 2.f;
  m.lift = 1.f;
  const Scene s = disc_scene(m);
  auto run = [&] {
    World w = gpu_world(s, ctx);
    const std::array<uint32_t, 2> corner = {extreme(s.mesh, -0.5f, -1.f), extreme(s.mesh, 0.5f, -1.f)};
    const std::array<glm::vec3, 2> at = {w.state().position[corner[0]], w.state().position[corner[1]]};
    for (int k = 0; k < 90; ++k) two_hand_tick(w, k, corner, at);
    return w.state_hash();
  };
  const uint64_t first = run(), second = run();
  CHECK(first == second);
  CHECK(first != build_world(s).state_hash());
}

TEST_CASE("gpu forces: a weft/warp tick in wind allocates nothing once the command buffer is recorded") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  Material m = preset("cotton");  // plasticity on: the rest state is packed every tick
  m.drag = 2.f;
  const Scene s = disc_scene(m);
  World w = gpu_world(s, ctx);
  const std::array<uint32_t, 2> corner = {extreme(s.mesh, -0.5f, -1.f), extreme(s.mesh, 0.5f, -1.f)};
  const std::array<glm::vec3, 2> at = {w.state().position[corner[0]], w.state().position[corner[1]]};
  for (int k = 0; k < 62; ++k) two_hand_tick(w, k, corner, at);  // recorded at the first tick; grabbed at 60
  const uint64_t before = test::allocation_count();
  for (int k = 62; k < 80; ++k) two_hand_tick(w, k, corner, at);
  CHECK(test::allocation_count() - before == 0);
}

TEST_CASE("gpu forces: the Vulkan validation layer says nothing about the force kernels") {
  std::string why;
  const std::shared_ptr<ComputeContext> ctx = weft::test::open_validated_device(why);
  WEFT_SKIP_IF(!ctx, why.c_str());
  Material volino = preset("isotropic"), cotton = preset("cotton");
  volino.stretch_model = StretchModel::Volino;
  cotton.drag = 2.f;
  cotton.lift = 1.f;
  for (const Material& m : {volino, cotton, isotropic_membrane("cotton")}) {
    World w = gpu_world(disc_scene(m), ctx);
    for (int k = 0; k < 30; ++k) w.step();
  }
  INFO(ctx->first_validation_message());
  CHECK(ctx->validation_messages() == 0);
}

// The GPU's forces at the start of a step against evaluate_forces on one moving, deformed state (0.4 s into
// the two-hand lift on the CPU), vertex by vertex: the largest difference relative to the largest force.
void force_case(const Material& m, const char* what, double tolerance) {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  Scene s = disc_scene(m);
  World w = build_world(s);
  const std::array<uint32_t, 2> corner = {extreme(s.mesh, -0.5f, -1.f), extreme(s.mesh, 0.5f, -1.f)};
  const std::array<glm::vec3, 2> at = {w.state().position[corner[0]], w.state().position[corner[1]]};
  for (int k = 0; k < 96; ++k) two_hand_tick(w, k, corner, at);
  const ClothModel& model = w.model();
  ClothState state = w.state();
  const float h = float(w.time_step());
  ForceBuffers cpu(model);
  evaluate_forces(model, state.position.data(), state.velocity.data(), cpu,
                  {.jacobian = true, .viscosity_h = h, .hinge_rest_angle = plastic_rest_angles(state),
                   .plastic_strain = plastic_strains(state)});
  GpuStepOptions read_back;
  read_back.read_back_solve = true;
  GpuIntegrator gpu(ctx, model, s.world.solver, read_back);
  gpu.step(model, state, h);
  double worst = 0, largest = 0, worst_drag = 0, largest_drag = 0;
  for (size_t i = 0; i < model.vertex_count(); ++i) {
    worst = std::max(worst, double(glm::length(gpu.forces().force[i] - cpu.force[i])));
    largest = std::max(largest, double(glm::length(cpu.force[i])));
    worst_drag = std::max(worst_drag, double(std::fabs(gpu.forces().drag_coefficient[i] - cpu.drag_coefficient[i])));
    largest_drag = std::max(largest_drag, double(cpu.drag_coefficient[i]));
  }
  MESSAGE(std::string(what) << ": largest force " << largest << " N, largest difference " << worst << " N; drag coefficient "
               << largest_drag << ", difference " << worst_drag);
  CHECK(largest > 0);
  CHECK(worst <= tolerance * largest);
  CHECK(worst_drag <= 1e-5 * std::max(largest_drag, 1e-6));

  // The Jacobian blocks through the solve: one step from the same state, both solved tightly (CG to 1e-6 on
  // the CPU, the GPU's PCG to 1e-6), the velocity changes compared.
  SolverOptions tight = s.world.solver;
  tight.cg_tolerance = 1e-6f;
  tight.cg_max_iterations = 2000;
  tight.translation_correction = false;
  ClothState a = w.state(), b = w.state();
  make_integrator(IntegratorKind::ConjugateGradient, model, tight)->step(model, a, h);
  GpuStepOptions go;
  go.tolerance = 1e-6f;
  go.max_iterations = 1000;
  GpuIntegrator(ctx, model, tight, go).step(model, b, h);
  double dv_diff = 0, dv_largest = 0;
  for (size_t i = 0; i < model.vertex_count(); ++i) {
    dv_diff = std::max(dv_diff, double(glm::length(a.velocity[i] - b.velocity[i])));
    dv_largest = std::max(dv_largest, double(glm::length(a.velocity[i] - w.state().velocity[i])));
  }
  MESSAGE(std::string(what) << ": largest dv " << dv_largest << " m/s, largest difference " << dv_diff);
  CHECK(dv_diff <= 1e-3 * dv_largest);
}

TEST_CASE("gpu forces: the forces at a step's start match evaluate_forces vertex by vertex") {
  Material springs = preset("isotropic");
  force_case(springs, "springs", 1e-5);
  Material volino = springs;
  volino.stretch_model = StretchModel::Volino;
  force_case(volino, "volino", 1e-5);
  volino.volino_general_mass = true;
  force_case(volino, "volino, general masses", 1e-5);
  Material air = springs;
  air.drag = 2.f;
  air.lift = 1.f;
  air.wind = glm::vec3(0.5f, 0.f, 1.f);
  force_case(air, "springs in wind", 1e-5);
  // The weave's stress curves are Hermite cubics in float on the GPU, in double on the CPU: denim's stiff
  // warp left 2e-4 of the largest force
  for (const char* name : {"cotton", "denim", "silk", "wool_jersey"}) force_case(preset(name), name, 1e-3);
  force_case(isotropic_membrane("cotton"), "cotton, isotropic membrane", 1e-3);
  force_case(isotropic_membrane("denim"), "denim, isotropic membrane", 1e-3);
}

TEST_SUITE_END();

// The multigrid preconditioner (GpuStepOptions::multigrid) on cotton ends 1.9 mm from the CPU's mg after 1 s, over
// the 1 mm bar, at any tolerance (1e-4: 1.91 mm, 1e-6: 1.93): near 0.9 s the disc takes one of two ways, 2 mm
// apart, by the solve's path, not its accuracy. The CPU's own CG solved to 1e-7 takes the other way (1.95 mm from
// mg at 1e-7, which a 1 um nudge of the mesh moves by 0.02 mm), and so does the GPU's multigrid; block Jacobi on
// the GPU takes mg's (0.68 mm; 2.35 mm from the multigrid with both at 1e-6). docs/gpu.md.
TEST_CASE("gpu multigrid: the cotton disc follows the CPU's tightly solved CG") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  const Scene s = disc_scene(preset("cotton"));
  Scene cg = s, gpu = s;
  cg.world.integrator = IntegratorKind::ConjugateGradient;
  cg.world.solver.cg_tolerance = 1e-7f;
  cg.world.solver.cg_max_iterations = 4000;
  GpuStepOptions o;
  o.multigrid = true;
  gpu.world.make_custom_integrator = [ctx, o](const ClothModel& m, const SolverOptions& so) {
    return std::make_unique<GpuIntegrator>(ctx, m, so, o);
  };
  World reference = build_world(cg), mg = build_world(gpu);
  const std::array<uint32_t, 2> corner = {extreme(s.mesh, -0.5f, -1.f), extreme(s.mesh, 0.5f, -1.f)};
  const std::array<glm::vec3, 2> at = {reference.state().position[corner[0]], reference.state().position[corner[1]]};
  for (int k = 0; k < 240; ++k) {
    two_hand_tick(reference, k, corner, at);
    two_hand_tick(mg, k, corner, at);
  }
  const double rms = rms_difference(reference, mg);
  MESSAGE("cotton, GPU multigrid against CPU CG at 1e-7: RMS " << rms * 1e3 << " mm after 1 s, "
                                                               << mg.integrator_stats().solver_iterations << " iterations");
  CHECK(rms <= 0.5e-3);  // measured 0.12 mm (lavapipe)
  for (Device d : {Device::LeftHand, Device::RightHand})
    CHECK(mg.held_vertices(d).vertex.size() == reference.held_vertices(d).vertex.size());
}
