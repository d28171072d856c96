#include "sim/weave_arrays.h"

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

WeaveHingeArrays make_weave_hinge_arrays(const std::vector<std::array<uint32_t, 4>>& hinge,
                                         const std::vector<std::array<uint32_t, 6>>& hinge_link) {
  WeaveHingeArrays a;
  for (size_t k = 0; k < 4; ++k) {
    a.corner[k].resize(hinge.size());
    for (size_t e = 0; e < hinge.size(); ++e) a.corner[k][e] = hinge[e][k];
  }
  for (size_t p = 0; p < 6; ++p) {
    a.link[p].resize(hinge_link.size());
    for (size_t e = 0; e < hinge_link.size(); ++e) a.link[p][e] = hinge_link[e][p];
  }
  return a;
}

}  // namespace weft
