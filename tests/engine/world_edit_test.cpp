// World::edit (sim/world_edit.cpp) end to end: after every edit the rest mesh passes `weft mesh --check`
// (engine/mesh_check.h), the mass is what it was less what was removed, nothing is NaN, and a second of
// stepping afterwards stays finite and under 5 m/s. The robustness cases of issue 37.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <chrono>
#include <ctime>
#include <time.h>
#include <string>

#include <glm/gtc/matrix_transform.hpp>

#include "engine/mesh_check.h"
#include "sim/intersection_count.h"
#include "sim/mesh_generators.h"
#include "sim/rest_ramp.h"
#include "sim/world.h"
#include "tests/sim/pose_samples.h"

using namespace weft;
using weft::test::at;

namespace {

Mesh rest_mesh(const World& w) { return {w.model().rest_position, w.model().material_coord, w.model().triangle}; }

// mesh --check on the rest mesh: no degenerate, sliver, non-manifold or flipped triangle (overlaps are
// checked where the cloth is not folded).
void check_mesh_clean(const World& w, bool overlaps = true) {
  const MeshCheckReport r = check_mesh(rest_mesh(w));
  for (const MeshIssue& issue : r.issues) {
    if (!overlaps && issue.kind == "overlap") continue;
    INFO(issue.kind, ": ", issue.count, " ", issue.examples.empty() ? std::string() : issue.examples[0]);
    CHECK(issue.count == 0);
  }
  CHECK(validate_mesh(rest_mesh(w)) == "");
}

bool finite_state(const World& w) {
  for (size_t i = 0; i < w.model().vertex_count(); ++i) {
    const glm::vec3 x = w.state().position[i], v = w.state().velocity[i];
    if (!std::isfinite(x.x + x.y + x.z + v.x + v.y + v.z)) return false;
  }
  return true;
}

float max_speed(const World& w) {
  float s = 0.f;
  for (const glm::vec3& v : w.state().velocity) s = std::max(s, glm::length(v));
  return s;
}

// Steps a second; the cloth stays finite and slower than 5 m/s throughout.
void step_second(World& w) {
  float fastest = 0.f;
  bool finite = true;
  for (int k = 0; k < 240; ++k) {
    w.step();
    finite = finite && finite_state(w);
    fastest = std::max(fastest, max_speed(w));
  }
  CHECK(finite);
  CHECK(fastest < 5.f);
}

// A 0.4 m cloth hanging in z = 0 from its top row (y = 1.4), n x n quads.
World hanging(uint32_t n = 16, WorldConfig config = {}) {
  Mesh mesh = make_grid({.width = 0.4f, .height = 0.4f, .columns = n, .rows = n});
  transform_mesh(mesh, glm::translate(glm::mat4(1.f), glm::vec3(0, 1, 0)));
  std::vector<uint32_t> top;
  for (uint32_t i = 0; i <= n; ++i) top.push_back(n * (n + 1) + i);
  return World(build_cloth_model(mesh, {}, top), config);
}

ClothEdit cut(glm::vec3 from, glm::vec3 to, float radius = 0.02f) {
  return {.kind = EditKind::Cut, .from = from, .to = to, .radius = radius};
}

}  // namespace

TEST_CASE("a cut across a hanging cloth: mesh clean, mass kept, the lower part falls away") {
  World w = hanging();
  for (int k = 0; k < 24; ++k) w.step();
  const float mass = w.model().total_mass();
  const size_t n = w.model().vertex_count();
  // across the middle, y = 1.2 between rows (2.5 cm rows), past both borders
  const EditReport r = w.edit(cut({-0.1f, 1.21f, 0.f}, {0.5f, 1.21f, 0.f}, 0.01f));
  REQUIRE(r.applied);
  CHECK(r.refused == nullptr);
  CHECK(r.vertices_added > 0);
  CHECK(w.model().vertex_count() == n + r.vertices_added);
  CHECK(w.model().total_mass() == doctest::Approx(mass).epsilon(1e-5));
  CHECK(w.edits_applied() == 1);
  check_mesh_clean(w);
  CHECK(finite_state(w));
  // a quarter second: the lower part falls g t^2 / 2 = 0.3 m, the upper one stays
  for (int k = 0; k < 60; ++k) w.step();
  CHECK(finite_state(w));
  CHECK(max_speed(w) < 5.f);
  CHECK(w.state().position[0].y < 1.f - 0.2f);            // a bottom corner
  CHECK(w.state().position[16 * 17].y > 1.4f - 0.01f);    // a top corner
  // and a slit that stops short of the borders leaves one cloth that steps on
  World s = hanging();
  REQUIRE(s.edit(cut({0.05f, 1.21f, 0.f}, {0.35f, 1.21f, 0.f}, 0.01f)).applied);
  check_mesh_clean(s);
  step_second(s);
}

TEST_CASE("a cut through a held patch: the grasp keeps its vertices, remapped, and the world steps on") {
  World w = hanging();
  const glm::vec3 p = w.state().position[8 * 17 + 8];  // the middle
  REQUIRE(w.grab(Hand::Right, at(p), 0.04f) > 3);
  for (int k = 0; k < 12; ++k) w.step();
  const size_t held = w.held_vertices(Device::RightHand).size();
  const EditReport r = w.edit(cut(p - glm::vec3(0.3f, 0.001f, 0.f), p + glm::vec3(0.3f, -0.001f, 0.f)));
  REQUIRE(r.applied);
  check_mesh_clean(w);
  const ElasticSet& set = w.held_vertices(Device::RightHand);
  CHECK(set.size() >= held);  // the copies of held vertices on the cut are held too
  for (uint32_t v : set.vertex) CHECK(v < w.model().vertex_count());
  CHECK(w.is_grabbing(Hand::Right));
  step_second(w);
  w.release(Hand::Right);
  for (int k = 0; k < 60; ++k) w.step();  // the lower part falls free: a quarter second stays under 5 m/s
  CHECK(finite_state(w));
  CHECK(max_speed(w) < 5.f);
}

