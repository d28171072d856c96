#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include <glm/gtc/matrix_transform.hpp>

#include "sim/bvh.h"
#include "sim/mesh_generators.h"

using namespace weft;

namespace {
ClothModel grid_model(uint32_t cells) { return build_cloth_model(make_grid({.columns = cells, .rows = cells}), Material{}); }
}  // namespace

TEST_CASE("BVH: every triangle in one leaf, every vertex and edge owned once") {
  const ClothModel model = grid_model(6);
  TriangleBvh bvh(model);
  std::multiset<int32_t> leaves;
  for (const auto& n : bvh.nodes()) if (n.triangle >= 0) leaves.insert(n.triangle);
  CHECK(leaves.size() == model.triangle_count());
  CHECK(std::set<int32_t>(leaves.begin(), leaves.end()).size() == model.triangle_count());
  size_t vertices = 0, edges = 0;
  for (uint8_t m : bvh.feature_mask())
    for (int k = 0; k < 3; ++k) { vertices += (m >> k) & 1u; edges += (m >> (3 + k)) & 1u; }
  CHECK(vertices == model.vertex_count());
  CHECK(edges == model.edge_count);
  CHECK(bvh.nodes()[0].connected == 1);
}

TEST_CASE("BVH: a flat sheet is skipped whole by the curvature criterion, a folded one is not") {
  const ClothModel model = grid_model(8);
  TriangleBvh bvh(model);
  std::vector<TrianglePair> pairs;
  bvh.refit(model, model.rest_position.data(), model.rest_position.data(), 0.01f);
  bvh.self_pairs(1.0f, pairs);
  CHECK(pairs.empty());
  CHECK(bvh.stats().cone_skips == 1);
  // Without the criterion, neighbours overlap.
  bvh.self_pairs(-1.f, pairs);
  CHECK(pairs.size() > model.triangle_count());
  // Fold the sheet in half over x = 0.5: the two halves face each other.
  std::vector<glm::vec3> x = model.rest_position;
  for (auto& p : x) if (p.x > 0.5f) p = glm::vec3(1.f - p.x, p.y, 0.02f);
  bvh.refit(model, x.data(), x.data(), 0.01f);
  bvh.self_pairs(1.0f, pairs);
  CHECK(bvh.nodes()[0].cone_half_angle > 1.5f);
  CHECK(pairs.size() > model.triangle_count() / 2);
}

TEST_CASE("BVH: two disconnected sheets are never merged into one connected node") {
  Mesh a = make_grid({.columns = 4, .rows = 4});
  Mesh b = a;
  const uint32_t base = uint32_t(a.positions.size());
  for (auto p : b.positions) a.positions.push_back(p + glm::vec3(0, 0, 0.01f));
  a.material.insert(a.material.end(), b.material.begin(), b.material.end());
  for (auto t : b.triangles) a.triangles.push_back({t[0] + base, t[1] + base, t[2] + base});
  const ClothModel model = build_cloth_model(a, Material{});
  TriangleBvh bvh(model);
  CHECK(bvh.nodes()[0].connected == 0);
  std::vector<TrianglePair> pairs;
  bvh.refit(model, model.rest_position.data(), model.rest_position.data(), 0.f);
  bvh.self_pairs(1.0f, pairs);
  // Stacked 1 cm apart with zero margin the boxes of the two flat sheets still overlap in x and y
  // but not in z, so nothing is paired; with a margin they are.
  CHECK(pairs.empty());
  bvh.refit(model, model.rest_position.data(), model.rest_position.data(), 0.006f);
  bvh.self_pairs(1.0f, pairs);
  CHECK(!pairs.empty());
  const uint32_t half = uint32_t(model.triangle_count() / 2);
  for (const auto& p : pairs) CHECK((p.a < half) != (p.b < half));  // one triangle of each sheet
}

