#include "engine/snapshot.h"

#include <doctest/doctest.h>

#include "sim/cloth_model.h"
#include "sim/cloth_state.h"
#include "sim/mesh_generators.h"

namespace weft {
namespace {

TEST_CASE("write_snapshot_cloth: flat rest grid has +z normals and zero strain and pins flagged") {
  GridSpec g;
  g.columns = g.rows = 3;
  const ClothModel model = build_cloth_model(make_grid(g), Material{}, {0, 3});
  ClothState state = make_rest_state(model);
  ClothSnapshot s;
  s.resize(model.vertex_count());
  write_snapshot_cloth(model, state, s);
  for (size_t v = 0; v < model.vertex_count(); ++v) {
    CHECK(s.position[v] == state.position[v]);
    CHECK(s.normal[v].z == doctest::Approx(1.f));  // counter-clockwise triangles in z = 0
    CHECK(s.strain[v] == doctest::Approx(0.f).epsilon(1e-6));
    CHECK(s.grasped[v] == ((v == 0 || v == 3) ? 4 : 0));
  }
  // Stretch vertex 5 along x by 10% of an edge: its strain is positive, far vertices stay at zero.
  state.position[5].x += 0.1f / 3.f;
  write_snapshot_cloth(model, state, s);
  CHECK(s.strain[5] > 0.05f);
  CHECK(s.strain[15] == doctest::Approx(0.f).epsilon(1e-6));
}

}  // namespace
}  // namespace weft
