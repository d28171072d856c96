#include "sim/sliced_block_matrix.h"

#include <algorithm>
#include <cstring>

#include "sim/vertex_colouring.h"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#define WEFT_SLICED_SIMD 1
#endif

namespace weft {
namespace {

constexpr uint32_t L = SlicedBlockMatrix::kLanes;
constexpr size_t kBlock = 6 * L;  // floats of one entry row or one slice's diagonal

void store_block(float* dst, uint32_t lane, const Sym3& a) {
  dst[0 * L + lane] = a.xx;
  dst[1 * L + lane] = a.xy;
  dst[2 * L + lane] = a.xz;
  dst[3 * L + lane] = a.yy;
  dst[4 * L + lane] = a.yz;
  dst[5 * L + lane] = a.zz;
}

#if WEFT_SLICED_SIMD
// x, y, z of the 8 records at r[0..7] (16-byte aligned), lanes in order.
inline void load_records(const float* const r[L], __m256& x, __m256& y, __m256& z) {
  __m256 q[4];
  for (int k = 0; k < 4; ++k)
    q[k] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_load_ps(r[k])), _mm_load_ps(r[k + 4]), 1);
  const __m256 t0 = _mm256_unpacklo_ps(q[0], q[1]);  // x0 x1 y0 y1 | x4 x5 y4 y5
  const __m256 t1 = _mm256_unpackhi_ps(q[0], q[1]);  // z0 z1 w0 w1 | ...
  const __m256 t2 = _mm256_unpacklo_ps(q[2], q[3]);
  const __m256 t3 = _mm256_unpackhi_ps(q[2], q[3]);
  x = _mm256_shuffle_ps(t0, t2, 0x44);
  y = _mm256_shuffle_ps(t0, t2, 0xEE);
  z = _mm256_shuffle_ps(t1, t3, 0x44);
}

// The 8 consecutive records of one slice.
inline void load_slice(const float* r, __m256& x, __m256& y, __m256& z) {
  const float* p[L] = {r, r + 4, r + 8, r + 12, r + 16, r + 20, r + 24, r + 28};
  load_records(p, x, y, z);
}

inline void store_slice(float* r, __m256 x, __m256 y, __m256 z) {
  const __m256 zero = _mm256_setzero_ps();
  const __m256 t0 = _mm256_unpacklo_ps(x, y);     // x0 y0 x1 y1 | x4 y4 x5 y5
  const __m256 t1 = _mm256_unpackhi_ps(x, y);     // x2 y2 x3 y3 | x6 y6 x7 y7
  const __m256 t2 = _mm256_unpacklo_ps(z, zero);  // z0 0 z1 0 | z4 0 z5 0
  const __m256 t3 = _mm256_unpackhi_ps(z, zero);
  const __m256 r0 = _mm256_shuffle_ps(t0, t2, 0x44);  // record 0 | record 4
  const __m256 r1 = _mm256_shuffle_ps(t0, t2, 0xEE);  // 1 | 5
  const __m256 r2 = _mm256_shuffle_ps(t1, t3, 0x44);  // 2 | 6
  const __m256 r3 = _mm256_shuffle_ps(t1, t3, 0xEE);  // 3 | 7
  _mm256_store_ps(r, _mm256_permute2f128_ps(r0, r1, 0x20));
  _mm256_store_ps(r + 8, _mm256_permute2f128_ps(r2, r3, 0x20));
  _mm256_store_ps(r + 16, _mm256_permute2f128_ps(r0, r1, 0x31));
  _mm256_store_ps(r + 24, _mm256_permute2f128_ps(r2, r3, 0x31));
}

// (ax, ay, az) += A (x, y, z), A one row of 8 symmetric blocks.
inline void add_product(const float* A, __m256 x, __m256 y, __m256 z, __m256& ax, __m256& ay, __m256& az) {
  const __m256 xx = _mm256_load_ps(A), xy = _mm256_load_ps(A + 8), xz = _mm256_load_ps(A + 16);
  const __m256 yy = _mm256_load_ps(A + 24), yz = _mm256_load_ps(A + 32), zz = _mm256_load_ps(A + 40);
  ax = _mm256_fmadd_ps(xx, x, _mm256_fmadd_ps(xy, y, _mm256_fmadd_ps(xz, z, ax)));
  ay = _mm256_fmadd_ps(xy, x, _mm256_fmadd_ps(yy, y, _mm256_fmadd_ps(yz, z, ay)));
  az = _mm256_fmadd_ps(xz, x, _mm256_fmadd_ps(yz, y, _mm256_fmadd_ps(zz, z, az)));
}
#endif

