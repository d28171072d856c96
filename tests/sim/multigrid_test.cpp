#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include "sim/aggregation_hierarchy.h"
#include "sim/force_field.h"
#include "sim/mesh_generators.h"
#include "tests/sim/hanging_cloth_fixture.h"
#include "sim/multigrid_solver.h"

using namespace weft;

namespace {
using test::hanging_model;
using test::jittered_rest_state;

double velocity_error(const ClothState& a, const ClothState& ref) {
  double e = 0, norm = 0;
  for (size_t i = 0; i < a.velocity.size(); ++i) {
    e += glm::dot(a.velocity[i] - ref.velocity[i], a.velocity[i] - ref.velocity[i]);
    norm += glm::dot(ref.velocity[i], ref.velocity[i]);
  }
  return std::sqrt(e / norm);
}
}  // namespace

TEST_CASE("aggregation: every node in one aggregate, aggregates connected, links mapped") {
  const ClothModel model = hanging_model(0.01f, 20);
  const AggregationHierarchy h = build_aggregation_hierarchy(uint32_t(model.vertex_count()), model.link, model.edge_count, 16);
  REQUIRE(h.levels.size() >= 2);
  uint32_t n = uint32_t(model.vertex_count());
  std::vector<std::array<uint32_t, 2>> links = model.link;
  for (const AggregationLevel& level : h.levels) {
    CHECK(level.fine_count == n);
    CHECK(level.coarse_count < n);
    CHECK(level.coarse_count * 3 < n);  // coarsens by well over 3 per level on a triangle mesh
    std::vector<uint32_t> size(level.coarse_count, 0);
    for (uint32_t a : level.aggregate) {
      REQUIRE(a < level.coarse_count);
      ++size[a];
    }
    CHECK(*std::min_element(size.begin(), size.end()) >= 1);  // no empty aggregate
    // each fine link maps to the coarse link between its ends' aggregates, or -1 inside one
    REQUIRE(level.link_map.size() == links.size());
    for (size_t e = 0; e < links.size(); ++e) {
      const uint32_t a = level.aggregate[links[e][0]], b = level.aggregate[links[e][1]];
      if (a == b) {
        CHECK(level.link_map[e] == -1);
      } else {
        REQUIRE(level.link_map[e] >= 0);
        const auto& c = level.coarse_link[size_t(level.link_map[e])];
        CHECK(std::min(a, b) == c[0]);
        CHECK(std::max(a, b) == c[1]);
      }
    }
    std::set<std::array<uint32_t, 2>> distinct(level.coarse_link.begin(), level.coarse_link.end());
    CHECK(distinct.size() == level.coarse_link.size());
    n = level.coarse_count;
    links = level.coarse_link;
  }
  CHECK(n <= 16);
}

TEST_CASE("aggregation: an irregular mesh and a mesh without links") {
  const ClothModel model = build_cloth_model(make_irregular({.columns = 23, .rows = 17, .seed = 7}), Material{});
  const AggregationHierarchy h = build_aggregation_hierarchy(uint32_t(model.vertex_count()), model.link, model.edge_count, 20);
  REQUIRE(!h.levels.empty());
  CHECK(h.levels.back().coarse_count <= 20);
  // no links: nothing can merge, no levels (the solver is then plain block Gauss-Seidel)
  CHECK(build_aggregation_hierarchy(50, {}, 0).levels.empty());
}

TEST_CASE("multigrid: options are checked and the name parses") {
  const ClothModel model = hanging_model(0.01f);
  CHECK(parse_integrator_kind("mg") == IntegratorKind::Multigrid);
  CHECK(std::string(integrator_kind_name(IntegratorKind::Multigrid)) == "mg");
  CHECK_THROWS_AS(make_integrator(IntegratorKind::Multigrid, model, {.mg_max_iterations = 0}), std::invalid_argument);
  CHECK_THROWS_AS(make_integrator(IntegratorKind::Multigrid, model, {.mg_tolerance = 0.f}), std::invalid_argument);
}

TEST_CASE("multigrid: one step matches CG at 1e-7 on stiff cloth, in far fewer iterations") {
  const ClothModel model = hanging_model(0.01f, 24);
  const ClothState s0 = jittered_rest_state(model);
  const float h = 1.f / 240;
  ClothState ref = s0;
  auto cg = make_integrator(IntegratorKind::ConjugateGradient, model, {.cg_tolerance = 1e-7f, .cg_max_iterations = 20000});
  cg->step(model, ref, h);
  ClothState s = s0;
  auto mg = make_integrator(IntegratorKind::Multigrid, model, {.mg_tolerance = 1e-6f, .mg_max_iterations = 200});
  mg->step(model, s, h);
  CHECK(mg->stats().residual <= 1e-6f);
  CHECK(velocity_error(s, ref) < 1e-3);
  MESSAGE("iterations: mg " << mg->stats().solver_iterations << ", block-Jacobi CG " << cg->stats().solver_iterations);
  CHECK(mg->stats().solver_iterations * 5 < cg->stats().solver_iterations);
  // stopped early, it is still a descent: the error shrinks with the iterations
  ClothState few = s0;
  make_integrator(IntegratorKind::Multigrid, model, {.mg_tolerance = 1e-9f, .mg_max_iterations = 1})->step(model, few, h);
  CHECK(velocity_error(few, ref) > 10 * velocity_error(s, ref));
}

