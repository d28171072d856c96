#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "sim/intersection_count.h"
#include "sim/mesh_generators.h"
#include "sim/self_collision.h"

using namespace weft;

namespace {
// Two 2x2-cell sheets, the second `gap` above the first along z, moving down at `speed`.
struct TwoSheets {
  ClothModel model;
  ClothState state;
  uint32_t base = 0;
  TwoSheets(float gap, float speed, float shift = 0.f) {
    Mesh a = make_grid({.width = 0.1f, .height = 0.1f, .columns = 2, .rows = 2});
    const Mesh b = a;
    base = uint32_t(a.positions.size());
    for (auto p : b.positions) a.positions.push_back(p + glm::vec3(shift, shift, gap));
    a.material.insert(a.material.end(), b.material.begin(), b.material.end());
    for (auto t : b.triangles) a.triangles.push_back({t[0] + base, t[1] + base, t[2] + base});
    model = build_cloth_model(a, Material{});
    state = make_rest_state(model);
    for (size_t i = base; i < state.position.size(); ++i) state.velocity[i].z = -speed;
  }
  glm::vec3 momentum() const {
    glm::vec3 p(0.f);
    for (size_t i = 0; i < state.velocity.size(); ++i) p += model.mass[i] * state.velocity[i];
    return p;
  }
};

// Two loose triangles: a lower one (0, 1, 2) in the plane z = 0 with its right angle at the origin, an
// upper one (3, 4, 5) from `tip` up to two corners 3 cm above.
struct TwoTriangles {
  ClothModel model;
  ClothState state;
  explicit TwoTriangles(const glm::vec3& tip) {
    Mesh m;
    m.positions = {{0.f, 0.f, 0.f}, {0.05f, 0.f, 0.f}, {0.f, 0.05f, 0.f},
                   tip, tip + glm::vec3(0.05f, 0.f, 0.03f), tip + glm::vec3(0.f, 0.05f, 0.03f)};
    m.material.resize(6, glm::vec2(0.f));
    for (size_t i = 0; i < 6; ++i) m.material[i] = glm::vec2(m.positions[i].x, m.positions[i].y + (i >= 3 ? 1.f : 0.f));
    m.triangles = {{0, 1, 2}, {3, 4, 5}};
    model = build_cloth_model(m, Material{});
    state = make_rest_state(model);
  }
};
// Three 3 x 3-vertex sheets 3 mm apart, the outer two held (kinematic), the free middle one moving
// sideways at 0.2 m/s with a spread in z: a sheet squeezed between two others.
struct SqueezedSheet {
  ClothModel model;
  ClothState state;
};
SqueezedSheet squeezed_sheet() {
  Mesh m;
  for (int layer = 0; layer < 3; ++layer) {
    Mesh g = make_grid({.width = 0.1f, .height = 0.1f, .columns = 2, .rows = 2});
    const uint32_t base = uint32_t(m.positions.size());
    for (auto p : g.positions) m.positions.push_back(p + glm::vec3(0.01f * float(layer % 2), 0.01f * float(layer % 2), 0.003f * float(layer)));
    m.material.insert(m.material.end(), g.material.begin(), g.material.end());
    for (auto tri : g.triangles) m.triangles.push_back({tri[0] + base, tri[1] + base, tri[2] + base});
  }
  SqueezedSheet out{build_cloth_model(m, Material{}), {}};
  out.state = make_rest_state(out.model);
  const size_t per = out.model.vertex_count() / 3;
  for (size_t i = 0; i < per; ++i) out.state.kinematic[i] = out.state.kinematic[2 * per + i] = 1;
  for (size_t i = per; i < 2 * per; ++i) out.state.velocity[i] = glm::vec3(0.2f, 0.f, 0.1f * float(i % 3));
  return out;
}

}  // namespace

TEST_CASE("self-collision: close sheets are pushed to the thickness, momentum conserved, inelastic") {
  TwoSheets s(0.003f, 1.f, 0.01f);
  const glm::vec3 p0 = s.momentum();
  const std::vector<glm::vec3> x0 = s.state.position;
  SelfCollision sc(s.model, {.thickness = 0.005f, .friction = 0.f});
  sc.resolve(s.model, s.state, 1.f / 240.f);
  CHECK(sc.stats().vertex_triangle > 0);
  CHECK(sc.stats().max_violation < 1e-4f);
  const glm::vec3 p1 = s.momentum();
  CHECK(glm::length(p1 - p0) < 1e-6f * glm::length(p0) + 1e-9f);
  // Perfectly inelastic: the features in contact no longer approach (up to the iteration tolerance).
  for (const SelfContact& c : sc.contacts()) {
    glm::vec3 vr(0.f);
    for (int k = 0; k < 4; ++k) vr += c.weight[k] * s.state.velocity[c.vertex[k]];
    CHECK(glm::dot(vr, c.normal) > -0.02f);
  }
  // Centre of mass did not move (mass-weighted position corrections).
  glm::vec3 c0(0.f), c1(0.f);
  for (size_t i = 0; i < s.state.position.size(); ++i) {
    c0 += s.model.mass[i] * x0[i];
    c1 += s.model.mass[i] * s.state.position[i];
  }
  CHECK(glm::length(c1 - c0) < 1e-7f);
}

