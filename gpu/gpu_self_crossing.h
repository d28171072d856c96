#pragma once
// Stage 5's crossing check on a Vulkan compute device (issue 36, Build 2): SelfCollision::zone_crossings' search
// (sim/self_collision.cpp) for the triangle pairs that stage 5's corrections made cross. A pair counts when its
// triangles share no corner, a corner of either moved (since the corrections started in the first round, by the
// last impact-zone move after it), and they cross now but did not where the corrections started, or did there but
// not at the step's start (a pair crossing at the step's start too is a tangle, left alone: the GPU keeps no tangle
// state). Two triangles cross iff an edge of one crosses the other (sim/collision_geometry.h's
// triangles_intersect), so the broad phase is the search's spatial hash (gpu/gpu_self_contacts.h): per triangle,
// the edges with an end in the cells its box spans, grown by the longest edge now and by the farthest any vertex
// moved from its hash position. The orientation tests are in float (the CPU's in double): the two can differ only
// where four points lie within float rounding of one plane.
//
// Each pair is written once, by the triangle that hosts its first witness (host, edge), into that triangle's own
// slots in the order the cells and vertices are visited: one device gives one list, no float atomics.
// gpu/gpu_impact_zones.h joins the pairs' vertices into zones. record_find runs inside the response's command
// buffer; find() runs the search and the check alone (the tests' parity with the CPU's predicate).
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include <glm/glm.hpp>
#include <vulkan/vulkan.h>

#include "gpu/compute_context.h"
#include "gpu/device_buffer.h"
#include "gpu/gpu_self_contacts.h"
#include "sim/cloth_model.h"

namespace weft {

struct GpuSelfCrossingStats {
  uint64_t pairs = 0;    // crossing pairs found (summed over the rounds)
  uint64_t dropped = 0;  // found beyond a triangle's slots (not joined)
  uint64_t clipped = 0;  // queries clipped to the search's max_span cells per axis
};

class GpuSelfCrossing {
 public:
  // Wired to the search (its hash, topology and positions: x, corrected in place, and the step's start), to x0,
  // the positions where the corrections started (the hash's), and to gate, the zones' counters (a uint buffer whose
  // [2] counts the crossing rounds that grew: a round after one that did not finds nothing). slots: pairs kept per
  // triangle.
  GpuSelfCrossing(std::shared_ptr<ComputeContext> context, const ClothModel& model, const GpuSelfContacts& search,
                  VkBuffer x0, VkBuffer gate, uint32_t slots = 4);
  ~GpuSelfCrossing();
  GpuSelfCrossing(const GpuSelfCrossing&) = delete;
  GpuSelfCrossing& operator=(const GpuSelfCrossing&) = delete;

  // Round `round` of the check after the search: the first clears the stage's counters and takes shifted from
  // x != x0; later ones read the shifted flags the last zone move wrote, and find nothing unless every round before
  // grew the zones. Ends with a compute barrier.
  void record_find(VkCommandBuffer c, uint32_t round) const;
  // The check alone (tests): the search at x0 (its step from xp; kinematic nonzero: imposed), then one first round
  // at x. Fills pairs() (lower triangle first, in slot order) and stats(). Allocates nothing.
  void find(const glm::vec3* x, const glm::vec3* x0, const glm::vec3* xp, const uint8_t* kinematic);
  const std::vector<std::array<uint32_t, 2>>& pairs() const { return pairs_; }
  // Reads the counters a submitted record_find left (after the caller's fence); copied by record_stats.
  void record_stats(VkCommandBuffer c) const;
  const GpuSelfCrossingStats& read_stats();
  const GpuSelfCrossingStats& stats() const { return stats_; }

  struct Outputs {
    VkBuffer pair_count, pair_out, shifted;  // per triangle; slots per triangle (uvec2); per vertex (uint)
  };
  Outputs outputs() const;
  uint32_t slots() const { return slots_; }

 private:
  std::shared_ptr<ComputeContext> ctx_;
  const GpuSelfContacts* search_;
  uint32_t n_ = 0, ntri_ = 0, nedge_ = 0, slots_ = 0;
  VkBuffer x0_ = VK_NULL_HANDLE;
  static constexpr uint32_t kBindings = 18;  // crossing_layout.glsl's
  DeviceBuffer tri_edge_, edge_tri_, shifted_, global_, pair_count_, pair_out_;
  DeviceBuffer up_, down_, stats_down_;  // find(): x0, xp, kinematic, x in; counts, pairs, globals out
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
  enum Kernel { Prepare, Find, kKernels };
  VkShaderModule modules_[kKernels]{};
  VkPipeline pipelines_[kKernels]{};
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  std::vector<std::array<uint32_t, 2>> pairs_;  // reserved for every slot
  GpuSelfCrossingStats stats_;
};

}  // namespace weft
