#include <cmath>

#include <doctest/doctest.h>

#include "lab/tensile_test.h"
#include "sim/mesh_generators.h"

namespace weft::lab {
TEST_CASE("tensile test: the isotropic membrane follows the curve off-axis, Eq. 4 strains do not") {
  const Mesh sample = make_irregular({.width = 0.1f, .height = 0.1f, .columns = 8, .rows = 8, .seed = 3});
  const Material iso = paper_tensile_material(Membrane::Isotropic), weave = paper_tensile_material(Membrane::WeftWarp);
  for (float angle : {0.f, 30.f, 45.f}) {
    INFO(angle << " degrees");
    const auto pi = run_tensile_test(sample, iso, angle, {0.25, 0.5});
    const auto pw = run_tensile_test(sample, weave, angle, {0.5});
    for (const auto& p : pi) {
      REQUIRE(p.converged);
      const double curve = double(iso.weave.weft(float(p.strain)).stress);
      CHECK(std::abs(p.force_per_width - curve) < 1e-3 * curve);
    }
    REQUIRE(pw[0].converged);
    const double curve = double(weave.weave.weft(0.5f).stress);
    if (angle == 0.f)
      CHECK(std::abs(pw[0].force_per_width - curve) < 1e-3 * curve);
    else
      CHECK(std::abs(pw[0].force_per_width - curve) > 0.1 * curve);  // Eq. 4 is isotropic to first order only
  }
}

}  // namespace weft::lab