TEST_CASE("BVH: a tree built from its own leaf order is the same tree, boundaries and fans included") {
  // World::edit rebuilds the hierarchy from the old leaf order carried through the edit: where nothing
  // changed it must give back the median-split tree, node for node.
  const ClothModel model = grid_model(12);
  TriangleBvh median(model);
  TriangleBvh ordered(model, median.leaf_order());
  REQUIRE(ordered.nodes().size() == median.nodes().size());
  for (size_t i = 0; i < median.nodes().size(); ++i) {
    CAPTURE(i);
    CHECK(ordered.nodes()[i].triangle == median.nodes()[i].triangle);
    CHECK(ordered.nodes()[i].left == median.nodes()[i].left);
    CHECK(ordered.nodes()[i].right == median.nodes()[i].right);
    CHECK(ordered.nodes()[i].connected == median.nodes()[i].connected);
  }
  CHECK(ordered.feature_mask() == median.feature_mask());
  // The same candidate pairs from a bent sheet (boundaries and fans are used by the traversal).
  std::vector<glm::vec3> x = model.rest_position;
  for (auto& p : x) p.z = 0.3f * std::sin(6.f * p.x);
  std::vector<TrianglePair> a, b;
  median.refit(model, x.data(), x.data(), 0.01f);
  ordered.refit(model, x.data(), x.data(), 0.01f);
  median.self_pairs(1.0f, a);
  ordered.self_pairs(1.0f, b);
  CHECK(a.size() == b.size());
  for (size_t k = 0; k < std::min(a.size(), b.size()); ++k) CHECK((a[k].a == b[k].a && a[k].b == b[k].b));
  // An order that is not a permutation of the triangles (too short, a repeat, out of range): the median build.
  std::vector<uint32_t> repeat = median.leaf_order(), beyond = repeat;
  repeat[1] = repeat[0];
  beyond[2] = uint32_t(model.triangle_count());
  for (const std::vector<uint32_t>& bad : {std::vector<uint32_t>{0, 1, 2}, repeat, beyond}) {
    TriangleBvh fallback(model, bad);
    CHECK(fallback.leaf_order() == median.leaf_order());
  }
}

TEST_CASE("BVH: from a given leaf order, pieces are still split apart first") {
  Mesh a = make_grid({.columns = 4, .rows = 4});
  Mesh b = a;
  const uint32_t base = uint32_t(a.positions.size());
  for (auto p : b.positions) a.positions.push_back(p + glm::vec3(0, 0, 0.01f));
  a.material.insert(a.material.end(), b.material.begin(), b.material.end());
  for (auto t : b.triangles) a.triangles.push_back({t[0] + base, t[1] + base, t[2] + base});
  const ClothModel model = build_cloth_model(a, Material{});
  // The two sheets' triangles interleaved: the split at the middle of this order would mix them.
  std::vector<uint32_t> order;
  const uint32_t half = uint32_t(model.triangle_count() / 2);
  for (uint32_t t = 0; t < half; ++t) order.push_back(t), order.push_back(t + half);
  TriangleBvh bvh(model, order);
  CHECK(bvh.nodes()[0].connected == 0);
  const BvhNode& root = bvh.nodes()[0];
  for (int32_t child : {root.left, root.right}) CHECK(bvh.nodes()[size_t(child)].connected == 1);
  std::vector<uint32_t> leaves = bvh.leaf_order();
  CHECK(leaves.size() == model.triangle_count());
  std::sort(leaves.begin(), leaves.end());
  for (uint32_t t = 0; t < leaves.size(); ++t) CHECK(leaves[t] == t);
}

