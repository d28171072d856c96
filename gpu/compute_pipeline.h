#pragma once
// The pieces every GPU stage is made of, at load: its pipeline layout, its compute pipelines from embedded
// SPIR-V (gpu/CMakeLists.txt compiles gpu/shaders/*.comp into uint32 arrays), its command buffer and fence;
// and the memory barrier between its dispatches.
#include <cstddef>
#include <cstdint>

#include <vulkan/vulkan.h>

namespace weft {

// The shader module (kept by the caller, destroyed with the pipeline) and the pipeline with entry "main".
VkPipeline make_compute_pipeline(VkDevice dev, const uint32_t* words, size_t bytes, VkPipelineLayout layout,
                                 VkShaderModule& module);

// The `count` pipelines and their modules a stage made with make_compute_pipeline (null handles are skipped).
void destroy_compute_pipelines(VkDevice dev, VkPipeline* pipelines, VkShaderModule* modules, size_t count);

// A pipeline layout of `count` descriptor sets and, when push_bytes > 0, one compute push-constant range.
VkPipelineLayout make_compute_layout(VkDevice dev, const VkDescriptorSetLayout* sets, uint32_t count,
                                     uint32_t push_bytes);

// One primary command buffer from `pool` (recorded once, submitted each tick) and its fence.
void make_command_buffer_and_fence(VkDevice dev, VkCommandPool pool, VkCommandBuffer& cmd, VkFence& fence);

// A global memory barrier: what `from` wrote with `from_access` is visible to `to`'s `to_access`.
void memory_barrier(VkCommandBuffer c, VkPipelineStageFlags from, VkAccessFlags from_access, VkPipelineStageFlags to,
                    VkAccessFlags to_access);

}  // namespace weft
