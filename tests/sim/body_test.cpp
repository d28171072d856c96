#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include <glm/gtc/matrix_transform.hpp>

#include "sim/body.h"
#include "sim/mesh_generators.h"
#include "sim/world.h"
#include "tests/sim/pose_samples.h"

using namespace weft;
using weft::test::at;
using weft::test::sample;

TEST_CASE("the mannequin preset: named sphere and capsule body parts, scaled by its height, placed on the floor") {
  const Body b = make_mannequin(at({1.f, 0.f, -2.f}), 1.75f);
  Body copy = b;
  for (const char* name : {"head", "neck", "chest", "shoulders", "waist", "hips", "left_upper_arm", "right_upper_arm",
                           "left_forearm", "right_forearm", "left_thigh", "right_thigh", "left_shin", "right_shin",
                           "left_foot", "right_foot"}) {
    CAPTURE(std::string(name));
    REQUIRE(copy.find(name) != nullptr);
    const Collider& c = copy.find(name)->collider;
    CHECK(c.body);
    CHECK_FALSE(c.follows.has_value());
    CHECK((c.shape == ColliderShape::Sphere || c.shape == ColliderShape::Capsule));
  }
  CHECK(copy.find("tail") == nullptr);
  // the top of the head at the height, the feet on the floor
  const Collider& head = copy.find("head")->collider;
  CHECK(head.pose.position.y + head.radius == doctest::Approx(1.73f).epsilon(0.02));
  CHECK(head.pose.position.x == doctest::Approx(1.f));
  const Collider& foot = copy.find("left_foot")->collider;
  CHECK(foot.pose.position.y - foot.radius == doctest::Approx(0.f).epsilon(0.001));
  // twice as tall: every length doubles
  Body tall = make_mannequin(at({0.f, 0.f, 0.f}), 3.5f);
  CHECK(tall.find("chest")->collider.radius == doctest::Approx(2.f * copy.find("chest")->collider.radius));
}

TEST_CASE("a cloth dropped on a mannequin's head and shoulders slides over them, no vertex deeper than 1 mm inside") {
  Mesh mesh = make_irregular({.width = 0.9f, .height = 0.9f, .columns = 24, .rows = 24, .seed = 3});
  // flat, centred 5 cm above the head: it lands on the head and the shoulders, tips and slides off the front
  transform_mesh(mesh, glm::translate(glm::mat4(1.f), glm::vec3(-0.45f, 1.78f, 0.45f)) *
                           glm::rotate(glm::mat4(1.f), -glm::half_pi<float>(), glm::vec3(1, 0, 0)));
  World w(build_cloth_model(mesh, {}), {});
  const Body body = make_mannequin(at({0.f, 0.f, 0.f}), 1.75f);
  for (const BodyPart& p : body.parts) w.add_collider(p.collider);
  float worst = 0.f;
  uint32_t touched = 0;
  for (int k = 0; k < 240; ++k) {
    w.step();
    worst = std::max(worst, w.step_report().body_penetration_m);
    touched += w.collision_stats().contacts;
  }
  CHECK(touched > 0);
  CHECK(worst <= 1e-3f);
  for (const glm::vec3& x : w.state().position) CHECK(std::isfinite(x.x + x.y + x.z));
  // a vertex placed inside the chest is measured
  Collider chest = body.parts[2].collider;
  const glm::vec3 inside = chest.pose.position;
  const float inv_mass = 1.f;
  CHECK(body_penetration(&chest, 1, &inv_mass, &inside, 1, nullptr) == doctest::Approx(chest.radius));
}

TEST_CASE("a body part driven by a tracker follows it by the elastic law, at its offset") {
  World w(build_cloth_model(make_grid({.width = 0.2f, .height = 0.2f, .columns = 4, .rows = 4}), {}), {});
  Body body = make_mannequin(at({0.f, 0.f, 0.f}), 1.75f);
  BodyPart& hips = *body.find("hips");
  const glm::vec3 start = hips.collider.pose.position;
  drive_part(hips, Device::Tracker0, at(start + glm::vec3(0.f, 0.f, -0.1f)));  // tracker 10 cm in front
  const size_t index = w.add_collider(hips.collider);
  const glm::vec3 moved(0.3f, 0.f, 0.f);
  for (int k = 0; k < 120; ++k) {
    w.submit_pose(sample(Device::Tracker0, w.state().time + w.time_step(), start + glm::vec3(0, 0, -0.1f) + moved));
    w.step();
  }
  CHECK(glm::distance(w.colliders()[index].pose.position, start + moved) < 1e-3f);
}

TEST_CASE("a mannequin's head follows the headset's pose (Device::Head), turning with it") {
  World w(build_cloth_model(make_grid({.width = 0.2f, .height = 0.2f, .columns = 4, .rows = 4}), {}), {});
  Body body = make_mannequin(at({0.f, 0.f, 0.f}), 1.75f);
  BodyPart& head = *body.find("head");
  const glm::vec3 eyes = head.collider.pose.position + glm::vec3(0.f, 0.f, -0.08f);  // the headset, in front
  drive_part(head, Device::Head, at(eyes));
  const size_t index = w.add_collider(head.collider);
  const glm::quat turn = glm::angleAxis(glm::half_pi<float>(), glm::vec3(0, 1, 0));  // looks to the side
  for (int k = 0; k < 120; ++k) {
    PoseSample s = sample(Device::Head, w.state().time + w.time_step(), eyes);
    s.pose.orientation = turn;
    w.submit_pose(s);
    w.step();
  }
  // the head's centre was 8 cm behind the headset; turned 90 degrees about y it is 8 cm to the headset's -x
  CHECK(glm::distance(w.colliders()[index].pose.position, eyes + turn * glm::vec3(0.f, 0.f, 0.08f)) < 1e-3f);
}
