// `weft bench --suite self-collision`: a ~4k-vertex cloth crumpled on a floor (a plane collider) in a
// World with self-collision on; times the whole step and the self-collision share (issue 8: at most
// 40 %), with CG and with the runtime's approximate solver (k = 3). A run that blows up stops at the
// first sign of it (a speed over 20 m/s or a step over 200 ms) and says when. Then issue 15's case: a
// 16k-vertex sheet on the floor folded onto itself by two hands, with CG and with the runtime's multigrid solver, timed
// from the moment the folded half comes down onto the other (self-collision ms per step, its share of
// the step, ns per vertex, contacts and the caps' counters).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include <glm/gtc/matrix_transform.hpp>

#include "lab/bench_suites.h"
#include "lab/self_collision_scenarios.h"
#include "sim/intersection_count.h"
#include "sim/mesh_generators.h"
#include "sim/world.h"

namespace weft::lab {
namespace {

// The floor plane y = 0 with high friction, so a pile does not slide apart.
Collider grippy_floor() {
  Collider floor;
  floor.mu_static = 1.f;
  floor.mu_kinetic = 0.8f;
  return floor;
}

// One stderr line every 60 steps of a long run.
void print_progress(int step, const SelfCollisionStats& st, const StepTiming& t) {
  std::fprintf(stderr, "  step %d: %llu contacts, %llu pairs, self %.2f ms, step %.2f ms\n", step,
               (unsigned long long)(st.vertex_triangle + st.edge_edge), (unsigned long long)st.candidate_pairs,
               t.self_collision_ms, t.total_ms);
}

// --trace: one stderr line per step, for finding where a run's self-collision time goes.
void print_step(int step, const SelfCollisionStats& st, const StepTiming& t) {
  std::fprintf(stderr,
               "  step %d: self %.2f ms, step %.2f ms, detections %llu (%llu local, %llu contacts kept), "
               "pairs %llu (separated %llu), contacts %llu vt %llu ee (%llu crossed), "
               "zones %llu (%llu vertices, largest %llu), passes %d, new crossings %llu, tangled pairs %llu "
               "(%llu vertices untangled)\n",
               step, t.self_collision_ms, t.total_ms, (unsigned long long)st.detections,
               (unsigned long long)st.local_detections, (unsigned long long)st.kept_contacts,
               (unsigned long long)st.candidate_pairs, (unsigned long long)st.separated,
               (unsigned long long)st.vertex_triangle, (unsigned long long)st.edge_edge, (unsigned long long)st.crossed,
               (unsigned long long)st.zones, (unsigned long long)st.zone_vertices, (unsigned long long)st.largest_zone,
               st.position_passes, (unsigned long long)st.new_crossings, (unsigned long long)st.intersecting_pairs,
               (unsigned long long)st.untangled_vertices);
}

nlohmann::json run_crumple(const BenchOptions& options, IntegratorKind kind) {
  const uint32_t cells = options.quick ? 24 : 64;
  const float size = 1.f;
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
  WorldConfig config;
  config.integrator = kind;
  if (kind != IntegratorKind::ApproximateImplicit) config.solver = SolverOptions{};
  config.self_collision = {.enabled = true, .thickness = 0.004f};
  config.self_collision.carry_contacts = options.carry_contacts;
  config.solver.mg_threads = options.threads;
  World world(build_cloth_model(mesh, material), config);
  world.add_collider(grippy_floor());
  const char* name = integrator_kind_name(kind);

  double total_ms = 0, self_ms = 0, integrator_ms = 0, max_speed = 0, max_violation = 0;
  int blew_up_at = -1;
  uint64_t contacts = 0, pairs = 0, crossed = 0;
  std::fprintf(stderr, "bench self-collision (%s): %zu vertices, %d + %d steps\n", name, world.model().vertex_count(),
               settle, steps);
  for (int s = 0; s < settle + steps; ++s) {
    world.step();
    const StepTiming& t = world.last_timing();
    const SelfCollisionStats& st = world.self_collision()->stats();
    if (s % 60 == 0) print_progress(s, st, t);
    if (options.trace) print_step(s, st, t);
    float speed = 0.f;
    for (const glm::vec3& v : world.state().velocity) speed = std::max(speed, glm::length(v));
    if (!(speed < 20.f) || t.total_ms > 200.0) {
      blew_up_at = s;
      std::fprintf(stderr, "  step %d: blew up (max speed %.3g m/s, step %.1f ms), stopping\n", s, speed, t.total_ms);
      break;
    }
    if (s == settle) {  // the settling steps are timed only when it blows up before the timed ones
      total_ms = self_ms = integrator_ms = max_speed = max_violation = 0;
      contacts = pairs = crossed = 0;
    }
    total_ms += t.total_ms;
    self_ms += t.self_collision_ms;
    integrator_ms += t.integrator_ms;
    contacts += st.vertex_triangle + st.edge_edge;
    pairs += st.candidate_pairs;
    crossed += st.crossed;
    max_violation = std::max(max_violation, double(st.max_violation));
    max_speed = std::max(max_speed, double(speed));
  }
  float height = 0.f;
  bool finite = true;
  for (const auto& p : world.state().position) {
    height = std::max(height, p.y);
    finite = finite && std::isfinite(p.x + p.y + p.z);
  }
  const int timed = blew_up_at < 0 ? steps : std::max(blew_up_at < settle ? blew_up_at : blew_up_at - settle, 1);
  return {{"vertices", world.model().vertex_count()},
          {"blew_up_at_step", blew_up_at},
          {"triangles", world.model().triangle_count()},
          {"integrator", name},
          {"steps", timed},
          {"ms_per_step", total_ms / timed},
          {"integrator_ms", integrator_ms / timed},
          {"self_collision_ms", self_ms / timed},
          {"self_collision_share", total_ms > 0 ? self_ms / total_ms : 0.},
          {"contacts", double(contacts) / timed},
          {"candidate_pairs", double(pairs) / timed},
          {"crossed_per_step", double(crossed) / timed},
          {"max_violation_m", max_violation},
          {"max_speed_mps", max_speed},
          {"finite", finite},
          {"pile_height_m", height},
          {"final_intersections", finite ? double(count_self_intersections(world.model(), world.state().position).edge_triangle) : -1.}};
}


// A square sheet (128 x 128 vertices, 1 m) lying on the floor; the hands take the corners of one edge
// and carry them over a half-ellipse onto the other half, hold them there a moment, then let go.
nlohmann::json run_hand_fold(const BenchOptions& options, IntegratorKind kind) {
  const uint32_t cells = options.quick ? 31 : 127;
  const float size = 1.f, thickness = 0.0025f;  // below a third of the 7.9 mm edge
  const float tick = 1.f / 240.f;
  const int fold_steps = options.quick ? 120 : 240, hold_steps = options.quick ? 30 : 60;
  const int after_steps = options.steps > 0 ? options.steps : (options.quick ? 30 : 120);
  // Timed from 60 % of the fold (the carried half comes down) to the end.
  const int timed_from = fold_steps * 3 / 5;
  Mesh mesh = make_grid({.width = size, .height = size, .columns = cells, .rows = cells});
  for (auto& p : mesh.positions) p = glm::vec3(p.x, 0.004f, -p.y);  // onto the floor, y up
  Material material;
  material.bend_stiffness = 0.5f;
  material.damping = 0.001f;
  WorldConfig config;
  config.integrator = kind;
  config.solver = SolverOptions{};
  config.self_collision = {.enabled = true, .thickness = thickness};
  config.self_collision.carry_contacts = options.carry_contacts;
  config.solver.mg_threads = options.threads;
  World world(build_cloth_model(mesh, material), config);
  world.add_collider(grippy_floor());
  const char* name = integrator_kind_name(kind);
  const uint32_t stride = cells + 1;
  const std::array<Hand, 2> hands = {Hand::Left, Hand::Right};
  const std::array<glm::vec3, 2> start = {world.state().position[0], world.state().position[cells * stride]};
  float far_x = start[0].x;
  for (const auto& p : world.state().position) far_x = std::max(far_x, p.x);
  const float span = far_x - start[0].x, radius = 0.5f * span, lift = 0.3f * span, land = 4.f * thickness;
  grab_with_both_hands(world, start, 1.5f * span / float(cells));
  const uint64_t start_intersections = count_self_intersections(world.model(), world.state().position).triangle_pairs;
  std::fprintf(stderr, "bench self-collision two-hand fold (%s): %zu vertices, %d + %d + %d steps\n", name,
               world.model().vertex_count(), fold_steps, hold_steps, after_steps);
  double total_ms = 0, self_ms = 0, self_max = 0;
  uint64_t contacts = 0, max_contacts = 0, pairs = 0, zone_vertices = 0, largest_zone = 0, capped = 0;
  int timed = 0;
  bool finite = true;
  for (int s = 0; s < fold_steps + hold_steps + after_steps; ++s) {
    if (s < fold_steps) {
      const glm::vec3 d = fold_offset(s + 1, fold_steps, radius, lift, land);
      for (int k = 0; k < 2; ++k) world.submit_pose(hand_sample(hands[k], world.state().time + double(tick), start[k] + d));
    } else if (s == fold_steps + hold_steps) {
      world.release(Hand::Left);
      world.release(Hand::Right);
    }
    world.step();
    const StepTiming& t = world.last_timing();
    const SelfCollisionStats& st = world.self_collision()->stats();
    if (s % 60 == 0) print_progress(s, st, t);
    if (options.trace) print_step(s, st, t);
    if (s < timed_from) continue;
    ++timed;
    total_ms += t.total_ms;
    self_ms += t.self_collision_ms;
    self_max = std::max(self_max, t.self_collision_ms);
    contacts += st.vertex_triangle + st.edge_edge;
    max_contacts = std::max(max_contacts, st.vertex_triangle + st.edge_edge);
    pairs += st.candidate_pairs;
    zone_vertices += st.zone_vertices;
    largest_zone = std::max(largest_zone, st.largest_zone);
    capped += st.dropped + st.zones_capped;
  }
  for (const auto& p : world.state().position) finite = finite && std::isfinite(p.x + p.y + p.z);
  const double per_step = self_ms / std::max(timed, 1);
  const uint64_t end_intersections =
      finite ? count_self_intersections(world.model(), world.state().position).triangle_pairs : 0;
  std::fprintf(stderr, "  %s: self-collision %.3f ms/step (%.1f %% of %.2f ms), %.0f ns per vertex\n", name, per_step,
               total_ms > 0 ? 100. * self_ms / total_ms : 0., total_ms / std::max(timed, 1),
               1e6 * per_step / double(world.model().vertex_count()));
  return {{"vertices", world.model().vertex_count()},
          {"integrator", name},
          {"steps", timed},
          {"ms_per_step", total_ms / std::max(timed, 1)},
          {"self_collision_ms", per_step},
          {"self_collision_max_ms", self_max},
          {"self_collision_share", total_ms > 0 ? self_ms / total_ms : 0.},
          {"self_collision_ns_per_vertex", 1e6 * per_step / double(world.model().vertex_count())},
          {"contacts", double(contacts) / std::max(timed, 1)},
          {"max_contacts", max_contacts},
          {"candidate_pairs", double(pairs) / std::max(timed, 1)},
          {"zone_vertices", double(zone_vertices) / std::max(timed, 1)},
          {"largest_zone", largest_zone},
          {"capped", capped},
          {"finite", finite},
          {"start_intersecting_pairs", start_intersections},
          {"final_intersecting_pairs", end_intersections}};
}

// Issue 15's tangled input: a sheet generated folded over onto itself (sim/mesh_generators.h) with a
// wavy upper half whose troughs cross the lower half (tangled), or a smaller wave that keeps the layers
// apart (clean), left to settle on the floor. Timed over every step; the exact crossing count is taken at
// the start and the end.
nlohmann::json run_folded_over(const BenchOptions& options, bool tangled) {
  const uint32_t cells = options.quick ? 24 : 48;
  const int steps = options.steps > 0 ? options.steps : (options.quick ? 60 : 480);
  Mesh mesh = make_folded_over({.grid = {.width = 0.8f, .height = 0.8f, .columns = cells, .rows = cells},
                                .gap = 0.004f,
                                .amplitude = tangled ? 0.01f : 0.002f});
  for (auto& p : mesh.positions) p = glm::vec3(p.x, 0.01f + p.z, -p.y);  // onto the floor, y up
  Material material;
  material.bend_stiffness = 0.5f;
  WorldConfig config;
  config.solver = SolverOptions{};
  config.self_collision = {.enabled = true, .thickness = 0.004f};
  config.self_collision.carry_contacts = options.carry_contacts;
  config.solver.mg_threads = options.threads;
  World world(build_cloth_model(mesh, material), config);
  world.add_collider(grippy_floor());
  const uint64_t at_load = world.self_collision()->tangled_at_scan();
  const uint64_t start = count_self_intersections(world.model(), world.state().position).triangle_pairs;
  std::fprintf(stderr, "bench self-collision folded over (%s): %zu vertices, %llu crossing pairs at load, %d steps\n",
               tangled ? "tangled" : "clean", world.model().vertex_count(), (unsigned long long)at_load, steps);
  double total_ms = 0, self_ms = 0, self_max = 0;
  uint64_t contacts = 0, largest_zone = 0, left_out = 0, capped = 0;
  bool finite = true;
  for (int s = 0; s < steps; ++s) {
    world.step();
    const StepTiming& t = world.last_timing();
    const SelfCollisionStats& st = world.self_collision()->stats();
    if (options.trace) print_step(s, st, t);
    if (options.trace && s % 40 == 39)
      std::fprintf(stderr, "  step %d: %llu crossing pairs\n", s,
                   (unsigned long long)count_self_intersections(world.model(), world.state().position).triangle_pairs);
    total_ms += t.total_ms;
    self_ms += t.self_collision_ms;
    self_max = std::max(self_max, t.self_collision_ms);
    contacts += st.vertex_triangle + st.edge_edge;
    largest_zone = std::max(largest_zone, st.largest_zone);
    left_out = st.intersecting_pairs;
    capped += st.pairs_capped + st.zones_capped + st.dropped;
  }
  for (const auto& p : world.state().position) finite = finite && std::isfinite(p.x + p.y + p.z);
  const uint64_t end = finite ? count_self_intersections(world.model(), world.state().position).triangle_pairs : 0;
  std::fprintf(stderr, "  %s: step %.2f ms, self-collision %.2f ms, crossing pairs %llu -> %llu\n",
               tangled ? "tangled" : "clean", total_ms / steps, self_ms / steps, (unsigned long long)start,
               (unsigned long long)end);
  return {{"vertices", world.model().vertex_count()},
          {"steps", steps},
          {"ms_per_step", total_ms / steps},
          {"self_collision_ms", self_ms / steps},
          {"self_collision_max_ms", self_max},
          {"contacts", double(contacts) / steps},
          {"largest_zone", largest_zone},
          {"capped", capped},
          {"finite", finite},
          {"tangled_at_load", at_load},
          {"left_out_at_end", left_out},
          {"start_intersecting_pairs", start},
          {"final_intersecting_pairs", end}};
}

}  // namespace

nlohmann::json bench_self_collision(const BenchOptions& options) {
  const std::string& only = options.self_collision_case;
  nlohmann::json out = nlohmann::json::object();
  if (only == "all" || only == "crumple") {
    out = run_crumple(options, IntegratorKind::ConjugateGradient);
    out["approx"] = run_crumple(options, IntegratorKind::ApproximateImplicit);
  }
  if (only == "all" || only == "fold") {
    // --solver cg|mg runs one of the two (the fold takes most of the suite's time).
    if (options.solver.empty() || options.solver == "cg")
      out["hand_fold"] = run_hand_fold(options, IntegratorKind::ConjugateGradient);
    if (options.solver.empty() || options.solver == "mg")
      out["hand_fold_mg"] = run_hand_fold(options, IntegratorKind::Multigrid);  // the runtime's solver
  }
  if (only == "all" || only == "folded-over") {
    out["folded_over"] = run_folded_over(options, true);
    out["folded_over_clean"] = run_folded_over(options, false);
    const double clean_ms = out["folded_over_clean"]["ms_per_step"].get<double>();
    out["folded_over_cost_ratio"] = clean_ms > 0 ? out["folded_over"]["ms_per_step"].get<double>() / clean_ms : 0.;
  }
  return out;
}

}  // namespace weft::lab
