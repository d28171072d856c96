#include <doctest/doctest.h>

#include <vector>

#include "sim/cut_twins.h"
#include "sim/mesh_generators.h"
#include "sim/topology.h"

using namespace weft;

// Two strips of two triangles each, side by side with a cut between them: vertices 0-3 on one lip (1 and 3 on
// the cut), 4-7 on the other (4 and 6 on the cut, twins of 1 and 3), plus a far triangle 8-10.
TEST_CASE("cut twins: the triangles round a live twin pair are joined until the pair parts") {
  const std::vector<std::array<uint32_t, 3>> tri = {{0, 1, 3}, {0, 3, 2}, {4, 5, 7}, {4, 7, 6}, {8, 9, 10}};
  Mesh mesh;
  mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {1, 0, 0}, {2, 0, 0}, {1, 1, 0}, {2, 1, 0},
                    {5, 5, 0}, {6, 5, 0}, {5, 6, 0}};
  mesh.material.assign(mesh.positions.size(), glm::vec2(0.f));
  mesh.triangles = tri;
  const Topology topo = build_topology(mesh);
  CutTwins twins;
  twins.build(topo, mesh.positions.size(), tri.size(), tri, {{1, 4}, {6, 3}, {2, 2}, {99, 1}});  // the last two ignored
  CHECK(twins.live_count() == 2);
  CHECK(twins.joined(0, 2, tri));
  CHECK(twins.joined(1, 3, tri));  // 3's triangle and 6's
  CHECK(twins.joined(3, 1, tri));  // symmetric
  CHECK_FALSE(twins.joined(0, 1, tri));  // one lip: neighbours by the mesh, not by a twin
  CHECK_FALSE(twins.joined(0, 4, tri));
  CHECK_FALSE(twins.joined(4, 2, tri));
  // Parting: pair (1, 4) moved 3 mm apart retires at 2 mm, (3, 6) stays; a retired pair never comes back.
  std::vector<glm::vec3> x = mesh.positions;
  x[4].x += 0.003f;
  CHECK(twins.expire(x.data(), 0.002f) == 1);
  CHECK(twins.live_count() == 1);
  CHECK(twins.joined(1, 3, tri));   // still through (3, 6)
  CHECK(twins.live().size() == 1);
  CHECK(twins.live()[0] == std::array<uint32_t, 2>{3, 6});
  x[6].x += 0.003f;
  CHECK(twins.expire(x.data(), 0.002f) == 1);
  CHECK_FALSE(twins.joined(0, 2, tri));
  CHECK_FALSE(twins.joined(1, 3, tri));
  x = mesh.positions;
  CHECK(twins.expire(x.data(), 0.002f) == 0);
  CHECK(twins.live_count() == 0);
  twins.rearm();  // a reset: both live again
  CHECK(twins.live_count() == 2);
  CHECK(twins.joined(0, 2, tri));
}
