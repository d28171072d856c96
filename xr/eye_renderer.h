#pragma once
// The seam between the XR session and the renderer: the session creates the Vulkan instance and
// device through the runtime (XR_KHR_vulkan_enable2) and hands them over once; each frame it hands
// each eye's swapchain image with the eye's view and projection. The image arrives in
// VK_IMAGE_LAYOUT_UNDEFINED and must be left in VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, rendered
// and submitted, before render_eye returns (the session then releases it to the compositor).
#include <cstdint>

#include <glm/glm.hpp>
#include <vulkan/vulkan.h>

namespace weft::xr {

struct XrVulkanContext {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  uint32_t queue_family = 0;  // graphics queue family
  VkQueue queue = VK_NULL_HANDLE;
};

struct XrEyeRenderer {
  virtual ~XrEyeRenderer() = default;
  // Once, after the runtime created the device; before any render_eye.
  virtual void attach(const XrVulkanContext& context) = 0;
  // eye 0 left, 1 right. view: eye from world (stage); proj: Vulkan clip from eye (vulkan_projection).
  virtual void render_eye(int eye, VkImage image, VkFormat format, VkExtent2D extent, const glm::mat4& view,
                          const glm::mat4& proj) = 0;
  // Before the device is destroyed: wait for and free what attach created.
  virtual void detach() = 0;
};

// Stand-in until the desktop renderer is connected: clears each eye to a solid colour.
class ClearEyeRenderer final : public XrEyeRenderer {
 public:
  explicit ClearEyeRenderer(glm::vec4 left = {0.10f, 0.12f, 0.16f, 1.f}, glm::vec4 right = {0.10f, 0.12f, 0.16f, 1.f})
      : colour_{left, right} {}
  ~ClearEyeRenderer() override { detach(); }
  void attach(const XrVulkanContext& context) override;
  void render_eye(int eye, VkImage image, VkFormat format, VkExtent2D extent, const glm::mat4& view,
                  const glm::mat4& proj) override;
  void detach() override;
  uint64_t eyes_rendered() const { return eyes_; }

 private:
  glm::vec4 colour_[2];
  XrVulkanContext ctx_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  uint64_t eyes_ = 0;
};

}  // namespace weft::xr
