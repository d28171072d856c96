#pragma once
// The Vulkan instance, device and graphics queue every render target shares. Extension lists, the
// physical device and instance/device creation can be supplied from outside, so an OpenXR runtime
// (XR_KHR_vulkan_enable2: xrCreateVulkanInstanceKHR, xrGetVulkanGraphicsDevice2KHR,
// xrCreateVulkanDeviceKHR) can own those choices while Weft keeps the rest.
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

namespace weft {

struct VulkanContextOptions {
  bool validation = false;                      // VK_LAYER_KHRONOS_validation + an error-counting messenger
  std::vector<std::string> instance_extensions; // beyond what Weft needs (GLFW's surface extensions, XR's)
  std::vector<std::string> device_extensions;   // beyond what Weft needs (VK_KHR_swapchain is added for windows)
  // Optional hooks; when empty, Weft calls vkCreateInstance / picks the best GPU / vkCreateDevice itself.
  std::function<VkInstance(const VkInstanceCreateInfo&)> create_instance;
  std::function<VkPhysicalDevice(VkInstance)> choose_physical_device;
  std::function<VkDevice(VkPhysicalDevice, const VkDeviceCreateInfo&)> create_device;
};

// True when validation was asked for by the option or by the environment (WEFT_VALIDATION=1).
bool validation_requested(bool option);
// True when VK_LAYER_KHRONOS_validation is installed.
bool validation_layer_available();

class VulkanContext {
 public:
  // Creates the instance (and the debug messenger when validation is on).
  explicit VulkanContext(const VulkanContextOptions& options);
  ~VulkanContext();
  VulkanContext(const VulkanContext&) = delete;
  VulkanContext& operator=(const VulkanContext&) = delete;

  // Picks the GPU and creates the device; with a surface, the queue must also present to it and the
  // swapchain extension is enabled. Needs Vulkan 1.3 (dynamic rendering, synchronization2).
  void create_device(VkSurfaceKHR present_surface = VK_NULL_HANDLE);

  VkInstance instance() const { return instance_; }
  VkPhysicalDevice physical_device() const { return physical_device_; }
  VkDevice device() const { return device_; }
  VkQueue queue() const { return queue_; }
  uint32_t queue_family() const { return queue_family_; }
  const std::string& device_name() const { return device_name_; }
  bool validation_enabled() const { return messenger_ != VK_NULL_HANDLE; }
  uint64_t validation_errors() const { return errors_.load(); }
  uint64_t validation_warnings() const { return warnings_.load(); }

  // Index of a memory type allowed by type_bits with all the wanted properties; throws when none.
  uint32_t find_memory_type(uint32_t type_bits, VkMemoryPropertyFlags wanted) const;

  // Records commands into a one-time command buffer, submits them and waits (set-up only).
  void run_once(const std::function<void(VkCommandBuffer)>& record);

 private:
  static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                   VkDebugUtilsMessageTypeFlagsEXT type,
                                                   const VkDebugUtilsMessengerCallbackDataEXT* data, void* user);

  VulkanContextOptions options_;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t queue_family_ = 0;
  VkCommandPool setup_pool_ = VK_NULL_HANDLE;
  std::string device_name_;
  std::atomic<uint64_t> errors_{0};
  std::atomic<uint64_t> warnings_{0};
};

}  // namespace weft
