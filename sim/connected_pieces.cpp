#include "sim/connected_pieces.h"

namespace weft {

std::vector<uint32_t> connected_pieces(size_t vertex_count, const std::vector<std::array<uint32_t, 3>>& triangles) {
  std::vector<uint32_t> parent(vertex_count);
  for (size_t i = 0; i < vertex_count; ++i) parent[i] = uint32_t(i);
  auto root = [&](uint32_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  for (const auto& t : triangles) {
    const uint32_t r = root(t[0]);
    parent[root(t[1])] = r;
    parent[root(t[2])] = r;
  }
  for (size_t i = 0; i < vertex_count; ++i) parent[i] = root(uint32_t(i));
  return parent;
}

}  // namespace weft
