#include "xr/scene_eye_renderer.h"

#include "engine/gpu_resources.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "engine/vulkan_context.h"
#include "xr/vk_check.h"

namespace weft::xr {

namespace {

VkImageView make_view(VkDevice device, VkImage image, VkFormat format, VkImageAspectFlags aspect) {
  VkImageViewCreateInfo vi = vk_struct<VkImageViewCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO);
  vi.image = image;
  vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
  vi.format = format;
  vi.subresourceRange = {aspect, 0, 1, 0, 1};
  VkImageView view = VK_NULL_HANDLE;
  XR_VK_CHECK(vkCreateImageView(device, &vi, nullptr, &view));
  return view;
}

bool is_bgra(VkFormat f) { return f == VK_FORMAT_B8G8R8A8_SRGB || f == VK_FORMAT_B8G8R8A8_UNORM; }
bool is_rgba8(VkFormat f) {
  return f == VK_FORMAT_R8G8B8A8_SRGB || f == VK_FORMAT_R8G8B8A8_UNORM || is_bgra(f);
}

}  // namespace

SceneEyeRenderer::SceneEyeRenderer(SnapshotMesh mesh, SceneProps props, XrSnapshotSource& source,
                                   RenderSettings settings)
    : mesh_(std::move(mesh)), props_(std::move(props)), source_(source), settings_(settings) {}

SceneEyeRenderer::~SceneEyeRenderer() { detach(); }

void SceneEyeRenderer::capture_left_eye(uint32_t every, std::function<void(const EyeCapture&)> sink) {
  if (ctx_) throw std::logic_error("weft: capture_left_eye must be set before the renderer is attached");
  capture_every_ = sink ? every : 0;
  capture_sink_ = std::move(sink);
}

std::vector<VkFormat> SceneEyeRenderer::depth_formats() const {
  return {Renderer::kDepthFormats.begin(), Renderer::kDepthFormats.end()};
}

