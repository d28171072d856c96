#pragma once
// The weave triangle and hinge passes of weft_warp_forces.cpp written with AVX2 intrinsics, 8 triangles or
// hinges per iteration.
//
// The scalar kernel (weave_triangle) costs about 300 ns a triangle: three binary searches into the curves,
// glm vectors and Sym3 temporaries for every block. Here the triangles are structs of arrays
// (weave_arrays.h), the corners come from the padded per-vertex records the link pass fills
// ({x y z 0 vx vy vz 0}, link_pass_simd.h), the curves are tables evaluated in registers (curve_table.h),
// and only the per-triangle sums (3 forces, 3 blocks, 3 diagonal sums) are added onto the vertices and
// links one lane at a time. The arithmetic is weave_triangle's with the blocks of its three pairs
// written out; tests/sim/weft_warp_simd_test.cpp compares the two on an irregular mesh.
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/force_field.h"
#include "sim/link_pass_simd.h"
#include "sim/weft_warp_model.h"

#if defined(WEFT_LINK_PASS_SIMD)
#define WEFT_WEAVE_PASS_SIMD 1

namespace weft {
namespace weave_simd {

struct V3 {
  __m256 x, y, z;
};
inline V3 add(const V3& a, const V3& b) {
  return {_mm256_add_ps(a.x, b.x), _mm256_add_ps(a.y, b.y), _mm256_add_ps(a.z, b.z)};
}
inline V3 sub(const V3& a, const V3& b) {
  return {_mm256_sub_ps(a.x, b.x), _mm256_sub_ps(a.y, b.y), _mm256_sub_ps(a.z, b.z)};
}
inline __m256 dot(const V3& a, const V3& b) {
  return _mm256_fmadd_ps(a.z, b.z, _mm256_fmadd_ps(a.y, b.y, _mm256_mul_ps(a.x, b.x)));
}
// c0 p0 + c1 p1 + c2 p2 (Eq. 3)
inline V3 combine(const __m256 c[3], const V3 p[3]) {
  return {_mm256_fmadd_ps(c[2], p[2].x, _mm256_fmadd_ps(c[1], p[1].x, _mm256_mul_ps(c[0], p[0].x))),
          _mm256_fmadd_ps(c[2], p[2].y, _mm256_fmadd_ps(c[1], p[1].y, _mm256_mul_ps(c[0], p[0].y))),
          _mm256_fmadd_ps(c[2], p[2].z, _mm256_fmadd_ps(c[1], p[1].z, _mm256_mul_ps(c[0], p[0].z)))};
}

inline V3 cross(const V3& a, const V3& b) {
  return {_mm256_fmsub_ps(a.y, b.z, _mm256_mul_ps(a.z, b.y)), _mm256_fmsub_ps(a.z, b.x, _mm256_mul_ps(a.x, b.z)),
          _mm256_fmsub_ps(a.x, b.y, _mm256_mul_ps(a.y, b.x))};
}
inline V3 zero_v3() { return {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps()}; }
inline V3 scale(const V3& a, __m256 s) { return {_mm256_mul_ps(a.x, s), _mm256_mul_ps(a.y, s), _mm256_mul_ps(a.z, s)}; }

// atan2(y, x) of 8 lanes, within 4e-7 rad (two float ulps at pi) of std::atan2: the ratio of the smaller to
// the larger magnitude a in [0, 1], folded to |z| <= tan(pi/8) by atan a = pi/4 + atan((a - 1)/(a + 1)) above it, where
// the Taylor series z - z^3/3 + ... - z^15/15 is left with under 2e-8 (the next term, 0.414^17 / 17); then the octant.
// atan2(0, 0) = 0.
inline __m256 atan2(__m256 y, __m256 x) {
  const __m256 sign = _mm256_set1_ps(-0.f), zero = _mm256_setzero_ps();
  const __m256 ax = _mm256_andnot_ps(sign, x), ay = _mm256_andnot_ps(sign, y);
  const __m256 hi = _mm256_max_ps(ax, ay), lo = _mm256_min_ps(ax, ay);
  const __m256 a = _mm256_and_ps(_mm256_cmp_ps(hi, zero, _CMP_GT_OQ), _mm256_div_ps(lo, hi));
  const __m256 fold = _mm256_cmp_ps(a, _mm256_set1_ps(0.41421356f), _CMP_GT_OQ);
  const __m256 one = _mm256_set1_ps(1.f);
  const __m256 z = _mm256_blendv_ps(a, _mm256_div_ps(_mm256_sub_ps(a, one), _mm256_add_ps(a, one)), fold);
  const __m256 z2 = _mm256_mul_ps(z, z);
  __m256 p = _mm256_set1_ps(-1.f / 15);
  for (const float c : {1.f / 13, -1.f / 11, 1.f / 9, -1.f / 7, 1.f / 5, -1.f / 3})
    p = _mm256_fmadd_ps(p, z2, _mm256_set1_ps(c));
  __m256 r = _mm256_fmadd_ps(_mm256_mul_ps(p, z2), z, z);
  r = _mm256_add_ps(r, _mm256_and_ps(fold, _mm256_set1_ps(0.78539816f)));
  r = _mm256_blendv_ps(r, _mm256_sub_ps(_mm256_set1_ps(1.57079633f), r), _mm256_cmp_ps(ay, ax, _CMP_GT_OQ));
  r = _mm256_blendv_ps(r, _mm256_sub_ps(_mm256_set1_ps(3.14159265f), r), _mm256_cmp_ps(x, zero, _CMP_LT_OQ));
  return _mm256_or_ps(r, _mm256_and_ps(sign, y));  // r >= 0 here: takes y's sign
}

// Unit vector and length of w; zero unit below 1e-12 (the scalar kernel's `direction`).
struct Dir {
  V3 unit;
  __m256 length;
};
inline Dir direction(const V3& w) {
  const __m256 l = _mm256_sqrt_ps(dot(w, w));
  const __m256 inv =
      _mm256_and_ps(_mm256_cmp_ps(l, _mm256_set1_ps(1e-12f), _CMP_GT_OQ), _mm256_div_ps(_mm256_set1_ps(1.f), l));
  return {{_mm256_mul_ps(w.x, inv), _mm256_mul_ps(w.y, inv), _mm256_mul_ps(w.z, inv)}, l};
}

// Stress and slope of 8 strains (curve_table.h); a curve that does not fit a table goes lane by lane.
inline void curve(const CurveTable& t, const StressCurve& scalar, __m256 e, __m256& stress, __m256& slope) {
  if (!t.fits) {
    alignas(32) float in[8], s[8], d[8];
    _mm256_store_ps(in, e);
    for (int k = 0; k < 8; ++k) {
      const CurveSample c = scalar(in[k]);
      s[k] = c.stress;
      d[k] = c.slope;
    }
    stress = _mm256_load_ps(s);
    slope = _mm256_load_ps(d);
    return;
  }
  __m256i piece = _mm256_setzero_si256();
  for (int k = 0; k < t.knots; ++k)  // a true compare is -1: subtracting it counts the knots at or below e
    piece =
        _mm256_sub_epi32(piece, _mm256_castps_si256(_mm256_cmp_ps(e, _mm256_set1_ps(t.knot[size_t(k)]), _CMP_GE_OQ)));
  auto lookup = [&](const std::array<float, CurveTable::kPieces>& c) {
    return _mm256_permutevar8x32_ps(_mm256_loadu_ps(c.data()), piece);
  };
  const __m256 x = _mm256_sub_ps(e, lookup(t.base));
  const __m256 c1 = lookup(t.c1);
  stress = _mm256_fmadd_ps(x, _mm256_fmadd_ps(x, _mm256_fmadd_ps(x, lookup(t.c3), lookup(t.c2)), c1), lookup(t.c0));
  slope = _mm256_fmadd_ps(x, _mm256_fmadd_ps(x, lookup(t.d2), lookup(t.d1)), c1);
}

// A symmetric block, component by component.
struct S6 {
  __m256 xx, xy, xz, yy, yz, zz;
};
inline S6 add(const S6& a, const S6& b) {
  return {_mm256_add_ps(a.xx, b.xx), _mm256_add_ps(a.xy, b.xy), _mm256_add_ps(a.xz, b.xz),
          _mm256_add_ps(a.yy, b.yy), _mm256_add_ps(a.yz, b.yz), _mm256_add_ps(a.zz, b.zz)};
}
// a n n^T added onto m
inline void add_outer(S6& m, const V3& n, __m256 a) {
  const __m256 ax = _mm256_mul_ps(a, n.x), ay = _mm256_mul_ps(a, n.y), az = _mm256_mul_ps(a, n.z);
  m.xx = _mm256_fmadd_ps(ax, n.x, m.xx);
  m.xy = _mm256_fmadd_ps(ax, n.y, m.xy);
  m.xz = _mm256_fmadd_ps(ax, n.z, m.xz);
  m.yy = _mm256_fmadd_ps(ay, n.y, m.yy);
  m.yz = _mm256_fmadd_ps(ay, n.z, m.yz);
  m.zz = _mm256_fmadd_ps(az, n.z, m.zz);
}
// s (g h^T + h g^T) / 2 added onto m
inline void add_sym_outer(S6& m, const V3& g, const V3& h, __m256 s) {
  const __m256 half = _mm256_mul_ps(_mm256_set1_ps(0.5f), s);
  m.xx = _mm256_fmadd_ps(_mm256_mul_ps(s, g.x), h.x, m.xx);
  m.yy = _mm256_fmadd_ps(_mm256_mul_ps(s, g.y), h.y, m.yy);
  m.zz = _mm256_fmadd_ps(_mm256_mul_ps(s, g.z), h.z, m.zz);
  m.xy = _mm256_fmadd_ps(half, _mm256_fmadd_ps(g.x, h.y, _mm256_mul_ps(g.y, h.x)), m.xy);
  m.xz = _mm256_fmadd_ps(half, _mm256_fmadd_ps(g.x, h.z, _mm256_mul_ps(g.z, h.x)), m.xz);
  m.yz = _mm256_fmadd_ps(half, _mm256_fmadd_ps(g.y, h.z, _mm256_mul_ps(g.z, h.y)), m.yz);
}
// t (I - n n^T) added onto m: the transverse stiffness of a stretched direction, t = s / length
inline void add_transverse(S6& m, const V3& n, __m256 t) {
  add_outer(m, n, _mm256_sub_ps(_mm256_setzero_ps(), t));
  m.xx = _mm256_add_ps(m.xx, t);
  m.yy = _mm256_add_ps(m.yy, t);
  m.zz = _mm256_add_ps(m.zz, t);
}
inline V3 times(const S6& m, const V3& v) {
  return {_mm256_fmadd_ps(m.xz, v.z, _mm256_fmadd_ps(m.xy, v.y, _mm256_mul_ps(m.xx, v.x))),
          _mm256_fmadd_ps(m.yz, v.z, _mm256_fmadd_ps(m.yy, v.y, _mm256_mul_ps(m.xy, v.x))),
          _mm256_fmadd_ps(m.zz, v.z, _mm256_fmadd_ps(m.yz, v.y, _mm256_mul_ps(m.xz, v.x)))};
}

// b + s a and b - s a
inline V3 madd(__m256 s, const V3& a, const V3& b) {
  return {_mm256_fmadd_ps(s, a.x, b.x), _mm256_fmadd_ps(s, a.y, b.y), _mm256_fmadd_ps(s, a.z, b.z)};
}
inline V3 nmadd(__m256 s, const V3& a, const V3& b) {
  return {_mm256_fnmadd_ps(s, a.x, b.x), _mm256_fnmadd_ps(s, a.y, b.y), _mm256_fnmadd_ps(s, a.z, b.z)};
}

// The per-lane results go through rows of 8 floats, one row per component: stored as vectors, then added
// onto the vertices and links one lane at a time.
using Rows = float (*)[8];
inline void store(Rows o, const V3& v) {
  _mm256_store_ps(o[0], v.x);
  _mm256_store_ps(o[1], v.y);
  _mm256_store_ps(o[2], v.z);
}
inline void store(Rows o, const S6& m) {
  _mm256_store_ps(o[0], m.xx);
  _mm256_store_ps(o[1], m.xy);
  _mm256_store_ps(o[2], m.xz);
  _mm256_store_ps(o[3], m.yy);
  _mm256_store_ps(o[4], m.yz);
  _mm256_store_ps(o[5], m.zz);
}
inline glm::vec3 lane_vec3(const float (*o)[8], int l) { return {o[0][l], o[1][l], o[2][l]}; }
inline Sym3 lane_sym3(const float (*o)[8], int l) { return {o[0][l], o[1][l], o[2][l], o[3][l], o[4][l], o[5][l]}; }
inline void add_lane_block(LinkBlocks& B, uint32_t link, const float (*o)[8], int l) {
  B.xx[link] += o[0][l];
  B.xy[link] += o[1][l];
  B.xz[link] += o[2][l];
  B.yy[link] += o[3][l];
  B.yz[link] += o[4][l];
  B.zz[link] += o[5][l];
}
// Adds the 8 elements [first, first + 8) onto the vertices and links one at a time (neighbouring lanes
// share vertices and links): from out[0] the forces of the C corners (3 rows each), from out[sums] their
// diagonal sums and from out[blocks] the blocks of the P pairs (6 rows each).
template <size_t C, size_t P>
inline void scatter_lanes(const float (*out)[8], int sums, int blocks,
                          const std::array<std::vector<uint32_t>, C>& corner,
                          const std::array<std::vector<uint32_t>, P>& link, size_t first, glm::vec3* f, Sym3* js,
                          LinkBlocks& B) {
  for (int l = 0; l < 8; ++l) {
    for (size_t k = 0; k < C; ++k) {
      const uint32_t i = corner[k][first + size_t(l)];
      f[i] += lane_vec3(out + 3 * k, l);
      js[i] += lane_sym3(out + sums + 6 * k, l);
    }
    for (size_t q = 0; q < P; ++q) add_lane_block(B, link[q][first + size_t(l)], out + blocks + 6 * q, l);
  }
}

}  // namespace weave_simd

// Triangles [0, end) in steps of 8 with the Jacobian (weave_triangle with blocks, and the assembly of
// add_weft_warp_forces: h K (v_l - v_k) on the forces, K + D / h into the blocks when h > 0); returns the
// first triangle not done, for the scalar kernel. xv: the records {x y z 0 vx vy vz 0} per vertex.
inline size_t add_weave_triangles_simd(const WeftWarpModel& w, const WeaveMaterial& mat, const float* xv, float h,
                                       size_t end, glm::vec3* f, Sym3* js, LinkBlocks& B,
                                       const std::array<float, 3>* plastic = nullptr) {
  using namespace weave_simd;
  const WeaveTriangleArrays& a = w.arrays;
  const StressCurve* scalar_curve[3] = {&mat.weft, &mat.warp, &mat.shear};
  const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.f), ks = _mm256_set1_ps(0.70710678f);
  const __m256 eta[3] = {_mm256_set1_ps(mat.weft_viscosity), _mm256_set1_ps(mat.warp_viscosity),
                         _mm256_set1_ps(mat.shear_viscosity)};
  const bool viscous = h > 0.f;
  const __m256 hv = _mm256_set1_ps(h), inv_h = _mm256_set1_ps(viscous ? 1.f / h : 0.f);
  static constexpr int pair[3][2] = {{0, 1}, {1, 2}, {0, 2}};
  // per-lane results: forces of the corners (9), blocks of the pairs (18), diagonal sums of the corners (18)
  alignas(32) float out[45][8];
  size_t t = 0;
  for (; t + 8 <= end; t += 8) {
    V3 p[3], v[3];
    __m256 ru[3], rv[3];
    for (int k = 0; k < 3; ++k) {
      const uint32_t* c = a.corner[size_t(k)].data() + t;
      const float* r[8];
      for (int l = 0; l < 8; ++l) r[l] = xv + kVertexRecord * c[l];
      load_ends(r, 0, p[k].x, p[k].y, p[k].z);
      load_ends(r, 4, v[k].x, v[k].y, v[k].z);
      ru[k] = _mm256_loadu_ps(a.ru[size_t(k)].data() + t);
      rv[k] = _mm256_loadu_ps(a.rv[size_t(k)].data() + t);
    }
    const __m256 A = _mm256_loadu_ps(w.area.data() + t), negA = _mm256_sub_ps(zero, A);
    // Eq. 3-6
    const V3 U = combine(ru, p), V = combine(rv, p), dU = combine(ru, v), dV = combine(rv, v);
    const Dir du = direction(U), dv = direction(V), ds = direction(add(U, V)), dd = direction(sub(U, V));
    const __m256 e_uu = _mm256_sub_ps(du.length, one), e_vv = _mm256_sub_ps(dv.length, one);
    const __m256 e_uv = _mm256_mul_ps(ks, _mm256_sub_ps(ds.length, dd.length));
    const __m256 r_uu = dot(du.unit, dU), r_vv = dot(dv.unit, dV);
    const __m256 r_uv = _mm256_mul_ps(ks, _mm256_sub_ps(dot(ds.unit, add(dU, dV)), dot(dd.unit, sub(dU, dV))));
    __m256 su, slu, sv, slv, ss, sls;
    if (plastic) {  // in-plane plasticity: the curves see the elastic strain e - e_p
      const float* pl = plastic[t].data();
      const __m256i stride3 = _mm256_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21);
      curve(a.curve[0], *scalar_curve[0], _mm256_sub_ps(e_uu, _mm256_i32gather_ps(pl, stride3, 4)), su, slu);
      curve(a.curve[1], *scalar_curve[1], _mm256_sub_ps(e_vv, _mm256_i32gather_ps(pl + 1, stride3, 4)), sv, slv);
      curve(a.curve[2], *scalar_curve[2], _mm256_sub_ps(e_uv, _mm256_i32gather_ps(pl + 2, stride3, 4)), ss, sls);
    } else {
      curve(a.curve[0], *scalar_curve[0], e_uu, su, slu);
      curve(a.curve[1], *scalar_curve[1], e_vv, sv, slv);
      curve(a.curve[2], *scalar_curve[2], e_uv, ss, sls);
    }
    const __m256 s_uu = _mm256_fmadd_ps(eta[0], r_uu, su), s_vv = _mm256_fmadd_ps(eta[1], r_vv, sv);
    const __m256 s_uv = _mm256_fmadd_ps(eta[2], r_uv, ss);
    // strain gradients of the shear per corner, and the forces
    V3 g[3], F[3];
    for (int k = 0; k < 3; ++k) {
      const __m256 cs = _mm256_add_ps(ru[k], rv[k]), cd = _mm256_sub_ps(ru[k], rv[k]);
      g[k] = {_mm256_mul_ps(ks, _mm256_fnmadd_ps(cd, dd.unit.x, _mm256_mul_ps(cs, ds.unit.x))),
              _mm256_mul_ps(ks, _mm256_fnmadd_ps(cd, dd.unit.y, _mm256_mul_ps(cs, ds.unit.y))),
              _mm256_mul_ps(ks, _mm256_fnmadd_ps(cd, dd.unit.z, _mm256_mul_ps(cs, ds.unit.z)))};
      const __m256 a_u = _mm256_mul_ps(s_uu, ru[k]), a_v = _mm256_mul_ps(s_vv, rv[k]);
      F[k] = {_mm256_mul_ps(
                  negA, _mm256_fmadd_ps(s_uv, g[k].x, _mm256_fmadd_ps(a_v, dv.unit.x, _mm256_mul_ps(a_u, du.unit.x)))),
              _mm256_mul_ps(
                  negA, _mm256_fmadd_ps(s_uv, g[k].y, _mm256_fmadd_ps(a_v, dv.unit.y, _mm256_mul_ps(a_u, du.unit.y)))),
              _mm256_mul_ps(
                  negA, _mm256_fmadd_ps(s_uv, g[k].z, _mm256_fmadd_ps(a_v, dv.unit.z, _mm256_mul_ps(a_u, du.unit.z))))};
    }
    // Per-triangle factors of the blocks: -A sigma' along each direction, and the transverse terms
    // max(sigma, 0) / length of the stretched directions (zero where the scalar kernel skips them).
    const __m256 k_u = _mm256_mul_ps(negA, slu), k_v = _mm256_mul_ps(negA, slv), k_s = _mm256_mul_ps(negA, sls);
    auto transverse_factor = [&](__m256 stress, __m256 length, bool compressive, __m256 scale) {
      const __m256 on = _mm256_and_ps(_mm256_cmp_ps(stress, zero, compressive ? _CMP_LT_OQ : _CMP_GT_OQ),
                                      _mm256_cmp_ps(length, zero, _CMP_GT_OQ));
      return _mm256_and_ps(on, _mm256_div_ps(_mm256_mul_ps(scale, stress), length));
    };
    const __m256 t_u = transverse_factor(su, du.length, false, negA),
                 t_v = transverse_factor(sv, dv.length, false, negA);
    const __m256 t_s = transverse_factor(ss, ds.length, false, _mm256_mul_ps(negA, ks));
    const __m256 t_d = transverse_factor(ss, dd.length, true, _mm256_mul_ps(A, ks));
    const __m256 e_u = _mm256_mul_ps(negA, eta[0]), e_v = _mm256_mul_ps(negA, eta[1]),
                 e_s = _mm256_mul_ps(negA, eta[2]);
    S6 J[3];
    for (int q = 0; q < 3; ++q) {
      const int k = pair[q][0], l = pair[q][1];
      const __m256 cuu = _mm256_mul_ps(ru[k], ru[l]), cvv = _mm256_mul_ps(rv[k], rv[l]);
      const __m256 css = _mm256_mul_ps(_mm256_add_ps(ru[k], rv[k]), _mm256_add_ps(ru[l], rv[l]));
      const __m256 cdd = _mm256_mul_ps(_mm256_sub_ps(ru[k], rv[k]), _mm256_sub_ps(ru[l], rv[l]));
      S6 K{zero, zero, zero, zero, zero, zero};
      add_outer(K, du.unit, _mm256_mul_ps(k_u, cuu));
      add_outer(K, dv.unit, _mm256_mul_ps(k_v, cvv));
      add_sym_outer(K, g[k], g[l], k_s);
      add_transverse(K, du.unit, _mm256_mul_ps(t_u, cuu));
      add_transverse(K, dv.unit, _mm256_mul_ps(t_v, cvv));
      add_transverse(K, ds.unit, _mm256_mul_ps(t_s, css));
      add_transverse(K, dd.unit, _mm256_mul_ps(t_d, cdd));
      if (viscous) {
        // Kang Eq. 13: h K (v_l - v_k) on corner k, the opposite on l; then the damping blocks as D / h
        const V3 hf = times(K, sub(v[l], v[k]));
        F[k] = madd(hv, hf, F[k]);
        F[l] = nmadd(hv, hf, F[l]);
        S6 D{zero, zero, zero, zero, zero, zero};
        add_outer(D, du.unit, _mm256_mul_ps(e_u, cuu));
        add_outer(D, dv.unit, _mm256_mul_ps(e_v, cvv));
        add_sym_outer(D, g[k], g[l], e_s);
        K = {_mm256_fmadd_ps(inv_h, D.xx, K.xx), _mm256_fmadd_ps(inv_h, D.xy, K.xy),
             _mm256_fmadd_ps(inv_h, D.xz, K.xz), _mm256_fmadd_ps(inv_h, D.yy, K.yy),
             _mm256_fmadd_ps(inv_h, D.yz, K.yz), _mm256_fmadd_ps(inv_h, D.zz, K.zz)};
      }
      J[q] = K;
    }
    const S6 sum[3] = {add(J[0], J[2]), add(J[0], J[1]), add(J[1], J[2])};
    for (int k = 0; k < 3; ++k) store(out + 3 * k, F[k]);
    for (int q = 0; q < 3; ++q) {
      store(out + 9 + 6 * q, J[q]);
      store(out + 27 + 6 * q, sum[q]);
    }
    scatter_lanes(out, 27, 9, a.corner, a.pair_link, t, f, js, B);
  }
  return t;
}

