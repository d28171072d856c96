#include "sim/edge_colouring.h"

#include <algorithm>

namespace weft {

EdgeColouring colour_edges(const ClothModel& model) {
  const size_t n = model.vertex_count(), ne = model.edge_count;
  // used[v] holds a bit per colour taken at v (64 colours: a vertex of degree 33 or more is refused below)
  std::vector<uint64_t> used(n, 0);
  std::vector<uint32_t> colour(ne, 0);
  uint32_t ncolour = 0;
  for (size_t e = 0; e < ne; ++e) {
    const auto [i, j] = model.link[e];
    const uint64_t taken = used[i] | used[j];
    uint32_t c = 0;
    while (c < 64 && ((taken >> c) & 1u)) ++c;
    if (c == 64) c = 63;  // cannot happen below degree 33; edge_colouring_conflicts would show it
    colour[e] = c;
    used[i] |= uint64_t(1) << c;
    used[j] |= uint64_t(1) << c;
    ncolour = std::max(ncolour, c + 1);
  }
  EdgeColouring out;
  out.colour_offset.assign(ncolour + 1, 0);
  for (size_t e = 0; e < ne; ++e) ++out.colour_offset[colour[e] + 1];
  for (uint32_t c = 0; c < ncolour; ++c) out.colour_offset[c + 1] += out.colour_offset[c];
  out.order.resize(ne);
  std::vector<uint32_t> fill(out.colour_offset.begin(), out.colour_offset.end() - 1);
  for (size_t e = 0; e < ne; ++e) out.order[fill[colour[e]]++] = uint32_t(e);
  return out;
}

size_t edge_colouring_conflicts(const ClothModel& model, const EdgeColouring& colouring) {
  std::vector<uint32_t> seen(model.vertex_count(), UINT32_MAX);  // the last colour that touched the vertex
  size_t conflicts = 0;
  for (size_t c = 0; c < colouring.colour_count(); ++c)
    for (uint32_t k = colouring.colour_offset[c]; k < colouring.colour_offset[c + 1]; ++k)
      for (uint32_t v : model.link[colouring.order[k]]) {
        if (seen[v] == c) ++conflicts;
        seen[v] = uint32_t(c);
      }
  return conflicts;
}

}  // namespace weft