TEST_CASE("self-collision: a sheet that crossed during the step is pulled back to its side") {
  // Start 2 mm above, end the step 3 mm below: the start-of-step side wins.
  TwoSheets s(0.002f, 0.f, 0.01f);
  SelfCollision sc(s.model, {.thickness = 0.004f, .friction = 0.f});
  sc.begin_step(s.state);
  // The upper sheet passed wholly through the lower one: no edge crosses, the order is wrong.
  for (size_t i = s.base; i < s.state.position.size(); ++i) s.state.position[i].z -= 0.005f;
  sc.resolve(s.model, s.state, 1.f / 240.f);
  CHECK(sc.stats().crossed > 0);
  CHECK(count_self_intersections(s.model, s.state.position).edge_triangle == 0);
  for (size_t i = s.base; i < s.state.position.size(); ++i) CHECK(s.state.position[i].z > 0.f);
}

TEST_CASE("self-collision: kinematic vertices do not move and friction slows sliding") {
  TwoSheets s(0.003f, 0.f, 0.01f);
  for (size_t i = 0; i < s.base; ++i) s.state.kinematic[i] = 1;
  for (size_t i = s.base; i < s.state.position.size(); ++i) s.state.velocity[i] = glm::vec3(0.5f, 0.f, -1.f);
  SelfCollision sc(s.model, {.thickness = 0.005f, .friction = 0.3f});
  const std::vector<glm::vec3> lower(s.state.position.begin(), s.state.position.begin() + s.base);
  sc.resolve(s.model, s.state, 1.f / 240.f);
  for (size_t i = 0; i < s.base; ++i) CHECK(s.state.position[i] == lower[i]);
  // Coulomb while sliding (0.5 m/s is far more than friction can stop in one step): the sheet's tangential
  // momentum change is mu times its normal one; measured 0.300 for mu = 0.3, held to +-20 %.
  double dt = 0, dn = 0;
  for (size_t i = s.base; i < s.state.position.size(); ++i) {
    CHECK(s.state.position[i].z >= 0.005f - 1e-4f);
    CHECK(s.state.velocity[i].x < 0.5f);  // friction took some of the slide
    dt += s.model.mass[i] * (0.5f - s.state.velocity[i].x);
    dn += s.model.mass[i] * (s.state.velocity[i].z + 1.f);
  }
  MESSAGE("tangential / normal momentum change: " << dt / dn);
  CHECK(dt / dn >= 0.8 * 0.3);
  CHECK(dt / dn <= 1.2 * 0.3);
}

TEST_CASE("self-collision: disabled does nothing and no allocation after warm-up") {
  TwoSheets s(0.003f, 1.f);
  SelfCollision sc(s.model, {.enabled = false});
  const auto before = s.state.position;
  sc.resolve(s.model, s.state, 1.f / 240.f);
  CHECK(s.state.position == before);
  sc.set_config({.thickness = 0.005f});
  sc.resolve(s.model, s.state, 1.f / 240.f);
  const auto* data = sc.contacts().data();
  const size_t capacity = sc.contacts().capacity();
  for (int k = 0; k < 5; ++k) sc.resolve(s.model, s.state, 1.f / 240.f);
  CHECK(sc.contacts().capacity() == capacity);
  CHECK(sc.contacts().data() == data);
}

