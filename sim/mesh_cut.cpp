#include "sim/mesh_cut.h"

#include <cmath>
#include <numeric>

#include "sim/topology.h"

namespace weft {
namespace {

float segment_distance(const glm::vec3& p, const glm::vec3& a, const glm::vec3& d, float len2) {
  const float s = glm::clamp(glm::dot(p - a, d) / len2, 0.f, 1.f);
  return glm::length(p - (a + s * d));
}

// Distance between segments [p0, p1] and [q0, q1] (Ericson, Real-Time Collision Detection 5.1.9).
float segment_segment_distance(const glm::vec3& p0, const glm::vec3& p1, const glm::vec3& q0, const glm::vec3& q1) {
  const glm::vec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const float a = glm::dot(d1, d1), e = glm::dot(d2, d2), f = glm::dot(d2, r);
  float s = 0.f, t = 0.f;
  if (a <= 1e-20f && e <= 1e-20f) return glm::length(r);
  if (a <= 1e-20f) {
    t = glm::clamp(f / e, 0.f, 1.f);
  } else {
    const float c = glm::dot(d1, r);
    if (e <= 1e-20f) {
      s = glm::clamp(-c / a, 0.f, 1.f);
    } else {
      const float b = glm::dot(d1, d2), denom = a * e - b * b;
      s = denom > 0.f ? glm::clamp((b * f - c * e) / denom, 0.f, 1.f) : 0.f;
      t = (b * s + f) / e;
      if (t < 0.f) t = 0.f, s = glm::clamp(-c / a, 0.f, 1.f);
      else if (t > 1.f) t = 1.f, s = glm::clamp((b - c) / a, 0.f, 1.f);
    }
  }
  return glm::length((p0 + s * d1) - (q0 + t * d2));
}

uint32_t find_root(std::vector<uint32_t>& parent, uint32_t i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

}  // namespace

const char* cut_mesh(const Mesh& rest, const Topology& topo, const glm::vec3* x, const glm::vec3& from, const glm::vec3& to, float radius,
                     MeshEdit& out) {
  const glm::vec3 d = to - from;
  const float len2 = glm::dot(d, d);
  if (!std::isfinite(len2) || !(len2 > 1e-12f)) return "the blade segment has no length";
  if (!(radius > 0.f) || !std::isfinite(radius)) return "the cut radius must be positive";
  const size_t n = rest.vertex_count(), ntri = rest.triangle_count();

  // The cutting plane holds the segment and the normal of the triangle nearest its middle: one plane for
  // every edge, so both triangles of an edge agree on where it is crossed.
  const glm::vec3 mid = from + 0.5f * d;
  float nearest = INFINITY;
  glm::vec3 normal(0.f);
  for (size_t t = 0; t < ntri; ++t) {
    const auto& tri = rest.triangles[t];
    const glm::vec3 c = (x[tri[0]] + x[tri[1]] + x[tri[2]]) / 3.f;
    const float dist = segment_distance(c, from, d, len2) + 1e-3f * glm::length(c - mid);
    const glm::vec3 nt = glm::cross(x[tri[1]] - x[tri[0]], x[tri[2]] - x[tri[0]]);
    if (dist < nearest && glm::dot(nt, nt) > 0.f) {
      nearest = dist;
      normal = glm::normalize(nt);
    }
  }
  glm::vec3 plane = glm::cross(d, normal);
  if (!(glm::dot(plane, plane) > 1e-6f * len2)) return "the blade runs along the cloth's normal";
  plane = glm::normalize(plane);

  // Signed distances to the plane; crossings within kCutSnap of a vertex move onto it (no slivers).
  std::vector<float> s(n);
  for (size_t i = 0; i < n; ++i) s[i] = glm::dot(x[i] - from, plane);
  std::vector<uint8_t> on_path(n, 0);
  for (size_t i = 0; i < n; ++i)
    if (s[i] == 0.f) {
      if (segment_distance(x[i], from, d, len2) <= radius) on_path[i] = 1;
      else s[i] = 1e-30f;  // on the plane but away from the blade: one side
    }
  const size_t nedge = topo.edges.size();
  auto crosses = [&](size_t e, float& t) {
    const auto [i, j] = topo.edges[e];
    if (!((s[i] < 0.f && s[j] > 0.f) || (s[i] > 0.f && s[j] < 0.f))) return false;
    t = s[i] / (s[i] - s[j]);
    return true;
  };
  // The path through a triangle is the segment between the plane's two crossings of it (edge points or
  // corners on the plane); where that segment comes within radius of the blade, its crossings are on the
  // path. Whole triangles, so that the path reaches the blade's ends and the next segment of a stroke
  // meets it.
  std::vector<uint8_t> active(nedge, 0);
  auto mark_active = [&]() {
    std::fill(active.begin(), active.end(), 0);
    for (size_t t = 0; t < ntri; ++t) {
      const auto& tri = rest.triangles[t];
      glm::vec3 point[3];
      int32_t edge[3], corner[3];
      int np = 0;
      for (int k = 0; k < 3; ++k) {
        float u;
        const uint32_t e = topo.triangle_edges[t][k];
        if (crosses(e, u)) {
          point[np] = glm::mix(x[topo.edges[e][0]], x[topo.edges[e][1]], u);
          edge[np] = int32_t(e), corner[np++] = -1;
        }
      }
      for (int k = 0; k < 3 && np < 3; ++k)
        if (s[tri[k]] == 0.f) {
          point[np] = x[tri[k]];
          edge[np] = -1, corner[np++] = int32_t(tri[k]);
        }
      if (np != 2 || segment_segment_distance(point[0], point[1], from, to) > radius) continue;
      for (int k = 0; k < 2; ++k) {
        if (edge[k] >= 0) active[edge[k]] = 1;
        else on_path[corner[k]] = 1;
      }
    }
  };
  mark_active();
  std::vector<uint32_t> snap_to;
  for (size_t e = 0; e < nedge; ++e) {
    float t;
    if (!active[e] || !crosses(e, t)) continue;
    if (t < kCutSnap) snap_to.push_back(topo.edges[e][0]);
    else if (t > 1.f - kCutSnap) snap_to.push_back(topo.edges[e][1]);
  }
  const std::vector<float> s_plane = s;  // before snapping: decides the side of a triangle snapped into the plane
  for (uint32_t v : snap_to) {
    s[v] = 0.f;
    on_path[v] = 1;
  }
  mark_active();
  auto crossing = [&](size_t e, float& t) { return active[e] && crosses(e, t); };

  // Split the crossed triangles. Where a piece would be a sliver (an already thin triangle cut near a
  // corner), the crossings making it move onto their nearer vertex and the split is made again.
  std::vector<uint32_t> split;
  std::vector<std::array<uint32_t, 3>>& tris = out.mesh.triangles;
  auto rest_at = [&](uint32_t v) {
    const VertexOrigin& o = out.origin[v];
    return glm::mix(rest.positions[o.a], rest.positions[o.b], o.t);
  };
  for (int attempt = 0;; ++attempt) {
    // New vertices where the path crosses an edge.
    out = MeshEdit{};
    out.origin.resize(n);
    for (uint32_t i = 0; i < n; ++i) out.origin[i] = {i, i, 0.f};
    split.assign(nedge, UINT32_MAX);
    for (size_t e = 0; e < nedge; ++e) {
      float t;
      if (!crossing(e, t)) continue;
      split[e] = uint32_t(out.origin.size());
      out.origin.push_back({topo.edges[e][0], topo.edges[e][1], t});
    }
    // Each crossed triangle split: one crossing makes two triangles, two make three (the quad by its
    // shorter diagonal). A plane crosses at most two edges of a triangle.
    for (uint32_t t = 0; t < ntri; ++t) {
      const auto& c = rest.triangles[t];
      const auto& te = topo.triangle_edges[t];
      int m = 0, k_unsplit = -1, k_split = -1;
      for (int k = 0; k < 3; ++k) {
        if (split[te[k]] != UINT32_MAX) { ++m; k_split = k; }
        else k_unsplit = k;
      }
      auto emit = [&](uint32_t a, uint32_t b, uint32_t cc) {
        tris.push_back({a, b, cc});
        out.triangle_parent.push_back(t);
      };
      if (m == 0) {
        emit(c[0], c[1], c[2]);
      } else if (m == 1) {
        const int k = k_split;
        const uint32_t ck = c[k], c1 = c[(k + 1) % 3], c2 = c[(k + 2) % 3], p = split[te[k]];
        emit(ck, c1, p);
        emit(ck, p, c2);
      } else if (m == 2) {
        const int k = k_unsplit;
        const uint32_t ck = c[k], c1 = c[(k + 1) % 3], c2 = c[(k + 2) % 3];
        const uint32_t p = split[te[(k + 2) % 3]], q = split[te[(k + 1) % 3]];  // on ck-c1, on c2-ck
        emit(ck, p, q);
        if (glm::length(rest_at(p) - rest_at(c2)) <= glm::length(rest_at(q) - rest_at(c1))) {
          emit(p, c1, c2);
          emit(p, c2, q);
        } else {
          emit(p, c1, q);
          emit(q, c1, c2);
        }
      } else {
        return "the cut crossed a triangle three times";
      }
    }
    bool snapped = false;
    for (const auto& tri : tris) {
      if (tri[0] < n && tri[1] < n && tri[2] < n) continue;
      const glm::vec3 a = rest_at(tri[0]), b = rest_at(tri[1]), c = rest_at(tri[2]);
      const float sum = glm::dot(b - a, b - a) + glm::dot(c - b, c - b) + glm::dot(a - c, a - c);
      const float quality = 2.f * std::sqrt(3.f) * glm::length(glm::cross(b - a, c - a)) / sum;
      if (quality >= kCutMinQuality) continue;
      if (attempt == kCutResplits) return "the cut would leave a sliver";
      for (uint32_t v : tri) {
        if (v < n) continue;
        const VertexOrigin& o = out.origin[v];
        const uint32_t nearer = o.t < 0.5f ? o.a : o.b;
        if (s[nearer] != 0.f) s[nearer] = 0.f, on_path[nearer] = 1, snapped = true;
      }
    }
    if (!snapped) break;
    mark_active();
  }
  const uint32_t n_split = uint32_t(out.origin.size());
  bool any_path = n_split > n;
  for (size_t i = 0; i < n && !any_path; ++i) any_path = on_path[i];
  if (!any_path) return "the blade does not reach the cloth";
  on_path.resize(n_split, 1);
  s.resize(n_split, 0.f);
  auto plane_side = [&](uint32_t v) {
    const VertexOrigin& o = out.origin[v];
    return o.t == 0.f ? s_plane[o.a] : 0.f;
  };

  out.mesh.positions.resize(n_split);
  out.mesh.material.resize(n_split);
  for (uint32_t v = 0; v < n_split; ++v) {
    const VertexOrigin& o = out.origin[v];
    out.mesh.positions[v] = glm::mix(rest.positions[o.a], rest.positions[o.b], o.t);
    out.mesh.material[v] = glm::mix(rest.material[o.a], rest.material[o.b], o.t);
  }

  // Which side of the plane each triangle lies on (0: across it, away from the blade, or in it).
  const size_t nt = tris.size();
  std::vector<int8_t> side(nt);
  for (size_t t = 0; t < nt; ++t) {
    int pos = 0, neg = 0;
    for (uint32_t v : tris[t]) pos += s[v] > 0.f, neg += s[v] < 0.f;
    side[t] = int8_t(pos && !neg ? 1 : neg && !pos ? -1 : 0);
    if (!pos && !neg) {  // every corner on the path: the side its corners had before snapping
      const float c = plane_side(tris[t][0]) + plane_side(tris[t][1]) + plane_side(tris[t][2]);
      side[t] = int8_t(c < 0.f ? -1 : 1);
    }
  }
  // The cut edges: on the path at both ends, with a triangle on either side.
  const Topology split_topo = build_topology(out.mesh);
  const size_t ne = split_topo.edges.size();
  std::vector<uint8_t> cut(ne, 0);
  bool any_cut = false;
  for (size_t e = 0; e < ne; ++e) {
    const auto [i, j] = split_topo.edges[e];
    const auto [ta, tb] = split_topo.edge_triangles[e];
    if (on_path[i] && on_path[j] && ta >= 0 && tb >= 0 && side[ta] * side[tb] < 0) cut[e] = 1, any_cut = true;
  }

  // Open the path: around each vertex on a cut edge, the triangles joined through uncut edges form fans;
  // every fan after the first gets its own copy of the vertex.
  if (any_cut) {
    std::vector<uint32_t> first(n_split + 1, 0), incident(2 * ne);
    for (const auto& e : split_topo.edges) ++first[e[0] + 1], ++first[e[1] + 1];
    std::partial_sum(first.begin(), first.end(), first.begin());
    std::vector<uint32_t> fill(first.begin(), first.end() - 1);
    for (uint32_t e = 0; e < ne; ++e) incident[fill[split_topo.edges[e][0]]++] = e, incident[fill[split_topo.edges[e][1]]++] = e;
    std::vector<uint32_t> parent(nt);
    std::iota(parent.begin(), parent.end(), 0u);
    std::vector<uint32_t> vertex_tris, roots, copy_of_fan;
    for (uint32_t v = 0; v < n_split; ++v) {
      bool touches = false;
      for (uint32_t k = first[v]; k < first[v + 1] && !touches; ++k) touches = cut[incident[k]];
      if (!touches) continue;
      vertex_tris.clear();
      for (uint32_t k = first[v]; k < first[v + 1]; ++k) {
        const uint32_t e = incident[k];
        for (int32_t t : split_topo.edge_triangles[e])
          if (t >= 0) vertex_tris.push_back(uint32_t(t)), parent[t] = uint32_t(t);
      }
      for (uint32_t k = first[v]; k < first[v + 1]; ++k) {
        const uint32_t e = incident[k];
        const auto [ta, tb] = split_topo.edge_triangles[e];
        if (!cut[e] && ta >= 0 && tb >= 0) parent[find_root(parent, uint32_t(ta))] = find_root(parent, uint32_t(tb));
      }
      roots.clear();
      for (uint32_t t : vertex_tris) {
        const uint32_t r = find_root(parent, t);
        size_t fan = 0;
        while (fan < roots.size() && roots[fan] != r) ++fan;
        if (fan == roots.size()) roots.push_back(r);
      }
      // Give each later fan a copy (the vertex's own origin: copies share its rest position).
      copy_of_fan.assign(roots.size(), v);
      for (size_t f = 1; f < roots.size(); ++f) {
        copy_of_fan[f] = uint32_t(out.origin.size());
        out.origin.push_back(out.origin[v]);
        out.mesh.positions.push_back(out.mesh.positions[v]);
        out.mesh.material.push_back(out.mesh.material[v]);
      }
      for (uint32_t t : vertex_tris) {
        const uint32_t r = find_root(parent, t);
        size_t fan = 0;
        while (roots[fan] != r) ++fan;
        for (uint32_t& c : tris[t])
          if (c == v) c = copy_of_fan[fan];
      }
    }
  }
  out.vertices_added = uint32_t(out.origin.size() - n);
  out.triangles_added = uint32_t(tris.size() - ntri);
  return nullptr;
}

}  // namespace weft