TEST_CASE("a removed held vertex drops out of its grasp, and removing every triangle is refused and counted") {
  World w = hanging();
  const glm::vec3 p = w.state().position[4 * 17 + 8];
  REQUIRE(w.grab(Hand::Left, at(p), 0.04f) > 3);
  w.step();
  const float mass = w.model().total_mass();
  std::vector<glm::vec3> held_at;
  for (uint32_t v : w.held_vertices(Device::LeftHand).vertex) held_at.push_back(w.state().position[v]);
  const EditReport r = w.edit({.kind = EditKind::Remove, .from = p, .radius = 0.02f});
  REQUIRE(r.applied);
  CHECK(r.triangles_removed > 0);
  CHECK(r.vertices_removed > 0);
  CHECK(r.mass_removed > 0.f);
  CHECK(w.model().total_mass() + r.mass_removed == doctest::Approx(mass).epsilon(1e-5));
  // the grasp keeps the same vertices, renumbered, less those removed
  const ElasticSet& held = w.held_vertices(Device::LeftHand);
  CHECK(held.size() < held_at.size());
  CHECK(held.size() > 0);
  for (uint32_t v : held.vertex) {
    REQUIRE(v < w.model().vertex_count());
    CHECK(std::find(held_at.begin(), held_at.end(), w.state().position[v]) != held_at.end());
    CHECK(glm::length(w.state().position[v] - p) > 0.01f);
  }
  check_mesh_clean(w);
  step_second(w);

  const uint64_t hash = w.state_hash();
  const EditReport all = w.edit({.kind = EditKind::Remove, .from = glm::vec3(0.2f, 1.2f, 0.f), .radius = 10.f});
  CHECK_FALSE(all.applied);
  CHECK(std::string(all.refused) == "would remove the whole cloth");
  CHECK(w.edits_refused() == 1);
  CHECK(w.state_hash() == hash);  // a refused edit changes nothing
  CHECK_FALSE(w.edit({.kind = EditKind::Remove, .from = glm::vec3(NAN), .radius = 0.1f}).applied);
  CHECK_FALSE(w.edit({.kind = EditKind::Scale, .from = p, .radius = 0.1f, .factor = NAN}).applied);
  CHECK(w.edits_refused() == 3);
  step_second(w);
}

TEST_CASE("a cut that would leave a lone vertex, a sliver or a crumb: snapped or dropped, the mesh stays clean") {
  World w = hanging(8);
  // 5 cm cells. Across the bottom right corner's triangle (its corner cut off as a crumb, dropped and
  // counted), then across a row 1 mm off its vertices (snapped onto them: no sliver).
  const ClothEdit corner = cut({0.37f, 0.99f, 0.f}, {0.41f, 1.03f, 0.f}, 0.01f);
  const ClothEdit row = cut({-0.1f, 1.1005f, 0.f}, {0.5f, 1.1005f, 0.f}, 0.02f);
  for (int k = 0; k < 2; ++k) {
    const ClothEdit& e = k == 0 ? corner : row;
    const float mass = w.model().total_mass();
    const size_t n = w.model().vertex_count(), ntri = w.model().triangle_count();
    const EditReport r = w.edit(e);
    REQUIRE(r.applied);
    CHECK(w.model().total_mass() + r.mass_removed == doctest::Approx(mass).epsilon(1e-5));
    CHECK(w.model().vertex_count() == n + r.vertices_added - r.vertices_removed);
    CHECK(w.model().triangle_count() == ntri + r.triangles_added - r.triangles_removed);
    if (k == 0) CHECK(r.mass_removed > 0.f);
    else CHECK(r.mass_removed == 0.f);
    check_mesh_clean(w);
    CHECK(finite_state(w));
  }
  // the row cut parts the bottom strip off: it falls (under 5 m/s in the first 0.4 s)
  for (int k = 0; k < 96; ++k) w.step();
  CHECK(finite_state(w));
  CHECK(max_speed(w) < 5.f);
}

TEST_CASE("a stroke of cuts on an irregular mesh continues one cut") {
  Mesh mesh = make_irregular({.width = 0.4f, .height = 0.4f, .columns = 14, .rows = 14, .seed = 3});
  transform_mesh(mesh, glm::translate(glm::mat4(1.f), glm::vec3(0, 1, 0)));
  std::vector<uint32_t> top;
  for (uint32_t i = 0; i < mesh.vertex_count(); ++i)
    if (mesh.positions[i].y > 1.4f - 1e-4f) top.push_back(i);
  World w(build_cloth_model(mesh, {}, top), WorldConfig{});
  const float mass = w.model().total_mass();
  const glm::vec3 stroke[] = {{0.05f, 1.1f, 0.f}, {0.15f, 1.15f, 0.f}, {0.25f, 1.22f, 0.f}, {0.33f, 1.25f, 0.f}};
  for (int k = 0; k + 1 < 4; ++k) {
    const EditReport r = w.edit(cut(stroke[k], stroke[k + 1], 0.01f));
    CHECK(r.applied);
    check_mesh_clean(w);
  }
  CHECK(w.model().total_mass() == doctest::Approx(mass).epsilon(1e-5));
  step_second(w);
}

TEST_CASE("cutting a folded cloth with self-collision on: no NaN, few new crossings") {
  Mesh mesh = make_folded_over({.grid = {.width = 0.4f, .height = 0.4f, .columns = 12, .rows = 12}, .amplitude = 0.002f});
  WorldConfig config;
  config.self_collision = {.enabled = true, .thickness = 0.004f};
  Material lying;
  lying.gravity = glm::vec3(0.f);  // no floor here: the layers stay where they are
  World w(build_cloth_model(mesh, lying), config);
  for (int k = 0; k < 24; ++k) w.step();
  const uint64_t before = count_self_intersections(w.model(), w.state().position).triangle_pairs;
  // through both layers, across the fold's length
  const EditReport r = w.edit(cut({0.05f, 0.21f, 0.003f}, {0.25f, 0.21f, 0.003f}, 0.02f));
  REQUIRE(r.applied);
  check_mesh_clean(w, false);
  CHECK(count_self_intersections(w.model(), w.state().position).triangle_pairs == before);  // the lips part cleanly
  float fastest = 0.f;
  for (int k = 0; k < 240; ++k) {
    w.step();
    fastest = std::max(fastest, max_speed(w));
  }
  CHECK(finite_state(w));
  CHECK(fastest < 5.f);
  const uint64_t after = count_self_intersections(w.model(), w.state().position).triangle_pairs;
  INFO("crossing triangle pairs before ", before, ", a second after the cut ", after);
  // Measured: none, with the cut's twins (sim/cut_twins.h) and at fbd0647 before them (lips parted by half the
  // thickness); 8 to 10 pairs from 0.9 s when this test was written; the same folded cloth uncut: none.
  CHECK(after <= before);
}

