#pragma once
// Stage 5's rigid impact zones on a Vulkan compute device (issue 36, Build 2): Provot's zones (Provot 1997;
// Bridson, Fedkiw & Anderson 2002) as sim/self_collision.cpp's impact_zones and zone_crossings form and move them,
// after the position passes (gpu/gpu_self_response.h):
//   1. rounds over the contacts: every contact still closer than (1 - zone_violation) x thickness joins its free
//      weighted corners into one zone; where the zones grew, each zone moves rigidly from the step's start at its
//      mass-weighted mean velocity (momentum kept), which its vertices take; until a round does not grow;
//   2. rounds over the crossing pairs (gpu/gpu_self_crossing.h, with shifted from the last move): each pair's six
//      free corners join one zone, the zones move again; until a round finds none that grows them;
//   3. the zoned vertices held through the velocity passes (the CPU holds them once its zones grew).
// The union is deterministic without float atomics: roots hooked under the smaller root by integer atomicMin and
// paths compressed, a fixed number of times a round (the unions still unfinished after them are counted); each
// zone then ends rooted at its smallest vertex whatever order the atomics ran in, and its root sums its members'
// momentum and mass in vertex order (a table counted, placed and sorted per root), as move_zones sums them.
//
// Not the CPU's whole project(): no cap on a zone's size (max_zone_vertices: a tangle could join the cloth into one
// zone), no detection again around the zones with the zones held followed by more position passes (the CPU's
// kZoneSweeps), and a fixed number of rounds (options) where the CPU stops when nothing grows (every round is
// recorded; one that does not grow does nothing).
#include <cstdint>
#include <memory>
#include <vector>

#include <vulkan/vulkan.h>

#include "gpu/compute_context.h"
#include "gpu/device_buffer.h"
#include "gpu/gpu_self_contacts.h"
#include "gpu/gpu_self_crossing.h"
#include "sim/cloth_model.h"
#include "sim/self_collision.h"

namespace weft {

struct GpuImpactZoneOptions {
  int contact_rounds = 4;   // rounds over the violated contacts (the CPU: config.zone_rounds, 16, until none grows)
  int crossing_rounds = 4;  // rounds of the crossing check (the CPU: config.zone_rounds, until none grows)
  int hooks = 8;            // hook-and-compress passes a round: a union needing more is counted as unfinished
  bool crossings = true;    // false: the contacts' zones only (no crossing check)
  bool keep_labels = false; // each vertex's zone copied back each call for labels() (tests: n x 8 bytes more down)
};

struct GpuImpactZoneStats {
  uint64_t contact_rounds = 0;   // rounds over the contacts that grew the zones
  uint64_t crossing_rounds = 0;  // crossing rounds that grew them
  uint64_t unfinished = 0;       // unions left unfinished by the hooks (0 expected; the zones are then wrong)
  uint64_t zone_vertices = 0;    // vertices moved rigidly
  uint64_t zones = 0;
  uint64_t largest_zone = 0;
  GpuSelfCrossingStats crossing;
};

class GpuImpactZones {
 public:
  // Wired to the search (contacts, positions x corrected in place, the step's start, kinematic flags), x0 (where the
  // corrections started) and the response's velocities and inverse masses (corrected in place). h: the tick.
  GpuImpactZones(std::shared_ptr<ComputeContext> context, const ClothModel& model, const SelfCollisionConfig& config,
                 float h, const GpuSelfContacts& search, VkBuffer x0, VkBuffer velocity, VkBuffer inv_mass,
                 const GpuImpactZoneOptions& options = {});
  ~GpuImpactZones();
  GpuImpactZones(const GpuImpactZones&) = delete;
  GpuImpactZones& operator=(const GpuImpactZones&) = delete;

  // The zones after the caller's position passes (which follow the search), ending with the counters copied for
  // read_stats and a compute barrier.
  void record(VkCommandBuffer c) const;
  // The counters the last submitted record() left (after the caller's fence).
  const GpuImpactZoneStats& read_stats();
  const GpuImpactZoneStats& stats() const { return stats_; }
  GpuSelfCrossing& crossing() { return *crossing_; }
  // With options.keep_labels, after read_stats: each vertex's zone, its smallest vertex (kNoZone: in none).
  static constexpr uint32_t kNoZone = 0xffffffffu;
  const std::vector<uint32_t>& labels() const { return labels_; }

 private:
  void record_rounds(VkCommandBuffer c, uint32_t source, int rounds) const;

  std::shared_ptr<ComputeContext> ctx_;
  std::unique_ptr<GpuSelfCrossing> crossing_;
  GpuImpactZoneOptions options_;
  uint32_t n_ = 0, ntri_ = 0, slots_ = 0;
  static constexpr uint32_t kBindings = 22;  // zone_layout.glsl's
  DeviceBuffer params_, mass_, parent_, zoned_, count_, start_, list_, sum_, global_, stats_down_;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
  enum Kernel { Reset, Join, Hook, Compress, Count, Scan, Place, Sum, Move, Finish, kKernels };
  VkShaderModule modules_[kKernels]{};
  VkPipeline pipelines_[kKernels]{};
  GpuImpactZoneStats stats_;
  DeviceBuffer labels_down_;      // keep_labels: parents then zoned flags
  std::vector<uint32_t> labels_;  // keep_labels (n)
};

}  // namespace weft
