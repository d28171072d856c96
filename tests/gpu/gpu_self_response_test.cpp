// Stage 5's response on the GPU (gpu/gpu_self_response.h) against sim/self_collision.h's: one contact answered
// exactly (gap closed to the thickness, approach removed, momentum kept), the folded sheet's crossed troughs pulled
// back with no edge-triangle crossing left where the CPU leaves none, a sheet dropped and folded onto itself on the
// floor stepped with either response (crossings, contacts), one tick on the CPU's own states along a 160 degree fold
// as near the CPU's stage 5 as the CPU's in another contact order, that fold in the GPU step ending among the CPU's
// own outcomes, one result from two calls, no allocation per call, and the validation layer silent.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>

#include "gpu/gpu_self_response.h"
#include "sim/collider.h"
#include "sim/integrator.h"
#include "sim/intersection_count.h"
#include "sim/mesh_generators.h"
#include "sim/self_collision.h"
#include "sim/world_stages.h"
#include "tests/allocation_counter.h"
#include "tests/gpu/gpu_world.h"
#include "tests/skip.h"

using namespace weft;
using weft::test::open_device;

TEST_SUITE_BEGIN("gpu");

namespace {

constexpr float kH = 1.f / 240.f;

glm::vec3 momentum(const ClothModel& m, const std::vector<glm::vec3>& u) {
  glm::vec3 p(0.f);
  for (size_t i = 0; i < u.size(); ++i) p += m.mass[i] * u[i];
  return p;
}

// gpu_world.h's wavy fold as a state (gpu_self_contacts_test.cpp's fold). Velocities: the step's motion over h.
struct Fold {
  ClothModel model;
  ClothState state;
  std::vector<glm::vec3> xp;
};
Fold folded_sheet(float amplitude, float drop) {
  test::WavyFold w = test::wavy_fold(amplitude, drop);
  const std::vector<glm::vec3>& x = w.x;
  Fold f{std::move(w.model), {}, w.xp};
  f.state = make_rest_state(f.model);
  f.state.position = x;
  for (size_t i = 0; i < x.size(); ++i) f.state.velocity[i] = (x[i] - w.xp[i]) / kH;
  return f;
}

SelfCollisionConfig config() {
  SelfCollisionConfig c;
  c.thickness = 0.004f;
  c.max_pairs_per_triangle = 4096;
  c.max_contacts_per_vertex = 256;
  return c;
}

// The largest violation (thickness - distance) of the contacts a fresh CPU detection finds at x (the step from xp).
float violation_left(const ClothModel& model, const ClothState& s, const std::vector<glm::vec3>& xp,
                     const SelfCollisionConfig& c) {
  SelfCollision sc(model, c);
  ClothState start = s;
  start.position = xp;
  sc.begin_step(start);
  ClothState now = s;
  sc.begin_resolve(model, now, kH);
  float worst = 0.f;
  for (const SelfContact& k : sc.contacts()) {
    glm::vec3 r(0.f);
    for (int j = 0; j < 4; ++j) r += k.weight[j] * s.position[k.vertex[j]];
    worst = std::max(worst, c.thickness - glm::dot(r, k.normal));
  }
  return worst;
}

// A 10 x 10 irregular 0.24 m sheet folded at 160 degrees about x = 0.12, 1 cm over a floor (its rest shape: near the
// crease the layers lie within the 5 mm thickness); `reversed`: the same cloth with its triangles listed in reverse,
// so that the CPU's contacts come in another order.
Mesh fold_160(bool reversed = false) {
  Mesh mesh = make_irregular({.width = 0.24f, .height = 0.24f, .columns = 10, .rows = 10, .grading = 1.5f, .seed = 5});
  const float hinge = 0.12f, angle = 2.7925f;  // 160 degrees: the upper half lands within the run
  for (glm::vec3& p : mesh.positions) {
    const float d = std::max(p.x - hinge, 0.f);
    p = glm::vec3(std::min(p.x, hinge) + d * std::cos(angle), 0.01f + d * std::sin(angle), -p.y);
  }
  if (reversed) std::reverse(mesh.triangles.begin(), mesh.triangles.end());
  return mesh;
}

Material fold_material() {
  Material material;
  material.damping = 0.001f;
  material.bend_stiffness = 0.5f;
  return material;
}

World fold_world(const Mesh& mesh, WorldConfig wc) {
  wc.tick_hz = 240.0;
  // The GPU's stage 5 keeps the thickness for every contact (no rest gaps, sim/rest_gap.h, yet): along this fold,
  // whose layers lie within it at rest, the parity is with the CPU's stage 5 doing the same.
  wc.self_collision = {.enabled = true, .thickness = 0.005f, .rest_gaps = false};
  World w(build_cloth_model(mesh, fold_material()), wc);
  Collider floor;
  floor.shape = ColliderShape::Plane;
  floor.mu_static = 1.f;
  floor.mu_kinetic = 0.8f;
  w.add_collider(floor);
  return w;
}

double rms_between(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += double(glm::dot(a[i] - b[i], a[i] - b[i]));
  return std::sqrt(s / double(a.size()));
}

// Sums over the sampled ticks of the RMS differences from the CPU's stage 5 (m, m/s), the CPU's correction, contacts.
struct TickParity {
  double gpu_dx = 0, gpu_dv = 0, reversed_dx = 0, reversed_dv = 0, correction = 0;
  uint64_t cpu_contacts = 0, gpu_contacts = 0;
};

// The CPU's mg step with stage 4 run here (World::step then runs its own stage 5): at stage 5's place, each tick, the
// CPU's self-contacts (SelfCollision::resolve, the vertices on a collider held), the same on the cloth with its
// triangles reversed, and on sampled ticks the GPU's, each on a copy of the one state; the world goes on with its own.
class StageFiveProbe final : public Integrator {
 public:
  StageFiveProbe(std::shared_ptr<ComputeContext> ctx, const ClothModel& model, const SolverOptions& o,
                 const GpuSelfResponseOptions& gpu_options)
      : ctx_(std::move(ctx)), inner_(make_integrator(IntegratorKind::Multigrid, model, o)), gpu_options_(gpu_options) {}
  void step(const ClothModel& m, ClothState& s, float h) override { inner_->step(m, s, h); }
  const char* name() const override { return "stage 5 probe"; }
  bool filters_contacts() const override { return inner_->filters_contacts(); }
  bool runs(PostSolveStage st) const override {
    return st == PostSolveStage::StrainLimit || st == PostSolveStage::ColliderPasses;
  }
  void attach_world(const WorldModel& m, WorldState& s, WorldScratch& sc, StepReport& r) override {
    model_ = &m;
    state_ = &s;
    scratch_ = &sc;
    report_ = &r;
  }
  void run_post_solve(float h) override {
    resolve_contacts(*model_, *state_, *scratch_, h, *report_);
    const ClothModel& m = model_->cloth;
    if (!same_) {
      reversed_model_ = build_cloth_model(fold_160(true), fold_material());
      same_ = std::make_unique<SelfCollision>(m, model_->config.self_collision);
      reversed_ = std::make_unique<SelfCollision>(reversed_model_, model_->config.self_collision);
      gpu_ = std::make_unique<GpuSelfResponse>(ctx_, m, model_->config.self_collision, h, gpu_options_);
    }
    ClothState start = state_->cloth;
    start.position = scratch_->x_prev;
    same_->begin_step(start);
    reversed_->begin_step(start);
    cpu_ = reversed_state_ = state_->cloth;
    same_->resolve(m, cpu_, h, scratch_->collider_contact.data());
    reversed_->resolve(reversed_model_, reversed_state_, h, scratch_->collider_contact.data());
    if (++tick_ % 5) return;
    gpu_state_ = state_->cloth;
    gpu_->resolve(m, gpu_state_, scratch_->x_prev.data(), scratch_->collider_contact.data());
    sums.gpu_dx += rms_between(gpu_state_.position, cpu_.position);
    sums.gpu_dv += rms_between(gpu_state_.velocity, cpu_.velocity);
    sums.reversed_dx += rms_between(reversed_state_.position, cpu_.position);
    sums.reversed_dv += rms_between(reversed_state_.velocity, cpu_.velocity);
    sums.correction += rms_between(cpu_.position, state_->cloth.position);
    sums.cpu_contacts += same_->stats().vertex_triangle + same_->stats().edge_edge;
    sums.gpu_contacts += gpu_->stats().contacts;
  }
  TickParity sums;

