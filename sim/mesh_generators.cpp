#include "sim/mesh_generators.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace weft {
namespace {

void add_quad_triangles(Mesh& mesh, uint32_t columns, uint32_t rows, auto&& flip_quad) {
  const uint32_t stride = columns + 1;
  mesh.triangles.reserve(size_t(columns) * rows * 2);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < columns; ++c) {
      const uint32_t a = r * stride + c, b = a + 1, d = a + stride, e = d + 1;
      if (flip_quad(c, r)) {
        mesh.triangles.push_back({a, b, d});
        mesh.triangles.push_back({b, e, d});
      } else {
        mesh.triangles.push_back({a, b, e});
        mesh.triangles.push_back({a, e, d});
      }
    }
  }
}

// Cumulative coordinates of a geometrically graded 1D subdivision of [0, length].
std::vector<float> graded_coordinates(float length, uint32_t n, float grading) {
  std::vector<float> x(n + 1, 0.f);
  const float q = n > 1 ? std::pow(grading, 1.f / float(n - 1)) : 1.f;
  float step = 1.f, total = 0.f;
  std::vector<float> steps(n);
  for (uint32_t i = 0; i < n; ++i) { steps[i] = step; total += step; step *= q; }
  for (uint32_t i = 0; i < n; ++i) x[i + 1] = x[i] + steps[i] * length / total;
  x[n] = length;
  return x;
}

}  // namespace

Mesh make_grid(const GridSpec& spec) {
  Mesh mesh;
  const uint32_t nx = spec.columns + 1, ny = spec.rows + 1;
  mesh.positions.reserve(size_t(nx) * ny);
  mesh.material.reserve(size_t(nx) * ny);
  for (uint32_t r = 0; r < ny; ++r)
    for (uint32_t c = 0; c < nx; ++c) {
      const glm::vec2 m(spec.width * float(c) / float(spec.columns), spec.height * float(r) / float(spec.rows));
      mesh.material.push_back(m);
      mesh.positions.emplace_back(m, 0.f);
    }
  add_quad_triangles(mesh, spec.columns, spec.rows,
                     [&](uint32_t c, uint32_t r) { return spec.alternate_diagonals && ((c + r) & 1u); });
  return mesh;
}

Mesh make_irregular(const IrregularSpec& spec) {
  Mesh mesh;
  const auto xs = graded_coordinates(spec.width, spec.columns, spec.grading);
  const auto ys = graded_coordinates(spec.height, spec.rows, spec.grading);
  std::mt19937 rng(spec.seed);
  std::uniform_real_distribution<float> unit(-1.f, 1.f);
  const uint32_t nx = spec.columns + 1, ny = spec.rows + 1;
  for (uint32_t r = 0; r < ny; ++r)
    for (uint32_t c = 0; c < nx; ++c) {
      glm::vec2 p(xs[c], ys[r]);
      const bool interior = c > 0 && c < spec.columns && r > 0 && r < spec.rows;
      if (interior) {
        const float dx = std::min(xs[c] - xs[c - 1], xs[c + 1] - xs[c]);
        const float dy = std::min(ys[r] - ys[r - 1], ys[r + 1] - ys[r]);
        p += glm::vec2(unit(rng) * spec.jitter * dx, unit(rng) * spec.jitter * dy);
      }
      mesh.material.push_back(p);
      mesh.positions.emplace_back(p, 0.f);
    }
  std::bernoulli_distribution coin(0.5);
  add_quad_triangles(mesh, spec.columns, spec.rows, [&](uint32_t, uint32_t) { return coin(rng); });
  return mesh;
}

