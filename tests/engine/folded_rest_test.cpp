// Issue 34: a cloth whose rest shape is folded (layers within the self-collision thickness of each other in the
// mesh as given: a crease at 160 degrees, a hem, a pleat) dropped on a table with self-collision on rests where
// it lies in every fabric, with the fail-safe off: the self-contacts keep such layers at their rest distance
// (sim/rest_gap.h) instead of pushing them a thickness apart every tick against the elastics.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/mesh_check.h"
#include "sim/force_field.h"
#include "sim/world.h"
#include "tests/engine/folded_rest.h"
#include "tests/engine/untuned_cloth.h"

using namespace weft;
using namespace weft::test;

namespace {

struct RestRun {
  float top_start = 0, top_max = 0, top_end = 0;  // m: the highest vertex
  float rms = 0;                                  // m/s: RMS vertex speed at 3 s
  float fastest = 0;                              // m/s: at any tick
  double energy_rise = 0;                         // J: the largest rise of kinetic + elastic + gravity in a tick
  uint64_t speed_clamps = 0, energy_clamps = 0;   // the fail-safe's, summed over the ticks
  bool finite = true;
};

float top_of(const std::vector<glm::vec3>& x) {
  float top = -1e9f;
  for (const glm::vec3& p : x) top = std::max(top, p.y);
  return top;
}

RestRun drop_on_table(FoldedRest f, const std::string& fabric, bool failsafe, bool self = true, double seconds = 3.0) {
  Scene s;
  s.name = folded_rest_name(f);
  s.mesh = folded_rest_mesh(f, kTableTop + 0.01f);
  s.material = fabric_preset(fabric);
  s.world.self_collision.enabled = self;
  s.world.self_collision.thickness = 0.005f;
  s.world.failsafe.enabled = failsafe;
  Collider floor;
  floor.shape = ColliderShape::Plane;
  s.colliders.push_back(floor);
  s.colliders.push_back(table_box());
  World w = build_world(s);
  w.add_overlapping_pairs(check_mesh(s.mesh).overlapping_pairs);
  const ClothModel& m = w.model();
  RestRun r;
  r.top_start = r.top_max = top_of(w.state().position);
  auto energy = [&] {
    const Energy e = compute_energy(m, w.state().position.data(), w.state().velocity.data());
    return e.total();
  };
  double before = energy();
  const int ticks = int(std::lround(seconds * w.config().tick_hz));
  for (int k = 0; k < ticks; ++k) {
    w.step();
    r.speed_clamps += w.failsafe_stats().speed_clamps;
    r.energy_clamps += w.failsafe_stats().energy_clamps;
    const double now = energy();
    r.energy_rise = std::max(r.energy_rise, now - before);
    before = now;
    const float fastest = max_speed(w.state().velocity);
    r.finite = r.finite && std::isfinite(fastest);
    r.fastest = std::max(r.fastest, fastest);
    r.top_max = std::max(r.top_max, top_of(w.state().position));
  }
  r.top_end = top_of(w.state().position);
  r.rms = rms_speed(w.state().velocity);
  return r;
}

// A fabric dropped 1 cm onto the table three ways: fail-safe off (the cloth must rest without it), on (it
// stays idle), and without self-collision (where the elastics and gravity alone take the cloth: the woven
// presets bend toward their flat material coordinates, so a fold with no crease line opens by itself, denim's
// pleat 8 cm high with or without stage 5).
void check_rests(FoldedRest f) {
  for (const char* fabric : kFabrics) {
    const std::string cell = std::string(folded_rest_name(f)) + ", " + fabric;
    INFO(cell);
    const RestRun off = drop_on_table(f, fabric, false), on = drop_on_table(f, fabric, true);
    const RestRun alone = drop_on_table(f, fabric, false, false);
    MESSAGE(cell << ": top " << 1e3 * (off.top_start - kTableTop) << " mm, highest " << 1e3 * (off.top_max - kTableTop)
                 << ", at 3 s " << 1e3 * (off.top_end - kTableTop) << " (no self-collision: highest "
                 << 1e3 * (alone.top_max - kTableTop) << ", at 3 s " << 1e3 * (alone.top_end - kTableTop)
                 << "); RMS at 3 s " << 100 * off.rms << " cm/s; largest energy rise a tick " << 1e3 * off.energy_rise
                 << " mJ; fail-safe on: " << on.speed_clamps << " speed, " << on.energy_clamps << " energy clamps");
    CHECK(off.finite);
    CHECK(off.rms < 0.01f);
    // It does not climb: never more than 5 mm over where it lay or where the elastics alone took it.
    const float bar = std::max(off.top_start, alone.top_max) + 0.005f;
    CHECK(off.top_max <= bar);
    CHECK(off.top_end <= std::max(off.top_start, alone.top_end) + 0.005f);
    CHECK(on.speed_clamps == 0);
    CHECK(on.energy_clamps == 0);
  }
}

}  // namespace

TEST_CASE("folded rest: a sheet folded at 160 degrees at rest, dropped on a table, rests and does not climb") {
  check_rests(FoldedRest::Fold160);
}
TEST_CASE("folded rest: a hem folded flat at 2 mm at rest, dropped on a table, rests and does not climb") {
  check_rests(FoldedRest::Hem);
}
TEST_CASE("folded rest: a knife pleat at 2 mm at rest, dropped on a table, rests and does not climb") {
  check_rests(FoldedRest::Pleat);
}
