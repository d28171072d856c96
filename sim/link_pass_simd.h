#pragma once
// The link pass of force_field.cpp written with AVX2 intrinsics, 8 links per iteration.
//
// GCC vectorises the plain loop, but it fetches each link end's coordinates with scalar loads inserted one lane
// at a time (12 per end), and those inserts all queue on the one shuffle port: the pass was bound by them.
// Here every vertex keeps a padded 32-byte record {x y z 0 vx vy vz 0} (filled once per evaluation), each end
// is two 16-byte loads, and a 4x4 in-lane transpose turns 8 ends into rows of x, y, z. The arithmetic is the
// scalar kernel's, line for line; tests/sim/force_field_test.cpp compares the two.
#include <cstddef>
#include <cstdint>

#include "sim/link_scatter.h"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#define WEFT_LINK_PASS_SIMD 1

namespace weft {

constexpr size_t kVertexRecord = 8;  // floats per vertex record {x y z 0 vx vy vz 0}

// Record addresses of the first and second ends of 8 links.
inline void end_records(const uint32_t* I, const uint32_t* J, const float* records, size_t stride, const float* ri[8],
                        const float* rj[8]) {
  for (int k = 0; k < 8; ++k) {
    ri[k] = records + stride * I[k];
    rj[k] = records + stride * J[k];
  }
}

// Rows x, y, z of 8 link ends whose records start at r[0..7], `offset` 0 for positions, 4 for velocities.
// Lanes are links 0..7 in order: the low half holds ends 0-3, the high half ends 4-7.
inline void load_ends(const float* const r[8], int offset, __m256& x, __m256& y, __m256& z) {
  __m256 q[4];
  for (int k = 0; k < 4; ++k)
    q[k] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_load_ps(r[k] + offset)), _mm_load_ps(r[k + 4] + offset), 1);
  const __m256 t0 = _mm256_unpacklo_ps(q[0], q[1]);  // x0 x1 y0 y1
  const __m256 t1 = _mm256_unpackhi_ps(q[0], q[1]);  // z0 z1 w0 w1
  const __m256 t2 = _mm256_unpacklo_ps(q[2], q[3]);  // x2 x3 y2 y3
  const __m256 t3 = _mm256_unpackhi_ps(q[2], q[3]);  // z2 z3 w2 w3
  x = _mm256_shuffle_ps(t0, t2, 0x44);
  y = _mm256_shuffle_ps(t0, t2, 0xEE);
  z = _mm256_shuffle_ps(t1, t3, 0x44);
}

// Links [begin, end) in steps of 8 (the caller runs the scalar kernel on the rest); returns the first link
// not done. Same contract as link_pass_kernel<tension_given, jacobian = true>.
template <bool tension_given>
size_t link_pass_simd(const uint32_t* __restrict I, const uint32_t* __restrict J, const float* __restrict K,
                      const float* __restrict L0, const float* __restrict T, const float* __restrict record, size_t block,
                      size_t begin, size_t end, float cd_s, float hv_s, float* __restrict Fx, float* __restrict Fy,
                      float* __restrict Fz, float* __restrict Axx, float* __restrict Axy, float* __restrict Axz,
                      float* __restrict Ayy, float* __restrict Ayz, float* __restrict Azz) {
  const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.f), tiny = _mm256_set1_ps(1e-12f);
  const __m256 cd = _mm256_set1_ps(cd_s), hv = _mm256_set1_ps(hv_s);
  size_t l = begin;
  for (; l + 8 <= end; l += 8) {
    const float *ri[8], *rj[8];
    end_records(I + l, J + l, record, kVertexRecord, ri, rj);
    __m256 xi, yi, zi, xj, yj, zj;
    load_ends(ri, 0, xi, yi, zi);
    load_ends(rj, 0, xj, yj, zj);
    const __m256 dx = _mm256_sub_ps(xj, xi), dy = _mm256_sub_ps(yj, yi), dz = _mm256_sub_ps(zj, zi);
    const __m256 len = _mm256_sqrt_ps(_mm256_fmadd_ps(dz, dz, _mm256_fmadd_ps(dy, dy, _mm256_mul_ps(dx, dx))));
    const __m256 inv = _mm256_and_ps(_mm256_cmp_ps(len, tiny, _CMP_GT_OQ), _mm256_div_ps(one, len));
    const __m256 ux = _mm256_mul_ps(dx, inv), uy = _mm256_mul_ps(dy, inv), uz = _mm256_mul_ps(dz, inv);
    const __m256 k = _mm256_loadu_ps(K + l);
    __m256 t;
    if constexpr (tension_given) {
      t = _mm256_loadu_ps(T + l);
    } else {
      t = _mm256_mul_ps(k, _mm256_sub_ps(len, _mm256_loadu_ps(L0 + l)));
    }
    load_ends(ri, 4, xi, yi, zi);  // velocities from here on
    load_ends(rj, 4, xj, yj, zj);
    const __m256 vx = _mm256_sub_ps(xj, xi), vy = _mm256_sub_ps(yj, yi), vz = _mm256_sub_ps(zj, zi);
    // spring + relative damping (Kang & Cho Eq. 26)
    __m256 fx = _mm256_fmadd_ps(t, ux, _mm256_mul_ps(cd, vx));
    __m256 fy = _mm256_fmadd_ps(t, uy, _mm256_mul_ps(cd, vy));
    __m256 fz = _mm256_fmadd_ps(t, uz, _mm256_mul_ps(cd, vz));
    // k u u^T + max(T, 0)/l (I - u u^T), Kang & Cho Eq. 21-22
    const __m256 tr = _mm256_and_ps(_mm256_cmp_ps(t, zero, _CMP_GT_OQ), _mm256_mul_ps(t, inv));
    const __m256 a = _mm256_sub_ps(k, tr);
    const __m256 aux = _mm256_mul_ps(a, ux), auy = _mm256_mul_ps(a, uy), auz = _mm256_mul_ps(a, uz);
    const __m256 jxx = _mm256_fmadd_ps(aux, ux, tr), jxy = _mm256_mul_ps(aux, uy), jxz = _mm256_mul_ps(aux, uz);
    const __m256 jyy = _mm256_fmadd_ps(auy, uy, tr), jyz = _mm256_mul_ps(auy, uz), jzz = _mm256_fmadd_ps(auz, uz, tr);
    _mm256_storeu_ps(Axx + l, jxx); _mm256_storeu_ps(Axy + l, jxy); _mm256_storeu_ps(Axz + l, jxz);
    _mm256_storeu_ps(Ayy + l, jyy); _mm256_storeu_ps(Ayz + l, jyz); _mm256_storeu_ps(Azz + l, jzz);
    // viscosity h J (v_j - v_i), Kang & Cho Eq. 13
    fx = _mm256_fmadd_ps(hv, _mm256_fmadd_ps(jxz, vz, _mm256_fmadd_ps(jxy, vy, _mm256_mul_ps(jxx, vx))), fx);
    fy = _mm256_fmadd_ps(hv, _mm256_fmadd_ps(jyz, vz, _mm256_fmadd_ps(jyy, vy, _mm256_mul_ps(jxy, vx))), fy);
    fz = _mm256_fmadd_ps(hv, _mm256_fmadd_ps(jzz, vz, _mm256_fmadd_ps(jyz, vy, _mm256_mul_ps(jxz, vx))), fz);
    const size_t o = l - block;
    _mm256_storeu_ps(Fx + o, fx); _mm256_storeu_ps(Fy + o, fy); _mm256_storeu_ps(Fz + o, fz);
  }
  return l;
}