// Each node's position in a breadth-first order over the links, from a node far from the rest (the last
// one reached from node 0), piece after piece.
std::vector<uint32_t> breadth_first_rank(uint32_t n, const std::vector<uint32_t>& offset,
                                         const std::vector<std::array<uint32_t, 2>>& neighbour) {
  std::vector<uint32_t> order;
  std::vector<uint8_t> seen(n, 0);
  auto visit_from = [&](uint32_t start) {
    const size_t first = order.size();
    order.push_back(start);
    seen[start] = 1;
    for (size_t k = first; k < order.size(); ++k)
      for (uint32_t e = offset[order[k]]; e < offset[order[k] + 1]; ++e)
        if (!seen[neighbour[e][0]]) {
          seen[neighbour[e][0]] = 1;
          order.push_back(neighbour[e][0]);
        }
    return first;
  };
  for (uint32_t start = 0; start < n; ++start) {
    if (seen[start]) continue;
    const size_t first = visit_from(start);
    const uint32_t far = order.back();  // again from the far end of this piece
    for (size_t k = first; k < order.size(); ++k) seen[order[k]] = 0;
    order.resize(first);
    visit_from(far);
  }
  std::vector<uint32_t> rank(n);
  for (uint32_t k = 0; k < n; ++k) rank[order[k]] = k;
  return rank;
}

}  // namespace

