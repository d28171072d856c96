#include "engine/vulkan_context.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "gpu/vk_check.h"

namespace weft {
namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

std::vector<const char*> c_strings(const std::vector<std::string>& v) {
  std::vector<const char*> out;
  for (const auto& s : v) out.push_back(s.c_str());
  return out;
}

void add_unique(std::vector<std::string>& list, const std::string& name) {
  for (const auto& s : list)
    if (s == name) return;
  list.push_back(name);
}

}  // namespace

bool validation_requested(bool option) {
  const char* env = std::getenv("WEFT_VALIDATION");
  return option || (env && std::strcmp(env, "1") == 0);
}

bool validation_layer_available() {
  uint32_t count = 0;
  if (vkEnumerateInstanceLayerProperties(&count, nullptr) != VK_SUCCESS) return false;
  std::vector<VkLayerProperties> layers(count);
  if (vkEnumerateInstanceLayerProperties(&count, layers.data()) != VK_SUCCESS) return false;
  for (const auto& l : layers)
    if (std::strcmp(l.layerName, kValidationLayer) == 0) return true;
  return false;
}

VulkanContext::VulkanContext(const VulkanContextOptions& options) : options_(options) {
  std::vector<std::string> extensions = options.instance_extensions;
  std::vector<const char*> layers;
  const bool validate = options.validation && validation_layer_available();
  if (options.validation && !validate)
    std::fprintf(stderr, "weft: validation requested but %s is not installed\n", kValidationLayer);
  if (validate) {
    layers.push_back(kValidationLayer);
    add_unique(extensions, VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  }
  const auto ext = c_strings(extensions);

  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "weft";
  app.pEngineName = "weft";
  app.apiVersion = VK_API_VERSION_1_3;

  const VkDebugUtilsMessengerCreateInfoEXT messenger_info = debug_messenger_info(&VulkanContext::on_message, this);

  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pNext = validate ? &messenger_info : nullptr;  // also catches errors in vkCreate/DestroyInstance
  info.pApplicationInfo = &app;
  info.enabledLayerCount = uint32_t(layers.size());
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = uint32_t(ext.size());
  info.ppEnabledExtensionNames = ext.data();
  if (options.create_instance) {
    instance_ = options.create_instance(info);
    if (!instance_) throw std::runtime_error("weft: the supplied create_instance hook returned no instance");
  } else {
    WEFT_VK_CHECK(vkCreateInstance(&info, nullptr, &instance_));
  }

  if (validate) {
    messenger_ = create_debug_messenger(instance_, messenger_info);
  }
}

VulkanContext::~VulkanContext() {
  if (device_) {
    vkDeviceWaitIdle(device_);
    if (setup_pool_) vkDestroyCommandPool(device_, setup_pool_, nullptr);
    vkDestroyDevice(device_, nullptr);
  }
  destroy_debug_messenger(instance_, messenger_);
  if (instance_) vkDestroyInstance(instance_, nullptr);
}

VKAPI_ATTR VkBool32 VKAPI_CALL VulkanContext::on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                         VkDebugUtilsMessageTypeFlagsEXT,
                                                         const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                         void* user) {
  auto* self = static_cast<VulkanContext*>(user);
  const char* text = data && data->pMessage ? data->pMessage : "(no message)";
  if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
    self->errors_.fetch_add(1);
    std::fprintf(stderr, "weft: validation error: %s\n", text);
  } else if (self->warnings_.fetch_add(1) < 8) {
    std::fprintf(stderr, "weft: validation warning: %s\n", text);
  }
  return VK_FALSE;
}

