#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

#include "sim/hand_colliders.h"
#include "sim/mesh_generators.h"
#include "sim/world.h"
#include "tests/allocation_counter.h"
#include "tests/sim/pose_samples.h"

using namespace weft;
using weft::test::at;
using weft::test::sample;

namespace {

// An irregular 0.4 m cloth hanging in the z = 0 plane from its pinned top edge (y = 1.4), centred on x = 0.
ClothModel hanging_irregular() {
  Mesh mesh = make_irregular({.width = 0.4f, .height = 0.4f, .columns = 20, .rows = 20, .seed = 7});
  transform_mesh(mesh, glm::translate(glm::mat4(1.f), glm::vec3(-0.2f, 1.f, 0.f)));
  std::vector<uint32_t> top;
  for (uint32_t i = 0; i < mesh.positions.size(); ++i)
    if (mesh.positions[i].y > 1.4f - 1e-4f) top.push_back(i);
  return build_cloth_model(mesh, {}, top);
}

float min_distance(const World& w, const Collider& c) {
  float d = INFINITY;
  glm::vec3 n;
  for (const glm::vec3& x : w.state().position) d = std::min(d, collider_distance(c, x, n));
  return d;
}

bool finite(const World& w) {
  for (size_t i = 0; i < w.state().position.size(); ++i) {
    const glm::vec3 x = w.state().position[i], v = w.state().velocity[i];
    if (!std::isfinite(x.x + x.y + x.z + v.x + v.y + v.z)) return false;
  }
  return true;
}

float mean_z(const World& w) {
  float z = 0.f;
  for (const glm::vec3& x : w.state().position) z += x.z;
  return z / float(w.state().position.size());
}

// A hand driven along `path(t)` (its grip pose, identity orientation: the palm pointing -z, the forearm
// trailing along +z), a pose sample one tick ahead of every step.
template <class Path>
void drive(World& w, Path&& path, int ticks, auto&& each_tick) {
  for (int k = 0; k < ticks; ++k) {
    const double t1 = w.state().time + w.time_step();
    w.submit_pose(sample(Device::RightHand, t1, path(t1)));
    w.step();
    each_tick();
  }
}

}  // namespace

TEST_CASE("a hand's palm and forearm sit in its grip frame and follow it, turning with it") {
  const HandColliderSizes sizes;
  const Pose start = at({0.f, 1.f, 0.5f});
  const auto hand = make_hand_colliders(Hand::Left, sizes, start);
  CHECK(hand[0].follows == Device::LeftHand);
  CHECK(hand[0].body);
  CHECK(hand[1].body);
  // the palm's axis along the grip's z, the forearm behind the wrist along +z
  CHECK(glm::length(hand[0].pose.orientation * glm::vec3(0, 1, 0) - glm::vec3(0, 0, 1)) < 1e-5f);
  CHECK(hand[1].pose.position.z == doctest::Approx(0.5f + sizes.wrist_offset + 0.5f * sizes.forearm_length));

  World w(hanging_irregular(), {});
  const size_t palm = w.add_collider(hand[0]), arm = w.add_collider(hand[1]);
  // The device turns 90 degrees about y: after the elastic's time constant the forearm points along +x.
  const glm::quat turn = glm::angleAxis(glm::half_pi<float>(), glm::vec3(0, 1, 0));
  for (int k = 0; k < 120; ++k) {
    PoseSample s = sample(Device::LeftHand, w.state().time + w.time_step(), start.position);
    s.pose.orientation = turn;
    w.submit_pose(s);
    w.step();
  }
  const Collider& a = w.colliders()[arm];
  CHECK(glm::length(a.pose.orientation * glm::vec3(0, 1, 0) - glm::vec3(1, 0, 0)) < 1e-3f);
  const float reach = sizes.wrist_offset + 0.5f * sizes.forearm_length;
  CHECK(glm::distance(a.pose.position, start.position + glm::vec3(reach, 0, 0)) < 1e-3f);
  CHECK(glm::distance(w.colliders()[palm].pose.position, start.position) < 1e-4f);
}

