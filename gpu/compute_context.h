#pragma once
// The Vulkan devices that can run the GPU step, and one of them opened for compute: instance (with the
// validation layer when asked, its messages counted), device, one compute queue and a command pool.
#include <cstdint>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

namespace weft {

struct ComputeDeviceInfo {
  uint32_t index = 0;          // in vkEnumeratePhysicalDevices' order
  std::string name;            // VkPhysicalDeviceProperties::deviceName
  VkPhysicalDeviceType type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
  bool is_cpu() const { return type == VK_PHYSICAL_DEVICE_TYPE_CPU; }  // lavapipe, SwiftShader
  bool is_gpu() const {
    return type == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU || type == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU;
  }
};

// Every device with a compute queue, best first (discrete, integrated, virtual, CPU). Empty, never a throw,
// when there is no loader, no driver or no device: `why` then says which.
std::vector<ComputeDeviceInfo> list_compute_devices(std::string* why = nullptr);

class ComputeContext {
 public:
  // Opens device `index` of list_compute_devices (its `index`). validation: VK_LAYER_KHRONOS_validation
  // with every warning and error counted (throws when the layer is not installed). Throws VulkanError.
  ComputeContext(uint32_t index, bool validation);
  ~ComputeContext();
  ComputeContext(const ComputeContext&) = delete;
  ComputeContext& operator=(const ComputeContext&) = delete;

  // The process's instance for this layer set, shared by every context (compute_context.cpp says why).
  VkInstance instance() const { return instance_; }
  VkDevice device() const { return device_; }
  VkPhysicalDevice physical() const { return physical_; }
  VkQueue queue() const { return queue_; }
  VkCommandPool pool() const { return pool_; }
  const std::string& name() const { return name_; }
  // ns per timestamp tick; 0 when the queue has no timestamps.
  double timestamp_period_ns() const { return timestamp_ns_; }
  // A memory type with these properties among `bits` (throws when none).
  uint32_t memory_type(uint32_t bits, VkMemoryPropertyFlags wanted) const;
  // Validation messages (warnings and errors) so far, and the first one's text.
  uint64_t validation_messages() const { return messages_; }
  const std::string& first_validation_message() const { return first_message_; }

 private:
  void open(uint32_t index);  // the device, its queue and pool
  void release();             // what this context made, not the shared instance
  static VkBool32 VKAPI_PTR on_message(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                                       const VkDebugUtilsMessengerCallbackDataEXT* data, void* self);
  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  uint32_t family_ = 0;
  std::string name_;
  double timestamp_ns_ = 0;
  VkPhysicalDeviceMemoryProperties memory_{};
  uint64_t messages_ = 0;
  std::string first_message_;
};

}  // namespace weft
