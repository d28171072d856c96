#pragma once
// Headless rendering: an owned colour image the renderer draws into, read back to CPU memory after
// every frame (tests, `weft run --mode headless`, screenshots). Works with no display (lavapipe).
#include <cstdint>
#include <vector>

#include <vulkan/vulkan.h>

#include "engine/gpu_resources.h"
#include "engine/renderer.h"

namespace weft {

class OffscreenTarget {
 public:
  // sRGB RGBA8, so the shaders write linear colour and the read-back bytes are display-ready.
  static constexpr VkFormat kFormat = VK_FORMAT_R8G8B8A8_SRGB;

  OffscreenTarget(VulkanContext& ctx, VkExtent2D extent);
  ~OffscreenTarget();
  OffscreenTarget(const OffscreenTarget&) = delete;
  OffscreenTarget& operator=(const OffscreenTarget&) = delete;

  // Uploads the snapshot, draws it, waits for the GPU and returns the pixels: RGBA8, rows top to
  // bottom, width * height * 4 bytes (valid until the next call).
  const std::vector<uint8_t>& render(Renderer& renderer, const ClothSnapshot& snapshot, const RenderView& view,
                                     const RenderSettings& settings);

  VkExtent2D extent() const { return extent_; }
  const std::vector<uint8_t>& pixels() const { return pixels_; }

 private:
  VulkanContext& ctx_;
  VkExtent2D extent_;
  GpuImage color_;
  HostBuffer readback_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  uint32_t slot_ = 0;
  std::vector<uint8_t> pixels_;
};

}  // namespace weft