TEST_CASE("self-collision: layers turning in their plane are not taken for crossing (edge-edge side)") {
  // The upper sheet, 4 mm above, turns from +4 to -4 degrees about the normal during the step: its edges
  // pass through parallel to the lower sheet's ones, where e_i x e_j flips sign. Measuring each time's
  // side along its own e_i x e_j read that as a crossing and pushed the layers through each other.
  TwoSheets s(0.004f, 0.f);
  const size_t n = s.state.position.size();
  glm::vec3 centre(0.f);
  for (size_t i = s.base; i < n; ++i) centre += s.state.position[i];
  centre = centre / float(n - s.base) + glm::vec3(0.013f, 0.021f, 0.f);  // off the grid lines: crossings inside edges
  const std::vector<glm::vec3> rest = s.state.position;
  auto turn = [&](float degrees) {
    const float a = glm::radians(degrees), c = std::cos(a), sn = std::sin(a);
    for (size_t i = s.base; i < n; ++i) {
      const glm::vec3 r = rest[i] - centre;
      s.state.position[i] = centre + glm::vec3(c * r.x - sn * r.y, sn * r.x + c * r.y, r.z);
    }
  };
  turn(4.f);
  SelfCollision sc(s.model, {.thickness = 0.005f, .friction = 0.f});
  sc.begin_step(s.state);
  turn(-4.f);
  sc.resolve(s.model, s.state, 1.f / 240.f);
  CHECK(sc.stats().edge_edge > 0);
  CHECK(sc.stats().crossed == 0);
  float lower_top = -1.f, upper_bottom = 1.f;
  for (size_t i = 0; i < s.base; ++i) lower_top = std::max(lower_top, s.state.position[i].z);
  for (size_t i = s.base; i < n; ++i) upper_bottom = std::min(upper_bottom, s.state.position[i].z);
  CHECK(upper_bottom - lower_top > 0.0045f);  // pushed apart to the thickness, not through
  CHECK(count_self_intersections(s.model, s.state.position).edge_triangle == 0);
}

TEST_CASE("self-collision: a free vertex with a small weight in a contact moves at most twice the gap") {
  // The upper tip 1 mm above the lower triangle near its corner 0: weights (0.9, 0.05, 0.05). Only corner
  // 2 may move: mass-weighting alone would move it by gap / 0.05 = 8 cm.
  TwoTriangles t(glm::vec3(0.0025f, 0.0025f, 0.001f));
  for (uint32_t i : {0u, 1u, 3u, 4u, 5u}) t.state.kinematic[i] = 1;
  const glm::vec3 before = t.state.position[2];
  SelfCollision sc(t.model, {.thickness = 0.005f, .friction = 0.f, .iterations = 1, .max_move = 100.f, .zone_rounds = 0});
  sc.resolve(t.model, t.state, 1.f / 240.f);
  REQUIRE(sc.stats().vertex_triangle >= 1);
  const float moved = glm::length(t.state.position[2] - before);
  CHECK(moved > 0.f);
  CHECK(moved <= 2.f * 0.004f + 1e-5f);
}

TEST_CASE("self-collision: a vertex that went through a triangle near its edge and moved on is pulled back") {
  // Within one step the tip goes from 2 mm above the lower triangle to 6 mm below and beside it; it met
  // the plane inside the triangle (at a quarter of the step), so it went through, not past.
  TwoTriangles t(glm::vec3(0.015f, 0.015f, 0.002f));
  for (uint32_t i : {0u, 1u, 2u, 4u, 5u}) t.state.kinematic[i] = 1;
  SelfCollision sc(t.model, {.thickness = 0.004f, .friction = 0.f, .max_move = 4.f, .zone_rounds = 0});
  sc.begin_step(t.state);
  t.state.position[3] = glm::vec3(0.035f, 0.035f, -0.006f);  // now beside the hypotenuse x + y = 0.05
  sc.resolve(t.model, t.state, 1.f / 240.f);
  CHECK(sc.stats().crossed >= 1);
  // The tip against the triangle, acting where it went through (inside, near the hypotenuse).
  bool through = false;
  for (const SelfContact& c : sc.contacts())
    if (c.vertex == std::array<uint32_t, 4>{3, 0, 1, 2})
      through = -c.weight[1] > 0.f && -c.weight[2] > 0.f && -c.weight[3] > 0.f && c.normal.z > 0.99f;
  CHECK(through);
  CHECK(t.state.position[3].z > 0.f);  // back on its side
  CHECK(count_self_intersections(t.model, t.state.position).edge_triangle == 0);
}

TEST_CASE("self-collision: a pair the step's motion took through each other, which the contacts cannot undo, joins a zone") {
  // The tip goes straight down through the lower triangle in one step (2 mm above to 8 mm below), and the
  // passes may move it by only 0.4 mm: its contact cannot pull it back. The contact failsafe is off
  // (zone_violation), so only the crossing check can: the pair crossed before the corrections too (the
  // step made it), but not at the start of the step, so it joins an impact zone, which moves both
  // triangles rigidly from there (the 16k crumple's split-solver run: 3 such pairs a tick, left crossed,
  // spread to 150 crossings).
  const float h = 1.f / 240.f;
  for (const bool zone_crossings : {false, true}) {
    CAPTURE(zone_crossings);
    TwoTriangles t(glm::vec3(0.015f, 0.015f, 0.002f));
    SelfCollision sc(t.model, {.thickness = 0.004f, .friction = 0.f, .max_move = 0.1f, .zone_violation = 100.f,
                               .zone_crossings = zone_crossings});
    sc.begin_step(t.state);
    const glm::vec3 start = t.state.position[3];
    t.state.position[3] = glm::vec3(0.015f, 0.015f, -0.008f);
    t.state.velocity[3] = (t.state.position[3] - start) / h;
    sc.resolve(t.model, t.state, h);
    const uint64_t left = count_self_intersections(t.model, t.state.position).edge_triangle;
    if (!zone_crossings) {
      CHECK(left > 0);  // the contacts alone leave it crossed
      continue;
    }
    CHECK(sc.stats().new_crossings >= 1);
    CHECK(sc.stats().zone_vertices == 6);
    CHECK(left == 0);
    CHECK(t.state.position[3].z > t.state.position[0].z);  // back above the lower triangle
  }
}

