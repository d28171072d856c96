#pragma once
// The seams sewn for good kept inside the implicit solve, as Baraff & Witkin 1998's filter (section 5.3)
// keeps the collider contacts (sim/contact_filter.h). A sewn pair's constraint g = v_a - wb v_b - wc v_c = 0
// (sim/seam.h) is imposed on dv: the search directions and residuals are projected onto it, so the solve
// moves each pair as one vertex. Without it every panel pulled its side of the seam toward its own interior
// inside the solve (each seam vertex feels only its own panel's edges): on the garment scene at rest the
// step left seam vertices 0.2-0.34 m/s apart, the projections after the step closed them again, and the
// skirt buzzed at 1.9 cm/s RMS while at rest (docs/performance.md, garment). Off with self-collision for now
// (docs/decisions/sewn-pairs-in-solve-while-sewing.md).
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace weft {

struct SeamSet;
struct ContactFilter;

struct SewnFilter {
  // One entry per sewn pair the solve keeps closed: vertex a against the point wb b + wc c (wb = 1 - wc).
  std::vector<uint32_t> a, b, c;
  std::vector<float> w;  // wc
  // The normal of a member's resting contact (sim/contact_filter.h), or 0: the pair then moves in that plane.
  std::vector<glm::vec3> normal;
  std::vector<float> dv_normal;  // that contact's velocity change along its normal (ContactFilter::dv_normal), m/s
  std::vector<uint8_t> member;   // 1 where a vertex belongs to an entry (nvert)

  void resize(size_t vertex_count);  // capacity for one pair per vertex: building never allocates
  size_t size() const { return a.size(); }
  bool empty() const { return a.empty(); }
  void clear();
};

// This step's entries, once every seam is sewn: the sewn pairs none of whose vertices is kinematic (a held
// or pinned member decides alone) or in an earlier entry, with the resting contact of a member from
// `contacts`. Entries share no vertex, so that projecting them one after the other is one projection,
// symmetric as CG needs; the others are closed by the projections after the step. While any pair is open
// there are none: kept in the solve from their sewing on, the sewn pairs beside the open ones slowed the
// table's tool session's sew (64 of 73 pairs sewn at 3 s, against every pair by tick 572 without them).
void find_sewn_pairs(const SeamSet& seams, const uint8_t* kinematic, const ContactFilter& contacts, SewnFilter& out);

// dv (per vertex) made to satisfy the pairs: each pair's members moved as the projection below moves them, and
// where a member rests on a collider, the pair given that contact's normal velocity change.
void impose_sewn(const SewnFilter& f, glm::vec3* dv);

// Projects the 3-vectors u (stride floats apart, at slot(i) for vertex i) onto the pairs' constraints:
// the orthogonal projection onto g = 0, s = g / (1 + wb^2 + wc^2), u_a -= s, u_b += wb s, u_c += wc s, then
// the members' common contact normal removed (the pair rests on the collider as one vertex).
template <class Slot>
void project_sewn(const SewnFilter& f, float* u, size_t stride, Slot slot) {
  for (size_t k = 0; k < f.size(); ++k) {
    float* pa = u + stride * size_t(slot(f.a[k]));
    float* pb = u + stride * size_t(slot(f.b[k]));
    float* pc = u + stride * size_t(slot(f.c[k]));
    const float wc = f.w[k], wb = 1.f - wc;
    const bool edge = f.b[k] != f.c[k];
    const float denom = edge ? 1.f + wb * wb + wc * wc : 2.f;
    const glm::vec3 n = f.normal[k];
    for (int d = 0; d < 3; ++d) {
      const float g = edge ? pa[d] - wb * pb[d] - wc * pc[d] : pa[d] - pb[d];
      const float s = g / denom;
      pa[d] -= s;
      if (edge) {
        pb[d] += wb * s;
        pc[d] += wc * s;
      } else {
        pb[d] += s;
      }
    }
    if (n == glm::vec3(0.f)) continue;
    for (float* p : {pa, pb, pc}) {  // c may be b: projecting twice is projecting once
      const float dn = p[0] * n.x + p[1] * n.y + p[2] * n.z;
      p[0] -= dn * n.x;
      p[1] -= dn * n.y;
      p[2] -= dn * n.z;
    }
  }
}

}  // namespace weft
