#pragma once
// Stage 4 of the tick (sim/world_stages.h resolve_contacts) on the GPU: the tethers, the strain limiter and
// the colliders' position passes, alternated as sim/stage_contacts.cpp alternates them, the limiter last.
// GpuIntegrator owns it and runs it right after the end of its step, so that World::step skips the CPU pass
// (Integrator::runs(PostSolveStage::StrainLimit) and ColliderPasses).
//
// - the tethers (sim/tether.h), one kernel per set (a hand's, the pins'), per vertex: each anchor is a source
//   of its own set, never moved, so the vertices of a set run at once;
// - the limiter (sim/strain_limit.h) as Gauss-Seidel over a colouring of the edges (sim/edge_colouring.h):
//   the edges of one colour share no vertex and run at once, colour after colour, the colours' order
//   reversed every other sweep (the CPU alternates its sweeps' direction). Every sweep looks at every edge
//   (the CPU's later sweeps look only near what moved: the same edges are over the limit);
// - the colliders (sim/collider.cpp resolve_collisions), per vertex over the colliders in order: planes,
//   spheres, capsules and boxes, still, moving or following a device, with Coulomb friction on the tick's
//   motion and the swept tests.
// The sweeps and passes past convergence are recorded but skipped by flags a one-invocation kernel sets on
// the device (gpu/shaders/stage_control.comp), as sim/strain_limit.cpp and sim/stage_contacts.cpp decide;
// maxima are integer maxima of float bits and counts integer sums: one device, one result.
//
// Its own descriptor set, pipeline layout and command buffer (recorded once, at the first step: it fixes h
// and reads the world's interaction settings); per tick x, v, the vertices' kinematic and held flags, the
// active tether sets and the colliders go in, x, v and the contact flags come out: nothing is allocated.
// Fused (GpuStepOptions::one_submit, the default): the same kernels recorded into the step's command buffer
// after its end (record_fused), x and v taken from the step's slots on the device, the release grip's throw
// (gpu/shaders/release_throw.comp) first, the state after it copied out for the CPU's post-solve measures
// (the fail-safe's energy, the solved lengths): one submit a tick, x and v not uploaded twice.
#include <array>
#include <cstdint>

#include <vulkan/vulkan.h>

#include "gpu/gpu_integrator.h"
#include "sim/cloth_model.h"
#include "sim/step_report.h"
#include "sim/world_model.h"
#include "sim/world_scratch.h"
#include "sim/world_state.h"

namespace weft {

class GpuContactStage {
 public:
  static constexpr uint32_t kMaxColliders = 64;  // step_device refuses a scene with more
  GpuContactStage(GpuIntegrator& owner, const ClothModel& model, const GpuStepOptions& options);
  ~GpuContactStage();
  GpuContactStage(const GpuContactStage&) = delete;
  GpuContactStage& operator=(const GpuContactStage&) = delete;

