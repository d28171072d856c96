#include "xr/eye_renderer.h"

#include <cstdint>

#include "xr/vk_check.h"

namespace weft::xr {

void ClearEyeRenderer::attach(const XrVulkanContext& context) {
  ctx_ = context;
  VkCommandPoolCreateInfo pi = vk_struct<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  pi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pi.queueFamilyIndex = ctx_.queue_family;
  XR_VK_CHECK(vkCreateCommandPool(ctx_.device, &pi, nullptr, &pool_));
  VkCommandBufferAllocateInfo ai = vk_struct<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  ai.commandPool = pool_;
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = 1;
  XR_VK_CHECK(vkAllocateCommandBuffers(ctx_.device, &ai, &cmd_));
  VkFenceCreateInfo fi = vk_struct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  XR_VK_CHECK(vkCreateFence(ctx_.device, &fi, nullptr, &fence_));
}

void ClearEyeRenderer::render_eye(int eye, VkImage image, VkFormat, VkExtent2D, const glm::mat4&, const glm::mat4&) {
  XR_VK_CHECK(vkResetCommandBuffer(cmd_, 0));
  VkCommandBufferBeginInfo bi = vk_struct<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  XR_VK_CHECK(vkBeginCommandBuffer(cmd_, &bi));
  VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageMemoryBarrier b = vk_struct<VkImageMemoryBarrier>(VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER);
  b.srcAccessMask = 0;
  b.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image;
  b.subresourceRange = range;
  vkCmdPipelineBarrier(cmd_, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &b);
  const glm::vec4 c = colour_[eye & 1];
  VkClearColorValue clear{};
  clear.float32[0] = c.x;
  clear.float32[1] = c.y;
  clear.float32[2] = c.z;
  clear.float32[3] = c.w;
  vkCmdClearColorImage(cmd_, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &clear, 1, &range);
  b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  b.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  b.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  b.newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  vkCmdPipelineBarrier(cmd_, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0,
                       nullptr, 0, nullptr, 1, &b);
  XR_VK_CHECK(vkEndCommandBuffer(cmd_));
  VkSubmitInfo si = vk_struct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cmd_;
  XR_VK_CHECK(vkQueueSubmit(ctx_.queue, 1, &si, fence_));
  XR_VK_CHECK(vkWaitForFences(ctx_.device, 1, &fence_, VK_TRUE, UINT64_MAX));
  XR_VK_CHECK(vkResetFences(ctx_.device, 1, &fence_));
  ++eyes_;
}

void ClearEyeRenderer::detach() {
  if (ctx_.device == VK_NULL_HANDLE) return;
  vkDeviceWaitIdle(ctx_.device);
  if (fence_) vkDestroyFence(ctx_.device, fence_, nullptr);
  if (pool_) vkDestroyCommandPool(ctx_.device, pool_, nullptr);
  fence_ = VK_NULL_HANDLE;
  pool_ = VK_NULL_HANDLE;
  cmd_ = VK_NULL_HANDLE;
  ctx_ = {};
}

}  // namespace weft::xr
