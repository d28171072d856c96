#include "engine/shader_library.h"

#include <stdexcept>
#include <string>

namespace weft {
namespace {

const uint32_t kClothVert[] = {
#include "cloth.vert.spv.inc"
};
const uint32_t kClothFrag[] = {
#include "cloth.frag.spv.inc"
};
const uint32_t kFloorVert[] = {
#include "floor.vert.spv.inc"
};
const uint32_t kFloorFrag[] = {
#include "floor.frag.spv.inc"
};
const uint32_t kShadowVert[] = {
#include "shadow.vert.spv.inc"
};
const uint32_t kShadowFrag[] = {
#include "shadow.frag.spv.inc"
};
const uint32_t kSolidVert[] = {
#include "solid.vert.spv.inc"
};
const uint32_t kSolidFrag[] = {
#include "solid.frag.spv.inc"
};

struct Entry {
  std::string_view name;
  SpirvCode code;
};
#define WEFT_SHADER(name, array) Entry{name, SpirvCode{array, sizeof(array)}}
const Entry kShaders[] = {
    WEFT_SHADER("cloth.vert", kClothVert),   WEFT_SHADER("cloth.frag", kClothFrag),
    WEFT_SHADER("floor.vert", kFloorVert),   WEFT_SHADER("floor.frag", kFloorFrag),
    WEFT_SHADER("shadow.vert", kShadowVert), WEFT_SHADER("shadow.frag", kShadowFrag),
    WEFT_SHADER("solid.vert", kSolidVert),   WEFT_SHADER("solid.frag", kSolidFrag),
};
#undef WEFT_SHADER

}  // namespace

SpirvCode shader_spirv(std::string_view name) {
  for (const Entry& e : kShaders)
    if (e.name == name) return e.code;
  throw std::out_of_range("no embedded shader named '" + std::string(name) + "'");
}

}  // namespace weft
