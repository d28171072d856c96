#pragma once
// Choosing swapchain formats among those the runtime offers (xrEnumerateSwapchainFormats gives
// them in its order of preference, as int64 Vulkan formats).
#include <cstdint>
#include <functional>
#include <vector>

#include <vulkan/vulkan.h>

namespace weft::xr {

// Colour: sRGB 8-bit first (the shaders write linear colour), then UNORM 8-bit, else the runtime's
// first choice. VK_FORMAT_UNDEFINED when nothing is offered.
VkFormat pick_color_format(const std::vector<int64_t>& offered);

// Depth: the first of `wanted` (best first) that the runtime offers and `usable` accepts;
// VK_FORMAT_UNDEFINED when none (then no depth swapchains are made).
VkFormat pick_depth_format(const std::vector<int64_t>& offered, const std::vector<VkFormat>& wanted,
                           const std::function<bool(VkFormat)>& usable);

}  // namespace weft::xr