TEST_CASE("self-collision: a sheet squeezed between two held sheets moves as one rigid impact zone") {
  // Held sheets 6 mm apart, a free sheet between them, thickness 5 mm: no position satisfies both
  // sides, the passes leave contacts violated and the failsafe moves the free sheet rigidly from its
  // start-of-step position with its mean velocity (momentum kept).
  const float h = 1.f / 240.f;
  auto [model, state] = squeezed_sheet();
  const size_t per = model.vertex_count() / 3;
  glm::vec3 momentum(0.f);
  float mass = 0.f;
  for (size_t i = per; i < 2 * per; ++i) {
    momentum += model.mass[i] * state.velocity[i];
    mass += model.mass[i];
  }
  SelfCollision sc(model, {.thickness = 0.005f, .friction = 0.f});
  sc.begin_step(state);
  const std::vector<glm::vec3> start = state.position;
  sc.resolve(model, state, h);
  CHECK(sc.stats().zones >= 1);
  CHECK(sc.stats().zone_vertices == per);
  // One translation for the whole middle sheet: h times its mean velocity.
  const glm::vec3 expected = h * momentum / mass;
  for (size_t i = per; i < 2 * per; ++i) CHECK(glm::length(state.position[i] - start[i] - expected) < 1e-6f);
  // The held sheets did not move.
  for (size_t i = 0; i < per; ++i) CHECK(state.position[i] == start[i]);
  CHECK(count_self_intersections(model, state.position).edge_triangle == 0);
}

namespace {
// `layers` sheets of 6 x 6 cells (0.12 m, 2 cm edges) stacked `gap` apart along z, every other one shifted
// by (0.3, 0.55) of a cell so that vertices lie over triangle interiors (not on the diagonals). At rest.
struct Stack {
  ClothModel model;
  ClothState state;
  size_t per = 0;
  Stack(int layers, float gap) {
    Mesh m;
    for (int layer = 0; layer < layers; ++layer) {
      Mesh g = make_grid({.width = 0.12f, .height = 0.12f, .columns = 6, .rows = 6});
      const uint32_t base = uint32_t(m.positions.size());
      const float odd = float(layer % 2);
      for (auto p : g.positions) m.positions.push_back(p + glm::vec3(0.006f * odd, 0.011f * odd, gap * float(layer)));
      m.material.insert(m.material.end(), g.material.begin(), g.material.end());
      for (auto t : g.triangles) m.triangles.push_back({t[0] + base, t[1] + base, t[2] + base});
    }
    model = build_cloth_model(m, Material{});
    state = make_rest_state(model);
    per = model.vertex_count() / size_t(layers);
  }
  // Row-major index of vertex (column, row) of a layer.
  size_t at(int layer, int column, int row) const { return size_t(layer) * per + size_t(row) * 7 + size_t(column); }
};

// Two sheets 3 mm apart (thickness 4 mm), with three interior vertices of the upper sheet 2 mm below the
// lower one at the start of the step: a tangle the start-of-step side would keep. Runs `ticks` resolves
// (begin_step each time, no integrator) and returns the intersections left.
// exclude: the tangle scan and exclusion (off to test the orientation correction alone).
uint64_t untangle(bool consistent, int ticks, Stack& s, SelfCollisionStats* first = nullptr, bool exclude = false) {
  const size_t crossed[3] = {s.at(1, 2, 2), s.at(1, 3, 3), s.at(1, 4, 2)};
  for (size_t i : crossed) s.state.position[i].z = -0.002f;
  SelfCollisionConfig config{.thickness = 0.004f, .friction = 0.f};
  config.consistent_orientation = consistent;
  config.exclude_tangled = exclude;
  SelfCollision sc(s.model, config);
  for (int t = 0; t < ticks; ++t) {
    sc.begin_step(s.state);
    sc.resolve(s.model, s.state, 1.f / 240.f);
    if (t == 0 && first) *first = sc.stats();
  }
  return count_self_intersections(s.model, s.state.position).edge_triangle;
}
}  // namespace