TEST_CASE("BVH: pairs_touching finds the overlapping pairs of the flagged triangles, each once") {
  // A sheet folded in half (the halves 1 cm apart) with a few triangles flagged: the query must give
  // exactly the full traversal's pairs that hold a flagged triangle, with the curvature criterion and
  // without it (cone_limit < 0).
  const ClothModel model = grid_model(8);
  TriangleBvh bvh(model);
  std::vector<glm::vec3> x = model.rest_position;
  for (auto& p : x) if (p.x > 0.5f) p = glm::vec3(1.f - p.x, p.y, 0.01f);
  bvh.refit(model, x.data(), x.data(), 0.006f);
  std::vector<uint8_t> flagged(model.triangle_count(), 0);
  for (size_t t = 0; t < flagged.size(); t += 7) flagged[t] = 1;
  auto key = [](const TrianglePair& p) { return std::pair(std::min(p.a, p.b), std::max(p.a, p.b)); };
  for (float cone_limit : {-1.f, 1.0472f}) {
    CAPTURE(cone_limit);
    std::vector<TrianglePair> all, touching;
    bvh.self_pairs(cone_limit, all);
    bvh.pairs_touching(flagged.data(), cone_limit, touching);
    std::set<std::pair<uint32_t, uint32_t>> expected, got;
    for (const auto& p : all)
      if (flagged[p.a] || flagged[p.b]) expected.insert(key(p));
    for (const auto& p : touching) {
      CHECK((flagged[p.a] || flagged[p.b]));
      CHECK(got.insert(key(p)).second);  // each pair once
    }
    REQUIRE(!expected.empty());
    CHECK(got == expected);
  }
  // Appends to what out holds, and stops at the cap.
  std::vector<TrianglePair> out(3);
  bvh.pairs_touching(flagged.data(), -1.f, out, 5);
  CHECK(out.size() == 5);
  CHECK(bvh.stats().truncated);
}

TEST_CASE("BVH: the refit bounds each triangle's motion and its subtree's normals") {
  // A crumpled, moving sheet: each leaf's box is its triangle's corners at both position sets grown by
  // the margin, each inner box the union of its children's, and each cone holds every triangle normal
  // below it. Checked node by node, so a leaf refitted from the wrong triangle or an inner node refitted
  // before its children fails.
  const ClothModel model = grid_model(10);
  TriangleBvh bvh(model);
  std::vector<glm::vec3> xp = model.rest_position, x = model.rest_position;
  for (size_t i = 0; i < x.size(); ++i) {
    const glm::vec3 p = model.rest_position[i];
    xp[i].z = 0.2f * std::sin(7.f * p.x) * std::cos(5.f * p.y);
    x[i] = xp[i] + glm::vec3(0.01f * std::sin(13.f * p.y), 0.02f * std::cos(11.f * p.x), 0.03f * std::sin(3.f * p.x + p.y));
  }
  const float margin = 0.004f;
  bvh.refit(model, x.data(), xp.data(), margin);
  const auto& nodes = bvh.nodes();
  std::vector<std::vector<uint32_t>> below(nodes.size());  // triangles under each node
  for (size_t i = nodes.size(); i-- > 0;) {
    const BvhNode& n = nodes[i];
    if (n.triangle >= 0) {
      below[i] = {uint32_t(n.triangle)};
      const auto& tri = model.triangle[size_t(n.triangle)];
      glm::vec3 lo(INFINITY), hi(-INFINITY);
      for (uint32_t v : tri) {
        lo = glm::min(lo, glm::min(x[v], xp[v]));
        hi = glm::max(hi, glm::max(x[v], xp[v]));
      }
      for (int k = 0; k < 3; ++k) {
        CHECK(n.lo[k] == doctest::Approx(lo[k] - margin));
        CHECK(n.hi[k] == doctest::Approx(hi[k] + margin));
      }
      const glm::vec3 normal = glm::normalize(glm::cross(x[tri[1]] - x[tri[0]], x[tri[2]] - x[tri[0]]));
      CHECK(glm::dot(normal, bvh.triangle_normals()[size_t(n.triangle)]) == doctest::Approx(1.f));
      continue;
    }
    const BvhNode &l = nodes[size_t(n.left)], &r = nodes[size_t(n.right)];
    for (int k = 0; k < 3; ++k) {
      CHECK(n.lo[k] == std::min(l.lo[k], r.lo[k]));
      CHECK(n.hi[k] == std::max(l.hi[k], r.hi[k]));
    }
    below[i] = below[size_t(n.left)];
    below[i].insert(below[i].end(), below[size_t(n.right)].begin(), below[size_t(n.right)].end());
    if (n.cone_half_angle >= 3.14f) continue;
    for (uint32_t t : below[i]) {
      const float angle = std::acos(std::clamp(glm::dot(n.cone_axis, bvh.triangle_normals()[t]), -1.f, 1.f));
      CHECK(angle <= n.cone_half_angle + 1e-4f);
    }
  }
  CHECK(nodes[0].cone_half_angle > 0.5f);  // crumpled: the root's cone is wide
  CHECK(nodes[0].cone_half_angle < 3.14f);
}