  // The stage on the state the step just ended (x at the end of the step, x_prev the integrator's start
  // positions on the device): one submit, then x, v, the collider contact flags (scratch.collider_contact),
  // the contact axes and stats.strain and stats.collision as resolve_contacts leaves them.
  void run(const WorldModel& world, WorldState& state, WorldScratch& scratch, StepReport& stats, float h);
  // The fused tick's halves: before the step's submit, its inputs (fused: not x and v; the freed vertices
  // that keep the release grip's throw, at most kMaxFreed, else false: the tick takes two submits); after it,
  // what run() reads back.
  static constexpr uint32_t kMaxFreed = 256;  // two hands' 3 cm patches on a 64k-vertex metre of cloth
  bool pack_fused(const WorldModel& world, WorldState& state, const WorldScratch& scratch, float h);
  void read_back(WorldState& state, WorldScratch& scratch, StepReport& stats);
  // Its download's x and v (n each; their w as the step's end left them: the kept contacts' normal impulses
  // and flags), for a one-submit tick that brought no end-of-step state back.
  const float* state_download() const { return static_cast<const float*>(down_.mapped); }
  // Records the stage into the step's command buffer c after its end of step (x, v in the step's slots
  // x_slot, x_slot + 1): the copies in, the throw, the state after it into the step's download (its x and v;
  // only with `solved`), the stage's kernels and its download.
  // brief: at most `brief_sweeps` sweeps a pass and `brief_rounds` rounds (GpuStepOptions), the run flagged
  // truncated where they ran out before convergence.
  void record_fused(VkCommandBuffer c, const WorldModel& world, float h, VkDeviceSize x_slot, bool solved,
                    bool brief = false);
  // Whether the last brief run ran out before convergence (read from its download): rerun it whole.
  bool truncated() const;
  // What a tick copies up: all of up_ but the freed vertices (two submits) or but x and v (fused); with the
  // collider table shared (stage 3 fills it), its header only.
  uint64_t tick_upload_bytes() const { return up_.size - freed_bytes() - shared_table_bytes(); }
  uint64_t fused_upload_bytes() const { return up_.size - 2 * 16 * VkDeviceSize(n_) - shared_table_bytes(); }
  uint64_t tick_download_bytes() const { return down_.size; }
  size_t colour_count() const { return colours_.size(); }
  // The collider table (collider_shape.glsl's: a header vec4 with the count, then 8 vec4 a collider), which
  // stage 3's resting-contact search (gpu/gpu_resting_contacts.h) fills in its own submit, before this one.
  static constexpr VkDeviceSize collider_table_bytes() { return 16 * VkDeviceSize(1 + 8 * kMaxColliders); }
  static void pack_colliders(const std::vector<Collider>& colliders, float* table);
  VkBuffer collider_table() const;
  // Stage 3 fills the table each tick: this stage then copies only its header (the tether sets' mask).
  void share_collider_table() { table_shared_ = true; recorded_h_ = 0; }
  // The last run's alternation passes and the sweeps of its first limiting pass (tests, docs).
  uint32_t alternation_passes() const { return alt_passes_; }
  uint32_t first_sweeps() const { return first_sweeps_; }
  // Dispatches its last recording held (the recorded maxima: those past convergence have no groups but still
  // their barrier), the release grip's throw not counted; brief: a one-submit tick's.
  uint32_t recorded_dispatches(bool brief = false) const { return dispatches_[brief ? 1 : 0]; }

 private:
  void record(const WorldModel& world, float h);
  // The stage's kernels and download into c, after its inputs (record and record_fused).
  void record_kernels(VkCommandBuffer c, const WorldModel& world, float h, bool brief = false);
  // x, v (unless fused), the vertex flags, tether sets and colliders (fused: and the freed vertices) into up_.
  void pack(const WorldModel& world, WorldState& state, const WorldScratch& scratch, bool fused, float h);
  VkDeviceSize freed_bytes() const { return 16 * VkDeviceSize(kMaxFreed); }
  VkDeviceSize shared_table_bytes() const { return table_shared_ ? collider_table_bytes() - 16 : 0; }

  GpuIntegrator& owner_;
  GpuStepOptions options_;
  uint32_t n_ = 0, nedge_ = 0;
  struct Colour {
    uint32_t begin, count;
  };
  std::vector<Colour> colours_;
  using Buf = GpuIntegrator::Buffer;
  static constexpr uint32_t kBindings = 11;  // contact_layout.glsl's, and release_throw.comp's Freed
  static constexpr uint32_t kTetherSets = kDeviceCount + 1;  // each device's, then the pins'
  std::array<Buf, kBindings> buf_{};
  Buf up_, down_;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
  enum Kernel { Tethers, StrainSweep, StageControl, Collide, ReleaseThrow, kKernels };
  VkShaderModule modules_[kKernels]{};
  VkPipeline pipelines_[kKernels]{};
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  float recorded_h_ = 0;
  uint32_t alt_passes_ = 0, first_sweeps_ = 0;
  std::array<uint32_t, 2> dispatches_{};  // full, brief
  bool table_shared_ = false;
};

}  // namespace weft
