// The GPU self-contact search (gpu/gpu_self_contacts.h) against the CPU's detection (sim/self_collision.h) on
// an irregular sheet folded over itself (no rows or columns: make_irregular), its upper layer wavy and moved
// down over the step: the same contacts (vertices, weights, normals) as SelfCollision finds with its
// curvature criterion off, a superset of those it finds with it on, the crossings found and oriented by the
// step's start, one list from two searches, no allocation per search, and the validation layer silent.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <string>

#include <sys/resource.h>

#include "gpu/gpu_self_contacts.h"
#include "sim/collider.h"
#include "sim/mesh_generators.h"
#include "sim/self_collision.h"
#include "tests/allocation_counter.h"
#include "tests/gpu/gpu_world.h"
#include "tests/skip.h"

using namespace weft;
using weft::test::open_device;

TEST_SUITE_BEGIN("gpu");

namespace {

constexpr float kH = 1.f / 240.f;

// An irregular 0.3 x 0.2 m sheet folded about x = 0.15 over a half cylinder of radius 2.5 mm: the right half
// lies back over the left one 5 mm up plus `amplitude` sin(3 periods along y), reached over 3 cm from the fold.
// The step started (xp) with the upper half `drop` higher. The lower layer's two far corners are kinematic.
struct FoldedSheet {
  ClothModel model;
  std::vector<glm::vec3> x, xp;
  std::vector<uint8_t> kinematic;
};
// Larger sheets (the search's timing) fold the same way about their middle.
struct SheetSize {
  float width = 0.3f, height = 0.2f;
  uint32_t columns = 14, rows = 10;
};
FoldedSheet folded_sheet(float amplitude, float drop, SheetSize size = {}) {
  Mesh m = make_irregular({.width = size.width, .height = size.height, .columns = size.columns, .rows = size.rows,
                           .grading = 1.5f, .seed = 3});
  FoldedSheet f;
  const float x0 = 0.5f * size.width, r = 0.0025f, pi = 3.14159265f;
  f.x.resize(m.positions.size());
  f.xp.resize(m.positions.size());
  for (size_t i = 0; i < m.positions.size(); ++i) {
    const glm::vec3 p = m.positions[i];
    const float s = p.x - x0;
    if (s <= 0.f) {
      f.x[i] = f.xp[i] = glm::vec3(p.x, p.y, 0.f);
    } else if (s < pi * r) {
      const float a = s / r;
      f.x[i] = f.xp[i] = glm::vec3(x0 + r * std::sin(a), p.y, r * (1.f - std::cos(a)));
    } else {
      const float ramp = std::min(1.f, (s - pi * r) / 0.03f);
      const float z = 2.f * r + ramp * amplitude * std::sin(2.f * pi * 3.f * p.y / size.height);
      f.x[i] = glm::vec3(x0 - (s - pi * r), p.y, z);
      f.xp[i] = f.x[i] + glm::vec3(0.f, 0.f, ramp * drop);
    }
  }
  f.model = build_cloth_model(m, Material{});
  f.kinematic.assign(m.positions.size(), 0);
  uint32_t a = 0, b = 0;  // the lower layer's corners at x = 0
  for (uint32_t i = 0; i < m.positions.size(); ++i) {
    const glm::vec3 p = m.positions[i], pa = m.positions[a], pb = m.positions[b];
    if (p.x + p.y < pa.x + pa.y) a = i;
    if (p.x - p.y < pb.x - pb.y) b = i;
  }
  f.kinematic[a] = f.kinematic[b] = 1;
  return f;
}

SelfCollisionConfig config(bool curvature) {
  SelfCollisionConfig c;
  c.thickness = 0.004f;
  c.cone_limit = curvature ? 1.0472f : -1.f;  // negative: the BVH skips no patch (bvh.h)
  c.max_pairs_per_triangle = 4096;
  c.max_contacts_per_vertex = 256;
  return c;
}

// The CPU detection's contacts for the fold: begin_step at xp, then the detection of begin_resolve at x.
std::vector<SelfContact> cpu_contacts(const FoldedSheet& f, const SelfCollisionConfig& c, uint64_t* crossed) {
  SelfCollision sc(f.model, c);
  ClothState start = make_rest_state(f.model);
  start.position = f.xp;
  start.kinematic = f.kinematic;
  sc.begin_step(start);
  ClothState now = start;
  now.position = f.x;
  for (size_t i = 0; i < f.x.size(); ++i) now.velocity[i] = (f.x[i] - f.xp[i]) / kH;
  sc.begin_resolve(f.model, now, kH);
  if (crossed) *crossed = sc.stats().crossed;
  return sc.contacts();
}

// A contact keyed by its vertex set, its weights per vertex and its normal, signed so that the feature holding
// the smallest vertex comes first (the CPU takes an edge pair's ends and order from its triangles, the GPU
// from the edge list).
struct Canonical {
  std::map<uint32_t, float> weight;
  glm::vec3 normal{0.f};
};
std::map<std::array<uint32_t, 5>, Canonical> canonical(const std::vector<SelfContact>& list) {
  std::map<std::array<uint32_t, 5>, Canonical> out;
  for (const SelfContact& c : list) {
    const uint32_t lowest = *std::min_element(c.vertex.begin(), c.vertex.end());
    const bool first = c.vertex[0] == lowest || (c.edge_edge && c.vertex[1] == lowest);
    const float s = first ? 1.f : -1.f;
    std::array<uint32_t, 5> key{c.edge_edge, c.vertex[0], c.vertex[1], c.vertex[2], c.vertex[3]};
    if (c.edge_edge) std::sort(key.begin() + 1, key.end());
    else std::sort(key.begin() + 2, key.end());
    Canonical k;
    for (int j = 0; j < 4; ++j) k.weight[c.vertex[j]] = s * c.weight[j];
    k.normal = s * c.normal;
    out[key] = k;
  }
  return out;
}

struct Comparison {
  size_t both = 0, cpu_only = 0, gpu_only = 0;
  float weight_error = 0, normal_error = 0;
};
Comparison compare(const std::vector<SelfContact>& cpu, const std::vector<SelfContact>& gpu) {
  const auto a = canonical(cpu), b = canonical(gpu);
  Comparison r;
  for (const auto& [key, c] : a) {
    const auto it = b.find(key);
    if (it == b.end()) {
      ++r.cpu_only;
      continue;
    }
    ++r.both;
    for (const auto& [v, w] : c.weight) r.weight_error = std::max(r.weight_error, std::abs(w - it->second.weight.at(v)));
    r.normal_error = std::max(r.normal_error, glm::length(c.normal - it->second.normal));
  }
  r.gpu_only = b.size() - r.both;
  return r;
}

}  // namespace