TEST_CASE("a hand that does not squeeze pushes a hanging cloth aside: never closer to its palm than the thickness") {
  // Done-when of issue 37: the palm sweeps at 1.5 m/s through the lower part of a hanging irregular cloth
  // (along -z, the cloth's normal), on past it, then away to the side; the cloth is pushed aside and swings
  // back. At every tick the nearest vertex stays outside the palm by the contact thickness (float rounding
  // only), no NaN, the fail-safe never engages. Run with the default mg solver, and cg and approx.
  const IntegratorKind kinds[] = {IntegratorKind::Multigrid, IntegratorKind::ConjugateGradient,
                                  IntegratorKind::ApproximateImplicit};
  for (IntegratorKind kind : kinds) {
    CAPTURE(int(kind));
    WorldConfig config;
    config.integrator = kind;
    World w(hanging_irregular(), config);
    const float thickness = w.config().interaction.thickness;
    const float speed = 1.5f;
    const glm::vec3 from(0.02f, 1.1f, 0.3f);
    const double through = 0.7 / speed;  // s: from z = 0.3 to z = -0.4
    auto path = [&](double t) {
      if (t < through) return from + glm::vec3(0, 0, -speed * float(t));
      const glm::vec3 end = from + glm::vec3(0, 0, -0.7f);  // then away to the side, out of the cloth's reach
      return end + glm::vec3(speed * float(std::min(t - through, 0.6 / speed)), 0, 0);
    };
    const auto hand = make_hand_colliders(Hand::Right, HandColliderSizes{}, at(from));
    const size_t palm = w.add_collider(hand[0]);
    w.add_collider(hand[1]);
    float closest = INFINITY, pushed = 0.f;
    uint64_t clamps = 0;
    bool ok = true;
    drive(w, path, int(1.2 * 240), [&] {
      closest = std::min(closest, min_distance(w, w.colliders()[palm]));
      pushed = std::min(pushed, mean_z(w));
      clamps += w.failsafe_stats().speed_clamps + w.failsafe_stats().energy_clamps;
      ok = ok && finite(w);
    });
    CHECK(ok);
    CHECK(closest >= thickness - 1e-5f);
    CHECK(pushed < -0.05f);  // the cloth went aside with the hand
    // and swings back toward its plane once the hand is gone
    drive(w, [&](double) { return path(10.0); }, 3 * 240, [] {});
    CHECK(finite(w));
    CHECK(w.step_report().body_penetration_m == 0.f);
    MESSAGE("closest ", closest, " m, pushed to mean z ", pushed, " m, back to ", mean_z(w), " m, clamps ", clamps);
    if (kind == IntegratorKind::Multigrid) {  // cg and approx: docs/interaction.md, "Hands and bodies"
      CHECK(std::abs(mean_z(w)) < 0.02f);
      CHECK(clamps == 0);
    }
  }
}

