#include "gpu/gpu_self_contacts.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "gpu/compute_pipeline.h"
#include "gpu/storage_set.h"
#include "gpu/vk_check.h"

namespace weft {
namespace {

// SPIR-V of the search's kernels (gpu/CMakeLists.txt compiles every gpu/shaders/*.comp).
const uint32_t kPrepare[] = {
#include "self_prepare.comp.spv.inc"
};
const uint32_t kScan[] = {
#include "self_scan.comp.spv.inc"
};
const uint32_t kScatter[] = {
#include "self_scatter.comp.spv.inc"
};
const uint32_t kSort[] = {
#include "self_sort.comp.spv.inc"
};
const uint32_t kVertexTriangle[] = {
#include "self_vertex_triangle.comp.spv.inc"
};
const uint32_t kEdgeEdge[] = {
#include "self_edge_edge.comp.spv.inc"
};
const uint32_t kFans[] = {
#include "self_fans.comp.spv.inc"
};
const uint32_t kMorton[] = {
#include "self_morton.comp.spv.inc"
};
const uint32_t kRadixCount[] = {
#include "self_radix_count.comp.spv.inc"
};
const uint32_t kRadixScan[] = {
#include "self_radix_scan.comp.spv.inc"
};
const uint32_t kRadixPlace[] = {
#include "self_radix_place.comp.spv.inc"
};
const uint32_t kLbvhBuild[] = {
#include "self_lbvh_build.comp.spv.inc"
};
const uint32_t kLbvhRefit[] = {
#include "self_lbvh_refit.comp.spv.inc"
};

// self_layout.glsl's SelfParams, std430.
struct Params {
  uint32_t n, ntri, nedge, bucket_mask;
  float cell, reach, thickness, cone_limit;
  uint32_t cap_vt, cap_ee, max_span, ee_brute;
  uint32_t chunks, pad0, pad1, pad2;
};
enum Binding {
  P, X, XP, Kin, Tri, Edge, EdgeOff, EdgeList, VCell, Count, Start, Sorted, Travel, Global, VtCount, VtOut, EeCount,
  EeOut, RingOff, Ring, FanOff, Fan, Cone, Key, Val, Hist, Child, Parent, Box, Visit
};

// A table of entries per owner in the order they are added: offsets (owners + 1) and entries.
void build_table(size_t owners, const std::vector<std::pair<uint32_t, uint32_t>>& added, std::vector<uint32_t>& offset,
                 std::vector<uint32_t>& entry) {
  offset.assign(owners + 1, 0);
  for (const auto& [o, e] : added) ++offset[o + 1];
  for (size_t i = 0; i < owners; ++i) offset[i + 1] += offset[i];
  entry.resize(added.size());
  std::vector<uint32_t> fill(offset.begin(), offset.end() - 1);
  for (const auto& [o, e] : added) entry[fill[o]++] = e;
}

// Whether vertex v's triangles (fan) form one patch joined through the edges at v (bvh.cpp's fan_connected_):
// the curvature criterion says nothing of a fan in two pieces (two sheets sharing a vertex).
bool fan_connected(const ClothModel& model, const uint32_t* fan, size_t count, uint32_t v) {
  if (count <= 1) return true;
  std::vector<uint32_t> parent(count);
  for (size_t k = 0; k < count; ++k) parent[k] = uint32_t(k);
  auto root = [&](uint32_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  for (size_t a = 0; a < count; ++a)
    for (size_t b = a + 1; b < count; ++b) {
      int shared = 0;
      for (uint32_t p : model.triangle[fan[a]])
        for (uint32_t q : model.triangle[fan[b]]) shared += (p == q && p != v) ? 1 : 0;
      if (shared > 0) parent[root(uint32_t(a))] = root(uint32_t(b));
    }
  for (size_t k = 1; k < count; ++k)
    if (root(uint32_t(k)) != root(0)) return false;
  return true;
}
constexpr VkDeviceSize kContactBytes = 48;  // SelfContactOut: uvec4, vec4, vec4
constexpr uint32_t kGlobals = 12;  // self_layout.glsl's global_u
constexpr uint32_t kRadixChunk = 64;  // self_layout.glsl's
constexpr uint32_t kRadixPasses = 6;  // 5 bits each: the 30-bit Morton codes
constexpr uint32_t kMaxEdgeSlots = 32;  // self_edge_edge.comp's kMaxSlots

uint32_t groups_of(uint32_t count, uint32_t size) { return std::max<uint32_t>((count + size - 1) / size, 1); }

}  // namespace

GpuSelfContacts::Buffer GpuSelfContacts::make_buffer(VkDeviceSize size, VkBufferUsageFlags usage, bool host) {
  return make_device_buffer(*ctx_, size, usage, host);
}

void GpuSelfContacts::destroy(Buffer& b) { destroy_device_buffer(*ctx_, b); }

void GpuSelfContacts::upload_once(Buffer& dst, const void* data, VkDeviceSize size) {
  weft::upload_once(*ctx_, dst, data, size);
}

GpuSelfContacts::GpuSelfContacts(std::shared_ptr<ComputeContext> context, const ClothModel& model,
                                 const SelfCollisionConfig& config, const GpuSelfContactOptions& options)
    : ctx_(std::move(context)),
      options_(options),
      n_(uint32_t(model.vertex_count())),
      ntri_(uint32_t(model.triangle_count())),
      nedge_(uint32_t(model.edge_count)) {
  if (options_.slots_per_edge > kMaxEdgeSlots)
    throw std::invalid_argument("gpu/gpu_self_contacts.cpp: slots_per_edge " + std::to_string(options_.slots_per_edge) +
                                " is above the " + std::to_string(kMaxEdgeSlots) + " an edge's query keeps in order");
  const float reach = config.thickness * config.detection_scale;
  // A cell as wide as the longest rest edge and the reach: a triangle's query spans 2-3 cells per axis.
  float longest = 0.f;
  for (size_t e = 0; e < model.edge_count; ++e) longest = std::max(longest, model.rest_length[e]);
  cell_ = std::max(longest + reach, 1e-4f);
  buckets_ = 256;
  while (buckets_ < 2 * n_) buckets_ *= 2;
  chunks_ = (nedge_ + kRadixChunk - 1) / kRadixChunk;

  Params p{n_, ntri_, nedge_, buckets_ - 1, cell_, reach, config.thickness, config.cone_limit,
           options_.slots_per_triangle, options_.slots_per_edge, options_.max_span, options_.edge_brute_force ? 1u : 0u,
           chunks_, 0, 0, 0};
  std::vector<uint32_t> tri(4 * size_t(ntri_), 0), edge(2 * size_t(nedge_));
  for (uint32_t t = 0; t < ntri_; ++t)
    for (int k = 0; k < 3; ++k) tri[4 * t + k] = model.triangle[t][k];
  // The edges by either end (CSR, edge order within an end), each vertex's neighbours (ascending) and its fan.
  std::vector<std::pair<uint32_t, uint32_t>> by_end, by_neighbour, by_corner;
  for (uint32_t e = 0; e < nedge_; ++e) {
    const auto [a, b] = model.link[e];
    edge[2 * e] = a;
    edge[2 * e + 1] = b;
    by_end.push_back({a, e});
    by_end.push_back({b, e});
    by_neighbour.push_back({a, b});
    by_neighbour.push_back({b, a});
  }
  std::sort(by_neighbour.begin(), by_neighbour.end());
  for (uint32_t t = 0; t < ntri_; ++t)
    for (uint32_t v : model.triangle[t]) by_corner.push_back({v, t});
  std::vector<uint32_t> edge_off, edge_list, ring_off, ring, fan_off, fan;
  build_table(n_, by_end, edge_off, edge_list);
  build_table(n_, by_neighbour, ring_off, ring);
  build_table(n_, by_corner, fan_off, fan);
  {  // fans in two pieces are left empty: unbounded cones
    std::vector<uint32_t> kept_off(n_ + 1, 0), kept;
    for (uint32_t v = 0; v < n_; ++v) {
      const uint32_t* f = fan.data() + fan_off[v];
      const size_t count = fan_off[v + 1] - fan_off[v];
      if (fan_connected(model, f, count, v)) kept.insert(kept.end(), f, f + count);
      kept_off[v + 1] = uint32_t(kept.size());
    }
    fan_off.swap(kept_off);
    fan.swap(kept);
  }

  const VkBufferUsageFlags storage =
      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  auto one = [](size_t count) { return VkDeviceSize(std::max<size_t>(count, 1)); };
  const VkDeviceSize vt_slots = one(size_t(ntri_) * options_.slots_per_triangle);
  const VkDeviceSize ee_slots = one(size_t(nedge_) * options_.slots_per_edge);
  const VkDeviceSize sizes[kBindings] = {sizeof(Params),       16 * one(n_),        16 * one(n_),
                                         4 * one(n_),          16 * one(ntri_),     8 * one(nedge_),
                                         4 * (one(n_) + 1),    8 * one(nedge_),     16 * one(n_),
                                         4 * VkDeviceSize(buckets_), 4 * (VkDeviceSize(buckets_) + 1), 4 * one(n_),
                                         4 * one(n_),          4 * kGlobals,        4 * one(ntri_),
                                         kContactBytes * vt_slots, 4 * one(nedge_), kContactBytes * ee_slots,
                                         4 * (one(n_) + 1),    8 * one(nedge_),     4 * (one(n_) + 1),
                                         4 * one(fan.size()),  16 * one(n_),
                                         // the LBVH: codes and edges (two halves), the histogram, children,
                                         // parents, boxes and visit counters
                                         8 * one(nedge_),      8 * one(nedge_),     4 * 32 * one(chunks_),
                                         8 * one(nedge_),      4 * 2 * one(nedge_), 32 * 2 * one(nedge_),
                                         4 * one(nedge_)};
  for (uint32_t b = 0; b < kBindings; ++b) buf_[b] = make_buffer(sizes[b], storage, false);
  up_ = make_buffer(sizes[X] + sizes[XP] + sizes[Kin], VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
  down_ = make_buffer(sizes[Global] + sizes[VtCount] + sizes[EeCount] + sizes[VtOut] + sizes[EeOut],
                      VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
  upload_once(buf_[P], &p, sizeof(p));
  if (ntri_ > 0) upload_once(buf_[Tri], tri.data(), 4 * tri.size());
  if (nedge_ > 0) {
    upload_once(buf_[Edge], edge.data(), 4 * edge.size());
    upload_once(buf_[EdgeList], edge_list.data(), 4 * edge_list.size());
    upload_once(buf_[Ring], ring.data(), 4 * ring.size());
  }
  if (!fan.empty()) upload_once(buf_[Fan], fan.data(), 4 * fan.size());
  upload_once(buf_[EdgeOff], edge_off.data(), 4 * edge_off.size());
  upload_once(buf_[RingOff], ring_off.data(), 4 * ring_off.size());
  upload_once(buf_[FanOff], fan_off.data(), 4 * fan_off.size());

  const VkDevice dev = ctx_->device();
  set_layout_ = make_storage_set_layout(dev, kBindings);
  VkBuffer buffers[kBindings];
  for (uint32_t b = 0; b < kBindings; ++b) buffers[b] = buf_[b].buffer;
  make_storage_set(dev, set_layout_, buffers, kBindings, pool_, set_);
  layout_ = make_compute_layout(dev, &set_layout_, 1, sizeof(uint32_t));  // the radix sort's pass
  struct Code {
    const uint32_t* words;
    size_t bytes;
  };
  const Code code[kKernels] = {{kPrepare, sizeof(kPrepare)},         {kScan, sizeof(kScan)},
                               {kScatter, sizeof(kScatter)},         {kSort, sizeof(kSort)},
                               {kVertexTriangle, sizeof(kVertexTriangle)}, {kEdgeEdge, sizeof(kEdgeEdge)},
                               {kFans, sizeof(kFans)},               {kMorton, sizeof(kMorton)},
                               {kRadixCount, sizeof(kRadixCount)},   {kRadixScan, sizeof(kRadixScan)},
                               {kRadixPlace, sizeof(kRadixPlace)},   {kLbvhBuild, sizeof(kLbvhBuild)},
                               {kLbvhRefit, sizeof(kLbvhRefit)}};
  for (int k = 0; k < kKernels; ++k)
    pipelines_[k] = make_compute_pipeline(dev, code[k].words, code[k].bytes, layout_, modules_[k]);
  if (ctx_->timestamp_period_ns() > 0) {
    VkQueryPoolCreateInfo q{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    q.queryType = VK_QUERY_TYPE_TIMESTAMP;
    q.queryCount = 3;
    WEFT_VK_CHECK(vkCreateQueryPool(dev, &q, nullptr, &queries_));
  }
  make_command_buffer_and_fence(dev, ctx_->pool(), cmd_, fence_);
  contacts_.reserve(size_t(vt_slots + ee_slots));
  record();
}

GpuSelfContacts::~GpuSelfContacts() {
  const VkDevice dev = ctx_->device();
  vkDeviceWaitIdle(dev);
  destroy_compute_pipelines(dev, pipelines_, modules_, kKernels);
  if (fence_) vkDestroyFence(dev, fence_, nullptr);
  if (cmd_) vkFreeCommandBuffers(dev, ctx_->pool(), 1, &cmd_);
  if (queries_) vkDestroyQueryPool(dev, queries_, nullptr);
  vkDestroyPipelineLayout(dev, layout_, nullptr);
  vkDestroyDescriptorPool(dev, pool_, nullptr);
  vkDestroyDescriptorSetLayout(dev, set_layout_, nullptr);
  for (Buffer& b : buf_) destroy(b);
  destroy(up_);
  destroy(down_);
}


// Clear the counts, the hash (prepare, scan, scatter, sort), the fans' cones, the vertex-triangle narrow phase,
// the edges' LBVH (Morton codes, six radix passes of count, scan and place, the tree, the refit), the edge-edge
// narrow phase; after the caller's transfers into the inputs.
void GpuSelfContacts::record_search(VkCommandBuffer c) const { record_kernels(c, false); }

// The search; with `timed`, a timestamp between the vertex-triangle and the edge-edge parts (detect()'s stats).
void GpuSelfContacts::record_kernels(VkCommandBuffer c, bool timed) const {
  vkCmdFillBuffer(c, buf_[Count].buffer, 0, VK_WHOLE_SIZE, 0);
  vkCmdFillBuffer(c, buf_[Global].buffer, 0, VK_WHOLE_SIZE, 0);
  memory_barrier(c, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                 VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set_, 0, nullptr);
  auto run = [&](Kernel k, uint32_t groups) {
    vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines_[k]);
    vkCmdDispatch(c, groups, 1, 1);
    memory_barrier(c, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  };
  run(Prepare, groups_of(std::max(n_, nedge_), 256));
  run(Scan, 1);
  run(Scatter, groups_of(n_, 256));
  run(Sort, groups_of(buckets_, 256));
  run(Fans, groups_of(n_, 256));
  run(VertexTriangle, groups_of(ntri_, 64));
  if (timed) vkCmdWriteTimestamp(c, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, queries_, 1);
  if (!options_.edge_brute_force && nedge_ > 0) {
    run(Morton, groups_of(nedge_, 256));
    for (uint32_t pass = 0; pass < kRadixPasses; ++pass) {
      vkCmdPushConstants(c, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(pass), &pass);
      run(RadixCount, groups_of(chunks_, 64));
      run(RadixScan, 1);
      run(RadixPlace, groups_of(chunks_, 64));
    }
    run(LbvhBuild, groups_of(nedge_, 256));
    run(LbvhRefit, groups_of(nedge_, 8));
  }
  run(EdgeEdge, groups_of(nedge_, 64));
}

GpuSelfContacts::Inputs GpuSelfContacts::inputs() const { return {buf_[X].buffer, buf_[XP].buffer, buf_[Kin].buffer}; }

GpuSelfContacts::Hash GpuSelfContacts::hash() const {
  return {buf_[P].buffer,       buf_[Tri].buffer,  buf_[Edge].buffer,  buf_[EdgeOff].buffer,
          buf_[EdgeList].buffer, buf_[VCell].buffer, buf_[Start].buffer, buf_[Sorted].buffer};
}

GpuSelfContacts::Outputs GpuSelfContacts::outputs() const {
  return {buf_[VtCount].buffer, buf_[VtOut].buffer, buf_[EeCount].buffer, buf_[EeOut].buffer};
}

// Once, at load, for detect(): the mapped inputs copied in, the search, the counts and slots copied out.
void GpuSelfContacts::record() {
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  WEFT_VK_CHECK(vkBeginCommandBuffer(cmd_, &begin));
  const VkCommandBuffer c = cmd_;
  // The last call's kernels and copies touched what this one's transfers overwrite.
  memory_barrier(c, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                     VK_ACCESS_TRANSFER_WRITE_BIT,
                 VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
  if (queries_) {
    vkCmdResetQueryPool(c, queries_, 0, 3);
    vkCmdWriteTimestamp(c, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, queries_, 0);
  }
  const VkDeviceSize block = 16 * VkDeviceSize(std::max<uint32_t>(n_, 1));
  if (n_ > 0) {
    const VkBufferCopy x{0, 0, 16 * VkDeviceSize(n_)}, xp{block, 0, 16 * VkDeviceSize(n_)},
        kin{2 * block, 0, 4 * VkDeviceSize(n_)};
    vkCmdCopyBuffer(c, up_.buffer, buf_[X].buffer, 1, &x);
    vkCmdCopyBuffer(c, up_.buffer, buf_[XP].buffer, 1, &xp);
    vkCmdCopyBuffer(c, up_.buffer, buf_[Kin].buffer, 1, &kin);
  }
  record_kernels(c, queries_ != VK_NULL_HANDLE);
  if (queries_) vkCmdWriteTimestamp(c, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, queries_, 2);
  memory_barrier(c, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_ACCESS_TRANSFER_READ_BIT);
  VkDeviceSize at = 0;
  for (Binding b : {Global, VtCount, EeCount, VtOut, EeOut}) {
    const VkBufferCopy region{0, at, buf_[b].size};
    vkCmdCopyBuffer(c, buf_[b].buffer, down_.buffer, 1, &region);
    at += buf_[b].size;
  }
  memory_barrier(c, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                 VK_ACCESS_HOST_READ_BIT);
  WEFT_VK_CHECK(vkEndCommandBuffer(c));
}

void GpuSelfContacts::detect(const glm::vec3* x, const glm::vec3* xp, const uint8_t* kinematic) {
  float* up = static_cast<float*>(up_.mapped);
  const size_t block = 4 * size_t(std::max<uint32_t>(n_, 1));
  for (size_t i = 0; i < n_; ++i) {
    for (int k = 0; k < 3; ++k) {
      up[4 * i + k] = x[i][k];
      up[block + 4 * i + k] = xp[i][k];
    }
    up[4 * i + 3] = up[block + 4 * i + 3] = 0.f;
  }
  uint32_t* kin = reinterpret_cast<uint32_t*>(up + 2 * block);
  for (size_t i = 0; i < n_; ++i) kin[i] = kinematic[i] ? 1u : 0u;
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd_;
  WEFT_VK_CHECK(vkQueueSubmit(ctx_->queue(), 1, &submit, fence_));
  WEFT_VK_CHECK(vkWaitForFences(ctx_->device(), 1, &fence_, VK_TRUE, UINT64_MAX));
  WEFT_VK_CHECK(vkResetFences(ctx_->device(), 1, &fence_));

  stats_ = {};
  contacts_.clear();
  const auto* down = static_cast<const uint8_t*>(down_.mapped);
  const auto* global = reinterpret_cast<const uint32_t*>(down);
  const auto* vt_count = reinterpret_cast<const uint32_t*>(down + buf_[Global].size);
  const auto* ee_count = reinterpret_cast<const uint32_t*>(down + buf_[Global].size + buf_[VtCount].size);
  const uint8_t* vt_out = down + buf_[Global].size + buf_[VtCount].size + buf_[EeCount].size;
  const uint8_t* ee_out = vt_out + buf_[VtOut].size;
  stats_.clipped = global[2];
  stats_.non_finite = global[3];
  stats_.edge_pairs_tested = global[4];
  stats_.lbvh_nodes_visited = global[5];
  auto read = [&](const uint8_t* slots, uint32_t owner, uint32_t cap, uint32_t found, bool edge_edge) {
    const uint32_t kept = std::min(found, cap);
    stats_.dropped += found - kept;
    for (uint32_t k = 0; k < kept; ++k) {
      const uint8_t* e = slots + kContactBytes * (size_t(owner) * cap + k);
      SelfContact c;
      std::memcpy(c.vertex.data(), e, 16);
      std::memcpy(c.weight.data(), e + 16, 16);
      float n[4];
      std::memcpy(n, e + 32, 16);
      c.normal = glm::vec3(n[0], n[1], n[2]);
      c.edge_edge = edge_edge ? 1 : 0;
      stats_.crossed += n[3] > 0.f ? 1 : 0;
      ++(edge_edge ? stats_.edge_edge : stats_.vertex_triangle);
      contacts_.push_back(c);
    }
  };
  for (uint32_t t = 0; t < ntri_; ++t) read(vt_out, t, options_.slots_per_triangle, vt_count[t], false);
  for (uint32_t e = 0; e < nedge_; ++e) read(ee_out, e, options_.slots_per_edge, ee_count[e], true);
  if (queries_) {
    uint64_t t[3];
    if (vkGetQueryPoolResults(ctx_->device(), queries_, 0, 3, sizeof(t), t, sizeof(uint64_t),
                              VK_QUERY_RESULT_64_BIT) == VK_SUCCESS) {
      stats_.gpu_ms = double(t[2] - t[0]) * ctx_->timestamp_period_ns() * 1e-6;
      stats_.edge_edge_ms = double(t[2] - t[1]) * ctx_->timestamp_period_ns() * 1e-6;
    }
  }
}

}  // namespace weft
