#include "sim/sewn_weld.h"

#include <utility>

namespace weft {

namespace {

uint32_t find_root(uint32_t* root, uint32_t i) {
  while (root[i] != i) {
    root[i] = root[root[i]];  // path halving
    i = root[i];
  }
  return i;
}

}  // namespace

void weld_sewn_seams(const SeamSet& seams, const float* inv_mass, const uint8_t* kinematic, StrainLimitScratch& s) {
  uint32_t* next = s.weld_next.data();
  uint32_t* root = s.weld_root.data();
  // Outside a ring a vertex has next[i] == root[i] == i (set at resize and here for the last rings).
  for (uint32_t i : s.weld_members) next[i] = root[i] = i;
  s.weld_members.clear();
  const size_t n = s.weld_next.size();
  for (size_t k = 0; k < seams.size(); ++k) {
    if (!seams.sewn[k]) continue;
    const uint32_t a = seams.a[k], b = seams.w[k] < 0.5f ? seams.b[k] : seams.c[k];
    if (a == b || a >= n || b >= n) continue;
    for (uint32_t u : {a, b})
      if (next[u] == u) s.weld_members.push_back(u);  // not in a ring yet: it joins one just below
    const uint32_t ra = find_root(root, a), rb = find_root(root, b);
    if (ra == rb) continue;
    root[rb] = ra;
    std::swap(next[a], next[b]);  // splices two distinct rings into one
  }
  // Every member points at its final representative and carries its ring's inverse total mass.
  for (uint32_t u : s.weld_members) root[u] = find_root(root, u);
  for (uint32_t u : s.weld_members) s.weld_inv_mass[u] = 0.f;
  for (uint32_t u : s.weld_members) {  // the ring's mass, summed at its root; -1: held or pinned
    float& m = s.weld_inv_mass[root[u]];
    if (m < 0.f) continue;
    if (kinematic[u] || !(inv_mass[u] > 0.f)) m = -1.f;
    else m += 1.f / inv_mass[u];
  }
  for (uint32_t u : s.weld_members)
    if (root[u] != u) s.weld_inv_mass[u] = s.weld_inv_mass[root[u]];
  for (uint32_t u : s.weld_members) {
    float& m = s.weld_inv_mass[u];
    m = m > 0.f ? 1.f / m : 0.f;
  }
}

}  // namespace weft