SlicedBlockMatrix::SlicedBlockMatrix(uint32_t n, const std::vector<std::array<uint32_t, 2>>& links, uint32_t parts)
    : parts_(std::max(parts, 1u)) {
  const VertexColouring colouring = colour_vertices(n, links);
  colour_count_ = uint32_t(colouring.colour_count());
  // neighbours per node, with their link
  std::vector<uint32_t> offset(size_t(n) + 1, 0);
  for (const auto& l : links) ++offset[l[0] + 1], ++offset[l[1] + 1];
  for (uint32_t i = 0; i < n; ++i) offset[i + 1] += offset[i];
  std::vector<std::array<uint32_t, 2>> neighbour(2 * links.size());  // {node, link}
  std::vector<uint32_t> at(offset.begin(), offset.end() - 1);
  for (uint32_t e = 0; e < links.size(); ++e) {
    neighbour[at[links[e][0]]++] = {links[e][1], e};
    neighbour[at[links[e][1]]++] = {links[e][0], e};
  }
  // Parts: each colour's rows split into equal runs of a breadth-first order from a far node, so that
  // a part is one region of the mesh (its rows read the other part's values only along the border
  // between them) and every part has as many rows of each colour.
  std::vector<uint32_t> rank(n, 0), part_of(n, 0);
  if (parts_ > 1) rank = breadth_first_rank(n, offset, neighbour);
  std::vector<std::vector<uint32_t>> by_rank(colour_count_);
  for (uint32_t c = 0; c < colour_count_; ++c) {
    auto& rows = by_rank[c];
    rows.assign(colouring.order.begin() + colouring.colour_offset[c],
                colouring.order.begin() + colouring.colour_offset[c + 1]);
    std::sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) { return rank[a] < rank[b]; });
    for (uint32_t part = 0; part < parts_; ++part)
      for (size_t k = rows.size() * part / parts_; k < rows.size() * (part + 1) / parts_; ++k) part_of[rows[k]] = part;
  }
  // A row's entries in three groups: neighbours of a lower colour in its part, neighbours in another
  // part (read from ghost slots, below), neighbours of a higher colour in its part.
  enum Group { kLower, kCross, kUpper };
  auto group_of = [&](uint32_t i, uint32_t j) {
    if (part_of[j] != part_of[i]) return kCross;
    return colouring.colour[j] < colouring.colour[i] ? kLower : kUpper;
  };
  // slots: colour by colour, each colour part by part, each part padded to whole slices, then one zero
  // slice (the target of padding entries), then the ghost slots. Within a part, rows with the same
  // numbers of entries in each group go together (then by node index), so that a slice's rows need
  // about as many entries each: sorted by node index alone, the boundary rows padded an irregular mesh's
  // slices by 40 %.
  std::vector<std::array<uint32_t, 4>> key(n);  // {lower, cross, upper neighbours, node}
  for (uint32_t i = 0; i < n; ++i) {
    key[i] = {0, 0, 0, i};
    for (uint32_t k = offset[i]; k < offset[i + 1]; ++k)
      if (neighbour[k][0] != i) ++key[i][group_of(i, neighbour[k][0])];
  }
  slot_of_node_.assign(n, 0);
  part_slice_.push_back(0);
  for (uint32_t c = 0; c < colour_count_; ++c)
    for (uint32_t part = 0; part < parts_; ++part) {
      std::vector<std::array<uint32_t, 4>> rows;
      for (uint32_t i : by_rank[c])
        if (part_of[i] == part) rows.push_back(key[i]);
      std::sort(rows.begin(), rows.end());
      for (const auto& r : rows) {
        slot_of_node_[r[3]] = uint32_t(node_of_slot_.size());
        node_of_slot_.push_back(r[3]);
      }
      while (node_of_slot_.size() % L) node_of_slot_.push_back(kPad);
      part_slice_.push_back(uint32_t(node_of_slot_.size() / L));
    }
  const uint32_t zero_record = 4 * uint32_t(node_of_slot_.size());
  node_of_slot_.insert(node_of_slot_.end(), L, kPad);
  const uint32_t slices = uint32_t(node_of_slot_.size()) / L - 1;  // the zero slice is never swept

  // Ghost slots: for each part, a copy of every other-part value its rows read, in a block of its own
  // (whole slices, so that two blocks never share a cache line); the part that owns the value writes
  // the copy (publish_ghosts), the reading part never touches the original. One part: none.
  std::vector<uint32_t> ghost_of(size_t(n) * parts_, kPad);  // (reading part, node) -> ghost slot
  publish_.assign(parts_, {});
  for (uint32_t reader = 0; reader < parts_; ++reader) {
    for (uint32_t si = 0; si < slices; ++si)
      for (uint32_t lane = 0; lane < L; ++lane) {
        const uint32_t i = node_of_slot_[si * L + lane];
        if (i == kPad || part_of[i] != reader) continue;
        for (uint32_t k = offset[i]; k < offset[i + 1]; ++k) {
          const uint32_t j = neighbour[k][0];
          if (j == i || part_of[j] == reader || ghost_of[size_t(reader) * n + j] != kPad) continue;
          ghost_of[size_t(reader) * n + j] = uint32_t(node_of_slot_.size());
          publish_[part_of[j]].push_back({slot_of_node_[j], uint32_t(node_of_slot_.size())});
          node_of_slot_.push_back(kPad);
        }
      }
    while (node_of_slot_.size() % L) node_of_slot_.push_back(kPad);
  }
  for (auto& list : publish_) std::sort(list.begin(), list.end());

  std::vector<std::array<uint32_t, 2>> group[3][L];  // per group and lane: {slot, link}
  for (uint32_t si = 0; si < slices; ++si) {
    size_t rows[3] = {};
    for (uint32_t lane = 0; lane < L; ++lane) {
      for (auto& g : group) g[lane].clear();
      const uint32_t i = node_of_slot_[si * L + lane];
      if (i == kPad) continue;
      for (uint32_t k = offset[i]; k < offset[i + 1]; ++k) {
        const uint32_t j = neighbour[k][0];
        if (j == i) continue;  // no self links in a mesh; ignored if given
        const Group g = group_of(i, j);
        const uint32_t slot = g == kCross ? ghost_of[size_t(part_of[i]) * n + j] : slot_of_node_[j];
        group[g][lane].push_back({slot, neighbour[k][1]});
      }
      for (int g = 0; g < 3; ++g) {
        std::sort(group[g][lane].begin(), group[g][lane].end());
        rows[g] = std::max(rows[g], group[g][lane].size());
      }
    }
    slices_.push_back({uint32_t(entry_link_.size() / L), uint32_t(rows[kLower]), uint32_t(rows[kCross]),
                       uint32_t(rows[kUpper])});
    for (int g = 0; g < 3; ++g)
      for (size_t r = 0; r < rows[g]; ++r)
        for (uint32_t lane = 0; lane < L; ++lane) {
          const bool real = r < group[g][lane].size();
          entry_link_.push_back(real ? group[g][lane][r][1] : kPad);
          entry_record_.push_back(real ? 4 * group[g][lane][r][0] : zero_record);
        }
  }
  entry_block_.assign(entry_link_.size() / L * kBlock, 0.f);
  diag_block_.assign(size_t(slices) * kBlock, 0.f);
  diag_inverse_.assign(size_t(slices) * kBlock, 0.f);
  fixed_slot_.assign(node_of_slot_.size(), 1);
  free_mask_.assign(node_of_slot_.size(), 0.f);
}

