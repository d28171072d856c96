#include "gpu/gpu_self_response.h"

#include <algorithm>
#include <cstring>

#include "gpu/compute_pipeline.h"
#include "gpu/storage_set.h"
#include "gpu/vk_check.h"

namespace weft {
namespace {

// SPIR-V of the response's kernels (gpu/CMakeLists.txt compiles every gpu/shaders/*.comp).
const uint32_t kCountCode[] = {
#include "self_response_count.comp.spv.inc"
};
const uint32_t kScanCode[] = {
#include "self_response_scan.comp.spv.inc"
};
const uint32_t kScatterCode[] = {
#include "self_response_scatter.comp.spv.inc"
};
const uint32_t kSortCode[] = {
#include "self_response_sort.comp.spv.inc"
};
const uint32_t kPositionCode[] = {
#include "self_response_position.comp.spv.inc"
};
const uint32_t kMoveCode[] = {
#include "self_response_move.comp.spv.inc"
};
const uint32_t kActingCode[] = {
#include "self_response_acting.comp.spv.inc"
};
const uint32_t kVelocityCode[] = {
#include "self_response_velocity.comp.spv.inc"
};

// self_response_layout.glsl's RespParams and push constants, std430.
struct Params {
  uint32_t n, ntri, nedge, cap_vt;
  uint32_t cap_ee, slots, passes, velocity_passes;
  float thickness, max_move, friction, h;
};
struct Push {
  uint32_t pass, target;
};
enum Binding { P, X, V, Im, X0, V0, VtCount, VtOut, EeCount, EeOut, Slot, Delta, VCount, VStart, VList, Global };
constexpr uint32_t kGlobals = 4;

uint32_t groups_of(uint32_t count, uint32_t size) { return std::max<uint32_t>((count + size - 1) / size, 1); }


constexpr VkAccessFlags kAll = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                               VK_ACCESS_TRANSFER_WRITE_BIT;
constexpr VkPipelineStageFlags kWork = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;

}  // namespace

GpuSelfResponse::GpuSelfResponse(std::shared_ptr<ComputeContext> context, const ClothModel& model,
                                 const SelfCollisionConfig& config, float h, const GpuSelfResponseOptions& options,
                                 const GpuSelfContactOptions& search)
    : ctx_(std::move(context)),
      search_(std::make_unique<GpuSelfContacts>(ctx_, model, config, search)),
      n_(uint32_t(model.vertex_count())),
      ntri_(uint32_t(model.triangle_count())),
      nedge_(uint32_t(model.edge_count)) {
  slots_ = ntri_ * search.slots_per_triangle + nedge_ * search.slots_per_edge;
  position_passes_ = std::max(options.position_passes, 0);
  answer_velocities_ = options.answer_velocities;
  velocity_passes_ = options.velocity_passes > 0 ? options.velocity_passes : 1 + config.iterations / 4;
  const Params p{n_, ntri_, nedge_, search.slots_per_triangle, search.slots_per_edge, slots_,
                 uint32_t(position_passes_), uint32_t(velocity_passes_), config.thickness,
                 config.max_move * config.thickness, config.friction, h};
  const VkBufferUsageFlags storage =
      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  auto one = [](size_t count) { return VkDeviceSize(std::max<size_t>(count, 1)); };
  const VkDeviceSize sizes[kBindings] = {sizeof(Params), 0,          16 * one(n_),     4 * one(n_),
                                         16 * one(n_),   16 * one(n_), 0, 0, 0, 0,
                                         16 * one(slots_), 64 * one(slots_), 4 * one(n_), 4 * (one(n_) + 1),
                                         16 * one(slots_), 4 * kGlobals};
  for (uint32_t b = 0; b < kBindings; ++b)
    if (sizes[b] > 0) buf_[b] = make_device_buffer(*ctx_, sizes[b], storage, false);
  upload_once(*ctx_, buf_[P], &p, sizeof(p));
  const VkDeviceSize v4 = 16 * one(n_), s1 = 4 * one(n_);
  up_ = make_device_buffer(*ctx_, 3 * v4 + 2 * s1, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
  down_ = make_device_buffer(*ctx_, 2 * v4 + 4 * kGlobals + 4 * one(ntri_) + 4 * one(nedge_),
                             VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);

  const VkDevice dev = ctx_->device();
  set_layout_ = make_storage_set_layout(dev, kBindings);
  layout_ = make_compute_layout(dev, &set_layout_, 1, sizeof(Push));
  VkBuffer buffers[kBindings];
  for (uint32_t b = 0; b < kBindings; ++b) buffers[b] = buf_[b].buffer;
  const GpuSelfContacts::Outputs out = search_->outputs();
  buffers[X] = search_->inputs().x;  // corrected in place: the search's positions
  buffers[VtCount] = out.vt_count;
  buffers[VtOut] = out.vt_out;
  buffers[EeCount] = out.ee_count;
  buffers[EeOut] = out.ee_out;
  make_storage_set(dev, set_layout_, buffers, kBindings, pool_, set_);
  const struct {
    const uint32_t* words;
    size_t bytes;
  } code[kKernels] = {{kCountCode, sizeof(kCountCode)},       {kScanCode, sizeof(kScanCode)},
                      {kScatterCode, sizeof(kScatterCode)},   {kSortCode, sizeof(kSortCode)},
                      {kPositionCode, sizeof(kPositionCode)}, {kMoveCode, sizeof(kMoveCode)},
                      {kActingCode, sizeof(kActingCode)},     {kVelocityCode, sizeof(kVelocityCode)}};
  for (int k = 0; k < kKernels; ++k)
    pipelines_[k] = make_compute_pipeline(dev, code[k].words, code[k].bytes, layout_, modules_[k]);
  if (options.impact_zones)
    zones_ = std::make_unique<GpuImpactZones>(ctx_, model, config, h, *search_, buf_[X0].buffer, buf_[V].buffer,
                                              buf_[Im].buffer, options.zones);
  make_command_buffer_and_fence(dev, ctx_->pool(), cmd_, fence_);
  record();
}

GpuSelfResponse::~GpuSelfResponse() {
  const VkDevice dev = ctx_->device();
  vkDeviceWaitIdle(dev);
  destroy_compute_pipelines(dev, pipelines_, modules_, kKernels);
  if (fence_) vkDestroyFence(dev, fence_, nullptr);
  if (cmd_) vkFreeCommandBuffers(dev, ctx_->pool(), 1, &cmd_);
  vkDestroyPipelineLayout(dev, layout_, nullptr);
  vkDestroyDescriptorPool(dev, pool_, nullptr);
  vkDestroyDescriptorSetLayout(dev, set_layout_, nullptr);
  for (DeviceBuffer& b : buf_) destroy_device_buffer(*ctx_, b);  // the search's are not ours: left empty here
  destroy_device_buffer(*ctx_, up_);
  destroy_device_buffer(*ctx_, down_);
}

GpuSelfResponse::Inputs GpuSelfResponse::inputs() const {
  const GpuSelfContacts::Inputs in = search_->inputs();
  return {in.x, in.start, in.kinematic, buf_[V].buffer, buf_[Im].buffer};
}

// The vertices' entry table (count, scan, scatter, sort), the position passes (each: per contact, then per vertex),
// the velocity passes likewise; after the caller's search.
void GpuSelfResponse::record_response(VkCommandBuffer c) const {
  memory_barrier(c, kWork, kAll, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
  vkCmdFillBuffer(c, buf_[VCount].buffer, 0, VK_WHOLE_SIZE, 0);
  vkCmdFillBuffer(c, buf_[Global].buffer, 0, VK_WHOLE_SIZE, 0);
  const VkBufferCopy whole{0, 0, 16 * VkDeviceSize(std::max<uint32_t>(n_, 1))};
  vkCmdCopyBuffer(c, search_->inputs().x, buf_[X0].buffer, 1, &whole);  // where the passes start (their bound)
  memory_barrier(c, kWork, kAll, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                 VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set_, 0, nullptr);
  auto run = [&](Kernel k, uint32_t groups, Push push) {
    vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines_[k]);
    vkCmdPushConstants(c, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(Push), &push);
    vkCmdDispatch(c, groups, 1, 1);
    memory_barrier(c, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT);
  };
  const uint32_t slot_groups = groups_of(slots_, 64), vertex_groups = groups_of(n_, 256);
  run(Count, slot_groups, {0, 0});
  run(Scan, 1, {0, 0});
  run(Scatter, slot_groups, {0, 0});
  run(Sort, vertex_groups, {0, 0});
  for (int pass = 0; pass < position_passes_; ++pass) {
    run(Position, slot_groups, {0, 0});
    run(Acting, vertex_groups, {0, 0});
    run(Move, vertex_groups, {0, 0});
  }
  if (zones_) {
    zones_->record(c);
    vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set_, 0, nullptr);
  }
  if (!answer_velocities_) return;
  vkCmdCopyBuffer(c, buf_[V].buffer, buf_[V0].buffer, 1, &whole);  // the speeds the velocity passes bound by
  memory_barrier(c, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                 VK_ACCESS_SHADER_READ_BIT);
  for (int pass = 0; pass < velocity_passes_; ++pass) {
    run(Velocity, slot_groups, {uint32_t(pass), 0});
    run(Acting, vertex_groups, {0, 0});
    run(Move, vertex_groups, {0, 1});
  }
}

// Once, at load, for resolve(): the mapped inputs copied in, the search, the response, x, v and the counts out.
void GpuSelfResponse::record() {
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  WEFT_VK_CHECK(vkBeginCommandBuffer(cmd_, &begin));
  const VkCommandBuffer c = cmd_;
  memory_barrier(c, kWork, kAll, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
  const VkDeviceSize v4 = 16 * VkDeviceSize(std::max<uint32_t>(n_, 1)), s1 = 4 * VkDeviceSize(std::max<uint32_t>(n_, 1));
  const Inputs in = inputs();
  if (n_ > 0) {
    const VkBufferCopy x{0, 0, 16 * VkDeviceSize(n_)}, xp{v4, 0, 16 * VkDeviceSize(n_)},
        kin{2 * v4, 0, 4 * VkDeviceSize(n_)}, v{2 * v4 + s1, 0, 16 * VkDeviceSize(n_)},
        im{3 * v4 + s1, 0, 4 * VkDeviceSize(n_)};
    vkCmdCopyBuffer(c, up_.buffer, in.x, 1, &x);
    vkCmdCopyBuffer(c, up_.buffer, in.start, 1, &xp);
    vkCmdCopyBuffer(c, up_.buffer, in.kinematic, 1, &kin);
    vkCmdCopyBuffer(c, up_.buffer, in.velocity, 1, &v);
    vkCmdCopyBuffer(c, up_.buffer, in.inv_mass, 1, &im);
  }
  search_->record_search(c);
  record_response(c);
  memory_barrier(c, kWork, kAll, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
  const GpuSelfContacts::Outputs out = search_->outputs();
  VkDeviceSize at = 0;
  auto down = [&](VkBuffer from, VkDeviceSize bytes) {
    if (bytes == 0) return;
    const VkBufferCopy region{0, at, bytes};
    vkCmdCopyBuffer(c, from, down_.buffer, 1, &region);
  };
  down(in.x, 16 * VkDeviceSize(n_));
  at = v4;
  down(in.velocity, 16 * VkDeviceSize(n_));
  at = 2 * v4;
  down(buf_[Global].buffer, 4 * kGlobals);
  at += 4 * kGlobals;
  down(out.vt_count, 4 * VkDeviceSize(ntri_));
  at += 4 * VkDeviceSize(std::max<uint32_t>(ntri_, 1));
  down(out.ee_count, 4 * VkDeviceSize(nedge_));
  memory_barrier(c, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                 VK_ACCESS_HOST_READ_BIT);
  WEFT_VK_CHECK(vkEndCommandBuffer(c));
}

void GpuSelfResponse::resolve(const ClothModel& model, ClothState& state, const glm::vec3* xp,
                              const uint8_t* immovable) {
  float* up = static_cast<float*>(up_.mapped);
  const size_t block = 4 * size_t(std::max<uint32_t>(n_, 1)), scalars = size_t(std::max<uint32_t>(n_, 1));
  const glm::vec3* x = state.position.data();
  const glm::vec3* v = state.velocity.data();
  uint32_t* kin = reinterpret_cast<uint32_t*>(up + 2 * block);
  float* vel = up + 2 * block + scalars;
  float* im = vel + block;
  for (size_t i = 0; i < n_; ++i) {
    for (int k = 0; k < 3; ++k) {
      up[4 * i + k] = x[i][k];
      up[block + 4 * i + k] = xp[i][k];
      vel[4 * i + k] = v[i][k];
    }
    up[4 * i + 3] = up[block + 4 * i + 3] = vel[4 * i + 3] = 0.f;
    kin[i] = state.kinematic[i] ? 1u : 0u;
    im[i] = (state.kinematic[i] || (immovable && immovable[i])) ? 0.f : model.inv_mass[i];
  }
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd_;
  WEFT_VK_CHECK(vkQueueSubmit(ctx_->queue(), 1, &submit, fence_));
  WEFT_VK_CHECK(vkWaitForFences(ctx_->device(), 1, &fence_, VK_TRUE, UINT64_MAX));
  WEFT_VK_CHECK(vkResetFences(ctx_->device(), 1, &fence_));

  const float* down = static_cast<const float*>(down_.mapped);
  glm::vec3* xo = state.position.data();
  glm::vec3* vo = state.velocity.data();
  for (size_t i = 0; i < n_; ++i) {
    xo[i] = glm::vec3(down[4 * i], down[4 * i + 1], down[4 * i + 2]);
    vo[i] = glm::vec3(down[block + 4 * i], down[block + 4 * i + 1], down[block + 4 * i + 2]);
  }
  const uint32_t* global = reinterpret_cast<const uint32_t*>(down + 2 * block);
  const uint32_t* vt_count = global + kGlobals;
  const uint32_t* ee_count = vt_count + std::max<uint32_t>(ntri_, 1);
  stats_ = {};
  const GpuSelfContactOptions& so = search_->options();
  for (uint32_t t = 0; t < ntri_; ++t) {
    stats_.vertex_triangle += std::min(vt_count[t], so.slots_per_triangle);
    stats_.dropped += vt_count[t] - std::min(vt_count[t], so.slots_per_triangle);
  }
  for (uint32_t e = 0; e < nedge_; ++e) {
    stats_.edge_edge += std::min(ee_count[e], so.slots_per_edge);
    stats_.dropped += ee_count[e] - std::min(ee_count[e], so.slots_per_edge);
  }
  stats_.contacts = global[1];
  std::memcpy(&stats_.max_violation, &global[0], 4);
  std::memcpy(&stats_.first_violation, &global[2], 4);
  if (zones_) stats_.zones = zones_->read_stats();
}

}  // namespace weft
