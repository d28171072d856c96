#pragma once
// The GPU step's forces beyond springs, gravity and relative damping (issue 36, build 2): Volino's elastic
// triangles (1997), the weft/warp membrane and bending hinges (Volino & Thalmann 2005) with their plastic
// rest state or its isotropic membrane, air drag and lift (Kang & Cho Eq. 31-34). Each is a compute kernel of
// its own (gpu/shaders/volino_triangles.comp, weave_triangles.comp or isotropic_triangles.comp,
// weave_hinges.comp, weave_links.comp, air_forces.comp) over a second descriptor set (gpu/shaders/force_layout.glsl) that GpuIntegrator binds
// beside its own. Per element kernels write per element; link_forces.comp, weave_links.comp and
// assemble.comp gather those in element order through tables built here once: no atomics, one order.
//
// The plastic rest state (hinge rest angles, triangle plastic strains) is the GPU's when the material has
// plasticity: stage 6 runs as plasticity.comp at the head of each submit (the last tick's update, on the
// positions the CPU's corrections left), seeded from the state at the first tick and read back into it each
// tick. Without plasticity the model's rest angles are copied in as before. Nothing is allocated per tick.
#include <functional>
#include <vector>

#include <vulkan/vulkan.h>

#include "gpu/gpu_integrator.h"
#include "sim/cloth_model.h"
#include "sim/cloth_state.h"

namespace weft {

class GpuForceStage {
 public:
  // Builds the tables and buffers through owner's allocator (load time only).
  GpuForceStage(GpuIntegrator& owner, const ClothModel& model);
  ~GpuForceStage();
  GpuForceStage(const GpuForceStage&) = delete;
  GpuForceStage& operator=(const GpuForceStage&) = delete;

  VkDescriptorSetLayout set_layout() const { return set_layout_; }
  VkDescriptorSet set() const { return set_; }
  // The stage's pipelines, in the integrator's pipeline layout (set 0 its own, set 1 this stage's).
  void make_pipelines(VkPipelineLayout layout);

  using Dispatch = std::function<void(VkPipeline, uint32_t groups)>;  // binds, pushes, dispatches, barriers
  // In the command buffer's transfer section: the plastic rest state packed by pack() (with plasticity on the
  // GPU, only the gate that skips the first tick's update).
  void record_upload(VkCommandBuffer c) const;
  // In the download section: the plastic rest state, for read_back.
  void record_download(VkCommandBuffer c) const;
  // Before link_forces.comp: the per element kernels and air. After it: the weave blocks into the links'.
  void record_before_links(const Dispatch& dispatch) const;
  void record_after_links(const Dispatch& dispatch) const;
  // Per tick, before the submit: the state's plastic rest state (when it has one) into the mapped buffer; with
  // plasticity on the GPU, once (the first tick: seeds the GPU's), then only the gate.
  void pack(const ClothState& state);
  // After the submit: the GPU's plastic rest state into the state (plasticity on the GPU).
  void read_back(ClothState& state) const;
  // Whether plasticity.comp runs stage 6 (the material has plasticity): World::step skips the CPU's.
  bool runs_plasticity() const { return plastic_gpu_; }
  // Bytes record_upload copies in each tick (the plastic rest state or the gate; 0 without the weft/warp
  // model) and record_download copies out.
  uint64_t upload_bytes() const { return !weave_ ? 0 : plastic_gpu_ ? 4 : uint64_t(plastic_up_.size); }
  uint64_t download_bytes() const { return plastic_gpu_ ? 4 * uint64_t(nplastic_) : 0; }

 private:
  GpuIntegrator& owner_;
  uint32_t n_ = 0, nlink_ = 0, ntri_ = 0, nhinge_ = 0;
  bool volino_ = false, weave_ = false, air_ = false;
  bool isotropic_ = false;
  bool plastic_gpu_ = false;  // plasticity.comp runs stage 6
  bool seeded_ = false;       // the GPU's plastic state has the state's (pack at the first tick)
  uint32_t nplastic_ = 0;     // hinge rest angles, then 3 plastic strains per triangle (with the weave)  // the weft/warp model's isotropic membrane: isotropic_triangles.comp for its triangles
  using Buf = GpuIntegrator::Buffer;
  static constexpr uint32_t kBindings = 15;  // force_layout.glsl's
  Buf buf_[kBindings]{};
  Buf plastic_up_;    // mapped: the plastic rest state and the gate, copied to binding 5
  Buf plastic_down_;  // mapped: the GPU's plastic rest state after the tick (plasticity on the GPU)
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
  enum Kernel { VolinoTriangles, WeaveTriangles, WeaveHinges, WeaveLinks, AirForces, IsotropicTriangles, Plasticity, kKernels };
  VkShaderModule modules_[kKernels]{};
  VkPipeline pipelines_[kKernels]{};
};

}  // namespace weft