TEST_CASE("scaling inside a brush bulges or tightens the cloth there and stays finite") {
  auto mean_edge_in_brush = [](const World& w, glm::vec3 c, float r) {
    double sum = 0;
    int count = 0;
    for (size_t l = 0; l < w.model().edge_count; ++l) {
      const auto [i, j] = w.model().link[l];
      const glm::vec3 a = w.state().position[i], b = w.state().position[j];
      if (glm::length(0.5f * (a + b) - c) > r) continue;
      sum += glm::length(b - a);
      ++count;
    }
    return sum / count;
  };
  for (float factor : {1.5f, 0.7f}) {
    World w = hanging();
    for (int k = 0; k < 48; ++k) w.step();
    const glm::vec3 c = w.state().position[8 * 17 + 8];
    const double before = mean_edge_in_brush(w, c, 0.06f);
    const float mass = w.model().total_mass();
    const EditReport r = w.edit({.kind = EditKind::Scale, .from = c, .radius = 0.08f, .factor = factor});
    REQUIRE(r.applied);
    CHECK(w.model().total_mass() == mass);
    check_mesh_clean(w);
    step_second(w);
    const double after = mean_edge_in_brush(w, w.state().position[8 * 17 + 8], 0.06f);
    INFO("factor ", factor, ": mean edge in the brush ", before, " -> ", after);
    if (factor > 1.f) CHECK(after > 1.2 * before);
    else CHECK(after < 0.85 * before);
  }
}

TEST_CASE("an expand or shrink dab reaches its rest shape over kRestRampSeconds, without a burst of speed") {
  // sim/rest_ramp.h: set in one tick, a dab's change became speed (table.json's tool session: 27 and 63
  // fail-safe speed clamps on the expand and shrink ticks).
  for (float factor : {1.15f, 0.87f}) {
    World w = hanging();
    for (int k = 0; k < 480; ++k) w.step();  // at rest
    const float resting = max_speed(w);
    const std::vector<float> rest_before = w.model().rest_length;
    const glm::vec3 c = w.state().position[8 * 17 + 8];
    REQUIRE(w.edit({.kind = EditKind::Scale, .from = c, .radius = 0.08f, .factor = factor}).applied);
    CHECK(w.model().rest_length == rest_before);  // nothing yet: the ramp starts with the next tick
    const int ticks = std::max(1, int(std::lround(kRestRampSeconds * w.config().tick_hz)));
    float fastest = 0.f;
    size_t changed_after_one = 0;
    size_t at_target = 0;
    for (int k = 0; k < 60; ++k) {  // the ramp and what follows it, a quarter of a second
      w.step();
      fastest = std::max(fastest, max_speed(w));
      if (k == 0)
        for (size_t l = 0; l < rest_before.size(); ++l)
          changed_after_one += std::abs(w.model().rest_length[l] / rest_before[l] - factor) < 1e-3f;
      if (k + 1 == ticks)
        for (size_t l = 0; l < rest_before.size(); ++l)
          at_target += std::abs(w.model().rest_length[l] / rest_before[l] - factor) < 1e-4f;
    }
    CHECK(changed_after_one == 0);  // no link at its target after the first tick
    CHECK(at_target > 0);  // the brush's inner links, there after the ramp
    INFO("factor ", factor, ": fastest vertex at rest ", resting, " m/s, during the ramp ", fastest, " m/s");
    CHECK(fastest < 2.f);  // measured 1.11 and 1.27 m/s (the patch buckles); set in one tick 2.98 and 2.74 m/s
  }
}

TEST_CASE("pins, elastic pins and seams follow their vertices through a cut and a removal") {
  World w = hanging();
  const glm::vec3 target = w.state().position[0];
  w.add_pin(0, target);
  w.add_seam(1, 2);
  w.step();
  REQUIRE(w.edit(cut({0.05f, 1.21f, 0.f}, {0.35f, 1.21f, 0.f}, 0.01f)).applied);
  REQUIRE(w.edit({.kind = EditKind::Remove, .from = glm::vec3(0.3f, 1.3f, 0.f), .radius = 0.03f}).applied);
  const WorldModel& m = w.world_model();
  REQUIRE(m.pins.size() == 1);
  CHECK(m.cloth.rest_position[m.pins.vertex[0]] == glm::vec3(0, 1, 0));
  REQUIRE(m.seams.size() == 1);
  CHECK(m.cloth.rest_position[m.seams.a[0]].x == doctest::Approx(0.025f));
  size_t pinned = 0;
  for (uint8_t p : m.cloth.pinned) pinned += p;
  CHECK(pinned == 17);
  step_second(w);
  CHECK(glm::length(w.state().position[m.pins.vertex[0]] - target) < 0.01f);
}

