// Stage 5's rigid impact zones on the GPU (gpu/gpu_impact_zones.h) against sim/self_collision.cpp's impact_zones and
// zone_crossings, transcribed here over the GPU search's own contacts (the CPU's are private to SelfCollision; its
// crossing pairs come from its BVH, here from every pair): the folded sheet whose troughs went through the lower
// layer, no position pass first, so the crossed contacts are violated: the same zones (each vertex's zone, by its
// smallest vertex), positions and velocities within float rounding of the CPU's move, momentum kept; then the
// crossing rounds; one state from two calls; the validation layer silent.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <ctime>
#include <string>
#include <vector>

#include "gpu/gpu_impact_zones.h"
#include "gpu/gpu_self_response.h"
#include "sim/collision_geometry.h"
#include "sim/mesh_generators.h"
#include "tests/gpu/gpu_world.h"
#include "tests/skip.h"

using namespace weft;
using weft::test::open_device;

TEST_SUITE_BEGIN("gpu");

namespace {

constexpr float kH = 1.f / 240.f;

// gpu_world.h's wavy fold as a state, its velocities those of the move from xp (and a little sideways).
struct Fold {
  ClothModel model;
  ClothState state;
  std::vector<glm::vec3> xp;
};
Fold folded_sheet(float amplitude = 0.007f, float drop = 0.01f) {
  test::WavyFold w = test::wavy_fold(amplitude, drop);
  const std::vector<glm::vec3>& x = w.x;
  Fold f{std::move(w.model), {}, w.xp};
  f.state = make_rest_state(f.model);
  f.state.position = x;
  for (size_t i = 0; i < x.size(); ++i) f.state.velocity[i] = (x[i] - w.xp[i]) / kH + glm::vec3(0.01f * float(i % 7), 0.f, 0.f);
  return f;
}

// SelfCollision's zones (start_zones, join_zone, zone_root, move_zones, impact_zones, zone_crossings), no cap.
struct CpuZones {
  std::vector<uint32_t> parent;
  std::vector<uint8_t> zoned, shifted;
  int contact_rounds = 0, crossing_rounds = 0;
  uint64_t new_crossings = 0;  // pairs found, summed over the rounds (the CPU's stats().new_crossings)
  uint32_t root(uint32_t i) {
    while (parent[i] != i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  }
  bool join(const std::vector<uint32_t>& verts) {
    bool grew = false;
    int64_t first = -1;
    for (uint32_t i : verts) {
      if (!zoned[i]) zoned[i] = 1, grew = true;
      const uint32_t r = root(i);
      if (first < 0) first = r;
      else if (uint32_t(first) != r) parent[r] = uint32_t(first), grew = true;
    }
    return grew;
  }
  void move(const ClothModel& m, ClothState& s, const std::vector<glm::vec3>& xp, float h) {
    const size_t n = parent.size();
    std::vector<glm::vec3> momentum(n, glm::vec3(0.f));
    std::vector<float> mass(n, 0.f);
    for (size_t i = 0; i < n; ++i)
      if (zoned[i]) {
        momentum[root(uint32_t(i))] += m.mass[i] * s.velocity[i];
        mass[root(uint32_t(i))] += m.mass[i];
      }
    for (size_t i = 0; i < n; ++i) {
      shifted[i] = 0;
      if (!zoned[i]) continue;
      const uint32_t r = root(uint32_t(i));
      const glm::vec3 vbar = momentum[r] / mass[r], to = xp[i] + h * vbar;
      shifted[i] = to != s.position[i];
      s.position[i] = to;
      s.velocity[i] = vbar;
    }
  }
};

bool cross(const std::vector<glm::vec3>& x, const std::array<uint32_t, 3>& a, const std::array<uint32_t, 3>& b) {
  return triangles_intersect(x[a[0]], x[a[1]], x[a[2]], x[b[0]], x[b[1]], x[b[2]]);
}

bool shares_vertex(const std::array<uint32_t, 3>& a, const std::array<uint32_t, 3>& b) {
  for (uint32_t u : a)
    for (uint32_t w : b)
      if (u == w) return true;
  return false;
}

CpuZones cpu_zones(const ClothModel& m, ClothState& s, const std::vector<glm::vec3>& xp,
                   const std::vector<SelfContact>& contacts, const SelfCollisionConfig& config, int rounds,
                   bool crossings) {
  const size_t n = m.vertex_count();
  const std::vector<glm::vec3> x0 = s.position;  // no position pass: the corrections start here
  CpuZones z{std::vector<uint32_t>(n), std::vector<uint8_t>(n, 0), std::vector<uint8_t>(n, 0)};
  for (size_t i = 0; i < n; ++i) z.parent[i] = uint32_t(i);
  const float limit = config.thickness * (1.f - config.zone_violation);
  for (int round = 0; round < rounds; ++round) {
    bool grew = false;
    for (const SelfContact& c : contacts) {
      glm::vec3 r(0.f);
      for (int k = 0; k < 4; ++k) r += c.weight[k] * s.position[c.vertex[k]];
      if (!(glm::dot(r, c.normal) < limit)) continue;
      std::vector<uint32_t> verts;
      for (int k = 0; k < 4; ++k)
        if (!s.kinematic[c.vertex[k]] && c.weight[k] != 0.f) verts.push_back(c.vertex[k]);
      if (z.join(verts)) grew = true;
    }
    if (!grew) break;
    ++z.contact_rounds;
    z.move(m, s, xp, kH);
  }
  if (!crossings) return z;
  for (size_t i = 0; i < n; ++i) z.shifted[i] = s.position[i] != x0[i];
  const auto& tri = m.triangle;
  for (int round = 0; round < rounds; ++round) {
    std::vector<uint8_t> touched(tri.size());
    for (size_t t = 0; t < tri.size(); ++t) touched[t] = z.shifted[tri[t][0]] | z.shifted[tri[t][1]] | z.shifted[tri[t][2]];
    bool grew = false;
    for (uint32_t a = 0; a < tri.size(); ++a)
      for (uint32_t b = a + 1; b < tri.size(); ++b) {
        if (!(touched[a] | touched[b]) || shares_vertex(tri[a], tri[b]) || !cross(s.position, tri[a], tri[b])) continue;
        if (cross(x0, tri[a], tri[b]) && cross(xp, tri[a], tri[b])) continue;
        ++z.new_crossings;
        std::vector<uint32_t> verts;
        for (int k = 0; k < 6; ++k) {
          const uint32_t i = k < 3 ? tri[a][k] : tri[b][k - 3];
          if (!s.kinematic[i]) verts.push_back(i);
        }
        if (z.join(verts)) grew = true;
      }
    if (!grew) break;
    ++z.crossing_rounds;
    z.move(m, s, xp, kH);
  }
  return z;
}

GpuSelfResponseOptions zones_only(bool crossings) {
  GpuSelfResponseOptions o;
  o.position_passes = 0;
  o.answer_velocities = false;
  o.zones.crossings = crossings;
  o.zones.keep_labels = true;
  return o;
}

// Each vertex's zone by its smallest vertex (kNoZone: none), from the transcription's union-find.
std::vector<uint32_t> labels_of(CpuZones& z) {
  const size_t n = z.parent.size();
  std::vector<uint32_t> smallest(n, GpuImpactZones::kNoZone), label(n, GpuImpactZones::kNoZone);
  for (size_t i = 0; i < n; ++i)
    if (z.zoned[i]) smallest[z.root(uint32_t(i))] = std::min<uint32_t>(smallest[z.root(uint32_t(i))], uint32_t(i));
  for (size_t i = 0; i < n; ++i)
    if (z.zoned[i]) label[i] = smallest[z.root(uint32_t(i))];
  return label;
}

glm::vec3 momentum(const ClothModel& m, const std::vector<glm::vec3>& v) {
  glm::vec3 p(0.f);
  for (size_t i = 0; i < v.size(); ++i) p += m.mass[i] * v[i];
  return p;
}

float largest_difference(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
  float d = 0.f;
  for (size_t i = 0; i < a.size(); ++i) d = std::max(d, glm::length(a[i] - b[i]));
  return d;
}

size_t crossings_between(const ClothModel& m, const std::vector<glm::vec3>& x) {
  size_t count = 0;
  for (uint32_t a = 0; a < m.triangle.size(); ++a)
    for (uint32_t b = a + 1; b < m.triangle.size(); ++b)
      count += !shares_vertex(m.triangle[a], m.triangle[b]) && cross(x, m.triangle[a], m.triangle[b]);
  return count;
}

}  // namespace

TEST_CASE("gpu impact zones: the violated contacts' zones, as the CPU's impact_zones forms and moves them") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  const SelfCollisionConfig config;
  Fold f = folded_sheet();
  const ClothModel& model = f.model;
  // The contacts the GPU's zones read: the search's, on the same state (one device, one list).
  GpuSelfContacts search(ctx, model, config);
  search.detect(f.state.position.data(), f.xp.data(), f.state.kinematic.data());
  const std::vector<SelfContact> contacts = search.contacts();
  REQUIRE(contacts.size() > 50);

