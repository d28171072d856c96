#include "sim/force_field.h"

#include <algorithm>
#include <cmath>

#include "sim/buckled_links.h"
#include "sim/force_kernels.h"
#include "sim/link_pass_simd.h"
#include "sim/link_scatter.h"
#include "sim/weft_warp_forces.h"

namespace weft {

ForceBuffers::ForceBuffers(const ClothModel& model)
    : force(model.vertex_count()),
      jacobian_sum(model.vertex_count()),
      drag_coefficient(model.vertex_count(), 0.f),
      normal(model.vertex_count()),
      tension(model.edge_count, 0.f),
      link_fx(ForceBuffers::kLinkBlock),
      link_fy(ForceBuffers::kLinkBlock),
      link_fz(ForceBuffers::kLinkBlock),
      vertex_record(kForceRecord * model.vertex_count()),
      vertex_record_zz(model.vertex_count()),
      vertex_xv(8 * model.vertex_count()) {
  link_jacobian.resize(model.link_count_total());
}

void compute_vertex_normals(const ClothModel& model, const glm::vec3* x, glm::vec3* normal_out) {
  const size_t n = model.vertex_count();
  std::fill(normal_out, normal_out + n, glm::vec3(0.f));
  for (const auto& t : model.triangle) {
    const glm::vec3 an = glm::cross(x[t[1]] - x[t[0]], x[t[2]] - x[t[0]]);  // twice the area, normal
    normal_out[t[0]] += an;
    normal_out[t[1]] += an;
    normal_out[t[2]] += an;
  }
  for (size_t i = 0; i < n; ++i) {
    const float len = glm::length(normal_out[i]);
    normal_out[i] = len > 0.f ? normal_out[i] / len : glm::vec3(0.f, 0.f, 1.f);
  }
}

// Volino triangles write the tension of their edges; springs compute it inline in the link loop.
static void accumulate_volino_tensions(const ClothModel& model, const glm::vec3* x, float* tension) {
  std::fill(tension, tension + model.edge_count, 0.f);
  const Material& m = model.material;
  for (size_t t = 0; t < model.triangle_count(); ++t) {
    const auto& tri = model.triangle[t];
    std::array<float, 3> l, inv_mass;
    for (int i = 0; i < 3; ++i) {
      l[i] = glm::length(x[tri[(i + 2) % 3]] - x[tri[(i + 1) % 3]]);
      inv_mass[i] = model.inv_mass[tri[i]];
    }
    if (!(l[0] > 0.f && l[1] > 0.f && l[2] > 0.f)) continue;  // collapsed triangle: its springs still act
    const auto F = volino_tensions(l, model.triangle_rest_edge[t], model.triangle_strength[t], inv_mass, m.alpha,
                                   m.volino_general_mass, m.volino_min_determinant);
    for (int i = 0; i < 3; ++i) tension[model.triangle_edge[t][i]] += F[i];
  }
}

namespace {

// Links [begin, end): force on the first end and Jacobian block, written per link only. Written with
// plain floats and selects so that GCC vectorises it (gathers of x and v, 8 links at a time).
// With tension_given the tension comes from the Volino triangles (T); otherwise Hooke (Kang & Cho Eq. 1).
template <bool tension_given, bool jacobian>
void link_pass_kernel(const uint32_t* __restrict I, const uint32_t* __restrict J, const float* __restrict K,
                      const float* __restrict L0, const float* __restrict T, const float* __restrict X,
                      const float* __restrict V, size_t block, size_t begin, size_t end, float cd, float hv,
                      float* __restrict Fx,
                      float* __restrict Fy, float* __restrict Fz, float* __restrict Axx, float* __restrict Axy,
                      float* __restrict Axz, float* __restrict Ayy, float* __restrict Ayz, float* __restrict Azz) {
  for (size_t l = begin; l < end; ++l) {
    const uint32_t i = 3 * I[l], j = 3 * J[l];
    const float dx = X[j] - X[i], dy = X[j + 1] - X[i + 1], dz = X[j + 2] - X[i + 2];
    const float len = std::sqrt(dx * dx + dy * dy + dz * dz);
    const float inv = len > 1e-12f ? 1.f / len : 0.f;
    const float ux = dx * inv, uy = dy * inv, uz = dz * inv;
    float t;
    if constexpr (tension_given) t = T[l];
    else t = K[l] * (len - L0[l]);
    const float vx = V[j] - V[i], vy = V[j + 1] - V[i + 1], vz = V[j + 2] - V[i + 2];
    // spring + relative damping (Kang & Cho Eq. 26)
    float fx = t * ux + cd * vx, fy = t * uy + cd * vy, fz = t * uz + cd * vz;
    if constexpr (jacobian) {
      // link_jacobian(): k u u^T + max(T, 0)/l (I - u u^T), Kang & Cho Eq. 21-22
      const float tr = t > 0.f ? t * inv : 0.f;
      const float a = K[l] - tr;
      const float jxx = a * ux * ux + tr, jxy = a * ux * uy, jxz = a * ux * uz;
      const float jyy = a * uy * uy + tr, jyz = a * uy * uz, jzz = a * uz * uz + tr;
      Axx[l] = jxx; Axy[l] = jxy; Axz[l] = jxz; Ayy[l] = jyy; Ayz[l] = jyz; Azz[l] = jzz;
      // viscosity h J (v_j - v_i), Kang & Cho Eq. 13 (hv = 0 when not wanted)
      fx += hv * (jxx * vx + jxy * vy + jxz * vz);
      fy += hv * (jxy * vx + jyy * vy + jyz * vz);
      fz += hv * (jxz * vx + jyz * vy + jzz * vz);
    }
    const size_t o = l - block;  // index in the per-block force buffer
    Fx[o] = fx; Fy[o] = fy; Fz[o] = fz;
  }
}

template <bool tension_given, bool jacobian>
void link_pass(const ClothModel& model, const float* X, const float* V, size_t block, size_t begin, size_t end, float cd,
               float hv, ForceBuffers& out) {
  LinkBlocks& B = out.link_jacobian;
#if defined(WEFT_LINK_PASS_SIMD)
  if constexpr (jacobian)
    begin = link_pass_simd<tension_given>(model.link_first.data(), model.link_second.data(), model.stiffness.data(),
                                          model.rest_length.data(), out.tension.data(), out.vertex_xv.data(), block,
                                          begin, end, cd, hv, out.link_fx.data(), out.link_fy.data(),
                                          out.link_fz.data(), B.xx.data(), B.xy.data(), B.xz.data(), B.yy.data(),
                                          B.yz.data(), B.zz.data());
#endif
  link_pass_kernel<tension_given, jacobian>(model.link_first.data(), model.link_second.data(), model.stiffness.data(),
                                            model.rest_length.data(), out.tension.data(), X, V, block, begin, end, cd, hv,
                                            out.link_fx.data(), out.link_fy.data(), out.link_fz.data(), B.xx.data(),
                                            B.xy.data(), B.xz.data(), B.yy.data(), B.yz.data(), B.zz.data());
}

}  // namespace

void evaluate_forces(const ClothModel& model, const glm::vec3* x, const glm::vec3* v, ForceBuffers& out,
                     const ForceOptions& options) {
  const Material& m = model.material;
  const size_t n = model.vertex_count(), nlink = model.link_count_total();
  const bool volino = m.stretch_model == StretchModel::Volino;
  if (volino) accumulate_volino_tensions(model, x, out.tension.data());
  const float* X = &x[0].x;
  const float* V = &v[0].x;
  const float cd = m.damping, hv = options.jacobian ? options.viscosity_h : 0.f;

  glm::vec3* f = out.force.data();
  float* record = out.vertex_record.data();
  float* record_zz = out.vertex_record_zz.data();
#if defined(WEFT_LINK_PASS_SIMD)
  if (options.jacobian) {
    float* xv = out.vertex_xv.data();
    for (size_t i = 0; i < n; ++i, xv += kVertexRecord) {
      xv[0] = x[i].x; xv[1] = x[i].y; xv[2] = x[i].z; xv[3] = 0.f;
      xv[4] = v[i].x; xv[5] = v[i].y; xv[6] = v[i].z; xv[7] = 0.f;
    }
  }
#endif
  if (options.jacobian) {
    // gravity, then the links, in padded per-vertex records (link_scatter.h)
    for (size_t i = 0; i < n; ++i) {
      const glm::vec3 g = model.mass[i] * m.gravity;
      float* r = record + kForceRecord * i;
      r[0] = g.x; r[1] = g.y; r[2] = g.z;
      for (size_t k = 3; k < kForceRecord; ++k) r[k] = 0.f;
      record_zz[i] = 0.f;
    }
  } else {
    for (size_t i = 0; i < n; ++i) f[i] = model.mass[i] * m.gravity;
  }
  const uint32_t* I = model.link_first.data();
  const uint32_t* J = model.link_second.data();
  const LinkBlocks& B = out.link_jacobian;
  // Blocks of ForceBuffers::kLinkBlock links: a vectorised pass computes them, a second pass adds them onto their
  // two vertices while the block is still in L1.
  for (size_t begin = 0; begin < nlink; begin += ForceBuffers::kLinkBlock) {
    const size_t end = std::min(nlink, begin + ForceBuffers::kLinkBlock);
    const bool given = volino && begin < model.edge_count;
    const size_t split = given ? std::min(end, model.edge_count) : begin;
    if (options.jacobian) {
      if (split > begin) link_pass<true, true>(model, X, V, begin, begin, split, cd, hv, out);
      link_pass<false, true>(model, X, V, begin, split, end, cd, hv, out);
      scatter_force_jacobian(begin, end, I, J, out.link_fx.data(), out.link_fy.data(), out.link_fz.data(), B.xx.data(),
                             B.xy.data(), B.xz.data(), B.yy.data(), B.yz.data(), B.zz.data(), record, record_zz);
    } else {
      if (split > begin) link_pass<true, false>(model, X, V, begin, begin, split, cd, hv, out);
      link_pass<false, false>(model, X, V, begin, split, end, cd, hv, out);
      for (size_t l = begin; l < end; ++l) {
        const glm::vec3 fl(out.link_fx[l - begin], out.link_fy[l - begin], out.link_fz[l - begin]);
        f[I[l]] += fl;
        f[J[l]] -= fl;
      }
    }
  }
  if (options.jacobian) {
    Sym3* js = out.jacobian_sum.data();
    for (size_t i = 0; i < n; ++i) {
      const float* r = record + kForceRecord * i;
      f[i] = glm::vec3(r[0], r[1], r[2]);
      js[i] = Sym3{r[3], r[4], r[5], r[6], r[7], record_zz[i]};
    }
  }
  if (options.buckled) cap_buckled_links(model, x, options.buckled, kBuckleStrain, f);
  if (model.weft_warp.active()) add_weft_warp_forces(model, x, v, out, options);

  if (m.drag > 0.f || m.lift > 0.f) {
    compute_vertex_normals(model, x, out.normal.data());
    for (size_t i = 0; i < n; ++i) {
      const AirForce air = air_force(out.normal[i], v[i] - m.wind, model.vertex_area[i], m.drag, m.lift);
      f[i] += air.force;
      out.drag_coefficient[i] = air.drag_coefficient;
    }
  }
}

Energy compute_energy(const ClothModel& model, const glm::vec3* x, const glm::vec3* v) {
  Energy e;
  for (size_t i = 0; i < model.vertex_count(); ++i) {
    e.kinetic += 0.5 * model.mass[i] * double(glm::dot(v[i], v[i]));
    e.gravity -= model.mass[i] * double(glm::dot(model.material.gravity, x[i]));
  }
  for (size_t l = 0; l < model.link_count_total(); ++l) {
    const double s = glm::length(x[model.link[l][1]] - x[model.link[l][0]]) - model.rest_length[l];
    e.elastic += 0.5 * model.stiffness[l] * s * s;
  }
  if (model.weft_warp.active()) e.elastic += weft_warp_energy(model, x);
  return e;
}

}  // namespace weft
