#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <new>
#include <stdexcept>
#include <string>

#include <glm/gtc/matrix_transform.hpp>

#include "sim/aligned_allocator.h"
#include "sim/intersection_count.h"
#include "sim/mesh_generators.h"
#include "sim/strain_limit.h"
#include "sim/world.h"
#include "tests/allocation_counter.h"
#include "tests/sim/pose_samples.h"

using namespace weft;
using weft::test::at;
using weft::test::sample;

namespace {
// 0.4 m cloth hanging in the z = 0 plane, top edge at y = 1.4.
ClothModel hanging(uint32_t n = 16) {
  Mesh mesh = make_grid({.width = 0.4f, .height = 0.4f, .columns = n, .rows = n});
  transform_mesh(mesh, glm::translate(glm::mat4(1.f), glm::vec3(0, 1, 0)));
  return build_cloth_model(mesh, {});
}
glm::vec3 momentum(const World& w) {
  glm::vec3 p(0.f);
  for (size_t i = 0; i < w.model().vertex_count(); ++i) p += w.model().mass[i] * w.state().velocity[i];
  return p;
}
}  // namespace

TEST_CASE("grab holds a patch that follows the hand and release throws the cloth with its velocity") {
  World w(hanging(), {});
  const glm::vec3 corner = w.state().position[16 * 17];
  CHECK(w.grab(Hand::Left, at(corner), 0.04f) > 3);
  CHECK(w.is_grabbing(Hand::Left));
  CHECK_FALSE(w.is_grabbing(Hand::Right));
  for (int k = 0; k < 120; ++k) {  // the hand moves along +z at 1 m/s
    const double t = w.state().time;
    w.submit_pose(sample(Device::LeftHand, t, corner + glm::vec3(0, 0, float(t))));
    w.step();
  }
  CHECK(w.state().position[16 * 17].z == doctest::Approx(0.5f).epsilon(0.02));
  CHECK(w.state().kinematic[16 * 17] == 1);
  std::vector<uint8_t> mask(w.model().vertex_count());
  w.grasp_mask(mask.data());
  CHECK(mask[16 * 17] == 1);
  CHECK(mask[0] == 0);
  w.release(Hand::Left);
  CHECK_FALSE(w.is_grabbing(Hand::Left));
  const float vz = w.state().velocity[16 * 17].z;
  CHECK(vz == doctest::Approx(1.f).epsilon(0.05));
  w.step();
  CHECK(w.state().kinematic[16 * 17] == 0);
  CHECK(w.state().velocity[16 * 17].z > 0.5f);  // thrown, not stopped
}

TEST_CASE("a tracker attachment drives its vertices and detaching frees them") {
  World w(hanging(), {});
  const uint32_t v = 16 * 17 + 8;
  const glm::vec3 x0 = w.state().position[v];
  Pose tracker = at(x0 + glm::vec3(0, 0.1f, 0));
  tracker.orientation = glm::angleAxis(0.5f, glm::vec3(0, 1, 0));
  CHECK(w.attach(Device::Tracker0, {v, 9999}, tracker) == 1);  // out-of-range indices are skipped
  // 90 Hz tracker stream moving up at 0.5 m/s
  for (int k = 0; k < 60; ++k) w.submit_pose(sample(Device::Tracker0, k / 90.0, tracker.position + glm::vec3(0, 0.5f * k / 90.f, 0)));
  while (w.state().time < 0.5) w.step();
  // the rotation of the stream is identity: the vertex sits at the offset taken in the rotated frame
  const glm::vec3 offset = glm::conjugate(tracker.orientation) * (x0 - tracker.position);
  const glm::vec3 expected = tracker.position + glm::vec3(0, 0.25f, 0) + offset;
  CHECK(glm::length(w.state().position[v] - expected) < 0.01f);
  w.detach(Device::Tracker0);
  w.step();
  CHECK(w.state().kinematic[v] == 0);
  // a tracker clipped on near a point takes a patch there, like a grasp
  Pose clip = at(w.state().position[v]);
  CHECK(w.attach_near(Device::Tracker1, clip, 0.03f) > 1);
  CHECK(w.held_vertices(Device::Tracker1).size() > 1);
  clip.position.x = std::nanf("");
  CHECK(w.attach_near(Device::Tracker2, clip, 0.03f) == 0);
}

