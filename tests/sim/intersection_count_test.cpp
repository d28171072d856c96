#include <doctest/doctest.h>

#include "sim/intersection_count.h"
#include "sim/mesh_generators.h"

using namespace weft;

TEST_CASE("intersection count: a flat sheet has none, a sheet pushed through itself has some") {
  const ClothModel model = build_cloth_model(make_grid({.columns = 8, .rows = 8}), Material{});
  CHECK(count_self_intersections(model, model.rest_position).edge_triangle == 0);
  // Fold over x = 0.5 so that the folded half rises above the lower one (shifted off the grid lines
  // so that no edge passes exactly through a vertex, a touching case the count leaves out): still free.
  std::vector<glm::vec3> x = model.rest_position;
  for (auto& p : x) if (p.x > 0.5f) p = glm::vec3(1.03f - p.x, p.y + 0.013f, 0.01f * (p.x - 0.5f) * 8.f);
  CHECK(count_self_intersections(model, x).edge_triangle == 0);
  // Now push a strip of the folded half through the lower half.
  for (size_t i = 0; i < x.size(); ++i)
    if (model.rest_position[i].x > 0.7f && model.rest_position[i].y > 0.3f && model.rest_position[i].y < 0.7f)
      x[i].z = -0.05f;
  const IntersectionCount n = count_self_intersections(model, x);
  CHECK(n.edge_triangle > 0);
  CHECK(n.triangle_pairs > 0);
}
