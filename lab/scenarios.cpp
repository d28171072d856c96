#include "lab/scenarios.h"

#include <glm/gtc/matrix_transform.hpp>

namespace weft::lab {

HangingCloth make_hanging_grid(uint32_t quads, float size, bool horizontal) {
  HangingCloth c;
  c.mesh = make_grid({.width = size, .height = size, .columns = quads, .rows = quads});
  const uint32_t stride = quads + 1;
  if (horizontal) {
    // material (u, v) -> world (u, 1, v); pins at v = 0
    glm::mat4 T = glm::translate(glm::mat4(1.f), glm::vec3(-0.5f * size, 1.f, 0.f));
    T = glm::rotate(T, glm::half_pi<float>(), glm::vec3(1, 0, 0));
    transform_mesh(c.mesh, T);
    c.pins = {0, quads};
  } else {
    // material (u, v) -> world (u, v); pins at the top edge
    transform_mesh(c.mesh, glm::translate(glm::mat4(1.f), glm::vec3(-0.5f * size, 1.f - size, 0.f)));
    c.pins = {quads * stride, quads * stride + quads};
  }
  return c;
}

Material cotton_material() {
  Material m;
  m.areal_density = 0.15f;
  m.stiffness_scale = StiffnessScale::PerRestLength;
  m.stretch_stiffness = 500.f;
  m.bend_stiffness = 0.5f;
  m.damping = 0.002f;
  return m;
}

}  // namespace weft::lab
