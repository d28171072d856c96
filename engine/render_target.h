#pragma once
// What the renderer draws into, per frame: one colour image it does not own (an offscreen image, a
// swapchain image, or an OpenXR swapchain image), with the layouts it arrives in and must leave in,
// and optionally a depth image it does not own either (an OpenXR depth swapchain image).
#include <vulkan/vulkan.h>

namespace weft {

struct TargetImage {
  VkImage image = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
  VkExtent2D extent{0, 0};
  VkImageLayout initial_layout = VK_IMAGE_LAYOUT_UNDEFINED;  // UNDEFINED: previous contents discarded
  // PRESENT_SRC_KHR (window), TRANSFER_SRC_OPTIMAL (read back), COLOR_ATTACHMENT_OPTIMAL (OpenXR)
  VkImageLayout final_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  // Null: the renderer's own depth buffer (contents discarded). Otherwise an image in the renderer's
  // depth format, cleared, written, stored (a compositor reads it for reprojection) and left in
  // DEPTH_STENCIL_ATTACHMENT_OPTIMAL, the layout OpenXR expects of depth swapchain images.
  VkImage depth_image = VK_NULL_HANDLE;
  VkImageView depth_view = VK_NULL_HANDLE;
};

}  // namespace weft
