#include "sim/sewn_filter.h"

#include "sim/contact_filter.h"
#include "sim/seam.h"

namespace weft {

void SewnFilter::resize(size_t vertex_count) {
  for (auto* v : {&a, &b, &c}) v->reserve(vertex_count);
  w.reserve(vertex_count);
  normal.reserve(vertex_count);
  dv_normal.reserve(vertex_count);
  a.clear();  // before the marks: an old entry may name a vertex the new size lacks
  clear();
  member.assign(vertex_count, 0);
}

void SewnFilter::clear() {
  for (size_t k = 0; k < a.size(); ++k) member[a[k]] = member[b[k]] = member[c[k]] = 0;
  a.clear();
  b.clear();
  c.clear();
  w.clear();
  normal.clear();
  dv_normal.clear();
}

void find_sewn_pairs(const SeamSet& seams, const uint8_t* kinematic, const ContactFilter& contacts, SewnFilter& out) {
  out.clear();
  for (uint8_t sewn : seams.sewn)
    if (!sewn) return;  // a seam still closing: the projections alone, as before (sim/sewn_filter.h)
  const size_t n = contacts.entry_of_vertex.size();
  for (size_t k = 0; k < seams.size() && out.size() < n; ++k) {  // within resize's capacity
    if (!seams.sewn[k]) continue;
    const uint32_t a = seams.a[k], b = seams.b[k], c = seams.c[k];
    if (a >= n || b >= n || c >= n || a == b) continue;
    if (kinematic[a] || kinematic[b] || kinematic[c]) continue;
    if (out.member[a] || out.member[b] || out.member[c]) continue;
    out.member[a] = out.member[b] = out.member[c] = 1;
    glm::vec3 normal(0.f);
    float dv_normal = 0.f;
    for (uint32_t i : {a, b, c}) {
      const uint32_t e = contacts.entry_of_vertex[i];
      if (e == ContactFilter::kNone || normal != glm::vec3(0.f)) continue;
      normal = contacts.normal[e];
      dv_normal = contacts.dv_normal[e];
    }
    out.a.push_back(a);
    out.b.push_back(b);
    out.c.push_back(c);
    out.w.push_back(b == c ? 0.f : seams.w[k]);
    out.normal.push_back(normal);
    out.dv_normal.push_back(dv_normal);
  }
}

void impose_sewn(const SewnFilter& f, glm::vec3* dv) {
  project_sewn(f, &dv[0].x, 3, [](uint32_t i) { return i; });
  for (size_t k = 0; k < f.size(); ++k) {
    const glm::vec3 n = f.normal[k];
    if (n == glm::vec3(0.f)) continue;
    for (uint32_t i : {f.a[k], f.b[k], f.c[k]}) dv[i] += f.dv_normal[k] * n;  // projection left them 0 along n
  }
}

}  // namespace weft
