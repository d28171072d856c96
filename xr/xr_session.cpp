#include "xr/xr_session.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <set>

#define XR_USE_GRAPHICS_API_VULKAN
#define XR_USE_TIMESPEC
#include <openxr/openxr_platform.h>

#include "engine/vulkan_context.h"
#include "xr/eye_view.h"
#include "xr/haptic_gate.h"
#include "xr/interaction_profiles.h"
#include "xr/location_validity.h"
#include "xr/pose_convert.h"
#include "xr/projection_layer.h"
#include "xr/reference_space.h"
#include "xr/swapchain_formats.h"
#include "xr/vk_check.h"
#include "xr/xr_check.h"

namespace weft::xr {

namespace {

constexpr const char* kOptionalExtensions[] = {
    XR_KHR_VULKAN_ENABLE2_EXTENSION_NAME,         XR_MND_HEADLESS_EXTENSION_NAME,
    XR_KHR_CONVERT_TIMESPEC_TIME_EXTENSION_NAME,  XR_HTCX_VIVE_TRACKER_INTERACTION_EXTENSION_NAME,
    XR_EXT_HAND_TRACKING_EXTENSION_NAME,          XR_KHR_COMPOSITION_LAYER_DEPTH_EXTENSION_NAME,
};

template <typename Fn>
Fn instance_proc(XrInstance instance, const char* name) {
  PFN_xrVoidFunction f = nullptr;
  XR_CHECK(xrGetInstanceProcAddr(instance, name, &f));
  return reinterpret_cast<Fn>(f);
}

XrPath to_path(XrInstance instance, std::string_view s) {
  XrPath p = XR_NULL_PATH;
  XR_CHECK(xrStringToPath(instance, std::string(s).c_str(), &p));
  return p;
}

std::string path_string(XrInstance instance, XrPath path) {
  if (path == XR_NULL_PATH) return {};
  char buf[XR_MAX_PATH_LENGTH];
  uint32_t n = 0;
  XR_CHECK(xrPathToString(instance, path, sizeof buf, &n, buf));
  return std::string(buf);
}

std::vector<std::string> available_extensions() {
  // The loader prints several lines per failure on stderr; Weft prints one line saying why.
  // XR_LOADER_DEBUG=error (or verbose) set by the user still wins.
  setenv("XR_LOADER_DEBUG", "none", 0);
  uint32_t n = 0;
  XR_CHECK(xrEnumerateInstanceExtensionProperties(nullptr, 0, &n, nullptr));
  std::vector<XrExtensionProperties> props(n, xr_struct<XrExtensionProperties>(XR_TYPE_EXTENSION_PROPERTIES));
  XR_CHECK(xrEnumerateInstanceExtensionProperties(nullptr, n, &n, props.data()));
  std::vector<std::string> out;
  for (const auto& p : props) out.emplace_back(p.extensionName);
  return out;
}

// Instance with the optional extensions the runtime offers; headless adds XR_MND_headless only when asked.
XrInstance create_instance(bool headless, std::vector<std::string>& enabled) {
  const auto offered = available_extensions();
  std::vector<const char*> names;
  for (const char* e : kOptionalExtensions) {
    bool has = false;
    for (const auto& o : offered) has = has || o == e;
    if (!has) continue;
    if (!headless && std::strcmp(e, XR_MND_HEADLESS_EXTENSION_NAME) == 0) continue;
    if (headless && (std::strcmp(e, XR_KHR_VULKAN_ENABLE2_EXTENSION_NAME) == 0 ||
                     std::strcmp(e, XR_KHR_COMPOSITION_LAYER_DEPTH_EXTENSION_NAME) == 0))
      continue;
    names.push_back(e);
    enabled.emplace_back(e);
  }
  XrInstanceCreateInfo ci = xr_struct<XrInstanceCreateInfo>(XR_TYPE_INSTANCE_CREATE_INFO);
  std::strncpy(ci.applicationInfo.applicationName, "weft", XR_MAX_APPLICATION_NAME_SIZE - 1);
  ci.applicationInfo.applicationVersion = 1;
  std::strncpy(ci.applicationInfo.engineName, "weft", XR_MAX_ENGINE_NAME_SIZE - 1);
  ci.applicationInfo.apiVersion = XR_MAKE_VERSION(1, 0, 0);
  ci.enabledExtensionCount = uint32_t(names.size());
  ci.enabledExtensionNames = names.data();
  XrInstance instance = XR_NULL_HANDLE;
  XR_CHECK(xrCreateInstance(&ci, &instance));
  return instance;
}

XrSystemId head_mounted_system(XrInstance instance) {
  XrSystemGetInfo gi = xr_struct<XrSystemGetInfo>(XR_TYPE_SYSTEM_GET_INFO);
  gi.formFactor = XR_FORM_FACTOR_HEAD_MOUNTED_DISPLAY;
  XrSystemId id = XR_NULL_SYSTEM_ID;
  XR_CHECK(xrGetSystem(instance, &gi, &id));
  return id;
}

bool has(const std::vector<std::string>& v, const char* s) {
  for (const auto& e : v)
    if (e == s) return true;
  return false;
}

}  // namespace

std::string describe_xr_unavailable(XrResult r) {
  switch (r) {
    case XR_ERROR_RUNTIME_UNAVAILABLE:
    case XR_ERROR_RUNTIME_FAILURE:
    case XR_ERROR_INSTANCE_LOST:
      return "OpenXR runtime unavailable (none installed or it failed to load; start SteamVR or set "
             "XR_RUNTIME_JSON to a runtime manifest)";
    case XR_ERROR_FORM_FACTOR_UNAVAILABLE:
      return "no headset: the OpenXR runtime has no head-mounted display connected right now";
    case XR_ERROR_FORM_FACTOR_UNSUPPORTED:
      return "form factor unavailable: the OpenXR runtime does not support head-mounted displays";
    case XR_ERROR_EXTENSION_NOT_PRESENT:
    case XR_ERROR_FUNCTION_UNSUPPORTED:
      return "the OpenXR runtime lacks a required extension (XR_KHR_vulkan_enable2 for graphics, XR_MND_headless "
             "for xr-headless)";
    default:
      return std::string("OpenXR failed: ") + result_name(r);
  }
}

bool xr_runtime_available(std::string& why) {
  XrInstance instance = XR_NULL_HANDLE;
  try {
    std::vector<std::string> enabled;
    instance = create_instance(false, enabled);
    XrInstanceProperties ip = xr_struct<XrInstanceProperties>(XR_TYPE_INSTANCE_PROPERTIES);
    XR_CHECK(xrGetInstanceProperties(instance, &ip));
    head_mounted_system(instance);
    why = std::string("OpenXR runtime ") + ip.runtimeName + " has a headset";
    if (!has(enabled, XR_KHR_VULKAN_ENABLE2_EXTENSION_NAME)) {
      why = std::string("OpenXR runtime ") + ip.runtimeName + " lacks XR_KHR_vulkan_enable2";
      xrDestroyInstance(instance);
      return false;
    }
    xrDestroyInstance(instance);
    return true;
  } catch (const XrError& e) {
    why = describe_xr_unavailable(e.result());
  }
  if (instance != XR_NULL_HANDLE) xrDestroyInstance(instance);
  return false;
}

// ---------------------------------------------------------------------------------------------

struct XrSessionRunner::Impl {
  XrSessionConfig config;
  XrRunStats stats;
  std::vector<std::string> enabled;
  XrInstance instance = XR_NULL_HANDLE;
  XrSystemId system = XR_NULL_SYSTEM_ID;
  XrSession session = XR_NULL_HANDLE;
  XrSpace space = XR_NULL_HANDLE;
  XrSpace view_space = XR_NULL_HANDLE;  // the headset (VIEW): its pose is Device::Head's
  bool has_timespec = false, has_trackers = false, has_hand_tracking = false;

