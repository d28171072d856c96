#pragma once
// The GPU solve's preconditioner (issue 36, build 2): one V-cycle of the CPU mg's plain-aggregation
// multigrid (sim/aggregation_hierarchy.h, the same aggregates, built once here at load and uploaded) per CG
// iteration, in place of block Jacobi. Block-Jacobi CG's iterations grow with the mesh (100 at 289
// vertices, 150 unconverged at 16 k); the V-cycle removes the smooth error at every scale, so the count
// stays bounded (docs/gpu.md). What changes from the CPU's cycle is the smoother: Gauss-Seidel is serial
// within a colour's neighbours, so each level is swept by l1 block Jacobi (gpu/shaders/mg_l1.comp), one
// node per invocation, the same sweeps before and after the coarse correction (symmetric). The coarse
// matrices are Galerkin products P^T A P re-made on the device every tick from the step's blocks
// (mg_galerkin_*.comp: each coarse block gathers its fine terms in a fixed order, no atomics); the resting
// contacts keep mg's stiff normal block on level 0 and the filtered z (mg_prepare.comp, mg_dots.comp).
//
// Its kernels run in a pipeline layout of their own: set 0 the step's (gpu/shaders/step_layout.glsl), set
// 1 this one's (mg_layout.glsl), the same push constants; the integrator's force set (also set 1) is
// re-bound after each cycle. lavapipe's 32 storage buffers a stage would not hold all three sets.
#include <cstdint>
#include <functional>
#include <vector>

#include <vulkan/vulkan.h>

#include "gpu/gpu_integrator.h"
#include "sim/cloth_model.h"

namespace weft {

class GpuMultigrid {
 public:
  // The hierarchy and its tables, through owner's allocator (load time only); options' mg_* fields: the
  // sweeps, which levels one workgroup runs, which steps are fused (GpuStepOptions).
  GpuMultigrid(GpuIntegrator& owner, const ClothModel& model, VkDescriptorSetLayout step_set_layout, uint32_t push_bytes,
               const GpuStepOptions& options);
  ~GpuMultigrid();
  GpuMultigrid(const GpuMultigrid&) = delete;
  GpuMultigrid& operator=(const GpuMultigrid&) = delete;

  // Binds this stage's layout and set 1, pushes (src, dst, mode) over the integrator's other push
  // constants, dispatches, barriers.
  using Dispatch = std::function<void(VkPipeline, VkPipelineLayout, uint32_t groups, uint32_t src, uint32_t dst, uint32_t mode)>;
  // After assemble.comp: level 0 from the step's W_ii (with the contacts' stiff normal blocks), every coarse
  // level's Galerkin product, every level's smoother.
  void record_setup(VkCommandBuffer c, const Dispatch& dispatch) const;
  // z = B r (r: the step's slot kR) into the step's slot z_slot (kD after cg_start, kS after cg_update), and
  // the partial sums cg_reduce reads then (mg_dots.comp).
  void record_apply(VkCommandBuffer c, const Dispatch& dispatch, uint32_t z_slot) const;

  size_t level_count() const { return levels_.size(); }
  // The first level the one-workgroup kernels run (level_count() when none).
  size_t coarse_level() const { return coarse_; }
  uint32_t node_count(size_t level) const { return levels_[level].count; }
  // Levels of at most this many nodes sweep kSmallLevelSweeps times each way (they cost a dispatch each,
  // whatever their size); mg's kSmallLevel.
  static constexpr uint32_t kSmallLevel = 48;
  static constexpr int kSmallLevelSweeps = 4;  // mg_cycle.glsl's kMgSmallLevel and kMgSmallSweeps
  static constexpr size_t kMaxLevels = 32;      // mg_coarse.comp's slot array

 private:
  struct Level {
    uint32_t first = 0, count = 0, first_link = 0, links = 0;
  };
  void bind(VkCommandBuffer c) const;
  int sweeps_of(size_t l) const;

  GpuIntegrator& owner_;
  uint32_t n_ = 0;
  int sweeps_ = 1;
  size_t coarse_ = 0;
  std::vector<Level> levels_;
  using Buf = GpuIntegrator::Buffer;
  static constexpr uint32_t kBindings = 13;  // mg_layout.glsl's
  Buf buf_[kBindings]{};
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
  enum Kernel { Prepare, GalerkinLinks, GalerkinNodes, L1, Smooth, Restrict, Dots, Coarse, CoarseSetup, Residual, kKernels };
  VkShaderModule modules_[kKernels]{};
  VkPipeline pipelines_[kKernels]{};
};

}  // namespace weft