TEST_CASE("self-collision: a region's minority side is forced to its majority, untangling crossed vertices") {
  Stack s(2, 0.003f);
  const uint64_t before = [&] {
    Stack t(2, 0.003f);
    for (size_t i : {t.at(1, 2, 2), t.at(1, 3, 3), t.at(1, 4, 2)}) t.state.position[i].z = -0.002f;
    return count_self_intersections(t.model, t.state.position).edge_triangle;
  }();
  REQUIRE(before > 0);
  SelfCollisionStats first;
  CHECK(untangle(true, 6, s, &first) == 0);
  CHECK(first.reoriented >= 3);
  // The crossed vertices are back above the lower sheet's cell under them, by at least half the thickness.
  for (auto [c, r] : {std::pair{2, 2}, std::pair{3, 3}, std::pair{4, 2}}) {
    float below = -1.f;
    for (int dc = 0; dc < 2; ++dc)
      for (int dr = 0; dr < 2; ++dr) below = std::max(below, s.state.position[s.at(0, c + dc, r + dr)].z);
    CHECK(s.state.position[s.at(1, c, r)].z - below > 0.002f);
  }
  // The lower sheet moved down by the reaction (momentum) but did not go through the upper one.
  for (size_t i = 0; i < s.per; ++i) CHECK(s.state.position[i].z < 0.001f);

  // Without the consistency correction the start-of-step side keeps the tangle.
  Stack off(2, 0.003f);
  CHECK(untangle(false, 6, off) == before);
  // With the tangle exclusion (the default) the crossing pairs are found and left out, and nothing holds
  // the crossed vertices below: the sheets' contacts elsewhere bring them back.
  Stack excluded(2, 0.003f);
  SelfCollisionStats at_start;
  CHECK(untangle(false, 6, excluded, &at_start, true) == 0);
  CHECK(at_start.intersecting_pairs > 0);
}

TEST_CASE("self-collision: a sheet between two others keeps both sides (two regions, nothing forced)") {
  // Three sheets 3 mm apart: the middle one has a contact region above and one below, with opposite
  // sides along its winding normal; they must not be merged into one region and voted.
  Stack s(3, 0.003f);
  SelfCollisionConfig config{.thickness = 0.004f, .friction = 0.f};
  config.consistent_orientation = true;
  SelfCollision sc(s.model, config);
  for (int t = 0; t < 3; ++t) {
    sc.begin_step(s.state);
    sc.resolve(s.model, s.state, 1.f / 240.f);
    CHECK(sc.stats().vertex_triangle > 0);
    CHECK(sc.stats().reoriented == 0);
  }
  CHECK(count_self_intersections(s.model, s.state.position).edge_triangle == 0);
  // Layers in order along z.
  for (int r = 1; r < 6; ++r)
    for (int c = 1; c < 6; ++c) {
      CHECK(s.state.position[s.at(0, c, r)].z < s.state.position[s.at(1, c, r)].z);
      CHECK(s.state.position[s.at(1, c, r)].z < s.state.position[s.at(2, c, r)].z);
    }
}

namespace {
// A 0.5 m sheet of 24 x 24 cells in the plane z = 0, bent about the y axis over `arc` radians (0: flat).
ClothModel bent_sheet(float arc, ClothState& state) {
  Mesh m = make_grid({.width = 0.5f, .height = 0.5f, .columns = 24, .rows = 24});
  if (arc > 0.f) {
    const float r = 0.5f / arc;
    for (auto& p : m.positions) {
      const float a = p.x / r;
      p = glm::vec3(r * std::sin(a), p.y, r - r * std::cos(a));
    }
  }
  ClothModel model = build_cloth_model(m, Material{});
  state = make_rest_state(model);
  return model;
}

bool all_finite(const ClothState& s) {
  for (size_t i = 0; i < s.position.size(); ++i)
    if (!std::isfinite(s.position[i].x + s.position[i].y + s.position[i].z + s.velocity[i].x + s.velocity[i].y +
                       s.velocity[i].z))
      return false;
  return true;
}

// Sheet A (4 x 4 cells, 0.1 m) in z = 0; sheet B the same, shifted by half a cell, tilted about the y
// axis by `tilt` (radians) through the middle of A and raised by `lift`.
struct CrossedSheets {
  ClothModel model;
  ClothState state;
  CrossedSheets(float tilt, float lift) {
    Mesh a = make_grid({.width = 0.1f, .height = 0.1f, .columns = 4, .rows = 4});
    const Mesh b = a;
    const uint32_t base = uint32_t(a.positions.size());
    for (auto p : b.positions) {
      const float x = p.x - 0.05f + 0.0125f;
      a.positions.push_back(glm::vec3(0.061f + x * std::cos(tilt), p.y + 0.0125f, lift + x * std::sin(tilt)));
    }
    a.material.insert(a.material.end(), b.material.begin(), b.material.end());
    for (auto t : b.triangles) a.triangles.push_back({t[0] + base, t[1] + base, t[2] + base});
    model = build_cloth_model(a, Material{});
    state = make_rest_state(model);
  }
};
}  // namespace