  // Graphics
  std::unique_ptr<VulkanContext> vk;
  struct Eye {
    XrSwapchain swapchain = XR_NULL_HANDLE;
    XrSwapchain depth_swapchain = XR_NULL_HANDLE;  // with XR_KHR_composition_layer_depth
    VkExtent2D extent{};
  };
  std::array<Eye, 2> eyes;
  bool has_depth_layer = false;
  bool renderer_attached = false;
  ProjectionLayer layer;

  // Input
  XrActionSet action_set = XR_NULL_HANDLE;
  std::array<XrAction, kHandActionCount> actions{};
  std::array<XrPath, 2> hand_paths{};
  std::array<XrSpace, 2> grip_spaces{};
  XrAction tracker_action = XR_NULL_HANDLE;
  std::array<XrPath, kTrackerRoleCount> role_paths{};
  std::array<XrSpace, kTrackerRoleCount> tracker_spaces{};
  TrackerSlots tracker_slots;
  std::array<XrHandTrackerEXT, 2> hand_trackers{};
  std::array<PinchDetector, 2> pinch;
  PFN_xrLocateHandJointsEXT locate_hand_joints = nullptr;
  PFN_xrConvertTimespecTimeToTimeKHR timespec_to_time = nullptr;

  HandGrabber grabber;
  HandTools tools;                    // the trigger's tool per hand (the tool button cycles it)
  HapticGate haptics;                 // a grab pulses once the sim shows it held cloth
  std::array<bool, 2> holding{};      // what the newest snapshot says each hand holds (observe_holding)
  TrackerAttacher trackers;
  MotionWatch motion;
  XrTime time0 = 0;
  double last_time = 0;  // of the last iteration, on the caller's clock

  double to_seconds(XrTime t) {
    if (time0 == 0) time0 = t;
    return double(t - time0) * 1e-9;
  }
  // XR now, when the runtime can convert CLOCK_MONOTONIC (XR_KHR_convert_timespec_time); else 0.
  XrTime xr_now() {
    if (!timespec_to_time) return 0;
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    XrTime now = 0;
    XR_CHECK(timespec_to_time(instance, &ts, &now));
    return now;
  }
  // An XR time on the caller's clock (XrSessionConfig::clock): its clock now plus how far t is ahead of
  // XR now (fallback_ahead when XR now is unknown).
  // Never earlier than the previous iteration's: a slow sim holds the runtime clock back while the
  // display time's lead over XR now varies, which would otherwise send pose times backwards.
  double map_time(XrTime t, XrTime now, double fallback_ahead) {
    if (!config.clock) return to_seconds(t);
    const double mapped = config.clock() + (now != 0 ? double(t - now) * 1e-9 : fallback_ahead);
    return std::max(mapped, last_time);
  }
};

XrSessionRunner::XrSessionRunner(const XrSessionConfig& config) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.config = config;
  m.grabber = HandGrabber(config.grab);
  for (int k = 0; k < TrackerSlots::kSlots; ++k)
    if (auto role = parse_tracker_role_name(config.tracker_roles[size_t(k)])) {
      m.tracker_slots.reserve(*role, Device(device_index(Device::Tracker0) + k));
      m.trackers.drive_body(Device(device_index(Device::Tracker0) + k));  // a body part, not a clip
    }
  m.instance = create_instance(config.headless, m.enabled);
  m.stats.extensions = m.enabled;
  XrInstanceProperties ip = xr_struct<XrInstanceProperties>(XR_TYPE_INSTANCE_PROPERTIES);
  XR_CHECK(xrGetInstanceProperties(m.instance, &ip));
  m.stats.runtime = std::string(ip.runtimeName) + " " + std::to_string(XR_VERSION_MAJOR(ip.runtimeVersion)) + "." +
                    std::to_string(XR_VERSION_MINOR(ip.runtimeVersion)) + "." +
                    std::to_string(XR_VERSION_PATCH(ip.runtimeVersion));
  if (config.headless && !has(m.enabled, XR_MND_HEADLESS_EXTENSION_NAME))
    throw XrError(XR_ERROR_EXTENSION_NOT_PRESENT, "XR_MND_headless", __FILE__, __LINE__);
  if (!config.headless && !has(m.enabled, XR_KHR_VULKAN_ENABLE2_EXTENSION_NAME))
    throw XrError(XR_ERROR_EXTENSION_NOT_PRESENT, "XR_KHR_vulkan_enable2", __FILE__, __LINE__);
  m.system = head_mounted_system(m.instance);
  XrSystemProperties sp = xr_struct<XrSystemProperties>(XR_TYPE_SYSTEM_PROPERTIES);
  XrSystemHandTrackingPropertiesEXT hp = xr_struct<XrSystemHandTrackingPropertiesEXT>(XR_TYPE_SYSTEM_HAND_TRACKING_PROPERTIES_EXT);
  m.has_hand_tracking = has(m.enabled, XR_EXT_HAND_TRACKING_EXTENSION_NAME);
  if (m.has_hand_tracking) sp.next = &hp;
  XR_CHECK(xrGetSystemProperties(m.instance, m.system, &sp));
  m.has_hand_tracking = m.has_hand_tracking && hp.supportsHandTracking;
  m.stats.system = sp.systemName;
  m.has_timespec = has(m.enabled, XR_KHR_CONVERT_TIMESPEC_TIME_EXTENSION_NAME);
  m.has_trackers = has(m.enabled, XR_HTCX_VIVE_TRACKER_INTERACTION_EXTENSION_NAME);
  if (m.has_timespec)
    m.timespec_to_time =
        instance_proc<PFN_xrConvertTimespecTimeToTimeKHR>(m.instance, "xrConvertTimespecTimeToTimeKHR");
  if (config.headless && !m.has_timespec)
    throw XrError(XR_ERROR_EXTENSION_NOT_PRESENT, "XR_KHR_convert_timespec_time", __FILE__, __LINE__);
}

