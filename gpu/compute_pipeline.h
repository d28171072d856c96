#pragma once
// A compute pipeline from embedded SPIR-V (gpu/CMakeLists.txt compiles gpu/shaders/*.comp into uint32 arrays):
// the step's kernels and the force stage's are made the same way, at load.
#include <cstddef>
#include <cstdint>

#include <vulkan/vulkan.h>

namespace weft {

// The shader module (kept by the caller, destroyed with the pipeline) and the pipeline with entry "main".
VkPipeline make_compute_pipeline(VkDevice dev, const uint32_t* words, size_t bytes, VkPipelineLayout layout,
                                 VkShaderModule& module);

}  // namespace weft