TEST_CASE("seams pull the borders of two panels together (Volino 1997 Fig. 5f-g)") {
  // two 0.2 m panels side by side with a 5 cm gap, no gravity; the facing borders are seamed
  Mesh a = make_grid({.width = 0.2f, .height = 0.2f, .columns = 8, .rows = 8});
  Mesh b = a;
  for (auto& p : b.positions) p.x += 0.25f;
  const uint32_t na = uint32_t(a.positions.size());
  a.positions.insert(a.positions.end(), b.positions.begin(), b.positions.end());
  a.material.insert(a.material.end(), b.material.begin(), b.material.end());
  for (auto t : b.triangles) a.triangles.push_back({t[0] + na, t[1] + na, t[2] + na});
  Material m;
  m.gravity = glm::vec3(0.f);
  World w(build_cloth_model(a, m), {});
  for (uint32_t r = 0; r <= 8; ++r) w.add_seam(r * 9 + 8, na + r * 9);
  auto gap = [&] {
    float g = 0.f;
    for (uint32_t r = 0; r <= 8; ++r) g = std::max(g, glm::length(w.state().position[r * 9 + 8] - w.state().position[na + r * 9]));
    return g;
  };
  CHECK(gap() == doctest::Approx(0.05f));
  for (int k = 0; k < 240; ++k) w.step();
  CHECK(gap() < 0.002f);
  // seams only exchange momentum inside each pair: the mean velocity stays ~0 (< 1 mm/s; the solver's
  // Jacobi iterations are not exactly momentum-conserving)
  CHECK(glm::length(momentum(w)) < 1e-3f * w.model().total_mass());
}

TEST_CASE("a rigid cube drops onto a cloth held by its edges, bumps and stays on it (Volino 1997 Fig. 5b)") {
  Mesh mesh = make_grid({.width = 0.6f, .height = 0.6f, .columns = 20, .rows = 20});
  transform_mesh(mesh, glm::translate(glm::mat4(1.f), glm::vec3(-0.3f, 0.5f, 0.3f)) *
                           glm::rotate(glm::mat4(1.f), -float(M_PI / 2), glm::vec3(1, 0, 0)));
  std::vector<uint32_t> edge;
  for (uint32_t k = 0; k <= 20; ++k) edge.insert(edge.end(), {k, 20 * 21 + k, k * 21, k * 21 + 20});
  WorldConfig config;
  config.integrator = IntegratorKind::ConjugateGradient;
  World w(build_cloth_model(mesh, {}, edge), config);
  RigidBox cube;
  cube.half_extents = glm::vec3(0.1f);  // 20 cm, 200 g: bigger than the cloth's 3 cm triangles
  cube.mass = 0.2f;
  cube.pose.position = {0.05f, 0.8f, 0.f};
  w.add_rigid_box(cube);
  float lowest = 1.f, peak_contacts = 0;
  bool bumped = false;
  for (int k = 0; k < 480; ++k) {
    w.step();
    const RigidBox& b = w.rigid_boxes()[0];
    lowest = std::min(lowest, b.pose.position.y);
    peak_contacts = std::max(peak_contacts, float(w.collision_stats().contacts));
    bumped = bumped || (b.linear_velocity.y > 0.05f);
  }
  const RigidBox& b = w.rigid_boxes()[0];
  CHECK(peak_contacts > 0);
  CHECK(bumped);                                  // it bounced on the elastic cloth
  CHECK(b.pose.position.y > 0.55f);               // resting on the cloth (bottom face at y - 0.1), not through it
  CHECK(b.pose.position.y < 0.6f - 0.004f);       // and the cloth sags under it
  CHECK(glm::length(b.linear_velocity) < 0.2f);   // settled
  CHECK(std::isfinite(glm::length(momentum(w))));
  // the limiter has the last word when the box-limiter alternation runs out (issue 16, item 6)
  const float strain = max_edge_strain(w.model(), w.state().position.data());
  MESSAGE("max edge strain under the cube " << strain);
  CHECK(strain <= 0.101f);
}

