#pragma once
// Stage 5's contact search on a Vulkan compute device (issue 36, Build 2: "self-collision with a GPU-suited
// broad phase"): the proximities sim/self_collision.h's detection finds, found by a spatial hash instead of
// its triangle BVH. Broad phase: every vertex into a cell of a uniform grid (cell = the longest rest edge +
// the reach), the cells hashed into buckets, the vertices counting-sorted by bucket (integer atomics count
// and place them; each bucket is then sorted by vertex index, so the result does not depend on their
// order); and an LBVH over the edges' boxes grown by their travel, built each search (Morton codes, a radix
// sort without atomics, Karras 2012's build, a bottom-up refit). Narrow phase, as
// SelfCollision::add_vertex_triangle and add_edge_edge test a pair: per triangle, the vertices of the cells
// its box spans; per edge, the edges the tree gives; contacts closer than thickness x detection_scale now, or
// crossed during the step (sides from the step's start, the coplanarity time for features that moved on),
// oriented by the start of the step. Each triangle and edge writes its contacts into its own slots, in cell
// then vertex order (an edge keeps the smallest keys the hash gave before the tree): one device gives one
// contact list, no float atomics.
//
// Not the CPU's whole detection: no curvature criterion (the hash finds the pairs inside flat patches that
// the BVH's cones skip: more contacts on a folded sheet, all true proximities), no tangle bookkeeping, no
// seams or cut twins (the GPU step refuses seams). The position and velocity passes and the impact zones are
// gpu/gpu_self_response.h (hash() lends the broad phase to its crossing check); docs/gpu.md says what is missing
// before self-collision runs on the GPU.
//
// Shaped like the step's other stages: buffers, pipelines and the command buffer made once at load;
// detect() packs x, the step's start and the kinematic flags into a mapped buffer, submits once and reads
// the slots back into contacts(), reserved at load: nothing is allocated per call.
#include <cstdint>
#include <memory>
#include <vector>

#include <glm/glm.hpp>
#include <vulkan/vulkan.h>

#include "gpu/compute_context.h"
#include "gpu/device_buffer.h"
#include "sim/cloth_model.h"
#include "sim/self_collision.h"

namespace weft {

struct GpuSelfContactOptions {
  uint32_t slots_per_triangle = 8;  // vertex-triangle contacts kept per triangle (more are counted, dropped)
  uint32_t slots_per_edge = 8;      // edge-edge contacts kept per edge
  uint32_t max_span = 8;            // cells per axis one query may visit (a blown-up state is clipped, counted)
  bool edge_brute_force = false;    // every edge pair instead of the LBVH's (a test's reference: O(edges^2))
};

struct GpuSelfContactStats {
  uint64_t vertex_triangle = 0;  // contacts kept
  uint64_t edge_edge = 0;
  uint64_t crossed = 0;          // of those, features that changed side during the step
  uint64_t dropped = 0;          // found beyond a triangle's or an edge's slots
  uint64_t clipped = 0;          // queries clipped to max_span cells per axis
  uint64_t non_finite = 0;       // vertices not finite now or at the step's start: their features are skipped
  uint64_t edge_pairs_tested = 0;   // edge pairs (a < b) the broad phase handed to the narrow phase
  uint64_t lbvh_nodes_visited = 0;  // tree nodes the edges' queries visited
  double gpu_ms = 0;             // the search's GPU time (timestamps; 0 without)
  double edge_edge_ms = 0;       // of which the edges' part: their LBVH and their queries
};

class GpuSelfContacts {
 public:
  // Tables and buffers from the model, cell size from its longest rest edge and config's reach (load time).
  GpuSelfContacts(std::shared_ptr<ComputeContext> context, const ClothModel& model, const SelfCollisionConfig& config,
                  const GpuSelfContactOptions& options = {});
  ~GpuSelfContacts();
  GpuSelfContacts(const GpuSelfContacts&) = delete;
  GpuSelfContacts& operator=(const GpuSelfContacts&) = delete;

  // Finds the contacts of positions x (nvert) whose step started at xp (nvert); kinematic (nvert, nonzero:
  // imposed) as push_contact reads it. Fills contacts() (vertex-triangle in triangle order, then edge-edge in
  // edge order; inv_mass_sum and pushed left 0: the response computes them) and stats().
  void detect(const glm::vec3* x, const glm::vec3* xp, const uint8_t* kinematic);
  const std::vector<SelfContact>& contacts() const { return contacts_; }

  // For a step that records the search into its own submit (once the positions after stage 4 are made on the
  // device): the buffers the search reads, filled by the caller's transfers before record_search (x and the
  // step's start: a vec4 per vertex; the kinematic flags: a uint per vertex), and the search recorded after
  // them (it ends with a compute barrier; its pipeline layout binds set 0). detect() records it the same way.
  struct Inputs {
    VkBuffer x, start, kinematic;
  };
  Inputs inputs() const;
  void record_search(VkCommandBuffer c) const;
  // What the search leaves on the device for the response (gpu/gpu_self_response.h): contacts found per triangle
  // and per edge, and their slots (options' slots_per_triangle per triangle, then slots_per_edge per edge).
  struct Outputs {
    VkBuffer vt_count, vt_out, ee_count, ee_out;
  };
  Outputs outputs() const;
  // The broad phase it leaves on the device (self_layout.glsl's bindings), for the crossing check after the
  // passes (gpu/gpu_self_crossing.h): its parameters, the topology, each vertex's cell and the vertices by bucket.
  struct Hash {
    VkBuffer params, tri, edge, edge_off, edge_list, vcell, bucket_start, sorted;
  };
  Hash hash() const;
  const GpuSelfContactOptions& options() const { return options_; }
  const GpuSelfContactStats& stats() const { return stats_; }
  float cell_size() const { return cell_; }
  uint32_t buckets() const { return buckets_; }

 private:
  using Buffer = DeviceBuffer;
  Buffer make_buffer(VkDeviceSize size, VkBufferUsageFlags usage, bool host);
  void destroy(Buffer& b);
  void upload_once(Buffer& dst, const void* data, VkDeviceSize size);
  void record();
  void record_kernels(VkCommandBuffer c, bool timed) const;

  std::shared_ptr<ComputeContext> ctx_;
  GpuSelfContactOptions options_;
  uint32_t n_ = 0, ntri_ = 0, nedge_ = 0, buckets_ = 0, chunks_ = 0;
  float cell_ = 0;
  static constexpr uint32_t kBindings = 30;  // self_layout.glsl's (lavapipe allows 32 a stage)
  Buffer buf_[kBindings]{};
  Buffer up_, down_;  // mapped: x, xp, kinematic in; counts, slots and globals out
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
  enum Kernel {
    Prepare, Scan, Scatter, Sort, VertexTriangle, EdgeEdge, Fans, Morton, RadixCount, RadixScan, RadixPlace, LbvhBuild,
    LbvhRefit, kKernels
  };
  VkShaderModule modules_[kKernels]{};
  VkPipeline pipelines_[kKernels]{};
  VkQueryPool queries_ = VK_NULL_HANDLE;
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  std::vector<SelfContact> contacts_;  // reserved for every slot
  GpuSelfContactStats stats_;
};

}  // namespace weft
