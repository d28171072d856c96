#include "engine/window_target.h"

#include <algorithm>
#include <stdexcept>

#include <GLFW/glfw3.h>

#include "gpu/vk_check.h"
#include "engine/vulkan_context.h"

namespace weft {

WindowTarget::WindowTarget(VulkanContext& ctx, GLFWwindow* window, VkSurfaceKHR surface, bool vsync)
    : ctx_(ctx), window_(window), surface_(surface), vsync_(vsync) {
  uint32_t n = 0;
  WEFT_VK_CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(ctx.physical_device(), surface_, &n, nullptr));
  std::vector<VkSurfaceFormatKHR> formats(n);
  WEFT_VK_CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(ctx.physical_device(), surface_, &n, formats.data()));
  if (formats.empty()) throw std::runtime_error("weft: the window surface offers no formats");
  VkSurfaceFormatKHR chosen = formats[0];
  for (VkFormat want : {VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_R8G8B8A8_SRGB})
    for (const auto& f : formats)
      if (f.format == want && f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR && chosen.format != VK_FORMAT_B8G8R8A8_SRGB)
        chosen = f;
  format_ = chosen.format;
  color_space_ = chosen.colorSpace;

  VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool.queueFamilyIndex = ctx.queue_family();
  WEFT_VK_CHECK(vkCreateCommandPool(ctx.device(), &pool, nullptr, &pool_));
  slots_.resize(2);
  for (Slot& s : slots_) {
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = pool_;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    WEFT_VK_CHECK(vkAllocateCommandBuffers(ctx.device(), &alloc, &s.cmd));
    VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    fence.flags = VK_FENCE_CREATE_SIGNALED_BIT;
    WEFT_VK_CHECK(vkCreateFence(ctx.device(), &fence, nullptr, &s.done));
    VkSemaphoreCreateInfo sem{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    WEFT_VK_CHECK(vkCreateSemaphore(ctx.device(), &sem, nullptr, &s.acquired));
  }
}

WindowTarget::~WindowTarget() {
  VkDevice dev = ctx_.device();
  vkDeviceWaitIdle(dev);
  destroy_swapchain_views();
  if (swapchain_) vkDestroySwapchainKHR(dev, swapchain_, nullptr);
  for (Slot& s : slots_) {
    vkDestroyFence(dev, s.done, nullptr);
    vkDestroySemaphore(dev, s.acquired, nullptr);
  }
  if (pool_) vkDestroyCommandPool(dev, pool_, nullptr);
  vkDestroySurfaceKHR(ctx_.instance(), surface_, nullptr);
}

void WindowTarget::destroy_swapchain_views() {
  for (VkImageView v : views_) vkDestroyImageView(ctx_.device(), v, nullptr);
  for (VkSemaphore s : rendered_) vkDestroySemaphore(ctx_.device(), s, nullptr);
  views_.clear();
  rendered_.clear();
}

