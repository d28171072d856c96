// Across a topology change (a cut adds vertices) the render side takes the new snapshot whole: nothing is
// blended between meshes of different vertices, and the new triangles come with it.
#include <doctest/doctest.h>

#include "engine/snapshot_interpolation.h"

namespace weft {
namespace {

void publish(SnapshotBuffer& buffer, uint64_t tick, uint64_t generation, size_t nvert, float x) {
  ClothSnapshot& s = buffer.write_buffer();
  s.tick = tick;
  s.sim_time = double(tick) / 240.0;
  s.resize(nvert);
  for (size_t i = 0; i < nvert; ++i) s.position[i] = glm::vec3(x, float(i), 0.f), s.normal[i] = glm::vec3(0, 0, 1);
  s.topology.generation = generation;
  s.topology.material.assign(nvert, glm::vec2(0.f));
  s.topology.triangles.clear();
  for (uint32_t t = 0; t + 2 < nvert; ++t) s.topology.triangles.push_back({t, t + 1, t + 2});
  buffer.publish();
}

}  // namespace

TEST_CASE("interpolation: a new topology is taken whole, then blending resumes within it") {
  SnapshotBuffer buffer;
  ClothSnapshot out;
  publish(buffer, 0, 0, 4, 0.f);
  publish(buffer, 1, 1, 6, 1.f);  // a cut: two vertices more
  CHECK(interpolate_snapshot(buffer, 0.5 / 240.0, out) == doctest::Approx(1.0 / 240.0));  // not blended
  REQUIRE(out.position.size() == 6);
  CHECK(out.position[5] == glm::vec3(1.f, 5.f, 0.f));
  CHECK(out.topology.generation == 1);
  CHECK(out.topology.triangles.size() == 4);
  CHECK(out.topology.material.size() == 6);

  publish(buffer, 2, 1, 6, 3.f);  // same topology: blended again
  CHECK(interpolate_snapshot(buffer, 1.5 / 240.0, out) == doctest::Approx(1.5 / 240.0));
  CHECK(out.position[5].x == doctest::Approx(2.f));
  CHECK(out.topology.generation == 1);

  publish(buffer, 3, 2, 6, 5.f);  // a removal: triangles gone, the same vertex count; still not blended
  CHECK(interpolate_snapshot(buffer, 2.5 / 240.0, out) == doctest::Approx(3.0 / 240.0));
  CHECK(out.position[5].x == 5.f);
  CHECK(out.topology.generation == 2);
}

}  // namespace weft