TEST_CASE("BVH: vertex fans: flat, creased and bow-tie cones, and corner neighbours in flat fans are not paired") {
  // A 1 m sheet of 8 x 8 cells creased 60 degrees along x = 0.5 (a line of vertices).
  const ClothModel model = grid_model(8);
  TriangleBvh bvh(model);
  std::vector<glm::vec3> x = model.rest_position;
  const float fold = 1.0472f;
  for (auto& p : x)
    if (p.x > 0.5f) p = glm::vec3(0.5f + (p.x - 0.5f) * std::cos(fold), p.y, (p.x - 0.5f) * std::sin(fold));
  bvh.refit(model, x.data(), x.data(), 0.f);
  uint32_t on_crease = 0, inside = 0;
  for (uint32_t v = 0; v < model.vertex_count(); ++v) {
    const glm::vec3 p = model.rest_position[v];
    if (std::abs(p.x - 0.5f) < 1e-4f && p.y > 0.3f && p.y < 0.7f) on_crease = v;
    if (std::abs(p.x - 0.25f) < 1e-4f && p.y > 0.3f && p.y < 0.7f) inside = v;
  }
  CHECK(bvh.fan_cone(inside).half_angle < 1e-3f);
  CHECK(bvh.fan_cone(on_crease).half_angle == doctest::Approx(0.5f * fold).epsilon(0.01));
  // Refitted again: the cache follows the new normals.
  bvh.refit(model, model.rest_position.data(), model.rest_position.data(), 0.f);
  CHECK(bvh.fan_cone(on_crease).half_angle < 1e-3f);

  // Two triangles joined at one corner only (a bow tie): that corner's fan is not one patch.
  Mesh tie;
  tie.positions = {{0, 0, 0}, {0.1f, 0, 0}, {0.1f, 0.1f, 0}, {-0.1f, 0, 0}, {-0.1f, -0.1f, 0}};
  tie.material.assign(5, glm::vec2(0.f));
  for (size_t i = 0; i < 5; ++i) tie.material[i] = glm::vec2(tie.positions[i].x, tie.positions[i].y);
  tie.triangles = {{0, 1, 2}, {0, 3, 4}};
  const ClothModel tie_model = build_cloth_model(tie, Material{});
  TriangleBvh tie_bvh(tie_model);
  tie_bvh.refit(tie_model, tie_model.rest_position.data(), tie_model.rest_position.data(), 0.f);
  CHECK(tie_bvh.fan_cone(0).half_angle > 3.f);
  CHECK(tie_bvh.fan_cone(1).half_angle < 1e-3f);

  // A sheet bent through 150 degrees: the root's cone is over the limit, its subtrees' cones along the
  // bend are wide, but every vertex fan turns by 19 degrees: no pair of triangles sharing a corner.
  Mesh bent = make_grid({.width = 0.5f, .height = 0.5f, .columns = 16, .rows = 16});
  const float r = 0.5f / 2.6f;
  for (auto& p : bent.positions) p = glm::vec3(r * std::sin(p.x / r), p.y, r - r * std::cos(p.x / r));
  const ClothModel bent_model = build_cloth_model(bent, Material{});
  TriangleBvh bent_bvh(bent_model);
  bent_bvh.refit(bent_model, bent_model.rest_position.data(), bent_model.rest_position.data(), 0.003f);
  std::vector<TrianglePair> pairs;
  bent_bvh.self_pairs(1.0472f, pairs);
  CHECK(bent_bvh.nodes()[0].cone_half_angle > 1.0472f);
  for (const auto& p : pairs) {
    const auto& ta = bent_model.triangle[p.a];
    const auto& tb = bent_model.triangle[p.b];
    int shared = 0;
    for (uint32_t u : ta) shared += (u == tb[0] || u == tb[1] || u == tb[2]) ? 1 : 0;
    CHECK(shared == 0);
  }
}
