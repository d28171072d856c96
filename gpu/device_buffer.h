#pragma once
// A Vulkan buffer with its own memory, device-local or host-visible and mapped: what every GPU stage
// allocates at load, and the one-off upload of a model table into it.
#include <vulkan/vulkan.h>

namespace weft {

class ComputeContext;

struct DeviceBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkDeviceSize size = 0;
  void* mapped = nullptr;  // host-visible buffers only (coherent, mapped for their lifetime)
};

DeviceBuffer make_device_buffer(const ComputeContext& ctx, VkDeviceSize size, VkBufferUsageFlags usage, bool host);
void destroy_device_buffer(const ComputeContext& ctx, DeviceBuffer& b);
// Model tables go in once, through a staging buffer freed at once (load time only: it waits for the queue).
void upload_once(const ComputeContext& ctx, DeviceBuffer& dst, const void* data, VkDeviceSize size);

}  // namespace weft