void WindowTarget::recreate() {
  VkDevice dev = ctx_.device();
  vkDeviceWaitIdle(dev);
  destroy_swapchain_views();
  VkSurfaceCapabilitiesKHR caps;
  WEFT_VK_CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(ctx_.physical_device(), surface_, &caps));
  int fw = 0, fh = 0;
  glfwGetFramebufferSize(window_, &fw, &fh);
  extent_ = caps.currentExtent;
  if (extent_.width == UINT32_MAX) {
    extent_.width = std::clamp(uint32_t(fw), caps.minImageExtent.width, caps.maxImageExtent.width);
    extent_.height = std::clamp(uint32_t(fh), caps.minImageExtent.height, caps.maxImageExtent.height);
  }
  if (extent_.width == 0 || extent_.height == 0) return;  // minimised: stay stale

  VkPresentModeKHR mode = VK_PRESENT_MODE_FIFO_KHR;  // always available
  if (!vsync_) {
    uint32_t n = 0;
    WEFT_VK_CHECK(vkGetPhysicalDeviceSurfacePresentModesKHR(ctx_.physical_device(), surface_, &n, nullptr));
    std::vector<VkPresentModeKHR> modes(n);
    WEFT_VK_CHECK(vkGetPhysicalDeviceSurfacePresentModesKHR(ctx_.physical_device(), surface_, &n, modes.data()));
    for (VkPresentModeKHR m : {VK_PRESENT_MODE_MAILBOX_KHR, VK_PRESENT_MODE_IMMEDIATE_KHR})
      if (mode == VK_PRESENT_MODE_FIFO_KHR && std::find(modes.begin(), modes.end(), m) != modes.end()) mode = m;
  }
  uint32_t count = std::max(caps.minImageCount + 1, 3u);
  if (caps.maxImageCount > 0) count = std::min(count, caps.maxImageCount);

  VkSwapchainCreateInfoKHR info{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
  info.surface = surface_;
  info.minImageCount = count;
  info.imageFormat = format_;
  info.imageColorSpace = color_space_;
  info.imageExtent = extent_;
  info.imageArrayLayers = 1;
  info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.preTransform = caps.currentTransform;
  info.compositeAlpha = (caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR)
                            ? VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR
                            : VkCompositeAlphaFlagBitsKHR(caps.supportedCompositeAlpha & -caps.supportedCompositeAlpha);
  info.presentMode = mode;
  info.clipped = VK_TRUE;
  info.oldSwapchain = swapchain_;
  VkSwapchainKHR fresh;
  WEFT_VK_CHECK(vkCreateSwapchainKHR(dev, &info, nullptr, &fresh));
  if (swapchain_) vkDestroySwapchainKHR(dev, swapchain_, nullptr);
  swapchain_ = fresh;

  uint32_t n = 0;
  WEFT_VK_CHECK(vkGetSwapchainImagesKHR(dev, swapchain_, &n, nullptr));
  images_.resize(n);
  WEFT_VK_CHECK(vkGetSwapchainImagesKHR(dev, swapchain_, &n, images_.data()));
  for (VkImage img : images_) {
    VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    view.image = img;
    view.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view.format = format_;
    view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageView v;
    WEFT_VK_CHECK(vkCreateImageView(dev, &view, nullptr, &v));
    views_.push_back(v);
    VkSemaphoreCreateInfo sem{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    VkSemaphore s;
    WEFT_VK_CHECK(vkCreateSemaphore(dev, &sem, nullptr, &s));
    rendered_.push_back(s);
  }
  stale_ = false;
}

bool WindowTarget::draw(Renderer& renderer, const ClothSnapshot& snapshot,
                        const std::function<RenderView(VkExtent2D)>& make_view, const RenderSettings& settings) {
  int fw = 0, fh = 0;
  glfwGetFramebufferSize(window_, &fw, &fh);
  if (fw == 0 || fh == 0) return false;  // minimised
  if (uint32_t(fw) != extent_.width || uint32_t(fh) != extent_.height) stale_ = true;
  if (stale_) recreate();
  if (stale_) return false;

  VkDevice dev = ctx_.device();
  Slot& s = slots_[slot_];
  WEFT_VK_CHECK(vkWaitForFences(dev, 1, &s.done, VK_TRUE, UINT64_MAX));
  uint32_t image = 0;
  VkResult r = vkAcquireNextImageKHR(dev, swapchain_, UINT64_MAX, s.acquired, VK_NULL_HANDLE, &image);
  if (r == VK_ERROR_OUT_OF_DATE_KHR) {
    stale_ = true;
    return false;
  }
  if (r != VK_SUBOPTIMAL_KHR) WEFT_VK_CHECK(r);
  WEFT_VK_CHECK(vkResetFences(dev, 1, &s.done));

  const uint32_t render_slot = slot_ % renderer.frames_in_flight();
  renderer.upload(render_slot, snapshot);  // this slot's previous frame is done (fence above)
  WEFT_VK_CHECK(vkResetCommandBuffer(s.cmd, 0));
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  WEFT_VK_CHECK(vkBeginCommandBuffer(s.cmd, &begin));
  TargetImage target;
  target.image = images_[image];
  target.view = views_[image];
  target.extent = extent_;
  target.initial_layout = VK_IMAGE_LAYOUT_UNDEFINED;
  target.final_layout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
  renderer.record(s.cmd, render_slot, target, make_view(extent_), settings);
  WEFT_VK_CHECK(vkEndCommandBuffer(s.cmd));

  const VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.waitSemaphoreCount = 1;
  submit.pWaitSemaphores = &s.acquired;
  submit.pWaitDstStageMask = &wait_stage;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &s.cmd;
  submit.signalSemaphoreCount = 1;
  submit.pSignalSemaphores = &rendered_[image];
  WEFT_VK_CHECK(vkQueueSubmit(ctx_.queue(), 1, &submit, s.done));

  VkPresentInfoKHR present{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
  present.waitSemaphoreCount = 1;
  present.pWaitSemaphores = &rendered_[image];
  present.swapchainCount = 1;
  present.pSwapchains = &swapchain_;
  present.pImageIndices = &image;
  r = vkQueuePresentKHR(ctx_.queue(), &present);
  if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR) stale_ = true;
  else WEFT_VK_CHECK(r);
  slot_ = (slot_ + 1) % uint32_t(slots_.size());
  return true;
}

}  // namespace weft
