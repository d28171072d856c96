#include "engine/gpu_resources.h"

#include "gpu/vk_check.h"
#include "engine/vulkan_context.h"

namespace weft {

HostBuffer create_host_buffer(const VulkanContext& ctx, VkDeviceSize size, VkBufferUsageFlags usage) {
  HostBuffer b;
  b.size = size;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  WEFT_VK_CHECK(vkCreateBuffer(ctx.device(), &info, nullptr, &b.buffer));
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(ctx.device(), b.buffer, &req);
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex =
      ctx.find_memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  WEFT_VK_CHECK(vkAllocateMemory(ctx.device(), &alloc, nullptr, &b.memory));
  WEFT_VK_CHECK(vkBindBufferMemory(ctx.device(), b.buffer, b.memory, 0));
  WEFT_VK_CHECK(vkMapMemory(ctx.device(), b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped));
  return b;
}

void destroy(const VulkanContext& ctx, HostBuffer& b) {
  if (b.buffer) vkDestroyBuffer(ctx.device(), b.buffer, nullptr);
  if (b.memory) vkFreeMemory(ctx.device(), b.memory, nullptr);  // unmaps implicitly
  b = HostBuffer{};
}

GpuImage create_image(const VulkanContext& ctx, VkExtent2D extent, VkFormat format, VkImageUsageFlags usage,
                      VkImageAspectFlags aspect) {
  GpuImage img;
  img.format = format;
  img.extent = extent;
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = format;
  info.extent = {extent.width, extent.height, 1};
  info.mipLevels = 1;
  info.arrayLayers = 1;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  WEFT_VK_CHECK(vkCreateImage(ctx.device(), &info, nullptr, &img.image));
  VkMemoryRequirements req;
  vkGetImageMemoryRequirements(ctx.device(), img.image, &req);
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = ctx.find_memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  WEFT_VK_CHECK(vkAllocateMemory(ctx.device(), &alloc, nullptr, &img.memory));
  WEFT_VK_CHECK(vkBindImageMemory(ctx.device(), img.image, img.memory, 0));
  VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  view.image = img.image;
  view.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view.format = format;
  view.subresourceRange = {aspect, 0, 1, 0, 1};
  WEFT_VK_CHECK(vkCreateImageView(ctx.device(), &view, nullptr, &img.view));
  return img;
}

void destroy(const VulkanContext& ctx, GpuImage& img) {
  if (img.view) vkDestroyImageView(ctx.device(), img.view, nullptr);
  if (img.image) vkDestroyImage(ctx.device(), img.image, nullptr);
  if (img.memory) vkFreeMemory(ctx.device(), img.memory, nullptr);
  img = GpuImage{};
}

void image_barrier(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect, VkImageLayout from,
                   VkImageLayout to, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                   VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access) {
  VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
  b.srcStageMask = src_stage;
  b.srcAccessMask = src_access;
  b.dstStageMask = dst_stage;
  b.dstAccessMask = dst_access;
  b.oldLayout = from;
  b.newLayout = to;
  b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image;
  b.subresourceRange = {aspect, 0, 1, 0, 1};
  VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dep.imageMemoryBarrierCount = 1;
  dep.pImageMemoryBarriers = &b;
  vkCmdPipelineBarrier2(cmd, &dep);
}

void host_read_barrier(VkCommandBuffer cmd, VkBuffer buffer) {
  VkBufferMemoryBarrier2 host{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2};
  host.srcStageMask = VK_PIPELINE_STAGE_2_TRANSFER_BIT;
  host.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
  host.dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT;
  host.dstAccessMask = VK_ACCESS_2_HOST_READ_BIT;
  host.srcQueueFamilyIndex = host.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  host.buffer = buffer;
  host.size = VK_WHOLE_SIZE;
  VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dep.bufferMemoryBarrierCount = 1;
  dep.pBufferMemoryBarriers = &host;
  vkCmdPipelineBarrier2(cmd, &dep);
}

}  // namespace weft