TEST_CASE("rebuild time of edits on a 16k-vertex cloth (multigrid, self-collision off and on)") {
  // docs/performance.md's figure: run with -s to see the MESSAGEs. Six cuts (0.2 m, across rows at six
  // heights) and six removals (2 cm brush), a tick between edits; best and median of each, and the stages
  // of the best. With self-collision on, the multigrid sweeps two regions (sim.threads 2): its split is
  // rebuilt too.
  for (bool self : {false, true}) {
    WorldConfig config;
    config.self_collision = {.enabled = self, .thickness = 0.004f};
    if (self) config.solver.mg_threads = 2;
    World w = hanging(127, config);
    w.step();
    const EditReport s = w.edit({.kind = EditKind::Scale, .from = {0.2f, 1.1f, 0.f}, .radius = 0.05f, .factor = 1.2f});
    REQUIRE(s.applied);
    for (bool cutting : {true, false}) {
      std::vector<EditReport> reports;
      std::vector<double> cpu_ms;  // process CPU time (both threads): steadier than wall time on a shared machine
      for (int k = 0; k < 6; ++k) {
        const float y = 1.05f + 0.3f * (float(k) + 0.5f) / 6.f + 0.0013f;  // between rows
        const std::clock_t c0 = std::clock();
        const EditReport r = cutting ? w.edit(cut({0.1f, y, 0.f}, {0.3f, y, 0.f}, 0.01f))
                                     : w.edit({.kind = EditKind::Remove, .from = {0.1f + 0.04f * float(k), y, 0.f}, .radius = 0.02f});
        cpu_ms.push_back(1e3 * double(std::clock() - c0) / CLOCKS_PER_SEC);
        REQUIRE(r.applied);
        reports.push_back(r);
        w.step();
      }
      std::sort(cpu_ms.begin(), cpu_ms.end());
      MESSAGE(std::string(cutting ? "cut" : "remove"), " CPU best ", cpu_ms[0], " ms, median ", cpu_ms[3], " ms");
      std::sort(reports.begin(), reports.end(), [](const EditReport& a, const EditReport& b) { return a.rebuild_ms < b.rebuild_ms; });
      const EditReport::Stages& t = reports[0].stage_ms;
      MESSAGE(w.model().vertex_count(), " vertices, self-collision ", std::string(self ? "on" : "off"), ": ",
              std::string(cutting ? "cut" : "remove"), " best ", reports[0].rebuild_ms, " ms, median ", reports[3].rebuild_ms,
              " ms; the best's stages (ms): mesh ", t.mesh, ", model ", t.model, ", state ", t.state, ", adjacency+flat ",
              t.adjacency, ", integrator ", t.integrator, ", self-collision ", t.self_collision, ", tethers ", t.tethers);
    }
    MESSAGE("scale ", s.rebuild_ms, " ms");
    for (int k = 0; k < 24; ++k) w.step();
    CHECK(finite_state(w));
    CHECK(max_speed(w) < 5.f);
  }
}

TEST_CASE("edits are deterministic: two worlds given the same ticks and edits hash the same, and reset keeps the edit") {
  auto run = [](World& w) {
    for (int k = 0; k < 24; ++k) w.step();
    w.edit(cut({0.05f, 1.21f, 0.f}, {0.2f, 1.25f, 0.f}, 0.01f));
    for (int k = 0; k < 12; ++k) w.step();
    w.edit(cut({0.2f, 1.25f, 0.f}, {0.35f, 1.2f, 0.f}, 0.01f));
    w.edit({.kind = EditKind::Scale, .from = glm::vec3(0.2f, 1.1f, 0.f), .radius = 0.05f, .factor = 0.8f});
    w.edit({.kind = EditKind::Remove, .from = glm::vec3(0.1f, 1.05f, 0.f), .radius = 0.03f});
    for (int k = 0; k < 24; ++k) w.step();
  };
  World a = hanging(), b = hanging();
  run(a);
  run(b);
  CHECK(a.edits_applied() == 4);
  CHECK(a.state_hash() == b.state_hash());
  const size_t n = a.model().vertex_count();
  a.reset();  // back to time 0 on the edited cloth: the model stays as edited
  CHECK(a.model().vertex_count() == n);
  CHECK(a.state().position.size() == n);
  step_second(a);
}

TEST_CASE("crease lines survive a cut across them and a removal beside them") {
  Material denim;
  denim.stretch_model = StretchModel::WeftWarp;
  denim.weave.weft = denim.weave.warp = StressCurve::linear(1000.f);
  denim.weave.shear = StressCurve::linear(200.f);
  denim.weave.weft_bending = denim.weave.warp_bending = 1e-4f;
  denim.gravity = glm::vec3(0.f);
  const Mesh mesh = make_grid({.width = 0.2f, .height = 0.2f, .columns = 8, .rows = 8});
  const std::vector<CreaseLine> creases = {{.from = {0.1f, 0.f}, .to = {0.1f, 0.2f}, .rest_angle_deg = 60.f}};
  World w(build_cloth_model(mesh, denim, {}, creases), WorldConfig{});
  auto creased = [&] {
    size_t count = 0;
    const WeftWarpModel& ww = w.model().weft_warp;
    for (size_t h = 0; h < ww.hinge_count(); ++h) {
      const glm::vec2 a = w.model().material_coord[ww.hinge[h][0]], b = w.model().material_coord[ww.hinge[h][1]];
      const bool on = std::fabs(a.x - 0.1f) < 1e-4f && std::fabs(b.x - 0.1f) < 1e-4f;
      if (on) CHECK(ww.hinge_rest_angle[h] == doctest::Approx(glm::radians(60.f)));
      count += on;
    }
    return count;
  };
  const size_t before = creased();
  REQUIRE(before == 8);
  w.step();
  REQUIRE(w.edit(cut({-0.05f, 0.1125f, 0.f}, {0.25f, 0.1125f, 0.f}, 0.01f)).applied);  // across the crease
  CHECK(creased() >= before);
  REQUIRE(w.edit({.kind = EditKind::Remove, .from = glm::vec3(0.025f, 0.025f, 0.f), .radius = 0.03f}).applied);
  CHECK(creased() >= before);
  CHECK(w.model().creases.size() == 1);
  step_second(w);
}