 private:
  std::shared_ptr<ComputeContext> ctx_;
  std::unique_ptr<Integrator> inner_;
  GpuSelfResponseOptions gpu_options_;
  const WorldModel* model_ = nullptr;
  WorldState* state_ = nullptr;
  WorldScratch* scratch_ = nullptr;
  StepReport* report_ = nullptr;
  ClothModel reversed_model_;
  std::unique_ptr<SelfCollision> same_, reversed_;
  std::unique_ptr<GpuSelfResponse> gpu_;
  ClothState cpu_, reversed_state_, gpu_state_;
  int tick_ = 0;
};

}  // namespace

TEST_CASE("gpu self response: one vertex 2 mm over a triangle is pushed to the thickness, its approach removed") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  // A triangle at z = 0 and a second one apart from it, one corner 2 mm over the first's middle, the others 3 cm up:
  // one vertex-triangle contact, each vertex in it once, so the Jacobi mean is the CPU's projection.
  Mesh m;
  m.positions = {{0.f, 0.f, 0.f}, {0.1f, 0.f, 0.f}, {0.f, 0.1f, 0.f}, {0.03f, 0.03f, 0.002f}, {0.08f, 0.08f, 0.03f},
                 {0.09f, 0.03f, 0.03f}};
  m.material.resize(6);
  for (size_t i = 0; i < 6; ++i) m.material[i] = glm::vec2(m.positions[i]) + glm::vec2(i >= 3 ? 1.f : 0.f, 0.f);
  m.triangles = {{0, 1, 2}, {3, 4, 5}};
  const ClothModel model = build_cloth_model(m, Material{});
  ClothState s = make_rest_state(model);
  s.position = m.positions;
  std::vector<glm::vec3> xp = s.position;
  xp[3].z += 0.004f;  // it came down 4 mm this step
  s.velocity[3] = glm::vec3(0.2f, 0.f, -1.f);
  const glm::vec3 p0 = momentum(model, s.velocity);
  glm::vec3 c0(0.f);
  for (size_t i = 0; i < 6; ++i) c0 += model.mass[i] * s.position[i];
  GpuSelfResponse gpu(ctx, model, config(), kH);
  gpu.resolve(model, s, xp.data());
  CHECK(gpu.stats().contacts == 1);
  CHECK(gpu.stats().vertex_triangle == 1);
  CHECK(gpu.stats().first_violation == doctest::Approx(0.002f).epsilon(1e-3));
  CHECK(gpu.stats().max_violation < 1e-6f);
  // The gap: the vertex over the triangle's plane, which its corners' move tilted and lowered.
  const glm::vec3 a = s.position[0], b = s.position[1], c = s.position[2];
  const glm::vec3 n = glm::normalize(glm::cross(b - a, c - a));
  CHECK(std::abs(glm::dot(s.position[3] - a, n)) == doctest::Approx(0.004f).epsilon(1e-3));
  CHECK(s.position[3].z > 0.002f);
  CHECK(s.position[0].z < 0.f);
  glm::vec3 c1(0.f);
  for (size_t i = 0; i < 6; ++i) c1 += model.mass[i] * s.position[i];
  CHECK(glm::length(c1 - c0) < 1e-9f);  // sum m dx = 0
  // Velocities: no approach left along the normal (the relative normal velocity of the vertex and its point on the
  // triangle), friction took some of the slide, momentum kept.
  // (0.03, 0.03)'s barycentric weights: (0.4, 0.3, 0.3).
  const glm::vec3 on = 0.4f * s.velocity[0] + 0.3f * s.velocity[1] + 0.3f * s.velocity[2];
  CHECK(glm::dot(s.velocity[3] - on, n) > -1e-4f);
  CHECK(s.velocity[3].x < 0.2f);
  CHECK(s.velocity[3].x > 0.f);
  CHECK(glm::length(momentum(model, s.velocity) - p0) < 1e-6f * glm::length(p0) + 1e-9f);
}

