// Stage 5's crossing check on the GPU (gpu/gpu_self_crossing.h) against the CPU's predicate (sim/self_collision.cpp's
// zone_crossings: triangles_intersect now, a corner moved, not crossing where the corrections started or not at the
// step's start), by brute force over every triangle pair of a folded irregular sheet: the same pairs, each once; the
// pairs crossing where the corrections started and at the step's start (tangles) left out; one list from two calls;
// no allocation per call; the validation layer silent.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "gpu/gpu_self_crossing.h"
#include "gpu/gpu_self_response.h"
#include "sim/collision_geometry.h"
#include "sim/mesh_generators.h"
#include "tests/allocation_counter.h"
#include "tests/gpu/gpu_world.h"
#include "tests/skip.h"

using namespace weft;
using weft::test::open_device;

TEST_SUITE_BEGIN("gpu");

namespace {

constexpr float kH = 1.f / 240.f;

bool shares_vertex(const std::array<uint32_t, 3>& a, const std::array<uint32_t, 3>& b) {
  for (uint32_t u : a)
    for (uint32_t w : b)
      if (u == w) return true;
  return false;
}
bool cross(const std::vector<glm::vec3>& x, const std::array<uint32_t, 3>& a, const std::array<uint32_t, 3>& b) {
  return triangles_intersect(x[a[0]], x[a[1]], x[a[2]], x[b[0]], x[b[1]], x[b[2]]);
}

// zone_crossings' first round over every triangle pair (the CPU takes them from its BVH's candidates).
std::vector<std::array<uint32_t, 2>> cpu_crossings(const ClothModel& model, const std::vector<glm::vec3>& x,
                                                   const std::vector<glm::vec3>& x0, const std::vector<glm::vec3>& xp) {
  std::vector<std::array<uint32_t, 2>> out;
  const auto& tri = model.triangle;
  auto moved = [&](const std::array<uint32_t, 3>& t) {
    return x[t[0]] != x0[t[0]] || x[t[1]] != x0[t[1]] || x[t[2]] != x0[t[2]];
  };
  for (uint32_t a = 0; a < tri.size(); ++a)
    for (uint32_t b = a + 1; b < tri.size(); ++b) {
      if (shares_vertex(tri[a], tri[b]) || !(moved(tri[a]) || moved(tri[b]))) continue;
      if (!cross(x, tri[a], tri[b])) continue;
      if (cross(x0, tri[a], tri[b]) && cross(xp, tri[a], tri[b])) continue;
      out.push_back({a, b});
    }
  return out;
}

std::vector<std::array<uint32_t, 2>> sorted(std::vector<std::array<uint32_t, 2>> p) {
  std::sort(p.begin(), p.end());
  return p;
}

}  // namespace

TEST_CASE("gpu self crossing: the pairs the corrections made cross, as the CPU's predicate finds them") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  const test::WavyFold f = test::wavy_fold();
  const ClothModel& model = f.model;
  const std::vector<uint8_t> kinematic(model.vertex_count(), 0);
  GpuSelfResponse response(ctx, model, SelfCollisionConfig{}, kH);
  GpuSelfCrossing& crossing = response.zones()->crossing();

  // The corrections started where the step started (nothing crossed) and took the troughs through the lower layer.
  crossing.find(f.x.data(), f.xp.data(), f.xp.data(), kinematic.data());
  const auto expected = cpu_crossings(model, f.x, f.xp, f.xp);
  MESSAGE("crossing pairs: CPU ", expected.size(), ", GPU ", crossing.pairs().size());
  REQUIRE(expected.size() > 20);
  CHECK(crossing.stats().dropped == 0);
  CHECK(crossing.stats().clipped == 0);
  CHECK(crossing.stats().pairs == crossing.pairs().size());
  const auto got = sorted(crossing.pairs());
  CHECK(std::adjacent_find(got.begin(), got.end()) == got.end());  // each pair once
  CHECK(got == expected);

  // Crossed where the corrections started too, but not at the step's start (the step took them through, and the
  // corrections, which moved a few vertices 1 mm, did not pull them back): the same pairs where a corner moved.
  std::vector<glm::vec3> nudged = f.x;
  for (size_t i = 0; i < nudged.size(); i += 3) nudged[i].z += 0.001f;
  crossing.find(nudged.data(), f.x.data(), f.xp.data(), kinematic.data());
  const auto through = cpu_crossings(model, nudged, f.x, f.xp);
  CHECK(through.size() > 20);
  CHECK(sorted(crossing.pairs()) == through);

  // Crossing at the step's start as well: a tangle, left to the untangling (only the pairs the nudge made cross).
  crossing.find(nudged.data(), f.x.data(), f.x.data(), kinematic.data());
  const auto tangled = cpu_crossings(model, nudged, f.x, f.x);
  MESSAGE("crossed through the step: ", through.size(), "; of them tangled at its start: ", through.size() - tangled.size());
  CHECK(tangled.size() < through.size() / 2);
  CHECK(sorted(crossing.pairs()) == tangled);

  // The upper layer started 8 cm up, farther than a cell of the hash (built where the corrections started): the
  // query grows by how far the vertices moved from there.
  const test::WavyFold far = test::wavy_fold(0.007f, 0.08f);
  crossing.find(far.x.data(), far.xp.data(), far.xp.data(), kinematic.data());
  MESSAGE("cell ", response.search().cell_size(), " m");
  CHECK(response.search().cell_size() < 0.08f);
  CHECK(sorted(crossing.pairs()) == cpu_crossings(model, far.x, far.xp, far.xp));

  // Nothing moved since the corrections started: no pair looked at.
  crossing.find(f.x.data(), f.x.data(), f.xp.data(), kinematic.data());
  CHECK(crossing.pairs().empty());
}

TEST_CASE("gpu self crossing: two calls give one list, and a call allocates nothing") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  const test::WavyFold f = test::wavy_fold();
  const std::vector<uint8_t> kinematic(f.model.vertex_count(), 0);
  GpuSelfResponse response(ctx, f.model, SelfCollisionConfig{}, kH);
  GpuSelfCrossing& crossing = response.zones()->crossing();
  crossing.find(f.x.data(), f.xp.data(), f.xp.data(), kinematic.data());
  const auto first = crossing.pairs();
  const uint64_t before = test::allocation_count();
  crossing.find(f.x.data(), f.xp.data(), f.xp.data(), kinematic.data());
  CHECK(test::allocation_count() - before == 0);
  CHECK(crossing.pairs() == first);  // the same pairs in the same slots
}

TEST_CASE("gpu self crossing: the Vulkan validation layer says nothing") {
  std::string why;
  const std::shared_ptr<ComputeContext> ctx = weft::test::open_validated_device(why);
  WEFT_SKIP_IF(!ctx, why);
  const test::WavyFold f = test::wavy_fold();
  const std::vector<uint8_t> kinematic(f.model.vertex_count(), 0);
  {
    GpuSelfResponse response(ctx, f.model, SelfCollisionConfig{}, kH);
    response.zones()->crossing().find(f.x.data(), f.xp.data(), f.xp.data(), kinematic.data());
    CHECK(!response.zones()->crossing().pairs().empty());
  }
  INFO(ctx->first_validation_message());
  CHECK(ctx->validation_messages() == 0);
}

TEST_SUITE_END();
