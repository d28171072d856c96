#include "gpu/gpu_resting_contacts.h"

#include <stdexcept>
#include <string>

#include "gpu/compute_pipeline.h"
#include "gpu/gpu_contact_stage.h"
#include "gpu/storage_set.h"

namespace weft {
namespace {

const uint32_t kSearchCode[] = {
#include "resting_contacts.comp.spv.inc"
};
const uint32_t kLandingCode[] = {
#include "landing_filter.comp.spv.inc"
};

// resting_layout.glsl's Push, in std430 order.
struct Push {
  uint32_t n, enabled;
  float h, thickness;
  float gravity[4];
};
constexpr uint32_t kBindings = 10;

uint32_t groups_of(uint32_t count) { return (count + 255) / 256; }

}  // namespace

GpuRestingContacts::GpuRestingContacts(GpuIntegrator& owner, const ClothModel& model, GpuContactStage& stage,
                                       const StepBuffers& step)
    : owner_(owner), n_(uint32_t(model.vertex_count())), x_(step.x), tick_(stage.collider_table()) {
  const VkDevice dev = owner_.ctx_->device();
  const VkDeviceSize block = 16 * VkDeviceSize(std::max<uint32_t>(n_, 1));
  x_last_ = owner_.make_buffer(block, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, false);
  // Before the first step: zero, as the CPU's WorldScratch::x_prev before its first (no vertex has landed).
  const std::vector<float> zeros(block / 4, 0.f);
  owner_.upload_once(x_last_, zeros.data(), block);
  table_ = owner_.make_buffer(GpuContactStage::collider_table_bytes(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
  stage.share_collider_table();

  set_layout_ = make_storage_set_layout(dev, kBindings);
  layout_ = make_compute_layout(dev, &set_layout_, 1, sizeof(Push));
  const VkBuffer buffers[kBindings] = {step.x,  step.v,   step.kin, step.vdata,
                                       step.vecs, tick_, x_last_.buffer, step.csr_off, step.csr, step.links};
  make_storage_set(dev, set_layout_, buffers, kBindings, pool_, set_);
  pipelines_[Search] = make_compute_pipeline(dev, kSearchCode, sizeof(kSearchCode), layout_, modules_[Search]);
  pipelines_[Landing] = make_compute_pipeline(dev, kLandingCode, sizeof(kLandingCode), layout_, modules_[Landing]);
}

GpuRestingContacts::~GpuRestingContacts() {
  const VkDevice dev = owner_.ctx_->device();
  vkDeviceWaitIdle(dev);
  destroy_compute_pipelines(dev, pipelines_, modules_, kKernels);
  vkDestroyDescriptorPool(dev, pool_, nullptr);
  vkDestroyPipelineLayout(dev, layout_, nullptr);
  vkDestroyDescriptorSetLayout(dev, set_layout_, nullptr);
  destroy_device_buffer(*owner_.ctx_, x_last_);
  destroy_device_buffer(*owner_.ctx_, table_);
}

void GpuRestingContacts::record_upload(VkCommandBuffer c) const {
  const VkBufferCopy table{0, 0, table_.size};
  vkCmdCopyBuffer(c, table_.buffer, tick_, 1, &table);
}

void GpuRestingContacts::record(VkCommandBuffer c, float h, float thickness, const glm::vec3& gravity,
                                bool enabled) const {
  const Push push{n_, enabled ? 1u : 0u, h, thickness, {gravity.x, gravity.y, gravity.z, 0.f}};
  vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set_, 0, nullptr);
  vkCmdPushConstants(c, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(Push), &push);
  for (int k = 0; k < kKernels; ++k) {
    vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines_[k]);
    vkCmdDispatch(c, groups_of(n_), 1, 1);
    memory_barrier(c, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  }
}

void GpuRestingContacts::record_keep_start(VkCommandBuffer c) const {
  if (n_ == 0) return;
  const VkBufferCopy start{0, 0, 16 * VkDeviceSize(n_)};
  vkCmdCopyBuffer(c, x_, x_last_.buffer, 1, &start);
}

void GpuRestingContacts::pack(const std::vector<Collider>& colliders) {
  if (colliders.size() > GpuContactStage::kMaxColliders)
    throw std::runtime_error("GpuRestingContacts: " + std::to_string(colliders.size()) + " colliders, more than " +
                             std::to_string(GpuContactStage::kMaxColliders));
  GpuContactStage::pack_colliders(colliders, static_cast<float*>(table_.mapped));
}

}  // namespace weft