TEST_CASE("forty random cuts, removals and scales on a hanging cloth held by a hand: always clean and finite") {
  // Seeds 1, 3 and 4 once left slivers (1) and crumbs of a few mm^2 that the self-collision flung at 1000 m/s
  // (3, 4): kCutMinQuality and drop_crumbs.
  for (uint32_t start : {12345u, 1u, 3u, 4u}) {
    CAPTURE(start);
    World w = hanging(16);
    uint32_t seed = start;
    auto next = [&seed] {  // a fixed LCG: the same edits on every platform
      seed = seed * 1664525u + 1013904223u;
      return float(seed >> 8) / float(1u << 24);
    };
    auto somewhere = [&] {  // near a vertex of the cloth as it is now
      const size_t i = std::min(size_t(next() * float(w.model().vertex_count())), w.model().vertex_count() - 1);
      return w.state().position[i] + 0.02f * glm::vec3(next() - 0.5f, next() - 0.5f, 0.f);
    };
    REQUIRE(w.grab(Hand::Left, at(w.state().position[12 * 17 + 4]), 0.04f) > 0);
    uint32_t applied = 0, refused = 0;
    for (int k = 0; k < 40; ++k) {
      for (int s = 0; s < 6; ++s) w.step();
      const float mass = w.model().total_mass();
      const float pick = next();
      ClothEdit e;
      if (pick < 0.5f) {
        const glm::vec3 a = somewhere();
        e = cut(a, a + 0.15f * glm::vec3(next() - 0.5f, next() - 0.5f, 0.f), 0.005f + 0.02f * next());
      } else if (pick < 0.75f) {
        e = {.kind = EditKind::Remove, .from = somewhere(), .radius = 0.01f + 0.03f * next()};
      } else {
        e = {.kind = EditKind::Scale, .from = somewhere(), .radius = 0.03f + 0.05f * next(), .factor = 0.6f + next()};
      }
      const EditReport r = w.edit(e);
      r.applied ? ++applied : ++refused;
      if (!r.applied) MESSAGE("edit ", k, " refused: ", std::string(r.refused));
      CAPTURE(k);
      if (r.applied) CHECK(w.model().total_mass() + r.mass_removed == doctest::Approx(mass).epsilon(1e-4));
      else CHECK(r.refused != nullptr);
      check_mesh_clean(w);
      for (uint32_t v : w.held_vertices(Device::LeftHand).vertex) REQUIRE(v < w.model().vertex_count());
      REQUIRE(finite_state(w));
    }
    MESSAGE(applied, " edits applied, ", refused, " refused; ", w.model().vertex_count(), " vertices left");
    CHECK(applied > 30);
    CHECK(w.edits_applied() == applied);
    CHECK(w.edits_refused() == refused);
    float fastest = 0.f;
    for (int k = 0; k < 240; ++k) {
      w.step();
      fastest = std::max(fastest, max_speed(w));
    }
    CHECK(finite_state(w));
    // Pieces cut loose fall freely (and the hand holds still): nothing outruns a fall from the start.
    INFO("fastest vertex in the second after: ", fastest, " m/s");
    CHECK(fastest < 9.81f * float(w.state().time) + 1.f);
  }
}

TEST_CASE("overlapping pairs handed over at load are carried through an edit and still drawn apart") {
  // Two coincident 0.2 m layers (a duplicated layer: each triangle lies on its copy), no gravity.
  Mesh mesh = make_grid({.width = 0.2f, .height = 0.2f, .columns = 8, .rows = 8});
  const uint32_t nv = uint32_t(mesh.positions.size()), nt = uint32_t(mesh.triangles.size());
  for (uint32_t i = 0; i < nv; ++i) mesh.positions.push_back(mesh.positions[i]), mesh.material.push_back(mesh.material[i]);
  for (uint32_t t = 0; t < nt; ++t)
    mesh.triangles.push_back({mesh.triangles[t][0] + nv, mesh.triangles[t][1] + nv, mesh.triangles[t][2] + nv});
  std::vector<std::array<uint32_t, 2>> pairs;
  for (uint32_t t = 0; t < nt; ++t) pairs.push_back({t, t + nt});
  Material floating;
  floating.gravity = glm::vec3(0.f);
  WorldConfig config;
  config.self_collision = {.enabled = true, .thickness = 0.004f};
  World w(build_cloth_model(mesh, floating), config);
  REQUIRE(w.add_overlapping_pairs(pairs) == nt);
  // A cut into both layers from one border before the first tick: the pairs name the old triangles.
  const EditReport r = w.edit(cut({-0.05f, 0.1f, 0.f}, {0.1f, 0.1f, 0.f}, 0.01f));
  REQUIRE(r.applied);
  REQUIRE(w.self_collision() != nullptr);
  CHECK(w.self_collision()->overlap_pairs() >= nt);  // every pair, each cut triangle by its pieces
  for (int k = 0; k < 30; ++k) w.step();
  CHECK(finite_state(w));
  // Drawn apart along their normals: every vertex left the plane the layers shared (without the carry the
  // layers stay on each other: the contacts see no side to push to).
  size_t apart = 0;
  for (const glm::vec3& p : w.state().position) apart += std::abs(p.z) >= 0.25f * config.self_collision.thickness;
  INFO("vertices off the shared plane: ", apart, " of ", w.model().vertex_count());
  CHECK(apart >= w.model().vertex_count() * 9 / 10);
}

