// The shipped garment scene (assets/scenes/garment.json): two skirt panels placed around the `body` key's
// mannequin sew themselves closed and rest on it (issue 37's done-when).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "engine/scene_loader.h"
#include "sim/strain_limit.h"
#include "sim/scene.h"

using namespace weft;

namespace {

float rms_speed(const World& w) {
  double s = 0;
  for (const glm::vec3& v : w.state().velocity) s += glm::dot(v, v);
  return float(std::sqrt(s / double(w.state().velocity.size())));
}

// RMS of the displacement over `ticks` ticks divided by their time: how fast the cloth really moves.
float rms_motion(World& w, int ticks) {
  const std::vector<glm::vec3> before = w.state().position;
  for (int k = 0; k < ticks; ++k) w.step();
  double s = 0;
  for (size_t i = 0; i < before.size(); ++i) s += glm::dot(w.state().position[i] - before[i], w.state().position[i] - before[i]);
  return float(std::sqrt(s / double(before.size())) * w.config().tick_hz / ticks);
}

}  // namespace

TEST_CASE("the garment scene sews itself closed within 5 s, rests on the mannequin and stays out of it") {
  const Scene scene = load_scene(WEFT_SOURCE_DIR "/assets/scenes/garment.json");
  REQUIRE(scene.panels.size() == 2);
  CHECK(scene.seam_lines.size() > 0);
  World w = build_world(scene);
  size_t body_parts = 0;
  for (const Collider& c : w.colliders()) body_parts += c.body && !c.follows;  // not the hands' palms and forearms
  CHECK(body_parts == 16);  // the mannequin preset, so that the step measures the body's penetration
  const int hz = int(w.config().tick_hz);
  float deepest = -INFINITY;  // the step's body penetration: the deepest a vertex sat inside a body part
  for (int k = 0; k < 5 * hz; ++k) {
    w.step();
    deepest = std::max(deepest, w.step_report().body_penetration_m);
    if (k % hz == 0)
      std::printf("t %.2f gap %.4f sewn %u/%u inside %.4f rms %.4f strain %.4f\n", double(k) / hz,
                  w.step_report().seams.gap_max, w.step_report().seams.sewn, w.step_report().seams.pairs,
                  w.step_report().body_penetration_m, rms_speed(w), max_edge_strain(w.model(), w.state().position.data()));
  }
  CHECK(w.step_report().seams.sewn == w.step_report().seams.pairs);
  CHECK(w.step_report().seams.gap_max <= 0.002f);
  CHECK(deepest <= 0.001f);  // never more than 1 mm inside the mannequin
  for (int k = 0; k < 2 * hz; ++k) {
    w.step();
    deepest = std::max(deepest, w.step_report().body_penetration_m);
  }
  // At rest: the cloth moves less than 1 cm/s (measured over its last second), its stored velocities say so
  // (under 1 cm/s RMS: 0.37 here; 5.6 before the limiter moved sewn seams as one body, sim/sewn_weld.h, and
  // 1.9 before the solve kept the sewn seams closed, sim/sewn_filter.h) and no edge is over the strain
  // limit + 1 % (the edge beside the top of each side seam ended at 130 % before).
  const float motion = rms_motion(w, hz);
  const float strain = max_edge_strain(w.model(), w.state().position.data());
  std::printf("at 8 s: motion %.4f m/s, velocity rms %.4f m/s, gap %.5f m, edge strain %.4f; deepest inside %.4f m\n",
              motion, rms_speed(w), w.step_report().seams.gap_max, strain, deepest);
  CHECK(motion < 0.01f);
  CHECK(rms_speed(w) < 0.01f);
  CHECK(strain <= w.config().interaction.strain.max_strain + 0.01f);
  CHECK(w.step_report().seams.gap_max <= 0.002f);
  CHECK(deepest <= 0.001f);
}