TEST_CASE("multigrid: kinematic vertices keep their imposed velocity") {
  const ClothModel model = hanging_model(0.01f);
  ClothState s = make_rest_state(model);
  const uint32_t held = 84;  // an interior vertex, moved by a hand
  s.kinematic[held] = 1;
  s.kinematic_velocity[held] = glm::vec3(0.3f, 0.5f, -0.2f);
  auto mg = make_integrator(IntegratorKind::Multigrid, model);
  for (int k = 0; k < 10; ++k) {
    mg->step(model, s, 1.f / 240);
    CHECK(glm::length(s.velocity[held] - s.kinematic_velocity[held]) < 1e-6f);
    CHECK(glm::length(s.velocity[0]) == 0.f);  // the pins
  }
}

TEST_CASE("multigrid: without damping a swinging pinned cloth never gains energy (runtime settings)") {
  const ClothModel model = hanging_model(0.f);
  SolverOptions o;
  o.mg_tolerance = 1e-3f;
  o.mg_max_iterations = 20;
  auto mg = make_integrator(IntegratorKind::Multigrid, model, o);
  ClothState s = make_rest_state(model);
  const double e0 = compute_energy(model, s.position.data(), s.velocity.data()).total();
  double worst = -1e9;
  for (int k = 0; k < 480; ++k) {
    mg->step(model, s, 1.f / 240);
    worst = std::max(worst, compute_energy(model, s.position.data(), s.velocity.data()).total() - e0);
  }
  CHECK(worst <= 1e-6);  // the cloth falls 0.4 m: |gravity energy| ~ 0.05 J
  CHECK(std::isfinite(worst));
}

TEST_SUITE("threading") {  // also under ThreadSanitizer (preset tsan)
TEST_CASE("multigrid: a fine level split in two parts gives the same bits with a helper thread and CG's answer") {
  const ClothModel model = hanging_model(0.01f, 24);
  const ClothState s0 = jittered_rest_state(model);
  const float h = 1.f / 240;
  ClothState ref = s0;
  make_integrator(IntegratorKind::ConjugateGradient, model, {.cg_tolerance = 1e-7f, .cg_max_iterations = 20000})
      ->step(model, ref, h);
  SolverOptions split{.mg_tolerance = 1e-6f, .mg_max_iterations = 200, .mg_threads = 2};
  split.mg_split_vertices = 0;  // split this small mesh
  ClothState alone = s0, pair = s0;
  split.mg_helper = false;
  auto mg_alone = make_integrator(IntegratorKind::Multigrid, model, split);
  split.mg_helper = true;
  auto mg_pair = make_integrator(IntegratorKind::Multigrid, model, split);
  CHECK(static_cast<MultigridIntegrator&>(*mg_pair).preconditioner().fine().part_count() == 2);
  CHECK(static_cast<MultigridIntegrator&>(*make_integrator(IntegratorKind::Multigrid, model, {.mg_threads = 2}))
            .preconditioner().fine().part_count() == 1);  // small meshes stay whole
  SolverOptions one = split;
  one.mg_threads = 1;
  CHECK(static_cast<MultigridIntegrator&>(*make_integrator(IntegratorKind::Multigrid, model, one))
            .preconditioner().fine().part_count() == 1);  // and every mesh with one thread
  mg_alone->step(model, alone, h);
  mg_pair->step(model, pair, h);
  CHECK(velocity_error(alone, ref) < 1e-3);
  CHECK(mg_alone->stats().residual <= 1e-6f);
  MESSAGE("iterations split in two parts: " << mg_alone->stats().solver_iterations);
  // a swinging, partly held cloth over many runtime steps: every bit the same
  SolverOptions runtime;
  runtime.mg_threads = 2;
  runtime.mg_split_vertices = 0;
  runtime.mg_helper = false;
  auto a = make_integrator(IntegratorKind::Multigrid, model, runtime);
  runtime.mg_helper = true;
  auto b = make_integrator(IntegratorKind::Multigrid, model, runtime);
  alone.kinematic[300] = pair.kinematic[300] = 1;
  alone.kinematic_velocity[300] = pair.kinematic_velocity[300] = glm::vec3(0.4f, 0.3f, 0.f);
  for (int k = 0; k < 60; ++k) {
    a->step(model, alone, h);
    b->step(model, pair, h);
  }
  bool same = true;
  for (size_t i = 0; i < model.vertex_count(); ++i)
    same = same && alone.position[i] == pair.position[i] && alone.velocity[i] == pair.velocity[i];
  CHECK(same);
  CHECK(a->stats().solver_iterations == b->stats().solver_iterations);
  CHECK_THROWS_AS(make_integrator(IntegratorKind::Multigrid, model, {.mg_threads = 3}), std::invalid_argument);
}
}  // TEST_SUITE("threading")