TEST_CASE("a cut's twin vertices get no self-contact with each other until they part: a stroke across a flat cloth") {
  // A flat cloth, no gravity, self-collision on; the blade runs between two rows of vertices, so every copy it
  // makes is of a point on an edge and starts where its twin is (sim/cut_twins.h).
  Mesh mesh = make_grid({.width = 0.4f, .height = 0.4f, .columns = 24, .rows = 24});
  Material floating;
  floating.gravity = glm::vec3(0.f);
  WorldConfig config;
  config.self_collision = {.enabled = true, .thickness = 0.004f};
  World w(build_cloth_model(mesh, floating), config);
  const float mass = w.model().total_mass();
  uint64_t contacts_max = 0;
  float fastest = 0.f;
  auto contacts = [&] { return w.self_collision()->stats().vertex_triangle + w.self_collision()->stats().edge_edge; };
  for (int s = 1; s <= 8; ++s) {  // the stroke in eight segments, two ticks apart, as the tool sends it
    const EditReport r = w.edit(cut({-0.05f + 0.05f * s, 0.205f, 0.f}, {s < 8 ? 0.05f * s : 0.45f, 0.205f, 0.f}, 0.01f));
    INFO("segment ", s, ": ", r.refused ? r.refused : "applied");
    CHECK(r.refused == nullptr);
    for (int k = 0; k < 2; ++k) {
      w.step();
      contacts_max = std::max(contacts_max, contacts());
    }
  }
  CHECK(w.self_collision()->cut_twins().live_count() > 20);  // the lips lie where they were cut
  for (int k = 0; k < 60; ++k) {
    w.step();
    contacts_max = std::max(contacts_max, contacts());
    fastest = std::max(fastest, max_speed(w));
  }
  check_mesh_clean(w);
  CHECK(w.model().total_mass() == doctest::Approx(mass).epsilon(1e-5));
  CHECK(finite_state(w));
  // Measured: none (the lips as contacts: 14694 at once after a cut on table.json, folding the lips).
  INFO("self-contacts at most ", contacts_max, ", fastest ", fastest, " m/s");
  CHECK(contacts_max == 0);
  CHECK(fastest < 0.05f);
  // Pulled apart, the twins retire: the lips are two borders that collide like any others.
  const size_t n = w.model().vertex_count();
  for (size_t i = 0; i < n; ++i)
    if (w.state().position[i].y > 0.205f) w.add_velocity(glm::vec3(0.f, 0.5f, 0.f), uint32_t(i), 1);
  for (int k = 0; k < 12; ++k) w.step();
  CHECK(w.self_collision()->cut_twins().live_count() == 0);
  // A reset puts the cut cloth back at rest, its lips on each other: the twins are live again.
  w.reset();
  CHECK(w.self_collision()->cut_twins().live_count() > 20);
  uint64_t after_reset = 0;
  for (int k = 0; k < 30; ++k) {
    w.step();
    after_reset = std::max(after_reset, contacts());
  }
  CHECK(after_reset == 0);
}

namespace {

// Steps until the queued edits land (World::kEditLandingSteps after they came); the landed report.
EditReport step_until_landed(World& w) {
  while (w.queued_edits() > 0) w.step();
  return w.landed_edit();
}

}  // namespace

// World::queue_edit (sim/edit_worker.h): the edit is built on the worker and lands after exactly
// kEditLandingSteps steps, whatever the worker's speed; the landing only carries the state over and
// swaps in what the worker built (the report's stages say where the time went).
TEST_CASE("a queued cut lands after exactly kEditLandingSteps steps, built on the worker") {
  World w = hanging();
  for (int k = 0; k < 6; ++k) w.step();
  const size_t n = w.model().vertex_count();
  const uint64_t at = w.state().step_count;
  const EditReport q = w.queue_edit(cut({0.05f, 1.21f, 0.f}, {0.35f, 1.21f, 0.f}, 0.01f));
  CHECK(q.queued);
  CHECK_FALSE(q.applied);
  CHECK(q.landing_step == at + World::kEditLandingSteps);
  CHECK(w.queued_edits() == 1);
  for (uint64_t k = 1; k < World::kEditLandingSteps; ++k) {
    w.step();
    CHECK(w.model().vertex_count() == n);  // the old cloth steps on
    CHECK(w.topology_generation() == 0);
  }
  w.step();
  CHECK(w.queued_edits() == 0);
  CHECK(w.topology_generation() == 1);
  CHECK(w.model().vertex_count() > n);
  CHECK(w.state().position.size() == w.model().vertex_count());
  const EditReport& r = w.landed_edit();
  CHECK(r.applied);
  CHECK(r.queued);
  CHECK(r.landing_step == at + World::kEditLandingSteps);
  CHECK(w.edits_applied() == 1);
  CHECK(w.queued_edits_landed() == 1);
  CHECK(w.queued_edits_applied() == 1);
  // The worker made the mesh, the model, the integrator and the pin tethers; the landing the state.
  CHECK(r.stage_ms.mesh > 0.0);
  CHECK(r.stage_ms.model > 0.0);
  CHECK(r.stage_ms.integrator > 0.0);
  CHECK(r.stage_ms.state == 0.0);
  CHECK(r.worker_ms >= r.stage_ms.mesh + r.stage_ms.model + r.stage_ms.integrator);
  CHECK(r.landing_ms.state > 0.0);
  CHECK(r.landing_ms.total >= r.landing_ms.state + r.landing_ms.tables + r.landing_ms.tethers);
  check_mesh_clean(w);
  step_second(w);
}

// A stroke: cuts queued on consecutive ticks chain on the worker (each built on the model the one before
// leaves, its positions carried through it). On a still cloth (no gravity) the positions do not change
// while they wait, so the chain must give the very model that the same edits applied at once give.
TEST_CASE("queued cuts chain like the same cuts applied at once, and a refused one in the chain changes nothing") {
  auto still = [] {
    Material m;
    m.gravity = glm::vec3(0.f);
    Mesh mesh = make_grid({.width = 0.4f, .height = 0.4f, .columns = 16, .rows = 16});
    transform_mesh(mesh, glm::translate(glm::mat4(1.f), glm::vec3(0, 1, 0)));
    return World(build_cloth_model(mesh, m, {0u, 16u}), WorldConfig{});
  };
  const std::vector<ClothEdit> stroke = {
      cut({-0.05f, 1.21f, 0.f}, {0.1f, 1.22f, 0.f}, 0.01f),  cut({0.1f, 1.22f, 0.f}, {0.2f, 1.26f, 0.f}, 0.01f),
      cut({2.f, 2.f, 0.f}, {2.1f, 2.f, 0.f}, 0.01f),  // off the cloth: refused when it lands
      {.kind = EditKind::Remove, .from = glm::vec3(0.3f, 1.1f, 0.f), .radius = 0.03f},
      cut({0.2f, 1.26f, 0.f}, {0.45f, 1.2f, 0.f}, 0.01f)};
  World now = still(), queued = still();
  for (const ClothEdit& e : stroke) {
    now.edit(e);
    now.step();
    queued.queue_edit(e);
    queued.step();
  }
  step_until_landed(queued);
  CHECK(queued.edits_applied() == 4);
  CHECK(queued.edits_refused() == 1);
  CHECK(now.edits_applied() == 4);
  CHECK(queued.topology_generation() == 4);
  REQUIRE(queued.model().vertex_count() == now.model().vertex_count());
  CHECK(queued.model().triangle == now.model().triangle);
  // Where a blade crosses an edge depends on the positions, which the lips' parting (at once in `now`, at
  // the landing in `queued`) moves by under a millimetre.
  float moved = 0.f;
  for (size_t i = 0; i < now.model().vertex_count(); ++i)
    moved = std::max(moved, glm::length(queued.model().rest_position[i] - now.model().rest_position[i]));
  MESSAGE("rest positions within ", moved * 1e3f, " mm");
  CHECK(moved < 1e-3f);
  check_mesh_clean(queued);
  step_second(queued);
}

