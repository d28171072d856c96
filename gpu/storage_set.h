#pragma once
// A descriptor set of storage buffers, binding b = buffers[b], for one compute stage: the step's set and the
// force stage's set are built the same way (each a layout, a pool of one set, the set written once at load).
#include <cstdint>

#include <vulkan/vulkan.h>

namespace weft {

// The layout: `count` storage buffers at bindings 0..count-1, seen by compute shaders.
VkDescriptorSetLayout make_storage_set_layout(VkDevice dev, uint32_t count);

// A pool of one set of that layout, and the set, written with buffers[0..count) whole.
void make_storage_set(VkDevice dev, VkDescriptorSetLayout layout, const VkBuffer* buffers, uint32_t count,
                      VkDescriptorPool& pool, VkDescriptorSet& set);

}  // namespace weft