  GpuSelfResponse gpu(ctx, model, config, kH, zones_only(false));
  ClothState g = f.state;
  gpu.resolve(model, g, f.xp.data());
  const GpuImpactZoneStats& zs = gpu.stats().zones;
  ClothState c = f.state;
  CpuZones z = cpu_zones(model, c, f.xp, contacts, config, 4, false);
  const std::vector<uint32_t> expected = labels_of(z);
  const size_t zoned = size_t(std::count_if(expected.begin(), expected.end(),
                                            [](uint32_t l) { return l != GpuImpactZones::kNoZone; }));
  MESSAGE("zoned vertices: CPU ", zoned, ", GPU ", zs.zone_vertices, "; zones ", zs.zones, ", largest ",
          zs.largest_zone, "; rounds that grew: CPU ", z.contact_rounds, ", GPU ", zs.contact_rounds);
  REQUIRE(zoned > 10);
  CHECK(zs.unfinished == 0);
  CHECK(zs.zone_vertices == zoned);
  CHECK(zs.contact_rounds == uint64_t(z.contact_rounds));
  CHECK(gpu.zones()->labels() == expected);
  const float dx = largest_difference(g.position, c.position), dv = largest_difference(g.velocity, c.velocity);
  MESSAGE("largest difference from the CPU's move: ", dx * 1e3f, " mm, ", dv, " m/s");
  CHECK(dx < 1e-6f);
  CHECK(dv < 1e-5f);
  const glm::vec3 p0 = momentum(model, f.state.velocity), p1 = momentum(model, g.velocity);
  CHECK(glm::length(p1 - p0) < 1e-5f * glm::length(p0));
  // The zones moved rigidly from the step's start, so nothing they hold crosses.
  size_t off_course = 0;
  for (size_t i = 0; i < expected.size(); ++i)
    off_course += expected[i] != GpuImpactZones::kNoZone && !(glm::length(g.position[i] - f.xp[i] - kH * g.velocity[i]) < 1e-6f);
  CHECK(off_course == 0);
}

