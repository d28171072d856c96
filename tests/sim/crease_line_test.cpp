// Crease lines (sim/crease_line.h): mapped onto the weft/warp hinges whose edge lies on them; a creased
// cloth left alone folds to the crease angle.
#include <doctest/doctest.h>

#include <cmath>

#include "sim/cloth_model.h"
#include "sim/integrator.h"
#include "sim/mesh_generators.h"
#include "sim/weft_warp_kernels.h"

using namespace weft;

namespace {

constexpr float kSize = 0.1f;  // 10 cm square, 2.5 cm cells: the middle line x = 5 cm is a grid line

Material creasable() {
  Material m;
  m.stretch_model = StretchModel::WeftWarp;
  m.weave.weft = m.weave.warp = StressCurve::linear(1000.f);
  m.weave.shear = StressCurve::linear(200.f);
  m.weave.weft_bending = m.weave.warp_bending = 1e-4f;
  m.damping = 0.02f;
  m.gravity = glm::vec3(0.f);
  return m;
}

Mesh square() { return make_grid({.width = kSize, .height = kSize, .columns = 4, .rows = 4}); }

bool on_middle_line(const ClothModel& model, size_t hinge) {
  const auto& h = model.weft_warp.hinge[hinge];
  return std::fabs(model.material_coord[h[0]].x - 0.05f) < 1e-6f && std::fabs(model.material_coord[h[1]].x - 0.05f) < 1e-6f;
}

}  // namespace

TEST_CASE("crease lines: an edge lies on a segment when both its ends do, within the tolerance") {
  const CreaseLine c{.from = {0.05f, 0.f}, .to = {0.05f, 0.1f}, .rest_angle_deg = 90.f};
  CHECK(edge_on_crease(c, {0.05f, 0.f}, {0.05f, 0.025f}));
  CHECK(edge_on_crease(c, {0.0505f, 0.05f}, {0.0495f, 0.075f}));
  CHECK_FALSE(edge_on_crease(c, {0.05f, 0.f}, {0.075f, 0.025f}));  // a diagonal leaving the line
  CHECK_FALSE(edge_on_crease(c, {0.05f, 0.1f}, {0.05f, 0.125f}));  // past the segment's end
  CHECK(validate_crease_line(c).empty());
  CHECK_FALSE(validate_crease_line({.from = {0, 0}, .to = {0, 0}}).empty());
  CHECK_FALSE(validate_crease_line({.from = {0, 0}, .to = {1, 0}, .rest_angle_deg = 180.f}).empty());
  CHECK_FALSE(validate_crease_line({.from = {0, 0}, .to = {1, 0}, .stiffness_scale = -1.f}).empty());
}

TEST_CASE("crease lines: only the hinges on the line take its angle and stiffness scale") {
  const ClothModel plain = build_cloth_model(square(), creasable());
  const std::vector<CreaseLine> creases = {
      {.from = {0.05f, 0.f}, .to = {0.05f, kSize}, .rest_angle_deg = 90.f, .stiffness_scale = 3.f}};
  const ClothModel model = build_cloth_model(square(), creasable(), {}, creases);
  const WeftWarpModel& w = model.weft_warp;
  size_t on_line = 0;
  for (size_t e = 0; e < w.hinge_count(); ++e) {
    CAPTURE(e);
    if (on_middle_line(model, e)) {
      ++on_line;
      CHECK(w.hinge_rest_angle[e] == doctest::Approx(glm::radians(90.f)));
      CHECK(w.hinge_stiffness[e] == doctest::Approx(3.f * plain.weft_warp.hinge_stiffness[e]));
    } else {
      CHECK(w.hinge_rest_angle[e] == 0.f);
      CHECK(w.hinge_stiffness[e] == plain.weft_warp.hinge_stiffness[e]);
    }
  }
  CHECK(on_line == 4);  // the four interior edges of the 4-row middle line
  CHECK(crease_interior_edge_count(creases[0], square(), build_topology(square())) == 4);
  // unusable lines are errors
  CHECK_THROWS_AS(build_cloth_model(square(), creasable(), {}, {{.from = {0.2f, 0.f}, .to = {0.2f, 0.1f}}}), std::invalid_argument);
  Material springs;
  CHECK_THROWS_AS(build_cloth_model(square(), springs, {}, creases), std::invalid_argument);
}

TEST_CASE("crease lines: a creased square with gravity off folds to the crease angle") {
  const std::vector<CreaseLine> creases = {{.from = {0.05f, 0.f}, .to = {0.05f, kSize}, .rest_angle_deg = 90.f}};
  const ClothModel model = build_cloth_model(square(), creasable(), {}, creases);
  ClothState s = make_rest_state(model);
  auto integrator = make_integrator(IntegratorKind::Multigrid, model);
  for (int k = 0; k < 480; ++k) integrator->step(model, s, 1.f / 240.f);  // 2 s
  // the dihedral angle between the halves: from the crease's midpoint to the midpoints of the far edges
  glm::vec3 left(0.f), right(0.f), mid(0.f);
  float nl = 0, nr = 0, nm = 0;
  for (size_t i = 0; i < model.vertex_count(); ++i) {
    const float u = model.material_coord[i].x;
    if (u < 1e-6f) left += s.position[i], nl += 1;
    if (u > kSize - 1e-6f) right += s.position[i], nr += 1;
    if (std::fabs(u - 0.05f) < 1e-6f) mid += s.position[i], nm += 1;
  }
  const glm::vec3 a = glm::normalize(left / nl - mid / nm), b = glm::normalize(right / nr - mid / nm);
  const float opening = glm::degrees(std::acos(glm::clamp(glm::dot(a, b), -1.f, 1.f)));  // 180 flat
  const float fold = 180.f - opening;
  CHECK(fold == doctest::Approx(90.f).epsilon(0.03));
  // the halves rose toward the normal side (+z), and the crease's hinges sit at their rest angle
  CHECK(left.z / nl > mid.z / nm);
  CHECK(right.z / nr > mid.z / nm);
  for (size_t e = 0; e < model.weft_warp.hinge_count(); ++e) {
    const auto& h = model.weft_warp.hinge[e];
    const HingeAngle angle = hinge_angle({s.position[h[0]], s.position[h[1]], s.position[h[2]], s.position[h[3]]});
    REQUIRE(angle.valid);
    CAPTURE(e);
    if (on_middle_line(model, e)) CHECK(glm::degrees(angle.theta) == doctest::Approx(90.f).epsilon(0.03));
    else CHECK(std::fabs(glm::degrees(angle.theta)) < 3.f);
  }
  float speed = 0.f;
  for (const auto& v : s.velocity) speed = std::max(speed, glm::length(v));
  CHECK(speed < 1e-3f);
}
