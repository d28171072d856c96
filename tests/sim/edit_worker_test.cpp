// EditWorker (sim/edit_worker.h) on its own: jobs are built in order, each on the model the one before
// left, and taken in order once built.
#include <doctest/doctest.h>

#include "sim/edit_worker.h"
#include "sim/mesh_generators.h"

using namespace weft;

// "threading": also run under ThreadSanitizer (CMakePresets.json, preset tsan).
TEST_SUITE("threading") {

TEST_CASE("EditWorker: two cuts queued at once chain (the second built on the first's model) and are taken in order") {
  const Mesh mesh = make_grid({.width = 0.4f, .height = 0.4f, .columns = 8, .rows = 8});
  const ClothModel cloth = build_cloth_model(mesh, {}, {72, 80});
  const std::vector<float> scale(cloth.triangle_count(), 1.f);
  const ElasticSet pins;
  auto job = [&](glm::vec3 from, glm::vec3 to) {
    auto j = std::make_unique<EditJob>();
    j->edit = {.kind = EditKind::Cut, .from = from, .to = to, .radius = 0.01f};
    j->x = cloth.rest_position;  // both in the loaded topology (generation 0)
    j->world = {&cloth, &scale, &pins, nullptr};
    return j;
  };
  EditWorker worker;
  worker.submit(job({0.05f, 0.2013f, 0.f}, {0.2f, 0.2013f, 0.f}));
  worker.submit(job({0.2f, 0.2013f, 0.f}, {0.35f, 0.2013f, 0.f}));
  CHECK(worker.size() == 2);
  std::unique_ptr<EditJob> a = worker.take_front();
  std::unique_ptr<EditJob> b = worker.take_front();
  CHECK(worker.empty());
  REQUIRE(a->build.report.applied);
  REQUIRE(b->build.report.applied);
  // The second applied to the first's result: its origins index the first's vertices.
  CHECK(b->build.to_new.size() == a->build.cloth.vertex_count());
  CHECK(b->build.cloth.vertex_count() > a->build.cloth.vertex_count());
  CHECK(a->worker_ms > 0.0);
  worker.retire(std::move(a));  // freed on the worker
  worker.retire(std::move(b));
}

}  // TEST_SUITE("threading")