TEST_CASE("the same inputs give the same state hash and reset returns to the rest state") {
  auto run = [](World& w) {
    const glm::vec3 c = w.state().position[16 * 17];
    w.grab(Hand::Right, at(c), 0.03f);
    for (int k = 0; k < 100; ++k) {
      w.submit_pose(sample(Device::RightHand, w.state().time, c + glm::vec3(0.3f * float(w.state().time), 0, 0)));
      w.step();
    }
    return w.state_hash();
  };
  World a(hanging(), {}), b(hanging(), {});
  a.add_collider(Collider{});
  b.add_collider(Collider{});
  const uint64_t rest = a.state_hash();
  const uint64_t ha = run(a);
  CHECK(ha == run(b));
  CHECK(ha != rest);
  a.reset();
  CHECK(a.state_hash() == rest);
  CHECK_FALSE(a.is_grabbing(Hand::Right));
  CHECK(run(a) == ha);  // pose tracks were cleared too
}

TEST_CASE("the allocation counter sees every operator new form, the aligned ones of the SIMD buffers too") {
  const uint64_t before = test::allocation_count();
  AlignedFloats simd(64);  // operator new(size_t, align_val_t), sim/aligned_allocator.h
  void* forms[] = {::operator new(8), ::operator new[](8), ::operator new(8, std::nothrow),
                   ::operator new[](8, std::nothrow), ::operator new(8, std::align_val_t(64)),
                   ::operator new[](8, std::align_val_t(64)), ::operator new(8, std::align_val_t(64), std::nothrow),
                   ::operator new[](8, std::align_val_t(64), std::nothrow)};
  CHECK(test::allocation_count() - before == 9);
  CHECK(reinterpret_cast<uintptr_t>(simd.data()) % 32 == 0);
  for (int k = 4; k < 8; ++k) CHECK(reinterpret_cast<uintptr_t>(forms[k]) % 64 == 0);
  ::operator delete(forms[0]);
  ::operator delete[](forms[1]);
  ::operator delete(forms[2], std::nothrow);
  ::operator delete[](forms[3], std::nothrow);
  ::operator delete(forms[4], std::align_val_t(64));
  ::operator delete[](forms[5], std::align_val_t(64));
  ::operator delete(forms[6], std::align_val_t(64), std::nothrow);
  ::operator delete[](forms[7], std::align_val_t(64), std::nothrow);
}

TEST_CASE("the per-tick path and grab and release do not allocate") {
  World w(hanging(), {});
  w.add_collider(Collider{});
  Collider hand;
  hand.shape = ColliderShape::Capsule;
  hand.pose.position = {0.2f, 1.2f, 0.05f};
  hand.linear_velocity = {0, 0, -0.1f};
  w.add_collider(hand);
  w.add_rigid_box(RigidBox{});
  w.add_pin(0, w.state().position[0]);
  w.add_seam(5, 20);
  const glm::vec3 c = w.state().position[16 * 17];
  w.grab(Hand::Left, at(c), 0.05f);
  w.grab(Hand::Right, at(c + glm::vec3(0.02f, 0, 0)), 0.05f);
  for (int k = 0; k < 5; ++k) w.step();  // warm-up
  const uint64_t before = test::allocation_count();
  for (int k = 0; k < 50; ++k) {
    w.submit_pose(sample(Device::LeftHand, w.state().time, c));
    if (k % 10 == 5) {  // grabs and releases are applied on the sim thread too
      w.release(Hand::Right);
      w.grab(Hand::Right, at(c + glm::vec3(0.02f, 0, 0)), 0.05f);
      w.attach_near(Device::Tracker0, at(c - glm::vec3(0.05f, 0, 0)), 0.03f);
    }
    w.step();
  }
  CHECK(test::allocation_count() - before == 0);
}