XrSessionRunner::~XrSessionRunner() {
  Impl& m = *impl_;
  // Children first; a lost instance still needs its handles destroyed, and failures here are moot.
  for (auto ht : m.hand_trackers)
    if (ht != XR_NULL_HANDLE)
      if (auto destroy = reinterpret_cast<PFN_xrDestroyHandTrackerEXT>([&] {
            PFN_xrVoidFunction f = nullptr;
            xrGetInstanceProcAddr(m.instance, "xrDestroyHandTrackerEXT", &f);
            return f;
          }()))
        destroy(ht);
  // The renderer's views of the swapchain images go before the swapchains, the device after the session.
  if (m.renderer_attached) m.config.renderer->detach();
  for (auto& e : m.eyes) {
    if (e.swapchain != XR_NULL_HANDLE) xrDestroySwapchain(e.swapchain);
    if (e.depth_swapchain != XR_NULL_HANDLE) xrDestroySwapchain(e.depth_swapchain);
  }
  if (m.action_set != XR_NULL_HANDLE) xrDestroyActionSet(m.action_set);
  if (m.view_space != XR_NULL_HANDLE) xrDestroySpace(m.view_space);
  if (m.space != XR_NULL_HANDLE) xrDestroySpace(m.space);
  if (m.session != XR_NULL_HANDLE) xrDestroySession(m.session);
  m.vk.reset();
  if (m.instance != XR_NULL_HANDLE) xrDestroyInstance(m.instance);
}

namespace {

// The engine's VulkanContext with the runtime creating its instance and device and choosing the
// GPU, so both carry what the compositor needs (external memory, its extensions) and Weft's own
// needs (Vulkan 1.3, dynamic rendering, synchronization2, the validation layer) ride along.
std::unique_ptr<VulkanContext> create_vulkan(XrInstance instance, XrSystemId system, bool validation) {
  auto get_reqs = instance_proc<PFN_xrGetVulkanGraphicsRequirements2KHR>(instance, "xrGetVulkanGraphicsRequirements2KHR");
  auto create_instance_khr = instance_proc<PFN_xrCreateVulkanInstanceKHR>(instance, "xrCreateVulkanInstanceKHR");
  auto get_device = instance_proc<PFN_xrGetVulkanGraphicsDevice2KHR>(instance, "xrGetVulkanGraphicsDevice2KHR");
  auto create_device_khr = instance_proc<PFN_xrCreateVulkanDeviceKHR>(instance, "xrCreateVulkanDeviceKHR");

  // Must be asked before the session is created; Weft needs 1.3 whatever the runtime was tested with.
  XrGraphicsRequirementsVulkan2KHR reqs = xr_struct<XrGraphicsRequirementsVulkan2KHR>(XR_TYPE_GRAPHICS_REQUIREMENTS_VULKAN2_KHR);
  XR_CHECK(get_reqs(instance, system, &reqs));
  if (reqs.minApiVersionSupported > XR_MAKE_VERSION(1, 3, 0))
    throw std::runtime_error("the OpenXR runtime needs a Vulkan newer than 1.3");

  VulkanContextOptions o;
  o.validation = validation_requested(validation);
  o.create_instance = [=](const VkInstanceCreateInfo& info) {
    XrVulkanInstanceCreateInfoKHR xci = xr_struct<XrVulkanInstanceCreateInfoKHR>(XR_TYPE_VULKAN_INSTANCE_CREATE_INFO_KHR);
    xci.systemId = system;
    xci.pfnGetInstanceProcAddr = &vkGetInstanceProcAddr;
    xci.vulkanCreateInfo = &info;
    VkInstance vk_instance = VK_NULL_HANDLE;
    VkResult vr = VK_SUCCESS;
    XR_CHECK(create_instance_khr(instance, &xci, &vk_instance, &vr));
    XR_VK_CHECK(vr);
    return vk_instance;
  };
  o.choose_physical_device = [=](VkInstance vk_instance) {
    XrVulkanGraphicsDeviceGetInfoKHR dgi = xr_struct<XrVulkanGraphicsDeviceGetInfoKHR>(XR_TYPE_VULKAN_GRAPHICS_DEVICE_GET_INFO_KHR);
    dgi.systemId = system;
    dgi.vulkanInstance = vk_instance;
    VkPhysicalDevice pd = VK_NULL_HANDLE;
    XR_CHECK(get_device(instance, &dgi, &pd));
    return pd;
  };
  o.create_device = [=](VkPhysicalDevice pd, const VkDeviceCreateInfo& info) {
    XrVulkanDeviceCreateInfoKHR xdci = xr_struct<XrVulkanDeviceCreateInfoKHR>(XR_TYPE_VULKAN_DEVICE_CREATE_INFO_KHR);
    xdci.systemId = system;
    xdci.pfnGetInstanceProcAddr = &vkGetInstanceProcAddr;
    xdci.vulkanPhysicalDevice = pd;
    xdci.vulkanCreateInfo = &info;
    VkDevice device = VK_NULL_HANDLE;
    VkResult vr = VK_SUCCESS;
    XR_CHECK(create_device_khr(instance, &xdci, &device, &vr));
    XR_VK_CHECK(vr);
    return device;
  };
  auto ctx = std::make_unique<VulkanContext>(o);
  ctx->create_device();
  return ctx;
}

std::vector<int64_t> swapchain_formats(XrSession session) {
  uint32_t n = 0;
  XR_CHECK(xrEnumerateSwapchainFormats(session, 0, &n, nullptr));
  std::vector<int64_t> formats(n);
  XR_CHECK(xrEnumerateSwapchainFormats(session, n, &n, formats.data()));
  return formats;
}

XrSwapchain make_swapchain(XrSession session, XrSwapchainUsageFlags usage, VkFormat format, VkExtent2D extent,
                           std::vector<VkImage>& images) {
  XrSwapchainCreateInfo ci = xr_struct<XrSwapchainCreateInfo>(XR_TYPE_SWAPCHAIN_CREATE_INFO);
  ci.usageFlags = usage;
  ci.format = format;
  ci.sampleCount = 1;
  ci.width = extent.width;
  ci.height = extent.height;
  ci.faceCount = 1;
  ci.arraySize = 1;
  ci.mipCount = 1;
  XrSwapchain swapchain = XR_NULL_HANDLE;
  XR_CHECK(xrCreateSwapchain(session, &ci, &swapchain));
  uint32_t n = 0;
  XR_CHECK(xrEnumerateSwapchainImages(swapchain, 0, &n, nullptr));
  std::vector<XrSwapchainImageVulkan2KHR> xi(n, xr_struct<XrSwapchainImageVulkan2KHR>(XR_TYPE_SWAPCHAIN_IMAGE_VULKAN2_KHR));
  XR_CHECK(xrEnumerateSwapchainImages(swapchain, n, &n, reinterpret_cast<XrSwapchainImageBaseHeader*>(xi.data())));
  images.clear();
  for (const auto& i : xi) images.push_back(i.image);
  return swapchain;
}

uint32_t acquire(XrSwapchain swapchain) {
  uint32_t index = 0;
  XrSwapchainImageAcquireInfo aqi = xr_struct<XrSwapchainImageAcquireInfo>(XR_TYPE_SWAPCHAIN_IMAGE_ACQUIRE_INFO);
  XR_CHECK(xrAcquireSwapchainImage(swapchain, &aqi, &index));
  XrSwapchainImageWaitInfo swi = xr_struct<XrSwapchainImageWaitInfo>(XR_TYPE_SWAPCHAIN_IMAGE_WAIT_INFO);
  swi.timeout = XR_INFINITE_DURATION;
  XR_CHECK(xrWaitSwapchainImage(swapchain, &swi));
  return index;
}

void release(XrSwapchain swapchain) {
  XrSwapchainImageReleaseInfo ri = xr_struct<XrSwapchainImageReleaseInfo>(XR_TYPE_SWAPCHAIN_IMAGE_RELEASE_INFO);
  XR_CHECK(xrReleaseSwapchainImage(swapchain, &ri));
}

}  // namespace