// Hinges [0, end) in steps of 8 with the Jacobian: hinge_angle and the hinge part of
// add_weft_warp_forces (moment on the corners, the Gauss-Newton blocks -k g_i g_j^T symmetrised, their
// diagonal sums k g_i g_i^T, and h J (v_j - v_i) when h > 0). rest: the rest angles (nhinge). Returns the
// first hinge not done.
inline size_t add_weave_hinges_simd(const WeftWarpModel& w, const float* rest, const float* xv, float h, size_t end,
                                    glm::vec3* f, Sym3* js, LinkBlocks& B) {
  using namespace weave_simd;
  const WeaveHingeArrays& a = w.arrays_hinge;
  const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.f), half = _mm256_set1_ps(0.5f);
  const bool viscous = h > 0.f;
  const __m256 hv = _mm256_set1_ps(h);
  static constexpr int hpair[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
  // per-lane results: forces of the corners (12), their diagonal sums (24), blocks of the pairs (36)
  alignas(32) float out[72][8];
  size_t e = 0;
  for (; e + 8 <= end; e += 8) {
    V3 x[4], v[4];
    for (int k = 0; k < 4; ++k) {
      const uint32_t* c = a.corner[size_t(k)].data() + e;
      const float* r[8];
      for (int l = 0; l < 8; ++l) r[l] = xv + kVertexRecord * c[l];
      load_ends(r, 0, x[k].x, x[k].y, x[k].z);
      if (viscous) load_ends(r, 4, v[k].x, v[k].y, v[k].z);
    }
    // hinge_angle: the dihedral angle from the two normals and its gradient (Bridson et al. 2003)
    const V3 edge = sub(x[1], x[0]);
    const __m256 len = _mm256_sqrt_ps(dot(edge, edge));
    const V3 nA = cross(edge, sub(x[2], x[0])), nB = cross(sub(x[3], x[0]), edge);
    const __m256 a2 = dot(nA, nA), b2 = dot(nB, nB);
    const __m256 valid = _mm256_and_ps(_mm256_cmp_ps(len, _mm256_set1_ps(1e-12f), _CMP_GT_OQ),
                                       _mm256_and_ps(_mm256_cmp_ps(a2, _mm256_set1_ps(1e-24f), _CMP_GT_OQ),
                                                     _mm256_cmp_ps(b2, _mm256_set1_ps(1e-24f), _CMP_GT_OQ)));
    const V3 eh = scale(edge, _mm256_div_ps(one, len));
    const __m256 theta = atan2(_mm256_sub_ps(zero, dot(cross(nA, nB), eh)), dot(nA, nB));
    const V3 qa = scale(nA, _mm256_div_ps(one, a2)), qb = scale(nB, _mm256_div_ps(one, b2));
    const __m256 s20 = dot(sub(x[2], x[0]), eh), s30 = dot(sub(x[3], x[0]), eh);
    const __m256 s21 = dot(sub(x[2], x[1]), eh), s31 = dot(sub(x[3], x[1]), eh);
    V3 g[4] = {add(scale(qa, s21), scale(qb, s31)), sub(zero_v3(), add(scale(qa, s20), scale(qb, s30))), scale(qa, len),
               scale(qb, len)};
    for (V3& gq : g)  // a collapsed triangle's hinge adds nothing (zeros rather than its NaNs)
      gq = {_mm256_and_ps(valid, gq.x), _mm256_and_ps(valid, gq.y), _mm256_and_ps(valid, gq.z)};
    const __m256 k = _mm256_and_ps(valid, _mm256_loadu_ps(w.hinge_stiffness.data() + e));
    const __m256 moment =
        _mm256_and_ps(valid, _mm256_mul_ps(_mm256_sub_ps(zero, k), _mm256_sub_ps(theta, _mm256_loadu_ps(rest + e))));
    V3 F[4];
    for (int q = 0; q < 4; ++q) {
      F[q] = scale(g[q], moment);
      const S6 d{_mm256_mul_ps(_mm256_mul_ps(k, g[q].x), g[q].x), _mm256_mul_ps(_mm256_mul_ps(k, g[q].x), g[q].y),
                 _mm256_mul_ps(_mm256_mul_ps(k, g[q].x), g[q].z), _mm256_mul_ps(_mm256_mul_ps(k, g[q].y), g[q].y),
                 _mm256_mul_ps(_mm256_mul_ps(k, g[q].y), g[q].z), _mm256_mul_ps(_mm256_mul_ps(k, g[q].z), g[q].z)};
      store(out + 12 + 6 * q, d);
    }
    const __m256 nk = _mm256_sub_ps(zero, k), nhk = _mm256_mul_ps(nk, half);
    for (int p = 0; p < 6; ++p) {
      const V3 &gi = g[hpair[p][0]], &gj = g[hpair[p][1]];
      const S6 J{_mm256_mul_ps(nk, _mm256_mul_ps(gi.x, gj.x)),
                 _mm256_mul_ps(nhk, _mm256_fmadd_ps(gi.x, gj.y, _mm256_mul_ps(gi.y, gj.x))),
                 _mm256_mul_ps(nhk, _mm256_fmadd_ps(gi.x, gj.z, _mm256_mul_ps(gi.z, gj.x))),
                 _mm256_mul_ps(nk, _mm256_mul_ps(gi.y, gj.y)),
                 _mm256_mul_ps(nhk, _mm256_fmadd_ps(gi.y, gj.z, _mm256_mul_ps(gi.z, gj.y))),
                 _mm256_mul_ps(nk, _mm256_mul_ps(gi.z, gj.z))};
      if (viscous) {
        const int i = hpair[p][0], j = hpair[p][1];
        const V3 hf = times(J, sub(v[j], v[i]));
        F[i] = madd(hv, hf, F[i]);
        F[j] = nmadd(hv, hf, F[j]);
      }
      store(out + 36 + 6 * p, J);
    }
    for (int q = 0; q < 4; ++q) store(out + 3 * q, F[q]);
    scatter_lanes(out, 12, 36, a.corner, a.link, e, f, js, B);
  }
  return e;
}

}  // namespace weft
#endif