namespace {
// Two 0.2 m sheets, 8 x 8 cells, in one model: the lower one resting on the floor at the collider
// thickness, the upper one 1 cm above it (shifted by a third of a cell) and thrown down at 1 m/s.
World stacked_on_floor(bool self_collision) {
  auto sheet = [](float y, float shift) {
    Mesh m = make_grid({.width = 0.2f, .height = 0.2f, .columns = 8, .rows = 8});
    transform_mesh(m, glm::translate(glm::mat4(1.f), glm::vec3(shift, y, shift)) *
                          glm::rotate(glm::mat4(1.f), -glm::half_pi<float>(), glm::vec3(1, 0, 0)));
    return m;
  };
  Mesh mesh = sheet(0.004f, 0.f);
  const Mesh upper = sheet(0.014f, 0.025f / 3.f);
  const uint32_t base = uint32_t(mesh.positions.size());
  mesh.positions.insert(mesh.positions.end(), upper.positions.begin(), upper.positions.end());
  mesh.material.insert(mesh.material.end(), upper.material.begin(), upper.material.end());
  for (auto t : upper.triangles) mesh.triangles.push_back({t[0] + base, t[1] + base, t[2] + base});
  WorldConfig config;
  config.integrator = IntegratorKind::ConjugateGradient;
  config.solver = SolverOptions{};
  config.self_collision = {.enabled = self_collision, .thickness = 0.004f};
  World w(build_cloth_model(mesh, {}), config);
  w.add_collider(Collider{});
  w.add_velocity(glm::vec3(0.f, -1.f, 0.f), base);  // the upper sheet thrown down
  return w;
}
// Smallest height of the upper sheet above the lower one (both stay nearly flat).
float layer_gap(const World& w) {
  const size_t half = w.model().vertex_count() / 2;
  float lower = -1e9f, upper = 1e9f;
  for (size_t i = 0; i < half; ++i) lower = std::max(lower, w.state().position[i].y);
  for (size_t i = half; i < 2 * half; ++i) upper = std::min(upper, w.state().position[i].y);
  return upper - lower;
}
}  // namespace

TEST_CASE("self-collision in the tick: a sheet thrown onto another on the floor stays on top, without allocating") {
  World off = stacked_on_floor(false);
  CHECK(off.self_collision() == nullptr);
  for (int k = 0; k < 72; ++k) off.step();
  CHECK(layer_gap(off) < 0.001f);  // without it the sheets merge into one layer

  World w = stacked_on_floor(true);
  REQUIRE(w.self_collision() != nullptr);
  for (int k = 0; k < 24; ++k) w.step();  // warm-up: the sheets meet
  const uint64_t before = test::allocation_count();
  uint64_t contacts = 0;
  for (int k = 0; k < 48; ++k) {
    w.step();
    contacts += w.self_collision()->stats().vertex_triangle + w.self_collision()->stats().edge_edge;
  }
  CHECK(test::allocation_count() - before == 0);
  CHECK(contacts > 0);
  CHECK(layer_gap(w) > 0.5f * 0.004f);
  for (const glm::vec3& x : w.state().position) CHECK(x.y >= 0.004f - 1e-4f);  // nothing pushed into the floor
  CHECK(w.last_timing().self_collision_ms > 0);

  // The model is fixed once the world runs.
  CHECK_THROWS_AS(w.set_self_collision({.enabled = false}), std::logic_error);
  CHECK_THROWS_AS(w.add_collider(Collider{}), std::logic_error);
}