TEST_CASE("gpu self contacts: the CPU detection's contacts on a folded irregular sheet with and without crossings") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  // 3 mm waves: layers 2-8 mm apart, touching within the reach (6 mm); 7 mm waves: the troughs went through
  // the lower layer during the step (crossed contacts, the coplanarity time beside triangles).
  for (const float amplitude : {0.003f, 0.007f}) {
    CAPTURE(amplitude);
    const FoldedSheet f = folded_sheet(amplitude, 0.01f);
    uint64_t cpu_crossed = 0;
    const std::vector<SelfContact> cpu = cpu_contacts(f, config(false), &cpu_crossed);
    GpuSelfContacts gpu(ctx, f.model, config(false));
    gpu.detect(f.x.data(), f.xp.data(), f.kinematic.data());
    const Comparison c = compare(cpu, gpu.contacts());
    MESSAGE("amplitude ", amplitude, ": CPU ", cpu.size(), " contacts (", cpu_crossed, " crossed), GPU ",
            gpu.contacts().size(), " (", gpu.stats().crossed, " crossed); both ", c.both, ", CPU only ", c.cpu_only,
            ", GPU only ", c.gpu_only, "; weights within ", c.weight_error, ", normals ", c.normal_error);
    CHECK(cpu.size() > 50);
    CHECK(gpu.stats().dropped == 0);
    CHECK(gpu.stats().clipped == 0);
    // Float rounding on either side of the reach may move a contact or two in or out.
    CHECK(c.cpu_only + c.gpu_only <= 2 + cpu.size() / 100);
    CHECK(c.weight_error < 1e-3f);
    CHECK(c.normal_error < 1e-3f);
    if (amplitude > 0.005f) {
      CHECK(cpu_crossed > 0);
      CHECK(gpu.stats().crossed + 2 >= cpu_crossed);
      CHECK(gpu.stats().crossed <= cpu_crossed + 2);
    }
  }
}

