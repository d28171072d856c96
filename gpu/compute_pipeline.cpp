#include "gpu/compute_pipeline.h"

#include "gpu/vk_check.h"

namespace weft {

VkPipeline make_compute_pipeline(VkDevice dev, const uint32_t* words, size_t bytes, VkPipelineLayout layout,
                                 VkShaderModule& module) {
  VkShaderModuleCreateInfo sm{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  sm.codeSize = bytes;
  sm.pCode = words;
  WEFT_VK_CHECK(vkCreateShaderModule(dev, &sm, nullptr, &module));
  VkComputePipelineCreateInfo cp{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  cp.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  cp.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  cp.stage.module = module;
  cp.stage.pName = "main";
  cp.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  WEFT_VK_CHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cp, nullptr, &pipeline));
  return pipeline;
}

VkPipelineLayout make_compute_layout(VkDevice dev, const VkDescriptorSetLayout* sets, uint32_t count,
                                     uint32_t push_bytes) {
  const VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes};
  VkPipelineLayoutCreateInfo pl{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  pl.setLayoutCount = count;
  pl.pSetLayouts = sets;
  pl.pushConstantRangeCount = push_bytes > 0 ? 1 : 0;
  pl.pPushConstantRanges = push_bytes > 0 ? &range : nullptr;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  WEFT_VK_CHECK(vkCreatePipelineLayout(dev, &pl, nullptr, &layout));
  return layout;
}

void make_command_buffer_and_fence(VkDevice dev, VkCommandPool pool, VkCommandBuffer& cmd, VkFence& fence) {
  VkCommandBufferAllocateInfo a{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  a.commandPool = pool;
  a.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  a.commandBufferCount = 1;
  WEFT_VK_CHECK(vkAllocateCommandBuffers(dev, &a, &cmd));
  VkFenceCreateInfo f{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  WEFT_VK_CHECK(vkCreateFence(dev, &f, nullptr, &fence));
}

void memory_barrier(VkCommandBuffer c, VkPipelineStageFlags from, VkAccessFlags from_access, VkPipelineStageFlags to,
                    VkAccessFlags to_access) {
  VkMemoryBarrier m{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  m.srcAccessMask = from_access;
  m.dstAccessMask = to_access;
  vkCmdPipelineBarrier(c, from, to, 0, 1, &m, 0, nullptr, 0, nullptr);
}

void destroy_compute_pipelines(VkDevice dev, VkPipeline* pipelines, VkShaderModule* modules, size_t count) {
  for (size_t k = 0; k < count; ++k) {
    vkDestroyPipeline(dev, pipelines[k], nullptr);  // a null handle is a no-op
    vkDestroyShaderModule(dev, modules[k], nullptr);
  }
}

}  // namespace weft
