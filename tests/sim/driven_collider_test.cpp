#include <doctest/doctest.h>

#include <glm/gtc/matrix_transform.hpp>

#include "sim/driven_collider.h"
#include "sim/hand_colliders.h"
#include "sim/mesh_generators.h"
#include "sim/world.h"
#include "tests/sim/pose_samples.h"

using namespace weft;
using weft::test::at;
using weft::test::sample;

namespace {

constexpr float kH = 1.f / 240.f;

// A hand's palm or forearm already on a hand at p (made parked: the hand unseen).
Collider on_hand(const glm::vec3& p, int part = 0) {
  Collider c = make_hand_colliders(Hand::Right, HandColliderSizes{}, at(p))[part];
  c.parked = c.wait_clear = false;
  return c;
}
Collider palm_at(const glm::vec3& p) { return on_hand(p); }

// The device moving from `from` to `to` over the tick, the palm's place in its frame (turned onto the grip's z).
DeviceMotion moving(const glm::vec3& from, const glm::vec3& to) {
  const glm::quat palm = palm_at(from).pose.orientation;
  DeviceMotion m;
  m.known = true;
  m.now = Pose{from, palm};
  m.next = Pose{to, palm};
  return m;
}

// One tick with no cloth about.
void drive(Collider& c, const DeviceMotion& m) { drive_collider(c, m, nullptr, 0, 0.004f, kH, ElasticParams{}); }

}  // namespace

TEST_CASE("a device's collider follows a plausibly moving device by the elastic law") {
  Collider c = palm_at({0.f, 1.f, 0.f});
  drive(c, moving({0.f, 1.f, 0.f}, {0.005f, 1.f, 0.f}));  // 1.2 m/s
  CHECK_FALSE(c.parked);
  CHECK(glm::distance(c.pose.position, glm::vec3(0.005f, 1.f, 0.f)) < 1e-5f);
  CHECK(glm::distance(c.previous_pose.position, glm::vec3(0.f, 1.f, 0.f)) < 1e-6f);
}

TEST_CASE("a device's collider stands aside while its device is unseen, and lands on its first pose without sweeping") {
  Collider c = palm_at({0.f, 1.f, 0.f});
  drive(c, DeviceMotion{});
  CHECK(c.parked);
  CHECK(c.pose.position.y < -100.f);
  CHECK(c.previous_pose.position == c.pose.position);
  // first seen 0.5 m away, moving at 1.2 m/s: put there, its previous pose too (no sweep through the cloth)
  drive(c, moving({0.5f, 1.f, 0.f}, {0.505f, 1.f, 0.f}));
  CHECK_FALSE(c.parked);
  CHECK(glm::distance(c.pose.position, glm::vec3(0.505f, 1.f, 0.f)) < 1e-6f);
  CHECK(c.previous_pose.position == c.pose.position);
  CHECK(glm::distance(c.linear_velocity, glm::vec3(1.2f, 0.f, 0.f)) < 1e-3f);
}

TEST_CASE("a device's collider stands aside while its device jumps: a spike, a lag past kStandAsideLag, a jump closed") {
  const glm::vec3 p(0.f, 1.f, 0.f), spike(0.4f, 1.f, 0.f);
  {
    Collider c = palm_at(p);
    drive(c, moving(p, spike));  // 96 m/s in one tick: a spike
    CHECK(c.parked);
    drive(c, moving(spike, p));  // and back: still jumping
    CHECK(c.parked);
    drive(c, moving(p, p));  // at rest again: back on the hand
    CHECK_FALSE(c.parked);
    CHECK(glm::distance(c.pose.position, p) < 1e-6f);
  }
  {
    Collider c = palm_at(p);  // the device found again 6 cm away, moving slowly: the collider does not chase it
    drive(c, moving(p + glm::vec3(0.06f, 0, 0), p + glm::vec3(0.06f, 0, 0)));
    CHECK(c.parked);
  }
  {
    Collider c = palm_at(p);  // the safety layer closing a jump
    DeviceMotion m = moving(p, p);
    m.jumping = true;
    drive(c, m);
    CHECK(c.parked);
  }
  {
    Collider c = on_hand(p, 1);  // a forearm turned 90 degrees
    DeviceMotion m = moving(c.pose.position, c.pose.position);
    m.now.orientation = m.next.orientation = glm::angleAxis(glm::half_pi<float>(), glm::vec3(0, 1, 0)) * c.pose.orientation;
    drive(c, m);
    CHECK(c.parked);
  }
}