void SlicedBlockMatrix::fill(const Sym3* diag, const ScaledLinkBlocks& off, const uint8_t* fixed) {
  fill(diag, off, fixed, 0, slice_count());
}

void SlicedBlockMatrix::fill(const Sym3* diag, const ScaledLinkBlocks& off, const uint8_t* fixed, uint32_t first,
                             uint32_t last) {
  for (uint32_t si = first; si < last; ++si) {
    const Slice& s = slices_[si];
    float* D = diag_block_.data() + si * kBlock;
    float* Dinv = diag_inverse_.data() + si * kBlock;
    bool row_live[L];
    for (uint32_t lane = 0; lane < L; ++lane) {
      const uint32_t i = node_of_slot_[si * L + lane];
      const bool skip = i == kPad || fixed[i];
      fixed_slot_[si * L + lane] = skip;
      free_mask_[si * L + lane] = skip ? 0.f : 1.f;
      row_live[lane] = !skip;
      store_block(D, lane, skip ? Sym3{} : diag[i]);
      store_block(Dinv, lane, skip ? Sym3{} : diag[i].inverse());
    }
    // entries: scale * B_link + shift * I, zero for padding entries and fixed rows
    for (uint32_t r = s.entry_begin; r < s.entry_begin + s.lower + s.cross + s.upper; ++r) {
      float* A = entry_block_.data() + size_t(r) * kBlock;
      for (uint32_t lane = 0; lane < L; ++lane) {
        const uint32_t link = entry_link_[size_t(r) * L + lane];
        store_block(A, lane, link == kPad || !row_live[lane] ? Sym3{} : off.get(link));
      }
    }
  }
}

#if WEFT_SLICED_SIMD

template <SlicedBlockMatrix::Pass pass>
void SlicedBlockMatrix::accumulate(const Slice& s, const float* x, float out[3][kLanes]) const {
  __m256 ax = _mm256_setzero_ps(), ay = ax, az = ax;
  const uint32_t begin = s.entry_begin + (pass == Pass::Upper ? s.lower : 0);
  const uint32_t end = s.entry_begin + (pass == Pass::Lower ? s.lower : s.lower + s.cross + s.upper);
  for (uint32_t r = begin; r < end; ++r) {
    const uint32_t* rec = entry_record_.data() + size_t(r) * L;
    const float* p[L];
    for (uint32_t k = 0; k < L; ++k) p[k] = x + rec[k];
    __m256 vx, vy, vz;
    load_records(p, vx, vy, vz);
    add_product(entry_block_.data() + size_t(r) * kBlock, vx, vy, vz, ax, ay, az);
  }
  _mm256_storeu_ps(out[0], ax);
  _mm256_storeu_ps(out[1], ay);
  _mm256_storeu_ps(out[2], az);
}

void SlicedBlockMatrix::slice_sweep(uint32_t si, const float* b, float* x, Pass pass) const {
  alignas(32) float acc[3][L];
  if (pass == Pass::Lower) accumulate<Pass::Lower>(slices_[si], x, acc);
  else accumulate<Pass::All>(slices_[si], x, acc);
  __m256 sx, sy, sz;
  load_slice(b + size_t(si) * 4 * L, sx, sy, sz);
  sx = _mm256_sub_ps(sx, _mm256_load_ps(acc[0]));
  sy = _mm256_sub_ps(sy, _mm256_load_ps(acc[1]));
  sz = _mm256_sub_ps(sz, _mm256_load_ps(acc[2]));
  __m256 nx = _mm256_setzero_ps(), ny = nx, nz = nx;
  add_product(diag_inverse_.data() + size_t(si) * kBlock, sx, sy, sz, nx, ny, nz);
  store_slice(x + size_t(si) * 4 * L, nx, ny, nz);
}

