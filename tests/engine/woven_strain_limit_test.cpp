#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "sim/mesh_generators.h"
#include "sim/world.h"
#include "tests/engine/untuned_cloth.h"
#include "tests/sim/pose_samples.h"

using namespace weft;
using namespace weft::test;

namespace {

struct Shake {
  float worst = 0.f;       // largest edge strain at the end of any tick
  float worst_free = 0.f;  // ... of an edge with neither end held
  float end = 0.f;
  int worst_tick = -1;
};

// An irregular annulus (0.8 m across, 2 cm edges at every angle to the weave) lying flat, taken by two hands
// at opposite points of its rim, lifted 0.3 m in 0.3 s, then shaken at 3 Hz (5 cm up and down, 3 cm back and
// forth at twice that) for 1.5 s: issue 34's two-hand shake.
Shake shake_annulus(const Material& material) {
  const float r = 0.4f;
  Mesh mesh = make_annulus({.inner_radius = 0.06f, .outer_radius = r, .rings = 12, .edge = 0.02f, .seed = 7});
  for (auto& p : mesh.positions) p = glm::vec3(p.x - r, 0.8f, p.y - r);
  World w(build_cloth_model(mesh, material), WorldConfig{});
  const glm::vec3 left(-r, 0.8f, 0.f), right(r, 0.8f, 0.f);
  Pose at;
  at.position = left;
  REQUIRE(w.grab(Hand::Left, at, 0.04f) > 0);
  at.position = right;
  REQUIRE(w.grab(Hand::Right, at, 0.04f) > 0);
  const ClothModel& m = w.model();
  Shake out;
  const int ticks = int(1.9 * 240);
  for (int k = 0; k < ticks; ++k) {
    const double t = w.state().time;
    for (int side = 0; side < 2; ++side) {
      glm::vec3 p = (side == 0 ? left : right) + glm::vec3(0.f, 0.3f, 0.f) * float(ease(0.0, 0.3, t));
      if (t > 0.4) {
        const double ph = 2.0 * 3.14159265358979 * 3.0 * (t - 0.4);
        p += glm::vec3(0.f, 0.05f * float(std::sin(ph)), 0.03f * float(std::sin(2.0 * ph)));
      }
      w.submit_pose(sample(side == 0 ? Device::LeftHand : Device::RightHand, t, p));
    }
    w.step();
    const auto& x = w.state().position;
    const auto& kin = w.state().kinematic;
    float tick_worst = 0.f;
    for (size_t e = 0; e < m.edge_count; ++e) {
      const uint32_t i = m.link[e][0], j = m.link[e][1];
      const float strain = glm::length(x[j] - x[i]) / m.rest_length[e] - 1.f;
      tick_worst = std::max(tick_worst, strain);
      if (!kin[i] && !kin[j]) out.worst_free = std::max(out.worst_free, strain);
    }
    if (tick_worst > out.worst) out.worst = tick_worst, out.worst_tick = k;
    out.end = tick_worst;
  }
  return out;
}

}  // namespace

TEST_CASE("woven strain limit: a two-hand shake at 3 Hz of an irregular annulus keeps every edge within the limit + 1 %") {
  for (const char* name : {"isotropic", "cotton", "denim", "silk"}) {
    CAPTURE(name);
    const Shake s = shake_annulus(fabric_preset(name));
    MESSAGE(std::string(name) << ": max " << 100 * s.worst << " % (free " << 100 * s.worst_free << " %) at tick " << s.worst_tick
                 << ", end " << 100 * s.end << " %");
    CHECK(s.worst <= 0.10f + 0.01f);  // 48 sweeps, no tolerance (before issue 34): denim 12.1 %
  }
}