// Determinism of the queued path: the result depends on the ticks the edits came at, not on the worker's
// speed (a slowed worker makes the sim wait at the landing step, it does not move it).
// "threading": also run under ThreadSanitizer (the world steps while the worker reads its model).
TEST_SUITE("threading") {
TEST_CASE("queued edits are deterministic: the same edits at the same ticks give the same hash with a slow worker or without") {
  auto run = [](World& w, double worker_delay_ms) {
    w.delay_edit_worker(worker_delay_ms);  // the worker still busy at the landing step: the world waits there
    for (int k = 0; k < 24; ++k) w.step();
    w.queue_edit(cut({0.05f, 1.21f, 0.f}, {0.2f, 1.25f, 0.f}, 0.01f));
    w.step();
    w.queue_edit(cut({0.2f, 1.25f, 0.f}, {0.35f, 1.2f, 0.f}, 0.01f));
    for (int k = 0; k < 3; ++k) w.step();
    w.queue_edit({.kind = EditKind::Remove, .from = glm::vec3(0.1f, 1.05f, 0.f), .radius = 0.03f});
    w.queue_edit({.kind = EditKind::Scale, .from = glm::vec3(0.2f, 1.1f, 0.f), .radius = 0.05f, .factor = 0.8f});
    for (int k = 0; k < 24; ++k) w.step();
  };
  WorldConfig config;
  config.self_collision = {.enabled = true, .thickness = 0.004f};
  World a = hanging(16, config), b = hanging(16, config);
  run(a, 0.0);
  run(b, 40.0);
  CHECK(a.edits_applied() == 4);
  CHECK(a.topology_generation() == 3);
  CHECK(a.state_hash() == b.state_hash());
}
}  // TEST_SUITE("threading")

// docs/performance.md's landing figures: run with -s. The same 16 k grid and edits as "rebuild time", each
// queued (World::queue_edit) and stepped kEditLandingSteps ticks to its landing: what queue_edit cost the
// sim thread, what the landing cost it (waiting for the worker, the state, the tables, the tethers; wall)
// and the worker's time (wall). On a shared 2-core machine wall times include the thread being descheduled,
// so the sim thread's CPU time is printed too: queue_edit's, and the landing step's less the median of the
// steps before it (the landing's own cost).
TEST_CASE("landing time of queued edits on a 16k-vertex cloth (multigrid, self-collision off and on)") {
  auto cpu_ms = [] {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return 1e3 * double(t.tv_sec) + 1e-6 * double(t.tv_nsec);
  };
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  for (bool self : {false, true}) {
    WorldConfig config;
    config.self_collision = {.enabled = self, .thickness = 0.004f};
    if (self) config.solver.mg_threads = 2;
    World w = hanging(127, config);
    w.step();
    for (bool cutting : {true, false}) {
      std::vector<double> queue_cpu, landing_cpu, landing_wall, worker_ms, wait_ms, step_cpu;
      EditReport::Landing worst;
      for (int k = 0; k < 6; ++k) {
        const float y = 1.05f + 0.3f * (float(k) + 0.5f) / 6.f + 0.0013f;  // between rows
        const ClothEdit e = cutting ? cut({0.1f, y, 0.f}, {0.3f, y, 0.f}, 0.01f)
                                    : ClothEdit{.kind = EditKind::Remove, .from = {0.1f + 0.04f * float(k), y, 0.f}, .radius = 0.02f};
        double c0 = cpu_ms();
        REQUIRE(w.queue_edit(e).queued);
        queue_cpu.push_back(cpu_ms() - c0);
        std::vector<double> before;
        for (uint64_t s = 1; s < World::kEditLandingSteps; ++s) {
          c0 = cpu_ms();
          w.step();
          before.push_back(cpu_ms() - c0);
        }
        c0 = cpu_ms();
        w.step();
        const double landing_step = cpu_ms() - c0;
        REQUIRE(w.queued_edits() == 0);
        const EditReport& r = w.landed_edit();
        REQUIRE(r.applied);
        step_cpu.push_back(median(before));
        landing_cpu.push_back(landing_step - median(before));
        landing_wall.push_back(r.landing_ms.total);
        wait_ms.push_back(r.landing_ms.wait);
        worker_ms.push_back(r.worker_ms);
        if (r.landing_ms.total >= worst.total) worst = r.landing_ms;
        w.step();
      }
      MESSAGE(w.model().vertex_count(), " vertices, self-collision ", std::string(self ? "on" : "off"), ", queued ",
              std::string(cutting ? "cut" : "remove"), ": sim thread CPU: queue_edit median ", median(queue_cpu),
              " ms, landing median ", median(landing_cpu), " ms (a step ", median(step_cpu), " ms); landing wall median ",
              median(landing_wall), " ms, worst ", worst.total, " ms (wait ", worst.wait, ", state ", worst.state,
              ", tables ", worst.tables, ", tethers ", worst.tethers, "); worker wall median ", median(worker_ms),
              " ms; waits median ", median(wait_ms), " ms");
    }
    for (int k = 0; k < 24; ++k) w.step();
    CHECK(finite_state(w));
    CHECK(max_speed(w) < 5.f);
  }
}

