#include "gpu/gpu_multigrid.h"

#include <algorithm>
#include <stdexcept>

#include "gpu/compute_pipeline.h"
#include "gpu/storage_set.h"
#include "gpu/vk_check.h"
#include "sim/aggregation_hierarchy.h"

namespace weft {
namespace {

// SPIR-V of the stage's kernels (gpu/CMakeLists.txt compiles every gpu/shaders/*.comp).
const uint32_t kPrepare[] = {
#include "mg_prepare.comp.spv.inc"
};
const uint32_t kGalerkinLinks[] = {
#include "mg_galerkin_links.comp.spv.inc"
};
const uint32_t kGalerkinNodes[] = {
#include "mg_galerkin_nodes.comp.spv.inc"
};
const uint32_t kL1[] = {
#include "mg_l1.comp.spv.inc"
};
const uint32_t kSmooth[] = {
#include "mg_smooth.comp.spv.inc"
};
const uint32_t kRestrict[] = {
#include "mg_restrict.comp.spv.inc"
};
const uint32_t kDots[] = {
#include "mg_dots.comp.spv.inc"
};
const uint32_t kResidual[] = {
#include "mg_residual.comp.spv.inc"
};
const uint32_t kCoarse[] = {
#include "mg_coarse.comp.spv.inc"
};
const uint32_t kCoarseSetup[] = {
#include "mg_coarse_setup.comp.spv.inc"
};

enum Binding { Levels, Diag, Inv, Off, Ends, AdjOff, Adj, Agg, GalNodeOff, GalNode, GalLinkOff, GalLink, Vec };
// mg_layout.glsl's vector slots (src 0 of mg_smooth: from zero).
constexpr uint32_t kZero = 0, kX0 = 1, kX1 = 2;

uint32_t groups_of(uint32_t count) { return std::max<uint32_t>(1, (count + 255) / 256); }

}  // namespace

GpuMultigrid::GpuMultigrid(GpuIntegrator& owner, const ClothModel& model, VkDescriptorSetLayout step_set_layout,
                           uint32_t push_bytes, const GpuStepOptions& options)
    : owner_(owner), n_(uint32_t(model.vertex_count())), sweeps_(std::max(1, options.mg_sweeps)) {
  const uint32_t coarse_nodes = options.mg_coarse_nodes;
  // The CPU mg's hierarchy (sim/multigrid_solver.cpp: the structural links steer the first aggregation,
  // down to one node per piece of cloth), numbered globally: level l's nodes from levels_[l].first, the
  // coarse levels' links from levels_[l].first_link.
  const AggregationHierarchy h = build_aggregation_hierarchy(n_, model.link, model.edge_count, 1);
  levels_.push_back({0, n_, 0, uint32_t(model.link.size())});
  uint32_t total = n_, total_links = 0;
  for (const AggregationLevel& a : h.levels) {
    levels_.push_back({total, a.coarse_count, total_links, uint32_t(a.coarse_link.size())});
    total += a.coarse_count;
    total_links += uint32_t(a.coarse_link.size());
  }
  if (levels_.size() > kMaxLevels) throw std::runtime_error("gpu multigrid: more than 32 levels");
  // The coarse levels that one workgroup runs: from the first below level 0 with at most coarse_nodes nodes.
  coarse_ = levels_.size();
  for (size_t l = 1; l < levels_.size() && coarse_nodes > 0; ++l)
    if (levels_[l].count <= coarse_nodes) {
      coarse_ = l;
      break;
    }
  const size_t N = total, C = total_links;
  std::vector<uint32_t> lv = {uint32_t(levels_.size()), total, total_links, uint32_t(sweeps_)};
  for (const Level& L : levels_) lv.insert(lv.end(), {L.first, L.count, L.first_link, L.links});
  std::vector<uint32_t> ends(2 * C), adj_off(N + 1, 0), agg(N, 0), gn_off(N + 1, 0), gl_off(C + 1, 0), gl;
  std::vector<int32_t> adj(2 * C), gn;
  for (size_t l = 1; l < levels_.size(); ++l) {
    const Level& L = levels_[l];
    const auto& cl = h.levels[l - 1].coarse_link;
    for (uint32_t k = 0; k < L.links; ++k) {
      ends[2 * (L.first_link + k)] = L.first + cl[k][0];
      ends[2 * (L.first_link + k) + 1] = L.first + cl[k][1];
      ++adj_off[L.first + cl[k][0] + 1];
      ++adj_off[L.first + cl[k][1] + 1];
    }
  }
  for (size_t g = 0; g < N; ++g) adj_off[g + 1] += adj_off[g];
  {
    std::vector<uint32_t> fill(adj_off.begin(), adj_off.end() - 1);
    for (uint32_t c = 0; c < C; ++c) {
      adj[fill[ends[2 * c]]++] = int32_t(c);
      adj[fill[ends[2 * c + 1]]++] = ~int32_t(c);
    }
  }
  // Per aggregate its members (fine order) then its inner links (link order); per coarse link its fine links.
  std::vector<std::vector<int32_t>> terms(N);
  std::vector<std::vector<uint32_t>> link_terms(C);
  for (size_t l = 0; l + 1 < levels_.size(); ++l) {
    const Level &F = levels_[l], &K = levels_[l + 1];
    const AggregationLevel& a = h.levels[l];
    const auto& fine_links = l == 0 ? model.link : h.levels[l - 1].coarse_link;
    for (uint32_t i = 0; i < F.count; ++i) {
      agg[F.first + i] = K.first + a.aggregate[i];
      terms[K.first + a.aggregate[i]].push_back(int32_t(F.first + i));
    }
    for (size_t e = 0; e < fine_links.size(); ++e) {
      const uint32_t fe = (l == 0 ? 0 : F.first_link) + uint32_t(e);  // the finer level's link index
      if (a.link_map[e] < 0) terms[K.first + a.aggregate[fine_links[e][0]]].push_back(~int32_t(fe));
      else link_terms[K.first_link + uint32_t(a.link_map[e])].push_back(fe);
    }
  }
  for (size_t g = 0; g < N; ++g) {
    gn_off[g + 1] = gn_off[g] + uint32_t(terms[g].size());
    gn.insert(gn.end(), terms[g].begin(), terms[g].end());
  }
  for (size_t c = 0; c < C; ++c) {
    gl_off[c + 1] = gl_off[c] + uint32_t(link_terms[c].size());
    gl.insert(gl.end(), link_terms[c].begin(), link_terms[c].end());
  }

  const VkBufferUsageFlags storage =
      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  auto table = [&](Binding b, const void* data, size_t bytes) {
    buf_[b] = owner_.make_buffer(std::max<size_t>(bytes, 16), storage, false);
    if (bytes > 0) owner_.upload_once(buf_[b], data, bytes);
  };
  table(Levels, lv.data(), 4 * lv.size());
  table(Ends, ends.data(), 4 * ends.size());
  table(AdjOff, adj_off.data(), 4 * adj_off.size());
  table(Adj, adj.data(), 4 * adj.size());
  table(Agg, agg.data(), 4 * agg.size());
  table(GalNodeOff, gn_off.data(), 4 * gn_off.size());
  table(GalNode, gn.data(), 4 * gn.size());
  table(GalLinkOff, gl_off.data(), 4 * gl_off.size());
  table(GalLink, gl.data(), 4 * gl.size());
  const size_t nn = std::max<size_t>(N, 1), cc = std::max<size_t>(C, 1);
  buf_[Diag] = owner_.make_buffer(2 * 16 * nn, storage, false);
  buf_[Inv] = owner_.make_buffer(3 * 16 * nn, storage, false);
  buf_[Off] = owner_.make_buffer(2 * 16 * cc, storage, false);
  const std::vector<float> zeros(4 * 4 * nn, 0.f);  // the vectors' w stay 0
  table(Vec, zeros.data(), 4 * zeros.size());

  const VkDevice dev = owner_.ctx_->device();
  set_layout_ = make_storage_set_layout(dev, kBindings);
  VkBuffer buffers[kBindings];
  for (uint32_t b = 0; b < kBindings; ++b) buffers[b] = buf_[b].buffer;
  make_storage_set(dev, set_layout_, buffers, kBindings, pool_, set_);
  const VkDescriptorSetLayout sets[2] = {step_set_layout, set_layout_};
  layout_ = make_compute_layout(dev, sets, 2, push_bytes);
  const struct {
    const uint32_t* words;
    size_t bytes;
  } code[kKernels] = {{kPrepare, sizeof kPrepare},   {kGalerkinLinks, sizeof kGalerkinLinks},
                      {kGalerkinNodes, sizeof kGalerkinNodes}, {kL1, sizeof kL1},
                      {kSmooth, sizeof kSmooth},     {kRestrict, sizeof kRestrict},
                      {kDots, sizeof kDots},         {kCoarse, sizeof kCoarse},
                      {kCoarseSetup, sizeof kCoarseSetup}, {kResidual, sizeof kResidual}};
  for (int k = 0; k < kKernels; ++k) pipelines_[k] = make_compute_pipeline(dev, code[k].words, code[k].bytes, layout_, modules_[k]);
}

GpuMultigrid::~GpuMultigrid() {
  const VkDevice dev = owner_.ctx_->device();
  destroy_compute_pipelines(dev, pipelines_, modules_, kKernels);
  vkDestroyPipelineLayout(dev, layout_, nullptr);
  vkDestroyDescriptorPool(dev, pool_, nullptr);
  vkDestroyDescriptorSetLayout(dev, set_layout_, nullptr);
  for (Buf& b : buf_) destroy_device_buffer(*owner_.ctx_, b);
}

void GpuMultigrid::bind(VkCommandBuffer c) const {
  vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 1, 1, &set_, 0, nullptr);
}

