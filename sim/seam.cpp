#include "sim/seam.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace weft {

void SeamSet::add(uint32_t va, uint32_t vb, uint32_t vc, float wc) {
  a.push_back(va);
  b.push_back(vb);
  c.push_back(vc);
  w.push_back(vb == vc ? 0.f : wc);
  sewn.push_back(0);
}

float seam_gap_max(const SeamSet& seams, const glm::vec3* x) {
  float worst = 0.f;
  for (size_t k = 0; k < seams.size(); ++k) worst = std::max(worst, glm::length(seam_gap(seams, k, x)));
  return worst;
}

void apply_seams(SeamSet& seams, const float* inv_mass, uint8_t* kinematic, glm::vec3* kinematic_velocity, glm::vec3* x,
                 glm::vec3* v, float h, const glm::vec3& gravity, const ElasticParams& params, float sew_gap,
                 std::vector<uint32_t>& driven, const float* piece_mass) {
  const float rate = -std::expm1(-h / params.tau) / h;
  const size_t first_driven = driven.size();
  for (size_t k = 0; k < seams.size(); ++k) {
    const uint32_t a = seams.a[k], b = seams.b[k], c = seams.c[k];
    const float wc = seams.w[k], wb = 1.f - wc;
    // The constraint g = x_a - wb x_b - wc x_c has gradients (1, -wb, -wc): a change that keeps the
    // momentum moves each vertex by its inverse mass times its gradient (position-based dynamics).
    const float ia = kinematic[a] ? 0.f : inv_mass[a];
    const float ib = kinematic[b] ? 0.f : inv_mass[b];
    const float ic = b == c || kinematic[c] ? 0.f : inv_mass[c];
    const float denom = ia + wb * wb * ib + wc * wc * ic;
    if (!(denom > 0.f)) continue;  // every vertex held: the hands decide
    const glm::vec3 gap = x[a] - (wb * x[b] + wc * x[c]);
    if (!seams.sewn[k] && glm::length(gap) < sew_gap) seams.sewn[k] = 1;
    glm::vec3 target_rate(0.f);  // the velocity of the gap after the correction
    float ja = ia, jb = ib, jc = ic, jdenom = denom;  // the open pair's weights: the heavier piece may stay
    if (!seams.sewn[k] && piece_mass) {
      const float ma = piece_mass[a], mb = std::max(piece_mass[b], piece_mass[c]);
      if (ma > kSeamAnchorRatio * mb && ib + ic > 0.f) ja = 0.f;
      else if (mb > kSeamAnchorRatio * ma && ia > 0.f) jb = jc = 0.f;
      jdenom = ja + wb * wb * jb + wc * wc * jc;
    }
    if (seams.sewn[k]) {
      const glm::vec3 s = gap / denom;
      x[a] -= ia * s;
      x[b] += wb * ib * s;
      if (b != c) x[c] += wc * ic * s;
    } else {
      target_rate = cap_speed(-rate * gap, params.max_speed);
    }
    const glm::vec3 gap_rate = v[a] - (wb * v[b] + wc * v[c]);
    const glm::vec3 s = (gap_rate - target_rate) / jdenom;
    v[a] -= ja * s;
    v[b] += wb * jb * s;
    if (b != c) v[c] += wc * jc * s;
  }
  // Then the open pairs' free vertices are driven (after every correction: a vertex in several pairs is
  // corrected by each, as a free one).
  for (size_t k = 0; k < seams.size(); ++k) {
    if (seams.sewn[k]) continue;
    for (uint32_t i : {seams.a[k], seams.b[k], seams.c[k]}) {
      if (kinematic[i] || driven.size() == driven.capacity()) continue;  // held, or driven by an earlier pair
      kinematic[i] = 1;
      driven.push_back(i);
    }
  }
  // The driven vertices move at their corrected velocity through the step, falling with the cloth.
  for (size_t d = first_driven; d < driven.size(); ++d) {
    const uint32_t i = driven[d];
    kinematic_velocity[i] = v[i] + h * gravity;
    v[i] = kinematic_velocity[i];
  }
}

void piece_masses(size_t nvert, const std::vector<std::array<uint32_t, 2>>& edges, const float* mass,
                  const uint8_t* pinned, std::vector<float>& out) {
  std::vector<uint32_t> root(nvert);
  std::iota(root.begin(), root.end(), 0u);
  auto find = [&](uint32_t i) {
    while (root[i] != i) i = root[i] = root[root[i]];
    return i;
  };
  for (const auto& e : edges)
    if (e[0] < nvert && e[1] < nvert) root[find(e[0])] = find(e[1]);
  std::vector<float> sum(nvert, 0.f);
  for (uint32_t i = 0; i < nvert; ++i)
    sum[find(i)] += pinned && pinned[i] ? std::numeric_limits<float>::infinity() : mass[i];
  out.resize(nvert);
  for (uint32_t i = 0; i < nvert; ++i) out[i] = sum[find(i)];
}

void close_sewn_seams(const SeamSet& seams, const float* inv_mass, const uint8_t* kinematic, glm::vec3* x,
                      glm::vec3* v) {
  for (size_t k = 0; k < seams.size(); ++k) {
    if (!seams.sewn[k]) continue;
    const uint32_t a = seams.a[k], b = seams.b[k], c = seams.c[k];
    const float wc = seams.w[k], wb = 1.f - wc;
    const float ia = kinematic[a] ? 0.f : inv_mass[a];
    const float ib = kinematic[b] ? 0.f : inv_mass[b];
    const float ic = b == c ? 0.f : kinematic[c] ? 0.f : inv_mass[c];
    const float denom = ia + wb * wb * ib + wc * wc * ic;
    if (!(denom > 0.f)) continue;
    const glm::vec3 s = (x[a] - (wb * x[b] + wc * x[c])) / denom;
    x[a] -= ia * s;
    x[b] += wb * ib * s;
    if (b != c) x[c] += wc * ic * s;
    const glm::vec3 sv = (v[a] - (wb * v[b] + wc * v[c])) / denom;
    v[a] -= ia * sv;
    v[b] += wb * ib * sv;
    if (b != c) v[c] += wc * ic * sv;
  }
}

}  // namespace weft
