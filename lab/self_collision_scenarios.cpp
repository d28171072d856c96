#include "lab/self_collision_scenarios.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>

#include <glm/gtc/matrix_transform.hpp>

#include "sim/cloth_model.h"
#include "sim/collision_geometry.h"
#include "sim/intersection_count.h"
#include "sim/mesh_generators.h"
#include "sim/world.h"

namespace weft::lab {
namespace {

constexpr float kTick = 1.f / 240.f;

// Default cloth with light link damping (with the default 0.01 N s/m the approximate solver slows a
// falling sheet to a crawl), limp enough to fold rather than bend as a board.
Material scenario_material() {
  Material m;
  m.damping = 0.001f;
  m.bend_stiffness = 0.5f;
  return m;
}

WorldConfig scenario_config(const ScenarioOptions& options) {
  WorldConfig c;
  c.tick_hz = 1.0 / double(kTick);
  c.integrator = options.integrator;
  if (options.integrator != IntegratorKind::ApproximateImplicit) c.solver = SolverOptions{};
  c.solver.mg_threads = options.threads;
  c.self_collision = {.enabled = options.self_collision, .thickness = options.thickness};
  c.make_custom_integrator = options.make_integrator;
  return c;
}

// The floor: a plane collider at y = 0 with a grippy cloth-on-floor friction.
Collider floor_plane() {
  Collider c;
  c.shape = ColliderShape::Plane;
  c.mu_static = 1.f;
  c.mu_kinetic = 0.8f;
  return c;
}

// A World on the runtime path plus an exact intersection counter sampled every few ticks.
struct Scene {
  World world;
  TriangleBvh counter_bvh;
  std::vector<TrianglePair> counter_pairs;
  uint64_t max_intersections = 0;
  uint64_t max_contacts = 0;
  uint64_t largest_zone = 0;   // most vertices in one impact zone
  uint64_t capped_ticks = 0;   // ticks on which a self-collision cap engaged

  Scene(const Mesh& mesh, const ScenarioOptions& options)
      : world(build_cloth_model(mesh, scenario_material()), scenario_config(options)), counter_bvh(world.model()) {
    world.add_collider(floor_plane());
  }

