#include "engine/demo_scene.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

#include "engine/scene_loader.h"
#include "sim/mesh_generators.h"
#include "sim/scene.h"

namespace weft {
namespace {

DemoScene scene_from_file(const TableSceneSpec& spec) {
  const Scene file = load_scene(spec.scene_file);
  SceneProps props;
  for (const Collider& c : file.colliders) {
    if (c.shape == ColliderShape::Plane) props.floor_height = c.pose.position.y;
    if (c.shape == ColliderShape::Box && !props.table) {
      // Drawn as the table: its top face and footprint.
      TableProp t;
      t.center_xz = glm::vec2(c.pose.position.x, c.pose.position.z);
      t.size_xz = 2.f * glm::vec2(c.half_extents.x, c.half_extents.z);
      t.top_height = c.pose.position.y + c.half_extents.y - props.floor_height;
      props.table = t;
    }
  }
  World world = build_world(file);
  // The scripted demo takes the two cloth vertices nearest the low corners on the camera's (+z) side.
  glm::vec3 lo(INFINITY), hi(-INFINITY);
  const auto& rest = world.model().rest_position;
  for (const glm::vec3& p : rest) { lo = glm::min(lo, p); hi = glm::max(hi, p); }
  auto nearest = [&](const glm::vec3& q) {
    uint32_t best = 0;
    for (uint32_t i = 1; i < rest.size(); ++i)
      if (glm::distance(rest[i], q) < glm::distance(rest[best], q)) best = i;
    return best;
  };
  const uint32_t left = nearest({lo.x, lo.y, hi.z}), right = nearest({hi.x, lo.y, hi.z});
  DemoScene scene{std::move(world), props, {left, right}, OrbitCamera{}};
  scene.camera.target = 0.5f * (lo + hi);
  scene.camera.distance = std::max(1.2f, 2.4f * glm::length(hi - lo));
  scene.camera.pitch = 0.35f;
  scene.camera.yaw = 0.35f;
  return scene;
}

}  // namespace

DemoScene make_table_scene(const TableSceneSpec& spec) {
  if (!spec.scene_file.empty()) return scene_from_file(spec);
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
