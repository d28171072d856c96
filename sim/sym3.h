#pragma once
// Symmetric 3x3 matrices: the Jacobian blocks of the solver (Kang & Cho section 6.1 store only the
// upper triangle since every block of W and J is symmetric).
#include <algorithm>
#include <vector>

#include <glm/glm.hpp>

namespace weft {

struct Sym3 {
  float xx = 0, xy = 0, xz = 0, yy = 0, yz = 0, zz = 0;

  static Sym3 identity(float s = 1.f) { return {s, 0, 0, s, 0, s}; }
  // u u^T scaled by s
  static Sym3 outer(const glm::vec3& u, float s = 1.f) {
    return {s * u.x * u.x, s * u.x * u.y, s * u.x * u.z, s * u.y * u.y, s * u.y * u.z, s * u.z * u.z};
  }
  // (a b^T + b a^T) / 2 scaled by s: the symmetric part of an outer product
  static Sym3 sym_outer(const glm::vec3& a, const glm::vec3& b, float s = 1.f) {
    return {s * a.x * b.x, 0.5f * s * (a.x * b.y + a.y * b.x), 0.5f * s * (a.x * b.z + a.z * b.x), s * a.y * b.y,
            0.5f * s * (a.y * b.z + a.z * b.y), s * a.z * b.z};
  }
  glm::vec3 operator*(const glm::vec3& v) const {
    return {xx * v.x + xy * v.y + xz * v.z, xy * v.x + yy * v.y + yz * v.z, xz * v.x + yz * v.y + zz * v.z};
  }
  Sym3& operator+=(const Sym3& o) {
    xx += o.xx; xy += o.xy; xz += o.xz; yy += o.yy; yz += o.yz; zz += o.zz;
    return *this;
  }
  Sym3& operator-=(const Sym3& o) {
    xx -= o.xx; xy -= o.xy; xz -= o.xz; yy -= o.yy; yz -= o.yz; zz -= o.zz;
    return *this;
  }
  friend Sym3 operator+(Sym3 a, const Sym3& b) { return a += b; }
  friend Sym3 operator-(Sym3 a, const Sym3& b) { return a -= b; }
  friend Sym3 operator*(float s, const Sym3& a) {
    return {s * a.xx, s * a.xy, s * a.xz, s * a.yy, s * a.yz, s * a.zz};
  }
  void add_diagonal(float s) { xx += s; yy += s; zz += s; }
  float determinant() const {
    return xx * (yy * zz - yz * yz) - xy * (xy * zz - yz * xz) + xz * (xy * yz - yy * xz);
  }
  // Inverse by cofactors; the caller guarantees the matrix is well conditioned (W_i = M_i - h^2 J_ii
  // is positive definite because the stabilised J_ii is negative semi-definite).
  Sym3 inverse() const {
    const float c_xx = yy * zz - yz * yz;
    const float c_xy = xz * yz - xy * zz;
    const float c_xz = xy * yz - xz * yy;
    const float det = xx * c_xx + xy * c_xy + xz * c_xz;
    const float inv = 1.f / det;
    return {c_xx * inv, c_xy * inv, c_xz * inv, (xx * zz - xz * xz) * inv, (xz * xy - xx * yz) * inv,
            (xx * yy - xy * xy) * inv};
  }
  glm::mat3 to_mat3() const { return glm::mat3(xx, xy, xz, xy, yy, yz, xz, yz, zz); }
};

// One symmetric 3x3 block per link, component by component (nlink each).
struct LinkBlocks {
  std::vector<float> xx, xy, xz, yy, yz, zz;
  void resize(size_t n) { for (auto* v : {&xx, &xy, &xz, &yy, &yz, &zz}) v->resize(n); }
  void clear() { for (auto* v : {&xx, &xy, &xz, &yy, &yz, &zz}) std::fill(v->begin(), v->end(), 0.f); }
  Sym3 get(size_t l) const { return {xx[l], xy[l], xz[l], yy[l], yz[l], zz[l]}; }
  void add(size_t l, const Sym3& a) {
    xx[l] += a.xx, xy[l] += a.xy, xz[l] += a.xz, yy[l] += a.yy, yz[l] += a.yz, zz[l] += a.zz;
  }
};

// Link blocks read as scale * B_l + shift * I: the implicit matrix's off-diagonal blocks straight from
// the force Jacobian (W_ij = -h^2 J_ij - h C_d I), without a copy.
struct ScaledLinkBlocks {
  const LinkBlocks* blocks = nullptr;
  float scale = 1.f, shift = 0.f;
  Sym3 get(size_t l) const {
    Sym3 a = scale * blocks->get(l);
    a.add_diagonal(shift);
    return a;
  }
};

}  // namespace weft
