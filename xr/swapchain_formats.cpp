#include "xr/swapchain_formats.h"

namespace weft::xr {

namespace {
bool offers(const std::vector<int64_t>& offered, VkFormat f) {
  for (int64_t o : offered)
    if (o == int64_t(f)) return true;
  return false;
}
}  // namespace

VkFormat pick_color_format(const std::vector<int64_t>& offered) {
  for (VkFormat want : {VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_R8G8B8A8_UNORM,
                        VK_FORMAT_B8G8R8A8_UNORM})
    if (offers(offered, want)) return want;
  return offered.empty() ? VK_FORMAT_UNDEFINED : VkFormat(offered.front());
}

VkFormat pick_depth_format(const std::vector<int64_t>& offered, const std::vector<VkFormat>& wanted,
                           const std::function<bool(VkFormat)>& usable) {
  for (VkFormat f : wanted)
    if (offers(offered, f) && (!usable || usable(f))) return f;
  return VK_FORMAT_UNDEFINED;
}

}  // namespace weft::xr