void XrSessionRunner::create_session() {
  Impl& m = *impl_;
  XrSessionCreateInfo sci = xr_struct<XrSessionCreateInfo>(XR_TYPE_SESSION_CREATE_INFO);
  sci.systemId = m.system;
  XrGraphicsBindingVulkan2KHR binding = xr_struct<XrGraphicsBindingVulkan2KHR>(XR_TYPE_GRAPHICS_BINDING_VULKAN2_KHR);
  if (!m.config.headless) {
    if (m.config.renderer == nullptr) throw std::invalid_argument("XR graphics mode needs an eye renderer");
    m.vk = create_vulkan(m.instance, m.system, m.config.validation);
    m.stats.vulkan_device = m.vk->device_name();
    m.stats.validation = m.vk->validation_enabled();
    binding.instance = m.vk->instance();
    binding.physicalDevice = m.vk->physical_device();
    binding.device = m.vk->device();
    binding.queueFamilyIndex = m.vk->queue_family();
    binding.queueIndex = 0;
    sci.next = &binding;
  }
  XR_CHECK(xrCreateSession(m.instance, &sci, &m.session));

  // STAGE (floor origin, room scale) when the runtime has one, else LOCAL lowered to a floor guess.
  uint32_t ns = 0;
  XR_CHECK(xrEnumerateReferenceSpaces(m.session, 0, &ns, nullptr));
  std::vector<XrReferenceSpaceType> spaces(ns);
  XR_CHECK(xrEnumerateReferenceSpaces(m.session, ns, &ns, spaces.data()));
  const ReferenceSpaceChoice space = choose_reference_space(spaces);
  XrReferenceSpaceCreateInfo rci = xr_struct<XrReferenceSpaceCreateInfo>(XR_TYPE_REFERENCE_SPACE_CREATE_INFO);
  rci.referenceSpaceType = space.type;
  // Scene coordinates: the scene's origin sits at stage^-1 in the stage (user) frame.
  rci.poseInReferenceSpace = to_xr(compose(to_pose(space.pose_in_reference), inverse_pose(m.config.stage)));
  m.stats.reference_space = space.name;
  XR_CHECK(xrCreateReferenceSpace(m.session, &rci, &m.space));
  XrReferenceSpaceCreateInfo vci = xr_struct<XrReferenceSpaceCreateInfo>(XR_TYPE_REFERENCE_SPACE_CREATE_INFO);
  vci.referenceSpaceType = XR_REFERENCE_SPACE_TYPE_VIEW;
  vci.poseInReferenceSpace = to_xr(Pose{});
  XR_CHECK(xrCreateReferenceSpace(m.session, &vci, &m.view_space));

  // Actions: one set, each hand action with the left/right subaction paths.
  XrActionSetCreateInfo asci = xr_struct<XrActionSetCreateInfo>(XR_TYPE_ACTION_SET_CREATE_INFO);
  std::strcpy(asci.actionSetName, "weft_hands");
  std::strcpy(asci.localizedActionSetName, "Cloth hands");
  XR_CHECK(xrCreateActionSet(m.instance, &asci, &m.action_set));
  m.hand_paths = {to_path(m.instance, kLeftHandPath), to_path(m.instance, kRightHandPath)};
  const XrActionType types[kHandActionCount] = {XR_ACTION_TYPE_POSE_INPUT,       XR_ACTION_TYPE_POSE_INPUT,
                                                XR_ACTION_TYPE_FLOAT_INPUT,      XR_ACTION_TYPE_FLOAT_INPUT,
                                                XR_ACTION_TYPE_VIBRATION_OUTPUT, XR_ACTION_TYPE_BOOLEAN_INPUT};
  for (int a = 0; a < kHandActionCount; ++a) {
    XrActionCreateInfo aci = xr_struct<XrActionCreateInfo>(XR_TYPE_ACTION_CREATE_INFO);
    const std::string name(hand_action_name(HandAction(a)));
    std::strcpy(aci.actionName, name.c_str());
    std::strcpy(aci.localizedActionName, name.c_str());
    aci.actionType = types[a];
    aci.countSubactionPaths = 2;
    aci.subactionPaths = m.hand_paths.data();
    XR_CHECK(xrCreateAction(m.action_set, &aci, &m.actions[size_t(a)]));
  }
  // A runtime may refuse a profile it does not know: count it and go on with the others.
  for (const auto& profile : interaction_profiles()) {
    std::vector<XrActionSuggestedBinding> b;
    for (const auto& binding_row : profile.bindings)
      b.push_back({m.actions[size_t(binding_row.action)], to_path(m.instance, binding_row.path)});
    XrInteractionProfileSuggestedBinding sb = xr_struct<XrInteractionProfileSuggestedBinding>(XR_TYPE_INTERACTION_PROFILE_SUGGESTED_BINDING);
    sb.interactionProfile = to_path(m.instance, profile.path);
    sb.countSuggestedBindings = uint32_t(b.size());
    sb.suggestedBindings = b.data();
    try {
      XR_CHECK(xrSuggestInteractionProfileBindings(m.instance, &sb));
    } catch (const XrError& e) {
      m.stats.rejected_profiles.push_back(std::string(profile.path) + ": " + result_name(e.result()));
    }
  }
  if (m.has_trackers) {
    for (int r = 0; r < kTrackerRoleCount; ++r)
      m.role_paths[size_t(r)] = to_path(m.instance, tracker_role_path(TrackerRole(r)));
    XrActionCreateInfo aci = xr_struct<XrActionCreateInfo>(XR_TYPE_ACTION_CREATE_INFO);
    std::strcpy(aci.actionName, "tracker_pose");
    std::strcpy(aci.localizedActionName, "Tracker pose");
    aci.actionType = XR_ACTION_TYPE_POSE_INPUT;
    aci.countSubactionPaths = kTrackerRoleCount;
    aci.subactionPaths = m.role_paths.data();
    XR_CHECK(xrCreateAction(m.action_set, &aci, &m.tracker_action));
    std::vector<XrActionSuggestedBinding> b;
    for (int r = 0; r < kTrackerRoleCount; ++r)
      b.push_back({m.tracker_action, to_path(m.instance, tracker_role_path(TrackerRole(r)) + "/input/grip/pose")});
    XrInteractionProfileSuggestedBinding sb = xr_struct<XrInteractionProfileSuggestedBinding>(XR_TYPE_INTERACTION_PROFILE_SUGGESTED_BINDING);
    sb.interactionProfile = to_path(m.instance, kViveTrackerProfile);
    sb.countSuggestedBindings = uint32_t(b.size());
    sb.suggestedBindings = b.data();
    try {
      XR_CHECK(xrSuggestInteractionProfileBindings(m.instance, &sb));
    } catch (const XrError& e) {
      m.stats.rejected_profiles.push_back(std::string(kViveTrackerProfile) + ": " + result_name(e.result()));
    }
  }
  XrSessionActionSetsAttachInfo ai = xr_struct<XrSessionActionSetsAttachInfo>(XR_TYPE_SESSION_ACTION_SETS_ATTACH_INFO);
  ai.countActionSets = 1;
  ai.actionSets = &m.action_set;
  XR_CHECK(xrAttachSessionActionSets(m.session, &ai));
  for (int h = 0; h < 2; ++h) {
    XrActionSpaceCreateInfo sci2 = xr_struct<XrActionSpaceCreateInfo>(XR_TYPE_ACTION_SPACE_CREATE_INFO);
    sci2.action = m.actions[size_t(HandAction::GripPose)];
    sci2.subactionPath = m.hand_paths[size_t(h)];
    sci2.poseInActionSpace.orientation.w = 1.f;
    XR_CHECK(xrCreateActionSpace(m.session, &sci2, &m.grip_spaces[size_t(h)]));
  }
  if (m.has_trackers)
    for (int r = 0; r < kTrackerRoleCount; ++r) {
      XrActionSpaceCreateInfo sci2 = xr_struct<XrActionSpaceCreateInfo>(XR_TYPE_ACTION_SPACE_CREATE_INFO);
      sci2.action = m.tracker_action;
      sci2.subactionPath = m.role_paths[size_t(r)];
      sci2.poseInActionSpace.orientation.w = 1.f;
      XR_CHECK(xrCreateActionSpace(m.session, &sci2, &m.tracker_spaces[size_t(r)]));
    }
  if (m.has_hand_tracking) {
    auto create = instance_proc<PFN_xrCreateHandTrackerEXT>(m.instance, "xrCreateHandTrackerEXT");
    m.locate_hand_joints = instance_proc<PFN_xrLocateHandJointsEXT>(m.instance, "xrLocateHandJointsEXT");
    for (int h = 0; h < 2; ++h) {
      XrHandTrackerCreateInfoEXT hci = xr_struct<XrHandTrackerCreateInfoEXT>(XR_TYPE_HAND_TRACKER_CREATE_INFO_EXT);
      hci.hand = h == 0 ? XR_HAND_LEFT_EXT : XR_HAND_RIGHT_EXT;
      hci.handJointSet = XR_HAND_JOINT_SET_DEFAULT_EXT;
      XR_CHECK(create(m.session, &hci, &m.hand_trackers[size_t(h)]));
    }
  }

  if (!m.config.headless) {
    // Stereo: one swapchain per eye at the recommended size.
    uint32_t nv = 0;
    XR_CHECK(xrEnumerateViewConfigurationViews(m.instance, m.system, XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO, 0,
                                               &nv, nullptr));
    std::vector<XrViewConfigurationView> views(nv, xr_struct<XrViewConfigurationView>(XR_TYPE_VIEW_CONFIGURATION_VIEW));
    XR_CHECK(xrEnumerateViewConfigurationViews(m.instance, m.system, XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO, nv,
                                               &nv, views.data()));
    if (nv != 2) throw std::runtime_error("the stereo view configuration has " + std::to_string(nv) + " views");
    const std::vector<int64_t> formats = swapchain_formats(m.session);
    XrEyeTargets targets;
    targets.color_format = pick_color_format(formats);
    if (targets.color_format == VK_FORMAT_UNDEFINED)
      throw std::runtime_error("the OpenXR runtime offers no swapchain format");
    if (m.config.depth_layers && has(m.enabled, XR_KHR_COMPOSITION_LAYER_DEPTH_EXTENSION_NAME))
      targets.depth_format = pick_depth_format(formats, m.config.renderer->depth_formats(), [&](VkFormat f) {
        VkFormatProperties fp;
        vkGetPhysicalDeviceFormatProperties(m.vk->physical_device(), f, &fp);
        return (fp.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT) != 0;
      });
    m.has_depth_layer = targets.depth_format != VK_FORMAT_UNDEFINED;
    m.stats.depth_submitted = m.has_depth_layer;
    for (size_t e = 0; e < 2; ++e) {
      Impl::Eye& eye = m.eyes[e];
      XrEyeImages& out = targets.eyes[e];
      eye.extent = out.extent = {views[e].recommendedImageRectWidth, views[e].recommendedImageRectHeight};
      // Transfer source too, so a frame can be read back (debug dumps, tests).
      eye.swapchain = make_swapchain(m.session, XR_SWAPCHAIN_USAGE_COLOR_ATTACHMENT_BIT | XR_SWAPCHAIN_USAGE_TRANSFER_SRC_BIT,
                                     targets.color_format, eye.extent, out.color);
      if (m.has_depth_layer)
        eye.depth_swapchain = make_swapchain(m.session, XR_SWAPCHAIN_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                                             targets.depth_format, eye.extent, out.depth);
    }
    m.config.renderer->attach(*m.vk, targets);
    m.renderer_attached = true;
  }
}