TEST_CASE("gpu self response: the folded sheet's troughs pulled back through the lower layer, as on the CPU") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  // 3 mm waves: layers 2-8 mm apart, some closer than the thickness; 7 mm waves: the troughs went through the lower
  // layer during the step (crossed contacts): both responses must leave no crossing and no contact violated past
  // what the CPU's impact zones would take (half the thickness).
  for (const float amplitude : {0.003f, 0.007f}) {
    CAPTURE(amplitude);
    Fold cpu = folded_sheet(amplitude, 0.01f);
    Fold gpu_fold = cpu;
    const uint64_t crossings_before = count_self_intersections(cpu.model, cpu.state.position).edge_triangle;
    SelfCollision sc(cpu.model, config());
    ClothState start = cpu.state;
    start.position = cpu.xp;
    sc.begin_step(start);
    sc.resolve(cpu.model, cpu.state, kH);
    GpuSelfResponse gpu(ctx, gpu_fold.model, config(), kH);
    const glm::vec3 p0 = momentum(gpu_fold.model, gpu_fold.state.velocity);
    gpu.resolve(gpu_fold.model, gpu_fold.state, gpu_fold.xp.data());
    const uint64_t cpu_crossings = count_self_intersections(cpu.model, cpu.state.position).edge_triangle;
    const uint64_t gpu_crossings = count_self_intersections(gpu_fold.model, gpu_fold.state.position).edge_triangle;
    const float cpu_left = violation_left(cpu.model, cpu.state, cpu.xp, config());
    const float gpu_left = violation_left(gpu_fold.model, gpu_fold.state, gpu_fold.xp, config());
    const SelfCollisionStats& cs = sc.stats();
    const glm::vec3 dp = momentum(gpu_fold.model, gpu_fold.state.velocity) - p0;
    MESSAGE("amplitude ", amplitude, ": crossings before ", crossings_before, ", after CPU ", cpu_crossings, ", GPU ",
            gpu_crossings, "; contacts CPU ", cs.vertex_triangle + cs.edge_edge, " (", cs.zones, " zones), GPU ",
            gpu.stats().contacts, "; violation left CPU ", cpu_left * 1e3f, " mm, GPU ", gpu_left * 1e3f,
            " mm (its own contacts ", gpu.stats().max_violation * 1e3f, " mm); GPU momentum change ", glm::length(dp),
            " of ", glm::length(p0), " kg m/s");
    CHECK(gpu.stats().contacts > 50);
    CHECK(gpu.stats().dropped == 0);
    if (cpu_crossings == 0) CHECK(gpu_crossings == 0);
    CHECK(gpu_crossings <= cpu_crossings);
    CHECK(gpu.stats().max_violation < 0.5f * config().thickness);
    CHECK(gpu_left < 0.5f * config().thickness);
    // Within one order of the CPU's contact count (the hash finds feature pairs the BVH's cones skip).
    CHECK(gpu.stats().contacts <= 10 * (cs.vertex_triangle + cs.edge_edge) + 10);
    CHECK(10 * gpu.stats().contacts + 10 >= cs.vertex_triangle + cs.edge_edge);
    CHECK(glm::length(dp) < 1e-3f * glm::length(p0));  // each contact keeps momentum; float sums
  }
}

