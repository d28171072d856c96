#include "gpu/device_buffer.h"

#include <cstring>

#include "gpu/compute_context.h"
#include "gpu/vk_check.h"

namespace weft {

DeviceBuffer make_device_buffer(const ComputeContext& ctx, VkDeviceSize size, VkBufferUsageFlags usage, bool host) {
  DeviceBuffer b;
  b.size = size;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size;
  info.usage = usage;
  WEFT_VK_CHECK(vkCreateBuffer(ctx.device(), &info, nullptr, &b.buffer));
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(ctx.device(), b.buffer, &req);
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = ctx.memory_type(
      req.memoryTypeBits, host ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                               : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  WEFT_VK_CHECK(vkAllocateMemory(ctx.device(), &alloc, nullptr, &b.memory));
  WEFT_VK_CHECK(vkBindBufferMemory(ctx.device(), b.buffer, b.memory, 0));
  if (host) WEFT_VK_CHECK(vkMapMemory(ctx.device(), b.memory, 0, size, 0, &b.mapped));
  return b;
}

void destroy_device_buffer(const ComputeContext& ctx, DeviceBuffer& b) {
  if (b.buffer) vkDestroyBuffer(ctx.device(), b.buffer, nullptr);
  if (b.memory) vkFreeMemory(ctx.device(), b.memory, nullptr);
  b = {};
}

void upload_once(const ComputeContext& ctx, DeviceBuffer& dst, const void* data, VkDeviceSize size) {
  DeviceBuffer staging = make_device_buffer(ctx, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
  std::memcpy(staging.mapped, data, size);
  VkCommandBufferAllocateInfo a{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  a.commandPool = ctx.pool();
  a.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  a.commandBufferCount = 1;
  VkCommandBuffer c;
  WEFT_VK_CHECK(vkAllocateCommandBuffers(ctx.device(), &a, &c));
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  WEFT_VK_CHECK(vkBeginCommandBuffer(c, &begin));
  VkBufferCopy region{0, 0, size};
  vkCmdCopyBuffer(c, staging.buffer, dst.buffer, 1, &region);
  WEFT_VK_CHECK(vkEndCommandBuffer(c));
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &c;
  WEFT_VK_CHECK(vkQueueSubmit(ctx.queue(), 1, &submit, VK_NULL_HANDLE));
  WEFT_VK_CHECK(vkQueueWaitIdle(ctx.queue()));
  vkFreeCommandBuffers(ctx.device(), ctx.pool(), 1, &c);
  destroy_device_buffer(ctx, staging);
}

}  // namespace weft
