#include "sim/intersection_count.h"

#include "sim/collision_geometry.h"

namespace weft {
namespace {

bool shares_vertex(const std::array<uint32_t, 3>& t, uint32_t v) { return t[0] == v || t[1] == v || t[2] == v; }

}  // namespace

IntersectionCount count_self_intersections(const ClothModel& model, const std::vector<glm::vec3>& positions) {
  TriangleBvh bvh(model);
  std::vector<TrianglePair> pairs;
  return count_self_intersections(model, positions, bvh, pairs);
}

IntersectionCount count_self_intersections(const ClothModel& model, const std::vector<glm::vec3>& x,
                                           TriangleBvh& bvh, std::vector<TrianglePair>& pairs) {
  IntersectionCount count;
  bvh.refit(model, x.data(), x.data(), 0.f);
  bvh.self_pairs(-1.f, pairs);
  const auto& mask = bvh.feature_mask();
  for (const TrianglePair& p : pairs) {
    const auto& ta = model.triangle[p.a];
    const auto& tb = model.triangle[p.b];
    bool crossing = false;
    // Edge k of a triangle joins corners k+1 and k+2 (it is opposite corner k).
    auto test = [&](const std::array<uint32_t, 3>& te, uint8_t owned, const std::array<uint32_t, 3>& tt) {
      for (int k = 0; k < 3; ++k) {
        const uint32_t i = te[(k + 1) % 3], j = te[(k + 2) % 3];
        if (shares_vertex(tt, i) || shares_vertex(tt, j)) continue;
        if (!segment_crosses_triangle(x[i], x[j], x[tt[0]], x[tt[1]], x[tt[2]])) continue;
        crossing = true;
        if (owned & (1u << (3 + k))) ++count.edge_triangle;
      }
    };
    test(ta, mask[p.a], tb);
    test(tb, mask[p.b], ta);
    if (crossing) ++count.triangle_pairs;
  }
  return count;
}

}  // namespace weft
