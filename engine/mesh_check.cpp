#include "engine/mesh_check.h"

#include "engine/box_grid.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>

namespace weft {
namespace {

struct Reporter {
  const std::vector<uint32_t>& line;
  size_t max_examples;
  std::string name(size_t t) const {
    std::string s = "triangle " + std::to_string(t + 1);
    if (t < line.size()) s += " (line " + std::to_string(line[t]) + ")";
    return s;
  }
  void add(MeshIssue& issue, const std::string& example) const {
    if (issue.count++ < max_examples) issue.examples.push_back(example);
  }
};

uint64_t edge_key(uint32_t a, uint32_t b) { return (uint64_t(std::min(a, b)) << 32) | std::max(a, b); }

// Projections of a triangle's three points onto an axis.
void project(const glm::vec2* p, const glm::vec2& axis, float& lo, float& hi) {
  lo = hi = glm::dot(p[0], axis);
  for (int k = 1; k < 3; ++k) {
    const float d = glm::dot(p[k], axis);
    lo = std::min(lo, d);
    hi = std::max(hi, d);
  }
}

// Whether two coplanar triangles (in plane coordinates) share interior area: no edge normal of either
// separates them by more than -eps (touching along an edge or at a corner is not overlap).
bool interiors_overlap(const glm::vec2* a, const glm::vec2* b, float eps) {
  for (const glm::vec2* t : {a, b})
    for (int k = 0; k < 3; ++k) {
      const glm::vec2 e = t[(k + 1) % 3] - t[k];
      const glm::vec2 axis = glm::normalize(glm::vec2(-e.y, e.x));
      float alo, ahi, blo, bhi;
      project(a, axis, alo, ahi);
      project(b, axis, blo, bhi);
      if (std::min(ahi, bhi) - std::max(alo, blo) <= eps) return false;
    }
  return true;
}

// Whether triangle t has three distinct vertices in range and an area (the others are degenerate or
// invalid: neither oriented nor tested for overlap).
bool has_area(const Mesh& mesh, size_t t) {
  const auto& tri = mesh.triangles[t];
  const size_t nvert = mesh.positions.size();
  if (tri[0] >= nvert || tri[1] >= nvert || tri[2] >= nvert) return false;
  const float q = triangle_quality(mesh.positions[tri[0]], mesh.positions[tri[1]], mesh.positions[tri[2]]);
  return tri[0] != tri[1] && tri[1] != tri[2] && tri[0] != tri[2] && q > 1e-6f;
}

// Whether triangles s < t lie in one plane (s's, within eps) with interiors sharing area.
bool triangles_overlap(const Mesh& mesh, uint32_t s, uint32_t t, float eps) {
  const auto& ts = mesh.triangles[s];
  const auto& tt = mesh.triangles[t];
  const glm::vec3 p0 = mesh.positions[ts[0]];
  const glm::vec3 n = glm::normalize(glm::cross(mesh.positions[ts[1]] - p0, mesh.positions[ts[2]] - p0));
  const glm::vec3 nt = glm::normalize(
      glm::cross(mesh.positions[tt[1]] - mesh.positions[tt[0]], mesh.positions[tt[2]] - mesh.positions[tt[0]]));
  if (std::abs(glm::dot(n, nt)) < 0.9999f) return false;
  // plane coordinates of s
  const glm::vec3 u = glm::normalize(mesh.positions[ts[1]] - p0), v = glm::cross(n, u);
  glm::vec2 ps[3], pt[3];
  for (int k = 0; k < 3; ++k) {
    const glm::vec3 ds = mesh.positions[ts[k]] - p0, dt = mesh.positions[tt[k]] - p0;
    if (std::abs(glm::dot(dt, n)) > eps) return false;
    ps[k] = {glm::dot(ds, u), glm::dot(ds, v)};
    pt[k] = {glm::dot(dt, u), glm::dot(dt, v)};
  }
  return interiors_overlap(ps, pt, eps);
}

}  // namespace

std::vector<std::array<uint32_t, 2>> overlapping_triangles(const Mesh& mesh, bool brute_force) {
  const size_t ntri = mesh.triangles.size();
  glm::vec3 lo(INFINITY), hi(-INFINITY);
  for (const glm::vec3& p : mesh.positions) lo = glm::min(lo, p), hi = glm::max(hi, p);
  const float scale = std::max(glm::length(hi - lo), 1e-9f), eps = 1e-5f * scale;
  std::vector<uint8_t> usable(ntri, 0);
  std::vector<glm::vec3> box_lo(ntri), box_hi(ntri);
  for (size_t t = 0; t < ntri; ++t) {
    if (!has_area(mesh, t)) continue;
    usable[t] = 1;
    const auto& tri = mesh.triangles[t];
    const glm::vec3 a = mesh.positions[tri[0]], b = mesh.positions[tri[1]], c = mesh.positions[tri[2]];
    box_lo[t] = glm::min(a, glm::min(b, c)) - eps;
    box_hi[t] = glm::max(a, glm::max(b, c)) + eps;
  }
  std::vector<std::array<uint32_t, 2>> out;
  if (brute_force) {
    for (uint32_t s = 0; s < ntri; ++s)
      for (uint32_t t = s + 1; t < ntri; ++t)
        if (usable[s] && usable[t] && triangles_overlap(mesh, s, t, eps)) out.push_back({s, t});
    return out;
  }
  for (const auto& [s, t] : overlapping_boxes(box_lo, box_hi, usable))
    if (triangles_overlap(mesh, s, t, eps)) out.push_back({s, t});
  return out;
}

float triangle_quality(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c) {
  const float area = 0.5f * glm::length(glm::cross(b - a, c - a));
  const float sum = glm::dot(b - a, b - a) + glm::dot(c - b, c - b) + glm::dot(a - c, a - c);
  return sum > 0.f ? 4.f * std::sqrt(3.f) * area / sum : 0.f;
}

size_t MeshCheckReport::total() const {
  size_t n = 0;
  for (const MeshIssue& i : issues) n += i.count;
  return n;
}

MeshCheckReport check_mesh(const Mesh& mesh, const std::vector<uint32_t>& triangle_line, size_t max_examples) {
  const Reporter rep{triangle_line, max_examples};
  MeshCheckReport report;
  report.issues = {{"degenerate", 0, {}}, {"sliver", 0, {}}, {"non_manifold_edge", 0, {}}, {"flipped", 0, {}},
                   {"overlap", 0, {}}};
  MeshIssue &degenerate = report.issues[0], &sliver = report.issues[1], &non_manifold = report.issues[2],
            &flipped = report.issues[3], &overlap = report.issues[4];
  const size_t ntri = mesh.triangles.size(), nvert = mesh.positions.size();
  std::vector<uint8_t> usable(ntri, 1);
  for (size_t t = 0; t < ntri; ++t) {
    const auto& tri = mesh.triangles[t];
    if (tri[0] >= nvert || tri[1] >= nvert || tri[2] >= nvert) {
      usable[t] = 0;
      continue;
    }
    if (!has_area(mesh, t)) {
      usable[t] = 0;
      rep.add(degenerate, rep.name(t) + " has no area");
    } else if (const float q = triangle_quality(mesh.positions[tri[0]], mesh.positions[tri[1]], mesh.positions[tri[2]]);
               q < kSliverQuality) {
      char buf[64];
      std::snprintf(buf, sizeof buf, " is a sliver (quality %.3g)", double(q));
      rep.add(sliver, rep.name(t) + buf);
    }
  }

  // Edges: who uses each, and in which direction.
  struct Use {
    uint32_t tri;
    bool forward;  // walked from the smaller vertex index to the larger
  };
  std::unordered_map<uint64_t, std::vector<Use>> edges;
  edges.reserve(3 * ntri);
  for (size_t t = 0; t < ntri; ++t) {
    if (!usable[t]) continue;
    const auto& tri = mesh.triangles[t];
    for (int k = 0; k < 3; ++k) {
      const uint32_t a = tri[k], b = tri[(k + 1) % 3];
      edges[edge_key(a, b)].push_back({uint32_t(t), a < b});
    }
  }
  std::vector<std::vector<std::pair<uint32_t, bool>>> neighbours(ntri);  // (triangle, same orientation)
  for (const auto& [key, uses] : edges) {
    if (uses.size() > 2) {
      rep.add(non_manifold, "edge " + std::to_string((key >> 32) + 1) + "-" + std::to_string((key & 0xffffffffu) + 1) +
                                " is shared by " + std::to_string(uses.size()) + " triangles: " +
                                rep.name(uses[0].tri) + ", " + rep.name(uses[1].tri) + ", " + rep.name(uses[2].tri));
      continue;
    }
    if (uses.size() == 2) {
      // consistently oriented neighbours walk their shared edge in opposite directions
      const bool same = uses[0].forward != uses[1].forward;
      neighbours[uses[0].tri].push_back({uses[1].tri, same});
      neighbours[uses[1].tri].push_back({uses[0].tri, same});
    }
  }
  // Orientation: propagate through manifold edges; in each piece the minority side is flipped.
  std::vector<int8_t> side(ntri, 0);
  std::vector<uint32_t> queue, piece;
  for (size_t seed = 0; seed < ntri; ++seed) {
    if (!usable[seed] || side[seed]) continue;
    side[seed] = 1;
    queue.assign(1, uint32_t(seed));
    piece.clear();
    size_t plus = 0;
    for (size_t head = 0; head < queue.size(); ++head) {
      const uint32_t t = queue[head];
      piece.push_back(t);
      plus += side[t] > 0;
      for (auto [u, same] : neighbours[t]) {
        if (side[u]) continue;
        side[u] = int8_t(same ? side[t] : -side[t]);
        queue.push_back(u);
      }
    }
    const int8_t minority = plus * 2 >= piece.size() ? -1 : 1;
    std::sort(piece.begin(), piece.end());
    for (uint32_t t : piece)
      if (side[t] == minority) rep.add(flipped, rep.name(t) + " is oriented against its neighbours");
  }

  report.overlapping_pairs = overlapping_triangles(mesh);
  for (const auto& [s, t] : report.overlapping_pairs) rep.add(overlap, rep.name(s) + " overlaps " + rep.name(t));
  return report;
}

}  // namespace weft