TEST_CASE("colliders move continuously: no vertex tunnels through a palm or a thin forearm at 2 m/s") {
  // A palm pointing into the cloth and a thin bar (a forearm 1 cm in radius, lying across the cloth) are
  // driven through a hanging cloth at 2 m/s along -z, at 240 and 90 Hz. At 90 Hz the bar moves 2.2 cm a tick,
  // more than its 2 cm diameter. A vertex tunnelled when, relative to the collider, it went from ahead of it
  // (z below its centre) to behind it and crossed the plane through its centre inside it; a vertex that went
  // round it (the cloth wraps the bar) crossed that plane outside. Checked independently of the sim's own
  // swept test: the relative motion is interpolated linearly over the tick.
  for (double hz : {240.0, 90.0}) {
    for (bool bar : {false, true}) {
      CAPTURE(hz);
      CAPTURE(bar);
      WorldConfig config;
      config.tick_hz = hz;
      World w(hanging_irregular(), config);
      Collider c = make_hand_colliders(Hand::Right, HandColliderSizes{}, at({0.f, 1.15f, 0.2f}))[0];
      // On the hand from the start, as this test was written. Made parked (the hand unseen), the first tick
      // puts it exactly on the hand instead of by the elastic law, and at 240 Hz two vertices of the cloth
      // whipping back at 6.5 m/s as the bar stops crossed it (docs/interaction.md, "Still open").
      c.parked = false;
      if (bar) {
        c.radius = 0.01f;
        c.half_length = 0.15f;
        c.grip->orientation = glm::angleAxis(glm::half_pi<float>(), glm::vec3(0, 0, 1));  // along x
        c.pose.orientation = c.grip->orientation;
      }
      const size_t index = w.add_collider(c);
      const glm::vec3 from(0.f, 1.15f, 0.2f);
      auto path = [&](double t) { return from + glm::vec3(0, 0, -2.f * float(std::min(t, 0.35 / 2.0))); };
      int tunnelled = 0, crossed = 0;
      std::vector<glm::vec3> before = w.state().position;
      glm::vec3 centre_before = w.colliders()[index].pose.position;
      drive(w, path, int(0.3 * hz), [&] {
        const Collider& k = w.colliders()[index];
        for (size_t i = 0; i < before.size(); ++i) {
          const glm::vec3 r0 = before[i] - centre_before, r1 = w.state().position[i] - k.pose.position;
          if (!(r0.z < 0.f && r1.z >= 0.f)) continue;
          ++crossed;
          const glm::vec3 q = r0 + (-r0.z / (r1.z - r0.z)) * (r1 - r0);
          glm::vec3 n;
          if (collider_distance(k, k.pose.position + q, n) < 0.f) ++tunnelled;
        }
        before = w.state().position;
        centre_before = k.pose.position;
      });
      CHECK(tunnelled == 0);
      CHECK(finite(w));
      CHECK(mean_z(w) < -0.01f);  // pushed along
      MESSAGE("went round the collider (crossed its plane outside it): ", crossed);
    }
  }
}

TEST_CASE("a hand's own colliders leave what it holds to its grasp, while it holds and while the patch slides out") {
  World w(hanging_irregular(), {});
  const glm::vec3 c(0.f, 1.2f, 0.f);
  const auto hand = make_hand_colliders(Hand::Right, HandColliderSizes{}, at(c));
  w.add_collider(hand[0]);
  w.add_collider(hand[1]);
  const size_t held = w.grab(Hand::Right, at(c), 0.03f);
  REQUIRE(held > 0);
  std::vector<glm::vec3> grabbed;
  for (uint32_t i : w.held_vertices(Device::RightHand).vertex) grabbed.push_back(w.state().position[i]);
  for (int k = 0; k < 60; ++k) {
    w.submit_pose(sample(Device::RightHand, w.state().time + w.time_step(), c));
    w.step();
  }
  // the held patch stays in the fist (inside the palm capsule), not pushed out to its surface
  const auto& set = w.held_vertices(Device::RightHand);
  float moved = 0.f;
  for (size_t k = 0; k < set.vertex.size(); ++k) moved = std::max(moved, glm::distance(w.state().position[set.vertex[k]], grabbed[k]));
  CHECK(moved < 0.01f);
  CHECK(w.step_report().body_penetration_m < 1e-3f);  // and is not counted as inside its own hand
  // the release: the patch slides out over release_time without being blown out of the palm
  w.release(Hand::Right);
  for (int k = 0; k < 240; ++k) {
    w.submit_pose(sample(Device::RightHand, w.state().time + w.time_step(), c));
    w.step();
    CHECK(finite(w));
  }
  CHECK(w.failsafe_stats().speed_clamps == 0);
}