// The Jacobi coupling of approximate_implicit.cpp: per link c_i = B dv_j and c_j = B dv_i with
// B = h2 J + hcd I (Kang & Cho Eq. 19 and 27), added onto 4-float coupling records of the two ends.
// dv holds 4-float records {x y z 0}. Links [begin, end) in steps of 8; returns the first link not done.
inline size_t coupling_pass_simd(const uint32_t* __restrict I, const uint32_t* __restrict J, const float* __restrict Axx,
                                 const float* __restrict Axy, const float* __restrict Axz, const float* __restrict Ayy,
                                 const float* __restrict Ayz, const float* __restrict Azz, const float* dv, float h2_s,
                                 float hcd_s, size_t begin, size_t end, float* coupling) {
  const __m256 h2 = _mm256_set1_ps(h2_s), hcd = _mm256_set1_ps(hcd_s), zero = _mm256_setzero_ps();
  size_t l = begin;
  for (; l + 8 <= end; l += 8) {
    const float *ri[8], *rj[8];
    end_records(I + l, J + l, dv, kCouplingRecord, ri, rj);
    __m256 ax, ay, az, bx, by, bz;
    load_ends(rj, 0, ax, ay, az);  // dv_j, acting on i
    load_ends(ri, 0, bx, by, bz);  // dv_i, acting on j
    const __m256 bxx = _mm256_fmadd_ps(h2, _mm256_loadu_ps(Axx + l), hcd), bxy = _mm256_mul_ps(h2, _mm256_loadu_ps(Axy + l));
    const __m256 bxz = _mm256_mul_ps(h2, _mm256_loadu_ps(Axz + l)), byy = _mm256_fmadd_ps(h2, _mm256_loadu_ps(Ayy + l), hcd);
    const __m256 byz = _mm256_mul_ps(h2, _mm256_loadu_ps(Ayz + l)), bzz = _mm256_fmadd_ps(h2, _mm256_loadu_ps(Azz + l), hcd);
    __m256 r[8] = {
        _mm256_fmadd_ps(bxz, az, _mm256_fmadd_ps(bxy, ay, _mm256_mul_ps(bxx, ax))),
        _mm256_fmadd_ps(byz, az, _mm256_fmadd_ps(byy, ay, _mm256_mul_ps(bxy, ax))),
        _mm256_fmadd_ps(bzz, az, _mm256_fmadd_ps(byz, ay, _mm256_mul_ps(bxz, ax))),
        zero,
        _mm256_fmadd_ps(bxz, bz, _mm256_fmadd_ps(bxy, by, _mm256_mul_ps(bxx, bx))),
        _mm256_fmadd_ps(byz, bz, _mm256_fmadd_ps(byy, by, _mm256_mul_ps(bxy, bx))),
        _mm256_fmadd_ps(bzz, bz, _mm256_fmadd_ps(byz, by, _mm256_mul_ps(bxz, bx))),
        zero};
    transpose8x8(r);
    add_coupling_records(r, I + l, J + l, coupling);
  }
  return l;
}

}  // namespace weft
#endif
