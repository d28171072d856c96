// The sewn seams kept inside the implicit solve: the projection of a pair's velocities onto its constraint,
// which pairs the solve keeps, and the multigrid step moving a sewn pair as one vertex.
#include <doctest/doctest.h>

#include <vector>

#include "sim/cloth_model.h"
#include "sim/cloth_state.h"
#include "sim/integrator.h"
#include "sim/seam.h"
#include "sim/sewn_filter.h"
#include "tests/sim/two_panels.h"

using namespace weft;
using weft::test::two_panels;

namespace {

SewnFilter one_pair(uint32_t a, uint32_t b, uint32_t c, float w, glm::vec3 normal = glm::vec3(0.f)) {
  SewnFilter f;
  f.resize(8);
  f.a.push_back(a);
  f.b.push_back(b);
  f.c.push_back(c);
  f.w.push_back(w);
  f.normal.push_back(normal);
  f.dv_normal.push_back(0.f);
  return f;
}

}  // namespace

TEST_CASE("the sewn filter projects a pair's vectors onto its constraint, once for all") {
  const auto slot = [](uint32_t i) { return i; };
  SUBCASE("a vertex pair: both take their mean") {
    const SewnFilter f = one_pair(0, 1, 1, 0.f);
    std::vector<glm::vec3> u = {{1, 2, 3}, {3, 0, -1}};
    project_sewn(f, &u[0].x, 3, slot);
    CHECK(u[0] == glm::vec3(2, 1, 1));
    CHECK(u[1] == glm::vec3(2, 1, 1));
    project_sewn(f, &u[0].x, 3, slot);  // a projection: the second changes nothing
    CHECK(u[0] == glm::vec3(2, 1, 1));
  }
  SUBCASE("a vertex on an edge: it moves with the edge's point") {
    const SewnFilter f = one_pair(0, 1, 2, 0.25f);
    std::vector<glm::vec3> u = {{1, 0, 0}, {0, 1, 0}, {0, 0, 4}};
    project_sewn(f, &u[0].x, 3, slot);
    const glm::vec3 g = u[0] - (0.75f * u[1] + 0.25f * u[2]);
    CHECK(glm::length(g) < 1e-6f);
  }
  SUBCASE("a pair resting on a collider: neither member moves along its normal") {
    const SewnFilter f = one_pair(0, 1, 1, 0.f, {0, 1, 0});
    std::vector<glm::vec3> u = {{1, 2, 0}, {1, -4, 2}};
    project_sewn(f, &u[0].x, 3, slot);
    CHECK(u[0] == glm::vec3(1, 0, 1));
    CHECK(u[1] == glm::vec3(1, 0, 1));
  }
}

TEST_CASE("the solve keeps the sewn pairs none of whose vertices is held, with a member's resting contact") {
  SeamSet seams;
  seams.add(0, 1);
  seams.add(2, 3);
  seams.add(4, 5);
  seams.sewn = {1, 0, 1};  // the second is still open: the elastics drive it, and the solve keeps none yet
  std::vector<uint8_t> kinematic(6, 0);
  ContactFilter contacts;
  contacts.resize(6);
  SewnFilter out;
  out.resize(6);
  find_sewn_pairs(seams, kinematic.data(), contacts, out);
  CHECK(out.size() == 0);
  seams.sewn[1] = 1;
  find_sewn_pairs(seams, kinematic.data(), contacts, out);
  CHECK(out.size() == 3);
  kinematic[5] = 1;  // a hand holds vertex 5: its pair is the hand's
  find_sewn_pairs(seams, kinematic.data(), contacts, out);
  REQUIRE(out.size() == 2);
  CHECK(out.a[0] == 0);
  CHECK(out.normal[0] == glm::vec3(0.f));
}

TEST_CASE("the multigrid step moves a sewn pair as one vertex: each panel's pull on its side balances the other's") {
  const ClothModel model = build_cloth_model(two_panels(), {});
  for (const bool kept : {false, true}) {
    ClothState s = make_rest_state(model);
    s.position[2].y += 0.02f;  // panel A stretched: its side of the seam is pulled up, B's is not
    s.position[5].y -= 0.02f;  // panel B stretched the other way
    SeamSet seams;
    seams.add(1, 3);
    seams.sewn[0] = 1;
    if (kept) find_sewn_pairs(seams, s.kinematic.data(), s.contact_filter, s.sewn_filter);
    auto integrator = make_integrator(IntegratorKind::Multigrid, model);
    integrator->step(model, s, 1.f / 240.f);
    const float apart = glm::length(s.velocity[1] - s.velocity[3]);
    MESSAGE("kept " << kept << ": the seam's sides " << apart << " m/s apart");
    if (kept) CHECK(apart < 1e-5f);
    else CHECK(apart > 1e-2f);  // without the filter the step tears the pair apart for the projections to close
  }
}