void XrSessionRunner::track_replay_corners(const glm::vec3& left, const glm::vec3& right) {
  Impl& m = *impl_;
  track_replay_corner(m.config.replay, Hand::Left, left, m.last_time);
  track_replay_corner(m.config.replay, Hand::Right, right, m.last_time);
}

void XrSessionRunner::observe_holding(bool left, bool right) {
  impl_->holding = {left, right};
}

void XrSessionRunner::request_exit() {
  if (machine_.request_exit() == SessionCall::RequestExitSession) XR_CHECK(xrRequestExitSession(impl_->session));
}

namespace {

void read_hand(XrSessionRunner::Impl& m, int h, XrTime time, double t, HandSample& s) {
  s = HandSample{};
  s.time = t;
  XrActionStateGetInfo gi = xr_struct<XrActionStateGetInfo>(XR_TYPE_ACTION_STATE_GET_INFO);
  gi.subactionPath = m.hand_paths[size_t(h)];
  gi.action = m.actions[size_t(HandAction::Squeeze)];
  XrActionStateFloat sq = xr_struct<XrActionStateFloat>(XR_TYPE_ACTION_STATE_FLOAT);
  XR_CHECK(xrGetActionStateFloat(m.session, &gi, &sq));
  s.squeeze = sq.currentState;
  s.squeeze_active = sq.isActive;
  gi.action = m.actions[size_t(HandAction::Trigger)];  // the tool's trigger (unbound on the simple controller: 0)
  XrActionStateFloat tr = xr_struct<XrActionStateFloat>(XR_TYPE_ACTION_STATE_FLOAT);
  XR_CHECK(xrGetActionStateFloat(m.session, &gi, &tr));
  s.trigger = tr.isActive ? tr.currentState : 0.f;
  gi.action = m.actions[size_t(HandAction::ToolCycle)];
  XrActionStateBoolean tb = xr_struct<XrActionStateBoolean>(XR_TYPE_ACTION_STATE_BOOLEAN);
  XR_CHECK(xrGetActionStateBoolean(m.session, &gi, &tb));
  s.tool_button = tb.isActive && tb.currentState;
  gi.action = m.actions[size_t(HandAction::GripPose)];
  XrActionStatePose ps = xr_struct<XrActionStatePose>(XR_TYPE_ACTION_STATE_POSE);
  XR_CHECK(xrGetActionStatePose(m.session, &gi, &ps));
  if (ps.isActive) {
    XrSpaceLocation loc = xr_struct<XrSpaceLocation>(XR_TYPE_SPACE_LOCATION);
    XR_CHECK(xrLocateSpace(m.grip_spaces[size_t(h)], m.space, time, &loc));
    s.flags = loc.locationFlags;
    s.grip = to_pose(loc.pose);
  }
  // No controller in this hand: a tracked hand pinching stands in for the squeeze.
  if (!s.squeeze_active && m.hand_trackers[size_t(h)] != XR_NULL_HANDLE) {
    std::array<XrHandJointLocationEXT, XR_HAND_JOINT_COUNT_EXT> joints{};
    XrHandJointLocationsEXT locs = xr_struct<XrHandJointLocationsEXT>(XR_TYPE_HAND_JOINT_LOCATIONS_EXT);
    locs.jointCount = XR_HAND_JOINT_COUNT_EXT;
    locs.jointLocations = joints.data();
    XrHandJointsLocateInfoEXT li = xr_struct<XrHandJointsLocateInfoEXT>(XR_TYPE_HAND_JOINTS_LOCATE_INFO_EXT);
    li.baseSpace = m.space;
    li.time = time;
    XR_CHECK(m.locate_hand_joints(m.hand_trackers[size_t(h)], &li, &locs));
    if (locs.isActive) {
      m.pinch[size_t(h)].update(joints.data(), locs.jointCount);
      const auto& a = joints[XR_HAND_JOINT_THUMB_TIP_EXT].pose.position;
      const auto& b = joints[XR_HAND_JOINT_INDEX_TIP_EXT].pose.position;
      const auto& palm = joints[XR_HAND_JOINT_PALM_EXT];
      s.flags = palm.locationFlags & joints[XR_HAND_JOINT_INDEX_TIP_EXT].locationFlags;
      s.grip = to_pose(palm.pose);
      s.grip.position = 0.5f * (glm::vec3(a.x, a.y, a.z) + glm::vec3(b.x, b.y, b.z));
      s.squeeze = m.pinch[size_t(h)].pinched() ? 1.f : 0.f;
      s.squeeze_active = true;
    }
  }
}

void haptic_pulse(XrSessionRunner::Impl& m, int h) {
  XrHapticVibration v = xr_struct<XrHapticVibration>(XR_TYPE_HAPTIC_VIBRATION);
  v.duration = 30'000'000;  // 30 ms
  v.frequency = XR_FREQUENCY_UNSPECIFIED;
  v.amplitude = 0.6f;
  XrHapticActionInfo hi = xr_struct<XrHapticActionInfo>(XR_TYPE_HAPTIC_ACTION_INFO);
  hi.action = m.actions[size_t(HandAction::Haptic)];
  hi.subactionPath = m.hand_paths[size_t(h)];
  XR_CHECK(xrApplyHapticFeedback(m.session, &hi, reinterpret_cast<const XrHapticBaseHeader*>(&v)));
  ++m.stats.haptic_pulses;
}

void note_profiles(XrSessionRunner::Impl& m) {
  for (int h = 0; h < 2; ++h) {
    XrInteractionProfileState st = xr_struct<XrInteractionProfileState>(XR_TYPE_INTERACTION_PROFILE_STATE);
    XR_CHECK(xrGetCurrentInteractionProfile(m.session, m.hand_paths[size_t(h)], &st));
    const std::string p = path_string(m.instance, st.interactionProfile);
    if (p.empty()) continue;
    bool seen = false;
    for (const auto& q : m.stats.interaction_profiles) seen = seen || q == p;
    if (!seen) m.stats.interaction_profiles.push_back(p);
  }
}

}  // namespace

