#pragma once
// The small stiff cloth the solver tests share: a horizontal 0.4 m cotton grid (x-z plane),
// (quads + 1)^2 vertices, pinned at the two corners of one edge, and its rest state jittered.
#include <random>

#include "sim/cloth_state.h"
#include "sim/mesh_generators.h"

namespace weft::test {

inline ClothModel hanging_model(float damping, uint32_t quads = 12) {
  Material m;
  m.damping = damping;
  Mesh mesh = make_grid({.width = 0.4f, .height = 0.4f, .columns = quads, .rows = quads});
  for (auto& p : mesh.positions) p = glm::vec3(p.x, 0.f, p.y);
  return build_cloth_model(mesh, m, {0, quads});
}

// The rest state with every free vertex moved by 1 mm Gaussian noise: a step then has work to do.
inline ClothState jittered_rest_state(const ClothModel& model, unsigned seed = 3) {
  ClothState s = make_rest_state(model);
  std::mt19937 rng(seed);
  std::normal_distribution<float> noise(0.f, 1.f);
  for (size_t i = 0; i < s.position.size(); ++i)
    if (!s.kinematic[i]) s.position[i] += 0.001f * glm::vec3(noise(rng), noise(rng), noise(rng));
  return s;
}

}  // namespace weft::test
