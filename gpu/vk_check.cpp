#include "gpu/vk_check.h"

namespace weft {

const char* vk_result_name(VkResult result) {
  switch (result) {
#define WEFT_CASE(r) case r: return #r;
    WEFT_CASE(VK_SUCCESS) WEFT_CASE(VK_NOT_READY) WEFT_CASE(VK_TIMEOUT) WEFT_CASE(VK_INCOMPLETE)
    WEFT_CASE(VK_SUBOPTIMAL_KHR) WEFT_CASE(VK_ERROR_OUT_OF_HOST_MEMORY) WEFT_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    WEFT_CASE(VK_ERROR_INITIALIZATION_FAILED) WEFT_CASE(VK_ERROR_DEVICE_LOST) WEFT_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    WEFT_CASE(VK_ERROR_LAYER_NOT_PRESENT) WEFT_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    WEFT_CASE(VK_ERROR_FEATURE_NOT_PRESENT) WEFT_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    WEFT_CASE(VK_ERROR_TOO_MANY_OBJECTS) WEFT_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    WEFT_CASE(VK_ERROR_SURFACE_LOST_KHR) WEFT_CASE(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR)
    WEFT_CASE(VK_ERROR_OUT_OF_DATE_KHR)
#undef WEFT_CASE
    default: return "VkResult(unknown)";
  }
}

void throw_vk_error(VkResult result, const char* expression, const char* file, int line) {
  throw VulkanError(result, std::string(file) + ":" + std::to_string(line) + ": " + expression + " failed with " +
                                vk_result_name(result));
}

int device_type_rank(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
    default: return 4;
  }
}

VkDebugUtilsMessengerCreateInfoEXT debug_messenger_info(PFN_vkDebugUtilsMessengerCallbackEXT callback, void* user) {
  VkDebugUtilsMessengerCreateInfoEXT m{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  m.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  m.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                  VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  m.pfnUserCallback = callback;
  m.pUserData = user;
  return m;
}

VkDebugUtilsMessengerEXT create_debug_messenger(VkInstance instance, const VkDebugUtilsMessengerCreateInfoEXT& info) {
  auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
  if (!create) throw std::runtime_error("weft: vkCreateDebugUtilsMessengerEXT is missing");
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  WEFT_VK_CHECK(create(instance, &info, nullptr, &messenger));
  return messenger;
}

void destroy_debug_messenger(VkInstance instance, VkDebugUtilsMessengerEXT messenger) {
  if (!messenger) return;
  auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
  if (destroy) destroy(instance, messenger, nullptr);
}

}  // namespace weft