void SceneEyeRenderer::attach(VulkanContext& ctx, const XrEyeTargets& targets) {
  if (ctx_) throw std::logic_error("weft: SceneEyeRenderer attached twice");
  ctx_ = &ctx;
  color_format_ = targets.color_format;
  runtime_depth_ = targets.depth_format != VK_FORMAT_UNDEFINED;
  for (const XrEyeImages& e : targets.eyes)
    runtime_depth_ = runtime_depth_ && !e.depth.empty();
  renderer_ = std::make_unique<Renderer>(ctx, color_format_, mesh_, props_, kFramesInFlight,
                                         runtime_depth_ ? targets.depth_format : VK_FORMAT_UNDEFINED);
  const VkDevice dev = ctx.device();
  for (size_t e = 0; e < 2; ++e) {
    Eye& eye = eyes_[e];
    const XrEyeImages& in = targets.eyes[e];
    eye.extent = in.extent;
    eye.color = in.color;
    for (VkImage image : eye.color) eye.color_views.push_back(make_view(dev, image, color_format_, VK_IMAGE_ASPECT_COLOR_BIT));
    if (runtime_depth_) {
      eye.depth = in.depth;
      for (VkImage image : eye.depth)
        eye.depth_views.push_back(make_view(dev, image, renderer_->depth_format(), VK_IMAGE_ASPECT_DEPTH_BIT));
    } else {
      // One per eye: the eyes may differ in size, and the renderer's own buffer follows the target's.
      eye.own_depth = create_image(ctx, eye.extent, renderer_->depth_format(),
                                   VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, VK_IMAGE_ASPECT_DEPTH_BIT);
    }
  }

  VkCommandPoolCreateInfo pi = vk_struct<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  pi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pi.queueFamilyIndex = ctx.queue_family();
  XR_VK_CHECK(vkCreateCommandPool(dev, &pi, nullptr, &pool_));
  VkCommandBufferAllocateInfo ai = vk_struct<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  ai.commandPool = pool_;
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = kFramesInFlight;
  XR_VK_CHECK(vkAllocateCommandBuffers(dev, &ai, cmd_.data()));
  VkFenceCreateInfo fi = vk_struct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  fi.flags = VK_FENCE_CREATE_SIGNALED_BIT;  // every slot starts free
  for (VkFence& f : fence_) XR_VK_CHECK(vkCreateFence(dev, &fi, nullptr, &f));

  if (capture_every_ > 0) {
    if (!is_rgba8(color_format_))
      throw std::runtime_error("weft: left-eye capture needs an 8-bit RGBA/BGRA swapchain, the runtime gave format " +
                               std::to_string(int(color_format_)));
    const VkExtent2D ex = eyes_[0].extent;
    readback_ = create_host_buffer(ctx, VkDeviceSize(ex.width) * ex.height * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    pixels_.resize(size_t(ex.width) * ex.height * 4);
  }
}

void SceneEyeRenderer::render(double time_s, const std::array<XrEyeFrame, 2>& frames) {
  if (!ctx_) throw std::logic_error("weft: SceneEyeRenderer::render before attach");
  for (size_t e = 0; e < 2; ++e)
    if (frames[e].color_index >= eyes_[e].color.size() ||
        (runtime_depth_ && frames[e].depth_index >= eyes_[e].depth.size()))
      throw std::out_of_range("weft: swapchain image index out of range");
  const auto t0 = std::chrono::steady_clock::now();
  const VkDevice dev = ctx_->device();
  const uint32_t slot = uint32_t(frames_ % kFramesInFlight);
  XR_VK_CHECK(vkWaitForFences(dev, 1, &fence_[slot], VK_TRUE, UINT64_MAX));
  XR_VK_CHECK(vkResetFences(dev, 1, &fence_[slot]));
  renderer_->upload(slot, source_.snapshot_at(time_s));

  const bool capture = capture_every_ > 0 && frames_ % capture_every_ == 0;
  VkCommandBuffer cmd = cmd_[slot];
  XR_VK_CHECK(vkResetCommandBuffer(cmd, 0));
  VkCommandBufferBeginInfo bi = vk_struct<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  XR_VK_CHECK(vkBeginCommandBuffer(cmd, &bi));
  RenderSettings settings = settings_;
  settings.time = float(time_s);
  for (size_t e = 0; e < 2; ++e) {
    const Eye& eye = eyes_[e];
    const XrEyeFrame& f = frames[e];
    TargetImage target;
    target.image = eye.color[f.color_index];
    target.view = eye.color_views[f.color_index];
    target.extent = eye.extent;
    target.initial_layout = VK_IMAGE_LAYOUT_UNDEFINED;  // every pixel is cleared and drawn
    target.final_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    target.depth_image = runtime_depth_ ? eye.depth[f.depth_index] : eye.own_depth.image;
    target.depth_view = runtime_depth_ ? eye.depth_views[f.depth_index] : eye.own_depth.view;
    renderer_->record(cmd, slot, target, f.view, settings);
    if (e == 0 && capture) {
      // Copy out, then hand the image back in the layout the runtime expects.
      image_barrier(cmd, target.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                    VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                    VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                    VK_ACCESS_2_TRANSFER_READ_BIT);
      VkBufferImageCopy copy{};
      copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
      copy.imageExtent = {eye.extent.width, eye.extent.height, 1};
      vkCmdCopyImageToBuffer(cmd, target.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback_.buffer, 1, &copy);
      image_barrier(cmd, target.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                    VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                    VK_ACCESS_2_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT);
      host_read_barrier(cmd, readback_.buffer);
    }
  }
  XR_VK_CHECK(vkEndCommandBuffer(cmd));
  VkSubmitInfo si = vk_struct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cmd;
  XR_VK_CHECK(vkQueueSubmit(ctx_->queue(), 1, &si, fence_[slot]));
  if (capture) {
    XR_VK_CHECK(vkWaitForFences(dev, 1, &fence_[slot], VK_TRUE, UINT64_MAX));
    read_back(frames[0].view);
  }
  ++frames_;
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  render_ms_total_ += ms;
  render_ms_max_ = std::max(render_ms_max_, ms);
}

void SceneEyeRenderer::read_back(const RenderView& view) {
  std::memcpy(pixels_.data(), readback_.mapped, pixels_.size());
  if (is_bgra(color_format_))
    for (size_t i = 0; i < pixels_.size(); i += 4) std::swap(pixels_[i], pixels_[i + 2]);
  EyeCapture c;
  c.frame = frames_;
  c.extent = eyes_[0].extent;
  c.rgba = &pixels_;
  c.view = view;
  capture_sink_(c);
}

void SceneEyeRenderer::detach() {
  if (!ctx_) return;
  const VkDevice dev = ctx_->device();
  vkDeviceWaitIdle(dev);
  for (VkFence f : fence_)
    if (f) vkDestroyFence(dev, f, nullptr);
  fence_ = {};
  if (pool_) vkDestroyCommandPool(dev, pool_, nullptr);
  pool_ = VK_NULL_HANDLE;
  cmd_ = {};
  for (Eye& eye : eyes_) {
    for (VkImageView v : eye.color_views) vkDestroyImageView(dev, v, nullptr);
    for (VkImageView v : eye.depth_views) vkDestroyImageView(dev, v, nullptr);
    destroy(*ctx_, eye.own_depth);
    eye = Eye{};
  }
  destroy(*ctx_, readback_);
  renderer_.reset();
  ctx_ = nullptr;
}

}  // namespace weft::xr
