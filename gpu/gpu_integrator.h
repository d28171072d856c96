#pragma once
// Stage 3 of the tick (sim/world_stages.h) on a Vulkan compute device: Kang & Cho's linearised backward
// Euler over springs (stretch and bending links) with relative damping and gravity, plus Volino's
// triangles, the weft/warp model and air (gpu/gpu_force_stage.h), solved by CG preconditioned with a V-cycle
// of mg's aggregation multigrid (gpu/gpu_multigrid.h; or block Jacobi; or, without CG, Chebyshev-accelerated
// Jacobi: gpu/gpu_chebyshev.h), the collider contacts and their
// friction kept in the solve as mg keeps them; and stage 4 (tethers, the
// limiter, the colliders' position passes: gpu/gpu_contact_stage.h) recorded into the same submit
// (GpuStepOptions::one_submit), or in a second submit at stage 4's place (run_post_solve) on a tick whose CPU
// passes between them write the state. Stages 1-2 and 5-7 stay on the CPU (gpu/step_device.h refuses the scenes whose features
// the GPU step does not run).
//
// Shaped for the sim thread: every buffer and the one command buffer are made once (the command buffer at
// the first step, which fixes h); a tick packs x, v, the kinematic velocities and the contacts into a mapped
// buffer, submits once, waits, and reads x and v at the step's end back (the end of the step, with its
// free-flight translation correction, runs on the device); nothing is allocated. Deterministic: per-vertex sums gather the links in a fixed (link) order and the dot products
// reduce in a fixed tree, no atomics.
#include <array>
#include <memory>
#include <vector>

#include <vulkan/vulkan.h>

#include "gpu/compute_context.h"
#include "gpu/device_buffer.h"
#include "sim/force_field.h"
#include "sim/integrator.h"

