// The sewn seams as welds in the strain limiter: an edge beside a sewn seam is shortened by moving the
// seam as one body, so the projection that closes the seam afterwards does not stretch it again.
#include <doctest/doctest.h>

#include <vector>

#include "sim/cloth_model.h"
#include "sim/seam.h"
#include "sim/sewn_weld.h"
#include "sim/strain_limit.h"
#include "tests/sim/two_panels.h"

using namespace weft;
using weft::test::two_panels;

namespace {

float edge_strain(const ClothModel& model, const std::vector<glm::vec3>& x, uint32_t i, uint32_t j) {
  for (size_t e = 0; e < model.edge_count; ++e)
    if ((model.link[e][0] == i && model.link[e][1] == j) || (model.link[e][0] == j && model.link[e][1] == i))
      return glm::length(x[i] - x[j]) / model.rest_length[e] - 1.f;
  return -1.f;
}

}  // namespace

TEST_CASE("a sewn seam moves as one body in the strain limiter: the edge beside it ends within the limit") {
  const ClothModel model = build_cloth_model(two_panels(), {});
  const size_t n = model.vertex_count();
  SeamSet seams;
  seams.add(1, 3);
  seams.sewn[0] = 1;
  std::vector<glm::vec3> x(model.rest_position), v(n, glm::vec3(0.f));
  x[0].x = -0.1f;  // A's edge 0-1 stretched to twice its rest length, the seam closed
  std::vector<uint8_t> kin(n, 0);
  StrainLimitParams params;
  StrainLimitScratch scratch;
  scratch.resize(model);
  StrainLimitStats stats;
  weld_sewn_seams(seams, model.inv_mass.data(), kin.data(), scratch);
  limit_strain(model, kin.data(), params, 1.f / 240, scratch, x.data(), v.data(), stats);
  CHECK(glm::length(x[1] - x[3]) < 1e-6f);  // the limiter kept the seam closed
  close_sewn_seams(seams, model.inv_mass.data(), kin.data(), x.data(), v.data());
  CHECK(edge_strain(model, x, 0, 1) <= params.max_strain + 1e-3f);
  CHECK(edge_strain(model, x, 3, 4) <= params.max_strain + 1e-3f);
  // The weld carries the seam's mass: vertex 0 (lighter than the ring 1 + 3) moves more than the seam.
  CHECK(x[0].x + 0.1f > 0.1f - x[1].x);

  // A held member holds the ring: the seam stays put and vertex 0 alone comes back.
  x = model.rest_position;
  x[0].x = -0.1f;
  kin[3] = 1;
  weld_sewn_seams(seams, model.inv_mass.data(), kin.data(), scratch);
  limit_strain(model, kin.data(), params, 1.f / 240, scratch, x.data(), v.data(), stats);
  CHECK(x[1] == model.rest_position[1]);
  CHECK(x[3] == model.rest_position[3]);
  CHECK(edge_strain(model, x, 0, 1) <= params.max_strain + 1e-3f);

  // Unsewn again (an edit removed the pair): no weld is left behind.
  seams.sewn[0] = 0;
  kin[3] = 0;
  weld_sewn_seams(seams, model.inv_mass.data(), kin.data(), scratch);
  CHECK(scratch.weld_members.empty());
  CHECK(scratch.weld_next[1] == 1);
  CHECK(scratch.weld_next[3] == 3);
}

TEST_CASE("sewn pairs chained through shared vertices weld into one ring with the ring's total mass") {
  const ClothModel model = build_cloth_model(two_panels(), {});
  SeamSet seams;
  seams.add(1, 3);
  seams.add(2, 5);
  seams.add(5, 4);  // 2, 5 and 4 in one ring (inside panel B too: its edge 4-5 is left alone)
  for (auto& s : seams.sewn) s = 1;
  std::vector<uint8_t> kin(model.vertex_count(), 0);
  StrainLimitScratch scratch;
  scratch.resize(model);
  weld_sewn_seams(seams, model.inv_mass.data(), kin.data(), scratch);
  CHECK(scratch.weld_members.size() == 5);
  uint32_t k = 2, len = 0;
  do { k = scratch.weld_next[k]; ++len; } while (k != 2 && len < 10);
  CHECK(len == 3);
  CHECK(scratch.weld_root[2] == scratch.weld_root[4]);
  CHECK(scratch.weld_root[4] == scratch.weld_root[5]);
  const float m = model.mass[2] + model.mass[4] + model.mass[5];
  CHECK(scratch.weld_inv_mass[4] == doctest::Approx(1.f / m));
  CHECK(scratch.weld_inv_mass[1] == doctest::Approx(1.f / (model.mass[1] + model.mass[3])));
  CHECK(scratch.weld_next[0] == 0);
}
