#include "gpu/gpu_impact_zones.h"

#include <algorithm>
#include <cstring>

#include "gpu/compute_pipeline.h"
#include "gpu/storage_set.h"
#include "gpu/vk_check.h"

namespace weft {
namespace {

// SPIR-V of the zones' kernels (gpu/CMakeLists.txt compiles every gpu/shaders/*.comp).
const uint32_t kResetCode[] = {
#include "zone_reset.comp.spv.inc"
};
const uint32_t kJoinCode[] = {
#include "zone_join.comp.spv.inc"
};
const uint32_t kHookCode[] = {
#include "zone_hook.comp.spv.inc"
};
const uint32_t kCompressCode[] = {
#include "zone_compress.comp.spv.inc"
};
const uint32_t kCountCode[] = {
#include "zone_count.comp.spv.inc"
};
const uint32_t kScanCode[] = {
#include "zone_scan.comp.spv.inc"
};
const uint32_t kPlaceCode[] = {
#include "zone_place.comp.spv.inc"
};
const uint32_t kSumCode[] = {
#include "zone_sum.comp.spv.inc"
};
const uint32_t kMoveCode[] = {
#include "zone_move.comp.spv.inc"
};
const uint32_t kFinishCode[] = {
#include "zone_finish.comp.spv.inc"
};

// zone_layout.glsl's ZoneParams and push constants, std430.
struct Params {
  uint32_t n, ntri, nedge, cap_vt;
  uint32_t cap_ee, slots, pair_cap, pad0;
  float limit, h, pad1, pad2;
};
struct Push {
  uint32_t source, check;
};
constexpr uint32_t kGlobals = 8;

uint32_t groups_of(uint32_t count, uint32_t size) { return std::max<uint32_t>((count + size - 1) / size, 1); }

constexpr VkAccessFlags kAll = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                               VK_ACCESS_TRANSFER_WRITE_BIT;
constexpr VkPipelineStageFlags kWork = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;

}  // namespace

GpuImpactZones::GpuImpactZones(std::shared_ptr<ComputeContext> context, const ClothModel& model,
                               const SelfCollisionConfig& config, float h, const GpuSelfContacts& search, VkBuffer x0,
                               VkBuffer velocity, VkBuffer inv_mass, const GpuImpactZoneOptions& options)
    : ctx_(std::move(context)),
      options_(options),
      n_(uint32_t(model.vertex_count())),
      ntri_(uint32_t(model.triangle_count())) {
  const VkBufferUsageFlags storage =
      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  global_ = make_device_buffer(*ctx_, 4 * kGlobals, storage, false);
  crossing_ = std::make_unique<GpuSelfCrossing>(ctx_, model, search, x0, global_.buffer);  // gated by our counters
  const GpuSelfContactOptions& so = search.options();
  const uint32_t nedge = uint32_t(model.edge_count);
  slots_ = ntri_ * so.slots_per_triangle + nedge * so.slots_per_edge;
  const Params p{n_, ntri_, nedge, so.slots_per_triangle, so.slots_per_edge, slots_, crossing_->slots(), 0,
                 config.thickness * (1.f - config.zone_violation), h, 0.f, 0.f};
  const VkDeviceSize n1 = VkDeviceSize(std::max<uint32_t>(n_, 1));
  params_ = make_device_buffer(*ctx_, sizeof(Params), storage, false);
  mass_ = make_device_buffer(*ctx_, 4 * n1, storage, false);
  parent_ = make_device_buffer(*ctx_, 4 * n1, storage, false);
  zoned_ = make_device_buffer(*ctx_, 4 * n1, storage, false);
  count_ = make_device_buffer(*ctx_, 4 * n1, storage, false);
  start_ = make_device_buffer(*ctx_, 4 * (n1 + 1), storage, false);
  list_ = make_device_buffer(*ctx_, 4 * n1, storage, false);
  sum_ = make_device_buffer(*ctx_, 16 * n1, storage, false);
  stats_down_ = make_device_buffer(*ctx_, 4 * kGlobals, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
  std::memset(stats_down_.mapped, 0, 4 * kGlobals);
  if (options_.keep_labels) {
    labels_down_ = make_device_buffer(*ctx_, 8 * n1, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
    labels_.assign(n_, kNoZone);
  }
  upload_once(*ctx_, params_, &p, sizeof(p));
  if (n_ > 0) upload_once(*ctx_, mass_, model.mass.data(), 4 * VkDeviceSize(n_));

  const VkDevice dev = ctx_->device();
  set_layout_ = make_storage_set_layout(dev, kBindings);
  layout_ = make_compute_layout(dev, &set_layout_, 1, sizeof(Push));
  const GpuSelfContacts::Inputs in = search.inputs();
  const GpuSelfContacts::Outputs out = search.outputs();
  const GpuSelfCrossing::Outputs cross = crossing_->outputs();
  const VkBuffer buffers[kBindings] = {params_.buffer, in.x,           velocity,        in.start,       in.kinematic,
                                       mass_.buffer,   out.vt_count,   out.vt_out,      out.ee_count,   out.ee_out,
                                       cross.pair_count, cross.pair_out, cross.shifted, parent_.buffer, zoned_.buffer,
                                       count_.buffer,  start_.buffer,  list_.buffer,    sum_.buffer,    global_.buffer,
                                       inv_mass,       search.hash().tri};
  make_storage_set(dev, set_layout_, buffers, kBindings, pool_, set_);
  const struct {
    const uint32_t* words;
    size_t bytes;
  } code[kKernels] = {{kResetCode, sizeof(kResetCode)},     {kJoinCode, sizeof(kJoinCode)},
                      {kHookCode, sizeof(kHookCode)},       {kCompressCode, sizeof(kCompressCode)},
                      {kCountCode, sizeof(kCountCode)},     {kScanCode, sizeof(kScanCode)},
                      {kPlaceCode, sizeof(kPlaceCode)},     {kSumCode, sizeof(kSumCode)},
                      {kMoveCode, sizeof(kMoveCode)},       {kFinishCode, sizeof(kFinishCode)}};
  for (int k = 0; k < kKernels; ++k)
    pipelines_[k] = make_compute_pipeline(dev, code[k].words, code[k].bytes, layout_, modules_[k]);
}

GpuImpactZones::~GpuImpactZones() {
  const VkDevice dev = ctx_->device();
  vkDeviceWaitIdle(dev);
  crossing_.reset();  // its set binds our counters
  destroy_compute_pipelines(dev, pipelines_, modules_, kKernels);
  vkDestroyPipelineLayout(dev, layout_, nullptr);
  vkDestroyDescriptorPool(dev, pool_, nullptr);
  vkDestroyDescriptorSetLayout(dev, set_layout_, nullptr);
  for (DeviceBuffer* b :
       {&params_, &mass_, &parent_, &zoned_, &count_, &start_, &list_, &sum_, &global_, &stats_down_, &labels_down_})
    destroy_device_buffer(*ctx_, *b);
}

// Rounds over one source (0: the violated contacts, 1: the crossing pairs): grew cleared, the joins, the unions,
// the unfinished ones counted, then (kernels that return at once where nothing grew) the members' table, the sums
// and the move.
void GpuImpactZones::record_rounds(VkCommandBuffer c, uint32_t source, int rounds) const {
  const uint32_t vertex_groups = groups_of(n_, 256), root_groups = groups_of(n_, 64);
  const uint32_t element_groups = groups_of(source == 0 ? slots_ : ntri_ * crossing_->slots(), 64);
  auto run = [&](Kernel k, uint32_t groups, Push push) {
    vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines_[k]);
    vkCmdPushConstants(c, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(Push), &push);
    vkCmdDispatch(c, groups, 1, 1);
    memory_barrier(c, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT);
  };
  for (int round = 0; round < rounds; ++round) {
    if (source == 1) crossing_->record_find(c, uint32_t(round));
    memory_barrier(c, kWork, kAll, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    vkCmdFillBuffer(c, global_.buffer, 0, 4, 0);  // grew
    vkCmdFillBuffer(c, count_.buffer, 0, VK_WHOLE_SIZE, 0);
    memory_barrier(c, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set_, 0, nullptr);
    run(Join, element_groups, {source, 0});
    for (int k = 0; k < options_.hooks; ++k) {
      run(Hook, element_groups, {source, 0});
      run(Compress, vertex_groups, {source, 0});
    }
    run(Hook, element_groups, {source, 1});
    run(Count, vertex_groups, {source, 0});
    run(Scan, 1, {source, 0});
    run(Place, vertex_groups, {source, 0});
    run(Sum, root_groups, {source, 0});
    run(Move, vertex_groups, {source, 0});
  }
}

void GpuImpactZones::record(VkCommandBuffer c) const {
  memory_barrier(c, kWork, kAll, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
  vkCmdFillBuffer(c, global_.buffer, 0, VK_WHOLE_SIZE, 0);
  vkCmdFillBuffer(c, start_.buffer, 0, VK_WHOLE_SIZE, 0);
  memory_barrier(c, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                 VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set_, 0, nullptr);
  vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines_[Reset]);
  const Push none{0, 0};
  vkCmdPushConstants(c, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(Push), &none);
  vkCmdDispatch(c, groups_of(n_, 256), 1, 1);
  record_rounds(c, 0, options_.contact_rounds);
  if (options_.crossings) record_rounds(c, 1, options_.crossing_rounds);
  memory_barrier(c, kWork, kAll, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set_, 0, nullptr);
  vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines_[Finish]);
  vkCmdPushConstants(c, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(Push), &none);
  vkCmdDispatch(c, groups_of(n_, 256), 1, 1);
  memory_barrier(c, kWork, kAll, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
  const VkBufferCopy g{0, 0, 4 * kGlobals};
  vkCmdCopyBuffer(c, global_.buffer, stats_down_.buffer, 1, &g);
  if (options_.crossings) crossing_->record_stats(c);
  if (options_.keep_labels && n_ > 0) {
    const VkBufferCopy parents{0, 0, 4 * VkDeviceSize(n_)}, zoned{0, 4 * VkDeviceSize(n_), 4 * VkDeviceSize(n_)};
    vkCmdCopyBuffer(c, parent_.buffer, labels_down_.buffer, 1, &parents);
    vkCmdCopyBuffer(c, zoned_.buffer, labels_down_.buffer, 1, &zoned);
  }
  memory_barrier(c, kWork, kAll, kWork | VK_PIPELINE_STAGE_HOST_BIT, kAll | VK_ACCESS_HOST_READ_BIT);
}

const GpuImpactZoneStats& GpuImpactZones::read_stats() {
  const uint32_t* g = static_cast<const uint32_t*>(stats_down_.mapped);
  stats_ = {};
  stats_.contact_rounds = g[1];
  stats_.crossing_rounds = g[2];
  stats_.unfinished = g[3];
  stats_.zone_vertices = g[4];
  stats_.zones = g[5];
  stats_.largest_zone = g[6];
  if (options_.crossings) stats_.crossing = crossing_->read_stats();
  if (options_.keep_labels) {
    const uint32_t* parent = static_cast<const uint32_t*>(labels_down_.mapped);
    for (uint32_t i = 0; i < n_; ++i) labels_[i] = parent[n_ + i] ? parent[i] : kNoZone;
  }
  return stats_;
}

}  // namespace weft
