#include <doctest/doctest.h>

#include "engine/snapshot_builder.h"
#include "sim/mesh_generators.h"

namespace weft {

TEST_CASE("snapshot builder: unit normals along the triangle winding, signed per-vertex strain, pin flags") {
  GridSpec g;
  g.columns = g.rows = 4;
  World world(build_cloth_model(make_grid(g), Material{}, {0}), WorldConfig{});
  ClothSnapshot snap;
  fill_snapshot(world, snap);
  REQUIRE(snap.position.size() == world.model().vertex_count());
  for (const glm::vec3& n : snap.normal) {
    CHECK(n.z == doctest::Approx(1.f));  // grid in z = 0, counter-clockwise triangles
  }
  for (float s : snap.strain) CHECK(s == doctest::Approx(0.f));
  CHECK(snap.grasped[0] == 4);
  CHECK(snap.grasped[1] == 0);

  // Stretch the last column by 10 % of a cell along x: its vertices report +0.1 strain.
  ClothState& st = world.mutable_state();
  for (size_t i = 0; i < st.position.size(); ++i)
    if (i % 5 == 4) st.position[i].x += 0.1f * 0.25f;
  fill_snapshot(world, snap);
  CHECK(snap.strain[4] == doctest::Approx(0.1f).epsilon(0.02));
  CHECK(snap.strain[2] == doctest::Approx(0.f));
}

}  // namespace weft