TEST_CASE("body penetration: the deepest a free vertex sits inside a body collider, 0 outside, not the floor") {
  World w(hanging_irregular(), {});
  Collider ball;
  ball.shape = ColliderShape::Sphere;
  ball.radius = 0.05f;
  ball.pose = at({0.f, 1.2f, 0.f});
  ball.body = true;
  // what body_penetration sees directly
  const glm::vec3 inside = ball.pose.position + glm::vec3(0.f, 0.f, 0.02f);
  const float inv_mass = 1.f;
  CHECK(body_penetration(&ball, 1, &inv_mass, &inside, 1, nullptr) == doctest::Approx(0.03f));
  const glm::vec3 outside = ball.pose.position + glm::vec3(0.f, 0.f, 0.06f);
  CHECK(body_penetration(&ball, 1, &inv_mass, &outside, 1, nullptr) == 0.f);
  Collider prop = ball;
  prop.body = false;
  CHECK(body_penetration(&prop, 1, &inv_mass, &inside, 1, nullptr) == 0.f);
  // held by the device the collider follows: not counted
  ball.follows = Device::LeftHand;
  const uint8_t held_by_left = 1u << device_index(Device::LeftHand);
  CHECK(body_penetration(&ball, 1, &inv_mass, &inside, 1, &held_by_left) == 0.f);
}

TEST_CASE("hand colliders and a driven body part add no allocation to the per-tick path") {
  World w(hanging_irregular(), {});
  const glm::vec3 c(0.f, 1.2f, 0.1f);
  for (const Collider& k : make_hand_colliders(Hand::Right, HandColliderSizes{}, at(c))) w.add_collider(k);
  Collider ball;
  ball.shape = ColliderShape::Sphere;
  ball.body = true;
  ball.follows = Device::Tracker0;
  ball.grip = Pose{};
  w.add_collider(ball);
  w.grab(Hand::Right, at(c), 0.04f);
  for (int k = 0; k < 5; ++k) w.step();  // warm-up
  const uint64_t before = test::allocation_count();
  for (int k = 0; k < 40; ++k) {
    w.submit_pose(sample(Device::RightHand, w.state().time + w.time_step(), c + glm::vec3(0.f, 0.f, -0.002f * float(k))));
    w.submit_pose(sample(Device::Tracker0, w.state().time + w.time_step(), c + glm::vec3(0.1f, 0.f, 0.f)));
    if (k == 20) w.release(Hand::Right);
    w.step();
  }
  CHECK(test::allocation_count() - before == 0);
}

TEST_CASE("a cloth lying across a forearm is carried along it by Coulomb friction, without a grasp") {
  // A 0.3 m strip laid across the forearm (which runs along z behind the grip), settled, then the hand moves
  // 15 cm along the forearm's axis at 0.3 m/s: only friction can carry the strip along the axis.
  auto carried = [](float mu) {
    Mesh mesh = make_irregular({.width = 0.3f, .height = 0.08f, .columns = 15, .rows = 4, .seed = 5});
    // across x, lying flat (the mesh's y onto -z) 1 cm above the forearm's top, centred on it
    const HandColliderSizes sizes{.mu_static = mu, .mu_kinetic = mu};
    const glm::vec3 grip(0.f, 1.f, 0.f);
    const float arm_z = sizes.wrist_offset + 0.5f * sizes.forearm_length;
    transform_mesh(mesh, glm::translate(glm::mat4(1.f), glm::vec3(-0.15f, 1.f + sizes.forearm_radius + 0.01f, arm_z + 0.04f)) *
                             glm::rotate(glm::mat4(1.f), -glm::half_pi<float>(), glm::vec3(1, 0, 0)));
    World w(build_cloth_model(mesh, {}), {});
    for (const Collider& c : make_hand_colliders(Hand::Right, sizes, at(grip))) w.add_collider(c);
    drive(w, [&](double) { return grip; }, 240, [] {});
    const float before = mean_z(w);
    drive(w, [&](double t) { return grip + glm::vec3(0.f, 0.f, 0.3f * float(std::clamp(t - 1.0, 0.0, 0.5))); }, 150,
          [] {});
    CHECK(finite(w));
    return mean_z(w) - before;
  };
  const float with = carried(0.8f), without = carried(0.f);
  MESSAGE("strip carried ", with, " m with mu 0.8, ", without, " m without friction; the hand moved 0.15 m");
  CHECK(with > 0.1f);
  CHECK(without < 0.03f);
}