namespace weft {

class GpuForceStage;
class GpuContactStage;
class GpuMultigrid;
class GpuChebyshev;
struct SewnFilter;
class GpuSelfResponse;
class GpuRestingContacts;

struct GpuStepOptions {
  float tolerance = 1e-4f;  // relative residual: 1e-3 left a two-hand grab 7 mm (RMS) from the CPU step after 1 s, 1e-4 0.4 mm (docs/gpu.md)
  bool warm_start = true;   // start from last tick's dv (hanging cloth: 71 iterations instead of 100)
  int max_iterations = 150;  // recorded iterations; those after convergence are skipped by a flag on the device
  // The preconditioner: one aggregation-multigrid V-cycle (gpu/gpu_multigrid.h), or false: block Jacobi (the
  // default still: the multigrid's count grows with the mesh too, its stage 3 takes an H100 29.5 ms a tick at
  // 16k against block Jacobi's 3.7, it takes no sewn pairs, and the cotton disc ends 1.9 mm from mg after 1 s,
  // over the 1 mm bar: on the CPU CG's side of a split the solve's path decides; docs/gpu.md).
  bool multigrid = false;
  int mg_sweeps = 2;  // l1-Jacobi sweeps each way per level (more on the small levels: GpuMultigrid); 1: 41 iterations at 1k, 73 at 4k; 2: 29, 51
  // The coarse levels from the first under level 0 with at most this many nodes run their whole V-cycle in
  // one workgroup, one dispatch (gpu/shaders/mg_coarse.comp) instead of 2 s + 2 a level; 0: a dispatch per
  // level and step (the same bits: a test compares them). On an H100, 256 took the 16k bench grid's solve
  // from 34.1 to 29.5 ms a tick and 64k's from 47.4 to 41.2; 1024 and 4096 were slower than none at 64k and
  // 256k: one workgroup's passes over a thousand nodes cost more than the dispatches they save (docs/gpu.md).
  uint32_t mg_coarse_nodes = 256;
  // The solve as Kang & Cho's Jacobi iteration with Chebyshev acceleration (gpu/gpu_chebyshev.h): a fixed count
  // of iterations, one dispatch each and no reductions, in place of PCG (and of multigrid); false: PCG. Opt-in
  // (docs/gpu.md: the iterations it needs for PCG's accuracy).
  bool chebyshev = false;
  int chebyshev_iterations = 96;  // recorded, all run (an odd count is rounded up: the last iterate lands in dv)
  // > 0: that end of the interval the weights are made for (an eigenvalue of the block-Jacobi-preconditioned W)
  // as a constant instead of the bound and estimate made each tick (gpu/shaders/chebyshev_bound.comp); for
  // measuring their slack.
  float chebyshev_lo = 0.f, chebyshev_hi = 0.f;
  // The lower end is the uniform translation's Rayleigh quotient times this (an eigenvalue under the end converges
  // more slowly, one above the upper end diverges: the upper is a bound, this an estimate).
  float chebyshev_lo_scale = 0.25f;
  // Stage 4 (tethers, the strain limiter, the colliders' position passes) on the GPU after the step
  // (gpu/gpu_contact_stage.h), once a world is attached; false: World::step runs it on the CPU.
  bool contact_stage = true;
  // Sweeps recorded per limiting pass (the CPU's StrainLimitParams::iterations and near_iterations cap it
  // too): those past convergence are skipped on the device.
  int limit_sweeps = 64;
  // A one-submit tick records stage 4 brief: at most this many sweeps a limiting pass and rounds of the
  // alternation (0: the full maxima above). Where a pass or the alternation has not converged when the brief
  // recording runs out (stage_control.comp flags it), the tick reruns stage 4 whole from the end of the step in
  // a second submit (GpuContactStage::truncated): the same result, the same bits, as if recorded in full. The
  // bench's grid needs 1 sweep and no round; each recorded dispatch past convergence costs its barrier on an
  // H100 (docs/gpu.md).
  int brief_sweeps = 8;
  int brief_rounds = 4;
  // Tests: the solve's dv, the forces at the step's start and the contacts' whole impulses read back too
  // (solved_dv(), forces(), ContactFilter::work); the tick needs only the state at the step's end.
  bool read_back_solve = false;
  // Stage 5 (gpu/gpu_self_response.h: the self-contact search, its position passes, impact zones, crossing check and
  // velocity passes, then stage 4's limiter and colliders once more, the limiter last) after stage 4, for a world
  // with self-collision. Off by default: not yet the CPU's whole stage 5 (no alternation with the colliders inside
  // it, tangles, overlaps opened),
  // so gpu/step_device.cpp still refuses self-collision; tests turn it on.
  bool self_response = false;
  // Stage 3's resting-contact search (find_resting_contacts, leave_flat_landings) on the device, at the head of
  // the step's submit (gpu/gpu_resting_contacts.h), once a world is attached and stage 4 runs here (its collider
  // table); false: found on the CPU and uploaded, 32 bytes a vertex.
  bool resting_search = true;
  // Stage 4 recorded into the step's command buffer (GpuContactStage::record_fused): one submit and one fence
  // wait a tick, x and v not uploaded again, the release grip's throw on the device between them. A tick whose
  // CPU passes between the step and stage 4 write the state (the freed relaxation, the release recoil's end,
  // seams) takes the two submits still (docs/gpu.md). False: always two (tests: the CPU's passes).
  bool one_submit = true;
};

// GPU time of the last step by stage (timestamps; zero when the device has none), ms.
struct GpuStageTimes {
  double upload = 0;    // the packed state into the device's buffers
  double forces = 0;    // link forces and Jacobian blocks, per-vertex assembly
  double solve = 0;     // the PCG iterations, the contacts' impulses, the end of the step (x, v); stage 4 too on
                        // a one-submit tick
  double download = 0;  // x and v back
  double total() const { return upload + forces + solve + download; }
};

class GpuIntegrator final : public Integrator {
 public:
  GpuIntegrator(std::shared_ptr<ComputeContext> context, const ClothModel& model, const SolverOptions& solver,
                const GpuStepOptions& options = {});
  ~GpuIntegrator() override;
  GpuIntegrator(const GpuIntegrator&) = delete;
  GpuIntegrator& operator=(const GpuIntegrator&) = delete;

