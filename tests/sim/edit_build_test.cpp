// build_edit (sim/edit_build.h): what a cut or removal makes of a model, on its own, without a world.
#include <doctest/doctest.h>

#include "sim/edit_build.h"
#include "sim/mesh_generators.h"

using namespace weft;

namespace {

// A 0.4 m grid in z = 0, 8 x 8 quads, its top row pinned; its rest positions as the current ones.
struct Grid {
  ClothModel cloth;
  std::vector<float> scale;
  ElasticSet pins;
  Grid() {
    const Mesh mesh = make_grid({.width = 0.4f, .height = 0.4f, .columns = 8, .rows = 8});
    std::vector<uint32_t> top;
    for (uint32_t i = 0; i <= 8; ++i) top.push_back(8 * 9 + i);
    cloth = build_cloth_model(mesh, {}, top);
    scale.assign(cloth.triangle_count(), 1.f);
    pins.vertex = {40};  // an elastic pin in the middle
    pins.offset = {cloth.rest_position[40]};
    pins.weight = {1.f};
  }
  EditBase base() const { return {&cloth, &scale, &pins, nullptr}; }
};

}  // namespace

TEST_CASE("build_edit: a cut across the middle gives a whole new model, its tables and structures sized for it") {
  const Grid g;
  EditBuild b;
  const ClothEdit cut{.kind = EditKind::Cut, .from = {0.1f, 0.2013f, 0.f}, .to = {0.3f, 0.2013f, 0.f}, .radius = 0.01f};
  build_edit(cut, g.base(), WorldConfig{}, g.cloth.rest_position.data(), false, b);
  REQUIRE(b.report.applied);
  const size_t n = b.cloth.vertex_count();
  CHECK(n == g.cloth.vertex_count() + b.report.vertices_added - b.report.vertices_removed);
  CHECK(b.me.origin.size() == n);
  CHECK(b.rest_scale.size() == b.cloth.triangle_count());
  CHECK(b.adjacency.offset.size() == n + 1);
  CHECK(b.flat_pieces.piece.size() == n);
  CHECK(b.pin_tethers.active);
  CHECK(b.pin_tethers.anchor.size() == n);
  CHECK(b.state.position.size() == n);
  CHECK(b.integrator != nullptr);
  CHECK(b.self == nullptr);  // self-collision off: no hierarchy
  CHECK(b.to_new.size() == g.cloth.vertex_count());
  REQUIRE(b.pins.size() >= 1);  // the elastic pin carried over (to every copy)
  for (uint32_t v : b.pins.vertex) CHECK(b.me.origin[v].a == 40u);
  CHECK(b.cloth.total_mass() == doctest::Approx(g.cloth.total_mass()).epsilon(1e-5));
}

TEST_CASE("build_edit: a blade off the cloth is refused and builds nothing") {
  const Grid g;
  EditBuild b;
  const ClothEdit cut{.kind = EditKind::Cut, .from = {2.f, 2.f, 0.f}, .to = {2.1f, 2.f, 0.f}, .radius = 0.01f};
  build_edit(cut, g.base(), WorldConfig{}, g.cloth.rest_position.data(), false, b);
  CHECK_FALSE(b.report.applied);
  CHECK(b.report.refused != nullptr);
  CHECK(b.integrator == nullptr);
  CHECK(b.cloth.vertex_count() == 0);
}

TEST_CASE("carry_elastic_set: each vertex to every copy of it, removed ones dropped") {
  // Old vertices 0, 1, 2: 0 -> new 0 and its copy 3, 1 removed, 2 -> new 1.
  const std::vector<uint32_t> to_new = {0, UINT32_MAX, 1};
  const std::vector<uint32_t> next_copy = {3, UINT32_MAX, UINT32_MAX, UINT32_MAX};
  ElasticSet set, scratch;
  set.vertex = {0, 1, 2};
  set.offset = {glm::vec3(1.f), glm::vec3(2.f), glm::vec3(3.f)};
  set.weight = {1.f, 0.5f, 0.25f};
  carry_elastic_set(set, to_new, next_copy, scratch);
  CHECK(set.vertex == std::vector<uint32_t>{0, 3, 1});
  CHECK(set.weight == std::vector<float>{1.f, 1.f, 0.25f});
  CHECK(set.offset[1] == glm::vec3(1.f));
}
