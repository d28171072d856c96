#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "sim/mesh_generators.h"
#include "sim/rest_ramp.h"
#include "sim/rest_scale.h"

using namespace weft;

TEST_CASE("a rest ramp reaches the target scale in its ticks, the same ratio each tick, and ends in the model built with it") {
  const Mesh m = make_grid({.width = 0.4f, .height = 0.4f, .columns = 10, .rows = 10});
  const ClothModel before = build_cloth_model(m, Material{});
  ClothModel model = before;
  std::vector<float> scale(before.triangle_count(), 1.f), target = scale;
  REQUIRE(scale_in_brush(before, before.rest_position.data(), {0.2f, 0.2f, 0.f}, 0.1f, 1.15f, target) > 0);
  RestRamp ramp;
  start_rest_ramp(ramp, scale, target, 4);
  CHECK(ramp.active());
  size_t t_in = 0;  // a triangle inside the brush
  while (target[t_in] == 1.f) ++t_in;
  for (int k = 1; k <= 4; ++k) {
    const bool done = step_rest_ramp(ramp, model, scale);
    CHECK(done == (k == 4));
    // each tick a quarter of the way in log scale: no jump to the target
    CHECK(scale[t_in] == doctest::Approx(std::pow(1.15f, k / 4.f)).epsilon(1e-5));
  }
  CHECK(!ramp.active());
  ClothModel built = before;
  apply_rest_scale(built, target);
  for (size_t l = 0; l < before.link_count_total(); ++l)
    CHECK(model.rest_length[l] == doctest::Approx(built.rest_length[l]).epsilon(1e-5));
  CHECK(model.total_mass() == before.total_mass());
  CHECK(!step_rest_ramp(ramp, model, scale));  // inactive: nothing
}

TEST_CASE("finishing a ramp takes the rest of the way at once") {
  const Mesh m = make_grid({.width = 0.4f, .height = 0.4f, .columns = 10, .rows = 10});
  ClothModel model = build_cloth_model(m, Material{});
  std::vector<float> scale(model.triangle_count(), 1.f), target(model.triangle_count(), 0.87f);
  RestRamp ramp;
  CHECK(!finish_rest_ramp(ramp, model, scale));
  start_rest_ramp(ramp, scale, target, 24);
  step_rest_ramp(ramp, model, scale);
  CHECK(scale[0] > 0.87f);
  CHECK(finish_rest_ramp(ramp, model, scale));
  CHECK(scale == target);
  CHECK(!ramp.active());
}
