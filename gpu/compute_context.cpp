#include "gpu/compute_context.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <stdexcept>

#include "gpu/vk_check.h"

namespace weft {
namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

VkResult make_instance(const std::vector<const char*>& layers, const std::vector<const char*>& extensions,
                       VkInstance& out) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "weft";
  app.pEngineName = "weft gpu step";
  app.apiVersion = VK_API_VERSION_1_2;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  info.enabledLayerCount = uint32_t(layers.size());
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = uint32_t(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  return vkCreateInstance(&info, nullptr, &out);
}

int compute_family(VkPhysicalDevice d) {
  uint32_t n = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(d, &n, nullptr);
  std::vector<VkQueueFamilyProperties> families(n);
  vkGetPhysicalDeviceQueueFamilyProperties(d, &n, families.data());
  for (uint32_t f = 0; f < n; ++f)
    if (families[f].queueFlags & VK_QUEUE_COMPUTE_BIT) return int(f);
  return -1;
}

std::vector<VkPhysicalDevice> physical_devices(VkInstance instance) {
  uint32_t n = 0;
  WEFT_VK_CHECK(vkEnumeratePhysicalDevices(instance, &n, nullptr));
  std::vector<VkPhysicalDevice> out(n);
  WEFT_VK_CHECK(vkEnumeratePhysicalDevices(instance, &n, out.data()));
  return out;
}

// One instance per process and layer set, made on first use and destroyed at exit: on an H100 (driver
// 580.159.04) the NVIDIA driver refused new instances (VK_ERROR_INCOMPATIBLE_DRIVER) after a few dozen had
// been made and destroyed in one process (gpu_tests, 10 test cases in), so a process makes each once. An
// instance is safe to share between threads for what the contexts do with it (enumerate, create devices);
// the messengers, which are not, are made and destroyed under the same lock.
struct SharedInstance {
  VkInstance instance = VK_NULL_HANDLE;
  ~SharedInstance() {
    if (instance) vkDestroyInstance(instance, nullptr);
  }
};

std::mutex& instance_mutex() {
  static std::mutex m;
  return m;
}

VkResult shared_instance(bool validation, VkInstance& out) {
  const std::lock_guard<std::mutex> lock(instance_mutex());
  static SharedInstance plain, validated;
  SharedInstance& s = validation ? validated : plain;
  if (!s.instance) {
    std::vector<const char*> layers, extensions;
    if (validation) {
      layers.push_back(kValidationLayer);
      extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    }
    if (const VkResult r = make_instance(layers, extensions, s.instance); r != VK_SUCCESS) {
      s.instance = VK_NULL_HANDLE;
      return r;
    }
  }
  out = s.instance;
  return VK_SUCCESS;
}

}  // namespace

std::vector<ComputeDeviceInfo> list_compute_devices(std::string* why) {
  std::vector<ComputeDeviceInfo> out;
  VkInstance instance = VK_NULL_HANDLE;
  if (const VkResult r = shared_instance(false, instance); r != VK_SUCCESS) {
    if (why) *why = std::string("no Vulkan instance (") + vk_result_name(r) + ")";
    return out;
  }
  try {
    const auto devices = physical_devices(instance);
    for (uint32_t i = 0; i < devices.size(); ++i) {
      if (compute_family(devices[i]) < 0) continue;
      VkPhysicalDeviceProperties p;
      vkGetPhysicalDeviceProperties(devices[i], &p);
      out.push_back({i, p.deviceName, p.deviceType});
    }
  } catch (const VulkanError& e) {
    if (why) *why = e.what();
  }
  std::stable_sort(out.begin(), out.end(), [](const ComputeDeviceInfo& a, const ComputeDeviceInfo& b) {
    return device_type_rank(a.type) < device_type_rank(b.type);
  });
  if (out.empty() && why && why->empty()) *why = "no Vulkan device with a compute queue";
  return out;
}

