#include <doctest/doctest.h>

#include <random>

#include "sim/cloth_model.h"
#include "sim/mesh_generators.h"
#include "sim/sliced_block_matrix.h"
#include "sim/vertex_colouring.h"

using namespace weft;

namespace {

// A block system on a mesh's links (edges and bending pairs): random symmetric off-diagonal blocks and
// diagonal blocks that dominate them (symmetric positive definite), a few fixed nodes.
struct BlockSystem {
  std::vector<std::array<uint32_t, 2>> links;
  std::vector<Sym3> diag, off;
  LinkBlocks off_columns;  // off as the matrix reads it
  std::vector<uint8_t> fixed;
  size_t n = 0;
};

Sym3 random_sym(std::mt19937& rng, float scale) {
  std::uniform_real_distribution<float> u(-scale, scale);
  return {u(rng), u(rng), u(rng), u(rng), u(rng), u(rng)};
}

BlockSystem make_system(const Mesh& mesh, unsigned seed) {
  const ClothModel model = build_cloth_model(mesh, {});
  BlockSystem s;
  s.n = model.vertex_count();
  s.links = model.link;
  std::mt19937 rng(seed);
  s.off.resize(s.links.size());
  for (Sym3& b : s.off) b = random_sym(rng, 1.f);
  s.off_columns.resize(s.links.size());
  for (size_t e = 0; e < s.links.size(); ++e) s.off_columns.add(e, s.off[e]);
  s.diag.assign(s.n, Sym3{});
  for (size_t i = 0; i < s.n; ++i) {
    s.diag[i] = random_sym(rng, 0.5f);
    s.diag[i].add_diagonal(40.f);  // > 3 * (sum of the row's off-diagonal magnitudes)
  }
  s.fixed.assign(s.n, 0);
  for (size_t i = 0; i < s.n; i += 37) s.fixed[i] = 1;
  return s;
}

std::vector<glm::vec3> random_vector(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<glm::vec3> v(n);
  for (auto& x : v) x = {u(rng), u(rng), u(rng)};
  return v;
}

// Node-order reference: y = A x with fixed rows zero (fixed columns count).
std::vector<glm::vec3> reference_product(const BlockSystem& s, const std::vector<glm::vec3>& x) {
  std::vector<glm::vec3> y(s.n);
  for (size_t i = 0; i < s.n; ++i) y[i] = s.diag[i] * x[i];
  for (size_t e = 0; e < s.links.size(); ++e) {
    const uint32_t i = s.links[e][0], j = s.links[e][1];
    y[i] += s.off[e] * x[j];
    y[j] += s.off[e] * x[i];
  }
  for (size_t i = 0; i < s.n; ++i)
    if (s.fixed[i]) y[i] = glm::vec3(0.f);
  return y;
}

// Node-order reference of one sweep of a matrix split in parts: Gauss-Seidel in colour order within a
// part, the other parts' values as they were before the sweep (from_zero: as 0).
void reference_part_sweep(const BlockSystem& s, const VertexColouring& c, const std::vector<uint32_t>& part,
                          const std::vector<glm::vec3>& b, std::vector<glm::vec3>& x, bool forward, bool from_zero) {
  const std::vector<glm::vec3> before = from_zero ? std::vector<glm::vec3>(s.n, glm::vec3(0.f)) : x;
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> nb(s.n);
  for (uint32_t e = 0; e < s.links.size(); ++e) {
    nb[s.links[e][0]].push_back({s.links[e][1], e});
    nb[s.links[e][1]].push_back({s.links[e][0], e});
  }
  if (from_zero) std::fill(x.begin(), x.end(), glm::vec3(0.f));
  const size_t colours = c.colour_count();
  for (size_t k = 0; k < colours; ++k) {
    const size_t col = forward ? k : colours - 1 - k;
    for (uint32_t q = c.colour_offset[col]; q < c.colour_offset[col + 1]; ++q) {
      const uint32_t i = c.order[q];
      if (s.fixed[i]) {
        x[i] = glm::vec3(0.f);
        continue;
      }
      glm::vec3 r = b[i];
      for (auto [j, e] : nb[i]) r -= s.off[e] * (part[j] == part[i] ? x[j] : before[j]);
      x[i] = s.diag[i].inverse() * r;
    }
  }
}

// Node-order reference of one block Gauss-Seidel sweep in colour order (fixed rows stay 0).
void reference_sweep(const BlockSystem& s, const VertexColouring& c, const std::vector<glm::vec3>& b,
                     std::vector<glm::vec3>& x, bool forward) {
  reference_part_sweep(s, c, std::vector<uint32_t>(s.n, 0), b, x, forward, false);
}

double max_difference(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
  double d = 0;
  for (size_t i = 0; i < a.size(); ++i) d = std::max(d, double(glm::length(a[i] - b[i])));
  return d;
}

}  // namespace

