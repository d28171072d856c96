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

}  // namespace weft