TEST_CASE("gpu impact zones: the pairs the zones leave crossing join them, as the CPU's zone_crossings joins them") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  // Only the contacts deeper than 1.6 mm through the lower layer zone (zone_violation 1.4): the troughs' bottoms move
  // back to the step's start, their neighbours still cross where the corrections started but did not at the step's
  // start, so the crossing rounds join them.
  SelfCollisionConfig config;
  config.zone_violation = 1.4f;
  Fold f = folded_sheet();
  const ClothModel& model = f.model;
  GpuSelfContacts search(ctx, model, config);
  search.detect(f.state.position.data(), f.xp.data(), f.state.kinematic.data());
  const std::vector<SelfContact> contacts = search.contacts();
  GpuSelfResponse gpu(ctx, model, config, kH, zones_only(true));
  ClothState g = f.state;
  gpu.resolve(model, g, f.xp.data());
  const GpuImpactZoneStats& zs = gpu.stats().zones;
  ClothState c = f.state;
  CpuZones z = cpu_zones(model, c, f.xp, contacts, config, 4, true);
  CpuZones contacts_only = [&] {
    ClothState only = f.state;
    return cpu_zones(model, only, f.xp, contacts, config, 4, false);
  }();
  const std::vector<uint32_t> expected = labels_of(z), before = labels_of(contacts_only);
  auto count = [](const std::vector<uint32_t>& l) {
    return size_t(std::count_if(l.begin(), l.end(), [](uint32_t k) { return k != GpuImpactZones::kNoZone; }));
  };
  MESSAGE("zoned: by the contacts ", count(before), ", then by the crossings ", count(expected), " (GPU ",
          zs.zone_vertices, "); crossing rounds that grew: CPU ", z.crossing_rounds, ", GPU ", zs.crossing_rounds,
          "; pairs found ", zs.crossing.pairs);
  REQUIRE(count(before) > 0);
  REQUIRE(count(expected) > count(before));
  CHECK(zs.unfinished == 0);
  CHECK(zs.crossing_rounds == uint64_t(z.crossing_rounds));
  CHECK(zs.crossing.pairs == z.new_crossings);
  CHECK(gpu.zones()->labels() == expected);
  const float dx = largest_difference(g.position, c.position), dv = largest_difference(g.velocity, c.velocity);
  MESSAGE("largest difference from the CPU's moves: ", dx * 1e3f, " mm, ", dv, " m/s");
  CHECK(dx < 1e-6f);
  CHECK(dv < 1e-5f);
  CHECK(crossings_between(model, g.position) < crossings_between(model, f.state.position));
}