TEST_CASE("sliced block matrix: rows of a colour share no link, every link is stored twice, padding is bounded") {
  for (const Mesh& mesh : {make_grid({.columns = 30, .rows = 30}), make_irregular({.columns = 23, .rows = 17, .seed = 7})}) {
    const BlockSystem s = make_system(mesh, 1);
    const SlicedBlockMatrix A(uint32_t(s.n), s.links);
    CHECK(A.node_count() == s.n);
    CHECK(A.slot_count() % SlicedBlockMatrix::kLanes == 0);
    for (uint32_t i = 0; i < s.n; ++i) CHECK(A.node(A.slot(i)) == i);
    // padding entries: at most a third more than the 2 entries per link the matrix needs
    MESSAGE("stored entries " << A.stored_entries() << " for " << 2 * s.links.size() << ", colours " << A.colour_count());
    CHECK(A.stored_entries() >= 2 * s.links.size());
    CHECK(A.stored_entries() <= 2 * s.links.size() * 4 / 3);
  }
}

TEST_CASE("sliced block matrix: product, residual and sweeps equal their node-order references") {
  for (const Mesh& mesh : {make_grid({.columns = 30, .rows = 30}), make_irregular({.columns = 23, .rows = 17, .seed = 7})}) {
    const BlockSystem s = make_system(mesh, 2);
    SlicedBlockMatrix A(uint32_t(s.n), s.links);
    A.fill(s.diag.data(), {.blocks = &s.off_columns}, s.fixed.data());
    const VertexColouring colouring = colour_vertices(s.n, s.links);
    const std::vector<glm::vec3> x = random_vector(s.n, 3), b = random_vector(s.n, 4);
    SlotVector xs(4 * A.slot_count()), bs(4 * A.slot_count()), ys(4 * A.slot_count()), rs(4 * A.slot_count());
    A.to_slots(x.data(), xs.data());
    A.to_slots(b.data(), bs.data());
    std::vector<glm::vec3> y(s.n), ref_y = reference_product(s, x);

    A.multiply(xs.data(), ys.data());
    A.from_slots(ys.data(), y.data());
    CHECK(max_difference(y, ref_y) < 1e-4);
    for (uint32_t slot = 0; slot < A.slot_count(); ++slot)  // padding rows and the 4th float stay 0
      if (A.node(slot) == SlicedBlockMatrix::kPad) CHECK(ys[4 * slot] == 0.f);
    for (size_t k = 3; k < ys.size(); k += 4) CHECK(ys[k] == 0.f);

    A.residual(bs.data(), xs.data(), rs.data());
    A.from_slots(rs.data(), y.data());
    std::vector<glm::vec3> ref_r(s.n);
    for (size_t i = 0; i < s.n; ++i) ref_r[i] = b[i] - ref_y[i];
    CHECK(max_difference(y, ref_r) < 1e-4);

    // the forward sweep from zero, its residual, then a backward and a forward sweep
    std::vector<glm::vec3> ref_x(s.n, glm::vec3(0.f)), got(s.n);
    reference_sweep(s, colouring, b, ref_x, true);
    A.sweep_from_zero(bs.data(), xs.data(), rs.data());
    A.from_slots(xs.data(), got.data());
    CHECK(max_difference(got, ref_x) < 1e-5);
    const std::vector<glm::vec3> ax = reference_product(s, ref_x);
    A.from_slots(rs.data(), got.data());
    for (size_t i = 0; i < s.n; ++i) ref_r[i] = s.fixed[i] ? glm::vec3(0.f) : b[i] - ax[i];
    CHECK(max_difference(got, ref_r) < 1e-4);
    for (bool forward : {false, true}) {
      reference_sweep(s, colouring, b, ref_x, forward);
      A.sweep(bs.data(), xs.data(), forward);
      A.from_slots(xs.data(), got.data());
      CHECK(max_difference(got, ref_x) < 1e-5);
    }
    for (size_t i = 0; i < s.n; ++i)
      if (s.fixed[i]) CHECK(got[i] == glm::vec3(0.f));
  }
}

