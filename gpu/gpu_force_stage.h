#pragma once
// The GPU step's forces beyond springs, gravity and relative damping (issue 36, build 2): Volino's elastic
// triangles (1997), the weft/warp membrane and bending hinges (Volino & Thalmann 2005) with their plastic
// rest state or its isotropic membrane, air drag and lift (Kang & Cho Eq. 31-34). Each is a compute kernel of
// its own (gpu/shaders/volino_triangles.comp, weave_triangles.comp or isotropic_triangles.comp,
// weave_hinges.comp, weave_links.comp, air_forces.comp) over a second descriptor set (gpu/shaders/force_layout.glsl) that GpuIntegrator binds
// beside its own. Per element kernels write per element; link_forces.comp, weave_links.comp and
// assemble.comp gather those in element order through tables built here once: no atomics, one order.
//
// Per tick only the plastic rest state (hinge rest angles, triangle plastic strains: stage 6 updates it on
// the CPU) is packed into a mapped buffer and copied in by the recorded command buffer; nothing is allocated.
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
  // In the command buffer's transfer section: the plastic rest state packed by pack().
  void record_upload(VkCommandBuffer c) const;
  // Before link_forces.comp: the per element kernels and air. After it: the weave blocks into the links'.
  void record_before_links(const Dispatch& dispatch) const;
  void record_after_links(const Dispatch& dispatch) const;
  // Per tick, before the submit: the state's plastic rest state (when it has one) into the mapped buffer.
  void pack(const ClothState& state);
  // Bytes record_upload copies in each tick (the plastic rest state; 0 without the weft/warp model).
  uint64_t upload_bytes() const { return weave_ ? uint64_t(plastic_up_.size) : 0; }

 private:
  GpuIntegrator& owner_;
  uint32_t n_ = 0, nlink_ = 0, ntri_ = 0, nhinge_ = 0;
  bool volino_ = false, weave_ = false, air_ = false;
  bool isotropic_ = false;  // the weft/warp model's isotropic membrane: isotropic_triangles.comp for its triangles
  using Buf = GpuIntegrator::Buffer;
  static constexpr uint32_t kBindings = 15;  // force_layout.glsl's
  Buf buf_[kBindings]{};
  Buf plastic_up_;  // mapped: the plastic rest state, copied to binding 5 each tick
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
  enum Kernel { VolinoTriangles, WeaveTriangles, WeaveHinges, WeaveLinks, AirForces, IsotropicTriangles, kKernels };
  VkShaderModule modules_[kKernels]{};
  VkPipeline pipelines_[kKernels]{};
};

}  // namespace weft