void SlicedBlockMatrix::multiply(const float* x, float* y, uint32_t first, uint32_t last) const {
  for (uint32_t si = first; si < last; ++si) {
    alignas(32) float acc[3][L];
    accumulate<Pass::All>(slices_[si], x, acc);
    __m256 ax = _mm256_load_ps(acc[0]), ay = _mm256_load_ps(acc[1]), az = _mm256_load_ps(acc[2]);
    __m256 vx, vy, vz;
    load_slice(x + size_t(si) * 4 * L, vx, vy, vz);
    add_product(diag_block_.data() + size_t(si) * kBlock, vx, vy, vz, ax, ay, az);
    store_slice(y + size_t(si) * 4 * L, ax, ay, az);
  }
}

void SlicedBlockMatrix::residual(const float* b, const float* x, float* r) const {
  for (uint32_t si = 0; si < slices_.size(); ++si) {
    alignas(32) float acc[3][L];
    accumulate<Pass::All>(slices_[si], x, acc);
    __m256 ax = _mm256_load_ps(acc[0]), ay = _mm256_load_ps(acc[1]), az = _mm256_load_ps(acc[2]);
    __m256 vx, vy, vz, bx, by, bz;
    load_slice(x + size_t(si) * 4 * L, vx, vy, vz);
    add_product(diag_block_.data() + size_t(si) * kBlock, vx, vy, vz, ax, ay, az);
    load_slice(b + size_t(si) * 4 * L, bx, by, bz);
    store_slice(r + size_t(si) * 4 * L, _mm256_sub_ps(bx, ax), _mm256_sub_ps(by, ay), _mm256_sub_ps(bz, az));
  }
  std::memset(r + size_t(slices_.size()) * 4 * L, 0, 4 * L * sizeof(float));
}

void SlicedBlockMatrix::upper_residual(const float* x, float* r, uint32_t first, uint32_t last) const {
  const __m256 zero = _mm256_setzero_ps();
  for (uint32_t si = first; si < last; ++si) {
    alignas(32) float acc[3][L];
    accumulate<Pass::Upper>(slices_[si], x, acc);
    store_slice(r + size_t(si) * 4 * L, _mm256_sub_ps(zero, _mm256_load_ps(acc[0])),
                _mm256_sub_ps(zero, _mm256_load_ps(acc[1])), _mm256_sub_ps(zero, _mm256_load_ps(acc[2])));
  }
}

#else  // scalar fallback: the same layout and order, one lane at a time

template <SlicedBlockMatrix::Pass pass>
void SlicedBlockMatrix::accumulate(const Slice& s, const float* x, float out[3][kLanes]) const {
  const uint32_t begin = s.entry_begin + (pass == Pass::Upper ? s.lower : 0);
  const uint32_t end = s.entry_begin + (pass == Pass::Lower ? s.lower : s.lower + s.cross + s.upper);
  for (uint32_t lane = 0; lane < L; ++lane) {
    glm::vec3 a(0.f);
    for (uint32_t r = begin; r < end; ++r) {
      const float* A = entry_block_.data() + size_t(r) * kBlock;
      const float* v = x + entry_record_[size_t(r) * L + lane];
      const Sym3 B{A[lane], A[L + lane], A[2 * L + lane], A[3 * L + lane], A[4 * L + lane], A[5 * L + lane]};
      a += B * glm::vec3(v[0], v[1], v[2]);
    }
    out[0][lane] = a.x, out[1][lane] = a.y, out[2][lane] = a.z;
  }
}

namespace {
Sym3 lane_block(const float* A, uint32_t lane) {
  return {A[lane], A[L + lane], A[2 * L + lane], A[3 * L + lane], A[4 * L + lane], A[5 * L + lane]};
}
glm::vec3 record(const float* v) { return {v[0], v[1], v[2]}; }
void set_record(float* v, const glm::vec3& a) { v[0] = a.x, v[1] = a.y, v[2] = a.z, v[3] = 0.f; }
}  // namespace

void SlicedBlockMatrix::slice_sweep(uint32_t si, const float* b, float* x, Pass pass) const {
  float acc[3][L];
  if (pass == Pass::Lower) accumulate<Pass::Lower>(slices_[si], x, acc);
  else accumulate<Pass::All>(slices_[si], x, acc);
  for (uint32_t lane = 0; lane < L; ++lane) {
    const size_t o = (size_t(si) * L + lane) * 4;
    const glm::vec3 s = record(b + o) - glm::vec3(acc[0][lane], acc[1][lane], acc[2][lane]);
    set_record(x + o, lane_block(diag_inverse_.data() + size_t(si) * kBlock, lane) * s);
  }
}

