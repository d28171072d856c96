#pragma once
// One use of a cloth tool as the input side asks for it (issue 37, Volino 1997 Fig. 5): a cut along a blade
// segment, material removed inside a brush, rest lengths scaled inside a brush, or two border runs seamed.
// Plain data: it travels as a SimEvent to the sim thread, is recorded in pose streams and replayed as is.
#include <cstdint>

#include <glm/glm.hpp>

namespace weft {

enum class ToolActionKind : uint8_t { Cut, Remove, Scale, Sew };

struct ToolAction {
  ToolActionKind kind = ToolActionKind::Cut;
  glm::vec3 a_from{0.f}, a_to{0.f};  // cut: the blade segment; remove, scale: the brush centre (a_from); sew: run a
  glm::vec3 b_from{0.f}, b_to{0.f};  // sew: run b
  float radius = 0.f;                // remove, scale: brush radius, m
  float factor = 1.f;                // scale: rest-length factor (> 1 expands, < 1 shrinks)
};

const char* tool_action_name(ToolActionKind kind);  // "cut", "remove", "scale", "sew"

}  // namespace weft
