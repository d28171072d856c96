#pragma once
// A GLFW window's swapchain as a render target: acquire, draw, present, with two frames in flight,
// recreation on resize or VK_ERROR_OUT_OF_DATE_KHR, and nothing drawn while minimised.
#include <functional>
#include <vector>

#include <vulkan/vulkan.h>

#include "engine/renderer.h"

struct GLFWwindow;

namespace weft {

class WindowTarget {
 public:
  // Takes ownership of surface (made by glfwCreateWindowSurface on ctx's instance).
  WindowTarget(VulkanContext& ctx, GLFWwindow* window, VkSurfaceKHR surface, bool vsync = true);
  ~WindowTarget();
  WindowTarget(const WindowTarget&) = delete;
  WindowTarget& operator=(const WindowTarget&) = delete;

  VkFormat format() const { return format_; }
  VkExtent2D extent() const { return extent_; }
  uint32_t frames_in_flight() const { return uint32_t(slots_.size()); }

  // Draws one frame. make_view gets the current extent. Returns false when nothing was presented
  // (window minimised or swapchain just recreated).
  bool draw(Renderer& renderer, const ClothSnapshot& snapshot, const std::function<RenderView(VkExtent2D)>& make_view,
            const RenderSettings& settings);

 private:
  struct Slot {
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkFence done = VK_NULL_HANDLE;          // signalled when the GPU finished this slot's last frame
    VkSemaphore acquired = VK_NULL_HANDLE;  // the swapchain image is ready to be drawn
  };
  void recreate();
  void destroy_swapchain_views();

  VulkanContext& ctx_;
  GLFWwindow* window_;
  VkSurfaceKHR surface_;
  bool vsync_;
  VkFormat format_ = VK_FORMAT_UNDEFINED;
  VkColorSpaceKHR color_space_ = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
  VkSwapchainKHR swapchain_ = VK_NULL_HANDLE;
  VkExtent2D extent_{0, 0};
  std::vector<VkImage> images_;
  std::vector<VkImageView> views_;
  std::vector<VkSemaphore> rendered_;  // per swapchain image: drawing finished, may present
  VkCommandPool pool_ = VK_NULL_HANDLE;
  std::vector<Slot> slots_;
  uint32_t slot_ = 0;
  bool stale_ = true;  // the swapchain must be (re)made before the next frame
};

}  // namespace weft
