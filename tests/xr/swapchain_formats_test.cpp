#include <doctest/doctest.h>

#include "xr/swapchain_formats.h"

using namespace weft::xr;

TEST_CASE("colour format: sRGB 8-bit first, then UNORM, else the runtime's first") {
  CHECK(pick_color_format({VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_B8G8R8A8_SRGB}) ==
        VK_FORMAT_B8G8R8A8_SRGB);
  CHECK(pick_color_format({VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_R8G8B8A8_SRGB}) == VK_FORMAT_R8G8B8A8_SRGB);
  CHECK(pick_color_format({VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R8G8B8A8_UNORM}) == VK_FORMAT_R8G8B8A8_UNORM);
  CHECK(pick_color_format({VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_A2B10G10R10_UNORM_PACK32}) ==
        VK_FORMAT_R16G16B16A16_SFLOAT);
  CHECK(pick_color_format({}) == VK_FORMAT_UNDEFINED);
}

TEST_CASE("depth format: the renderer's best that the runtime offers and the device can use") {
  const std::vector<VkFormat> wanted = {VK_FORMAT_D32_SFLOAT, VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D16_UNORM};
  const std::vector<int64_t> offered = {VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_D16_UNORM, VK_FORMAT_D24_UNORM_S8_UINT,
                                        VK_FORMAT_D32_SFLOAT};
  CHECK(pick_depth_format(offered, wanted, nullptr) == VK_FORMAT_D32_SFLOAT);
  CHECK(pick_depth_format(offered, wanted, [](VkFormat f) { return f != VK_FORMAT_D32_SFLOAT; }) ==
        VK_FORMAT_D16_UNORM);
  // Stencil formats are not in the renderer's list: no depth swapchain rather than a wrong one.
  CHECK(pick_depth_format({VK_FORMAT_D24_UNORM_S8_UINT}, wanted, nullptr) == VK_FORMAT_UNDEFINED);
  CHECK(pick_depth_format(offered, {}, nullptr) == VK_FORMAT_UNDEFINED);
}