namespace {
// Largest structural-edge strain while a capsule hand pushes 12 cm into a 0.6 m cloth hanging from its top
// corners (the `weft stress` hand sweep, without the tracking), for a given number of contact passes.
struct PushResult {
  float worst_strain = 0.f;  // largest structural-edge strain over the push
  float deepest = 1e9f;      // smallest distance of a vertex to the capsule's surface over the push (m)
};
PushResult push_into_hanging_cloth(int contact_passes, float contact_settle) {
  Mesh mesh = make_grid({.width = 0.6f, .height = 0.6f, .columns = 20, .rows = 20});
  transform_mesh(mesh, glm::translate(glm::mat4(1.f), glm::vec3(-0.3f, 0.4f, 0.f)));
  WorldConfig config;
  config.integrator = IntegratorKind::ConjugateGradient;
  config.interaction.strain.contact_passes = contact_passes;
  config.interaction.strain.contact_settle = contact_settle;
  World w(build_cloth_model(mesh, {}, {20 * 21, 20 * 21 + 20}), config);
  Collider hand;
  hand.shape = ColliderShape::Capsule;
  hand.radius = 0.04f;
  hand.half_length = 0.06f;
  hand.pose.position = {0.f, 0.7f, -0.06f};
  hand.linear_velocity = {0.f, 0.f, 0.5f};
  w.add_collider(hand);
  PushResult r;
  for (int k = 0; k < 96; ++k) {  // 0.4 s: the capsule ends 14 cm past the cloth's plane
    w.step();
    r.worst_strain = std::max(r.worst_strain, max_edge_strain(w.model(), w.state().position.data()));
    for (const glm::vec3& p : w.state().position) {
      glm::vec3 n;
      r.deepest = std::min(r.deepest, collider_distance(w.colliders()[0], p, n));
    }
  }
  return r;
}
float strain_under_pushing_hand(int contact_passes) {
  return push_into_hanging_cloth(contact_passes, StrainLimitParams{}.contact_settle).worst_strain;
}
}  // namespace

TEST_CASE("a hand pushing into hanging cloth: the contact passes keep the strain at the limit") {
  const float limit = StrainLimitParams{}.max_strain;
  const float one_pass = strain_under_pushing_hand(0);
  const float default_passes = strain_under_pushing_hand(StrainLimitParams{}.contact_passes);
  MESSAGE("max strain: collide once " << one_pass << ", with contact passes " << default_passes);
  // Without the alternation the push-out after the limiter stretched the contact's edges by > 3 %; since
  // the limiter has the last word when the alternation does not converge (issue 16), both end at the limit.
  CHECK(one_pass < limit + 0.01f);
  CHECK(default_passes < limit + 0.01f);
}

TEST_CASE("a hand pushing into hanging cloth: the contact passes stop once settled, within a share of the thickness") {
  const StrainLimitParams defaults;
  const float thickness = InteractionConfig{}.thickness;
  const PushResult settled = push_into_hanging_cloth(defaults.contact_passes, defaults.contact_settle);
  const PushResult exact = push_into_hanging_cloth(defaults.contact_passes, 0.f);
  MESSAGE("deepest vertex: settled " << settled.deepest << " m, exact " << exact.deepest << " m; thickness " << thickness);
  // Stopping early leaves the colliders' push-out short by at most the settle share of the thickness
  // (measured 0.05 mm short; settling at 5 % of a metre instead of the thickness left it 0.25 mm short),
  // and the strain at the limit.
  CHECK(settled.deepest > (1.f - defaults.contact_settle) * thickness);
  CHECK(settled.deepest > 0.f);
  CHECK(settled.worst_strain < defaults.max_strain + 0.01f);
  CHECK(std::abs(settled.worst_strain - exact.worst_strain) < 0.005f);
}

TEST_CASE("a collider that follows a device moves to its tracked pose by the elastic law, not in one tick") {
  World w(hanging(4), {});
  Collider hand;
  hand.shape = ColliderShape::Sphere;
  hand.radius = 0.05f;
  hand.pose = at({0, 0.5f, 0.5f});  // far from the cloth
  hand.follows = Device::RightHand;
  Collider still = hand;
  still.follows.reset();
  const size_t ih = w.add_collider(hand), is = w.add_collider(still);
  // Untracked: the collider stays where it is.
  w.step();
  CHECK(w.colliders()[ih].pose.position == glm::vec3(0, 0.5f, 0.5f));
  // The device appears 0.3 m away along +x: one tick moves by at most max_speed h, then it converges.
  const glm::vec3 target(0.3f, 0.5f, 0.5f);
  const float h = float(w.time_step());
  w.submit_pose(sample(Device::RightHand, w.state().time, target));
  w.step();
  const float first = w.colliders()[ih].pose.position.x;
  CHECK(first > 0.f);
  CHECK(first <= w.config().interaction.elastic.max_speed * h + 1e-5f);
  for (int k = 0; k < 90; ++k) {
    w.submit_pose(sample(Device::RightHand, w.state().time, target));
    w.step();
  }
  CHECK(w.colliders()[ih].pose.position.x == doctest::Approx(0.3f).epsilon(0.01));
  CHECK(w.colliders()[is].pose.position == glm::vec3(0, 0.5f, 0.5f));  // the other collider did not move
  // Reset brings it back with the rest of the rigid world.
  w.reset();
  CHECK(w.colliders()[ih].pose.position == glm::vec3(0, 0.5f, 0.5f));
}

