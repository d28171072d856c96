#include "engine/offscreen_target.h"

#include "engine/gpu_resources.h"

#include <cstring>
#include <stdexcept>

#include "gpu/vk_check.h"
#include "engine/vulkan_context.h"

namespace weft {

OffscreenTarget::OffscreenTarget(VulkanContext& ctx, VkExtent2D extent) : ctx_(ctx), extent_(extent) {
  if (extent.width == 0 || extent.height == 0) throw std::invalid_argument("weft: offscreen target of zero size");
  color_ = create_image(ctx, extent, kFormat, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                        VK_IMAGE_ASPECT_COLOR_BIT);
  readback_ = create_host_buffer(ctx, VkDeviceSize(extent.width) * extent.height * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool.queueFamilyIndex = ctx.queue_family();
  WEFT_VK_CHECK(vkCreateCommandPool(ctx.device(), &pool, nullptr, &pool_));
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = pool_;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  WEFT_VK_CHECK(vkAllocateCommandBuffers(ctx.device(), &alloc, &cmd_));
  VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  WEFT_VK_CHECK(vkCreateFence(ctx.device(), &fence, nullptr, &fence_));
  pixels_.resize(size_t(extent.width) * extent.height * 4);
}

OffscreenTarget::~OffscreenTarget() {
  VkDevice dev = ctx_.device();
  vkDeviceWaitIdle(dev);
  if (fence_) vkDestroyFence(dev, fence_, nullptr);
  if (pool_) vkDestroyCommandPool(dev, pool_, nullptr);
  destroy(ctx_, readback_);
  destroy(ctx_, color_);
}

const std::vector<uint8_t>& OffscreenTarget::render(Renderer& renderer, const ClothSnapshot& snapshot,
                                                    const RenderView& view, const RenderSettings& settings) {
  // Synchronous: the previous frame's fence was waited, so every slot is free.
  slot_ = (slot_ + 1) % renderer.frames_in_flight();
  renderer.upload(slot_, snapshot);

  WEFT_VK_CHECK(vkResetCommandBuffer(cmd_, 0));
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  WEFT_VK_CHECK(vkBeginCommandBuffer(cmd_, &begin));
  TargetImage target;
  target.image = color_.image;
  target.view = color_.view;
  target.extent = extent_;
  target.initial_layout = VK_IMAGE_LAYOUT_UNDEFINED;
  target.final_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  renderer.record(cmd_, slot_, target, view, settings);

  VkBufferImageCopy copy{};
  copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  copy.imageExtent = {extent_.width, extent_.height, 1};
  vkCmdCopyImageToBuffer(cmd_, color_.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback_.buffer, 1, &copy);
  host_read_barrier(cmd_, readback_.buffer);
  WEFT_VK_CHECK(vkEndCommandBuffer(cmd_));

  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd_;
  WEFT_VK_CHECK(vkQueueSubmit(ctx_.queue(), 1, &submit, fence_));
  WEFT_VK_CHECK(vkWaitForFences(ctx_.device(), 1, &fence_, VK_TRUE, UINT64_MAX));
  WEFT_VK_CHECK(vkResetFences(ctx_.device(), 1, &fence_));
  std::memcpy(pixels_.data(), readback_.mapped, pixels_.size());
  return pixels_;
}

}  // namespace weft