TEST_CASE("self-collision culling: flat and gently curved sheets give no candidate pairs, a folded one does") {
  for (float arc : {0.f, 1.0f, 2.6f}) {  // flat, 57 deg, 150 deg (the root's cone is then over the limit)
    CAPTURE(arc);
    ClothState state;
    const ClothModel model = bent_sheet(arc, state);
    SelfCollision sc(model, {.thickness = 0.004f});
    sc.begin_step(state);
    sc.resolve(model, state, 1.f / 240.f);
    CHECK(sc.stats().vertex_triangle + sc.stats().edge_edge == 0);
    CHECK(sc.stats().cone_skips > 0);
    if (arc < 2.f) {
      CHECK(sc.stats().candidate_pairs == 0);
    } else {
      CHECK(sc.stats().adjacent_culled > 0);  // neighbouring subtrees culled as one patch
      // Triangles touching at a corner across two subtrees, or one triangle apart: each pair inside one
      // or two neighbouring vertex fans, each fan turning by 11 degrees here, far below the limit (the
      // BVH culls the corner neighbours, the pair test the others).
      CHECK(sc.stats().candidate_pairs == 0);
    }
  }
  // Folded in half, 1 cm apart: the halves face each other.
  ClothState state;
  const ClothModel model = bent_sheet(0.f, state);
  for (auto& p : state.position)
    if (p.x > 0.25f) p = glm::vec3(0.5f - p.x, p.y, 0.003f);
  SelfCollision sc(model, {.thickness = 0.004f});
  sc.begin_step(state);
  sc.resolve(model, state, 1.f / 240.f);
  CHECK(sc.stats().candidate_pairs > 100);
  CHECK(sc.stats().vertex_triangle > 0);
}

TEST_CASE("self-collision culling: a pleat around one vertex is not a flat fan, its corner pairs are tested") {
  // A 3 x 3-cell sheet whose right third is folded back over the middle by 180 degrees about x = 0.1,
  // landing 2 mm above it: the vertices on the fold line have fans turning by 90 degrees (two pleated
  // halves), and the triangles that touch them at a corner, now facing each other, are 2 mm apart.
  Mesh m = make_grid({.width = 0.15f, .height = 0.15f, .columns = 3, .rows = 3});
  for (auto& p : m.positions)
    if (p.x > 0.1f + 1e-6f) p = glm::vec3(0.2f - p.x, p.y, 0.002f * (p.x - 0.1f) / 0.05f);
  const ClothModel model = build_cloth_model(m, Material{});
  ClothState state = make_rest_state(model);
  SelfCollision sc(model, {.thickness = 0.004f});
  sc.begin_step(state);
  sc.resolve(model, state, 1.f / 240.f);
  CHECK(sc.stats().candidate_pairs > 0);
  CHECK(sc.stats().vertex_triangle + sc.stats().edge_edge > 0);
}

TEST_CASE("self-collision culling: layers carried together are told apart by their relative motion") {
  // Two sheets 1 cm apart (beyond the 6 mm reach), both moved 2 cm down in the tick: their swept boxes
  // overlap, but nothing came closer. With the upper sheet moved 2.5 cm (from 1.5 cm above the lower
  // one) the pairs go to the feature tests, which find nothing within reach either.
  for (float upper : {0.02f, 0.025f}) {
    CAPTURE(upper);
    TwoSheets s(0.01f, 0.f);
    SelfCollision sc(s.model, {.thickness = 0.004f});
    auto shift = [&](size_t i) { return glm::vec3(0.f, 0.f, i >= s.base ? upper : 0.02f); };
    for (size_t i = 0; i < s.state.position.size(); ++i) s.state.position[i] += shift(i);
    sc.begin_step(s.state);
    for (size_t i = 0; i < s.state.position.size(); ++i) {
      s.state.position[i] -= shift(i);
      s.state.velocity[i] = -240.f * shift(i);
    }
    const std::vector<glm::vec3> before = s.state.position;
    sc.resolve(s.model, s.state, 1.f / 240.f);
    CHECK(sc.stats().vertex_triangle + sc.stats().edge_edge == 0);
    CHECK(s.state.position == before);
    if (upper == 0.02f) {
      CHECK(sc.stats().separated > 0);
      CHECK(sc.stats().candidate_pairs == 0);
    } else {
      CHECK(sc.stats().candidate_pairs > 0);
    }
  }
}