  void step(const ClothModel& model, ClothState& state, float h) override;
  const char* name() const override { return options_.chebyshev ? "gpu-cheby" : options_.multigrid ? "gpu-mg" : "gpu-pcg"; }
  // The collider contacts are kept in the solve as mg keeps them (gpu/shaders/contact_friction.glsl).
  bool filters_contacts() const override { return true; }
  // Stage 4 whole (tethers and limiter, the colliders, alternated) once a world is attached; stage 6, the
  // plastic rest state's update (gpu/shaders/plasticity.comp), when the material has plasticity: at the head
  // of the next submit, on the positions stages 4-5c left.
  // And, on a one-submit tick (GpuStepOptions::one_submit), the release grip's throw (ReleaseThrow).
  bool runs(PostSolveStage stage) const override;
  void attach_world(const WorldModel& model, WorldState& state, WorldScratch& scratch, StepReport& report) override;
  // Stage 4 on the device: a second submit, or on a one-submit tick its result, already read back.
  void run_post_solve(float h) override;
  // Whether the last tick was one submit (stage 4 in the step's command buffer), and how many there were.
  bool last_tick_one_submit() const { return fused_; }
  // Whether it brought the state after the solve back (World::step read it: WorldScratch::solved_state_read).
  bool last_tick_brought_solved_state() const { return !lean_; }
  uint64_t submits() const { return submits_; }
  // One-submit ticks whose brief stage 4 ran out before convergence and was rerun whole (a second submit).
  uint64_t stage4_reruns() const { return stage4_reruns_; }
  // The multigrid preconditioner (options.multigrid), or null (tests).
  const GpuMultigrid* multigrid() const { return multigrid_.get(); }
  // The stage-4 stage, or null (tests).
  const GpuContactStage* contact_stage() const { return contact_stage_.get(); }
  // The stage-5 response (GpuStepOptions::self_response), made at its first tick, or null.
  const GpuSelfResponse* self_response() const { return self_response_.get(); }
  const GpuStageTimes& stage_times() const { return times_; }
  // Compute dispatches in the recorded stage-3 command buffer (all its iterations), and in one PCG iteration
  // (the product, the reductions, the updates and the preconditioner's): each waits on the one before it.
  uint32_t recorded_dispatches() const { return dispatches_; }
  uint32_t dispatches_per_iteration() const { return dispatches_per_iteration_; }
  // The Chebyshev solve's last tick: the damping gamma and the spectral radius rho its weights used (0, 0 without).
  float chebyshev_gamma() const { return cheby_gamma_; }
  float chebyshev_rho() const { return cheby_rho_; }
  // Summed over every timed step so far, and how many (`--json`'s gpu_ms: the mean per tick).
  const GpuStageTimes& stage_time_sums() const { return sums_; }
  uint64_t timed_steps() const { return timed_; }
  const ComputeContext& context() const { return *ctx_; }
  // Bytes the recorded command buffers copy in and out each tick: the whole state (x, v, the kinematic
  // velocities, the contacts and their axes; the weave's rest angles, or with plasticity its gate) in, x and
  // v at the step's end, the contacts' impulses and the scalars (and the plastic rest state) out, and stage
  // 4's state in and out (once it runs: a world attached), because stages 1-2 and 5-7 run on the CPU between
  // submits (docs/gpu.md).
  uint64_t tick_upload_bytes() const;
  uint64_t tick_download_bytes() const;
  // With GpuStepOptions::read_back_solve (tests): the last step's forces at its start state (force; air's
  // drag_coefficient) and its solved dv before the end of the step; zero without.
  const ForceBuffers& forces() const { return forces_; }
  const std::vector<glm::vec3>& solved_dv() const { return dv_; }

 private:
  friend class GpuForceStage;    // builds its buffers with make_buffer and upload_once
  friend class GpuContactStage;  // the same, and copies the step's start positions (binding 0)
  friend class GpuMultigrid;     // the same
  friend class GpuRestingContacts;  // the same
  using Buffer = DeviceBuffer;
  Buffer make_buffer(VkDeviceSize size, VkBufferUsageFlags usage, bool host);
  void upload_once(Buffer& dst, const void* data, VkDeviceSize size);
  void record(const ClothModel& model, float h, bool sewn, bool searching);
  // fused: stage 4 recorded after the end of the step; solved: the state after the solve brought back too.
  void record_into(VkCommandBuffer c, const ClothModel& model, float h, bool sewn, bool searching, bool fused,
                   bool solved);
  // Whether this tick can be one submit: stage 4 runs here and nothing on the CPU writes the state between.
  bool one_submit_tick(bool sewn) const;
  // Stage 4 again, whole, from the end of the step on the device (a one-submit tick's brief stage 4 ran out).
  void rerun_stage4_whole(int variant, float h);
  // The resting-contact search (gpu/gpu_resting_contacts.h): whether this tick runs it, its per-tick packing,
  // and the contacts it kept back into ClothState::contact_filter (vertices and impulses; with read_back_solve
  // their normals, dv, slip and friction too), from x and v as the step's download or stage 4's carry them.
  bool searches() const;
  void pack_resting(float* v_up);
  void read_back_resting_contacts(ClothState& state, const float* xv) const;
  void read_back_contacts(ClothState& state, const float* xv) const;
  // The set bindings the step's kernels expect (after the multigrid's, which re-binds set 1).
  void bind_sets(VkCommandBuffer c) const;
  void make_sewn_upload();
  void record_chebyshev_ends(VkCommandBuffer c);
  void pack_sewn(const SewnFilter& filter);
  template <class Dispatch>
  void record_end_of_step(Dispatch& dispatch);
  void record_end_of_step_download(VkCommandBuffer c, bool xv);
  static void pack_contact_axes(const ContactAxes& axes, float* out);
  void pack_buckled_links(const ClothState& state, float* out) const;
  void read_back_end_of_step(ClothState& state, const float* down, float h, bool xv);

