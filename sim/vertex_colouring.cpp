#include "sim/vertex_colouring.h"

#include <algorithm>

namespace weft {

VertexColouring colour_vertices(size_t n, const std::vector<std::array<uint32_t, 2>>& links) {
  // vertex -> neighbours (CSR)
  std::vector<uint32_t> offset(n + 1, 0), neighbour(2 * links.size());
  for (const auto& l : links) {
    ++offset[l[0] + 1];
    ++offset[l[1] + 1];
  }
  for (size_t i = 0; i < n; ++i) offset[i + 1] += offset[i];
  std::vector<uint32_t> fill(offset.begin(), offset.end() - 1);
  for (const auto& l : links) {
    neighbour[fill[l[0]]++] = l[1];
    neighbour[fill[l[1]]++] = l[0];
  }
  constexpr uint32_t kNone = UINT32_MAX;
  VertexColouring out;
  out.colour.assign(n, kNone);
  std::vector<uint32_t> used_by;  // used_by[c] == i when a neighbour of i has colour c
  uint32_t ncolour = 0;
  for (uint32_t i = 0; i < n; ++i) {
    for (uint32_t k = offset[i]; k < offset[i + 1]; ++k) {
      const uint32_t c = out.colour[neighbour[k]];
      if (c != kNone) used_by[c] = i;
    }
    uint32_t c = 0;
    while (c < ncolour && used_by[c] == i) ++c;
    if (c == ncolour) {
      ++ncolour;
      used_by.push_back(kNone);
    }
    out.colour[i] = c;
  }
  out.colour_offset.assign(ncolour + 1, 0);
  for (uint32_t c : out.colour) ++out.colour_offset[c + 1];
  for (uint32_t c = 0; c < ncolour; ++c) out.colour_offset[c + 1] += out.colour_offset[c];
  out.order.resize(n);
  std::vector<uint32_t> at(out.colour_offset.begin(), out.colour_offset.end() - 1);
  for (uint32_t i = 0; i < n; ++i) out.order[at[out.colour[i]]++] = i;
  return out;
}

size_t colouring_conflicts(const VertexColouring& colouring, const std::vector<std::array<uint32_t, 2>>& links) {
  return size_t(std::count_if(links.begin(), links.end(), [&](const std::array<uint32_t, 2>& l) {
    return l[0] == l[1] || colouring.colour[l[0]] == colouring.colour[l[1]];
  }));
}

}  // namespace weft