TEST_CASE("gpu self response: an irregular sheet dropped and folded onto itself on the floor, as on the CPU") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  // One half 1 cm over the floor, the other raised at 110 degrees; it falls over onto the first. Stepped by mg, the
  // floor (y = 0) as a projection that holds what touches it, then the self-contacts: the CPU's SelfCollision in one
  // run, the GPU's response in the other, 0.75 s.
  Mesh mesh = make_irregular({.width = 0.3f, .height = 0.3f, .columns = 12, .rows = 12, .grading = 1.5f, .seed = 5});
  const float hinge = 0.15f, angle = 1.9199f;
  for (glm::vec3& p : mesh.positions) {
    const float d = std::max(p.x - hinge, 0.f);
    p = glm::vec3(std::min(p.x, hinge) + d * std::cos(angle), 0.01f + d * std::sin(angle), -p.y);
  }
  Material material;
  material.damping = 0.001f;
  material.bend_stiffness = 0.5f;
  const ClothModel model = build_cloth_model(mesh, material);
  SelfCollisionConfig sc = config();
  sc.thickness = 0.005f;
  struct Run {
    ClothState s;
    std::unique_ptr<Integrator> integrator;
    std::vector<uint8_t> on_floor;
    uint64_t contacts = 0, crossing_ticks = 0, most_crossings = 0;
    float worst = 0.f;  // the largest violation a fresh detection finds after the response, sampled ticks
  };
  auto make_run = [&] {
    Run r{make_rest_state(model), make_integrator(IntegratorKind::Multigrid, model), std::vector<uint8_t>(model.vertex_count(), 0)};
    return r;
  };
  Run cpu = make_run(), gpu = make_run();
  SelfCollision cpu_self(model, sc);
  GpuSelfResponse gpu_self(ctx, model, sc, kH);
  std::vector<glm::vec3> xp, cpu_xp;
  auto floor = [&](Run& r) {
    for (size_t i = 0; i < r.s.position.size(); ++i) {
      r.on_floor[i] = r.s.position[i].y <= 0.f ? 1 : 0;
      if (r.on_floor[i]) {
        r.s.position[i].y = 0.f;
        r.s.velocity[i] *= 0.2f;  // friction
        r.s.velocity[i].y = std::max(r.s.velocity[i].y, 0.f);
      }
    }
  };
  uint64_t gpu_ms_contacts = 0;
  for (int k = 0; k < 180; ++k) {
    cpu_xp = cpu.s.position;
    cpu_self.begin_step(cpu.s);
    cpu.integrator->step(model, cpu.s, kH);
    floor(cpu);
    cpu_self.resolve(model, cpu.s, kH, cpu.on_floor.data());
    xp = gpu.s.position;
    gpu.integrator->step(model, gpu.s, kH);
    floor(gpu);
    gpu_self.resolve(model, gpu.s, xp.data(), gpu.on_floor.data());
    cpu.contacts += cpu_self.stats().vertex_triangle + cpu_self.stats().edge_edge;
    gpu.contacts += gpu_self.stats().contacts;
    gpu_ms_contacts += gpu_self.stats().dropped;
    if (k % 6 == 5) {
      for (Run* r : {&cpu, &gpu}) {
        const uint64_t c = count_self_intersections(model, r->s.position).edge_triangle;
        r->crossing_ticks += c > 0 ? 1 : 0;
        r->most_crossings = std::max(r->most_crossings, c);
      }
      cpu.worst = std::max(cpu.worst, violation_left(model, cpu.s, cpu_xp, sc));
      gpu.worst = std::max(gpu.worst, violation_left(model, gpu.s, xp, sc));
    }
  }
  float lowest = 1.f, fastest = 0.f;
  for (size_t i = 0; i < model.vertex_count(); ++i) {
    lowest = std::min(lowest, gpu.s.position[i].y);
    fastest = std::max(fastest, glm::length(gpu.s.velocity[i]));
  }
  MESSAGE("drop fold, 0.75 s: contacts CPU ", cpu.contacts, ", GPU ", gpu.contacts, "; sampled ticks with crossings CPU ",
          cpu.crossing_ticks, " (most ", cpu.most_crossings, "), GPU ", gpu.crossing_ticks, " (most ", gpu.most_crossings,
          "); largest violation left CPU ", cpu.worst * 1e3f, " mm, GPU ", gpu.worst * 1e3f, " mm; GPU dropped ",
          gpu_ms_contacts, ", fastest vertex ", fastest, " m/s");
  CHECK(cpu.contacts > 1000);
  // The same order: the hash finds feature pairs the BVH's cones skip, and contacts left open are found again.
  CHECK(2 * gpu.contacts >= cpu.contacts);
  CHECK(gpu.contacts <= 2 * cpu.contacts);
  CHECK(gpu.worst < 0.5f * sc.thickness);  // what the CPU's impact zones would take
  if (cpu.crossing_ticks == 0) CHECK(gpu.crossing_ticks == 0);
  CHECK(gpu.most_crossings <= cpu.most_crossings + 2);
  CHECK(fastest < 5.f);
  CHECK(std::isfinite(lowest));
}

