#include <doctest/doctest.h>

#include <string>

#include "engine/demo_scene.h"
#include "engine/scene_loader.h"

using namespace weft;

TEST_CASE("demo scene from a scene file: colliders become floor and table, near corners on the camera side") {
  TableSceneSpec spec;
  spec.scene_file = std::string(WEFT_SOURCE_DIR) + "/assets/scenes/table.json";
  const DemoScene table = make_table_scene(spec);
  REQUIRE(table.props.table.has_value());
  CHECK(table.props.floor_height == doctest::Approx(0.f));
  CHECK(table.props.table->top_height == doctest::Approx(0.75f));  // box centre 0.375 + half height 0.375
  CHECK(table.props.table->size_xz.x == doctest::Approx(1.f));
  const auto& rest = table.world.model().rest_position;
  const glm::vec3 a = rest[table.near_corners[0]], b = rest[table.near_corners[1]];
  CHECK(a.x < b.x);
  CHECK(a.z == doctest::Approx(b.z));
  for (const glm::vec3& p : rest) CHECK(p.z <= a.z + 1e-5f);  // nothing nearer the camera

  spec.scene_file = std::string(WEFT_SOURCE_DIR) + "/assets/scenes/hanging.json";
  const DemoScene hanging = make_table_scene(spec);
  CHECK_FALSE(hanging.props.table.has_value());
  CHECK(hanging.near_corners[0] != hanging.near_corners[1]);

  spec.scene_file = std::string(WEFT_BINARY_DIR) + "/no_such_scene.json";
  CHECK_THROWS_AS(make_table_scene(spec), SceneError);
}
