#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "sim/mesh_generators.h"
#include "sim/seam_neighbours.h"
#include "sim/world.h"

using namespace weft;

namespace {

// Two flat square panels side by side in the plane y = 0.5 (b `lift` above it), `apart` between a's right
// edge and b's left edge (negative: b's lip lies over a's).
Mesh two_panels(float wa, float wb, float apart, float lift) {
  auto cells = [](float w) { return uint32_t(std::max(2L, std::lround(w / 0.025f))); };
  Mesh a = make_grid({.width = wa, .height = wa, .columns = cells(wa), .rows = cells(wa)});
  Mesh b = make_grid({.width = wb, .height = wb, .columns = cells(wb), .rows = cells(wb)});
  const uint32_t na = uint32_t(a.positions.size());
  for (auto p : b.positions) a.positions.push_back(p + glm::vec3(wa + apart, 0, 0));
  a.material.insert(a.material.end(), b.material.begin(), b.material.end());
  for (auto t : b.triangles) a.triangles.push_back({t[0] + na, t[1] + na, t[2] + na});
  for (size_t i = 0; i < a.positions.size(); ++i) {
    const glm::vec3 p = a.positions[i];
    a.positions[i] = glm::vec3(p.x, 0.5f + (i >= na ? lift : 0.f), p.y);
  }
  return a;
}

struct SewRun {
  float gap_end = 0, speed_max = 0;
  size_t contacts_max = 0;
  uint32_t sewn = 0, pairs = 0;
  bool finite = true;
};

// Sews a's right edge to b's left edge on a self-colliding cloth without gravity, 2 s.
SewRun sew_self_colliding(float wa, float wb, float apart, float lift) {
  Material m;
  m.gravity = glm::vec3(0.f);
  WorldConfig config;
  config.self_collision = {.enabled = true, .thickness = 0.004f};
  World w(build_cloth_model(two_panels(wa, wb, apart, lift), m), config);
  w.step();
  const float xa = wa, xb = wa + apart;
  const SewReport r = w.sew({xa, 0.5f, 0}, {xa, 0.5f, wa}, {xb, 0.5f + lift, 0}, {xb, 0.5f + lift, wb});
  REQUIRE(r.refused == nullptr);
  SewRun out;
  for (int k = 0; k < 480; ++k) {
    w.step();
    if (w.self_collision()) out.contacts_max = std::max(out.contacts_max, w.self_collision()->contacts().size());
    for (const glm::vec3& v : w.state().velocity) {
      out.finite = out.finite && std::isfinite(v.x + v.y + v.z);
      out.speed_max = std::max(out.speed_max, glm::length(v));
    }
  }
  out.gap_end = w.step_report().seams.gap_max;
  out.sewn = w.step_report().seams.sewn;
  out.pairs = w.step_report().seams.pairs;
  return out;
}

}  // namespace

TEST_CASE("seam neighbours join a pair's vertices and the vertices beside them, both ways, and nothing else") {
  // two strips of two triangles: 0-1-2-3 (a, right edge 1-3) and 4-5-6-7 (b, left edge 4-6)
  Mesh mesh;
  mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {2, 0, 0}, {3, 0, 0}, {2, 1, 0}, {3, 1, 0}};
  mesh.triangles = {{0, 1, 3}, {0, 3, 2}, {4, 5, 7}, {4, 7, 6}};
  for (const auto& p : mesh.positions) mesh.material.push_back({p.x, p.y});
  const ClothModel model = build_cloth_model(mesh, {});
  SeamSet seams;
  seams.add(1, 4);
  SeamNeighbours n;
  n.build(model.topology, model.vertex_count(), model.triangle_count(), model.triangle, seams);
  CHECK(n.joined(0, 2, model.triangle));  // triangles round the pair
  CHECK(n.joined(2, 0, model.triangle));
  CHECK(n.joined(1, 2, model.triangle));  // vertex 0 (beside 1) and triangle 2 (holding 4)
  CHECK(std::find(n.begin(4), n.end(4), 1u) != n.end(4));
  CHECK(std::find(n.begin(1), n.end(1), 4u) != n.end(1));
  CHECK(std::find(n.begin(1), n.end(1), 0u) == n.end(1));  // a's own vertices are not joined by the seam
  n.build(model.topology, model.vertex_count(), model.triangle_count(), model.triangle, SeamSet{});
  CHECK(n.empty());
  CHECK(!n.joined(0, 2, model.triangle));
}

TEST_CASE("a seam on a self-colliding cloth sews: the lips meet, no NaN, bounded speed and self-contacts") {
  // Before the seam's features were exempt, self-collision held the lips a thickness (4 mm) apart while
  // the seam pulled them to its 1 mm sew gap: the tool session on table.json never sewed.
  // b's lip laid 1 cm over a's, 3 mm above it: the lips must pass the self-collision's 4 mm to meet.
  const SewRun r = sew_self_colliding(0.2f, 0.2f, -0.01f, 0.003f);
  MESSAGE("sewn " << r.sewn << "/" << r.pairs << ", gap " << r.gap_end << " m, speed max " << r.speed_max
                  << " m/s, self-contacts max " << r.contacts_max);
  CHECK(r.finite);
  CHECK(r.pairs > 0);
  CHECK(r.sewn == r.pairs);
  CHECK(r.gap_end <= 0.002f);
  CHECK(r.speed_max < 1.5f);  // the seam's speed cap is 1 m/s
  CHECK(r.contacts_max < 50);
}

TEST_CASE("borders of very different lengths (20 cm onto 5 cm) on a self-colliding cloth: sewn, no NaN, bounded") {
  const SewRun r = sew_self_colliding(0.2f, 0.05f, 0.05f, 0.f);
  MESSAGE("sewn " << r.sewn << "/" << r.pairs << ", gap " << r.gap_end << " m, speed max " << r.speed_max
                  << " m/s, self-contacts max " << r.contacts_max);
  CHECK(r.finite);
  CHECK(r.pairs > 0);
  CHECK(r.sewn == r.pairs);
  CHECK(r.gap_end <= 0.002f);
  CHECK(r.speed_max < 1.5f);
  CHECK(r.contacts_max < 200);
}