TEST_CASE("gpu self response: one tick on the CPU's states along the 160 degree fold, as near the CPU's as the CPU's "
          "own in another contact order") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  // The fold below, stepped by the CPU for 0.25 s; every fifth tick its stage 5's input answered by the CPU, by the
  // CPU with the triangles reversed (its Gauss-Seidel passes meet the contacts in another order) and by the GPU.
  // Measured: the GPU's positions end as far from the CPU's as the reversed CPU's (RMS summed over the ticks: 2.21 and
  // 2.29 mm, a quarter of the 8.5 mm correction), its velocities too with 12 Jacobi passes (0.63 and 0.64 m/s; with
  // the CPU's 3 passes, 0.98: under-converged).
  auto run = [&](const GpuSelfResponseOptions& options) {
    WorldConfig wc;
    StageFiveProbe* probe = nullptr;
    wc.make_custom_integrator = [&](const ClothModel& m, const SolverOptions& o) {
      auto p = std::make_unique<StageFiveProbe>(ctx, m, o, options);
      probe = p.get();
      return p;
    };
    World w = fold_world(fold_160(), wc);
    for (int k = 0; k < 60; ++k) w.step();
    REQUIRE(probe);
    const TickParity p = probe->sums;
    MESSAGE("one tick along the fold, summed over 12 ticks: GPU from CPU ", p.gpu_dx * 1e3, " mm, ", p.gpu_dv,
            " m/s; CPU reversed from CPU ", p.reversed_dx * 1e3, " mm, ", p.reversed_dv, " m/s; the correction ",
            p.correction * 1e3, " mm; contacts CPU ", p.cpu_contacts, ", GPU ", p.gpu_contacts, " (velocity passes ",
            options.velocity_passes, ")");
    return p;
  };
  const TickParity p = run({});
  CHECK(p.cpu_contacts > 1000);
  CHECK(p.gpu_contacts * 100 >= p.cpu_contacts * 95);
  CHECK(p.gpu_contacts * 100 <= p.cpu_contacts * 105);
  CHECK(p.gpu_dx < 0.5 * p.correction);
  CHECK(p.gpu_dx <= 1.25 * p.reversed_dx);
  CHECK(p.gpu_dv <= 1.25 * p.reversed_dv);
}

