#include "sim/rest_gap.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "sim/cloth_model.h"
#include "sim/cloth_state.h"
#include "sim/mesh_generators.h"
#include "sim/self_collision.h"

using namespace weft;

TEST_CASE("rest gap: two triangles' closest features that share no vertex, and the boxes' bound") {
  // Triangle a in z = 0, triangle b 2 mm over it, shifted 1 cm along x; c shares a's vertex 0.
  const std::vector<glm::vec3> rest = {{0.f, 0.f, 0.f},     {0.02f, 0.f, 0.f},     {0.f, 0.02f, 0.f},
                                       {0.01f, 0.f, 0.002f}, {0.03f, 0.f, 0.002f}, {0.01f, 0.02f, 0.002f},
                                       {-0.02f, 0.f, 0.f},   {-0.02f, -0.02f, 0.f}};
  const std::array<uint32_t, 3> a{0, 1, 2}, b{3, 4, 5}, c{0, 6, 7};
  CHECK(rest_gap_triangles(rest.data(), a, b) == doctest::Approx(0.002f).epsilon(1e-4));
  CHECK(rest_gap_vertex_triangle(rest.data(), 3, a) == doctest::Approx(0.002f).epsilon(1e-4));
  // a's hypotenuse and b's, parallel: 1 cm / sqrt(2) apart in the plane, 2 mm across it.
  CHECK(rest_gap_edge_edge(rest.data(), 1, 2, 4, 5) == doctest::Approx(std::sqrt(0.5e-4f + 0.04e-4f)).epsilon(1e-3));
  // Sharing vertex 0: not 0 (its features are never a contact's), but the nearest of the others.
  CHECK(rest_gap_triangles(rest.data(), a, c) > 0.01f);
  CHECK(near_at_rest(rest.data(), a, b, 0.005f));
  CHECK(near_at_rest(rest.data(), a, b, 0.0021f));
  CHECK_FALSE(near_at_rest(rest.data(), a, b, 0.0019f));
  // a and c share vertex 0: one piece; b is a piece of its own (rest gaps are taken within a piece only).
  const std::vector<uint32_t> piece = connected_pieces(rest.size(), {a, b, c});
  CHECK(piece[1] == piece[7]);
  CHECK(piece[3] == piece[5]);
  CHECK(piece[0] != piece[4]);
}

namespace {

// A 6 x 4 irregular sheet whose last two columns are turned under 2 mm below the rest (a hem): its layers lie
// within a 5 mm thickness at rest.
Mesh hem(bool folded) {
  Mesh m = make_irregular({.width = 0.12f, .height = 0.08f, .columns = 6, .rows = 4, .grading = 1.3f, .seed = 3});
  const uint32_t nx = 7, fold = 4;
  const float hinge = m.positions[fold].x;
  for (size_t i = fold; i < m.positions.size(); i += nx) m.positions[i].x = m.material[i].x = hinge;
  if (folded)
    for (glm::vec3& p : m.positions) {
      const float layer = p.x < hinge ? 1.f : (p.x > hinge ? 0.f : 0.5f);
      p = glm::vec3(p.x > hinge ? 2.f * hinge - p.x : p.x, p.y, layer * 0.002f);
    }
  return m;
}

// The largest move one SelfCollision::resolve makes on `positions`, at rest (zero velocity), for `model`.
float push_at(const ClothModel& model, const std::vector<glm::vec3>& positions, size_t* contacts) {
  SelfCollision sc(model, {.thickness = 0.005f});
  ClothState s = make_rest_state(model);
  s.position = positions;
  sc.begin_step(s);
  sc.resolve(model, s, 1.f / 240.f);
  *contacts = sc.contacts().size();
  float moved = 0.f;
  for (size_t i = 0; i < positions.size(); ++i) moved = std::max(moved, glm::length(s.position[i] - positions[i]));
  return moved;
}

}  // namespace

TEST_CASE("rest gap: layers a hem holds 2 mm apart at rest are kept there, the same layers of a flat sheet a thickness apart") {
  const Mesh folded = hem(true);
  size_t contacts = 0;
  // Its rest shape folded: contacts, none violated, nothing moved (before: each layer pushed toward 5 mm).
  const ClothModel hemmed = build_cloth_model(folded, Material{});
  CHECK(push_at(hemmed, folded.positions, &contacts) < 1e-6f);
  CHECK(contacts > 0);
  // The same positions on a sheet whose rest shape is flat: the layers are pushed apart.
  const ClothModel flat = build_cloth_model(hem(false), Material{});
  size_t flat_contacts = 0;
  CHECK(push_at(flat, folded.positions, &flat_contacts) > 1e-3f);
  CHECK(flat_contacts > 0);
}
