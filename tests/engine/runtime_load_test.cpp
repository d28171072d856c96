// What the runtime checks at load (engine/runtime.cpp): `weft mesh --check`'s counts, warned on stderr and
// kept in SceneInfo, and the overlapping triangle pairs handed to self-collision's untangling, so that a
// disc folded flat on itself loads as tangled and ends with its layers apart.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include <glm/gtc/matrix_transform.hpp>

#include "engine/mesh_check.h"
#include "engine/runtime.h"
#include "sim/intersection_count.h"
#include "tests/engine/folded_disc.h"
#include "tests/engine/stderr_capture.h"
#include "tests/engine/untuned_cloth.h"

using namespace weft;
using weft::test::stderr_of;

namespace {
// The folded disc lying flat 1 cm above the floor, self-collision on.
Scene folded_disc_scene(bool self_collision = true) {
  Scene s;
  s.name = "folded disc";
  s.mesh = test::folded_flat_disc();
  transform_mesh(s.mesh, glm::rotate(glm::translate(glm::mat4(1.f), glm::vec3(-0.2f, 0.01f, 0.2f)), glm::radians(-90.f),
                                     glm::vec3(1.f, 0.f, 0.f)));
  Collider floor;
  floor.shape = ColliderShape::Plane;
  s.colliders.push_back(floor);
  s.world.self_collision.enabled = self_collision;
  return s;
}
RuntimeOptions lockstep() {
  RuntimeOptions ro;
  ro.lockstep = true;
  return ro;
}
}  // namespace

TEST_CASE("runtime load: a tangled disc is warned with mesh --check's counts") {
  const Scene scene = folded_disc_scene();
  const MeshCheckReport check = check_mesh(scene.mesh);
  REQUIRE(check.issues[4].kind == "overlap");
  REQUIRE(check.issues[4].count > 100);
  std::unique_ptr<Runtime> rt;
  const std::string err = stderr_of([&] { rt = std::make_unique<Runtime>(lockstep(), scene, "test:folded-disc"); });
  // The same counts, kind by kind, in the summaries' mesh_check and in the one warning line.
  const auto& counts = rt->scene().mesh_check;
  REQUIRE(counts.size() == check.issues.size());
  for (size_t k = 0; k < counts.size(); ++k) {
    CHECK(counts[k].first == check.issues[k].kind);
    CHECK(counts[k].second == check.issues[k].count);
    if (check.issues[k].count > 0)
      CHECK(err.find(std::to_string(check.issues[k].count) + " " + check.issues[k].kind) != std::string::npos);
  }
  CHECK(err.find("test:folded-disc: the cloth mesh has") != std::string::npos);
  CHECK(err.find("weft mesh --check") != std::string::npos);
  // The disc as generated: no warning.
  Scene clean = scene;
  clean.mesh = make_annulus({.inner_radius = 0.f, .outer_radius = 0.2f, .rings = 6});
  const std::string quiet = stderr_of([&] { Runtime r(lockstep(), clean, "test:disc"); });
  CHECK(quiet.find("cloth mesh has") == std::string::npos);
}

// The overlapping pairs that reach the untangling: those with no vertex in common (the rest are neighbours).
std::vector<std::array<uint32_t, 2>> apart_pairs(const Mesh& mesh) {
  std::vector<std::array<uint32_t, 2>> apart;
  for (const auto& [a, b] : check_mesh(mesh).overlapping_pairs) {
    const auto &ta = mesh.triangles[a], &tb = mesh.triangles[b];
    bool shared = false;
    for (uint32_t u : ta) shared = shared || u == tb[0] || u == tb[1] || u == tb[2];
    if (!shared) apart.push_back({a, b});
  }
  return apart;
}

TEST_CASE("runtime load: overlapping layers reach the untangling and end apart (flat-folded disc, doubled disc)") {
  for (const bool folded : {true, false}) {
    CAPTURE(folded);
    Scene scene = folded_disc_scene();
    if (!folded) {  // the disc twice, the copy turned in its plane and lying on the first
      scene.mesh = test::doubled_disc();
      transform_mesh(scene.mesh, glm::rotate(glm::translate(glm::mat4(1.f), glm::vec3(-0.2f, 0.01f, 0.2f)),
                                             glm::radians(-90.f), glm::vec3(1.f, 0.f, 0.f)));
    }
    const auto apart = apart_pairs(scene.mesh);
    REQUIRE(apart.size() > 100);
    const ClothModel model = build_cloth_model(scene.mesh, scene.material);
    // The exact predicate reads some coplanar pairs as crossing, not all: the load scan alone missed most.
    const uint64_t crossing = count_self_intersections(model, scene.mesh.positions).triangle_pairs;
    CHECK(crossing < apart.size());
    Runtime rt(lockstep(), scene, "test:overlapping-layers");
    rt.start();
    // Both after 1 s on the floor, at rest: the load drew the layers apart and took the rest shape from there
    // (sim/overlap_opening.h). Before, the folded disc's crease, its rest shape flat through the triangles, was
    // pushed open by the contacts and pulled shut by its rest shape every tick: 0.3-1.5 m/s, never at rest.
    rt.run_to(240);
    rt.stop();
    const SelfCollision* sc = rt.world().self_collision();
    REQUIRE(sc != nullptr);
    CHECK(sc->tangled_at_scan() >= apart.size());  // tangled_at_load counts the overlaps handed over
    CHECK(rt.stats().self_tangled_at_scan == sc->tangled_at_scan());
    CHECK(sc->overlaps_separating() == 0);  // every pair drawn apart and handed to the contacts
    // The layers lie apart: each pair's centroids at least half a thickness apart across them (the contacts
    // keep a thickness between the nearest points), and nothing crosses.
    const std::vector<glm::vec3>& x = rt.world().state().position;
    const float thickness = scene.world.self_collision.thickness;
    size_t close = 0;
    for (const auto& [a, b] : apart) {
      const auto &ta = scene.mesh.triangles[a], &tb = scene.mesh.triangles[b];
      const glm::vec3 n = glm::normalize(glm::cross(x[ta[1]] - x[ta[0]], x[ta[2]] - x[ta[0]]));
      const glm::vec3 d = (x[ta[0]] + x[ta[1]] + x[ta[2]] - x[tb[0]] - x[tb[1]] - x[tb[2]]) / 3.f;
      close += std::abs(glm::dot(d, n)) < 0.5f * thickness;
    }
    // Beside the folded disc's crease the layers are joined: a few pairs there cannot get apart.
    CHECK(close <= (folded ? apart.size() / 50 : 0));
    CHECK(count_self_intersections(model, x).triangle_pairs == 0);
    CHECK(rt.stats().stream.vertex_speed_peak < 0.5f);  // drawn apart, not flung
    MESSAGE(std::string(folded ? "folded" : "doubled") << " disc: pairs closer than half a thickness " << close << ", fastest vertex "
                                            << rt.stats().stream.vertex_speed_peak << " m/s, RMS speed at 1 s "
                                            << 100 * test::rms_speed(rt.world().state().velocity) << " cm/s");
    CHECK(test::rms_speed(rt.world().state().velocity) < 0.01f);  // at rest
  }
}
