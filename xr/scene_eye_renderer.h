#pragma once
// The XR eyes drawn by the desktop's Renderer: each frame one snapshot (taken at the predicted
// display time) is uploaded once and drawn into both eyes' swapchain images with each eye's view
// and projection, in one command buffer and one submission. Two frames in flight (a fence per
// slot). Depth goes into the runtime's depth swapchain images when it has them (submitted with
// the projection layer), else into a depth image per eye owned here.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "engine/gpu_resources.h"
#include "engine/renderer.h"
#include "engine/scene_props.h"
#include "engine/snapshot.h"
#include "xr/eye_renderer.h"

namespace weft::xr {

// Where the eyes' cloth comes from: the app steps its World up to the display time and fills a
// snapshot (single thread), or hands over the sim thread's latest one.
struct XrSnapshotSource {
  virtual ~XrSnapshotSource() = default;
  // The snapshot to show at display time time_s (sim clock); valid until the next call.
  virtual const ClothSnapshot& snapshot_at(double time_s) = 0;
};

// A left-eye image read back after its frame finished (debug dumps, tests).
struct EyeCapture {
  uint64_t frame = 0;                   // index of the frame among those rendered (0-based)
  VkExtent2D extent{0, 0};
  const std::vector<uint8_t>* rgba = nullptr;  // RGBA8 as stored (sRGB-encoded for an _SRGB swapchain), top row first
  RenderView view;                      // the view the eye was drawn with
};

class SceneEyeRenderer final : public XrEyeRenderer {
 public:
  static constexpr uint32_t kFramesInFlight = 2;

  SceneEyeRenderer(SnapshotMesh mesh, SceneProps props, XrSnapshotSource& source, RenderSettings settings = {});
  ~SceneEyeRenderer() override;
  SceneEyeRenderer(const SceneEyeRenderer&) = delete;
  SceneEyeRenderer& operator=(const SceneEyeRenderer&) = delete;

  // Reads the left eye back every `every` frames, starting with frame 0, and calls sink (on the
  // render thread, after waiting for that frame). every = 0 turns it off. Call before attach.
  void capture_left_eye(uint32_t every, std::function<void(const EyeCapture&)> sink);

  std::vector<VkFormat> depth_formats() const override;
  void attach(VulkanContext& ctx, const XrEyeTargets& targets) override;
  void render(double time_s, const std::array<XrEyeFrame, 2>& eyes) override;
  void detach() override;

  uint64_t frames_rendered() const { return frames_; }
  // CPU time spent in render (snapshot, upload, recording, submission; captures included), ms.
  double render_ms_total() const { return render_ms_total_; }
  double render_ms_max() const { return render_ms_max_; }
  bool uses_runtime_depth() const { return runtime_depth_; }
  RenderSettings& settings() { return settings_; }

 private:
  struct Eye {
    VkExtent2D extent{0, 0};
    std::vector<VkImage> color, depth;
    std::vector<VkImageView> color_views, depth_views;
    GpuImage own_depth;  // when the runtime takes no depth
  };
  void read_back(const RenderView& view);

  SnapshotMesh mesh_;
  SceneProps props_;
  XrSnapshotSource& source_;
  RenderSettings settings_;
  uint32_t capture_every_ = 0;
  std::function<void(const EyeCapture&)> capture_sink_;

  VulkanContext* ctx_ = nullptr;
  VkFormat color_format_ = VK_FORMAT_UNDEFINED;
  bool runtime_depth_ = false;
  std::unique_ptr<Renderer> renderer_;
  std::array<Eye, 2> eyes_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  std::array<VkCommandBuffer, kFramesInFlight> cmd_{};
  std::array<VkFence, kFramesInFlight> fence_{};
  HostBuffer readback_;          // left eye, when capturing
  std::vector<uint8_t> pixels_;  // RGBA8 of the last capture
  uint64_t frames_ = 0;
  double render_ms_total_ = 0, render_ms_max_ = 0;
};

}  // namespace weft::xr
