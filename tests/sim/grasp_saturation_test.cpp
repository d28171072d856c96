#include <doctest/doctest.h>

#include "sim/cloth_model.h"
#include "sim/grasp.h"
#include "sim/grasp_saturation.h"
#include "sim/mesh_generators.h"

using namespace weft;

// A strip of 4 quads (edge 0.1 m): vertex 0 pinned, the hand holds vertex 2 (two edges, 0.2 m, from the pin).
TEST_CASE("grasp saturation: a held vertex pulled away from a pin stops at (1 + strain) of the path length") {
  Mesh mesh = make_grid({.width = 0.4f, .height = 0.1f, .columns = 4, .rows = 1});
  const ClothModel model = build_cloth_model(mesh, {}, {0});
  const VertexAdjacency adj = build_adjacency(model);
  std::array<ElasticSet, kDeviceCount> sets;
  sets[0].vertex = {2};
  sets[0].offset = {glm::vec3(0.f)};
  sets[0].weight = {1.f};
  std::array<Tethers, kDeviceCount> tethers;
  TetherScratch scratch;
  scratch.resize(model);
  const uint32_t source = 2;
  build_tethers(model, adj, &source, 1, scratch, tethers[0]);
  const std::vector<uint32_t> fixed = {0};
  std::vector<uint8_t> is_fixed(model.vertex_count(), 0), kinematic(model.vertex_count(), 0);
  is_fixed[0] = kinematic[0] = kinematic[2] = 1;
  std::vector<glm::vec3> kv(model.vertex_count(), glm::vec3(0.f));
  const float h = 0.01f;
  kv[2] = glm::vec3(5.f, 0.f, 0.f);  // the hand yanks it 5 cm along the strip this step
  saturate_held_motion(sets, tethers, fixed, is_fixed.data(), 0.1f, 100.f, h, 4, model.rest_position.data(),
                       kinematic.data(), kv.data());
  const glm::vec3 end = model.rest_position[2] + h * kv[2];
  CHECK(glm::length(end - model.rest_position[0]) == doctest::Approx(1.1f * 0.2f).epsilon(1e-4));
  // toward the pin: nothing to limit
  kv[2] = glm::vec3(-5.f, 0.f, 0.f);
  saturate_held_motion(sets, tethers, fixed, is_fixed.data(), 0.1f, 100.f, h, 4, model.rest_position.data(),
                       kinematic.data(), kv.data());
  CHECK(kv[2].x == doctest::Approx(-5.f));
}

TEST_CASE("grasp saturation: two hands pulling apart share the stop, each keeps its own patch rigid") {
  Mesh mesh = make_grid({.width = 0.4f, .height = 0.1f, .columns = 4, .rows = 1});
  const ClothModel model = build_cloth_model(mesh, {});
  const VertexAdjacency adj = build_adjacency(model);
  std::array<ElasticSet, kDeviceCount> sets;
  std::array<Tethers, kDeviceCount> tethers;
  TetherScratch scratch;
  scratch.resize(model);
  const uint32_t left[2] = {0, 5}, right[2] = {4, 9};  // the strip's two short ends
  for (int d = 0; d < 2; ++d) {
    const uint32_t* v = d == 0 ? left : right;
    sets[d].vertex = {v[0], v[1]};
    sets[d].offset = {glm::vec3(0.f), glm::vec3(0.f)};
    sets[d].weight = {1.f, 1.f};
    build_tethers(model, adj, v, 2, scratch, tethers[d]);
  }
  std::vector<uint8_t> is_fixed(model.vertex_count(), 0), kinematic(model.vertex_count(), 0);
  std::vector<glm::vec3> kv(model.vertex_count(), glm::vec3(0.f));
  for (uint32_t i : {0u, 5u}) kinematic[i] = 1, kv[i] = glm::vec3(-3.f, 0.f, 0.f);
  for (uint32_t i : {4u, 9u}) kinematic[i] = 1, kv[i] = glm::vec3(3.f, 0.f, 0.f);
  const float h = 0.01f;
  saturate_held_motion(sets, tethers, {}, is_fixed.data(), 0.1f, 100.f, h, 8, model.rest_position.data(),
                       kinematic.data(), kv.data());
  const float span = (model.rest_position[4].x + h * kv[4].x) - (model.rest_position[0].x + h * kv[0].x);
  CHECK(span <= 1.1f * 0.4f + 1e-4f);
  CHECK(span >= 1.1f * 0.4f - 1e-3f);
  CHECK(kv[0].x == doctest::Approx(-kv[4].x).epsilon(1e-3));  // shared half and half
  CHECK(kv[0] == kv[5]);                                       // a patch moves as a whole
  CHECK(kv[4] == kv[9]);
}
