#include <doctest/doctest.h>

#include "sim/mesh_generators.h"
#include "sim/rest_scale.h"

using namespace weft;

TEST_CASE("scaling inside a brush scales the rest shape there and keeps the masses") {
  const Mesh m = make_grid({.width = 0.4f, .height = 0.4f, .columns = 10, .rows = 10});
  for (StretchModel sm : {StretchModel::Springs, StretchModel::Volino, StretchModel::WeftWarp}) {
    Material mat;
    mat.stretch_model = sm;
    if (sm == StretchModel::WeftWarp) {
      mat.weave.weft = mat.weave.warp = StressCurve::linear(1000.f);
      mat.weave.shear = StressCurve::linear(200.f);
    }
    const ClothModel before = build_cloth_model(m, mat);
    ClothModel after = before;
    std::vector<float> scale(before.triangle_count(), 1.f);
    CHECK(scale_in_brush(before, before.rest_position.data(), {0.2f, 0.2f, 0.f}, 0.1f, 1.5f, scale) > 0);
    apply_rest_scale(after, scale);
    CHECK(after.total_mass() == before.total_mass());
    size_t scaled = 0;
    for (size_t l = 0; l < before.link_count_total(); ++l) {
      const float r = after.rest_length[l] / before.rest_length[l];
      CHECK((r >= 1.f - 1e-6f && r <= 1.5f + 1e-6f));
      scaled += r > 1.01f;
    }
    CHECK(scaled > 0);
    for (size_t t = 0; t < before.triangle_count(); ++t) {
      CHECK(after.rest_area[t] / before.rest_area[t] == doctest::Approx(scale[t] * scale[t]));
      if (after.weft_warp.active())
        CHECK(after.weft_warp.area[t] / before.weft_warp.area[t] == doctest::Approx(scale[t] * scale[t]));
    }
  }
}

TEST_CASE("the scale factor and the resulting scale are clamped to [0.5, 2]") {
  const Mesh m = make_grid({.width = 0.4f, .height = 0.4f, .columns = 4, .rows = 4});
  const ClothModel model = build_cloth_model(m, {});
  std::vector<float> scale(model.triangle_count(), 1.f);
  scale_in_brush(model, model.rest_position.data(), {0.2f, 0.2f, 0.f}, 10.f, 100.f, scale);
  for (float s : scale) CHECK(s == kRestScaleMax);
  scale_in_brush(model, model.rest_position.data(), {0.2f, 0.2f, 0.f}, 10.f, 100.f, scale);
  for (float s : scale) CHECK(s == kRestScaleMax);
  scale_in_brush(model, model.rest_position.data(), {0.2f, 0.2f, 0.f}, 10.f, 0.01f, scale);
  for (float s : scale) CHECK(s == 1.f);
}

TEST_CASE("rescaling in place gives the model built with the final scales") {
  const Mesh m = make_grid({.width = 0.4f, .height = 0.4f, .columns = 10, .rows = 10});
  Material mat;
  mat.stretch_model = StretchModel::WeftWarp;
  mat.weave.weft = mat.weave.warp = StressCurve::linear(1000.f);
  mat.weave.shear = StressCurve::linear(200.f);
  const ClothModel base = build_cloth_model(m, mat);
  std::vector<float> s1(base.triangle_count(), 1.f), s2;
  scale_in_brush(base, base.rest_position.data(), {0.2f, 0.2f, 0.f}, 0.1f, 1.5f, s1);
  s2 = s1;
  scale_in_brush(base, base.rest_position.data(), {0.25f, 0.2f, 0.f}, 0.1f, 0.6f, s2);
  ClothModel in_place = base;
  apply_rest_scale(in_place, s1);
  rescale_rest_shape(in_place, s1, s2);
  ClothModel fresh = base;
  apply_rest_scale(fresh, s2);
  for (size_t l = 0; l < base.link_count_total(); ++l) {
    CHECK(in_place.rest_length[l] == doctest::Approx(fresh.rest_length[l]));
    CHECK(in_place.stiffness[l] == doctest::Approx(fresh.stiffness[l]));
  }
  for (size_t t = 0; t < base.triangle_count(); ++t) {
    CHECK(in_place.rest_area[t] == doctest::Approx(fresh.rest_area[t]));
    CHECK(in_place.weft_warp.ru[t][0] == doctest::Approx(fresh.weft_warp.ru[t][0]));
  }
  for (size_t h = 0; h < base.weft_warp.hinge_count(); ++h)
    CHECK(in_place.weft_warp.curvature_per_angle[h] == doctest::Approx(fresh.weft_warp.curvature_per_angle[h]));
}
