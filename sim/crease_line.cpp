#include "sim/crease_line.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace weft {
namespace {

float distance_to_segment(const glm::vec2& p, const glm::vec2& a, const glm::vec2& b) {
  const glm::vec2 ab = b - a;
  const float len2 = glm::dot(ab, ab);
  const float t = len2 > 0.f ? std::clamp(glm::dot(p - a, ab) / len2, 0.f, 1.f) : 0.f;
  return glm::length(p - (a + t * ab));
}

}  // namespace

bool edge_on_crease(const CreaseLine& line, const glm::vec2& a, const glm::vec2& b) {
  return distance_to_segment(a, line.from, line.to) <= line.tolerance &&
         distance_to_segment(b, line.from, line.to) <= line.tolerance;
}

size_t crease_interior_edge_count(const CreaseLine& line, const Mesh& mesh, const Topology& topology) {
  size_t n = 0;
  for (size_t e = 0; e < topology.edges.size(); ++e) {
    const auto& et = topology.edge_triangles[e];
    if (et[0] < 0 || et[1] < 0) continue;
    if (edge_on_crease(line, mesh.material[topology.edges[e][0]], mesh.material[topology.edges[e][1]])) ++n;
  }
  return n;
}

std::string validate_crease_line(const CreaseLine& line) {
  for (float x : {line.from.x, line.from.y, line.to.x, line.to.y})
    if (!std::isfinite(x)) return "crease ends must be finite";
  if (!(glm::length(line.to - line.from) > line.tolerance)) return "crease segment is shorter than its tolerance";
  if (!(std::fabs(line.rest_angle_deg) < 180.f)) return "crease angle must lie in (-180, 180) degrees";
  if (!(line.stiffness_scale >= 0.f) || !std::isfinite(line.stiffness_scale)) return "crease stiffness scale must be >= 0";
  if (!(line.tolerance > 0.f) || !std::isfinite(line.tolerance)) return "crease tolerance must be > 0";
  return {};
}

}  // namespace weft
