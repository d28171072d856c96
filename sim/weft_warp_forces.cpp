#include "sim/weft_warp_forces.h"

#include "sim/isotropic_membrane.h"
#include "sim/weft_warp_kernels.h"
#include "sim/weft_warp_simd.h"

namespace weft {
namespace {

void add_link_block(LinkBlocks& B, uint32_t link, const Sym3& J) {
  B.xx[link] += J.xx; B.xy[link] += J.xy; B.xz[link] += J.xz;
  B.yy[link] += J.yy; B.yz[link] += J.yz; B.zz[link] += J.zz;
}

}  // namespace

void add_weave_triangles(const ClothModel& model, const glm::vec3* x, const glm::vec3* v, size_t begin, size_t end,
                         ForceBuffers& out, const ForceOptions& options) {
  const WeftWarpModel& w = model.weft_warp;
  const WeaveMaterial& mat = model.material.weave;
  const WeaveLaw law{{&mat.weft, &mat.warp, &mat.shear}, {mat.weft_viscosity, mat.warp_viscosity, mat.shear_viscosity}};
  const bool blocks = options.jacobian;
  const float h = options.viscosity_h;
  glm::vec3* f = out.force.data();
  WeaveTriangleResult r;
  LinkBlocks& B = out.link_jacobian;
  Sym3* js = out.jacobian_sum.data();
  static constexpr int pair[3][2] = {{0, 1}, {1, 2}, {0, 2}};
  static constexpr std::array<float, 3> kNoPlasticStrain{};
  const std::array<float, 3>* plastic = options.plastic_strain;
  const bool isotropic = mat.membrane == Membrane::Isotropic;
  for (size_t t = begin; t < end; ++t) {
    const auto& tri = model.triangle[t];
    const WeaveCoefficients c{w.ru[t], w.rv[t], w.area[t]};
    const std::array<glm::vec3, 3> p = {x[tri[0]], x[tri[1]], x[tri[2]]};
    const std::array<glm::vec3, 3> pv = {v[tri[0]], v[tri[1]], v[tri[2]]};
    if (isotropic)
      isotropic_triangle(c, p, pv, mat.weft, mat.weft_viscosity, blocks, r, false);
    else
      weave_triangle(c, p, pv, law, blocks, r, false, plastic ? plastic[t] : kNoPlasticStrain);
    for (int k = 0; k < 3; ++k) f[tri[k]] += r.force[k];
    if (!blocks) continue;
    // each block also goes onto the diagonal sums of its two corners (jacobian_sum = -J_ii), gathered per
    // corner first so each vertex is written once
    Sym3 sum[3];
    for (int q = 0; q < 3; ++q) {
      const uint32_t i = tri[pair[q][0]], j = tri[pair[q][1]];
      Sym3 J = r.stiffness[q];
      if (h > 0.f) {
        const glm::vec3 dv = v[j] - v[i];  // Kang Eq. 13: h J (v_j - v_i) on i, the opposite on j
        f[i] += h * (J * dv);
        f[j] -= h * (J * dv);
        J += (1.f / h) * r.damping[q];
      }
      add_link_block(B, w.pair_link[t][q], J);
      sum[pair[q][0]] += J;
      sum[pair[q][1]] += J;
    }
    for (int k = 0; k < 3; ++k) js[tri[k]] += sum[k];
  }
}

void add_weft_warp_forces(const ClothModel& model, const glm::vec3* x, const glm::vec3* v, ForceBuffers& out,
                          const ForceOptions& options) {
  const WeftWarpModel& w = model.weft_warp;
  size_t triangles_done = 0, hinges_done = 0;
#if defined(WEFT_WEAVE_PASS_SIMD)
  // 8 at a time where AVX2 is compiled in; they read the vertex records evaluate_forces fills with the
  // Jacobian (the link pass reads them too)
  if (options.jacobian) {
    const float* rest = options.hinge_rest_angle ? options.hinge_rest_angle : w.hinge_rest_angle.data();
    const float h = options.viscosity_h;
    if (model.material.weave.membrane == Membrane::WeftWarp)  // the vectorised pass has Eq. 4 only
      triangles_done = add_weave_triangles_simd(w, model.material.weave, out.vertex_xv.data(), h,
                                                w.triangle_count(), out.force.data(), out.jacobian_sum.data(),
                                                out.link_jacobian, options.plastic_strain);
    hinges_done = add_weave_hinges_simd(w, rest, out.vertex_xv.data(), h, w.hinge_count(), out.force.data(),
                                        out.jacobian_sum.data(), out.link_jacobian);
  }
#endif
  add_weave_triangles(model, x, v, triangles_done, w.triangle_count(), out, options);
  add_weave_hinges(model, x, v, hinges_done, w.hinge_count(), out, options);
}

void add_weave_hinges(const ClothModel& model, const glm::vec3* x, const glm::vec3* v, size_t begin, size_t end,
                      ForceBuffers& out, const ForceOptions& options) {
  const WeftWarpModel& w = model.weft_warp;
  const bool blocks = options.jacobian;
  const float h = options.viscosity_h;
  glm::vec3* f = out.force.data();
  LinkBlocks& B = out.link_jacobian;
  Sym3* js = out.jacobian_sum.data();
  const float* rest = options.hinge_rest_angle ? options.hinge_rest_angle : w.hinge_rest_angle.data();
  static constexpr int hpair[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
  for (size_t e = begin; e < end; ++e) {
    const auto& hv = w.hinge[e];
    const HingeAngle a = hinge_angle({x[hv[0]], x[hv[1]], x[hv[2]], x[hv[3]]});
    if (!a.valid) continue;
    const float k = w.hinge_stiffness[e];
    const float moment = -k * (a.theta - rest[e]);  // F_i = -k (theta - theta0) d theta / d x_i
    for (int q = 0; q < 4; ++q) f[hv[q]] += moment * a.grad[q];
    if (!blocks) continue;
    // Gauss-Newton blocks -k g_i g_j^T, symmetrised (exact when flat, where all g_i are along the normal).
    // Their sum over j != i is k g_i g_i^T (the gradients sum to zero): the diagonal sums directly.
    for (int q = 0; q < 4; ++q) js[hv[q]] += Sym3::outer(a.grad[q], k);
    for (int q = 0; q < 6; ++q) {
      const int i = hpair[q][0], j = hpair[q][1];
      const glm::vec3 &gi = a.grad[i], &gj = a.grad[j];
      const Sym3 J{-k * gi.x * gj.x, -0.5f * k * (gi.x * gj.y + gi.y * gj.x), -0.5f * k * (gi.x * gj.z + gi.z * gj.x),
                   -k * gi.y * gj.y, -0.5f * k * (gi.y * gj.z + gi.z * gj.y), -k * gi.z * gj.z};
      if (h > 0.f) {
        const glm::vec3 dv = v[hv[j]] - v[hv[i]];
        f[hv[i]] += h * (J * dv);
        f[hv[j]] -= h * (J * dv);
      }
      add_link_block(B, w.hinge_link[e][q], J);
    }
  }
}

double weft_warp_energy(const ClothModel& model, const glm::vec3* x, const float* hinge_rest_angle,
                        const std::array<float, 3>* plastic_strain) {
  const WeftWarpModel& w = model.weft_warp;
  const WeaveMaterial& mat = model.material.weave;
  const WeaveLaw law{{&mat.weft, &mat.warp, &mat.shear}, {0.f, 0.f, 0.f}};
  double energy = 0;
  WeaveTriangleResult r;
  const std::array<glm::vec3, 3> still{};
  for (size_t t = 0; t < w.triangle_count(); ++t) {
    const auto& tri = model.triangle[t];
    const WeaveCoefficients c{w.ru[t], w.rv[t], w.area[t]};
    const std::array<glm::vec3, 3> p = {x[tri[0]], x[tri[1]], x[tri[2]]};
    if (mat.membrane == Membrane::Isotropic)
      isotropic_triangle(c, p, still, mat.weft, 0.f, false, r, true);
    else
      weave_triangle(c, p, still, law, false, r, true, plastic_strain ? plastic_strain[t] : std::array<float, 3>{});
    energy += r.energy;
  }
  const float* rest = hinge_rest_angle ? hinge_rest_angle : w.hinge_rest_angle.data();
  for (size_t e = 0; e < w.hinge_count(); ++e) {
    const auto& hv = w.hinge[e];
    const HingeAngle a = hinge_angle({x[hv[0]], x[hv[1]], x[hv[2]], x[hv[3]]});
    if (a.valid) energy += 0.5 * w.hinge_stiffness[e] * double(a.theta - rest[e]) * double(a.theta - rest[e]);
  }
  return energy;
}

}  // namespace weft
