#pragma once
// The seam between the XR session and the renderer. The session creates the Vulkan instance and
// device through the runtime (XR_KHR_vulkan_enable2, via VulkanContext's hooks) and the per-eye
// swapchains, then hands both over once (attach). Each frame it acquires one colour (and depth)
// image per eye and calls render with the eyes' views at the predicted display time; render must
// have submitted all its work on the context's queue before it returns (the session then releases
// the images to the compositor). Images arrive with undefined contents and must be left in
// COLOR_ATTACHMENT_OPTIMAL (colour) and DEPTH_STENCIL_ATTACHMENT_OPTIMAL (depth).
#include <array>
#include <cstdint>
#include <vector>

#include <vulkan/vulkan.h>

#include "engine/camera.h"

namespace weft {
class VulkanContext;
}

namespace weft::xr {

// One eye's swapchain images, as enumerated (the frame gives indices into them).
struct XrEyeImages {
  VkExtent2D extent{0, 0};
  std::vector<VkImage> color;
  std::vector<VkImage> depth;  // empty: the runtime takes no depth (the renderer keeps its own)
};

struct XrEyeTargets {
  VkFormat color_format = VK_FORMAT_UNDEFINED;
  VkFormat depth_format = VK_FORMAT_UNDEFINED;  // UNDEFINED when there are no depth swapchains
  std::array<XrEyeImages, 2> eyes;              // left, right
};

// One eye in one frame.
struct XrEyeFrame {
  uint32_t color_index = 0;  // into XrEyeImages::color
  uint32_t depth_index = 0;  // into XrEyeImages::depth (when it has any)
  RenderView view;           // eye from stage, Vulkan clip from eye, eye position
};

struct XrEyeRenderer {
  virtual ~XrEyeRenderer() = default;
  // Depth formats this renderer can draw into, best first; the session makes depth swapchains in
  // the first one the runtime offers (none: no depth swapchains).
  virtual std::vector<VkFormat> depth_formats() const { return {}; }
  // Once, after the swapchains exist; before any render. ctx outlives the renderer's use of it.
  virtual void attach(VulkanContext& ctx, const XrEyeTargets& targets) = 0;
  // time_s: the predicted display time on the sim clock (what the eyes should show).
  virtual void render(double time_s, const std::array<XrEyeFrame, 2>& eyes) = 0;
  // Before the swapchains and the device are destroyed: wait for and free what attach created.
  virtual void detach() = 0;
};

}  // namespace weft::xr