void SlicedBlockMatrix::multiply(const float* x, float* y, uint32_t first, uint32_t last) const {
  for (uint32_t si = first; si < last; ++si) {
    float acc[3][L];
    accumulate<Pass::All>(slices_[si], x, acc);
    for (uint32_t lane = 0; lane < L; ++lane) {
      const size_t o = (size_t(si) * L + lane) * 4;
      set_record(y + o, glm::vec3(acc[0][lane], acc[1][lane], acc[2][lane]) +
                            lane_block(diag_block_.data() + size_t(si) * kBlock, lane) * record(x + o));
    }
  }
}

void SlicedBlockMatrix::residual(const float* b, const float* x, float* r) const {
  multiply(x, r);
  for (size_t k = 0; k < size_t(slot_count()) * 4; ++k) r[k] = b[k] - r[k];
}

void SlicedBlockMatrix::upper_residual(const float* x, float* r, uint32_t first, uint32_t last) const {
  for (uint32_t si = first; si < last; ++si) {
    float acc[3][L];
    accumulate<Pass::Upper>(slices_[si], x, acc);
    for (uint32_t lane = 0; lane < L; ++lane)
      set_record(r + (size_t(si) * L + lane) * 4, -glm::vec3(acc[0][lane], acc[1][lane], acc[2][lane]));
  }
}

#endif

void SlicedBlockMatrix::multiply(const float* x, float* y) const {
  multiply(x, y, 0, slice_count());
  clear_zero_slice(y);
}

void SlicedBlockMatrix::sweep_from_zero(const float* b, float* x, float* r) const {
  sweep_lower(b, x, 0, slice_count());
  clear_zero_slice(x);
  if (!r) return;
  publish_ghosts(x);
  upper_residual(x, r, 0, slice_count());
  clear_zero_slice(r);
}

void SlicedBlockMatrix::sweep(const float* b, float* x, bool forward) const {
  publish_ghosts(x);
  sweep(b, x, forward, 0, slice_count());
}

void SlicedBlockMatrix::sweep(const float* b, float* x, bool forward, uint32_t first, uint32_t last) const {
  if (forward)
    for (uint32_t si = first; si < last; ++si) slice_sweep(si, b, x, Pass::All);
  else
    for (uint32_t si = last; si-- > first;) slice_sweep(si, b, x, Pass::All);
}

void SlicedBlockMatrix::sweep_lower(const float* b, float* x, uint32_t first, uint32_t last) const {
  for (uint32_t si = first; si < last; ++si) slice_sweep(si, b, x, Pass::Lower);
}

void SlicedBlockMatrix::publish_ghosts(float* x, uint32_t part) const {
  if (part >= parts_) return;
  for (const auto& [from, to] : publish_[part]) std::memcpy(x + 4 * size_t(to), x + 4 * size_t(from), 4 * sizeof(float));
}

void SlicedBlockMatrix::publish_ghosts(float* x) const {
  for (uint32_t part = 0; part < parts_; ++part) publish_ghosts(x, part);
}

void SlicedBlockMatrix::clear_zero_slice(float* v) const {
  std::memset(v + size_t(slices_.size()) * 4 * L, 0, 4 * L * sizeof(float));
}

void SlicedBlockMatrix::to_slots(const glm::vec3* nodes, float* slots) const {
  for (uint32_t s = 0; s < slot_count(); ++s) {
    const uint32_t i = node_of_slot_[s];
    const glm::vec3 v = i == kPad ? glm::vec3(0.f) : nodes[i];
    slots[4 * s] = v.x, slots[4 * s + 1] = v.y, slots[4 * s + 2] = v.z, slots[4 * s + 3] = 0.f;
  }
}

void SlicedBlockMatrix::from_slots(const float* slots, glm::vec3* nodes) const {
  for (uint32_t i = 0; i < node_count(); ++i) {
    const float* v = slots + 4 * size_t(slot_of_node_[i]);
    nodes[i] = glm::vec3(v[0], v[1], v[2]);
  }
}

}  // namespace weft
