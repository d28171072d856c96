#pragma once
// Stage 5's response on a Vulkan compute device (issue 36, Build 2): the contacts gpu/gpu_self_contacts.h finds,
// answered as sim/self_collision.h answers its own: position passes (each violated contact projected along its
// normal, mass-weighted so that sum m dx = 0, no vertex moved past max_move thicknesses from where the passes
// started, held vertices never moved), then velocity passes (the approach removed, Coulomb friction bounded by the
// larger of the approach and the pushed distance over h, no corner left faster than the fastest of its contact's
// four before the passes).
//
// Jacobi where the CPU is Gauss-Seidel: each contact writes its four corners' corrections into its own entries,
// each vertex adds its entries, summed in slot order through a vertex-to-entry table made after each search
// (integer atomics count and place; a sort by slot fixes the order): one device gives one result, no float
// atomics. Each contact's correction is divided by the number of contacts acting this pass on the busiest of its
// moving corners: a vertex under several contacts pushing one way moves by at most their mean, not their sum, and
// the one factor for all four corners keeps each contact's momentum (sum m dx = 0, sum m dv = 0). More passes than
// the CPU's (Jacobi converges more slowly): options.
//
// Then, as the CPU's project() ends, the rigid impact zones over the contacts still violated and over the triangle
// pairs the corrections made cross (gpu/gpu_impact_zones.h, gpu/gpu_self_crossing.h), the zoned vertices held
// through the velocity passes. Not the CPU's whole stage 5: no detection again around the zones (the CPU's sweeps),
// no tangles (untangling, the crossing pairs left out), no overlaps opened, no alternation with the colliders. So
// the GPU step still refuses self-collision (gpu/step_device.cpp); docs/gpu.md says what is missing.
//
// Shaped like the step's other stages: buffers, pipelines and the command buffer made once at load; resolve()
// packs the state into a mapped buffer, submits once (search then response) and reads x and v back: nothing is
// allocated per call. record_response records the kernels into a caller's command buffer after record_search.
#include <cstdint>
#include <memory>

#include <glm/glm.hpp>
#include <vulkan/vulkan.h>

#include "gpu/compute_context.h"
#include "gpu/device_buffer.h"
#include "gpu/gpu_impact_zones.h"
#include "gpu/gpu_self_contacts.h"
#include "sim/cloth_model.h"
#include "sim/cloth_state.h"
#include "sim/self_collision.h"

namespace weft {

struct GpuSelfResponseOptions {
  int position_passes = 24;  // Jacobi passes over the contacts (the CPU: config.iterations Gauss-Seidel passes, 8); 0: none
  // Jacobi velocity passes (the CPU: 1 + config.iterations / 4 Gauss-Seidel passes, 3; 0 here takes that count). On
  // the CPU's own states along the 160 degree fold (gpu_self_response_test.cpp, 12 ticks), the velocities end 0.98
  // m/s (RMS, summed) from the CPU's stage 5 with 3 passes, 0.63 with 12 (no better with 24), where the CPU with its
  // triangles listed in reverse (its contacts in another order) ends 0.64 from it: 3 were under-converged.
  int velocity_passes = 12;
  bool answer_velocities = true;  // false: positions only (a test of the passes and zones alone)
  // After the position passes: the rigid impact zones over the contacts still violated, then over the triangle pairs
  // the corrections made cross (gpu/gpu_impact_zones.h, gpu/gpu_self_crossing.h), as the CPU's project() ends.
  bool impact_zones = true;
  GpuImpactZoneOptions zones;
};

struct GpuSelfResponseStats {
  uint64_t contacts = 0;        // live contacts answered (vertex-triangle and edge-edge)
  uint64_t vertex_triangle = 0;
  uint64_t edge_edge = 0;
  uint64_t dropped = 0;         // found beyond a feature's slots (not answered)
  float max_violation = 0;      // largest (thickness - distance) left after the position passes, m
  float first_violation = 0;    // largest violation any pass met (the first pass's, m)
  GpuImpactZoneStats zones;     // the impact zones and the crossing check (options.impact_zones)
};

class GpuSelfResponse {
 public:
  // The search (its own GpuSelfContacts) and the response for this model and config; h, the tick, for the
  // friction's pushed / h.
  GpuSelfResponse(std::shared_ptr<ComputeContext> context, const ClothModel& model, const SelfCollisionConfig& config,
                  float h, const GpuSelfResponseOptions& options = {}, const GpuSelfContactOptions& search = {});
  ~GpuSelfResponse();
  GpuSelfResponse(const GpuSelfResponse&) = delete;
  GpuSelfResponse& operator=(const GpuSelfResponse&) = delete;

  // One search at state's positions (the step started at xp, nvert) and its response, written back into state's
  // positions and velocities. immovable (nvert, optional; World: the vertices on a collider): nonzero entries held,
  // as kinematic ones are.
  void resolve(const ClothModel& model, ClothState& state, const glm::vec3* xp, const uint8_t* immovable = nullptr);

  // For a step that records stage 5 into its own submit: the search's inputs (gpu_self_contacts.h) plus the
  // velocities (a vec4 per vertex) and inverse masses (a float per vertex, 0: held), filled by the caller's
  // transfers; record_response after the search corrects x (the search's buffer) and v in place.
  struct Inputs {
    VkBuffer x, start, kinematic, velocity, inv_mass;
  };
  Inputs inputs() const;
  void record_response(VkCommandBuffer c) const;
  const GpuSelfResponseStats& stats() const { return stats_; }
  const GpuSelfContacts& search() const { return *search_; }
  // The zones and the crossing check (null without options.impact_zones).
  GpuImpactZones* zones() { return zones_.get(); }

 private:
  void record();

  std::shared_ptr<ComputeContext> ctx_;
  std::unique_ptr<GpuSelfContacts> search_;
  std::unique_ptr<GpuImpactZones> zones_;
  uint32_t n_ = 0, ntri_ = 0, nedge_ = 0, slots_ = 0;
  int position_passes_ = 0, velocity_passes_ = 0;
  bool answer_velocities_ = true;
  static constexpr uint32_t kBindings = 16;  // self_response_layout.glsl's
  DeviceBuffer buf_[kBindings]{};
  DeviceBuffer up_, down_;  // mapped: x, xp, kinematic, v, 1 / m in; x, v, globals, counts out
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
  enum Kernel { Count, Scan, Scatter, Sort, Position, Move, Acting, Velocity, kKernels };
  VkShaderModule modules_[kKernels]{};
  VkPipeline pipelines_[kKernels]{};
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  GpuSelfResponseStats stats_;
};

}  // namespace weft
