#pragma once
// The SPIR-V of every shader in shaders/, compiled by glslc at build time and embedded in the binary.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace weft {

struct SpirvCode {
  const uint32_t* words = nullptr;
  size_t size_bytes = 0;
};

// Looks a shader up by its file name ("cloth.vert"); throws std::out_of_range for an unknown name.
SpirvCode shader_spirv(std::string_view name);

}  // namespace weft
