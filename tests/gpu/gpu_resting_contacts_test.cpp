// Stage 3's resting-contact search on the GPU (gpu/gpu_resting_contacts.h) against the CPU's
// find_resting_contacts and leave_flat_landings, tick by tick on the very state the GPU step starts from:
// the GPU integrator is wrapped so that, before each step, the CPU search runs on the same positions,
// velocities, last contacts (read back from the device) and held flags, and the device's contacts (read
// back with GpuStepOptions::read_back_solve) are compared with its: the same vertices, normals, imposed dv,
// slips and friction weights to float rounding. On discs with a hole (make_annulus, not grids): dropped on a
// table, sliding on a tilted floor, held and pressed on the table by a hand's colliders, against a
// mannequin's capsules.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "gpu/gpu_integrator.h"
#include "sim/body.h"
#include "sim/contact_filter.h"
#include "sim/landing_filter.h"
#include "sim/mesh_generators.h"
#include "sim/world_model.h"
#include "sim/world_scratch.h"
#include "sim/world_state.h"
#include "tests/gpu/gpu_world.h"
#include "tests/sim/pose_samples.h"
#include "tests/skip.h"

using namespace weft;
using weft::test::open_device;
using weft::test::table_height_disc;

TEST_SUITE_BEGIN("gpu");

namespace {

// What the comparison found over a run.
struct SearchParity {
  int ticks = 0;            // ticks the device searched
  size_t most = 0;          // most contacts in a tick (CPU)
  size_t landed = 0;        // contacts the landing filter dropped on the CPU, summed over the ticks
  size_t held = 0;          // most vertices a device held in a tick (the held flags the search reads)
  int missing = 0;          // a vertex with a contact on one side only, summed
  float normal = 0, dv = 0, slip = 0, friction = 0;  // largest differences (friction: relative to the tick's largest)
};

// The GPU step with the CPU's search beside it (the integrator stage 3 calls; World::step sees the GPU's).
class CheckedSearch final : public Integrator {
 public:
  CheckedSearch(std::unique_ptr<GpuIntegrator> gpu, std::shared_ptr<SearchParity> out, size_t n)
      : gpu_(std::move(gpu)), out_(std::move(out)), x_last_(n, glm::vec3(0.f)) {
    expected_.resize(n);
  }
  void step(const ClothModel& model, ClothState& state, float h) override {
    const bool searched = gpu_->runs(PostSolveStage::RestingContacts);
    if (searched) {
      const InteractionConfig& in = world_->config.interaction;
      const std::vector<Collider>& col = state_->colliders;
      find_resting_contacts(col.data(), col.size(), in.thickness, model.material.gravity, h, model.mass.data(),
                            state.kinematic.data(), state.position.data(), state.velocity.data(),
                            scratch_->last_contact_filter, expected_,
                            scratch_->held_by_live ? scratch_->held_by.data() : nullptr, col.size());
      const size_t found = expected_.size();
      if (!expected_.empty())
        leave_flat_landings(model, col.data(), col.size(), state.kinematic.data(), state.position.data(),
                            x_last_.data(), in.thickness, expected_);
      out_->landed += found - expected_.size();
      if (scratch_->held_by_live)
        out_->held = std::max(out_->held, size_t(std::count_if(scratch_->held_by.begin(), scratch_->held_by.end(),
                                                                [](uint8_t b) { return b != 0; })));
    }
    std::copy(state.position.begin(), state.position.end(), x_last_.begin());
    gpu_->step(model, state, h);
    stats_ = gpu_->stats();
    compare_ = searched;
  }
  // After stage 4: on a lean one-submit tick (GpuStepOptions::one_submit) the kept contacts come down with
  // stage 4's state, so the filter is whole only once run_post_solve has read it.
  void run_post_solve(float h) override {
    gpu_->run_post_solve(h);
    if (!compare_) return;
    compare_ = false;
    const ContactFilter& got = state_->cloth.contact_filter;
    ++out_->ticks;
    out_->most = std::max(out_->most, expected_.size());
    float largest = 0.f;
    for (float f : expected_.friction) largest = std::max(largest, f);
    for (size_t i = 0; i < expected_.entry_of_vertex.size(); ++i) {
      const uint32_t e = expected_.entry_of_vertex[i], g = got.entry_of_vertex[i];
      if ((e == ContactFilter::kNone) != (g == ContactFilter::kNone)) ++out_->missing;
      if (e == ContactFilter::kNone || g == ContactFilter::kNone) continue;
      out_->normal = std::max(out_->normal, glm::length(expected_.normal[e] - got.normal[g]));
      out_->dv = std::max(out_->dv, std::abs(expected_.dv_normal[e] - got.dv_normal[g]));
      out_->slip = std::max(out_->slip, glm::length(expected_.slip[e] - got.slip[g]));
      out_->friction = std::max(out_->friction, std::abs(expected_.friction[e] - got.friction[g]) / std::max(largest, 1e-12f));
    }
  }
  const char* name() const override { return gpu_->name(); }
  bool filters_contacts() const override { return gpu_->filters_contacts(); }
  bool runs(PostSolveStage s) const override { return gpu_->runs(s); }
  void attach_world(const WorldModel& m, WorldState& s, WorldScratch& sc, StepReport& r) override {
    world_ = &m;
    state_ = &s;
    scratch_ = &sc;
    gpu_->attach_world(m, s, sc, r);
  }

