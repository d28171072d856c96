#include "gpu/gpu_contact_stage.h"

#include <cstring>
#include <stdexcept>
#include <string>

#include "gpu/compute_pipeline.h"
#include "gpu/storage_set.h"
#include "gpu/vk_check.h"
#include "sim/contact_filter.h"
#include "sim/edge_colouring.h"

namespace weft {
namespace {

const uint32_t kTethersCode[] = {
#include "tethers.comp.spv.inc"
};
const uint32_t kStrainSweepCode[] = {
#include "strain_sweep.comp.spv.inc"
};
const uint32_t kStageControlCode[] = {
#include "stage_control.comp.spv.inc"
};
const uint32_t kCollideCode[] = {
#include "collide.comp.spv.inc"
};
const uint32_t kReleaseThrowCode[] = {
#include "release_throw.comp.spv.inc"
};

// contact_layout.glsl's Push, in std430 order.
struct Push {
  uint32_t n, begin, count, mode;
  float h, detect, stretch, settled, thickness, settle;
  uint32_t flags, pad;
};
constexpr uint32_t kVelFromCorrection = 1, kClearHeld = 2, kGate = 4;
enum Binding { X, V, XPrev, VInfo, Edges, Teth, Tick, ConOut, Sc, Ind, Freed };
constexpr uint32_t kScalars = 16;
constexpr uint32_t kScContacts = 7, kScTotalCorrected = 8, kScStuck = 9, kScAltPasses = 10, kScFirstSweeps = 11,
                   kScFirstLargest = 12, kScTruncated = 13;
constexpr uint32_t kColliderVec4 = 8;  // collide.comp's load()

uint32_t groups_of(uint32_t count) { return (count + 255) / 256; }

float as_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint32_t as_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

}  // namespace

GpuContactStage::GpuContactStage(GpuIntegrator& owner, const ClothModel& model, const GpuStepOptions& options)
    : owner_(owner), options_(options), n_(uint32_t(model.vertex_count())), nedge_(uint32_t(model.edge_count)) {
  const VkDevice dev = owner_.ctx_->device();
  const size_t n = std::max<size_t>(n_, 1), ne = std::max<size_t>(nedge_, 1);
  // The edges in colour order, each with its ends and rest length (the sweep's only table).
  const EdgeColouring colouring = colour_edges(model);
  std::vector<uint32_t> edges(4 * ne, 0);
  for (size_t k = 0; k < colouring.order.size(); ++k) {
    const uint32_t e = colouring.order[k];
    edges[4 * k] = model.link[e][0];
    edges[4 * k + 1] = model.link[e][1];
    edges[4 * k + 2] = as_bits(model.rest_length[e]);
    edges[4 * k + 3] = e;
  }
  for (size_t c = 0; c < colouring.colour_count(); ++c)
    colours_.push_back({colouring.colour_offset[c], colouring.colour_offset[c + 1] - colouring.colour_offset[c]});
  const VkBufferUsageFlags storage =
      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  const VkDeviceSize v4 = 16;
  const VkDeviceSize tick_bytes = v4 * (1 + kColliderVec4 * kMaxColliders);
  // the indirect dispatches: x y z per colour and for the collider pass, then their full group counts
  const uint32_t nc = uint32_t(colours_.size());
  std::vector<uint32_t> ind(3 * (nc + 1) + nc + 1, 1);
  for (uint32_t c = 0; c < nc; ++c) ind[3 * c] = ind[3 * (nc + 1) + c] = groups_of(colours_[c].count);
  ind[3 * nc] = ind[3 * (nc + 1) + nc] = groups_of(n_);
  const VkDeviceSize sizes[kBindings] = {v4 * n,  v4 * n, v4 * n, v4 * n, v4 * ne, 8 * kTetherSets * n,
                                         tick_bytes, v4 * n, 4 * kScalars, 4 * ind.size(), freed_bytes()};
  for (uint32_t b = 0; b < kBindings; ++b)
    buf_[b] = owner_.make_buffer(sizes[b], storage | (b == Ind ? VkBufferUsageFlags(VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT) : VkBufferUsageFlags(0)), false);
  owner_.upload_once(buf_[Ind], ind.data(), 4 * ind.size());
  // x v vinfo | tether sets | colliders | the freed vertices (fused ticks)
  up_ = owner_.make_buffer(3 * v4 * n + 8 * kTetherSets * n + tick_bytes + freed_bytes(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
  down_ = owner_.make_buffer(3 * v4 * n + 4 * kScalars, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
  // the inverse masses never change; the kinematic and held flags are packed per tick beside them
  if (nedge_ > 0) owner_.upload_once(buf_[Edges], edges.data(), 16 * VkDeviceSize(nedge_));

  set_layout_ = make_storage_set_layout(dev, kBindings);
  layout_ = make_compute_layout(dev, &set_layout_, 1, sizeof(Push));
  VkBuffer buffers[kBindings];
  for (uint32_t b = 0; b < kBindings; ++b) buffers[b] = buf_[b].buffer;
  make_storage_set(dev, set_layout_, buffers, kBindings, pool_, set_);
  const struct {
    const uint32_t* words;
    size_t bytes;
  } code[kKernels] = {{kTethersCode, sizeof(kTethersCode)},
                      {kStrainSweepCode, sizeof(kStrainSweepCode)},
                      {kStageControlCode, sizeof(kStageControlCode)},
                      {kCollideCode, sizeof(kCollideCode)},
                      {kReleaseThrowCode, sizeof(kReleaseThrowCode)}};
  for (int k = 0; k < kKernels; ++k) pipelines_[k] = make_compute_pipeline(dev, code[k].words, code[k].bytes, layout_, modules_[k]);
  make_command_buffer_and_fence(dev, owner_.ctx_->pool(), cmd_, fence_);
}

GpuContactStage::~GpuContactStage() {
  const VkDevice dev = owner_.ctx_->device();
  vkDeviceWaitIdle(dev);
  vkDestroyFence(dev, fence_, nullptr);
  vkFreeCommandBuffers(dev, owner_.ctx_->pool(), 1, &cmd_);
  destroy_compute_pipelines(dev, pipelines_, modules_, kKernels);
  vkDestroyDescriptorPool(dev, pool_, nullptr);
  vkDestroyPipelineLayout(dev, layout_, nullptr);
  vkDestroyDescriptorSetLayout(dev, set_layout_, nullptr);
  for (Buf& b : buf_) destroy_device_buffer(*owner_.ctx_, b);
  destroy_device_buffer(*owner_.ctx_, up_);
  destroy_device_buffer(*owner_.ctx_, down_);
}

// The stage as one command buffer of its own: its inputs from up_, then its kernels.
void GpuContactStage::record(const WorldModel& world, float h) {
  WEFT_VK_CHECK(vkResetCommandBuffer(cmd_, 0));
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  WEFT_VK_CHECK(vkBeginCommandBuffer(cmd_, &begin));
  const VkCommandBuffer c = cmd_;
  memory_barrier(c, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
  const VkDeviceSize block = 16 * VkDeviceSize(n_), teth = 8 * VkDeviceSize(kTetherSets) * n_;
  const VkDeviceSize tick_bytes = 16 * VkDeviceSize(1 + kColliderVec4 * kMaxColliders);
  if (n_ > 0) {
    const VkBufferCopy xs{0, 0, block}, vs{block, 0, block}, info{2 * block, 0, block}, ts{3 * block, 0, teth};
    vkCmdCopyBuffer(c, up_.buffer, buf_[X].buffer, 1, &xs);
    vkCmdCopyBuffer(c, up_.buffer, buf_[V].buffer, 1, &vs);
    vkCmdCopyBuffer(c, up_.buffer, buf_[VInfo].buffer, 1, &info);
    vkCmdCopyBuffer(c, up_.buffer, buf_[Teth].buffer, 1, &ts);
    const VkBufferCopy start{0, 0, block};  // the integrator's x: where the step began
    vkCmdCopyBuffer(c, owner_.buf_[0].buffer, buf_[XPrev].buffer, 1, &start);
  }
  const VkBufferCopy tick{3 * block + teth, 0, table_shared_ ? 16 : tick_bytes};  // stage 3 filled the rest
  vkCmdCopyBuffer(c, up_.buffer, buf_[Tick].buffer, 1, &tick);
  record_kernels(c, world, h);
  memory_barrier(c, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                 VK_ACCESS_HOST_READ_BIT);
  WEFT_VK_CHECK(vkEndCommandBuffer(c));
  recorded_h_ = h;
}

// Into the step's command buffer after its end of step: x and v from its slots (not uploaded), the rest of
// the inputs from up_, the release grip's throw on the freed vertices packed this tick, the state after it
// into the step's download where its end-of-step x and v go (the CPU's post-solve measures read it), then
// the stage's kernels.
void GpuContactStage::record_fused(VkCommandBuffer c, const WorldModel& world, float h, VkDeviceSize x_slot,
                                   bool solved, bool brief) {
  const VkDeviceSize block = 16 * VkDeviceSize(n_), teth = 8 * VkDeviceSize(kTetherSets) * n_;
  const VkDeviceSize tick_bytes = 16 * VkDeviceSize(1 + kColliderVec4 * kMaxColliders);
  memory_barrier(c, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
  const VkBuffer vecs = owner_.buf_[12].buffer;  // step_layout.glsl's Vecs
  if (n_ > 0) {
    const VkBufferCopy xs{x_slot * block, 0, block}, vs{(x_slot + 1) * block, 0, block}, info{2 * block, 0, block},
        ts{3 * block, 0, teth};
    vkCmdCopyBuffer(c, vecs, buf_[X].buffer, 1, &xs);
    vkCmdCopyBuffer(c, vecs, buf_[V].buffer, 1, &vs);
    vkCmdCopyBuffer(c, up_.buffer, buf_[VInfo].buffer, 1, &info);
    vkCmdCopyBuffer(c, up_.buffer, buf_[Teth].buffer, 1, &ts);
    const VkBufferCopy start{0, 0, block};
    vkCmdCopyBuffer(c, owner_.buf_[0].buffer, buf_[XPrev].buffer, 1, &start);
  }
  // (the table shared: stage 3 filled all but the header, whose z is the freed count)
  const VkBufferCopy tick{3 * block + teth, 0, table_shared_ ? 16 : tick_bytes},
      freed{3 * block + teth + tick_bytes, 0, freed_bytes()};
  vkCmdCopyBuffer(c, up_.buffer, buf_[Tick].buffer, 1, &tick);
  vkCmdCopyBuffer(c, up_.buffer, buf_[Freed].buffer, 1, &freed);
  memory_barrier(c, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                 VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set_, 0, nullptr);
  Push push{n_, 0, kMaxFreed, 0, h, 0.f, 0.f, 0.f, 0.f, 0.f, 0, 0};
  vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines_[ReleaseThrow]);
  vkCmdPushConstants(c, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(Push), &push);
  vkCmdDispatch(c, groups_of(kMaxFreed), 1, 1);
  memory_barrier(c, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_ACCESS_TRANSFER_READ_BIT);
  if (n_ > 0 && solved) {  // the step's download: x (w: the contacts' normal impulses) and v, after the throw
    const VkBufferCopy xs{0, 0, block}, vs{0, block, block};
    vkCmdCopyBuffer(c, buf_[X].buffer, owner_.down_.buffer, 1, &xs);
    vkCmdCopyBuffer(c, buf_[V].buffer, owner_.down_.buffer, 1, &vs);
  }
  record_kernels(c, world, h, brief);
}

// sim/stage_contacts.cpp's order: tethers, a limiting pass, the first collider pass, then up to
// contact_passes rounds of (a limiting pass; settled? done; the colliders), and a last limiting pass when the
// rounds ran out; then the download.
void GpuContactStage::record_kernels(VkCommandBuffer c, const WorldModel& world, float h, bool brief) {
  const StrainLimitParams& strain = world.config.interaction.strain;
  const float thickness = world.config.interaction.thickness;
  auto barrier = [&](VkPipelineStageFlags from, VkAccessFlags from_access, VkPipelineStageFlags to,
                     VkAccessFlags to_access) { memory_barrier(c, from, from_access, to, to_access); };
  const float detect = 1.f + strain.max_strain;
  Push push{n_, 0, n_, 0, h, detect, detect - 1e-3f, detect + strain.tolerance, thickness,
            strain.contact_settle * thickness,
            (strain.velocity_from_correction ? kVelFromCorrection : 0u) |
                (world.config.interaction.clear_held_patches ? kClearHeld : 0u),
            0};
  const uint32_t base_flags = push.flags;
  const uint32_t ncolour = uint32_t(colours_.size());
  bool indirect = false;  // the next run's groups from Ind at indirect_offset (gated by stage_control.comp)
  VkDeviceSize indirect_offset = 0;
  brief = brief && options_.brief_sweeps > 0 && options_.brief_rounds > 0;
  uint32_t& dispatches = dispatches_[brief ? 1 : 0];
  dispatches = 0;
  auto run = [&](Kernel k, uint32_t groups) {
    ++dispatches;
    vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines_[k]);
    vkCmdPushConstants(c, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(Push), &push);
    if (indirect) vkCmdDispatchIndirect(c, buf_[Ind].buffer, indirect_offset);
    else vkCmdDispatch(c, groups, 1, 1);
    barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
            VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_INDIRECT_COMMAND_READ_BIT);
  };
  auto control = [&](uint32_t mode, bool gate) {
    push.mode = mode;
    push.count = ncolour;
    push.flags = base_flags | (gate ? kGate : 0u);
    run(StageControl, 1);
  };
  // A limiting pass of at most `sweeps` sweeps (gate: only while the alternation has not settled); brief:
  // fewer, and the run flagged truncated if the pass has not ended when they run out.
  auto limit_pass = [&](int sweeps, bool gate) {
    control(0, gate);
    if (!strain.enabled) return;
    const int recorded = brief ? std::min(sweeps, options_.brief_sweeps) : sweeps;
    push.flags = base_flags;
    for (int s = 0; s < recorded; ++s) {
      const size_t nc = colours_.size();
      for (size_t k = 0; k < nc; ++k) {
        const size_t ci = s % 2 ? nc - 1 - k : k;
        const Colour& col = colours_[ci];
        push.begin = col.begin;
        push.count = col.count;
        push.mode = 0;
        indirect = true;
        indirect_offset = 12 * VkDeviceSize(ci);
        run(StrainSweep, 0);
        indirect = false;
      }
      push.settled = detect + strain.tolerance;
      control(1, false);
    }
    if (recorded < sweeps) control(5, false);
  };
  auto collide = [&](bool first, bool gate) {
    push.count = n_;
    push.mode = first ? 1 : 0;
    push.flags = base_flags | (gate ? kGate : 0u);
    indirect = gate;
    indirect_offset = 12 * VkDeviceSize(ncolour);
    run(Collide, groups_of(n_));
    indirect = false;
  };

  const VkDeviceSize block = 16 * VkDeviceSize(n_);
  vkCmdFillBuffer(c, buf_[Sc].buffer, 0, VK_WHOLE_SIZE, 0);
  vkCmdFillBuffer(c, buf_[ConOut].buffer, 0, VK_WHOLE_SIZE, 0);
  barrier(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
          VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set_, 0, nullptr);

  const int full = std::min(strain.iterations, options_.limit_sweeps);
  const int near = std::min(strain.near_iterations, options_.limit_sweeps);
  if (strain.enabled) {
    push.detect = 1.f + strain.tether_slack;  // tethers.comp's stretch
    for (uint32_t s = 0; s < kTetherSets; ++s) {
      push.mode = s;
      push.count = n_;
      push.flags = base_flags;
      run(Tethers, groups_of(n_));
    }
    push.detect = detect;
  }
  limit_pass(full, false);
  control(4, false);
  collide(true, false);
  control(2, false);
  const int rounds = brief ? std::min(strain.contact_passes, options_.brief_rounds) : strain.contact_passes;
  for (int pass = 0; pass < rounds; ++pass) {
    limit_pass(near, true);
    control(3, false);
    collide(false, true);
  }
  if (rounds < strain.contact_passes) control(6, false);
  limit_pass(full, true);  // the limiter's last word, when the rounds did not settle

  barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
          VK_ACCESS_TRANSFER_READ_BIT);
  if (n_ > 0) {
    const VkBufferCopy xs{0, 0, block}, vs{0, block, block}, cs{0, 2 * block, block};
    vkCmdCopyBuffer(c, buf_[X].buffer, down_.buffer, 1, &xs);
    vkCmdCopyBuffer(c, buf_[V].buffer, down_.buffer, 1, &vs);
    vkCmdCopyBuffer(c, buf_[ConOut].buffer, down_.buffer, 1, &cs);
  }
  const VkBufferCopy sc{0, 3 * block, 4 * kScalars};
  vkCmdCopyBuffer(c, buf_[Sc].buffer, down_.buffer, 1, &sc);
}

// Each collider as collide.comp's load() reads it, after a header vec4 whose x is their count.
void GpuContactStage::pack_colliders(const std::vector<Collider>& colliders, float* table) {
  table[0] = float(colliders.size());
  for (size_t k = 0; k < colliders.size(); ++k) {
    const Collider& col = colliders[k];
    float* r = table + 4 * (1 + kColliderVec4 * k);
    const bool moving = col.pose.position != col.previous_pose.position || col.pose.orientation != col.previous_pose.orientation;
    const bool still = !col.follows && col.linear_velocity == glm::vec3(0.f) && col.angular_velocity == glm::vec3(0.f);
    const uint32_t flags = (moving ? 1u : 0u) | (clears_held_patches(col) ? 2u : 0u) | (still ? 4u : 0u);
    auto put = [&](int slot, const glm::vec3& a, float w) {
      r[4 * slot] = a.x; r[4 * slot + 1] = a.y; r[4 * slot + 2] = a.z; r[4 * slot + 3] = w;
    };
    auto put_q = [&](int slot, const glm::quat& q) {
      r[4 * slot] = q.x; r[4 * slot + 1] = q.y; r[4 * slot + 2] = q.z; r[4 * slot + 3] = q.w;
    };
    r[0] = float(col.shape); r[1] = col.follows ? float(int(*col.follows)) : -1.f; r[2] = float(flags); r[3] = 0.f;
    put(1, col.pose.position, col.radius);
    put_q(2, col.pose.orientation);
    put(3, col.previous_pose.position, col.half_length);
    put_q(4, col.previous_pose.orientation);
    put(5, col.half_extents, col.mu_static);
    put(6, col.linear_velocity, col.mu_kinetic);
    put(7, col.angular_velocity, 0.f);
  }
}

VkBuffer GpuContactStage::collider_table() const { return buf_[Tick].buffer; }

bool GpuContactStage::truncated() const {
  const uint32_t* sc = reinterpret_cast<const uint32_t*>(static_cast<const float*>(down_.mapped) + 12 * size_t(n_));
  return sc[kScTruncated] != 0;
}

void GpuContactStage::run(const WorldModel& world, WorldState& state, WorldScratch& scratch, StepReport& stats,
                          float h) {
  if (h != recorded_h_) record(world, h);
  pack(world, state, scratch, false, h);
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd_;
  const VkDevice dev = owner_.ctx_->device();
  WEFT_VK_CHECK(vkQueueSubmit(owner_.ctx_->queue(), 1, &submit, fence_));
  WEFT_VK_CHECK(vkWaitForFences(dev, 1, &fence_, VK_TRUE, UINT64_MAX));
  WEFT_VK_CHECK(vkResetFences(dev, 1, &fence_));
  read_back(state, scratch, stats);
}

bool GpuContactStage::pack_fused(const WorldModel& world, WorldState& state, const WorldScratch& scratch, float h) {
  if (scratch.freed.freed.size() > kMaxFreed) return false;
  pack(world, state, scratch, true, h);
  return true;
}

void GpuContactStage::pack(const WorldModel& world, WorldState& state, const WorldScratch& scratch, bool fused,
                           float h) {
  const ClothState& cs = state.cloth;
  const ClothModel& m = world.cloth;
  const size_t n = n_;
  if (state.colliders.size() > kMaxColliders)
    throw std::runtime_error("GpuContactStage: " + std::to_string(state.colliders.size()) + " colliders, more than " +
                             std::to_string(kMaxColliders));
  float* up = static_cast<float*>(up_.mapped);
  const uint8_t* held_by = scratch.held_by_live ? scratch.held_by.data() : nullptr;
  for (size_t i = 0; i < n; ++i) {
    if (!fused) {  // fused: x and v are the step's, on the device
      const glm::vec3 x = cs.position[i], v = cs.velocity[i];
      float* px = up + 4 * i;
      float* pv = up + 4 * (n + i);
      px[0] = x.x; px[1] = x.y; px[2] = x.z; px[3] = 0.f;
      pv[0] = v.x; pv[1] = v.y; pv[2] = v.z; pv[3] = 0.f;
    }
    float* pi = up + 4 * (2 * n + i);
    pi[0] = m.inv_mass[i]; pi[1] = cs.kinematic[i] ? 1.f : 0.f; pi[2] = held_by ? float(held_by[i]) : 0.f; pi[3] = 0.f;
  }
  // The active tether sets (each device's, then the pins'): anchor and length per vertex.
  uint32_t* teth = reinterpret_cast<uint32_t*>(up + 12 * n);
  uint32_t mask = 0;
  for (uint32_t s = 0; s < kTetherSets; ++s) {
    const weft::Tethers& t = s < kDeviceCount ? state.tethers[s] : world.pin_tethers;
    if (!t.active || t.anchor.size() != n) continue;
    mask |= 1u << s;
    uint32_t* out = teth + 2 * size_t(s) * n;
    for (size_t i = 0; i < n; ++i) {
      out[2 * i] = t.anchor[i];
      out[2 * i + 1] = as_bits(t.length[i]);
    }
  }
  float* tick = up + 12 * n + 2 * kTetherSets * n;
  if (!table_shared_) pack_colliders(state.colliders, tick);
  tick[0] = float(state.colliders.size());
  tick[1] = float(mask);
  tick[2] = tick[3] = 0.f;
  if (!fused) return;
  // The vertices a grip let go this tick (sim/freed_relaxation.h: they lead `vertices`) that the release
  // grip's throw may slow: the free ones, each with v_start + h g, its bound. Whether the solve kept a contact
  // at one (take_release_throw skips those) is known only on the device, where the resting search ran in this
  // very submit: release_throw.comp reads it from the end of the step's v w.
  const FreedRelaxation& r = scratch.freed;
  float* freed = tick + 4 * (1 + kColliderVec4 * kMaxColliders);
  uint32_t count = 0;
  const glm::vec3 g = m.material.gravity;
  for (size_t k = 0; k < r.freed.size() && k < r.vertices.size() && k < r.v_start.size(); ++k) {
    const uint32_t i = r.vertices[k];
    if (cs.kinematic[i]) continue;
    const glm::vec3 base = r.v_start[k] + h * g;
    float* e = freed + 4 * size_t(count++);
    e[0] = base.x; e[1] = base.y; e[2] = base.z; e[3] = as_float(i);
  }
  tick[2] = float(count);
}

void GpuContactStage::read_back(WorldState& state, WorldScratch& scratch, StepReport& stats) {
  ClothState& cs = state.cloth;
  const size_t n = n_;
  const float* down = static_cast<const float*>(down_.mapped);
  for (size_t i = 0; i < n; ++i) {
    cs.position[i] = glm::vec3(down[4 * i], down[4 * i + 1], down[4 * i + 2]);
    cs.velocity[i] = glm::vec3(down[4 * (n + i)], down[4 * (n + i) + 1], down[4 * (n + i) + 2]);
  }
  // The contact flags and axes as ContactPasses::collide_all leaves them: the solve's contacts touch too;
  // each vertex's first contact of the first pass adds its normal, collider by collider.
  const float* con = down + 8 * n;
  std::memset(scratch.collider_contact.data(), 0, n);
  for (uint32_t i : cs.contact_filter.vertex) scratch.collider_contact[i] = 1;
  cs.contact_axes.clear();
  for (size_t i = 0; i < n; ++i)
    if (uint32_t(con[4 * i + 3]) & 1u) scratch.collider_contact[i] = 1;
  for (size_t k = 0; k < state.colliders.size() && cs.contact_axes.count < 3; ++k)
    for (size_t i = 0; i < n; ++i)
      if ((uint32_t(con[4 * i + 3]) >> 1) == k + 1) cs.contact_axes.add(glm::vec3(con[4 * i], con[4 * i + 1], con[4 * i + 2]));
  const uint32_t* sc = reinterpret_cast<const uint32_t*>(down + 12 * n);
  cs.contact_axes.stuck = sc[kScStuck] != 0;
  first_sweeps_ = sc[kScFirstSweeps];
  alt_passes_ = sc[kScAltPasses];
  stats.strain = {int(sc[kScFirstSweeps]), sc[kScTotalCorrected], as_float(sc[kScFirstLargest])};
  stats.collision.contacts = sc[kScContacts];
}

}  // namespace weft
