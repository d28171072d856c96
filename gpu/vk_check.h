#pragma once
// Shared by the renderer (engine/) and the GPU step (gpu/), which the engine links.
// Every VkResult goes through WEFT_VK_CHECK, which throws a VulkanError naming the call, the result
// and file:line, so a failure deep in the renderer reads as one precise line.
#include <stdexcept>
#include <string>

#include <vulkan/vulkan.h>

namespace weft {

class VulkanError : public std::runtime_error {
 public:
  VulkanError(VkResult result, const std::string& message) : std::runtime_error(message), result_(result) {}
  VkResult result() const { return result_; }

 private:
  VkResult result_;
};

const char* vk_result_name(VkResult result);
[[noreturn]] void throw_vk_error(VkResult result, const char* expression, const char* file, int line);

// Preference among Vulkan devices, lower first: discrete, integrated, virtual, CPU (lavapipe), other.
int device_type_rank(VkPhysicalDeviceType type);

// The validation layer's messenger both contexts install: warnings and errors of every type, to `callback`.
VkDebugUtilsMessengerCreateInfoEXT debug_messenger_info(PFN_vkDebugUtilsMessengerCallbackEXT callback, void* user);
// Creates it on `instance` (throws when the extension's entry point is missing); destroy_ takes a null one.
VkDebugUtilsMessengerEXT create_debug_messenger(VkInstance instance, const VkDebugUtilsMessengerCreateInfoEXT& info);
void destroy_debug_messenger(VkInstance instance, VkDebugUtilsMessengerEXT messenger);

}  // namespace weft

#define WEFT_VK_CHECK(expr)                                                            \
  do {                                                                                 \
    const VkResult weft_vk_result_ = (expr);                                           \
    if (weft_vk_result_ < 0) ::weft::throw_vk_error(weft_vk_result_, #expr, __FILE__, __LINE__); \
  } while (0)
