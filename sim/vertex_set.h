#pragma once
// A set of vertex indices, sized once: O(1) insertion, clearing in proportion to its size. The correction
// passes after the dynamic step (strain limiting, colliders) record in one what they moved, so that the
// next pass of their alternation looks only there instead of at the whole cloth.
#include <cstdint>
#include <vector>

namespace weft {

struct VertexSet {
  std::vector<uint32_t> list;   // the members, in insertion order (capacity nvert)
  std::vector<uint8_t> member;  // 1 for a member (nvert)

  void resize(size_t vertex_count) {
    list.clear();
    list.reserve(vertex_count);
    member.assign(vertex_count, 0);
  }
  void insert(uint32_t i) {
    if (member[i]) return;
    member[i] = 1;
    list.push_back(i);  // within the reserved capacity: no allocation
  }
  void clear() {
    for (uint32_t i : list) member[i] = 0;
    list.clear();
  }
  bool empty() const { return list.empty(); }
  size_t size() const { return list.size(); }
};

}  // namespace weft