TEST_CASE("self-collision in the tick: a mesh loaded folded over through itself is reported at load and runs finite") {
  // sim/mesh_generators.h: the upper half's troughs cross the lower half; with a small wave they do not.
  Mesh tangled = make_folded_over({.grid = {.width = 0.4f, .height = 0.4f, .columns = 12, .rows = 12}});
  Mesh clean = make_folded_over({.grid = {.width = 0.4f, .height = 0.4f, .columns = 12, .rows = 12}, .amplitude = 0.002f});
  WorldConfig config;
  config.integrator = IntegratorKind::ConjugateGradient;
  config.self_collision = {.enabled = true, .thickness = 0.004f};
  World c(build_cloth_model(clean, Material{}), config);
  CHECK(c.self_collision()->tangled_at_scan() == 0);
  World w(build_cloth_model(tangled, Material{}), config);
  const uint64_t at_load = w.self_collision()->tangled_at_scan();
  CHECK(at_load > 0);
  CHECK(at_load == count_self_intersections(w.model(), w.state().position).triangle_pairs);
  for (int k = 0; k < 24; ++k) w.step();
  CHECK(w.self_collision()->stats().intersecting_pairs > 0);  // left out, counted per tick
  CHECK(w.self_collision()->tangle_scans() == 1);
  for (const glm::vec3& x : w.state().position) CHECK(std::isfinite(x.x + x.y + x.z));
  w.reset();  // the state jumped: scanned again at the next step
  w.step();
  CHECK(w.self_collision()->tangle_scans() == 2);
  CHECK(w.self_collision()->tangled_at_scan() == at_load);
}

TEST_CASE("a grab takes the real hand pose: a 1 km first sample does not drag the cloth") {
  // The track's first sample is 1 km off; the real ones follow. The kinematic safety layer clamped the
  // spike to the stage and walks back from there at 8 m/s; a grab a few ticks later must start from the
  // hand, not from that follower.
  Mesh mesh = make_irregular({.width = 0.4f, .height = 0.4f, .columns = 12, .rows = 12, .seed = 2});
  for (auto& p : mesh.positions) p = glm::vec3(p.x, 1.f, p.y);
  WorldConfig config;
  config.failsafe.enabled = false;
  World w(build_cloth_model(mesh, {}, {0}), config);
  const double h = w.time_step();
  glm::vec3 hand = w.state().position[0];
  for (uint32_t i = 0; i < w.model().vertex_count(); ++i)
    if (w.state().position[i].x + w.state().position[i].z > hand.x + hand.z) hand = w.state().position[i];  // far corner
  w.submit_pose(sample(Device::LeftHand, 0.0, hand + glm::vec3(1000.f, 0, 0)));
  double t = h;
  for (int k = 0; k < 5; ++k, t += h) {
    w.submit_pose(sample(Device::LeftHand, t, hand));
    w.step();
  }
  REQUIRE(w.grab(Hand::Left, at(hand), 0.04f) > 0);
  const ElasticSet held = w.held_vertices(Device::LeftHand);
  std::vector<glm::vec3> start;
  for (uint32_t i : held.vertex) start.push_back(w.state().position[i]);
  float drift = 0.f, strain = 0.f;
  for (int k = 0; k < 120; ++k, t += h) {  // the hand holds still for 0.5 s
    w.submit_pose(sample(Device::LeftHand, t, hand));
    w.step();
    for (size_t j = 0; j < held.size(); ++j)
      if (held.weight[j] >= 1.f) drift = std::max(drift, glm::length(w.state().position[held.vertex[j]] - start[j]));
    strain = std::max(strain, max_edge_strain(w.model(), w.state().position.data()));
  }
  MESSAGE("held vertices' drift " << drift << " m, max strain " << strain);
  CHECK(drift < 0.01f);
  CHECK(strain <= 0.11f);
}