  std::shared_ptr<ComputeContext> ctx_;
  GpuStepOptions options_;
  bool translation_correction_;
  uint32_t n_ = 0, nlink_ = 0, groups_ = 0;
  std::array<Buffer, 17> buf_{};  // gpu/shaders/step_layout.glsl's bindings
  Buffer up_, down_;              // mapped: x v kin in; dv, force, scalars out
  Buffer sew_up_;                 // mapped: the sewn pairs in (kSew0, kSew1), once a world has them
  bool sewn_recorded_ = false;    // the command buffer projects onto the sewn pairs
  bool search_recorded_ = false;  // the command buffer finds the resting contacts (no contacts uploaded)
  size_t sew_packed_ = 0;         // entries the last tick packed
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkDescriptorPool descriptor_pool_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
  std::vector<VkShaderModule> modules_;
  std::vector<VkPipeline> pipelines_;
  VkQueryPool queries_ = VK_NULL_HANDLE;
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  float recorded_h_ = 0;
  uint32_t dispatches_ = 0, dispatches_per_iteration_ = 0;  // in the recorded command buffer
  float cheby_gamma_ = 0, cheby_rho_ = 0;                   // the Chebyshev solve's last interval
  // Stage 3 then stage 4 (GpuStepOptions::one_submit): [1] brings the state after the solve back too, for
  // a tick on which World::step reads it (WorldScratch::solved_state_read); [0] does not.
  std::array<VkCommandBuffer, 2> cmd_fused_{};
  std::array<float, 2> fused_h_{};           // h each was recorded for (0: not yet)
  std::array<bool, 2> fused_searching_{};    // ... and whether with the resting search
  // Stage 4 whole, for the ticks whose brief recording ran out (GpuStepOptions::brief_sweeps): [1] copies the
  // state after the throw into the step's download too, as cmd_fused_[1] does.
  std::array<VkCommandBuffer, 2> cmd_stage4_whole_{};
  std::array<float, 2> stage4_whole_h_{};
  uint64_t stage4_reruns_ = 0;
  VkFence fence_fused_ = VK_NULL_HANDLE;
  bool fused_ = false;            // the last tick was one submit
  bool lean_ = false;             // ... and did not bring the state after the solve back
  uint64_t submits_ = 0;
  ForceBuffers forces_;            // force (read back) and zero drag, for finish_implicit_step's correction
  std::vector<glm::vec3> dv_;      // the solved velocity change (n)
  GpuStageTimes times_, sums_;
  uint64_t timed_ = 0;
  const WorldModel* world_model_ = nullptr;  // attach_world's, for the contact stage
  WorldState* world_state_ = nullptr;
  WorldScratch* world_scratch_ = nullptr;
  StepReport* world_report_ = nullptr;
  std::unique_ptr<GpuContactStage> contact_stage_;  // stage 4 (its own set and command buffer)
  std::unique_ptr<GpuMultigrid> multigrid_;  // the preconditioner (options_.multigrid), else null
  std::unique_ptr<GpuChebyshev> chebyshev_;  // the Chebyshev solve (options_.chebyshev), else null
  std::unique_ptr<GpuSelfResponse> self_response_;  // stage 5 (GpuStepOptions::self_response; its own submit)
  std::unique_ptr<GpuRestingContacts> resting_;  // stage 3's search (GpuStepOptions::resting_search), else null
  void run_self_contacts(float h);
  std::unique_ptr<GpuForceStage> force_stage_;  // Volino, weft/warp, air (set 1); last: destroyed first
};

}  // namespace weft