// Input for one predicted time: hands (runtime or replay) and trackers. Runtime input exists only
// while FOCUSED; the replay stream stands in for motionless hands whenever the session runs (a
// headless session is never focused).
static void process_input(XrSessionRunner::Impl& m, XrTime time, double t, InputSink& sink, bool focused) {
  if (focused) {
    XrActiveActionSet active{m.action_set, XR_NULL_PATH};
    XrActionsSyncInfo si = xr_struct<XrActionsSyncInfo>(XR_TYPE_ACTIONS_SYNC_INFO);
    si.countActiveActionSets = 1;
    si.activeActionSets = &active;
    XR_CHECK(xrSyncActions(m.session, &si));
  }
  for (int h = 0; h < 2; ++h) {
    HandSample s;
    s.time = t;
    if (focused) read_hand(m, h, time, t, s);
    const bool was_live = m.motion.runtime_moves(Hand(h));
    m.motion.observe(Hand(h), s);
    const bool replayed = m.config.replay_when_motionless && !m.motion.runtime_moves(Hand(h));
    if (replayed) {
      s = replay_hand(m.config.replay, Hand(h), t);
      ++m.stats.replayed_hand_frames;
    } else if (m.config.replay_when_motionless && !was_live) {
      // Live input takes over from the replay: the replayed hold ends, and the sim forgets the replayed
      // hand's history so the jump to the controller is not rejected as an outlier.
      sink.reset_device(h == 0 ? Device::LeftHand : Device::RightHand);  // first: it applies before the poses
      m.grabber.release(Hand(h), sink);
      m.haptics.released(Hand(h));
      ++m.stats.replay_handoffs;
    }
    // Unfocused, a runtime-driven hand reads as inactive and lets go rather than hold stale poses.
    // A replayed grab never vibrates the real controller lying still in that hand; a live one vibrates
    // when the snapshot shows the cloth caught (HapticGate), not when asked.
    const bool was_holding = m.grabber.holding(Hand(h));
    if (m.grabber.update(Hand(h), s, sink))
      m.haptics.grab_requested(Hand(h), t, focused && !replayed, m.holding[size_t(h)]);
    else if (was_holding && !m.grabber.holding(Hand(h)))
      m.haptics.released(Hand(h));
    if (m.haptics.observe(Hand(h), m.holding[size_t(h)], t) && focused) haptic_pulse(m, h);
    // Tools come from live hands only (a replayed hand neither cuts nor sews); a tool change pulses once.
    if (!replayed && m.tools.update(Hand(h), s, sink) && focused) haptic_pulse(m, h);
  }
  {
    // The headset's pose, for a body whose head follows it (a scene's body part "follows": "head"), focused
    // or not: the head is where it is (a headless session is never focused).
    XrSpaceLocation loc = xr_struct<XrSpaceLocation>(XR_TYPE_SPACE_LOCATION);
    XR_CHECK(xrLocateSpace(m.view_space, m.space, time, &loc));
    PoseSample head;
    head.time = t;
    head.device = Device::Head;
    head.pose = to_pose(loc.pose);
    head.valid = location_flags_valid(loc.locationFlags) && pose_finite_unit(head.pose);
    if (head.valid) {
      sink.submit_pose(head);
      ++m.stats.head_poses_submitted;
    }
  }
  if (!focused) return;
  if (m.has_trackers)
    for (int r = 0; r < kTrackerRoleCount; ++r) {
      XrActionStateGetInfo gi = xr_struct<XrActionStateGetInfo>(XR_TYPE_ACTION_STATE_GET_INFO);
      gi.action = m.tracker_action;
      gi.subactionPath = m.role_paths[size_t(r)];
      XrActionStatePose ps = xr_struct<XrActionStatePose>(XR_TYPE_ACTION_STATE_POSE);
      XR_CHECK(xrGetActionStatePose(m.session, &gi, &ps));
      auto device = ps.isActive ? m.tracker_slots.assign(TrackerRole(r)) : m.tracker_slots.find(TrackerRole(r));
      if (!device) continue;
      XrSpaceLocation loc = xr_struct<XrSpaceLocation>(XR_TYPE_SPACE_LOCATION);
      if (ps.isActive) XR_CHECK(xrLocateSpace(m.tracker_spaces[size_t(r)], m.space, time, &loc));
      m.trackers.update(*device, ps.isActive, loc.locationFlags, to_pose(loc.pose), t, sink);
    }
}

