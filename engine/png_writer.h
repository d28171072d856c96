#pragma once
// Writes RGBA8 pixels as PNG (stb_image_write).
#include <cstdint>
#include <string>
#include <vector>

namespace weft {

// Throws std::runtime_error naming the path when the file cannot be written.
void write_png(const std::string& path, const std::vector<uint8_t>& rgba, uint32_t width, uint32_t height);

// Box-filters RGBA8 pixels down by an integer factor (screenshots for docs).
std::vector<uint8_t> downsample_rgba(const std::vector<uint8_t>& rgba, uint32_t width, uint32_t height, uint32_t factor);

}  // namespace weft
