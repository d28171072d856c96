#include <cmath>

#include <doctest/doctest.h>

#include "app/tensile_test.h"
#include "sim/mesh_generators.h"

namespace weft::app {
namespace {

// The paper's test material (validate tensile): 100 e + 1000 e^3 N/m, shear half of it.
Material paper_material(Membrane membrane) {
  std::vector<float> e, s;
  for (int k = -12; k <= 12; ++k) {
    const float x = 0.05f * float(k);
    e.push_back(x);
    s.push_back(100.f * x + 1000.f * x * x * x);
  }
  Material m;
  m.stretch_model = StretchModel::WeftWarp;
  m.weave.membrane = membrane;
  m.weave.weft = StressCurve::from_points(e, s);
  m.weave.warp = m.weave.weft;
  m.weave.shear = m.weave.weft.scaled(0.5f);
  m.damping = 0.f;
  return m;
}

}  // namespace

TEST_CASE("tensile test: the isotropic membrane follows the curve off-axis, Eq. 4 strains do not") {
  const Mesh sample = make_irregular({.width = 0.1f, .height = 0.1f, .columns = 8, .rows = 8, .seed = 3});
  const Material iso = paper_material(Membrane::Isotropic), weave = paper_material(Membrane::WeftWarp);
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

}  // namespace weft::app
