#include "engine/png_writer.h"

#include <stdexcept>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

namespace weft {

void write_png(const std::string& path, const std::vector<uint8_t>& rgba, uint32_t width, uint32_t height) {
  if (rgba.size() < size_t(width) * height * 4) throw std::invalid_argument("weft: too few pixels for " + path);
  if (!stbi_write_png(path.c_str(), int(width), int(height), 4, rgba.data(), int(width * 4)))
    throw std::runtime_error("weft: cannot write PNG " + path);
}

std::vector<uint8_t> downsample_rgba(const std::vector<uint8_t>& rgba, uint32_t width, uint32_t height, uint32_t factor) {
  const uint32_t w = width / factor, h = height / factor;
  std::vector<uint8_t> out(size_t(w) * h * 4);
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x)
      for (uint32_t c = 0; c < 4; ++c) {
        uint32_t sum = 0;
        for (uint32_t dy = 0; dy < factor; ++dy)
          for (uint32_t dx = 0; dx < factor; ++dx)
            sum += rgba[((size_t(y) * factor + dy) * width + x * factor + dx) * 4 + c];
        out[(size_t(y) * w + x) * 4 + c] = uint8_t(sum / (factor * factor));
      }
  return out;
}

}  // namespace weft