  void step() {
    world.step();
    if (const SelfCollision* self = world.self_collision()) {
      const SelfCollisionStats& st = self->stats();
      max_contacts = std::max(max_contacts, st.vertex_triangle + st.edge_edge);
      largest_zone = std::max(largest_zone, st.largest_zone);
      capped_ticks += st.pairs_capped + st.zones_capped + st.dropped > 0 ? 1 : 0;
    }
  }
  uint64_t intersections() {
    const uint64_t n =
        count_self_intersections(world.model(), world.state().position, counter_bvh, counter_pairs).edge_triangle;
    max_intersections = std::max(max_intersections, n);
    return n;
  }
  float top() const {
    float y = -std::numeric_limits<float>::infinity();
    for (const auto& p : world.state().position) y = std::max(y, p.y);
    return y;
  }
  bool finite() const {
    for (const auto& p : world.state().position)
      if (!std::isfinite(p.x + p.y + p.z)) return false;
    return true;
  }
};

Mesh horizontal_grid(float size, uint32_t cells, glm::vec3 offset) {
  Mesh mesh = make_grid({.width = size, .height = size, .columns = cells, .rows = cells});
  // Grid plane z = 0 onto the floor plane y = const: (x, y, 0) -> (x, 0, -y).
  transform_mesh(mesh, glm::translate(glm::mat4(1.f), offset) *
                           glm::rotate(glm::mat4(1.f), -glm::half_pi<float>(), glm::vec3(1, 0, 0)));
  return mesh;
}

void append_mesh(Mesh& dst, const Mesh& src) {
  const uint32_t base = uint32_t(dst.positions.size());
  dst.positions.insert(dst.positions.end(), src.positions.begin(), src.positions.end());
  dst.material.insert(dst.material.end(), src.material.begin(), src.material.end());
  for (auto t : src.triangles) dst.triangles.push_back({t[0] + base, t[1] + base, t[2] + base});
}


}  // namespace

std::vector<ScenarioCheck> run_drop_fold(const ScenarioOptions& options) {
  const uint32_t cells = options.reduced ? 14 : 20;
  const float size = options.reduced ? 0.4f : 0.5f;
  const int steps = int((options.reduced ? 2.f : 3.f) / kTick);
  // An L-shaped sheet: one half flat 1 cm above the floor, the other raised at 110 degrees so that it
  // leans over the flat half; dropped, it falls over onto it.
  Mesh mesh = horizontal_grid(size, cells, glm::vec3(0.f));
  const float hinge = 0.5f * size, angle = glm::radians(110.f);
  for (auto& p : mesh.positions) {
    const float d = std::max(p.x - hinge, 0.f);
    p = glm::vec3(std::min(p.x, hinge) + d * std::cos(angle), 0.01f + d * std::sin(angle), p.z);
  }
  Scene scene(mesh, options);
  for (int s = 0; s < steps; ++s) {
    scene.step();
    if (s % 8 == 0) scene.intersections();
  }
  const uint64_t final_count = scene.intersections();
  return {
      {"drop_fold.final_intersections", double(final_count), 0},
      {"drop_fold.max_intersections", double(scene.max_intersections), 0},
      {"drop_fold.max_self_contacts", double(scene.max_contacts), 1, true},  // it did fold onto itself
      {"drop_fold.final_height_m", scene.finite() ? double(scene.top()) : 1e9, double(size) * 0.5, false},  // it fell over
  };
}

std::vector<ScenarioCheck> run_stacked_press(const ScenarioOptions& options) {
  const uint32_t cells = options.reduced ? 12 : 24;
  const float size = options.reduced ? 0.3f : 0.5f;
  const int steps = int((options.reduced ? 0.6f : 1.5f) / kTick);
  const float cell = size / float(cells);
  // Lower sheet on the floor (at the collider thickness), upper sheet 2 cm above, shifted by a third
  // of a cell so no vertex lands on a vertex.
  const float rest = WorldConfig{}.interaction.thickness;
  Mesh mesh = horizontal_grid(size, cells, glm::vec3(0.f, rest, 0.f));
  const size_t lower_vertices = mesh.positions.size(), lower_triangles = mesh.triangles.size();
  append_mesh(mesh, horizontal_grid(size, cells, glm::vec3(cell / 3, rest + 0.02f, cell / 3)));
  Scene scene(mesh, options);
  const size_t n = scene.world.model().vertex_count();
  const auto upper = uint32_t(lower_vertices), upper_count = uint32_t(n - lower_vertices);
  scene.world.add_velocity(glm::vec3(0.f, -1.f, 0.f), upper, upper_count);  // thrown down (from rest)
  const float press = 9.81f;  // a hand pressing the upper sheet: 1 g on top of gravity
  for (int s = 0; s < steps; ++s) {
    scene.world.add_velocity(glm::vec3(0.f, -press * kTick, 0.f), upper, upper_count);
    scene.step();
    if (s % 8 == 0) scene.intersections();
  }
  const uint64_t final_count = scene.intersections();
  // Smallest distance from an upper vertex to the lower sheet.
  const auto& x = scene.world.state().position;
  float min_gap = std::numeric_limits<float>::infinity();
  for (size_t i = lower_vertices; i < n; ++i)
    for (size_t t = 0; t < lower_triangles; ++t) {
      const auto& tri = scene.world.model().triangle[t];
      const glm::vec3 w = closest_point_on_triangle(x[i], x[tri[0]], x[tri[1]], x[tri[2]]);
      const glm::vec3 q = w.x * x[tri[0]] + w.y * x[tri[1]] + w.z * x[tri[2]];
      min_gap = std::min(min_gap, glm::length(x[i] - q));
    }
  if (!scene.finite()) min_gap = 0.f;
  return {
      {"stacked_press.final_intersections", double(final_count), 0},
      {"stacked_press.max_intersections", double(scene.max_intersections), 0},
      {"stacked_press.min_gap_m", double(min_gap), 0.5 * double(options.thickness), true},
      {"stacked_press.max_self_contacts", double(scene.max_contacts), 1, true},
  };
}

std::vector<ScenarioCheck> run_hand_fold(const ScenarioOptions& options) {
  const uint32_t cells = options.reduced ? 12 : 24;
  const float size = options.reduced ? 0.3f : 0.5f;
  const float fold_time = options.reduced ? 0.8f : 1.2f, rest_time = options.reduced ? 0.7f : 1.5f;
  const float rest = WorldConfig{}.interaction.thickness;
  Mesh mesh = horizontal_grid(size, cells, glm::vec3(0.f, rest, 0.f));
  Scene scene(mesh, options);
  World& world = scene.world;
  // The hands grab the two corners of one edge (grid vertices 0 and cells * (cells + 1)) and carry
  // them over a half-ellipse across the sheet, landing just above its other half, then let go.
  const uint32_t stride = cells + 1;
  const std::array<Hand, 2> hands = {Hand::Left, Hand::Right};
  const std::array<glm::vec3, 2> start = {world.state().position[0], world.state().position[cells * stride]};
  const float edge_x = start[0].x;
  float far_x = edge_x;
  for (const auto& p : world.state().position) far_x = std::max(far_x, p.x);
  const float span = far_x - edge_x;
  const float radius = 0.5f * span, lift = 0.4f * span, land = 3.f * options.thickness;
  const size_t held = grab_with_both_hands(world, start, 1.5f * span / float(cells));
  const int fold_steps = int(fold_time / kTick), rest_steps = int(rest_time / kTick);
  for (int s = 0; s < fold_steps + rest_steps; ++s) {
    if (s < fold_steps) {
      // The hand pose at the end of this tick, on the sim clock.
      const glm::vec3 d = fold_offset(s + 1, fold_steps, radius, lift, land);
      for (int k = 0; k < 2; ++k)
        world.submit_pose(hand_sample(hands[k], world.state().time + double(kTick), start[k] + d));
    } else if (s == fold_steps) {
      world.release(Hand::Left);
      world.release(Hand::Right);
    }
    scene.step();
    if (s % 8 == 0) scene.intersections();
  }
  const uint64_t final_count = scene.intersections();
  const float folded_x = 0.5f * (world.state().position[0].x + world.state().position[cells * stride].x);
  return {
      {"hand_fold.held_vertices", double(held), 2, true},
      {"hand_fold.final_intersections", double(final_count), 0},
      {"hand_fold.max_intersections", double(scene.max_intersections), 0},
      {"hand_fold.held_edge_x_over_size", scene.finite() ? double((folded_x - edge_x) / span) : 0., 0.75, true},  // folded
      {"hand_fold.max_self_contacts", double(scene.max_contacts), 1, true},
  };
}

std::vector<ScenarioCheck> run_hand_crumple(const ScenarioOptions& options) {
  // A 1 m sheet of 128 x 128 vertices (reduced: 25 x 25) on the floor. The hands take the middles of
  // two opposite edges and bring them towards each other over a lifted, wobbling path for most of the
  // run, bunching the sheet between them; then they let go and it settles.
  const uint32_t cells = options.reduced ? 24 : 127;
  const float size = 1.f, seconds = options.reduced ? 1.f : 5.f;
  // The thickness stays below a third of the edge (7.9 mm at full size).
  ScenarioOptions o = options;
  o.thickness = std::min(options.thickness, 0.3f * size / float(cells));
  const float rest = WorldConfig{}.interaction.thickness;
  Mesh mesh = horizontal_grid(size, cells, glm::vec3(0.f, rest, 0.f));
  Scene scene(mesh, o);
  World& world = scene.world;
  const uint32_t stride = cells + 1, mid = cells / 2;
  const std::array<Hand, 2> hands = {Hand::Left, Hand::Right};
  const std::array<glm::vec3, 2> start = {world.state().position[mid * stride],
                                          world.state().position[mid * stride + cells]};
  const size_t held = grab_with_both_hands(world, start, 1.5f * size / float(cells));
  const uint64_t at_start = scene.intersections();
  const int steps = int(seconds / kTick), move_steps = steps * 3 / 4;
  for (int s = 0; s < steps; ++s) {
    if (s < move_steps) {
      const float u = float(s + 1) / float(move_steps);  // 0 -> 1 over the motion
      const float t = float(s + 1) * kTick;
      for (int k = 0; k < 2; ++k) {
        const float side = k == 0 ? 1.f : -1.f;  // towards the middle
        const glm::vec3 d(side * 0.35f * size * u, 0.25f * size * std::sin(glm::pi<float>() * u),
                          0.08f * size * std::sin(6.f * t + float(k)));
        world.submit_pose(hand_sample(hands[k], world.state().time + double(kTick), start[k] + d));
      }
    } else if (s == move_steps) {
      world.release(Hand::Left);
      world.release(Hand::Right);
    }
    scene.step();
    if (s % 48 == 0) {
      const uint64_t n = scene.intersections();
      std::fprintf(stderr, "  crumple t = %.2f s: %llu crossing edge-triangle pairs, %llu contacts, largest zone %llu, "
                   "%llu capped ticks\n", double(s + 1) * kTick, (unsigned long long)n,
                   (unsigned long long)(world.self_collision()->stats().vertex_triangle +
                                        world.self_collision()->stats().edge_edge),
                   (unsigned long long)scene.largest_zone, (unsigned long long)scene.capped_ticks);
    }
  }
  const uint64_t final_count = scene.intersections();
  return {
      {"hand_crumple.vertices", double(world.model().vertex_count()), options.reduced ? 600. : 16000., true},
      {"hand_crumple.held_vertices", double(held), 2, true},
      {"hand_crumple.finite", scene.finite() ? 1. : 0., 1, true},
      {"hand_crumple.new_intersections_at_end",
       double(final_count) - double(at_start), 0},
      {"hand_crumple.max_self_contacts", double(scene.max_contacts), 1, true},
  };
}

glm::vec3 fold_offset(int step, int steps, float radius, float lift, float land) {
  const float th = glm::pi<float>() * float(step) / float(steps);
  const float dx = radius - radius * std::cos(th), dy = land * float(step) / float(steps) + lift * std::sin(th);
  return glm::vec3(dx, dy, 0.f);
}

PoseSample hand_sample(Hand hand, double t, const glm::vec3& p) {
  PoseSample s;
  s.time = t;
  s.device = hand_device(hand);
  s.pose.position = p;
  return s;
}

size_t grab_with_both_hands(World& world, const std::array<glm::vec3, 2>& start, float radius) {
  size_t held = 0;
  for (int k = 0; k < 2; ++k) {
    const Hand hand = k == 0 ? Hand::Left : Hand::Right;
    Pose p;
    p.position = start[k];
    held += world.grab(hand, p, radius);
    world.submit_pose(hand_sample(hand, world.state().time, start[k]));
  }
  return held;
}

}  // namespace weft::lab