TEST_CASE("the cloth round a fist that holds a small patch is not torn from it by the hand's own palm") {
  // A grasp of 2 cm radius inside a palm of 4 cm: the ring of cloth between them starts inside the palm. The
  // hand's colliders leave it there (it was inside at the tick's start); pushed out to the palm's surface it
  // would be stretched across the 2 cm between the held patch and the palm.
  World w(hanging_irregular(), {});
  const glm::vec3 c = w.state().position[220];  // the middle of the cloth
  for (const Collider& k : make_hand_colliders(Hand::Right, HandColliderSizes{}, at(c))) w.add_collider(k);
  REQUIRE(w.grab(Hand::Right, at(c), 0.02f) > 0);
  float worst = 0.f;
  for (int k = 0; k < 120; ++k) {
    w.submit_pose(sample(Device::RightHand, w.state().time + w.time_step(), c + glm::vec3(0.f, 0.f, 0.001f * float(k))));
    w.step();
    const ClothModel& m = w.model();
    for (size_t e = 0; e < m.edge_count; ++e) {
      const auto [a, b] = m.link[e];
      worst = std::max(worst, glm::distance(w.state().position[a], w.state().position[b]) / m.rest_length[e] - 1.f);
    }
  }
  MESSAGE("worst edge strain while holding inside the palm: ", worst);
  CHECK(worst < w.config().interaction.strain.max_strain + 0.02f);
}

namespace {

float worst_strain(const World& w) {
  const ClothModel& m = w.model();
  float worst = 0.f;
  for (size_t e = 0; e < m.edge_count; ++e) {
    const auto [a, b] = m.link[e];
    worst = std::max(worst, glm::distance(w.state().position[a], w.state().position[b]) / m.rest_length[e] - 1.f);
  }
  return worst;
}

struct Run {
  float strain = 0.f;
  uint64_t clamps = 0;
  bool ok = true;  // no NaN
  void tick(const World& w) {
    strain = std::max(strain, worst_strain(w));
    clamps += w.failsafe_stats().speed_clamps + w.failsafe_stats().energy_clamps;
    ok = ok && finite(w);
  }
};

}  // namespace

// Not met yet (may_fail): mg 27 % and 3 clamps, cg 17 % and 1 clamp. The forearm pushes each vertex out along
// its own radius, in the sheet's plane, so the vertices it meets go to both sides of it and the edges between
// them straddle it; the limiter may not pull those together (that pulled cloth through a 1 cm forearm above).
TEST_CASE("a forearm coming down edge-on into a hanging cloth at 1 m/s pushes it aside without tearing it" *
          doctest::may_fail()) {
  // The shipped demos' failure with hand colliders on: a forearm whose axis crosses the sheet (edge-on to it)
  // comes down inside the sheet's plane over its side edge (its axis 3 cm inside it), 1 m/s for 25 cm, and
  // stays there 1 s: the cloth it meets goes aside. No edge past the limit + 1 %, no fail-safe clamp, no NaN.
  // Through a pinned edge there is no way round (the sheet would have to stretch 40 %): docs/interaction.md.
  const IntegratorKind kinds[] = {IntegratorKind::Multigrid, IntegratorKind::ConjugateGradient};
  for (IntegratorKind kind : kinds) {
    CAPTURE(int(kind));
    WorldConfig config;
    config.integrator = kind;
    World w(hanging_irregular(), config);
    const HandColliderSizes sizes;
    // grip 20 cm in front of the sheet: the forearm (8 to 33 cm behind it along +z) crosses z = 0
    const glm::vec3 from(0.17f, 1.33f, -0.2f);
    auto path = [&](double t) { return from + glm::vec3(0.f, -float(std::min(t, 0.25)), 0.f); };
    const auto hand = make_hand_colliders(Hand::Right, sizes, at(from));
    w.add_collider(hand[0]);
    const size_t arm = w.add_collider(hand[1]);
    Run run;
    drive(w, path, int(1.25 * 240), [&] { run.tick(w); });
    const float limit = w.config().interaction.strain.max_strain;
    MESSAGE("forearm edge-on: worst strain ", run.strain, ", clamps ", run.clamps, ", nearest ",
            min_distance(w, w.colliders()[arm]), " m from it");
    CHECK(run.ok);
    CHECK(run.strain <= limit + 0.01f);
    CHECK(run.clamps == 0);
  }
}