TEST_CASE("gpu self contacts: two long strips crossed 5 mm apart: edges close in the middle and ends 5 cm away") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  // Two 10 x 1 cm strips (2 triangles each), one along x, the other along y 5 mm above, centred on each other:
  // their long edges pass within the reach only far from every end, so each edge-edge contact is found only
  // through the query's longest-edge margin.
  Mesh m;
  m.positions = {{-0.05f, -0.005f, 0.f}, {0.05f, -0.005f, 0.f}, {0.05f, 0.005f, 0.f}, {-0.05f, 0.005f, 0.f},
                 {-0.005f, -0.05f, 0.005f}, {0.005f, -0.05f, 0.005f}, {0.005f, 0.05f, 0.005f}, {-0.005f, 0.05f, 0.005f}};
  m.material.resize(8);
  for (size_t i = 0; i < 8; ++i) m.material[i] = glm::vec2(m.positions[i]) + glm::vec2(i >= 4 ? 1.f : 0.f, 0.f);
  m.triangles = {{0, 1, 2}, {0, 2, 3}, {4, 5, 6}, {4, 6, 7}};
  FoldedSheet f;
  f.x = f.xp = m.positions;
  // At rest a fifth of that (stretched 5x now): the hash's cells, sized by the rest edges, are 2.6 cm.
  for (glm::vec3& p : m.positions) p *= 0.2f;
  f.model = build_cloth_model(m, Material{});
  f.kinematic.assign(8, 0);
  const std::vector<SelfContact> cpu = cpu_contacts(f, config(false), nullptr);
  GpuSelfContacts gpu(ctx, f.model, config(false));
  gpu.detect(f.x.data(), f.xp.data(), f.kinematic.data());
  const Comparison c = compare(cpu, gpu.contacts());
  CHECK(gpu.cell_size() < 0.03f);
  CHECK(gpu.stats().edge_edge >= 4);
  CHECK(c.both == cpu.size());
  CHECK(c.gpu_only == 0);
  CHECK(c.weight_error < 1e-5f);
  CHECK(c.normal_error < 1e-5f);
}

TEST_CASE("gpu self contacts: with the curvature criterion on both sides the same contacts") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  // The CPU skips triangle pairs in flat vertex fans, the GPU feature pairs in them: the fold's arc.
  const FoldedSheet f = folded_sheet(0.003f, 0.01f);
  const std::vector<SelfContact> cpu = cpu_contacts(f, config(true), nullptr);
  const size_t cpu_all = cpu_contacts(f, config(false), nullptr).size();
  GpuSelfContacts gpu(ctx, f.model, config(true));
  gpu.detect(f.x.data(), f.xp.data(), f.kinematic.data());
  const Comparison c = compare(cpu, gpu.contacts());
  MESSAGE("curvature criterion on: CPU ", cpu.size(), " (", cpu_all, " without), GPU ", gpu.contacts().size(), "; CPU only ",
          c.cpu_only, ", GPU only ", c.gpu_only);
  CHECK(cpu.size() < cpu_all);
  CHECK(c.cpu_only + c.gpu_only <= 2 + cpu.size() / 100);
}

TEST_CASE("gpu self contacts: a flat sheet shrunk to 25 percent has none with the criterion as on the CPU") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  // Edges of 4-6 mm against a 6 mm reach: every neighbour of a corner is within reach of the triangle, but the
  // sheet is flat, one patch whose fans spread 0 degrees; skipped on both sides, found on both without.
  Mesh m = make_irregular({.width = 0.3f, .height = 0.2f, .columns = 14, .rows = 10, .grading = 1.5f, .seed = 3});
  FoldedSheet f;
  f.model = build_cloth_model(m, Material{});
  for (glm::vec3& p : m.positions) p *= 0.25f;
  f.x = f.xp = m.positions;
  f.kinematic.assign(m.positions.size(), 0);
  GpuSelfContacts with(ctx, f.model, config(true)), without(ctx, f.model, config(false));
  with.detect(f.x.data(), f.xp.data(), f.kinematic.data());
  without.detect(f.x.data(), f.xp.data(), f.kinematic.data());
  const size_t cpu_with = cpu_contacts(f, config(true), nullptr).size();
  const size_t cpu_without = cpu_contacts(f, config(false), nullptr).size();
  MESSAGE("shrunk flat sheet: with the criterion CPU ", cpu_with, ", GPU ", with.contacts().size(), "; without CPU ",
          cpu_without, ", GPU ", without.contacts().size());
  CHECK(cpu_with == 0);
  CHECK(with.contacts().empty());
  CHECK(cpu_without > 100);
  const Comparison c = compare(cpu_contacts(f, config(false), nullptr), without.contacts());
  CHECK(c.gpu_only == 0);
  CHECK(c.both + without.stats().dropped == cpu_without);  // a triangle's ninth contact on is counted, not kept
}