TEST_CASE("self-collision tangles: crossing sheets are found and left out, touching ones are not") {
  const float h = 1.f / 240.f;
  {
    CrossedSheets s(0.5f, 0.f);  // B passes through A along x = 0.061
    const uint64_t before = count_self_intersections(s.model, s.state.position).triangle_pairs;
    REQUIRE(before > 0);
    SelfCollision sc(s.model, {.thickness = 0.004f});
    uint64_t most = 0, untangled = 0;
    for (int t = 0; t < 120; ++t) {
      sc.begin_step(s.state);
      for (size_t i = 0; i < s.state.position.size(); ++i) s.state.position[i] += h * s.state.velocity[i];
      sc.resolve(s.model, s.state, h);
      if (t == 0) {
        CHECK(sc.tangle_scans() == 1);
        CHECK(sc.tangled_at_scan() == before);  // the scan finds what the exact counter finds
        CHECK(sc.stats().intersecting_pairs > 0);
      }
      most = std::max(most, count_self_intersections(s.model, s.state.position).triangle_pairs);
      untangled += sc.stats().untangled_vertices;
    }
    CHECK(sc.tangle_scans() == 1);  // one scan, not one per tick
    CHECK(all_finite(s.state));
    // Left out, the crossing is not fought by contacts; its contour (a line ending on the sheets'
    // borders) is shortened tick by tick until the sheets have slid apart (about 90 ticks here; nothing
    // else moves them). On the way an end's triangles may cross one more pair or two.
    CHECK(untangled > 0);
    CHECK(most <= before + 2);
    CHECK(count_self_intersections(s.model, s.state.position).triangle_pairs == 0);
    CHECK(sc.stats().intersecting_pairs == 0);
    // A teleport (state set from outside) asks for a new scan.
    sc.request_tangle_scan();
    sc.begin_step(s.state);
    sc.resolve(s.model, s.state, h);
    CHECK(sc.tangle_scans() == 2);
  }
  {
    CrossedSheets s(0.f, 0.002f);  // parallel, 2 mm apart: touching (closer than the thickness), not crossing
    SelfCollision sc(s.model, {.thickness = 0.004f});
    sc.begin_step(s.state);
    sc.resolve(s.model, s.state, h);
    CHECK(sc.tangled_at_scan() == 0);
    CHECK(sc.stats().intersecting_pairs == 0);
    CHECK(sc.stats().vertex_triangle > 0);  // they are pushed apart as usual
  }
}

TEST_CASE("self-collision caps: the pair and zone caps engage, are counted, and leave the state finite") {
  const float h = 1.f / 240.f;
  {
    TwoSheets s(0.002f, 2.f, 0.01f);
    SelfCollisionConfig config{.thickness = 0.005f, .max_pairs_per_triangle = 1};
    config.carry_contacts = true;
    SelfCollision sc(s.model, config);
    sc.resolve(s.model, s.state, h);
    CHECK(sc.stats().pairs_capped > 0);
    CHECK(sc.stats().candidate_pairs + sc.stats().separated <= s.model.triangle_count());
    CHECK(all_finite(s.state));
    // A capped search left pairs out: the next tick searches the whole cloth again, nothing carried over.
    sc.resolve(s.model, s.state, h);
    CHECK(sc.stats().kept_contacts == 0);
    CHECK(sc.stats().local_detections == 0);
  }
  {
    // The squeezed sheet of the impact-zone test (9 free vertices), zones capped at 4 vertices.
    auto [model, state] = squeezed_sheet();
    SelfCollision sc(model, {.thickness = 0.005f, .friction = 0.f, .max_zone_vertices = 4});
    sc.begin_step(state);
    sc.resolve(model, state, h);
    CHECK(sc.stats().zones_capped > 0);
    CHECK(sc.stats().largest_zone <= 4);
    CHECK(sc.stats().largest_zone >= 2);
    CHECK(all_finite(state));
  }
}

namespace {
// A free 12 x 12-cell sheet (0.12 m) between a held sheet of the same size 4.8 mm below and a small held
// 2 x 2-cell patch 3 mm above its middle, thickness 5 mm: only the middle is squeezed (no position
// satisfies both sides there), so impact zones form there and the contacts are detected again around them.
struct SqueezedMiddle {
  ClothModel model;
  ClothState state;
  size_t lower = 0, free_end = 0;  // [0, lower) held below, [lower, free_end) free, the rest held above
  SqueezedMiddle() {
    Mesh m;
    auto add = [&m](const Mesh& g, const glm::vec3& shift) {
      const uint32_t base = uint32_t(m.positions.size());
      for (auto p : g.positions) m.positions.push_back(p + shift);
      m.material.insert(m.material.end(), g.material.begin(), g.material.end());
      for (auto t : g.triangles) m.triangles.push_back({t[0] + base, t[1] + base, t[2] + base});
    };
    const Mesh big = make_grid({.width = 0.12f, .height = 0.12f, .columns = 12, .rows = 12});
    add(big, glm::vec3(0.f));
    lower = m.positions.size();
    add(big, glm::vec3(0.003f, 0.0055f, 0.0048f));
    free_end = m.positions.size();
    add(make_grid({.width = 0.02f, .height = 0.02f, .columns = 2, .rows = 2}), glm::vec3(0.05f, 0.05f, 0.0078f));
    model = build_cloth_model(m, Material{});
    state = make_rest_state(model);
    for (size_t i = 0; i < model.vertex_count(); ++i) state.kinematic[i] = i < lower || i >= free_end;
    for (size_t i = lower; i < free_end; ++i) state.velocity[i] = glm::vec3(0.1f, 0.f, 0.05f * float(i % 3));
  }
};
}  // namespace

