#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "sim/mesh_generators.h"
#include "sim/world.h"

using namespace weft;

namespace {

// A disc of stiff cloth hanging from one pinned vertex, stepped by explicit Euler at 240 Hz: far past its
// stability limit, so the step itself blows up, as a diverging solve or fighting corrections would.
World unstable_disc(bool failsafe) {
  Mesh mesh = make_annulus({.inner_radius = 0.f, .outer_radius = 0.2f, .rings = 6, .edge = 0.03f, .seed = 5});
  for (auto& p : mesh.positions) p = glm::vec3(p.x, 1.f, p.y);
  Material m;
  m.stretch_stiffness = 5000.f;
  m.damping = 0.f;
  WorldConfig config;
  config.integrator = IntegratorKind::SymplecticEuler;
  config.interaction.strain.enabled = false;  // nothing else to catch it
  config.failsafe.enabled = failsafe;
  return World(build_cloth_model(mesh, m, {0}), config);
}

struct Run {
  float fastest = 0;       // m/s over the run
  bool finite = true;
  uint64_t speed_clamps = 0, energy_clamps = 0;
};

Run run(World& w, int ticks) {
  Run r;
  for (int k = 0; k < ticks; ++k) {
    w.step();
    r.speed_clamps += w.failsafe_stats().speed_clamps;
    r.energy_clamps += w.failsafe_stats().energy_clamps;
    for (const glm::vec3& v : w.state().velocity) {
      const float s = glm::length(v);
      r.finite = r.finite && std::isfinite(s);
      if (std::isfinite(s)) r.fastest = std::max(r.fastest, s);
    }
  }
  return r;
}

}  // namespace

TEST_CASE("fail-safe: a step that blows up is held to what gravity allows, and counted") {
  World off = unstable_disc(false);
  const Run wild = run(off, 240);
  CHECK((!wild.finite || wild.fastest > 100.f));  // the planted divergence really diverges

  World on = unstable_disc(true);
  const Run held = run(on, 240);
  CHECK(held.finite);
  // One second of free fall from rest is 9.8 m/s; the cloth hangs from a pin, so far less.
  CHECK(held.fastest < 10.f);
  CHECK(held.speed_clamps > 0);
  CHECK(held.energy_clamps > 0);  // passive: nothing drives the cloth, its energy may not grow
}

TEST_CASE("fail-safe: quiet on a cloth falling freely and landing on the floor") {
  Mesh mesh = make_irregular({.width = 0.5f, .height = 0.5f, .columns = 10, .rows = 10, .seed = 4});
  for (auto& p : mesh.positions) p = glm::vec3(p.x, 1.5f + 0.2f * p.y, p.y);  // tilted: corners land first
  World w(build_cloth_model(mesh, Material{}), WorldConfig{});
  w.add_collider(Collider{});  // the floor
  const Run r = run(w, 3 * 240);
  CHECK(r.finite);
  CHECK(r.fastest > 5.f);  // it fell 1.5 m
  CHECK(r.speed_clamps == 0);
  CHECK(r.energy_clamps == 0);
}