TEST_CASE("gpu self response: in the GPU step after stage 4, a sheet folding onto itself on the floor") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  // The fold as worlds with a floor: the CPU's default step (and the same cloth with its triangles reversed), and
  // the GPU step with stage 5 claimed (GpuStepOptions::self_response; World::step skips the CPU's), twice; 0.5 s.
  // The fold's rest shape puts its layers within the thickness near the crease; stage 5 pushes them apart each
  // tick and the passive cloth walks and climbs (its top from 44 to 100-171 mm): where it ends hangs on the order the
  // CPU meets its contacts, so the GPU is asked to end among the CPU's own outcomes, not at one of them.
  auto gpu_config = [&] {
    WorldConfig wc;
    wc.make_custom_integrator = [ctx](const ClothModel& m, const SolverOptions& o) {
      return std::make_unique<GpuIntegrator>(ctx, m, o, GpuStepOptions{.self_response = true});
    };
    return wc;
  };
  World cpu = fold_world(fold_160(), {}), reversed = fold_world(fold_160(true), {});
  World gpu = fold_world(fold_160(), gpu_config()), again = fold_world(fold_160(), gpu_config());
  uint64_t cpu_contacts = 0, gpu_contacts = 0, cpu_crossings = 0, gpu_crossings = 0, clamps = 0;
  for (int k = 0; k < 120; ++k) {
    cpu.step();
    reversed.step();
    gpu.step();
    again.step();
    const SelfCollisionStats& cs = cpu.self_collision()->stats();
    cpu_contacts += cs.vertex_triangle + cs.edge_edge;
    const auto* integrator = dynamic_cast<const GpuIntegrator*>(&gpu.integrator());
    REQUIRE(integrator);
    REQUIRE(integrator->self_response());
    gpu_contacts += integrator->self_response()->stats().contacts;
    CHECK(gpu.self_collision()->stats().vertex_triangle + gpu.self_collision()->stats().edge_edge == 0);  // skipped
    clamps += gpu.step_report().failsafe.speed_clamps + gpu.step_report().failsafe.energy_clamps;
    if (k % 10 == 9) {
      cpu_crossings += count_self_intersections(cpu.model(), cpu.state().position).edge_triangle;
      gpu_crossings += count_self_intersections(gpu.model(), gpu.state().position).edge_triangle;
    }
  }
  const double to_cpu = test::rms_difference(cpu, gpu), to_reversed = test::rms_difference(reversed, gpu);
  const double spread = test::rms_difference(cpu, reversed);
  MESSAGE("GPU step with stage 5, 0.5 s: contacts CPU ", cpu_contacts, ", GPU ", gpu_contacts,
          "; crossings summed over sampled ticks CPU ", cpu_crossings, ", GPU ", gpu_crossings, "; RMS from the CPU ",
          to_cpu * 1e3, " mm, from the CPU with its triangles reversed ", to_reversed * 1e3, " mm, the two CPU runs ",
          spread * 1e3, " mm apart; fail-safe clamps ", clamps);
  CHECK(cpu_contacts > 100);
  CHECK(2 * gpu_contacts >= cpu_contacts);
  CHECK(gpu_contacts <= 2 * cpu_contacts);
  if (cpu_crossings == 0) CHECK(gpu_crossings == 0);
  CHECK(std::min(to_cpu, to_reversed) <= spread);
  CHECK(std::memcmp(gpu.state().position.data(), again.state().position.data(),
                    gpu.state().position.size() * sizeof(glm::vec3)) == 0);
}

