#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "sim/mesh_generators.h"
#include "sim/strain_limit.h"
#include "sim/world.h"
#include "tests/engine/untuned_cloth.h"
#include "tests/sim/pose_samples.h"

using namespace weft;
using weft::test::at;

// Issue 34, item 3, on the fabrics nobody tuned the grasp for: an irregular annulus pulled by two hands
// 20 % wider than it, held, let go. The grasps yield (counted) so that no edge, held or free, passes the
// limit + 1 % at any tick, with the fail-safe off.
namespace {

struct Yield {
  float strain = 0;        // the largest edge strain at any tick, held or free
  uint64_t saturated = 0;  // patch-ticks the grasps yielded
};

Yield pull_annulus_wider(const Material& m) {
  Mesh mesh = make_annulus({.inner_radius = 0.08f, .outer_radius = 0.25f, .rings = 8, .edge = 0.03f, .seed = 4});
  for (auto& p : mesh.positions) p = glm::vec3(p.x, 1.f, p.y);
  WorldConfig config;
  config.failsafe.enabled = false;
  World w(build_cloth_model(mesh, m), config);
  auto nearest = [&](glm::vec3 p) {
    uint32_t best = 0;
    for (uint32_t i = 0; i < w.model().vertex_count(); ++i)
      if (glm::length(w.state().position[i] - p) < glm::length(w.state().position[best] - p)) best = i;
    return w.state().position[best];
  };
  const glm::vec3 c[2] = {nearest({-0.25f, 1.f, 0.f}), nearest({0.25f, 1.f, 0.f})};
  REQUIRE(w.grab(Hand::Left, at(c[0]), 0.03f) > 0);
  REQUIRE(w.grab(Hand::Right, at(c[1]), 0.03f) > 0);
  const double h = w.time_step();
  Yield y;
  bool released = false;
  for (double t = 0; t < 1.0; t += h) {
    const float s = float(std::clamp((t - 0.1) / 0.4, 0.0, 1.0));
    for (int k = 0; k < 2; ++k) {
      PoseSample p;
      p.device = k == 0 ? Device::LeftHand : Device::RightHand;
      p.time = t;
      p.pose = at(c[k] + glm::vec3((k == 0 ? -0.05f : 0.05f) * s, 0.1f * s, 0.f));
      w.submit_pose(p);
    }
    if (!released && t >= 0.8) {
      w.release(Hand::Left);
      w.release(Hand::Right);
      released = true;
    }
    w.step();
    y.saturated += w.step_report().grasp.saturated;
    const auto& x = w.state().position;
    y.strain = std::max(y.strain, max_edge_strain(w.model(), x.data()));
  }
  return y;
}

}  // namespace

TEST_CASE("grasp yield: two hands pulling an irregular annulus 20 % wider, cotton, denim, silk, isotropic: no edge past the limit + 1 %") {
  for (const char* name : {"isotropic", "cotton", "denim", "silk"}) {
    const Material m = weft::test::fabric_preset(name);
    const Yield y = pull_annulus_wider(m);
    // Without the saturation's at_limit (grasp_saturation.h) the path-length bound alone let them reach
    // isotropic 11.4 %, cotton 12.1 %, denim 13.5 %, silk 14.5 %.
    MESSAGE(std::string(name) << ": max strain " << y.strain << ", grasp yields " << y.saturated);
    CHECK(y.saturated > 0);
    CHECK(y.strain <= 0.11f);
  }
}
