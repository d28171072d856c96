#include "gpu/storage_set.h"

#include <vector>

#include "gpu/vk_check.h"

namespace weft {

VkDescriptorSetLayout make_storage_set_layout(VkDevice dev, uint32_t count) {
  std::vector<VkDescriptorSetLayoutBinding> bindings(count);
  for (uint32_t b = 0; b < count; ++b)
    bindings[b] = {b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo sl{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  sl.bindingCount = count;
  sl.pBindings = bindings.data();
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  WEFT_VK_CHECK(vkCreateDescriptorSetLayout(dev, &sl, nullptr, &layout));
  return layout;
}

void make_storage_set(VkDevice dev, VkDescriptorSetLayout layout, const VkBuffer* buffers, uint32_t count,
                      VkDescriptorPool& pool, VkDescriptorSet& set) {
  VkDescriptorPoolSize ps{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, count};
  VkDescriptorPoolCreateInfo dp{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  dp.maxSets = 1;
  dp.poolSizeCount = 1;
  dp.pPoolSizes = &ps;
  WEFT_VK_CHECK(vkCreateDescriptorPool(dev, &dp, nullptr, &pool));
  VkDescriptorSetAllocateInfo da{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  da.descriptorPool = pool;
  da.descriptorSetCount = 1;
  da.pSetLayouts = &layout;
  WEFT_VK_CHECK(vkAllocateDescriptorSets(dev, &da, &set));
  std::vector<VkDescriptorBufferInfo> infos(count);
  std::vector<VkWriteDescriptorSet> writes(count);
  for (uint32_t b = 0; b < count; ++b) {
    infos[b] = {buffers[b], 0, VK_WHOLE_SIZE};
    writes[b] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    writes[b].dstSet = set;
    writes[b].dstBinding = b;
    writes[b].descriptorCount = 1;
    writes[b].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[b].pBufferInfo = &infos[b];
  }
  vkUpdateDescriptorSets(dev, count, writes.data(), 0, nullptr);
}

}  // namespace weft
