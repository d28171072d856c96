#include "engine/demo_scene.h"

#include <glm/gtc/matrix_transform.hpp>

#include "sim/mesh_generators.h"

namespace weft {

DemoScene make_table_scene(const TableSceneSpec& spec) {
  SceneProps props;
  props.table = TableProp{};
  const float top = props.floor_height + props.table->top_height;

  GridSpec grid;
  grid.width = grid.height = spec.cloth_size;
  grid.columns = grid.rows = spec.quads;
  Mesh mesh = make_grid(grid);
  // Grid plane z = 0 (normal +z) -> horizontal (normal +y), centred on the table; grid row 0 ends up
  // on the +z side, nearest the default camera.
  glm::mat4 place = glm::translate(glm::mat4(1.f), glm::vec3(-0.5f * spec.cloth_size, top + spec.lift,
                                                             0.5f * spec.cloth_size));
  place = glm::rotate(place, glm::radians(-90.f), glm::vec3(1.f, 0.f, 0.f));
  transform_mesh(mesh, place);

  WorldConfig config;
  config.tick_hz = spec.tick_hz;
  config.integrator = spec.integrator;
  DemoScene scene{World(build_cloth_model(mesh, Material{}), config), props, {0u, spec.quads}, OrbitCamera{}};
  scene.camera.target = glm::vec3(0.f, top + 0.1f, 0.f);
  scene.camera.distance = 2.1f;
  scene.camera.pitch = 0.45f;
  scene.camera.yaw = 0.35f;
  return scene;
}

size_t apply_stand_in_contact(const SceneProps& props, ClothState& state, float thickness, float friction) {
  size_t contacts = 0;
  for (size_t i = 0; i < state.position.size(); ++i) {
    if (state.kinematic[i]) continue;
    glm::vec3& x = state.position[i];
    glm::vec3& v = state.velocity[i];
    float surface = props.floor_height;
    if (props.table) {
      const TableProp& t = *props.table;
      const glm::vec2 d = glm::abs(glm::vec2(x.x, x.z) - t.center_xz);
      const float top = props.floor_height + t.top_height;
      // Only vertices over the top and not far below it (those came from above) rest on the table.
      if (d.x <= 0.5f * t.size_xz.x && d.y <= 0.5f * t.size_xz.y && x.y > top - 0.05f) surface = top;
    }
    if (x.y < surface + thickness) {
      x.y = surface + thickness;
      if (v.y < 0.f) v.y = 0.f;
      v.x *= 1.f - friction;
      v.z *= 1.f - friction;
      ++contacts;
    }
  }
  return contacts;
}

}  // namespace weft