TEST_CASE("sliced block matrix: repeated symmetric sweeps solve the system") {
  const BlockSystem s = make_system(make_irregular({.columns = 23, .rows = 17, .seed = 7}), 5);
  SlicedBlockMatrix A(uint32_t(s.n), s.links);
  A.fill(s.diag.data(), {.blocks = &s.off_columns}, s.fixed.data());
  const std::vector<glm::vec3> b = random_vector(s.n, 6);
  SlotVector bs(4 * A.slot_count()), xs(4 * A.slot_count()), rs(4 * A.slot_count());
  A.to_slots(b.data(), bs.data());
  A.sweep_from_zero(bs.data(), xs.data(), nullptr);
  for (int k = 0; k < 20; ++k) {
    A.sweep(bs.data(), xs.data(), false);
    A.sweep(bs.data(), xs.data(), true);
  }
  A.residual(bs.data(), xs.data(), rs.data());
  double r2 = 0, b2 = 0;
  for (uint32_t slot = 0; slot < A.slot_count(); ++slot) {
    const uint32_t i = A.node(slot);
    if (i == SlicedBlockMatrix::kPad || s.fixed[i]) continue;
    for (int c = 0; c < 3; ++c) r2 += double(rs[4 * slot + c]) * rs[4 * slot + c];
    b2 += glm::dot(b[i], b[i]);
  }
  CHECK(std::sqrt(r2 / b2) < 1e-5);
}

TEST_CASE("sliced block matrix: off-diagonal blocks read scaled and shifted, as W_ij = -h^2 J_ij - h C_d I") {
  BlockSystem s = make_system(make_irregular({.columns = 23, .rows = 17, .seed = 7}), 8);
  SlicedBlockMatrix A(uint32_t(s.n), s.links);
  const float scale = -0.7f, shift = 0.25f;
  A.fill(s.diag.data(), {.blocks = &s.off_columns, .scale = scale, .shift = shift}, s.fixed.data());
  for (Sym3& b : s.off) {
    b = scale * b;
    b.add_diagonal(shift);
  }
  const std::vector<glm::vec3> x = random_vector(s.n, 9);
  SlotVector xs(4 * A.slot_count()), ys(4 * A.slot_count());
  A.to_slots(x.data(), xs.data());
  A.multiply(xs.data(), ys.data());
  std::vector<glm::vec3> y(s.n);
  A.from_slots(ys.data(), y.data());
  CHECK(max_difference(y, reference_product(s, x)) < 1e-4);
}

namespace {

// The part of each node, read back from the matrix's part ranges.
std::vector<uint32_t> parts_of(const SlicedBlockMatrix& A) {
  std::vector<uint32_t> part(A.node_count(), UINT32_MAX);
  for (uint32_t c = 0; c < A.colour_count(); ++c)
    for (uint32_t p = 0; p < A.part_count(); ++p) {
      const auto [first, last] = A.part_slices(c, p);
      for (uint32_t slot = first * SlicedBlockMatrix::kLanes; slot < last * SlicedBlockMatrix::kLanes; ++slot)
        if (A.node(slot) != SlicedBlockMatrix::kPad) part[A.node(slot)] = p;
    }
  return part;
}

}  // namespace