TEST_CASE("World::sew seams two border runs of different lengths during a session, and they stay sewn") {
  // two 0.2 m panels 5 cm apart, no gravity: a's right edge (9 vertices) to b's left edge (5)
  Mesh a = make_grid({.width = 0.2f, .height = 0.2f, .columns = 8, .rows = 8});
  Mesh b = make_irregular({.width = 0.2f, .height = 0.2f, .columns = 6, .rows = 4, .seed = 3});
  const uint32_t na = uint32_t(a.positions.size());
  for (auto p : b.positions) a.positions.push_back(p + glm::vec3(0.25f, 0, 0));
  a.material.insert(a.material.end(), b.material.begin(), b.material.end());
  for (auto t : b.triangles) a.triangles.push_back({t[0] + na, t[1] + na, t[2] + na});
  Material m;
  m.gravity = glm::vec3(0.f);
  World w(build_cloth_model(a, m), {});
  for (int k = 0; k < 10; ++k) w.step();  // running: the model is fixed, sew still works
  const SewReport r = w.sew({0.2f, 0, 0}, {0.2f, 0.2f, 0}, {0.25f, 0, 0}, {0.25f, 0.2f, 0});
  CHECK(r.refused == nullptr);
  CHECK(r.pairs == 9 + 3);
  CHECK(w.seams().size() == r.pairs);
  // the sew is the edit; the ticks after it, open seams driven or sewn ones projected, allocate nothing
  const uint64_t before = test::allocation_count();
  for (int k = 0; k < 480; ++k) w.step();
  CHECK(test::allocation_count() - before == 0);
  CHECK(w.step_report().seams.gap_max < 0.001f);
  CHECK(w.step_report().seams.sewn == r.pairs);
  // Open seams drive their vertices (Volino's (B)), which the cloth's pull does not slow: the sewn pair of
  // unlike panels drifts, but slowly (measured 8.5 cm/s mean after closing 5 cm; docs/decisions/seams_as_velocity_corrections.md)
  CHECK(glm::length(momentum(w)) < 0.1f * w.model().total_mass());
  for (const glm::vec3& v : w.state().velocity) CHECK(std::isfinite(v.x + v.y + v.z));
  // refused and counted: ends on different borders, a NaN point, a run of one vertex
  const glm::vec3 a_corner = w.state().position[0], b_corner = w.state().position.back();
  CHECK(std::string(w.sew(a_corner, b_corner, b_corner, a_corner).refused).find("different borders") != std::string::npos);
  CHECK(w.sew({NAN, 0, 0}, {0.2f, 0.2f, 0}, {0.25f, 0, 0}, {0.25f, 0.2f, 0}).refused != nullptr);
  CHECK(w.sew({0.2f, 0, 0}, {0.2f, 0.001f, 0}, {0.25f, 0, 0}, {0.25f, 0.2f, 0}).refused != nullptr);
  CHECK(w.refused_sew_count() == 3);
  // a reset drops the session's seams
  w.reset();
  CHECK(w.seams().size() == 0);
}

