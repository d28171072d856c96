#include "sim/weft_warp_simd.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "sim/curve_table.h"
#include "sim/force_field.h"
#include "sim/mesh_generators.h"
#include "sim/weft_warp_forces.h"
#include "tests/allocation_counter.h"
#include "tests/skip.h"

using namespace weft;

namespace {

Material weave_material(bool long_weft_curve) {
  Material m;
  m.stretch_model = StretchModel::WeftWarp;
  // denim-like: stiffening weft and warp, a softer shear; the long curve (8 knots) does not fit a table
  m.weave.weft = long_weft_curve ? StressCurve::from_points({-0.05f, 0.f, 0.01f, 0.03f, 0.05f, 0.1f, 0.2f, 0.4f},
                                                            {-10.f, 0.f, 2.f, 6.f, 11.f, 23.f, 60.f, 200.f})
                                 : StressCurve::from_points({-0.05f, 0.f, 0.01f, 0.05f, 0.1f, 0.2f},
                                                            {-10.3f, 0.f, 2.05f, 11.2f, 22.7f, 60.f});
  m.weave.warp =
      StressCurve::from_points({-0.05f, 0.f, 0.01f, 0.05f, 0.1f, 0.2f}, {-50.7f, 0.f, 10.1f, 52.1f, 105.f, 260.f});
  m.weave.shear = StressCurve::from_points({-0.5f, -0.1f, 0.f, 0.1f, 0.5f}, {-30.f, -5.3f, 0.f, 5.3f, 30.f});
  m.weave.weft_viscosity = 0.02f;
  m.weave.warp_viscosity = 0.03f;
  m.weave.shear_viscosity = 0.01f;
  m.weave.angle_deg = 20.f;
  return m;
}

// Largest |a - b| over the entries, against the largest |b|.
struct Diff {
  double worst = 0, scale = 0;
  void add(float a, float b) {
    worst = std::max(worst, std::fabs(double(a) - double(b)));
    scale = std::max(scale, std::fabs(double(b)));
  }
  double relative() const { return worst / scale; }
};

}  // namespace

TEST_CASE("curve table: the same curve as StressCurve, inside, at the knots and beyond them") {
  const StressCurve c = weave_material(false).weave.warp;
  const CurveTable t = make_curve_table(c);
  REQUIRE(t.fits);
  std::vector<float> strains = c.strains();
  for (float e = -0.3f; e <= 0.5f; e += 0.00731f) strains.push_back(e);
  for (float e : strains) {
    const CurveSample a = evaluate(t, e), b = c(e);
    const float scale = std::fabs(b.stress) + 1e-3f * 260.f;
    CHECK(std::fabs(a.stress - b.stress) <= 1e-5f * scale);
    CHECK(std::fabs(a.slope - b.slope) <= 1e-5f * std::fabs(b.slope) + 1e-3f);
  }
  CHECK_FALSE(make_curve_table(weave_material(true).weave.weft).fits);  // 8 knots: more than a register holds
}

TEST_CASE("vectorised atan2: within 4e-7 rad of std::atan2 in every octant, and 0 at the origin") {
#if !defined(WEFT_WEAVE_PASS_SIMD)
  WEFT_SKIP_IF(true, "built without AVX2 and FMA: no vectorised atan2");
#else
  std::vector<float> ys, xs;
  for (int k = 0; k < 4000; ++k) {
    const float a = -3.14159f + 6.28318f * float(k) / 4000.f, r = k % 3 == 0 ? 1e-3f : (k % 3 == 1 ? 1.f : 40.f);
    ys.push_back(r * std::sin(a));
    xs.push_back(r * std::cos(a));
  }
  for (float y : {0.f, 1.f, -1.f, 1e-8f})
    for (float x : {0.f, 1.f, -1.f, 1e-8f}) ys.push_back(y), xs.push_back(x);
  while (ys.size() % 8) ys.push_back(0.f), xs.push_back(0.f);
  double worst = 0;
  for (size_t k = 0; k < ys.size(); k += 8) {
    alignas(32) float r[8];
    _mm256_store_ps(r, weave_simd::atan2(_mm256_loadu_ps(&ys[k]), _mm256_loadu_ps(&xs[k])));
    for (size_t l = 0; l < 8; ++l)
      worst = std::max(worst, std::fabs(double(r[l]) - std::atan2(double(ys[k + l]), double(xs[k + l]))));
  }
  CHECK(worst < 4e-7);  // under two float ulps at pi
#endif
}