TEST_CASE("self-collision: after the zones, and tick after tick, contacts are found again only around what moved") {
  const float h = 1.f / 240.f;
  SelfCollisionStats stats[2], last[2];
  std::vector<glm::vec3> first[2];
  for (int local = 0; local < 2; ++local) {
    SqueezedMiddle s;
    SelfCollisionConfig config{.thickness = 0.005f, .friction = 0.f};
    config.local_redetection = config.carry_contacts = local == 1;
    SelfCollision sc(s.model, config);
    const std::vector<glm::vec3> start = s.state.position;
    for (int tick = 0; tick < 3; ++tick) {
      sc.begin_step(s.state);
      for (size_t i = 0; i < s.state.position.size(); ++i) s.state.position[i] += h * s.state.velocity[i];
      sc.resolve(s.model, s.state, h);
      if (tick == 0) {
        stats[local] = sc.stats();
        first[local] = s.state.position;
      }
      last[local] = sc.stats();
    }
    CAPTURE(local);
    CHECK(count_self_intersections(s.model, s.state.position).edge_triangle == 0);
    CHECK(all_finite(s.state));
    for (size_t i = 0; i < s.lower; ++i) CHECK(s.state.position[i] == start[i]);  // held
  }
  // The zones formed and grew, so the first tick detected again: the whole cloth, or around the zones.
  CHECK(stats[0].zones >= 1);
  CHECK(stats[0].detections >= 2);
  CHECK(stats[0].local_detections == 0);
  CHECK(stats[1].local_detections >= 1);
  CHECK(stats[1].detections == stats[0].detections);
  // The same zones, and the same motion of the free sheet after the first tick: the contacts away from the
  // zones are those a full detection finds again (ticks later the two runs part, as any two contact
  // orderings do).
  CHECK(stats[1].zone_vertices == stats[0].zone_vertices);
  // Later ticks start from the last tick's contacts, testing again only around what moved since.
  CHECK(last[0].kept_contacts == 0);
  CHECK(last[1].kept_contacts > 0);
  float worst = 0.f;
  for (size_t i = 0; i < first[0].size(); ++i) worst = std::max(worst, glm::length(first[1][i] - first[0][i]));
  CHECK(worst < 0.05f * 0.005f);  // measured 0.05 mm: the kept contacts act along their first normals
  CHECK(std::abs(stats[1].max_violation - stats[0].max_violation) < 1e-5f);
}

TEST_CASE("self-collision tangles: a crossing that forms after the load is found by the periodic scan and drawn apart") {
  const float h = 1.f / 240.f;
  auto run = [&](int rescan_ticks, uint64_t& found_later, uint64_t& at_load) {
    CrossedSheets s(0.5f, 0.f);
    const std::vector<glm::vec3> crossed = s.state.position;
    const size_t base = s.state.position.size() / 2;
    for (size_t i = base; i < s.state.position.size(); ++i) s.state.position[i].z += 0.05f;  // apart at load
    SelfCollision sc(s.model, {.thickness = 0.004f, .rescan_ticks = rescan_ticks});
    sc.begin_step(s.state);
    sc.resolve(s.model, s.state, h);
    // The second sheet is put through the first without a scan request: a crossing the motion made.
    s.state.position = crossed;
    for (auto& v : s.state.velocity) v = glm::vec3(0.f);
    for (int t = 0; t < 150; ++t) {
      sc.begin_step(s.state);
      sc.resolve(s.model, s.state, h);
    }
    found_later = sc.tangled_at_rescans();
    at_load = sc.tangled_at_scan();
    CHECK(all_finite(s.state));
    return count_self_intersections(s.model, s.state.position).triangle_pairs;
  };
  uint64_t later = 0, at_load = 0;
  const uint64_t without = run(0, later, at_load);
  CHECK(later == 0);
  CHECK(without > 0);  // no scan sees it: the contacts keep it crossed
  const uint64_t with = run(10, later, at_load);
  CHECK(at_load == 0);  // the load's count is not overwritten by the periodic scans
  CHECK(later > 0);
  CHECK(with == 0);     // found and drawn apart like a tangle found at load
}