TEST_CASE("gpu self contacts: along an irregular sheet dropped and folded over itself on the floor") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  // weft validate self-collision's drop fold, reduced, on an irregular mesh: one half 1 cm over the floor, the
  // other raised at 110 degrees; it falls over onto the first. Every 12th tick once it touches itself, the
  // search on (the state before the tick, the state after) against a fresh CPU detection with the curvature
  // criterion off, and the world's own contact count (criterion on).
  Mesh mesh = make_irregular({.width = 0.4f, .height = 0.4f, .columns = 14, .rows = 14, .grading = 1.5f, .seed = 5});
  const float hinge = 0.2f, angle = 1.9199f;  // 110 degrees
  for (glm::vec3& p : mesh.positions) {
    const float d = std::max(p.x - hinge, 0.f);
    p = glm::vec3(std::min(p.x, hinge) + d * std::cos(angle), 0.01f + d * std::sin(angle), -p.y);
  }
  Material material;
  material.damping = 0.001f;
  material.bend_stiffness = 0.5f;
  WorldConfig wc;
  wc.tick_hz = 240.0;
  wc.self_collision = {.enabled = true, .thickness = 0.005f};
  World world(build_cloth_model(mesh, material), wc);
  Collider floor;
  floor.shape = ColliderShape::Plane;
  floor.mu_static = 1.f;
  floor.mu_kinetic = 0.8f;
  world.add_collider(floor);
  SelfCollisionConfig sc = config(false);
  sc.thickness = 0.005f;
  GpuSelfContacts gpu(ctx, world.model(), sc);
  SelfCollisionConfig sc_on = config(true);
  sc_on.thickness = 0.005f;
  GpuSelfContacts gpu_on(ctx, world.model(), sc_on);  // with the curvature criterion, as the world's
  size_t gpu_on_total = 0;
  size_t compared = 0, both = 0, mismatched = 0, cpu_total = 0, gpu_total = 0, world_total = 0;
  float weight_error = 0, normal_error = 0;
  for (int k = 0; k < 360; ++k) {
    const std::vector<glm::vec3> before = world.state().position;
    world.step();
    const SelfCollisionStats& st = world.self_collision()->stats();
    if (k % 12 != 0 || st.vertex_triangle + st.edge_edge == 0) continue;
    FoldedSheet f{world.model(), world.state().position, before, world.state().kinematic};
    const std::vector<SelfContact> cpu = cpu_contacts(f, sc, nullptr);
    gpu.detect(f.x.data(), f.xp.data(), f.kinematic.data());
    const Comparison c = compare(cpu, gpu.contacts());
    ++compared;
    both += c.both;
    mismatched += c.cpu_only + c.gpu_only;
    cpu_total += cpu.size();
    gpu_total += gpu.contacts().size();
    world_total += st.vertex_triangle + st.edge_edge;
    gpu_on.detect(f.x.data(), f.xp.data(), f.kinematic.data());
    gpu_on_total += gpu_on.contacts().size();
    weight_error = std::max(weight_error, c.weight_error);
    normal_error = std::max(normal_error, c.normal_error);
    CHECK(gpu.stats().dropped == 0);
  }
  MESSAGE(compared, " ticks compared: CPU ", cpu_total, " contacts, GPU ", gpu_total, ", both ", both, ", mismatched ",
          mismatched, "; with the curvature criterion GPU ", gpu_on_total, ", the world's ", world_total,
          " (its own detection, before its response); weights within ", weight_error,
          ", normals ", normal_error);
  CHECK(compared >= 10);
  CHECK(cpu_total > 100);
  CHECK(mismatched <= 2 * compared + cpu_total / 100);
  CHECK(weight_error < 1e-3f);
  CHECK(normal_error < 1e-3f);
  CHECK(gpu_on_total <= gpu_total);
  CHECK(2 * gpu_on_total >= world_total);
  CHECK(gpu_on_total <= 2 * world_total);
}

