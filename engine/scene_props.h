#pragma once
// Static scene geometry the renderer draws around the cloth (not simulated by the renderer): the
// floor height and an optional table, given once when the renderer is made.
#include <optional>

#include <glm/glm.hpp>

namespace weft {

struct TableProp {
  glm::vec2 center_xz{0.f, 0.f};  // m
  glm::vec2 size_xz{1.4f, 0.9f};  // top extent, m
  float top_height = 0.75f;       // height of the top surface above the floor, m
  float thickness = 0.04f;        // of the top slab, m
};

struct SceneProps {
  float floor_height = 0.f;  // m
  std::optional<TableProp> table;
};

}  // namespace weft