TEST_CASE("a palm that comes down onto a hanging cloth's corner and grabs it neither tears nor whips the cloth") {
  // The scripted demo's approach: the hand comes from 25 cm above a bottom corner, inside the sheet's plane,
  // onto it in 0.4 s, squeezes, and lifts it 20 cm toward the viewer.
  World w(hanging_irregular(), {});
  uint32_t corner = 0;
  for (uint32_t i = 0; i < w.state().position.size(); ++i)
    if (w.state().position[i].x - w.state().position[i].y < w.state().position[corner].x - w.state().position[corner].y)
      corner = i;
  const glm::vec3 c = w.state().position[corner];
  auto ease = [](double s) { s = std::clamp(s, 0.0, 1.0); return float(s * s * (3.0 - 2.0 * s)); };
  auto path = [&](double t) {
    return c + glm::vec3(0.f, 0.25f * (1.f - ease(t / 0.4)), 0.f) + glm::vec3(0.f, 0.2f, 0.2f) * ease((t - 0.4) / 0.5);
  };
  for (const Collider& k : make_hand_colliders(Hand::Left, HandColliderSizes{}, at(path(0.0)))) w.add_collider(k);
  Run run;
  auto drive_left = [&](int ticks) {
    for (int k = 0; k < ticks; ++k) {
      const double t1 = w.state().time + w.time_step();
      w.submit_pose(sample(Device::LeftHand, t1, path(t1)));
      w.step();
      run.tick(w);
    }
  };
  drive_left(96);  // 0.4 s
  CHECK(w.grab(Hand::Left, at(path(w.state().time)), 0.05f) > 0);
  drive_left(240);
  const float limit = w.config().interaction.strain.max_strain;
  MESSAGE("palm onto the corner and lift: worst strain ", run.strain, ", clamps ", run.clamps);
  CHECK(run.ok);
  CHECK(run.strain <= limit + 0.01f);
  CHECK(run.clamps == 0);
}

TEST_CASE("a hand's colliders leave pinned, held and tracked vertices to their pin or elastic") {
  // A palm that ended over a kinematic vertex leaves it; a collider that follows no device pushes it out.
  // Pushed by a forearm, cube_drop.json's pinned border moved 5 cm (an edge between two pins at 627 %).
  Collider palm = make_hand_colliders(Hand::Right, HandColliderSizes{}, at({0.f, 1.f, 0.f}))[0];
  palm.previous_pose = Pose{glm::vec3(0.f, 1.1f, 0.f), palm.pose.orientation};  // came down 10 cm this tick
  const glm::vec3 start(0.01f, 1.f, 0.f);
  const float inv_mass = 1e4f;
  const uint8_t kinematic = 1;
  for (bool follows : {true, false}) {
    CAPTURE(follows);
    Collider c = palm;
    if (!follows) c.follows.reset();
    glm::vec3 x = start, v(0.f);
    CollisionStats stats;
    resolve_collisions(&c, 1, 0.004f, 1.f / 240.f, &inv_mass, &start, &x, &v, 1, stats, {.kinematic = &kinematic});
    CHECK((x == start) == follows);
  }
}