ComputeContext::ComputeContext(uint32_t index, bool validation) {
  if (validation) {
    uint32_t n = 0;
    vkEnumerateInstanceLayerProperties(&n, nullptr);
    std::vector<VkLayerProperties> props(n);
    vkEnumerateInstanceLayerProperties(&n, props.data());
    const bool found = std::any_of(props.begin(), props.end(),
                                   [](const VkLayerProperties& p) { return std::strcmp(p.layerName, kValidationLayer) == 0; });
    if (!found) throw std::runtime_error(std::string("GPU step: validation asked for but ") + kValidationLayer + " is not installed");
  }
  WEFT_VK_CHECK(shared_instance(validation, instance_));
  if (validation) {
    const std::lock_guard<std::mutex> lock(instance_mutex());
    messenger_ = create_debug_messenger(instance_, debug_messenger_info(&ComputeContext::on_message, this));
  }
  // The instance outlives this context: what a failed open made (the messenger, whose callback points here)
  // must not.
  try {
    open(index);
  } catch (...) {
    release();
    throw;
  }
}

void ComputeContext::open(uint32_t index) {
  const auto devices = physical_devices(instance_);
  if (index >= devices.size()) throw std::runtime_error("GPU step: no Vulkan device " + std::to_string(index));
  physical_ = devices[index];
  const int family = compute_family(physical_);
  if (family < 0) throw std::runtime_error("GPU step: the device has no compute queue");
  family_ = uint32_t(family);
  VkPhysicalDeviceProperties p;
  vkGetPhysicalDeviceProperties(physical_, &p);
  name_ = p.deviceName;
  vkGetPhysicalDeviceMemoryProperties(physical_, &memory_);
  {
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical_, &n, nullptr);
    std::vector<VkQueueFamilyProperties> families(n);
    vkGetPhysicalDeviceQueueFamilyProperties(physical_, &n, families.data());
    if (families[family_].timestampValidBits > 0) timestamp_ns_ = p.limits.timestampPeriod;
  }
  const float priority = 1.f;
  VkDeviceQueueCreateInfo q{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  q.queueFamilyIndex = family_;
  q.queueCount = 1;
  q.pQueuePriorities = &priority;
  VkDeviceCreateInfo d{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  d.queueCreateInfoCount = 1;
  d.pQueueCreateInfos = &q;
  WEFT_VK_CHECK(vkCreateDevice(physical_, &d, nullptr, &device_));
  vkGetDeviceQueue(device_, family_, 0, &queue_);
  VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;  // the step re-records when h changes
  pool.queueFamilyIndex = family_;
  WEFT_VK_CHECK(vkCreateCommandPool(device_, &pool, nullptr, &pool_));
}

ComputeContext::~ComputeContext() { release(); }

void ComputeContext::release() {
  if (device_) {
    vkDeviceWaitIdle(device_);
    if (pool_) vkDestroyCommandPool(device_, pool_, nullptr);
    vkDestroyDevice(device_, nullptr);
    device_ = VK_NULL_HANDLE;
  }
  if (messenger_) {
    const std::lock_guard<std::mutex> lock(instance_mutex());
    destroy_debug_messenger(instance_, messenger_);
    messenger_ = VK_NULL_HANDLE;
  }
}

uint32_t ComputeContext::memory_type(uint32_t bits, VkMemoryPropertyFlags wanted) const {
  for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i)
    if ((bits & (1u << i)) && (memory_.memoryTypes[i].propertyFlags & wanted) == wanted) return i;
  throw std::runtime_error("GPU step: no memory type with the properties it needs");
}

VkBool32 VKAPI_PTR ComputeContext::on_message(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                                               const VkDebugUtilsMessengerCallbackDataEXT* data, void* self) {
  auto* ctx = static_cast<ComputeContext*>(self);
  if (ctx->messages_++ == 0 && data && data->pMessage) ctx->first_message_ = data->pMessage;
  return VK_FALSE;
}

}  // namespace weft