Mesh make_cone_panel(const ConePanelSpec& spec) {
  Mesh mesh = make_irregular(spec.sheet);
  const float w = spec.sheet.width, h = spec.sheet.height;
  const float rb = spec.bottom_radius, rt = spec.top_radius, dr = rb - rt;
  // The pattern is the cone developed flat (an annular sector): a point at radius r lies at r k from the
  // apex, k the slant length per unit of radius, and the cone's angle theta becomes theta / k.
  const bool cylinder = std::abs(dr) < 1e-6f * rb;
  const float k = cylinder ? 1.f : std::sqrt(h * h + dr * dr) / dr;
  for (size_t i = 0; i < mesh.positions.size(); ++i) {
    const glm::vec2 p = mesh.material[i];
    const float r = rb - dr * p.y / h;
    const float theta = (p.x - 0.5f * w) / rb;  // the sheet spans the cone's angle width / rb
    mesh.positions[i] = glm::vec3(r * std::sin(theta), p.y, r * std::cos(theta));
    mesh.material[i] = cylinder ? glm::vec2(0.5f * w + r * theta, p.y)
                                : glm::vec2(0.5f * w + r * k * std::sin(theta / k), (rb - r * std::cos(theta / k)) * k);
  }
  return mesh;
}

Mesh make_annulus(const AnnulusSpec& spec) {
  Mesh mesh;
  std::mt19937 rng(spec.seed);
  std::uniform_real_distribution<float> unit(-1.f, 1.f);
  constexpr float two_pi = 6.28318531f;
  const uint32_t rings = std::max(spec.rings, 1u);
  const float dr = (spec.outer_radius - spec.inner_radius) / float(rings);
  const glm::vec2 centre(spec.outer_radius);
  // Ring k: its first vertex, its count and its angular phase.
  std::vector<uint32_t> first(rings + 1), count(rings + 1);
  std::vector<float> phase(rings + 1);
  for (uint32_t k = 0; k <= rings; ++k) {
    const float r = spec.inner_radius + dr * float(k);
    first[k] = uint32_t(mesh.positions.size());
    count[k] = r <= 0.f ? 1u : std::max(6u, uint32_t(std::lround(two_pi * r / spec.edge)));
    phase[k] = 0.5f * (unit(rng) + 1.f) * two_pi / float(count[k]);
    const bool interior = k > 0 && k < rings;
    for (uint32_t j = 0; j < count[k]; ++j) {
      float a = phase[k] + two_pi * float(j) / float(count[k]), rr = r;
      if (interior) {
        a += unit(rng) * spec.jitter * 0.5f * two_pi / float(count[k]);
        rr += unit(rng) * spec.jitter * 0.5f * dr;
      }
      const glm::vec2 p = r <= 0.f ? centre : centre + rr * glm::vec2(std::cos(a), std::sin(a));
      mesh.material.push_back(p);
      mesh.positions.emplace_back(p, 0.f);
    }
  }
  // Zip rings k and k + 1: walk both in angle order, each triangle advancing the one whose next vertex
  // comes first (counter-clockwise triangles, normals along +z).
  for (uint32_t k = 0; k < rings; ++k) {
    const uint32_t na = count[k], nb = count[k + 1];
    auto angle = [&](uint32_t ring, uint32_t j) {
      return phase[ring] + two_pi * float(j) / float(count[ring]);
    };
    if (na == 1) {  // a disc's centre: a fan
      for (uint32_t j = 0; j < nb; ++j)
        mesh.triangles.push_back({first[k], first[k + 1] + j, first[k + 1] + (j + 1) % nb});
      continue;
    }
    uint32_t i = 0, j = 0;
    // Start ring b at its vertex nearest in angle after ring a's first.
    const float start = angle(k, 0);
    uint32_t j0 = 0;
    while (j0 < nb && angle(k + 1, j0) < start) ++j0;
    j0 %= nb;
    while (i < na || j < nb) {
      const uint32_t a0 = first[k] + i % na, a1 = first[k] + (i + 1) % na;
      const uint32_t b0 = first[k + 1] + (j0 + j) % nb, b1 = first[k + 1] + (j0 + j + 1) % nb;
      const float next_a = i < na ? angle(k, i + 1) : 1e9f;
      const float next_b = j < nb ? angle(k + 1, j0 + j + 1) : 1e9f;  // past 2 pi the angles keep growing
      if (next_a <= next_b) {
        mesh.triangles.push_back({a0, b0, a1});
        ++i;
      } else {
        mesh.triangles.push_back({a0, b0, b1});
        ++j;
      }
    }
  }
  return mesh;
}

