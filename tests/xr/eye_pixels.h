#pragma once
// Reading eye captures in tests: RGBA8 pixels, top row first. The strain view paints unstretched
// cloth green, a colour nothing else in the scene has.
#include <cstdint>
#include <vector>

#include <vulkan/vulkan.h>

namespace weft::test {

struct Rgb {
  int r, g, b;
};
inline Rgb eye_pixel(const std::vector<uint8_t>& px, VkExtent2D extent, int x, int y) {
  const size_t i = (size_t(y) * extent.width + size_t(x)) * 4;
  return {px[i], px[i + 1], px[i + 2]};
}
inline bool is_cloth_green(Rgb c) { return c.g > c.r + 40 && c.g > c.b + 40; }
// The renderer's sky, RenderSettings::clear_color (0.70, 0.74, 0.80) stored sRGB: about (219, 224, 231).
inline bool is_sky(Rgb c) { return c.r > 200 && c.r < c.g && c.g < c.b && c.b < 245; }
inline int count_cloth_green(const std::vector<uint8_t>& px, VkExtent2D extent) {
  int n = 0;
  for (int y = 0; y < int(extent.height); ++y)
    for (int x = 0; x < int(extent.width); ++x) n += is_cloth_green(eye_pixel(px, extent, x, y));
  return n;
}

}  // namespace weft::test
