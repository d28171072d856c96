#pragma once
// What the renderer draws into, per frame: one colour image it does not own (an offscreen image, a
// swapchain image, or an OpenXR swapchain image), with the layouts it arrives in and must leave in.
#include <vulkan/vulkan.h>

namespace weft {

struct TargetImage {
  VkImage image = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
  VkExtent2D extent{0, 0};
  VkImageLayout initial_layout = VK_IMAGE_LAYOUT_UNDEFINED;  // UNDEFINED: previous contents discarded
  // PRESENT_SRC_KHR (window), TRANSFER_SRC_OPTIMAL (read back), COLOR_ATTACHMENT_OPTIMAL (OpenXR)
  VkImageLayout final_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
};

}  // namespace weft
