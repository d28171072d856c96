#pragma once
// Stage 3's resting-contact search (sim/contact_filter.h find_resting_contacts, then sim/landing_filter.h
// leave_flat_landings) on the GPU, at the head of the step's submit, so that the tick no longer finds the
// contacts on the CPU nor uploads them (32 bytes a vertex): per vertex over stage 4's collider table
// (gpu/gpu_contact_stage.h, filled here each tick and no longer by stage 4), from the state uploaded and what
// the last step left on the device (its contacts in kCon0, their normal impulses in kConOut's w, its start
// positions kept in a buffer of this stage). resting_contacts.comp writes kCon0 and kCon1 as the CPU packed
// them; landing_filter.comp then drops the flat landings. The only thing the CPU adds to the upload is a
// vertex's held flag (v's w: WorldScratch::held_by, stage 2's).
//
// Its own descriptor set (the step's two hold 32 storage buffers, lavapipe's limit per stage) over the step's
// buffers; two dispatches recorded once in the step's command buffer; nothing allocated per tick.
#include <vector>

#include <vulkan/vulkan.h>

#include "gpu/gpu_integrator.h"

namespace weft {

class GpuContactStage;
struct Collider;

class GpuRestingContacts {
 public:
  // The step's buffers, in resting_layout.glsl's order up to Vecs, then the adjacency (CsrOff, Csr, Links).
  struct StepBuffers {
    VkBuffer x, v, kin, vdata, vecs, csr_off, csr, links;
  };
  GpuRestingContacts(GpuIntegrator& owner, const ClothModel& model, GpuContactStage& stage, const StepBuffers& step);
  ~GpuRestingContacts();
  GpuRestingContacts(const GpuRestingContacts&) = delete;
  GpuRestingContacts& operator=(const GpuRestingContacts&) = delete;

  // Into the step's command buffer, after its upload: the collider table's copy, then (after a barrier) the
  // search and the landing filter; it leaves the step's set bound elsewhere to the caller.
  void record_upload(VkCommandBuffer c) const;
  void record(VkCommandBuffer c, float h, float thickness, const glm::vec3& gravity, bool enabled) const;
  // At the end of the step's command buffer: this step's start positions, the next one's last.
  void record_keep_start(VkCommandBuffer c) const;
  void pack(const std::vector<Collider>& colliders);
  uint64_t upload_bytes() const { return table_.size; }

 private:
  GpuIntegrator& owner_;
  uint32_t n_ = 0;
  VkBuffer x_ = VK_NULL_HANDLE, tick_ = VK_NULL_HANDLE;
  GpuIntegrator::Buffer x_last_, table_;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
  enum Kernel { Search, Landing, kKernels };
  VkShaderModule modules_[kKernels]{};
  VkPipeline pipelines_[kKernels]{};
};

}  // namespace weft
