#include <doctest/doctest.h>

#include "sim/intersection_count.h"
#include "sim/mesh_generators.h"
#include "sim/self_collision.h"

using namespace weft;

namespace {
// Two 2x2-cell sheets, the second `gap` above the first along z, moving down at `speed`.
struct TwoSheets {
  ClothModel model;
  ClothState state;
  uint32_t base = 0;
  TwoSheets(float gap, float speed, float shift = 0.f) {
    Mesh a = make_grid({.width = 0.1f, .height = 0.1f, .columns = 2, .rows = 2});
    const Mesh b = a;
    base = uint32_t(a.positions.size());
    for (auto p : b.positions) a.positions.push_back(p + glm::vec3(shift, shift, gap));
    a.material.insert(a.material.end(), b.material.begin(), b.material.end());
    for (auto t : b.triangles) a.triangles.push_back({t[0] + base, t[1] + base, t[2] + base});
    model = build_cloth_model(a, Material{});
    state = make_rest_state(model);
    for (size_t i = base; i < state.position.size(); ++i) state.velocity[i].z = -speed;
  }
  glm::vec3 momentum() const {
    glm::vec3 p(0.f);
    for (size_t i = 0; i < state.velocity.size(); ++i) p += model.mass[i] * state.velocity[i];
    return p;
  }
};
}  // namespace

TEST_CASE("self-collision: close sheets are pushed to the thickness, momentum conserved, inelastic") {
  TwoSheets s(0.003f, 1.f, 0.01f);
  const glm::vec3 p0 = s.momentum();
  const std::vector<glm::vec3> x0 = s.state.position;
  SelfCollision sc(s.model, {.thickness = 0.005f, .friction = 0.f});
  sc.resolve(s.model, s.state, 1.f / 240.f);
  CHECK(sc.stats().vertex_triangle > 0);
  CHECK(sc.stats().max_violation < 1e-4f);
  const glm::vec3 p1 = s.momentum();
  CHECK(glm::length(p1 - p0) < 1e-6f * glm::length(p0) + 1e-9f);
  // Perfectly inelastic: the features in contact no longer approach (up to the iteration tolerance).
  for (const SelfContact& c : sc.contacts()) {
    glm::vec3 vr(0.f);
    for (int k = 0; k < 4; ++k) vr += c.weight[k] * s.state.velocity[c.vertex[k]];
    CHECK(glm::dot(vr, c.normal) > -0.02f);
  }
  // Centre of mass did not move (mass-weighted position corrections).
  glm::vec3 c0(0.f), c1(0.f);
  for (size_t i = 0; i < s.state.position.size(); ++i) {
    c0 += s.model.mass[i] * x0[i];
    c1 += s.model.mass[i] * s.state.position[i];
  }
  CHECK(glm::length(c1 - c0) < 1e-7f);
}

TEST_CASE("self-collision: a sheet that crossed during the step is pulled back to its side") {
  // Start 2 mm above, end the step 3 mm below: the start-of-step side wins.
  TwoSheets s(0.002f, 0.f, 0.01f);
  SelfCollision sc(s.model, {.thickness = 0.004f, .friction = 0.f});
  sc.begin_step(s.state);
  // The upper sheet passed wholly through the lower one: no edge crosses, the order is wrong.
  for (size_t i = s.base; i < s.state.position.size(); ++i) s.state.position[i].z -= 0.005f;
  sc.resolve(s.model, s.state, 1.f / 240.f);
  CHECK(sc.stats().crossed > 0);
  CHECK(count_self_intersections(s.model, s.state.position).edge_triangle == 0);
  for (size_t i = s.base; i < s.state.position.size(); ++i) CHECK(s.state.position[i].z > 0.f);
}

TEST_CASE("self-collision: kinematic vertices do not move and friction slows sliding") {
  TwoSheets s(0.003f, 0.f, 0.01f);
  for (size_t i = 0; i < s.base; ++i) s.state.kinematic[i] = 1;
  for (size_t i = s.base; i < s.state.position.size(); ++i) s.state.velocity[i] = glm::vec3(0.5f, 0.f, -1.f);
  SelfCollision sc(s.model, {.thickness = 0.005f, .friction = 0.3f});
  const std::vector<glm::vec3> lower(s.state.position.begin(), s.state.position.begin() + s.base);
  sc.resolve(s.model, s.state, 1.f / 240.f);
  for (size_t i = 0; i < s.base; ++i) CHECK(s.state.position[i] == lower[i]);
  // Coulomb: the sheet's tangential momentum change stays within mu times its normal impulse, which
  // includes the position correction seen as a velocity (up to 2 mm / h here, so the margin).
  double dt = 0, dn = 0;
  for (size_t i = s.base; i < s.state.position.size(); ++i) {
    CHECK(s.state.position[i].z >= 0.005f - 1e-4f);
    CHECK(s.state.velocity[i].x < 0.5f);  // friction took some of the slide
    dt += s.model.mass[i] * (0.5f - s.state.velocity[i].x);
    dn += s.model.mass[i] * (s.state.velocity[i].z + 1.f);
  }
  MESSAGE("tangential / normal momentum change: " << dt / dn);
  CHECK(dt > 0.);
  CHECK(dt <= 0.3 * dn * 1.6);
}

TEST_CASE("self-collision: disabled does nothing and no allocation after warm-up") {
  TwoSheets s(0.003f, 1.f);
  SelfCollision sc(s.model, {.enabled = false});
  const auto before = s.state.position;
  sc.resolve(s.model, s.state, 1.f / 240.f);
  CHECK(s.state.position == before);
  sc.set_config({.thickness = 0.005f});
  sc.resolve(s.model, s.state, 1.f / 240.f);
  const auto* data = sc.contacts().data();
  const size_t capacity = sc.contacts().capacity();
  for (int k = 0; k < 5; ++k) sc.resolve(s.model, s.state, 1.f / 240.f);
  CHECK(sc.contacts().capacity() == capacity);
  CHECK(sc.contacts().data() == data);
}
