#include <doctest/doctest.h>

#include "sim/grasp.h"
#include "sim/mesh_generators.h"

using namespace weft;

TEST_CASE("falloff: full core, then down to the minimum weight at the radius, nothing beyond") {
  GraspParams p;
  p.falloff = Falloff::Linear;
  p.core_fraction = 0.5f;
  p.min_weight = 0.2f;
  CHECK(falloff_weight(0.4f, 1.f, p) == 1.f);
  CHECK(falloff_weight(0.75f, 1.f, p) == doctest::Approx(0.6f));
  CHECK(falloff_weight(1.f, 1.f, p) == doctest::Approx(0.2f));
  CHECK(falloff_weight(1.01f, 1.f, p) == 0.f);
  p.falloff = Falloff::Uniform;
  CHECK(falloff_weight(0.9f, 1.f, p) == 1.f);
  p.falloff = Falloff::Smooth;
  CHECK(falloff_weight(0.75f, 1.f, p) == doctest::Approx(0.6f));  // smoothstep(0.5) = 0.5
}

TEST_CASE("a grasp holds the nearest vertex and its connected neighbours within the radius, offsets in the hand frame") {
  // 10 x 10 grid with 1 cm spacing, plus a second grid 5 mm above (a fold): not connected, not taken.
  Mesh a = make_grid({.width = 0.1f, .height = 0.1f, .columns = 10, .rows = 10});
  Mesh b = a;
  for (auto& p : b.positions) p.z += 0.005f;
  const uint32_t na = uint32_t(a.positions.size());
  a.positions.insert(a.positions.end(), b.positions.begin(), b.positions.end());
  a.material.insert(a.material.end(), b.material.begin(), b.material.end());
  for (auto t : b.triangles) a.triangles.push_back({t[0] + na, t[1] + na, t[2] + na});
  const ClothModel model = build_cloth_model(a, {});
  const VertexAdjacency adj = build_adjacency(model);
  GraspScratch scratch;
  scratch.resize(model.vertex_count());
  ElasticSet set;
  Pose hand;
  hand.position = {0.05f, 0.05f, -0.001f};  // just below vertex (5, 5) of the lower layer
  hand.orientation = glm::angleAxis(0.7f, glm::vec3(0, 0, 1));
  const size_t held = select_grasp(model, adj, model.rest_position.data(), hand, 0.015f, {}, scratch, set);
  CHECK(held == 9);  // (5,5), 4 at 1 cm, 4 at 1.41 cm
  for (size_t k = 0; k < set.size(); ++k) {
    CHECK(set.vertex[k] < na);
    CHECK(glm::length(hand.transform_point(set.offset[k]) - model.rest_position[set.vertex[k]]) < 1e-6f);
    CHECK(set.weight[k] > 0.f);
    CHECK(set.weight[k] <= 1.f);
  }
  CHECK(set.vertex[0] == 5 * 11 + 5);
  CHECK(set.weight[0] == 1.f);
  // a hand far from the cloth takes nothing
  hand.position = {1.f, 1.f, 1.f};
  CHECK(select_grasp(model, adj, model.rest_position.data(), hand, 0.015f, {}, scratch, set) == 0);
  CHECK(set.size() == 0);
}

TEST_CASE("grasp: a hand closing just outside the radius still catches, a pin is passed over, never one vertex") {
  Mesh mesh = make_grid({.width = 0.1f, .height = 0.1f, .columns = 10, .rows = 10});  // 1 cm edges
  const uint32_t pinned = 5 * 11 + 6;
  const ClothModel model = build_cloth_model(mesh, {}, {pinned});
  const VertexAdjacency adj = build_adjacency(model);
  GraspScratch scratch;
  scratch.resize(model.vertex_count());
  ElasticSet set;
  const GraspParams params;
  Pose hand;
  const glm::vec3 v = model.rest_position[5 * 11 + 5];
  // 1 cm outside a 1 cm radius: within the 2x catch radius
  hand.position = v + glm::vec3(0.f, 0.f, 0.02f);
  std::vector<uint8_t> excluded(model.vertex_count(), 0);
  excluded[pinned] = 1;
  CHECK(select_grasp(model, adj, model.rest_position.data(), hand, 0.01f, params, scratch, set, excluded.data()) > 1);
  for (uint32_t i : set.vertex) CHECK(i != pinned);
  // beyond the catch radius: nothing
  hand.position = v + glm::vec3(0.f, 0.f, 0.06f);
  CHECK(select_grasp(model, adj, model.rest_position.data(), hand, 0.01f, params, scratch, set) == 0);
  // a radius far below the edge length still holds the nearest vertex's ring (min_patch_edges)
  hand.position = v;
  CHECK(select_grasp(model, adj, model.rest_position.data(), hand, 0.001f, params, scratch, set) >= 5);
  CHECK(catch_radius(0.04f, params) == doctest::Approx(0.08f));
}