TEST_CASE("weft/warp vectorised triangle and hinge passes: forces and Jacobian blocks as the scalar kernels'") {
#if !defined(WEFT_WEAVE_PASS_SIMD)
  WEFT_SKIP_IF(true, "built without AVX2 and FMA (WEFT_NATIVE off or an older CPU): only the scalar pass exists");
#else
  for (const bool long_curve : {false, true})
    for (const float h : {0.f, 1.f / 90.f})
    for (const bool plastic : {false, true}) {
      CAPTURE(long_curve);
      CAPTURE(h);
      CAPTURE(plastic);
      // an irregular mesh with a triangle count that leaves a scalar tail, deformed so that every curve
      // piece, the compressive shear and the stretched directions occur
      const ClothModel model =
          build_cloth_model(make_irregular({.width = 0.3f, .height = 0.2f, .columns = 9, .rows = 7, .seed = 5}),
                            weave_material(long_curve));
      REQUIRE(model.triangle_count() % 8 != 0);
      std::mt19937 rng(11);
      std::uniform_real_distribution<float> U(-1.f, 1.f);
      std::vector<glm::vec3> x = model.rest_position, v(model.vertex_count());
      for (size_t i = 0; i < x.size(); ++i) {
        const glm::vec3 p = model.rest_position[i];
        x[i] = glm::vec3(1.08f * p.x + 0.1f * p.y, 0.97f * p.y, 0.02f * std::sin(20.f * p.x)) +
               0.006f * glm::vec3(U(rng), U(rng), U(rng));
        v[i] = 0.5f * glm::vec3(U(rng), U(rng), U(rng));
      }
      ForceBuffers ref(model), simd(model);
      for (ForceBuffers* b : {&ref, &simd}) {
        std::fill(b->force.begin(), b->force.end(), glm::vec3(0.f));
        std::fill(b->jacobian_sum.begin(), b->jacobian_sum.end(), Sym3{});
        for (auto* c : {&b->link_jacobian.xx, &b->link_jacobian.xy, &b->link_jacobian.xz, &b->link_jacobian.yy,
                        &b->link_jacobian.yz, &b->link_jacobian.zz})
          std::fill(c->begin(), c->end(), 0.f);
      }
      for (size_t i = 0; i < x.size(); ++i) {
        float* r = simd.vertex_xv.data() + kVertexRecord * i;
        r[0] = x[i].x, r[1] = x[i].y, r[2] = x[i].z, r[3] = 0.f, r[4] = v[i].x, r[5] = v[i].y, r[6] = v[i].z,
        r[7] = 0.f;
      }
      // hinges at plastic rest angles of either sign (ForceOptions::hinge_rest_angle)
      const size_t ntri = model.triangle_count(), nhinge = model.weft_warp.hinge_count();
      REQUIRE(nhinge % 8 != 0);
      std::vector<float> rest(nhinge);
      for (float& r : rest) r = 0.3f * U(rng);
      // in-plane plasticity: per-triangle plastic strains of either sign (ForceOptions::plastic_strain)
      std::vector<std::array<float, 3>> plastic_strain(ntri);
      for (auto& e : plastic_strain) e = {0.03f * U(rng), 0.03f * U(rng), 0.05f * U(rng)};
      const std::array<float, 3>* pl = plastic ? plastic_strain.data() : nullptr;
      const ForceOptions options{
          .jacobian = true, .viscosity_h = h, .hinge_rest_angle = rest.data(), .plastic_strain = pl};
      add_weave_triangles(model, x.data(), v.data(), 0, ntri, ref, options);
      add_weave_hinges(model, x.data(), v.data(), 0, nhinge, ref, options);
      const uint64_t allocations = test::allocation_count();
      const size_t done =
          add_weave_triangles_simd(model.weft_warp, model.material.weave, simd.vertex_xv.data(), h, ntri,
                                   simd.force.data(), simd.jacobian_sum.data(), simd.link_jacobian, pl);
      const size_t hinges_done = add_weave_hinges_simd(model.weft_warp, rest.data(), simd.vertex_xv.data(), h, nhinge,
                                                       simd.force.data(), simd.jacobian_sum.data(), simd.link_jacobian);
      CHECK(test::allocation_count() == allocations);
      CHECK(done == ntri - ntri % 8);
      CHECK(hinges_done == nhinge - nhinge % 8);
      add_weave_triangles(model, x.data(), v.data(), done, ntri, simd, options);
      add_weave_hinges(model, x.data(), v.data(), hinges_done, nhinge, simd, options);

      Diff force, block, sum;
      for (size_t i = 0; i < x.size(); ++i)
        for (int c = 0; c < 3; ++c) force.add(simd.force[i][c], ref.force[i][c]);
      for (size_t l = 0; l < model.link_count_total(); ++l) {
        const Sym3 a = simd.link_jacobian.get(l), b = ref.link_jacobian.get(l);
        for (auto m : {&Sym3::xx, &Sym3::xy, &Sym3::xz, &Sym3::yy, &Sym3::yz, &Sym3::zz}) block.add(a.*m, b.*m);
      }
      for (size_t i = 0; i < x.size(); ++i)
        for (auto m : {&Sym3::xx, &Sym3::xy, &Sym3::xz, &Sym3::yy, &Sym3::yz, &Sym3::zz})
          sum.add(simd.jacobian_sum[i].*m, ref.jacobian_sum[i].*m);
      CHECK(force.scale > 1e-3);
      CHECK(block.scale > 1.0);
      CHECK(force.relative() < 1e-5);
      CHECK(block.relative() < 1e-5);
      CHECK(sum.relative() < 1e-5);
    }
#endif
}