TEST_CASE("an unseen hand's colliders touch nothing: cloth falls through where the hand would start") {
  // A cloth dropped onto the scene's hand start: the hand, never seen, is parked below the stage.
  Mesh mesh = make_grid({.width = 0.2f, .height = 0.2f, .columns = 8, .rows = 8});
  transform_mesh(mesh, glm::rotate(glm::translate(glm::mat4(1.f), glm::vec3(-0.1f, 1.2f, 0.1f)), -glm::half_pi<float>(),
                                   glm::vec3(1, 0, 0)));
  World w(build_cloth_model(mesh, {}), {});
  for (const Collider& c : make_hand_colliders(Hand::Right, HandColliderSizes{}, at({0.f, 1.f, 0.f}))) w.add_collider(c);
  for (int k = 0; k < 120; ++k) w.step();  // 0.5 s: 1.2 m of free fall
  float lowest = INFINITY;
  for (const glm::vec3& x : w.state().position) lowest = std::min(lowest, x.y);
  CHECK(lowest < 0.5f);  // through where the palm stood at y = 1
  for (const Collider& c : w.colliders()) CHECK(c.parked);
  CHECK(w.failsafe_stats().speed_clamps == 0);
}

TEST_CASE("a device's collider stands aside while its device holds, and comes back only clear of the cloth") {
  const glm::vec3 p(0.f, 1.f, 0.f);
  Collider c = palm_at(p);
  DeviceMotion m = moving(p, p);
  m.holds = true;
  drive(c, m);
  CHECK(c.parked);
  m.holds = false;
  // a vertex 1 cm from the palm's axis, inside it: the palm waits
  const glm::vec3 cloth[] = {p + glm::vec3(0.01f, 0.f, 0.f)};
  drive_collider(c, m, cloth, 1, 0.004f, kH, ElasticParams{});
  CHECK(c.parked);
  // the hand moved 10 cm away from it, slowly: back on the hand
  for (int k = 0; k < 20; ++k) {
    const glm::vec3 a = p + glm::vec3(0.f, 0.005f * float(k), 0.f), b = a + glm::vec3(0.f, 0.005f, 0.f);
    drive_collider(c, moving(a, b), cloth, 1, 0.004f, kH, ElasticParams{});
  }
  CHECK_FALSE(c.parked);
  CHECK(lands_clear(c, c.pose, cloth, 1, 0.004f));
  CHECK_FALSE(lands_clear(c, Pose{p, c.pose.orientation}, cloth, 1, 0.004f));
  // A hand's palm made parked at the hand's start, its device seen there in the cloth: it waits below the stage,
  // not at the start (where it would push the cloth)
  Collider fresh = make_hand_colliders(Hand::Right, HandColliderSizes{}, at(p))[0];
  drive_collider(fresh, moving(p, p), cloth, 1, 0.004f, kH, ElasticParams{});
  CHECK(fresh.parked);
  CHECK(fresh.pose.position.y < -100.f);
}

TEST_CASE("a device's collider parked for a gap or a jump comes back at once, even into the cloth it pushed") {
  const glm::vec3 p(0.f, 1.f, 0.f);
  const glm::vec3 cloth[] = {p + glm::vec3(0.f, 0.f, -0.045f)};  // against the palm's side, within the thickness
  Collider c = palm_at(p);
  drive_collider(c, DeviceMotion{}, cloth, 1, 0.004f, kH, ElasticParams{});  // a gap
  CHECK(c.parked);
  CHECK_FALSE(c.wait_clear);
  drive_collider(c, moving(p, p + glm::vec3(0.f, 0.f, -0.003f)), cloth, 1, 0.004f, kH, ElasticParams{});
  CHECK_FALSE(c.parked);  // back on the hand, the cloth 1.5 mm deep in it (left to leave)
}
