#include <doctest/doctest.h>

#include <cmath>

#include "sim/cloth_model.h"
#include "sim/force_field.h"
#include "sim/mesh_generators.h"
#include "sim/overlap_opening.h"
#include "sim/world.h"

using namespace weft;

namespace {

// Two coincident 0.2 m layers (a duplicated layer: each triangle lies on its copy), the copy listed second.
struct Doubled {
  Mesh mesh;
  std::vector<std::array<uint32_t, 2>> pairs;  // each triangle with its copy
};
Doubled doubled_grid() {
  Doubled d;
  d.mesh = make_grid({.width = 0.2f, .height = 0.2f, .columns = 8, .rows = 8});
  const uint32_t nv = uint32_t(d.mesh.positions.size()), nt = uint32_t(d.mesh.triangles.size());
  for (uint32_t i = 0; i < nv; ++i) d.mesh.positions.push_back(d.mesh.positions[i]), d.mesh.material.push_back(d.mesh.material[i]);
  for (uint32_t t = 0; t < nt; ++t) {
    const auto& tri = d.mesh.triangles[t];
    d.mesh.triangles.push_back({tri[0] + nv, tri[1] + nv, tri[2] + nv});
    d.pairs.push_back({t, t + nt});
  }
  return d;
}

}  // namespace

TEST_CASE("open_overlaps draws coincident layers a gap apart along their sides and pinned vertices stay") {
  const Doubled d = doubled_grid();
  const float gap = 0.004f;
  for (const bool pin : {false, true}) {
    CAPTURE(pin);
    std::vector<uint32_t> pins;
    if (pin) pins = {0u, 8u};  // two corners of the first layer
    const ClothModel model = build_cloth_model(d.mesh, Material{}, pins);
    std::vector<OverlapPair> pairs;
    for (const auto& [a, b] : d.pairs) pairs.push_back({{a, b}, 1.f});  // the copy (b) below, the first above
    std::vector<glm::vec3> x = model.rest_position;
    const OverlapOpening r = open_overlaps(model, x, pairs, gap, 0.25f * gap, 16);
    CHECK(r.left == 0);
    CHECK(r.moved == model.vertex_count() - pins.size());
    CHECK(r.iterations <= 8);
    for (const OverlapPair& o : pairs) CHECK(overlap_gap(model, x.data(), o) >= gap);
    // Unpinned, every vertex moved only across the layers (z), by at most the iterations' steps (pinned, the
    // first layer tilts about its pins).
    for (size_t i = 0; i < x.size() && !pin; ++i) {
      CHECK(x[i].x == model.rest_position[i].x);
      CHECK(x[i].y == model.rest_position[i].y);
      CHECK(std::abs(x[i].z) <= float(r.iterations) * 0.25f * gap + 1e-6f);
    }
    for (uint32_t p : pins) CHECK(x[p] == model.rest_position[p]);
  }
}

TEST_CASE("World::add_overlapping_pairs: the layers drawn apart before the first tick, at rest there") {
  const Doubled d = doubled_grid();
  Material floating;
  floating.gravity = glm::vec3(0.f);
  WorldConfig config;
  config.self_collision = {.enabled = true, .thickness = 0.004f};
  World w(build_cloth_model(d.mesh, floating), config);
  REQUIRE(w.add_overlapping_pairs(d.pairs) == d.pairs.size());
  const SelfCollision* sc = w.self_collision();
  REQUIRE(sc != nullptr);
  CHECK(sc->tangled_at_scan() == d.pairs.size());  // the load's count stays for the warning
  CHECK(sc->overlaps_separating() == 0);           // nothing left for the ticks
  // Apart, and the rest shape is the opened one: no elastic energy, nothing moves in a second with no gravity.
  for (const OverlapPair& o : sc->overlaps()) CHECK(overlap_gap(w.model(), w.state().position.data(), o) >= 0.004f);
  CHECK(compute_energy(w.model(), w.state().position.data(), w.state().velocity.data()).elastic < 1e-9);
  for (int k = 0; k < 240; ++k) w.step();
  float fastest = 0.f;
  for (const glm::vec3& v : w.state().velocity) fastest = std::max(fastest, glm::length(v));
  CHECK(fastest < 1e-3f);
}
