#include "gpu/gpu_self_crossing.h"

#include <algorithm>
#include <cstring>

#include "gpu/compute_pipeline.h"
#include "gpu/storage_set.h"
#include "gpu/vk_check.h"

namespace weft {
namespace {

// SPIR-V of the check's kernels (gpu/CMakeLists.txt compiles every gpu/shaders/*.comp).
const uint32_t kPrepareCode[] = {
#include "crossing_prepare.comp.spv.inc"
};
const uint32_t kFindCode[] = {
#include "crossing_find.comp.spv.inc"
};

// crossing_layout.glsl's bindings and push constants.
enum Binding {
  Params, X, X0, XP, Tri, Edge, EdgeOff, EdgeList, VCell, Start, Sorted, TriEdge, EdgeTri, Shifted, Global, PairCount,
  PairOut, Gate
};
struct Push {
  uint32_t round, cap;
};
constexpr uint32_t kGlobals = 8;
constexpr uint32_t kNone = 0xffffffffu;

uint32_t groups_of(uint32_t count, uint32_t size) { return std::max<uint32_t>((count + size - 1) / size, 1); }

constexpr VkAccessFlags kAll = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                               VK_ACCESS_TRANSFER_WRITE_BIT;
constexpr VkPipelineStageFlags kWork = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;

}  // namespace

GpuSelfCrossing::GpuSelfCrossing(std::shared_ptr<ComputeContext> context, const ClothModel& model,
                                 const GpuSelfContacts& search, VkBuffer x0, VkBuffer gate, uint32_t slots)
    : ctx_(std::move(context)),
      search_(&search),
      n_(uint32_t(model.vertex_count())),
      ntri_(uint32_t(model.triangle_count())),
      nedge_(uint32_t(model.edge_count)),
      slots_(std::max<uint32_t>(slots, 1)),
      x0_(x0) {
  // Each triangle's edges (link indices below edge_count) and each edge's triangles (two at most; ~0: none).
  std::vector<uint32_t> tri_edge(4 * size_t(std::max<uint32_t>(ntri_, 1)), kNone),
      edge_tri(2 * size_t(std::max<uint32_t>(nedge_, 1)), kNone);
  for (uint32_t t = 0; t < ntri_; ++t)
    for (int k = 0; k < 3; ++k) {
      const uint32_t e = model.triangle_edge[t][k];
      tri_edge[4 * t + k] = e;
      if (e >= nedge_) continue;
      if (edge_tri[2 * e] == kNone) edge_tri[2 * e] = t;
      else if (edge_tri[2 * e + 1] == kNone) edge_tri[2 * e + 1] = t;
    }
  const VkBufferUsageFlags storage =
      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  auto one = [](size_t count) { return VkDeviceSize(std::max<size_t>(count, 1)); };
  tri_edge_ = make_device_buffer(*ctx_, 4 * tri_edge.size(), storage, false);
  edge_tri_ = make_device_buffer(*ctx_, 4 * edge_tri.size(), storage, false);
  shifted_ = make_device_buffer(*ctx_, 4 * one(n_), storage, false);
  global_ = make_device_buffer(*ctx_, 4 * kGlobals, storage, false);
  pair_count_ = make_device_buffer(*ctx_, 4 * one(ntri_), storage, false);
  pair_out_ = make_device_buffer(*ctx_, 8 * one(size_t(ntri_) * slots_), storage, false);
  upload_once(*ctx_, tri_edge_, tri_edge.data(), 4 * tri_edge.size());
  upload_once(*ctx_, edge_tri_, edge_tri.data(), 4 * edge_tri.size());
  const VkDeviceSize v4 = 16 * one(n_);
  up_ = make_device_buffer(*ctx_, 3 * v4 + 4 * one(n_), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
  down_ = make_device_buffer(*ctx_, 4 * kGlobals + 4 * one(ntri_) + 8 * one(size_t(ntri_) * slots_),
                             VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
  stats_down_ = make_device_buffer(*ctx_, 4 * kGlobals, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
  std::memset(stats_down_.mapped, 0, 4 * kGlobals);
  pairs_.reserve(size_t(ntri_) * slots_);

  const VkDevice dev = ctx_->device();
  set_layout_ = make_storage_set_layout(dev, kBindings);
  layout_ = make_compute_layout(dev, &set_layout_, 1, sizeof(Push));
  const GpuSelfContacts::Hash hash = search.hash();
  const GpuSelfContacts::Inputs in = search.inputs();
  const VkBuffer buffers[kBindings] = {hash.params,  in.x,           x0,           in.start,         hash.tri,
                                       hash.edge,    hash.edge_off,  hash.edge_list, hash.vcell,     hash.bucket_start,
                                       hash.sorted,  tri_edge_.buffer, edge_tri_.buffer, shifted_.buffer,
                                       global_.buffer, pair_count_.buffer, pair_out_.buffer, gate};
  make_storage_set(dev, set_layout_, buffers, kBindings, pool_, set_);
  pipelines_[Prepare] = make_compute_pipeline(dev, kPrepareCode, sizeof(kPrepareCode), layout_, modules_[Prepare]);
  pipelines_[Find] = make_compute_pipeline(dev, kFindCode, sizeof(kFindCode), layout_, modules_[Find]);
  make_command_buffer_and_fence(dev, ctx_->pool(), cmd_, fence_);

  // find()'s command buffer, recorded once: x0, xp and the flags in, the search at x0, x0 kept, x in, the check, out.
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  WEFT_VK_CHECK(vkBeginCommandBuffer(cmd_, &begin));
  const VkCommandBuffer c = cmd_;
  memory_barrier(c, kWork, kAll, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
  if (n_ > 0) {
    const VkBufferCopy at_x0{0, 0, 16 * VkDeviceSize(n_)}, at_xp{v4, 0, 16 * VkDeviceSize(n_)},
        kin{3 * v4, 0, 4 * VkDeviceSize(n_)};
    vkCmdCopyBuffer(c, up_.buffer, in.x, 1, &at_x0);
    vkCmdCopyBuffer(c, up_.buffer, in.start, 1, &at_xp);
    vkCmdCopyBuffer(c, up_.buffer, in.kinematic, 1, &kin);
  }
  memory_barrier(c, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, kWork, kAll);
  search.record_search(c);
  memory_barrier(c, kWork, kAll, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
  if (n_ > 0) {
    const VkBufferCopy keep{0, 0, 16 * VkDeviceSize(n_)}, now{2 * v4, 0, 16 * VkDeviceSize(n_)};
    vkCmdCopyBuffer(c, in.x, x0_, 1, &keep);
    memory_barrier(c, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    vkCmdCopyBuffer(c, up_.buffer, in.x, 1, &now);
  }
  record_find(c, 0);
  memory_barrier(c, kWork, kAll, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
  const VkBufferCopy g{0, 0, 4 * kGlobals}, counts{0, 4 * kGlobals, 4 * VkDeviceSize(std::max<uint32_t>(ntri_, 1))},
      out{0, 4 * kGlobals + 4 * VkDeviceSize(std::max<uint32_t>(ntri_, 1)),
          8 * VkDeviceSize(std::max<uint32_t>(ntri_, 1)) * slots_};
  vkCmdCopyBuffer(c, global_.buffer, down_.buffer, 1, &g);
  vkCmdCopyBuffer(c, pair_count_.buffer, down_.buffer, 1, &counts);
  vkCmdCopyBuffer(c, pair_out_.buffer, down_.buffer, 1, &out);
  memory_barrier(c, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                 VK_ACCESS_HOST_READ_BIT);
  WEFT_VK_CHECK(vkEndCommandBuffer(c));
}

GpuSelfCrossing::~GpuSelfCrossing() {
  const VkDevice dev = ctx_->device();
  vkDeviceWaitIdle(dev);
  destroy_compute_pipelines(dev, pipelines_, modules_, kKernels);
  if (fence_) vkDestroyFence(dev, fence_, nullptr);
  if (cmd_) vkFreeCommandBuffers(dev, ctx_->pool(), 1, &cmd_);
  vkDestroyPipelineLayout(dev, layout_, nullptr);
  vkDestroyDescriptorPool(dev, pool_, nullptr);
  vkDestroyDescriptorSetLayout(dev, set_layout_, nullptr);
  for (DeviceBuffer* b : {&tri_edge_, &edge_tri_, &shifted_, &global_, &pair_count_, &pair_out_, &up_, &down_,
                          &stats_down_})
    destroy_device_buffer(*ctx_, *b);
}

GpuSelfCrossing::Outputs GpuSelfCrossing::outputs() const {
  return {pair_count_.buffer, pair_out_.buffer, shifted_.buffer};
}

void GpuSelfCrossing::record_find(VkCommandBuffer c, uint32_t round) const {
  const bool first_round = round == 0;
  memory_barrier(c, kWork, kAll, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
  if (first_round) {
    vkCmdFillBuffer(c, global_.buffer, 0, VK_WHOLE_SIZE, 0);
  } else {
    vkCmdFillBuffer(c, global_.buffer, 0, 8, 0);   // the growth's maxima
    vkCmdFillBuffer(c, global_.buffer, 20, 4, 0);  // this round's pairs
  }
  memory_barrier(c, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                 VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set_, 0, nullptr);
  const Push push{round, slots_};
  auto run = [&](Kernel k, uint32_t groups) {
    vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines_[k]);
    vkCmdPushConstants(c, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(Push), &push);
    vkCmdDispatch(c, groups, 1, 1);
    memory_barrier(c, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT);
  };
  run(Prepare, groups_of(std::max(n_, nedge_), 256));
  run(Find, groups_of(ntri_, 64));
}

void GpuSelfCrossing::record_stats(VkCommandBuffer c) const {
  memory_barrier(c, kWork, kAll, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
  const VkBufferCopy g{0, 0, 4 * kGlobals};
  vkCmdCopyBuffer(c, global_.buffer, stats_down_.buffer, 1, &g);
  memory_barrier(c, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                 VK_ACCESS_HOST_READ_BIT);
}

const GpuSelfCrossingStats& GpuSelfCrossing::read_stats() {
  const uint32_t* g = static_cast<const uint32_t*>(stats_down_.mapped);
  stats_ = {g[2], g[3], g[4]};
  return stats_;
}

void GpuSelfCrossing::find(const glm::vec3* x, const glm::vec3* x0, const glm::vec3* xp, const uint8_t* kinematic) {
  float* up = static_cast<float*>(up_.mapped);
  const size_t block = 4 * size_t(std::max<uint32_t>(n_, 1));
  uint32_t* kin = reinterpret_cast<uint32_t*>(up + 3 * block);
  for (size_t i = 0; i < n_; ++i) {
    for (int k = 0; k < 3; ++k) {
      up[4 * i + k] = x0[i][k];
      up[block + 4 * i + k] = xp[i][k];
      up[2 * block + 4 * i + k] = x[i][k];
    }
    up[4 * i + 3] = up[block + 4 * i + 3] = up[2 * block + 4 * i + 3] = 0.f;
    kin[i] = kinematic && kinematic[i] ? 1u : 0u;
  }
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd_;
  WEFT_VK_CHECK(vkQueueSubmit(ctx_->queue(), 1, &submit, fence_));
  WEFT_VK_CHECK(vkWaitForFences(ctx_->device(), 1, &fence_, VK_TRUE, UINT64_MAX));
  WEFT_VK_CHECK(vkResetFences(ctx_->device(), 1, &fence_));
  const uint32_t* g = static_cast<const uint32_t*>(down_.mapped);
  const uint32_t* counts = g + kGlobals;
  const uint32_t* out = counts + std::max<uint32_t>(ntri_, 1);
  stats_ = {g[2], g[3], g[4]};
  pairs_.clear();
  for (uint32_t t = 0; t < ntri_; ++t)
    for (uint32_t k = 0; k < std::min(counts[t], slots_); ++k) {
      const uint32_t* p = out + 2 * (size_t(t) * slots_ + k);
      pairs_.push_back({p[0], p[1]});
    }
}

}  // namespace weft
