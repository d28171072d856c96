#include "sim/weave_triangle_arrays.h"

namespace weft {

WeaveTriangleArrays make_weave_triangle_arrays(const std::vector<std::array<uint32_t, 3>>& triangles,
                                               const std::vector<std::array<float, 3>>& ru,
                                               const std::vector<std::array<float, 3>>& rv,
                                               const std::vector<std::array<uint32_t, 3>>& pair_link,
                                               const WeaveMaterial& weave) {
  WeaveTriangleArrays a;
  const size_t n = ru.size();
  for (int k = 0; k < 3; ++k) {
    a.corner[size_t(k)].resize(n);
    a.ru[size_t(k)].resize(n);
    a.rv[size_t(k)].resize(n);
    a.pair_link[size_t(k)].resize(n);
    for (size_t t = 0; t < n; ++t) {
      a.corner[size_t(k)][t] = triangles[t][size_t(k)];
      a.ru[size_t(k)][t] = ru[t][size_t(k)];
      a.rv[size_t(k)][t] = rv[t][size_t(k)];
      a.pair_link[size_t(k)][t] = pair_link[t][size_t(k)];
    }
  }
  a.curve = {make_curve_table(weave.weft), make_curve_table(weave.warp), make_curve_table(weave.shear)};
  return a;
}

}  // namespace weft
