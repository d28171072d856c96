#include <doctest/doctest.h>

#include <random>

#include "sim/force_field.h"
#include "sim/force_kernels.h"
#include "sim/mesh_generators.h"

using namespace weft;

namespace {

// Random deformed state of a model: stretched and compressed links, moving vertices.
void deform(const ClothModel& model, std::vector<glm::vec3>& x, std::vector<glm::vec3>& v, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> U(-1.f, 1.f);
  x = model.rest_position;
  v.assign(model.vertex_count(), glm::vec3(0.f));
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = 1.2f * x[i] + 0.01f * glm::vec3(U(rng), U(rng), U(rng));
    v[i] = glm::vec3(U(rng), U(rng), U(rng));
  }
}

// The link pass written out link by link with force_kernels.h: what the vectorised passes must add up to.
void reference_forces(const ClothModel& model, const std::vector<glm::vec3>& x, const std::vector<glm::vec3>& v,
                      const std::vector<float>& tension, float h, std::vector<glm::vec3>& f, std::vector<Sym3>& js,
                      std::vector<Sym3>& link_j) {
  const Material& m = model.material;
  f.assign(model.vertex_count(), glm::vec3(0.f));
  js.assign(model.vertex_count(), Sym3{});
  link_j.assign(model.link_count_total(), Sym3{});
  for (size_t i = 0; i < model.vertex_count(); ++i) f[i] = model.mass[i] * m.gravity;
  const bool volino = m.stretch_model == StretchModel::Volino;
  for (size_t l = 0; l < model.link_count_total(); ++l) {
    const uint32_t i = model.link_first[l], j = model.link_second[l];
    const glm::vec3 d = x[j] - x[i];
    const float len = glm::length(d);
    const glm::vec3 u = d / len;
    const float t = volino && l < model.edge_count ? tension[l] : model.stiffness[l] * (len - model.rest_length[l]);
    const Sym3 J = link_jacobian(model.stiffness[l], t, u, len);
    const glm::vec3 fl = t * u + m.damping * (v[j] - v[i]) + h * (J * (v[j] - v[i]));
    f[i] += fl;
    f[j] -= fl;
    js[i] += J;
    js[j] += J;
    link_j[l] = J;
  }
}

void check_close(const glm::vec3& a, const glm::vec3& b, float scale) {
  for (int k = 0; k < 3; ++k) CHECK(a[k] == doctest::Approx(b[k]).epsilon(1e-5).scale(scale));
}

void check_close(const Sym3& a, const Sym3& b, float scale) {
  const float av[6] = {a.xx, a.xy, a.xz, a.yy, a.yz, a.zz}, bv[6] = {b.xx, b.xy, b.xz, b.yy, b.yz, b.zz};
  for (int k = 0; k < 6; ++k) CHECK(av[k] == doctest::Approx(bv[k]).epsilon(1e-5).scale(scale));
}

void compare_with_reference(const Material& material) {
  // Irregular mesh with a link count that is not a multiple of 8, so the SIMD pass and its scalar tail both run.
  const Mesh mesh = make_irregular({.width = 0.5f, .height = 0.4f, .columns = 9, .rows = 7, .seed = 5});
  const ClothModel model = build_cloth_model(mesh, material);
  REQUIRE(model.link_count_total() % 8 != 0);
  std::vector<glm::vec3> x, v;
  deform(model, x, v, 11);
  ForceBuffers out(model);
  const float h = 1.f / 120.f;
  evaluate_forces(model, x.data(), v.data(), out, {.jacobian = true, .viscosity_h = h});
  std::vector<glm::vec3> f;
  std::vector<Sym3> js, link_j;
  reference_forces(model, x, v, out.tension, h, f, js, link_j);
  for (size_t i = 0; i < model.vertex_count(); ++i) {
    check_close(out.force[i], f[i], 1.f);
    check_close(out.jacobian_sum[i], js[i], 100.f);
  }
  for (size_t l = 0; l < model.link_count_total(); ++l) check_close(out.link_jacobian.get(l), link_j[l], 100.f);

  // Without the Jacobian (explicit integrators) the forces lack only the viscosity term.
  ForceBuffers plain(model);
  evaluate_forces(model, x.data(), v.data(), plain, {.jacobian = false});
  reference_forces(model, x, v, plain.tension, 0.f, f, js, link_j);  // same Volino tensions
  for (size_t i = 0; i < model.vertex_count(); ++i) check_close(plain.force[i], f[i], 1.f);
}

}  // namespace

TEST_CASE("evaluate_forces adds up every link's spring, damping and viscosity force and Jacobian block") {
  Material m;
  m.stretch_stiffness = 300.f;
  m.bend_stiffness = 2.f;
  m.damping = 0.05f;
  compare_with_reference(m);
}

TEST_CASE("evaluate_forces with Volino triangles uses their tensions on the edges and springs on the bend links") {
  Material m;
  m.stretch_model = StretchModel::Volino;
  m.young_modulus = 300.f;
  m.alpha = 0.8f;
  m.bend_stiffness = 2.f;
  m.damping = 0.05f;
  compare_with_reference(m);
}