TEST_CASE("gpu impact zones: two calls give one state") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  Fold f = folded_sheet();
  GpuSelfResponse gpu(ctx, f.model, SelfCollisionConfig{}, kH, zones_only(true));
  ClothState a = f.state, b = f.state;
  gpu.resolve(f.model, a, f.xp.data());
  gpu.resolve(f.model, b, f.xp.data());
  CHECK(a.position == b.position);
  CHECK(a.velocity == b.velocity);
}

TEST_CASE("gpu impact zones: the response's cost with and without them, 4k and 16k" * doctest::skip()) {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  // An irregular 1 x 1 m sheet of 63 x 63 or 127 x 127 cells folded over itself as above, its troughs through the
  // lower layer; llvmpipe's threads' CPU time (std::clock: the process's), medians of 3: a sanity check, not a GPU
  // figure.
  for (const uint32_t side : {63u, 127u}) {
    Mesh m = make_irregular({.width = 1.f, .height = 1.f, .columns = side, .rows = side, .grading = 1.5f, .seed = 3});
    const float x0 = 0.5f, r = 0.0025f, pi = 3.14159265f;
    ClothModel model = build_cloth_model(m, Material{});
    ClothState state = make_rest_state(model);
    std::vector<glm::vec3> xp(m.positions.size());
    for (size_t i = 0; i < m.positions.size(); ++i) {
      const glm::vec3 p = m.positions[i];
      const float s = p.x - x0;
      glm::vec3 x;
      if (s <= 0.f) x = glm::vec3(p.x, p.y, 0.f);
      else if (s < pi * r) x = glm::vec3(x0 + r * std::sin(s / r), p.y, r * (1.f - std::cos(s / r)));
      else x = glm::vec3(x0 - (s - pi * r), p.y, 2.f * r + std::min(1.f, (s - pi * r) / 0.03f) * 0.007f * std::sin(2.f * pi * 12.f * p.y));
      state.position[i] = x;
      xp[i] = s > pi * r ? x + glm::vec3(0.f, 0.f, 0.01f) : x;
      state.velocity[i] = (x - xp[i]) / kH;
    }
    for (const bool zones : {false, true}) {
      GpuSelfResponseOptions o;
      o.impact_zones = zones;
      GpuSelfResponse gpu(ctx, model, SelfCollisionConfig{}, kH, o);
      std::vector<double> cpu_ms;
      for (int k = 0; k < 3; ++k) {
        ClothState s = state;
        const std::clock_t before = std::clock();
        gpu.resolve(model, s, xp.data());
        cpu_ms.push_back(1e3 * double(std::clock() - before) / CLOCKS_PER_SEC);
      }
      std::sort(cpu_ms.begin(), cpu_ms.end());
      MESSAGE(m.positions.size(), " vertices, zones ", std::string(zones ? "on" : "off"), ": ", cpu_ms[1], " ms CPU (median of 3); contacts ",
              gpu.stats().contacts, ", zoned ", gpu.stats().zones.zone_vertices, ", crossing pairs ",
              gpu.stats().zones.crossing.pairs);
    }
  }
}

TEST_CASE("gpu impact zones: the Vulkan validation layer says nothing") {
  std::string why;
  const std::shared_ptr<ComputeContext> ctx = weft::test::open_validated_device(why);
  WEFT_SKIP_IF(!ctx, why);
  Fold f = folded_sheet();
  {
    GpuSelfResponse gpu(ctx, f.model, SelfCollisionConfig{}, kH, zones_only(true));
    ClothState s = f.state;
    gpu.resolve(f.model, s, f.xp.data());
    CHECK(gpu.stats().zones.zone_vertices > 0);
  }
  INFO(ctx->first_validation_message());
  CHECK(ctx->validation_messages() == 0);
}

TEST_SUITE_END();