Mesh make_strip(const StripSpec& spec) {
  Mesh mesh;
  std::mt19937 rng(spec.seed);
  std::uniform_real_distribution<float> unit(-1.f, 1.f);
  // Cross-sections at x_k: each step is the local edge, edge_start (edge_end / edge_start)^(x / length).
  std::vector<float> xs{0.f};
  const float growth = std::log(spec.edge_end / spec.edge_start) / spec.length;
  while (xs.back() < spec.length) xs.push_back(xs.back() + spec.edge_start * std::exp(growth * xs.back()));
  // Stretch the steps so the last cross-section lands on the end.
  const float fit = spec.length / xs.back();
  for (float& x : xs) x *= fit;
  const uint32_t sections = uint32_t(xs.size());
  std::vector<uint32_t> first(sections), count(sections);
  for (uint32_t k = 0; k < sections; ++k) {
    const float local = spec.edge_start * std::exp(growth * xs[k]);
    first[k] = uint32_t(mesh.positions.size());
    count[k] = std::max(2u, uint32_t(std::lround(spec.width / local)) + 1);
    const float dx = local * fit, dy = spec.width / float(count[k] - 1);
    for (uint32_t j = 0; j < count[k]; ++j) {
      glm::vec2 p(xs[k], dy * float(j));
      if (k > 0 && k + 1 < sections && j > 0 && j + 1 < count[k])
        p += 0.5f * spec.jitter * glm::vec2(unit(rng) * dx, unit(rng) * dy);
      mesh.material.push_back(p);
      mesh.positions.emplace_back(p, 0.f);
    }
  }
  // Zip sections k and k + 1 up the width: each triangle advances the one whose next vertex comes first
  // (nominal heights; counter-clockwise triangles, normals along +z).
  for (uint32_t k = 0; k + 1 < sections; ++k) {
    const uint32_t na = count[k], nb = count[k + 1];
    uint32_t i = 0, j = 0;
    while (i + 1 < na || j + 1 < nb) {
      const float next_a = i + 1 < na ? float(i + 1) / float(na - 1) : 2.f;
      const float next_b = j + 1 < nb ? float(j + 1) / float(nb - 1) : 2.f;
      if (next_a <= next_b) {
        mesh.triangles.push_back({first[k] + i, first[k + 1] + j, first[k] + i + 1});
        ++i;
      } else {
        mesh.triangles.push_back({first[k] + i, first[k + 1] + j, first[k + 1] + j + 1});
        ++j;
      }
    }
  }
  return mesh;
}

void transform_mesh(Mesh& mesh, const glm::mat4& transform) {
  for (auto& p : mesh.positions) p = glm::vec3(transform * glm::vec4(p, 1.f));
}

Mesh make_folded_over(const FoldedOverSpec& spec) {
  Mesh mesh = make_grid(spec.grid);
  const float hinge = 0.5f * spec.grid.width, cell = spec.grid.width / float(spec.grid.columns);
  constexpr float two_pi = 6.28318531f;
  for (auto& p : mesh.positions) {
    if (p.x <= hinge + 1e-6f * cell) continue;
    const float ramp = std::min((p.x - hinge) / cell, 1.f);  // 0 at the fold, 1 from the next column on
    const float z = spec.gap + spec.amplitude * std::sin(two_pi * spec.waves * p.y / spec.grid.height);
    p = glm::vec3(2.f * hinge - p.x, p.y, ramp * z);
  }
  return mesh;
}

}  // namespace weft
