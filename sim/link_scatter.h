#pragma once
// Adding per-link results onto the links' two vertices: the scalar tail of every link pass.
//
// The link kernels compute 8 links at a time in structs of arrays; adding their results onto vertices one
// float at a time (9 read-modify-writes per link end for a force and a Jacobian block) cost as much as the
// kernels themselves. With AVX the 8 links' values are transposed in registers into one 8-float record per
// link, added onto a padded per-vertex record with one load, add and store per end. Same additions in the
// same order as the scalar path, so both give bitwise equal sums.
#include <cstddef>
#include <cstdint>

#if defined(__AVX__)
#include <immintrin.h>
#endif

namespace weft {

// Per-vertex accumulator layouts (floats, 32-byte aligned rows):
//   force/Jacobian: 8 per vertex {fx fy fz jxx jxy jxz jyy jyz} plus jzz in a separate array;
//   coupling:       4 per vertex {x y z pad}.
constexpr size_t kForceRecord = 8;
constexpr size_t kCouplingRecord = 4;

#if defined(__AVX__)
// r[k] holds quantity k of links 0..7; afterwards r[l] holds quantities 0..7 of link l.
inline void transpose8x8(__m256 r[8]) {
  const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
  const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
  const __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
  const __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
  const __m256 s0 = _mm256_shuffle_ps(t0, t2, 0x44), s1 = _mm256_shuffle_ps(t0, t2, 0xEE);
  const __m256 s2 = _mm256_shuffle_ps(t1, t3, 0x44), s3 = _mm256_shuffle_ps(t1, t3, 0xEE);
  const __m256 s4 = _mm256_shuffle_ps(t4, t6, 0x44), s5 = _mm256_shuffle_ps(t4, t6, 0xEE);
  const __m256 s6 = _mm256_shuffle_ps(t5, t7, 0x44), s7 = _mm256_shuffle_ps(t5, t7, 0xEE);
  r[0] = _mm256_permute2f128_ps(s0, s4, 0x20);
  r[1] = _mm256_permute2f128_ps(s1, s5, 0x20);
  r[2] = _mm256_permute2f128_ps(s2, s6, 0x20);
  r[3] = _mm256_permute2f128_ps(s3, s7, 0x20);
  r[4] = _mm256_permute2f128_ps(s0, s4, 0x31);
  r[5] = _mm256_permute2f128_ps(s1, s5, 0x31);
  r[6] = _mm256_permute2f128_ps(s2, s6, 0x31);
  r[7] = _mm256_permute2f128_ps(s3, s7, 0x31);
}
#endif

#if defined(__AVX__)
// Adds the transposed coupling records of 8 links (lanes 0-2: onto the first end, 4-6: onto the second).
inline void add_coupling_records(const __m256 r[8], const uint32_t* I, const uint32_t* J, float* record) {
  for (int k = 0; k < 8; ++k) {
    float* a = record + kCouplingRecord * I[k];
    _mm_store_ps(a, _mm_add_ps(_mm_load_ps(a), _mm256_castps256_ps128(r[k])));
    float* b = record + kCouplingRecord * J[k];
    _mm_store_ps(b, _mm_add_ps(_mm_load_ps(b), _mm256_extractf128_ps(r[k], 1)));
  }
}
#endif

// Links [begin, end): force f_l (block-relative arrays fx, fy, fz, index l - begin) onto the first vertex and
// -f_l onto the second; the Jacobian block (global arrays, index l) onto both.
inline void scatter_force_jacobian(size_t begin, size_t end, const uint32_t* __restrict I, const uint32_t* __restrict J,
                                   const float* fx, const float* fy, const float* fz, const float* xx, const float* xy,
                                   const float* xz, const float* yy, const float* yz, const float* zz,
                                   float* __restrict record, float* __restrict record_zz) {
  size_t l = begin;
#if defined(__AVX__)
  const __m256 flip_force = _mm256_castsi256_ps(_mm256_setr_epi32(int(0x80000000u), int(0x80000000u),
                                                                  int(0x80000000u), 0, 0, 0, 0, 0));
  for (; l + 8 <= end; l += 8) {
    const size_t o = l - begin;
    __m256 r[8] = {_mm256_loadu_ps(fx + o), _mm256_loadu_ps(fy + o), _mm256_loadu_ps(fz + o), _mm256_loadu_ps(xx + l),
                   _mm256_loadu_ps(xy + l), _mm256_loadu_ps(xz + l), _mm256_loadu_ps(yy + l), _mm256_loadu_ps(yz + l)};
    transpose8x8(r);
    for (int k = 0; k < 8; ++k) {
      float* a = record + kForceRecord * I[l + k];
      _mm256_store_ps(a, _mm256_add_ps(_mm256_load_ps(a), r[k]));
      record_zz[I[l + k]] += zz[l + k];
      float* b = record + kForceRecord * J[l + k];
      _mm256_store_ps(b, _mm256_add_ps(_mm256_load_ps(b), _mm256_xor_ps(r[k], flip_force)));
      record_zz[J[l + k]] += zz[l + k];
    }
  }
#endif
  for (; l < end; ++l) {
    const size_t o = l - begin;
    const float v[8] = {fx[o], fy[o], fz[o], xx[l], xy[l], xz[l], yy[l], yz[l]};
    float* a = record + kForceRecord * I[l];
    float* b = record + kForceRecord * J[l];
    for (int k = 0; k < 8; ++k) a[k] += v[k];
    record_zz[I[l]] += zz[l];
    for (int k = 0; k < 8; ++k) b[k] += k < 3 ? -v[k] : v[k];
    record_zz[J[l]] += zz[l];
  }
}

// Links [begin, end): c_i (block-relative cix, ciy, ciz) onto the first vertex, c_j onto the second. With AVX2
// coupling_pass_simd adds whole groups of 8 itself (add_coupling_records); this takes the tail, or everything
// on other CPUs.
inline void scatter_coupling(size_t begin, size_t end, const uint32_t* __restrict I, const uint32_t* __restrict J,
                             const float* cix, const float* ciy, const float* ciz, const float* cjx, const float* cjy,
                             const float* cjz, float* __restrict record) {
  for (size_t l = begin; l < end; ++l) {
    const size_t o = l - begin;
    float* a = record + kCouplingRecord * I[l];
    float* b = record + kCouplingRecord * J[l];
    a[0] += cix[o]; a[1] += ciy[o]; a[2] += ciz[o];
    b[0] += cjx[o]; b[1] += cjy[o]; b[2] += cjz[o];
  }
}

}  // namespace weft