TEST_CASE("gpu self contacts: two searches give one list and allocate nothing") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  const FoldedSheet f = folded_sheet(0.007f, 0.01f);
  GpuSelfContacts gpu(ctx, f.model, config(false));
  gpu.detect(f.x.data(), f.xp.data(), f.kinematic.data());
  const std::vector<SelfContact> first = gpu.contacts();
  REQUIRE(!first.empty());
  const uint64_t before = test::allocation_count();
  gpu.detect(f.x.data(), f.xp.data(), f.kinematic.data());
  CHECK(test::allocation_count() - before == 0);
  REQUIRE(gpu.contacts().size() == first.size());
  CHECK(std::memcmp(gpu.contacts().data(), first.data(), first.size() * sizeof(SelfContact)) == 0);
  // One order whatever order the scatter's atomics placed the vertices in (lavapipe's run in invocation order,
  // a GPU's do not): each triangle's contacts by (cell z, y, x, vertex), as the buckets sorted by index give.
  auto key = [&](uint32_t v) {
    const glm::ivec3 c(glm::floor(f.x[v] / gpu.cell_size()));
    return std::array<int64_t, 4>{c.z, c.y, c.x, int64_t(v)};
  };
  size_t out_of_order = 0;
  const auto& list = gpu.contacts();
  for (size_t k = 1; k < list.size(); ++k) {
    const SelfContact &a = list[k - 1], &b = list[k];
    if (a.edge_edge || b.edge_edge || a.vertex[1] != b.vertex[1] || a.vertex[2] != b.vertex[2]) continue;
    out_of_order += key(a.vertex[0]) < key(b.vertex[0]) ? 0 : 1;
  }
  CHECK(out_of_order == 0);
}

TEST_CASE("gpu self contacts: vertices not finite are counted and their features skipped and the rest found") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  FoldedSheet f = folded_sheet(0.003f, 0.01f);
  GpuSelfContacts gpu(ctx, f.model, config(false));
  gpu.detect(f.x.data(), f.xp.data(), f.kinematic.data());
  const size_t clean = gpu.contacts().size();
  REQUIRE(clean > 2);
  // One vertex in a vertex-triangle contact, one in an edge-edge contact: not finite at the step's start, now.
  const uint32_t a = gpu.contacts().front().vertex[0], b = gpu.contacts().back().vertex[0];
  REQUIRE(a != b);
  f.xp[a] = glm::vec3(0.f, std::nanf(""), 0.f);
  f.x[b] = glm::vec3(std::numeric_limits<float>::infinity(), 0.f, 0.f);
  gpu.detect(f.x.data(), f.xp.data(), f.kinematic.data());
  CHECK(gpu.stats().non_finite == 2);
  CHECK(gpu.contacts().size() > clean / 2);
  size_t bad = 0;
  for (const SelfContact& c : gpu.contacts()) {
    bad += std::isfinite(c.normal.x + c.normal.y + c.normal.z + c.weight[0] + c.weight[1] + c.weight[2] + c.weight[3]) ? 0 : 1;
    for (uint32_t v : c.vertex) bad += (v == a || v == b) ? 1 : 0;
  }
  CHECK(bad == 0);
}

TEST_CASE("gpu self contacts: the edges' LBVH gives every pair the brute force gives, in the same slots") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  // 3 mm waves: touching layers; 12 mm waves dropped 10 mm: troughs 7 mm through the lower layer, past the
  // reach (6 mm) now, so only boxes grown by the travel over the step meet. Two slots an edge: most edges
  // drop contacts, and the two kept are the smallest keys whatever order the tree gives them in.
  for (const float amplitude : {0.003f, 0.012f})
    for (const uint32_t slots : {8u, 2u}) {
      CAPTURE(amplitude);
      CAPTURE(slots);
      const FoldedSheet f = folded_sheet(amplitude, 0.01f);
      const GpuSelfContactOptions tree{.slots_per_edge = slots}, brute{.slots_per_edge = slots, .edge_brute_force = true};
      GpuSelfContacts a(ctx, f.model, config(false), tree), b(ctx, f.model, config(false), brute);
      a.detect(f.x.data(), f.xp.data(), f.kinematic.data());
      b.detect(f.x.data(), f.xp.data(), f.kinematic.data());
      const GpuSelfContactStats &sa = a.stats(), &sb = b.stats();
      MESSAGE("amplitude ", amplitude, ", ", slots, " slots: LBVH ", sa.edge_edge, " edge-edge contacts (", sa.crossed,
              " crossed, ", sa.dropped, " dropped), brute force ", sb.edge_edge, " (", sb.crossed, ", ", sb.dropped,
              "); pairs tested per edge ", double(sa.edge_pairs_tested) / double(f.model.edge_count), " against ",
              double(sb.edge_pairs_tested) / double(f.model.edge_count), ", tree nodes visited per edge ",
              double(sa.lbvh_nodes_visited) / double(f.model.edge_count));
      CHECK(sb.edge_edge > 50);
      if (amplitude > 0.01f) CHECK(sb.crossed > 20);
      if (slots == 2) CHECK(sb.dropped > 0);
      CHECK(sa.edge_edge == sb.edge_edge);
      CHECK(sa.dropped == sb.dropped);
      CHECK(sa.clipped == 0);
      CHECK(sa.edge_pairs_tested * 10 < sb.edge_pairs_tested);
      REQUIRE(a.contacts().size() == b.contacts().size());
      size_t differ = 0;
      for (size_t k = 0; k < a.contacts().size(); ++k) {
        const SelfContact &p = a.contacts()[k], &q = b.contacts()[k];
        differ += (p.vertex == q.vertex && p.weight == q.weight && p.normal == q.normal) ? 0 : 1;
      }
      CHECK(differ == 0);
    }
}