TEST_CASE("World::sew of borders of very different lengths (2.5 cm to 20 cm): the long run is clipped, counted, and sews") {
  Mesh a = make_grid({.width = 0.2f, .height = 0.2f, .columns = 8, .rows = 8});
  const uint32_t na = uint32_t(a.positions.size());
  Mesh b = make_grid({.width = 0.2f, .height = 0.2f, .columns = 8, .rows = 8});
  for (auto p : b.positions) a.positions.push_back(p + glm::vec3(0.25f, 0, 0));
  a.material.insert(a.material.end(), b.material.begin(), b.material.end());
  for (auto t : b.triangles) a.triangles.push_back({t[0] + na, t[1] + na, t[2] + na});
  World w(build_cloth_model(a, Material{}), {});
  // a's right edge, bottom to top (9 vertices) onto one edge of b's left border (2 vertices)
  const SewReport r = w.sew({0.2f, 0, 0}, {0.2f, 0.2f, 0}, {0.25f, 0, 0}, {0.25f, 0.025f, 0});
  REQUIRE(r.refused == nullptr);
  // The long run is clipped to kMaxSeamGather x 2.5 cm: its first edge (2 vertices), 17.5 cm cut off. Sewn
  // whole, its 9 vertices bunched against its own stiffness and stayed 6 cm open at 2 s.
  CHECK(r.pairs == 2);
  CHECK(r.clipped_m == doctest::Approx(0.175f).epsilon(1e-3));
  CHECK(w.clipped_sew_count() == 1);
  for (int k = 0; k < 480; ++k) w.step();
  for (size_t i = 0; i < w.state().position.size(); ++i) {
    CHECK(std::isfinite(glm::length(w.state().position[i])));
    CHECK(std::isfinite(glm::length(w.state().velocity[i])));
  }
  MESSAGE("gap after 2 s " << w.step_report().seams.gap_max << " m, sewn " << w.step_report().seams.sewn << "/"
                           << w.step_report().seams.pairs);
  CHECK(w.step_report().seams.gap_max < 0.002f);
  CHECK(w.step_report().seams.sewn == r.pairs);
}

namespace {

// The integrator World makes, claiming stage 6 or not (the GPU step claims it: it runs the update in its own
// submit, gpu/shaders/plasticity.comp).
class ClaimsPlasticity final : public weft::Integrator {
 public:
  ClaimsPlasticity(std::unique_ptr<weft::Integrator> inner, bool claim) : inner_(std::move(inner)), claim_(claim) {}
  void step(const weft::ClothModel& m, weft::ClothState& s, float h) override { inner_->step(m, s, h); }
  const char* name() const override { return "claims-plasticity"; }
  bool runs(weft::PostSolveStage stage) const override { return claim_ && stage == weft::PostSolveStage::Plasticity; }

 private:
  std::unique_ptr<weft::Integrator> inner_;
  bool claim_;
};

}  // namespace

TEST_CASE("World::step leaves stage 6 (plasticity) to an integrator that runs it, and runs it otherwise") {
  using namespace weft;
  Material m;
  m.stretch_model = StretchModel::WeftWarp;
  m.weave.weft = StressCurve::linear(300.f);
  m.weave.warp = StressCurve::linear(300.f);
  m.weave.shear = StressCurve::linear(50.f);
  m.weave.plasticity = {.enabled = true, .yield_curvature = 0.1f, .in_plane = true, .yield_strain = 1e-4f,
                        .shear_yield_strain = 1e-4f};
  const ClothModel model = build_cloth_model(make_grid({.width = 0.2f, .height = 0.2f, .columns = 6, .rows = 6}), m,
                                             {42, 48});  // the top corners: it sags and stretches under gravity
  for (bool claim : {false, true}) {
    CAPTURE(claim);
    WorldConfig config;
    config.make_custom_integrator = [claim](const ClothModel& cm, const SolverOptions& o) {
      return std::make_unique<ClaimsPlasticity>(make_integrator(IntegratorKind::Multigrid, cm, o), claim);
    };
    World w(model, config);
    for (int k = 0; k < 24; ++k) w.step();
    float set = 0, bent = 0;
    for (const auto& e : w.state().plastic_strain) set = std::max({set, std::fabs(e[0]), std::fabs(e[1]), std::fabs(e[2])});
    for (size_t e = 0; e < w.state().hinge_rest_angle.size(); ++e)
      bent = std::max(bent, std::fabs(w.state().hinge_rest_angle[e] - model.weft_warp.hinge_rest_angle[e]));
    REQUIRE(w.state().plastic_strain.size() == model.triangle_count());
    if (claim) {
      CHECK(set == 0.f);
      CHECK(bent == 0.f);
    } else {
      CHECK(set > 1e-4f);
      CHECK(bent > 0.f);
    }
  }
}
