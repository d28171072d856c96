#include "engine/box_grid.h"

#include <algorithm>
#include <cmath>

namespace weft {

std::vector<std::array<uint32_t, 2>> overlapping_boxes(const std::vector<glm::vec3>& lo,
                                                       const std::vector<glm::vec3>& hi,
                                                       const std::vector<uint8_t>& use) {
  std::vector<std::array<uint32_t, 2>> out;
  const size_t n = lo.size();
  glm::vec3 min(INFINITY), max(-INFINITY);
  double size = 0;
  size_t used = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!use[i]) continue;
    min = glm::min(min, lo[i]);
    max = glm::max(max, hi[i]);
    const glm::vec3 e = hi[i] - lo[i];
    size += std::max({e.x, e.y, e.z});
    ++used;
  }
  if (used < 2) return out;
  // Cell: the mean box's largest side; larger while the grid would have more than 8 cells per box (a mesh
  // of a few large triangles among many small ones), so memory stays linear.
  const glm::vec3 extent = glm::max(max - min, glm::vec3(0.f));
  float cell = std::max(float(size / double(used)), 1e-6f * std::max({extent.x, extent.y, extent.z, 1e-6f}));
  glm::uvec3 dim;
  for (;;) {
    dim = glm::uvec3(glm::floor(extent / cell)) + 1u;
    if (double(dim.x) * dim.y * dim.z <= 8.0 * double(used)) break;
    cell *= 1.5f;
  }
  auto cell_of = [&](const glm::vec3& p) {
    return glm::min(glm::uvec3(glm::max((p - min) / cell, glm::vec3(0.f))), dim - 1u);
  };
  auto key = [&](const glm::uvec3& c) { return (uint64_t(c.z) * dim.y + c.y) * dim.x + c.x; };
  // (cell, box) for every cell a box touches, sorted by cell: each run is one cell's boxes.
  std::vector<std::pair<uint64_t, uint32_t>> entries;
  entries.reserve(2 * used);
  for (size_t i = 0; i < n; ++i) {
    if (!use[i]) continue;
    const glm::uvec3 a = cell_of(lo[i]), b = cell_of(hi[i]);
    for (uint32_t z = a.z; z <= b.z; ++z)
      for (uint32_t y = a.y; y <= b.y; ++y)
        for (uint32_t x = a.x; x <= b.x; ++x) entries.push_back({key({x, y, z}), uint32_t(i)});
  }
  std::sort(entries.begin(), entries.end());
  for (size_t first = 0; first < entries.size();) {
    size_t last = first;
    while (last < entries.size() && entries[last].first == entries[first].first) ++last;
    for (size_t p = first; p < last; ++p)
      for (size_t q = p + 1; q < last; ++q) {
        const uint32_t i = entries[p].second, j = entries[q].second;
        if (glm::any(glm::lessThan(hi[i], lo[j])) || glm::any(glm::lessThan(hi[j], lo[i]))) continue;
        // A pair shares every cell its boxes' intersection touches: reported in the one holding the
        // intersection's low corner.
        if (key(cell_of(glm::max(lo[i], lo[j]))) != entries[first].first) continue;
        out.push_back({std::min(i, j), std::max(i, j)});
      }
    first = last;
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace weft