int GpuMultigrid::sweeps_of(size_t l) const {
  if (l > 0 && levels_[l].links == 0) return 1;  // no links: one sweep from zero is exact
  return levels_[l].count <= kSmallLevel ? kSmallLevelSweeps : sweeps_;
}

void GpuMultigrid::record_setup(VkCommandBuffer c, const Dispatch& dispatch) const {
  bind(c);
  dispatch(pipelines_[Prepare], layout_, groups_of(n_), 0, 0, 0);
  for (size_t l = 1; l < coarse_; ++l) {
    if (levels_[l].links > 0) dispatch(pipelines_[GalerkinLinks], layout_, groups_of(levels_[l].links), 0, 0, uint32_t(l));
    dispatch(pipelines_[GalerkinNodes], layout_, groups_of(levels_[l].count), 0, 0, uint32_t(l));
  }
  for (size_t l = 0; l < coarse_; ++l) dispatch(pipelines_[L1], layout_, groups_of(levels_[l].count), 0, 0, uint32_t(l));
  if (coarse_ < levels_.size()) dispatch(pipelines_[CoarseSetup], layout_, 1, 0, 0, uint32_t(coarse_));
}

void GpuMultigrid::record_apply(VkCommandBuffer c, const Dispatch& dispatch, uint32_t z_slot) const {
  bind(c);
  const size_t last = levels_.size() - 1, fine_end = std::min(coarse_, last);
  std::vector<uint32_t> at(levels_.size(), kX0);  // the slot holding each level's x (recording only)
  // count Jacobi sweeps on level l, ping-ponging between x0 and x1: the first from zero (from_zero) or adding
  // the coarse correction from slot coarse (0: none). record false: the slots only, as mg_coarse.comp
  // alternates them inside its one dispatch. The cycle's final sweep (on level 0) is mg_dots.comp's, into z.
  auto sweep = [&](size_t l, int count, bool from_zero, uint32_t coarse, bool record, bool final) {
    for (int s = 0; s < count; ++s) {
      const uint32_t src = from_zero && s == 0 ? kZero : at[l], dst = src == kX0 ? kX1 : kX0;
      const uint32_t mode = uint32_t(l) | (s == 0 ? coarse : 0u) << 8;
      if (record && final && s == count - 1) dispatch(pipelines_[Dots], layout_, groups_of(n_), src, z_slot, mode);
      else if (record) dispatch(pipelines_[Smooth], layout_, groups_of(levels_[l].count), src, dst, mode);
      at[l] = dst;
    }
  };
  for (size_t l = 0; l < fine_end; ++l) {
    sweep(l, sweeps_of(l), true, 0, true, false);
    // The residual a node each, then the sums an aggregate each: an invocation per aggregate making its
    // members' residuals itself cost 1.5 times the whole solve on an H100 (decisions/gpu-mg-fewer-dispatches.md).
    dispatch(pipelines_[Residual], layout_, groups_of(levels_[l].count), at[l], 0, uint32_t(l));
    dispatch(pipelines_[Restrict], layout_, groups_of(levels_[l + 1].count), 0, 0, uint32_t(l + 1));
  }
  if (coarse_ <= last) {
    dispatch(pipelines_[Coarse], layout_, 1, 0, 0, uint32_t(coarse_));
    for (size_t l = coarse_; l < last; ++l) sweep(l, sweeps_of(l), true, 0, false, false);
    sweep(last, sweeps_of(last), true, 0, false, false);
    for (size_t l = last; l-- > coarse_;) sweep(l, sweeps_of(l), false, at[l + 1], false, false);
  } else {
    sweep(last, sweeps_of(last), true, 0, true, last == 0);
  }
  for (size_t l = fine_end; l-- > 0;) sweep(l, sweeps_of(l), false, at[l + 1], true, l == 0);
}

}  // namespace weft