// The steps after a queued edit's landing are as good as after the same edit applied at once (the landing
// swaps in a full rebuild: the same build_edit): a 64 x 64 hanging cloth with self-collision, cut and then
// holed, 48 steps after each landing: solver iterations, the largest edge strain and speed, side by side.
TEST_CASE("the steps after a queued edit's landing are as good as after the same edit applied at once") {
  struct Figures {
    int iterations = 0;
    float strain = 0.f, speed = 0.f;
  };
  auto measure = [](World& w, Figures& f) {
    for (int k = 0; k < 48; ++k) {
      w.step();
      f.iterations += w.integrator_stats().solver_iterations;
      const ClothModel& m = w.model();
      for (size_t e = 0; e < m.edge_count; ++e) {
        const glm::vec3 d = w.state().position[m.link[e][0]] - w.state().position[m.link[e][1]];
        f.strain = std::max(f.strain, glm::length(d) / m.rest_length[e] - 1.f);
      }
      f.speed = std::max(f.speed, max_speed(w));
    }
  };
  const std::vector<ClothEdit> edits = {cut({0.05f, 1.2013f, 0.f}, {0.35f, 1.2013f, 0.f}, 0.01f),
                                        {.kind = EditKind::Remove, .from = glm::vec3(0.2f, 1.1f, 0.f), .radius = 0.03f}};
  WorldConfig config;
  config.self_collision = {.enabled = true, .thickness = 0.004f};
  World now = hanging(64, config), queued = hanging(64, config);
  for (int k = 0; k < 24; ++k) now.step(), queued.step();
  Figures a, b;
  for (const ClothEdit& e : edits) {
    REQUIRE(now.edit(e).applied);
    for (uint64_t k = 0; k < World::kEditLandingSteps; ++k) now.step();  // the same ticks as the queued one
    REQUIRE(queued.queue_edit(e).queued);
    REQUIRE(step_until_landed(queued).applied);
    measure(now, a);
    measure(queued, b);
  }
  MESSAGE("96 steps after the landings: at once ", a.iterations, " iterations, strain ", 100.f * a.strain, " %, speed ",
          a.speed, " m/s; queued ", b.iterations, " iterations, strain ", 100.f * b.strain, " %, speed ", b.speed, " m/s");
  CHECK(queued.model().vertex_count() == now.model().vertex_count());
  CHECK(b.iterations <= a.iterations * 5 / 4 + 10);
  CHECK(b.strain <= 1.25f * a.strain + 0.01f);
  CHECK(b.speed <= 1.25f * a.speed + 0.1f);
}

// docs/performance.md's 64 k figure (not in the default run: a minute of a loaded 2-core machine): a
// 256 x 256 grid, one cut and one removal each way, with self-collision: World::edit's rebuild (wall) and a
// queued edit's landing (wall) and worker time.
TEST_CASE("rebuild time of edits on a 64k-vertex cloth" * doctest::skip()) {
  WorldConfig config;
  config.self_collision = {.enabled = true, .thickness = 0.004f};
  config.solver.mg_threads = 2;
  World w = hanging(255, config);
  w.step();
  const EditReport c = w.edit(cut({0.1f, 1.2007f, 0.f}, {0.3f, 1.2007f, 0.f}, 0.005f));
  w.step();
  const EditReport r = w.edit({.kind = EditKind::Remove, .from = {0.2f, 1.1f, 0.f}, .radius = 0.02f});
  REQUIRE(c.applied);
  REQUIRE(r.applied);
  for (const EditReport* e : {&c, &r}) {
    const EditReport::Stages& t = e->stage_ms;
    MESSAGE(w.model().vertex_count(), " vertices, at once: ", e->rebuild_ms, " ms; mesh ", t.mesh, ", model ", t.model,
            ", state ", t.state, ", adjacency+flat ", t.adjacency, ", integrator ", t.integrator, ", self-collision ",
            t.self_collision, ", tethers ", t.tethers);
  }
  w.step();
  REQUIRE(w.queue_edit(cut({0.1f, 1.3007f, 0.f}, {0.3f, 1.3007f, 0.f}, 0.005f)).queued);
  const EditReport q = step_until_landed(w);
  REQUIRE(q.applied);
  MESSAGE("queued cut: landing ", q.landing_ms.total, " ms (wait ", q.landing_ms.wait, ", state ", q.landing_ms.state,
          ", tables ", q.landing_ms.tables, ", tethers ", q.landing_ms.tethers, "), worker ", q.worker_ms, " ms");
}

// docs/performance.md's stroke figure (not in the default run): a 16 k cloth cut by a stroke of twelve
// 2.5 cm segments, one every second tick (a blade at 1.5 m/s and 240 Hz), queued: the landings' waits for
// the worker (the chain's throughput) and their cost, and the ticks from the stroke's first segment to its
// last segment's landing.
TEST_CASE("a queued 16k-vertex stroke: waits at the landings" * doctest::skip()) {
  World w = hanging(127);
  w.step();
  const uint64_t start = w.state().step_count;
  double waits = 0, worst = 0, landing = 0;
  uint64_t landed = 0;
  auto step = [&] {
    w.step();
    if (w.queued_edits_landed() != landed) {
      landed = w.queued_edits_landed();
      waits += w.landed_edit().landing_ms.wait;
      worst = std::max(worst, w.landed_edit().landing_ms.wait);
      landing += w.landed_edit().landing_ms.total - w.landed_edit().landing_ms.wait;
    }
  };
  for (int k = 0; k < 12; ++k) {
    const float x = 0.05f + 0.025f * float(k);
    REQUIRE(w.queue_edit(cut({x, 1.2013f, 0.f}, {x + 0.025f, 1.2013f, 0.f}, 0.01f)).queued);
    step(), step();
  }
  while (w.queued_edits() > 0) step();
  MESSAGE(landed, " segments landed (", w.queued_edits_applied(), " applied) by tick ", w.state().step_count - start,
          "; waits at the landings: total ", waits, " ms, worst ", worst, " ms; landings without the waits: total ",
          landing, " ms");
}