TEST_CASE("a cloth laid over a forearm stays on it tilted under atan(mu) and slides off it tilted past") {
  // Issue 37: "drape a cloth over your forearm". A 30 x 8 cm strip laid across a horizontal forearm settles
  // for 1 s; then the forearm turns about its centre, its elbow down, by `tilt` over 0.5 s and holds 1.5 s.
  // The strip's slide along the forearm's axis: under the friction angle atan(0.3) = 16.7 degrees it stays,
  // past it it slides.
  auto slide = [](float tilt_deg) {
    const HandColliderSizes sizes{.mu_static = 0.3f, .mu_kinetic = 0.3f};
    const float reach = sizes.wrist_offset + 0.5f * sizes.forearm_length;  // grip to the forearm's centre
    const glm::vec3 centre(0.f, 1.f, reach);
    Mesh mesh = make_irregular({.width = 0.3f, .height = 0.08f, .columns = 15, .rows = 4, .seed = 5});
    transform_mesh(mesh, glm::translate(glm::mat4(1.f), centre + glm::vec3(-0.15f, sizes.forearm_radius + 0.01f, -0.04f)) *
                             glm::rotate(glm::mat4(1.f), -glm::half_pi<float>(), glm::vec3(1, 0, 0)));
    World w(build_cloth_model(mesh, {}), {});
    const glm::quat level(1.f, 0.f, 0.f, 0.f);
    const glm::vec3 grip = centre - glm::vec3(0.f, 0.f, reach);
    for (const Collider& c : make_hand_colliders(Hand::Right, sizes, Pose{grip, level})) w.add_collider(c);
    auto pose_at = [&](double t) {
      const float a = glm::radians(tilt_deg) * float(std::clamp((t - 1.0) / 0.5, 0.0, 1.0));
      const glm::quat q = glm::angleAxis(a, glm::vec3(1, 0, 0));  // +z (the elbow) goes down
      return Pose{centre - q * glm::vec3(0.f, 0.f, reach), q};
    };
    auto mean = [&] {
      glm::vec3 m(0.f);
      for (const glm::vec3& x : w.state().position) m += x;
      return m / float(w.state().position.size());
    };
    Run run;
    float settled = 0.f;
    for (int k = 0; k < 3 * 240; ++k) {
      if (k == 240) settled = glm::dot(mean() - centre, glm::vec3(0, 0, 1));
      const double t1 = w.state().time + w.time_step();
      PoseSample s = sample(Device::RightHand, t1, pose_at(t1).position);
      s.pose.orientation = pose_at(t1).orientation;
      w.submit_pose(s);
      w.step();
      run.tick(w);
    }
    // how far the strip went along the forearm's axis toward the elbow since it settled
    const glm::vec3 axis = pose_at(10.0).orientation * glm::vec3(0, 0, 1);
    CHECK(run.ok);
    CHECK(run.clamps == 0);
    return glm::dot(mean() - centre, axis) - settled;
  };
  const float gentle = slide(8.f), steep = slide(35.f);
  MESSAGE("strip along the forearm after 1.5 s tilted: 8 degrees ", gentle, " m, 35 degrees ", steep, " m");
  CHECK(gentle < 0.03f);
  CHECK(steep > 0.1f);
}

TEST_CASE("a squeeze catches the cloth at the palm's surface: the catch radius is measured from there") {
  // The grip 9 cm in front of the hanging cloth's lower part, the palm along the fist's axis toward it (its cap
  // 2 cm from the cloth): a grab of radius 2 cm catches within max(2 x 2 cm, 5 cm) = 5 cm of the grip, which
  // the cloth is not, or within 5 cm of the palm's surface round the grip (its 4 cm radius, plus the
  // thickness), which it is. Unseen hands' colliders (parked) do not extend it.
  World w(hanging_irregular(), {});
  const glm::vec3 grip(0.f, 1.1f, 0.09f);
  for (const Collider& c : make_hand_colliders(Hand::Right, HandColliderSizes{}, at(grip))) w.add_collider(c);
  CHECK(w.grab(Hand::Right, at(grip), 0.02f) == 0);  // parked: measured from the grip, 9 cm: missed
  for (int k = 0; k < 3; ++k) {
    w.submit_pose(sample(Device::RightHand, w.state().time + w.time_step(), grip));
    w.step();
  }
  REQUIRE_FALSE(w.colliders()[0].parked);
  CHECK(w.grab(Hand::Right, at(grip), 0.02f) > 0);
}