TEST_CASE("sliced block matrix in two parts: balanced regions, ghost slots, and Jacobi between the parts") {
  for (const Mesh& mesh : {make_grid({.columns = 30, .rows = 30}), make_irregular({.columns = 23, .rows = 17, .seed = 7})}) {
    const BlockSystem s = make_system(mesh, 11);
    SlicedBlockMatrix A(uint32_t(s.n), s.links, 2);
    REQUIRE(A.part_count() == 2);
    for (uint32_t i = 0; i < s.n; ++i) CHECK(A.node(A.slot(i)) == i);
    // the part ranges tile the slices in ascending order; each colour's rows split evenly
    uint32_t next = 0;
    const VertexColouring colouring = colour_vertices(s.n, s.links);
    for (uint32_t c = 0; c < A.colour_count(); ++c) {
      uint32_t rows[2] = {};
      for (uint32_t p = 0; p < 2; ++p) {
        const auto [first, last] = A.part_slices(c, p);
        CHECK(first == next);
        next = last;
        for (uint32_t slot = first * SlicedBlockMatrix::kLanes; slot < last * SlicedBlockMatrix::kLanes; ++slot)
          rows[p] += A.node(slot) != SlicedBlockMatrix::kPad ? 1 : 0;
      }
      CHECK(rows[0] + rows[1] == colouring.colour_offset[c + 1] - colouring.colour_offset[c]);
      CHECK(int(rows[0]) - int(rows[1]) <= 1);
      CHECK(int(rows[1]) - int(rows[0]) <= 1);
    }
    CHECK(next == A.slice_count());
    CHECK(A.part_slices(0, 2)[0] == A.part_slices(0, 2)[1]);  // no third part: empty
    // each part is one region: few links cross between them
    const std::vector<uint32_t> part = parts_of(A);
    size_t crossing = 0;
    for (const auto& l : s.links) crossing += part[l[0]] != part[l[1]] ? 1 : 0;
    MESSAGE("links between the parts: " << crossing << " of " << s.links.size());
    CHECK(crossing * 8 < s.links.size());

    A.fill(s.diag.data(), {.blocks = &s.off_columns}, s.fixed.data());
    const std::vector<glm::vec3> x = random_vector(s.n, 12), b = random_vector(s.n, 13);
    SlotVector xs(4 * A.slot_count()), bs(4 * A.slot_count()), ys(4 * A.slot_count()), rs(4 * A.slot_count());
    A.to_slots(x.data(), xs.data());
    A.to_slots(b.data(), bs.data());
    std::vector<glm::vec3> got(s.n);
    // the product reads the other part through the ghost slots: right once they are published
    A.publish_ghosts(xs.data());
    A.multiply(xs.data(), ys.data());
    A.from_slots(ys.data(), got.data());
    CHECK(max_difference(got, reference_product(s, x)) < 1e-4);
    // part by part, the range forms give the same bits
    SlotVector ys2(4 * A.slot_count(), 0.f);
    for (uint32_t p = 0; p < 2; ++p)
      for (uint32_t c = 0; c < A.colour_count(); ++c) {
        const auto [first, last] = A.part_slices(c, p);
        A.multiply(xs.data(), ys2.data(), first, last);
      }
    A.clear_zero_slice(ys2.data());
    for (uint32_t slot = 0; slot <= A.slice_count() * SlicedBlockMatrix::kLanes; ++slot)
      for (int k = 0; k < 4; ++k) REQUIRE(ys2[4 * slot + k] == ys[4 * slot + k]);

    // sweeps: Gauss-Seidel within a part, Jacobi between the two
    std::vector<glm::vec3> ref_x(s.n);
    reference_part_sweep(s, colouring, part, b, ref_x, true, true);
    A.sweep_from_zero(bs.data(), xs.data(), rs.data());
    A.from_slots(xs.data(), got.data());
    CHECK(max_difference(got, ref_x) < 1e-5);
    const std::vector<glm::vec3> ax = reference_product(s, ref_x);
    std::vector<glm::vec3> ref_r(s.n);
    for (size_t i = 0; i < s.n; ++i) ref_r[i] = s.fixed[i] ? glm::vec3(0.f) : b[i] - ax[i];
    A.from_slots(rs.data(), got.data());
    CHECK(max_difference(got, ref_r) < 1e-4);
    for (bool forward : {false, true}) {
      reference_part_sweep(s, colouring, part, b, ref_x, forward, false);
      A.sweep(bs.data(), xs.data(), forward);
      A.from_slots(xs.data(), got.data());
      CHECK(max_difference(got, ref_x) < 1e-5);
    }
    // and repeated symmetric sweeps still solve the system
    for (int k = 0; k < 30; ++k) {
      A.sweep(bs.data(), xs.data(), false);
      A.sweep(bs.data(), xs.data(), true);
    }
    A.publish_ghosts(xs.data());
    A.residual(bs.data(), xs.data(), rs.data());
    double r2 = 0, b2 = 0;
    for (uint32_t i = 0; i < s.n; ++i) {
      if (s.fixed[i]) continue;
      const float* r = rs.data() + 4 * A.slot(i);
      r2 += double(r[0]) * r[0] + double(r[1]) * r[1] + double(r[2]) * r[2];
      b2 += glm::dot(b[i], b[i]);
    }
    CHECK(std::sqrt(r2 / b2) < 1e-5);
  }
}