void VulkanContext::create_device(VkSurfaceKHR present_surface) {
  if (device_) throw std::logic_error("weft: VulkanContext::create_device called twice");

  std::vector<VkPhysicalDevice> candidates;
  if (options_.choose_physical_device) {
    candidates.push_back(options_.choose_physical_device(instance_));
  } else {
    uint32_t count = 0;
    WEFT_VK_CHECK(vkEnumeratePhysicalDevices(instance_, &count, nullptr));
    candidates.resize(count);
    WEFT_VK_CHECK(vkEnumeratePhysicalDevices(instance_, &count, candidates.data()));
  }

  int best_rank = 1 << 30;
  std::string rejected;
  for (VkPhysicalDevice pd : candidates) {
    if (!pd) continue;
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(pd, &props);
    if (props.apiVersion < VK_API_VERSION_1_3) {
      rejected += std::string(" ") + props.deviceName + " (Vulkan < 1.3);";
      continue;
    }
    uint32_t nq = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, nullptr);
    std::vector<VkQueueFamilyProperties> families(nq);
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, families.data());
    for (uint32_t q = 0; q < nq; ++q) {
      if (!(families[q].queueFlags & VK_QUEUE_GRAPHICS_BIT)) continue;
      if (present_surface) {
        VkBool32 ok = VK_FALSE;
        WEFT_VK_CHECK(vkGetPhysicalDeviceSurfaceSupportKHR(pd, q, present_surface, &ok));
        if (!ok) continue;
      }
      const int rank = device_type_rank(props.deviceType);
      if (rank < best_rank) {
        best_rank = rank;
        physical_device_ = pd;
        queue_family_ = q;
        device_name_ = props.deviceName;
      }
      break;
    }
  }
  if (!physical_device_)
    throw std::runtime_error("weft: no Vulkan 1.3 device with a graphics" +
                             std::string(present_surface ? "+present" : "") + " queue;" + rejected);

  std::vector<std::string> extensions = options_.device_extensions;
  if (present_surface) add_unique(extensions, VK_KHR_SWAPCHAIN_EXTENSION_NAME);
  const auto ext = c_strings(extensions);

  VkPhysicalDeviceVulkan13Features features13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  features13.dynamicRendering = VK_TRUE;
  features13.synchronization2 = VK_TRUE;
  const float priority = 1.f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = queue_family_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  info.pNext = &features13;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue_info;
  info.enabledExtensionCount = uint32_t(ext.size());
  info.ppEnabledExtensionNames = ext.data();
  if (options_.create_device) {
    device_ = options_.create_device(physical_device_, info);
    if (!device_) throw std::runtime_error("weft: the supplied create_device hook returned no device");
  } else {
    WEFT_VK_CHECK(vkCreateDevice(physical_device_, &info, nullptr, &device_));
  }
  vkGetDeviceQueue(device_, queue_family_, 0, &queue_);

  VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  pool.queueFamilyIndex = queue_family_;
  WEFT_VK_CHECK(vkCreateCommandPool(device_, &pool, nullptr, &setup_pool_));
}

uint32_t VulkanContext::find_memory_type(uint32_t type_bits, VkMemoryPropertyFlags wanted) const {
  VkPhysicalDeviceMemoryProperties props;
  vkGetPhysicalDeviceMemoryProperties(physical_device_, &props);
  for (uint32_t i = 0; i < props.memoryTypeCount; ++i)
    if ((type_bits & (1u << i)) && (props.memoryTypes[i].propertyFlags & wanted) == wanted) return i;
  throw std::runtime_error("weft: no Vulkan memory type with properties " + std::to_string(wanted));
}

void VulkanContext::run_once(const std::function<void(VkCommandBuffer)>& record) {
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = setup_pool_;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  VkCommandBuffer cmd;
  WEFT_VK_CHECK(vkAllocateCommandBuffers(device_, &alloc, &cmd));
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  WEFT_VK_CHECK(vkBeginCommandBuffer(cmd, &begin));
  record(cmd);
  WEFT_VK_CHECK(vkEndCommandBuffer(cmd));
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd;
  WEFT_VK_CHECK(vkQueueSubmit(queue_, 1, &submit, VK_NULL_HANDLE));
  WEFT_VK_CHECK(vkQueueWaitIdle(queue_));
  vkFreeCommandBuffers(device_, setup_pool_, 1, &cmd);
}

}  // namespace weft
