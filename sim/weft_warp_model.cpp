#include "sim/weft_warp_model.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "sim/weft_warp_kernels.h"

namespace weft {
namespace {

// Edge index of the pair (a, b) in triangle t: the edge opposite the third corner.
uint32_t edge_of(const Mesh& mesh, const Topology& topo, size_t t, uint32_t a, uint32_t b) {
  for (int k = 0; k < 3; ++k) {
    const uint32_t c = mesh.triangles[t][k];
    if (c != a && c != b) return topo.triangle_edges[t][k];
  }
  throw std::logic_error("edge_of: pair not in triangle");
}

}  // namespace

WeftWarpModel build_weft_warp_model(const Mesh& mesh, const Topology& topo, const WeaveMaterial& weave,
                                    const std::vector<CreaseLine>& creases) {
  if (weave.membrane == Membrane::Isotropic && weave.plasticity.in_plane)
    throw std::invalid_argument("in-plane plasticity needs the weft_warp membrane (its plastic strains are per weave direction)");
  WeftWarpModel w;
  const size_t ntri = mesh.triangle_count();
  const float angle = glm::radians(weave.angle_deg);
  w.ru.resize(ntri);
  w.rv.resize(ntri);
  w.area.resize(ntri);
  w.pair_link.resize(ntri);
  std::vector<std::array<glm::vec2, 3>> coords(ntri);  // weave coordinates per corner
  for (size_t t = 0; t < ntri; ++t) {
    const auto& tri = mesh.triangles[t];
    const std::array<glm::vec3, 3> p = {mesh.positions[tri[0]], mesh.positions[tri[1]], mesh.positions[tri[2]]};
    const std::array<glm::vec2, 3> uv = {mesh.material[tri[0]], mesh.material[tri[1]], mesh.material[tri[2]]};
    coords[t] = weave_frame_coordinates(p, uv, angle);
    WeaveCoefficients c;
    if (!weave_coefficients(coords[t][0], coords[t][1], coords[t][2], c))
      throw std::invalid_argument("mesh: triangle " + std::to_string(t + 1) + " has degenerate weave coordinates");
    w.ru[t] = c.ru;
    w.rv[t] = c.rv;
    w.area[t] = c.area;
    w.pair_link[t] = {edge_of(mesh, topo, t, tri[0], tri[1]), edge_of(mesh, topo, t, tri[1], tri[2]),
                      edge_of(mesh, topo, t, tri[0], tri[2])};
  }

  // Hinges over the bending pairs: each straddles one interior edge.
  const size_t edge_count = topo.edges.size();
  for (size_t b = 0; b < topo.bend_pairs.size(); ++b) {
    const uint32_t e = topo.bend_edge[b];
    const int32_t ta = topo.edge_triangles[e][0], tb = topo.edge_triangles[e][1];
    if (ta < 0 || tb < 0) continue;
    const auto& A = mesh.triangles[size_t(ta)];
    // x0 -> x1 runs counter-clockwise in triangle A, so A's normal is its winding normal.
    uint32_t x0 = topo.edges[e][0], x1 = topo.edges[e][1], x2 = 0;
    for (int k = 0; k < 3; ++k)
      if (A[k] != x0 && A[k] != x1) {
        x2 = A[k];
        if (A[(k + 1) % 3] != x0) std::swap(x0, x1);  // corner order (x2, x0, x1) is A's order
      }
    uint32_t x3 = 0;
    for (uint32_t c : mesh.triangles[size_t(tb)])
      if (c != x0 && c != x1) x3 = c;
    w.hinge.push_back({x0, x1, x2, x3});
    w.hinge_link.push_back({e, edge_of(mesh, topo, size_t(ta), x0, x2), edge_of(mesh, topo, size_t(tb), x0, x3),
                            edge_of(mesh, topo, size_t(ta), x1, x2), edge_of(mesh, topo, size_t(tb), x1, x3),
                            uint32_t(edge_count + b)});
    // Curvature direction: across the edge, in triangle A's weave frame; B(phi) = B_u cos^2 + B_v sin^2.
    const glm::vec2 edge2d = [&] {
      glm::vec2 p0(0.f), p1(0.f);
      for (int k = 0; k < 3; ++k) {
        if (A[k] == x0) p0 = coords[size_t(ta)][k];
        if (A[k] == x1) p1 = coords[size_t(ta)][k];
      }
      return glm::normalize(p1 - p0);
    }();
    const float c2 = edge2d.y * edge2d.y, s2 = edge2d.x * edge2d.x;  // normal (-e.y, e.x): cos^2 = e.y^2
    const float bending = weave.weft_bending * c2 + weave.warp_bending * s2;
    const float rest_curvature = weave.weft_rest_curvature * c2 + weave.warp_rest_curvature * s2;
    const float len = glm::length(mesh.positions[x1] - mesh.positions[x0]);
    const float areas = w.area[size_t(ta)] + w.area[size_t(tb)];
    const float per_angle = 3.f * len / areas;
    w.curvature_per_angle.push_back(per_angle);
    w.hinge_stiffness.push_back(bending * per_angle * len);  // B 3 |e|^2 / (A1 + A2)
    w.hinge_rest_angle.push_back(rest_curvature / per_angle);
  }

  // Crease lines: the hinges whose edge lies on a line take its fold angle and stiffness scale (a later
  // line wins where two overlap).
  for (size_t k = 0; k < creases.size(); ++k) {
    const CreaseLine& line = creases[k];
    if (const std::string err = validate_crease_line(line); !err.empty())
      throw std::invalid_argument("crease " + std::to_string(k + 1) + ": " + err);
    size_t matched = 0;
    for (size_t e = 0; e < w.hinge_count(); ++e) {
      if (!edge_on_crease(line, mesh.material[w.hinge[e][0]], mesh.material[w.hinge[e][1]])) continue;
      w.hinge_rest_angle[e] = glm::radians(line.rest_angle_deg);
      w.hinge_stiffness[e] *= line.stiffness_scale;
      ++matched;
    }
    if (matched == 0)
      throw std::invalid_argument("crease " + std::to_string(k + 1) + " lies on no interior edge of the mesh");
  }
  w.arrays = make_weave_triangle_arrays(mesh.triangles, w.ru, w.rv, w.pair_link, weave);
  w.arrays_hinge = make_weave_hinge_arrays(w.hinge, w.hinge_link);
  return w;
}

}  // namespace weft
