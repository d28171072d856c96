#pragma once
// Draws one cloth snapshot (plus floor, table, contact shadow and hand/tracker gizmos) into a target
// image it is handed. It never sees the simulation: only SnapshotMesh (once) and ClothSnapshot (per
// frame). Vertex data is streamed into one persistently mapped buffer per frame in flight, so copying
// a new snapshot never waits for the GPU to finish an older frame. The indices and material coordinates
// live in the same buffers, sized for the mesh's capacities, and are copied into a slot only when the
// snapshot's topology generation differs from the one that slot holds (a cut or removal); a snapshot beyond
// the capacities grows them (doubled, after the device is idle: rare, never per frame).
#include <array>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>
#include <vulkan/vulkan.h>

#include "engine/camera.h"
#include "engine/gpu_resources.h"
#include "engine/render_target.h"
#include "engine/scene_props.h"
#include "engine/snapshot.h"

namespace weft {

class VulkanContext;

struct RenderSettings {
  bool strain_view = false;                     // colour the cloth by strain instead of the fabric pattern
  glm::vec3 clear_color{0.70f, 0.74f, 0.80f};   // sky, linear RGB
  float time = 0.f;                             // s
};

class Renderer {
 public:
  // table parts + hands + trackers + the snapshot's solids (colliders and rigid boxes)
  static constexpr uint32_t kMaxInstances = 48;
  // A sphere or capsule: bands of quads around its axis (shaders/solid.vert, whose numbers these are).
  static constexpr uint32_t kRoundSegments = 24, kRoundRings = 8;  // around; per hemisphere
  static constexpr uint32_t kRoundVertices = (2 * kRoundRings + 1) * kRoundSegments * 6;

  // color_format: the format of every target image this renderer will draw into. depth_format: that
  // of the depth images targets bring (VK_FORMAT_UNDEFINED: the renderer picks, see depth_formats()).
  Renderer(VulkanContext& ctx, VkFormat color_format, const SnapshotMesh& mesh, const SceneProps& props,
           uint32_t frames_in_flight = 2, VkFormat depth_format = VK_FORMAT_UNDEFINED);
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  uint32_t frames_in_flight() const { return uint32_t(slots_.size()); }
  size_t vertex_count() const { return vertex_count_; }  // of the last upload
  size_t vertex_capacity() const { return vertex_capacity_; }
  size_t triangle_capacity() const { return triangle_capacity_; }
  uint64_t capacity_growths() const { return growths_; }  // times a snapshot outgrew the buffers
  VkFormat color_format() const { return color_format_; }
  VkFormat depth_format() const { return depth_format_; }
  // Depth formats the renderer can use, best first (no stencil: it has no use for one).
  static constexpr std::array<VkFormat, 3> kDepthFormats = {VK_FORMAT_D32_SFLOAT, VK_FORMAT_X8_D24_UNORM_PACK32,
                                                             VK_FORMAT_D16_UNORM};
  // True when the device can render depth into this format with optimal tiling.
  static bool depth_attachment_supported(VkPhysicalDevice device, VkFormat format);

  // Copies the snapshot into the slot's buffer. The GPU must be done with the slot (its fence waited).
  // Throws std::invalid_argument when the snapshot's arrays disagree in size or a triangle names a vertex
  // it does not have. A snapshot with no topology (generation 0, no triangles) is drawn with the mesh's.
  void upload(uint32_t slot, const ClothSnapshot& snapshot);
  // Records the drawing of the slot's data into target (called once per eye in XR).
  void record(VkCommandBuffer cmd, uint32_t slot, const TargetImage& target, const RenderView& view,
              const RenderSettings& settings);

 private:
  struct Slot {
    HostBuffer vertices;     // position, normal, strain, grasped, instances, indices, material (offsets below)
    uint32_t instance_count = 0;  // boxes first (cube draws), then
    uint32_t round_count = 0;     // spheres and capsules (round draws)
    uint32_t index_count = 0;     // of the topology this slot holds
    uint64_t topology = ~uint64_t(0);  // its generation (none yet: ~0)
  };
  void create_slots(size_t vertex_capacity, size_t triangle_capacity);
  void destroy_slots();
  VkPipeline make_pipeline(const char* vert, const char* frag, const VkPipelineVertexInputStateCreateInfo& input,
                           bool depth_write, bool min_blend);
  void ensure_depth(VkExtent2D extent);

  VulkanContext& ctx_;
  VkFormat color_format_;
  VkFormat depth_format_ = VK_FORMAT_UNDEFINED;
  size_t vertex_count_ = 0;
  size_t vertex_capacity_ = 0, triangle_capacity_ = 0;
  uint64_t growths_ = 0;
  SnapshotTopology mesh_;  // the mesh at load: drawn for snapshots that carry no topology
  SceneProps props_;
  std::vector<glm::mat4> prop_boxes_;  // unit-cube transforms of the table parts
  // Offsets into each slot's buffer, bytes.
  VkDeviceSize off_normal_ = 0, off_strain_ = 0, off_grasped_ = 0, off_instances_ = 0;
  VkDeviceSize off_indices_ = 0, off_material_ = 0;
  std::vector<Slot> slots_;
  GpuImage depth_;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline cloth_ = VK_NULL_HANDLE, shadow_ = VK_NULL_HANDLE, floor_ = VK_NULL_HANDLE, solid_ = VK_NULL_HANDLE;
};

}  // namespace weft