TEST_CASE("gpu self response: two calls give one state and allocate nothing") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  const Fold f = folded_sheet(0.007f, 0.01f);
  GpuSelfResponse gpu(ctx, f.model, config(), kH);
  ClothState a = f.state, b = f.state;
  gpu.resolve(f.model, a, f.xp.data());
  REQUIRE(gpu.stats().contacts > 0);
  const uint64_t before = test::allocation_count();
  gpu.resolve(f.model, b, f.xp.data());
  CHECK(test::allocation_count() - before == 0);
  CHECK(std::memcmp(a.position.data(), b.position.data(), a.position.size() * sizeof(glm::vec3)) == 0);
  CHECK(std::memcmp(a.velocity.data(), b.velocity.data(), a.velocity.size() * sizeof(glm::vec3)) == 0);
}

TEST_CASE("gpu self response: the Vulkan validation layer says nothing") {
  std::string why;
  const std::shared_ptr<ComputeContext> ctx = weft::test::open_validated_device(why);
  WEFT_SKIP_IF(!ctx, why.c_str());
  {
    const Fold f = folded_sheet(0.007f, 0.01f);
    GpuSelfResponse gpu(ctx, f.model, config(), kH);
    ClothState s = f.state;
    for (int k = 0; k < 2; ++k) gpu.resolve(f.model, s, f.xp.data());
    CHECK(gpu.stats().contacts > 0);
  }
  INFO(ctx->first_validation_message());
  CHECK(ctx->validation_messages() == 0);
}

TEST_SUITE_END();