bool XrSessionRunner::iterate(InputSink& sink, double& time_s) {
  Impl& m = *impl_;
  // 1. Events until the queue is empty.
  for (;;) {
    XrEventDataBuffer ev = xr_struct<XrEventDataBuffer>(XR_TYPE_EVENT_DATA_BUFFER);
    const XrResult r = XR_CHECK(xrPollEvent(m.instance, &ev));
    if (r == XR_EVENT_UNAVAILABLE) break;
    if (ev.type == XR_TYPE_EVENT_DATA_INTERACTION_PROFILE_CHANGED) note_profiles(m);
    if (ev.type == XR_TYPE_EVENT_DATA_VIVE_TRACKER_CONNECTED_HTCX) {
      const auto& tc = reinterpret_cast<const XrEventDataViveTrackerConnectedHTCX&>(ev);
      const std::string role = tc.paths ? path_string(m.instance, tc.paths->rolePath) : std::string();
      m.stats.trackers.push_back(role.empty() ? std::string("(no role)") : role);
    }
    const SessionCall call = machine_.on_event(ev);
    if (ev.type == XR_TYPE_EVENT_DATA_SESSION_STATE_CHANGED)
      m.stats.session_states.emplace_back(session_state_name(machine_.state()));
    if (call == SessionCall::BeginSession) {
      XrSessionBeginInfo bi = xr_struct<XrSessionBeginInfo>(XR_TYPE_SESSION_BEGIN_INFO);
      bi.primaryViewConfigurationType = XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO;
      XR_CHECK(xrBeginSession(m.session, &bi));
      machine_.begun();
    } else if (call == SessionCall::EndSession) {
      m.grabber.release_all(sink);
      XR_CHECK(xrEndSession(m.session));
      machine_.ended();
    }
    if (machine_.done()) break;
  }
  if (machine_.done()) {
    m.grabber.release_all(sink);
    m.trackers.detach_all(sink);
    m.stats.instance_lost = machine_.instance_lost();
    return false;
  }
  if (!machine_.frames_allowed()) return true;  // idle: the caller sleeps briefly and polls again

  // 2a. Headless: no frames; the time is now on the runtime's clock.
  if (m.config.headless) {
    const XrTime now = m.xr_now();
    time_s = m.last_time = m.map_time(now, now, 0.0);
    process_input(m, now, time_s, sink, machine_.input_focused());
    return true;
  }

  // 2b. Graphics: wait, begin, locate views at the predicted display time, render, end.
  XrFrameState fs = xr_struct<XrFrameState>(XR_TYPE_FRAME_STATE);
  XrFrameWaitInfo wi = xr_struct<XrFrameWaitInfo>(XR_TYPE_FRAME_WAIT_INFO);
  XR_CHECK(xrWaitFrame(m.session, &wi, &fs));
  XrFrameBeginInfo fbi = xr_struct<XrFrameBeginInfo>(XR_TYPE_FRAME_BEGIN_INFO);
  XR_CHECK(xrBeginFrame(m.session, &fbi));
  time_s = m.last_time = m.map_time(fs.predictedDisplayTime, m.xr_now(), double(fs.predictedDisplayPeriod) * 1e-9);
  process_input(m, fs.predictedDisplayTime, time_s, sink, machine_.input_focused());

  const XrCompositionLayerBaseHeader* layers[1] = {nullptr};
  uint32_t layer_count = 0;
  if (fs.shouldRender) {
    XrViewLocateInfo vli = xr_struct<XrViewLocateInfo>(XR_TYPE_VIEW_LOCATE_INFO);
    vli.viewConfigurationType = XR_VIEW_CONFIGURATION_TYPE_PRIMARY_STEREO;
    vli.displayTime = fs.predictedDisplayTime;
    vli.space = m.space;
    XrViewState vs = xr_struct<XrViewState>(XR_TYPE_VIEW_STATE);
    std::array<XrView, 2> views{xr_struct<XrView>(XR_TYPE_VIEW), xr_struct<XrView>(XR_TYPE_VIEW)};
    uint32_t nv = 0;
    XR_CHECK(xrLocateViews(m.session, &vli, &vs, 2, &nv, views.data()));
    const bool located = (vs.viewStateFlags & XR_VIEW_STATE_POSITION_VALID_BIT) &&
                         (vs.viewStateFlags & XR_VIEW_STATE_ORIENTATION_VALID_BIT);
    if (located && nv == 2) {
      std::array<XrEyeFrame, 2> frames;
      std::array<EyeSubmission, 2> submit;
      for (size_t e = 0; e < 2; ++e) {
        const Impl::Eye& eye = m.eyes[e];
        frames[e].color_index = acquire(eye.swapchain);
        if (eye.depth_swapchain != XR_NULL_HANDLE) frames[e].depth_index = acquire(eye.depth_swapchain);
        frames[e].view = eye_render_view(views[e], m.config.near_m, m.config.far_m);
        submit[e] = {views[e].pose, views[e].fov, eye.swapchain, eye.depth_swapchain,
                     {int32_t(eye.extent.width), int32_t(eye.extent.height)}};
      }
      m.config.renderer->render(time_s, frames);  // submitted on the queue before the images go back
      for (const Impl::Eye& eye : m.eyes) {
        release(eye.swapchain);
        if (eye.depth_swapchain != XR_NULL_HANDLE) release(eye.depth_swapchain);
      }
      m.layer.build(m.space, submit, m.config.near_m, m.config.far_m);
      layers[0] = m.layer.header();
      layer_count = 1;
    }
  }
  XrFrameEndInfo fei = xr_struct<XrFrameEndInfo>(XR_TYPE_FRAME_END_INFO);
  fei.displayTime = fs.predictedDisplayTime;
  fei.environmentBlendMode = XR_ENVIRONMENT_BLEND_MODE_OPAQUE;
  fei.layerCount = layer_count;
  fei.layers = layers;
  XR_CHECK(xrEndFrame(m.session, &fei));
  if (layer_count) ++m.stats.frames_rendered;
  return true;
}

const XrRunStats& XrSessionRunner::stats() {
  Impl& m = *impl_;
  m.stats.tool_cycles = m.tools.counters().cycles;
  m.stats.tool_strokes = m.tools.counters().strokes;
  const auto& c = m.grabber.counters();
  m.stats.hand_poses_received = c.poses_received;
  m.stats.grabs = c.grabs;
  m.stats.releases = c.releases;
  m.stats.tracker_poses_received = m.trackers.poses_received();
  m.stats.instance_lost = machine_.instance_lost();
  if (m.vk) m.stats.validation_errors = m.vk->validation_errors();
  return m.stats;
}

}  // namespace weft::xr
