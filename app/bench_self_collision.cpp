// `weft bench --suite self-collision`: a ~4k-vertex cloth crumpled on a floor; times the whole step
// and the self-collision share (issue 8: at most 40 %).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include <glm/gtc/matrix_transform.hpp>

#include "app/bench_suites.h"
#include "app/self_collision_scenarios.h"
#include "sim/integrator.h"
#include "sim/intersection_count.h"
#include "sim/mesh_generators.h"
#include "sim/self_collision.h"

namespace weft::app {

nlohmann::json bench_self_collision(const BenchOptions& options) {
  using clock = std::chrono::steady_clock;
  const uint32_t cells = options.quick ? 24 : 64;
  const float size = 1.f, h = 1.f / 240.f;
  const int settle = options.quick ? 120 : 180;  // untimed: let it fall and crumple
  const int steps = options.steps > 0 ? options.steps : (options.quick ? 60 : 240);
  // The validation's drop (an L-shaped sheet whose raised half falls over onto the flat half), with a
  // wave along the raised half so that it lands in folds.
  Mesh mesh = make_grid({.width = size, .height = size, .columns = cells, .rows = cells});
  const float hinge = 0.5f * size, angle = glm::radians(110.f);
  for (auto& p : mesh.positions) {
    const float d = std::max(p.x - hinge, 0.f);
    p = glm::vec3(std::min(p.x, hinge) + d * std::cos(angle), 0.01f + d * std::sin(angle),
                  p.y + 0.03f * std::sin(6.f * glm::pi<float>() * d));
  }
  Material material;
  material.bend_stiffness = 0.5f;
  const ClothModel model = build_cloth_model(mesh, material);
  ClothState state = make_rest_state(model);
  auto integrator = make_integrator(IntegratorKind::ConjugateGradient, model);
  SelfCollision self(model, {.thickness = 0.004f});

  double integrate_s = 0, self_s = 0;
  uint64_t contacts = 0, pairs = 0;
  std::fprintf(stderr, "bench self-collision: %zu vertices, %d + %d steps\n", model.vertex_count(), settle, steps);
  for (int s = 0; s < settle + steps; ++s) {
    const auto t0 = clock::now();
    self.begin_step(state);
    integrator->step(model, state, h);
    floor_clamp(state, 0.f, 1.f);
    const auto t1 = clock::now();
    self.resolve(model, state, h);
    const auto t2 = clock::now();
    floor_clamp(state, 0.f, 1.f);
    if (s % 60 == 0)
      std::fprintf(stderr, "  step %d: %llu contacts, %llu pairs, self %.2f ms, integrator %.2f ms\n", s,
                   (unsigned long long)(self.stats().vertex_triangle + self.stats().edge_edge),
                   (unsigned long long)self.stats().candidate_pairs,
                   1e3 * std::chrono::duration<double>(t2 - t1).count(),
                   1e3 * std::chrono::duration<double>(t1 - t0).count());
    if (s < settle) continue;
    integrate_s += std::chrono::duration<double>(t1 - t0).count();
    self_s += std::chrono::duration<double>(t2 - t1).count();
    contacts += self.stats().vertex_triangle + self.stats().edge_edge;
    pairs += self.stats().candidate_pairs;
  }
  float height = 0.f;
  for (const auto& p : state.position) height = std::max(height, p.y);
  const double per_step = (integrate_s + self_s) / steps;
  return {{"vertices", model.vertex_count()},
          {"triangles", model.triangle_count()},
          {"integrator", "cg"},
          {"steps", steps},
          {"ms_per_step", 1e3 * per_step},
          {"integrator_ms", 1e3 * integrate_s / steps},
          {"self_collision_ms", 1e3 * self_s / steps},
          {"self_collision_share", self_s / (integrate_s + self_s)},
          {"contacts", double(contacts) / steps},
          {"candidate_pairs", double(pairs) / steps},
          {"pile_height_m", height},
          {"final_intersections", count_self_intersections(model, state.position).edge_triangle}};
}

}  // namespace weft::app