// Not in the suite (doctest --no-skip): the search's time on an irregular 1 x 1 m sheet at 4k and 16k vertices,
// flat (no contact but neighbours) and folded over itself, the median of 5 searches; its edge-edge part and the
// edge pairs tested per edge (docs/performance.md).
// The process's CPU time, every thread's (llvmpipe's included): less moved by other processes than wall time.
double process_cpu_ms() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return 1e3 * double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-3 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

TEST_CASE("gpu self contacts: search time at 4k and 16k vertices" * doctest::skip()) {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  for (const bool folded : {false, true})
    for (const uint32_t side : {63u, 127u}) {
      FoldedSheet f = folded_sheet(0.003f, 0.01f, {.width = 1.f, .height = 1.f, .columns = side, .rows = side});
      if (!folded) {
        const Mesh m = make_irregular({.width = 1.f, .height = 1.f, .columns = side, .rows = side, .grading = 1.5f,
                                       .seed = 3});
        for (size_t i = 0; i < f.x.size(); ++i) f.x[i] = f.xp[i] = m.positions[i] + glm::vec3(0.f, 0.f, 0.5f);
      }
      GpuSelfContacts gpu(ctx, f.model, config(false));
      std::vector<double> ms, edge_ms, cpu_ms;
      for (int k = 0; k < 5; ++k) {
        const double before = process_cpu_ms();
        gpu.detect(f.x.data(), f.xp.data(), f.kinematic.data());
        cpu_ms.push_back(process_cpu_ms() - before);
        ms.push_back(gpu.stats().gpu_ms);
        edge_ms.push_back(gpu.stats().edge_edge_ms);
      }
      std::sort(ms.begin(), ms.end());
      std::sort(edge_ms.begin(), edge_ms.end());
      std::sort(cpu_ms.begin(), cpu_ms.end());
      const GpuSelfContactStats& st = gpu.stats();
      MESSAGE(std::string(folded ? "folded " : "flat "), f.x.size(), " vertices, ", f.model.edge_count, " edges: search ", ms[2],
              " ms, edge-edge part ", edge_ms[2], " ms, llvmpipe's threads' CPU time ", cpu_ms[2], " ms (medians of 5), ", st.vertex_triangle, " vertex-triangle and ",
              st.edge_edge, " edge-edge contacts, edge pairs tested per edge ",
              double(st.edge_pairs_tested) / double(f.model.edge_count), ", tree nodes visited per edge ",
              double(st.lbvh_nodes_visited) / double(f.model.edge_count));
    }
}

TEST_CASE("gpu self contacts: the Vulkan validation layer says nothing") {
  std::string why;
  const std::shared_ptr<ComputeContext> ctx = weft::test::open_validated_device(why);
  WEFT_SKIP_IF(!ctx, why.c_str());
  {
    const FoldedSheet f = folded_sheet(0.007f, 0.01f);
    GpuSelfContacts gpu(ctx, f.model, config(false));
    for (int k = 0; k < 2; ++k) gpu.detect(f.x.data(), f.xp.data(), f.kinematic.data());
    CHECK(!gpu.contacts().empty());
  }
  INFO(ctx->first_validation_message());
  CHECK(ctx->validation_messages() == 0);
}

TEST_SUITE_END();