 private:
  std::unique_ptr<GpuIntegrator> gpu_;
  std::shared_ptr<SearchParity> out_;
  ContactFilter expected_;
  bool compare_ = false;  // the device searched this tick: compare after stage 4
  std::vector<glm::vec3> x_last_;  // the last step's start (the CPU's WorldScratch::x_prev before stage 3 copies)
  const WorldModel* world_ = nullptr;
  WorldState* state_ = nullptr;
  WorldScratch* scratch_ = nullptr;
};

World checked_world(Scene s, std::shared_ptr<ComputeContext> ctx, std::shared_ptr<SearchParity> out) {
  s.world.make_custom_integrator = [ctx, out](const ClothModel& m, const SolverOptions& o) {
    GpuStepOptions g;
    g.read_back_solve = true;  // the contacts' normals, dv, slips and friction weights come back
    return std::make_unique<CheckedSearch>(std::make_unique<GpuIntegrator>(ctx, m, o, g), out, m.vertex_count());
  };
  return build_world(s);
}

// table_height_disc on table.json's table (a box on a floor plane, their frictions) made 0.4 m deep, so that
// the disc drapes over its front and back edges (on the 0.6 m table it lies flat 0.1 mm beyond the filter's
// reach, every contact left to the pass after the step, on the CPU as on the GPU); `hands`: the hands'
// colliders on.
Scene disc_on_table(bool hands) {
  Scene s = table_height_disc("gpu resting: disc on a table");
  s.world.interaction.thickness = 0.004f;
  s.colliders = weft::test::table_and_floor(glm::vec3(0.5f, 0.375f, 0.2f));
  s.hand_colliders.enabled = hands;
  return s;
}

Scene dropped(Scene s, float height) {
  for (glm::vec3& p : s.mesh.positions) p.y += height;
  return s;
}

// The same disc laid 1 cm over a floor tilted 35 degrees (tan 0.70 over its mu_s 0.6): it slides.
Scene disc_on_slope() {
  Scene s = disc_on_table(false);
  s.colliders.resize(1);
  const float slope = glm::radians(35.f);
  s.colliders[0].pose.position = glm::vec3(0.f, 0.75f, 0.f);
  s.colliders[0].pose.orientation = glm::angleAxis(slope, glm::vec3(0.f, 0.f, 1.f));
  for (glm::vec3& p : s.mesh.positions) p.y = 0.75f + p.x * std::tan(slope) + 0.01f / std::cos(slope);
  return s;
}

// The apron the body tests hang (gpu_world.h): it swings onto the chest and waist capsules.
Scene disc_on_body() {
  return weft::test::apron_on_mannequin("gpu resting: an apron on a mannequin");
}

// From t = 0.25 s the right hand holds the disc's right edge where it lies, its colliders pressing it on
// the table (the held flags go up with the state).
void hold_tick(World& w, int k) {
  weft::test::right_hand_at(w, k, 60, glm::vec3(0.f, 0.756f, 0.f));
  w.step();
}

}  // namespace

TEST_CASE("gpu resting contacts: the device's search equals find_resting_contacts tick by tick") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  struct Case {
    const char* name;
    Scene scene;
    int ticks;
    bool hold;
    size_t least;  // contacts the run must reach
    bool landing;  // the landing filter drops some (the disc lands flat at 2.5 m/s)
  };
  const Case cases[] = {{"dropped 30 cm onto a table", dropped(disc_on_table(false), 0.3f), 150, false, 50, true},
                        {"sliding on a tilted floor", disc_on_slope(), 120, false, 100, false},
                        {"held and pressed on the table by a hand's colliders", disc_on_table(true), 120, true, 50, false},
                        {"against a mannequin's capsules", disc_on_body(), 150, false, 3, false}};
  for (const Case& c : cases) {
    CAPTURE(c.name);
    auto parity = std::make_shared<SearchParity>();
    World w = checked_world(c.scene, ctx, parity);
    for (int k = 0; k < c.ticks; ++k) {
      if (c.hold) hold_tick(w, k);
      else w.step();
    }
    const SearchParity& p = *parity;
    MESSAGE(std::string(c.name) << ": " << p.ticks << " ticks, most contacts " << p.most << ", landings dropped "
                                << p.landed << ", most held " << p.held << ", vertices on one side only " << p.missing
                                << "; largest differences: normal " << p.normal
                   << ", dv " << p.dv << " m/s, slip " << p.slip << " m/s, friction " << p.friction
                   << " of the largest");
    CHECK(p.ticks == c.ticks);  // the device searched every tick
    CHECK(p.most >= c.least);
    if (c.hold) CHECK(p.held > 0);
    if (c.landing) CHECK(p.landed > 0);
    CHECK(p.missing == 0);
    CHECK(p.normal <= 1e-5f);
    CHECK(p.dv <= 1e-5f);
    CHECK(p.slip <= 1e-5f);
    CHECK(p.friction <= 1e-4f);
  }
}

TEST_SUITE_END();
