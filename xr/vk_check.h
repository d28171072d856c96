#pragma once
// VkResult failures inside the XR layer become exceptions naming the call and file:line.
#include <stdexcept>
#include <string>

#include <vulkan/vulkan.h>

namespace weft::xr {
inline VkResult check_vk(VkResult r, const char* expression, const char* file, int line) {
  if (r < 0)
    throw std::runtime_error("VkResult " + std::to_string(int(r)) + " from " + expression + " at " + file + ":" +
                             std::to_string(line));
  return r;
}
}  // namespace weft::xr

#define XR_VK_CHECK(expr) ::weft::xr::check_vk((expr), #expr, __FILE__, __LINE__)

namespace weft::xr {
// A zeroed Vulkan struct with its sType set.
template <typename T>
T vk_struct(VkStructureType type) {
  T t{};
  t.sType = type;
  return t;
}
}  // namespace weft::xr
