#include "gpu/gpu_integrator.h"

#include <cstring>
#include <stdexcept>

#include "gpu/compute_pipeline.h"
#include "gpu/gpu_contact_stage.h"
#include "gpu/gpu_force_stage.h"
#include "gpu/gpu_self_response.h"
#include "gpu/storage_set.h"
#include "gpu/vk_check.h"
#include "sim/implicit_step.h"

namespace weft {
namespace {

// SPIR-V of gpu/shaders/*.comp, compiled by glslc at build time (gpu/CMakeLists.txt).
const uint32_t kLinkForces[] = {
#include "link_forces.comp.spv.inc"
};
const uint32_t kAssemble[] = {
#include "assemble.comp.spv.inc"
};
const uint32_t kSpmv[] = {
#include "spmv.comp.spv.inc"
};
const uint32_t kCgStart[] = {
#include "cg_start.comp.spv.inc"
};
const uint32_t kCgDotDq[] = {
#include "cg_dot_dq.comp.spv.inc"
};
const uint32_t kCgUpdate[] = {
#include "cg_update.comp.spv.inc"
};
const uint32_t kCgDirection[] = {
#include "cg_direction.comp.spv.inc"
};
const uint32_t kCgReduce[] = {
#include "cg_reduce.comp.spv.inc"
};
const uint32_t kContactImpulse[] = {
#include "contact_impulse.comp.spv.inc"
};
enum Kernel { LinkForces, Assemble, Spmv, CgStart, CgDotDq, CgUpdate, CgDirection, CgReduce, ContactImpulse, kKernels };
struct Code {
  const uint32_t* words;
  size_t bytes;
};
const Code kCode[kKernels] = {{kLinkForces, sizeof(kLinkForces)}, {kAssemble, sizeof(kAssemble)},
                              {kSpmv, sizeof(kSpmv)},             {kCgStart, sizeof(kCgStart)},
                              {kCgDotDq, sizeof(kCgDotDq)},       {kCgUpdate, sizeof(kCgUpdate)},
                              {kCgDirection, sizeof(kCgDirection)}, {kCgReduce, sizeof(kCgReduce)},
                              {kContactImpulse, sizeof(kContactImpulse)}};

// step_layout.glsl's Push, in std430 order.
struct Push {
  uint32_t n, nlink;
  float h, cd;
  float gravity[4];
  uint32_t src, dst, mode, groups;
  float tol;
};

// step_layout.glsl's bindings and slots.
enum Binding {
  X, V, Kin, VData, Links, LinkP, LinkF, LinkJ, CsrOff, Csr, Pre, Diag, Vecs, Force, Partial, Scalars,
  kBindings
};
// Slots 6-8: the contacts in and their impulses out (step_layout.glsl's kCon0, kCon1, kConOut).
constexpr uint32_t kSlots = 9, kSlotDv = 0, kSlotD = 2, kSlotQ = 3, kSlotCon0 = 6, kSlotConOut = 8;
constexpr uint32_t kScalarCount = 16, kScalarRes = 4, kScalarIter = 5;
constexpr uint32_t kTimestamps = 5;

uint32_t groups_of(uint32_t count) { return (count + 255) / 256; }

}  // namespace

GpuIntegrator::Buffer GpuIntegrator::make_buffer(VkDeviceSize size, VkBufferUsageFlags usage, bool host) {
  return make_device_buffer(*ctx_, size, usage, host);
}

void GpuIntegrator::upload_once(Buffer& dst, const void* data, VkDeviceSize size) {
  weft::upload_once(*ctx_, dst, data, size);
}

GpuIntegrator::GpuIntegrator(std::shared_ptr<ComputeContext> context, const ClothModel& model,
                             const SolverOptions& solver, const GpuStepOptions& options)
    : ctx_(std::move(context)),
      options_(options),
      translation_correction_(solver.translation_correction),
      n_(uint32_t(model.vertex_count())),
      nlink_(uint32_t(model.link_count_total())),
      groups_(groups_of(n_)),
      forces_(model),
      dv_(model.vertex_count()) {
  const VkDevice dev = ctx_->device();
  const size_t n = n_, nl = nlink_;
  // The model's tables as the kernels read them: per vertex mass and link count, per link its ends and
  // spring, and each vertex's links in link order (the fixed gather order).
  std::vector<float> vdata(4 * n, 0.f);
  for (size_t i = 0; i < n; ++i) {
    vdata[4 * i] = model.mass[i];
    vdata[4 * i + 1] = float(model.link_count[i]);
  }
  std::vector<uint32_t> links(2 * nl);
  std::vector<float> linkp(2 * nl);
  std::vector<uint32_t> offset(n + 1, 0);
  for (size_t l = 0; l < nl; ++l) {
    links[2 * l] = model.link[l][0];
    links[2 * l + 1] = model.link[l][1];
    linkp[2 * l] = model.stiffness[l];
    linkp[2 * l + 1] = model.rest_length[l];
    ++offset[model.link[l][0] + 1];
    ++offset[model.link[l][1] + 1];
  }
  for (size_t i = 0; i < n; ++i) offset[i + 1] += offset[i];
  std::vector<int32_t> csr(2 * nl);
  {
    std::vector<uint32_t> fill(offset.begin(), offset.end() - 1);
    for (size_t l = 0; l < nl; ++l) {
      csr[fill[model.link[l][0]]++] = int32_t(l);
      csr[fill[model.link[l][1]]++] = ~int32_t(l);
    }
  }
  const VkBufferUsageFlags storage =
      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  const VkDeviceSize v4 = 16, nn = std::max<size_t>(n, 1), nnl = std::max<size_t>(nl, 1);
  const VkDeviceSize sizes[kBindings] = {v4 * nn,      v4 * nn,           v4 * nn,      v4 * nn,
                                         8 * nnl,      8 * nnl,           v4 * nnl,     2 * v4 * nnl,
                                         4 * (nn + 1), 4 * 2 * nnl,       3 * v4 * nn,  2 * v4 * nn,
                                         kSlots * v4 * nn, v4 * nn,       16 * groups_of(uint32_t(nn)), 4 * kScalarCount};
  static_assert(std::tuple_size_v<decltype(buf_)> == kBindings);
  for (size_t b = 0; b < buf_.size(); ++b) buf_[b] = make_buffer(sizes[b], storage, false);
  up_ = make_buffer(5 * v4 * nn, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);  // x v kin | contacts (2)
  // dv force scalars | contacts
  down_ = make_buffer(3 * v4 * nn + 4 * kScalarCount, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
  if (n > 0) {
    upload_once(buf_[VData], vdata.data(), 16 * n);
    const std::vector<float> zeros(4 * kSlots * n, 0.f);  // the warm start's first dv
    upload_once(buf_[Vecs], zeros.data(), 16 * kSlots * n);
    upload_once(buf_[CsrOff], offset.data(), 4 * (n + 1));
  }
  if (nl > 0) {
    upload_once(buf_[Links], links.data(), 8 * nl);
    upload_once(buf_[LinkP], linkp.data(), 8 * nl);
    upload_once(buf_[Csr], csr.data(), 8 * nl);
  }

  set_layout_ = make_storage_set_layout(dev, kBindings);
  force_stage_ = std::make_unique<GpuForceStage>(*this, model);
  const VkDescriptorSetLayout set_layouts[2] = {set_layout_, force_stage_->set_layout()};
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(Push)};
  VkPipelineLayoutCreateInfo pl{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  pl.setLayoutCount = 2;
  pl.pSetLayouts = set_layouts;
  pl.pushConstantRangeCount = 1;
  pl.pPushConstantRanges = &range;
  WEFT_VK_CHECK(vkCreatePipelineLayout(dev, &pl, nullptr, &layout_));
  VkBuffer buffers[kBindings];
  for (uint32_t b = 0; b < kBindings; ++b) buffers[b] = buf_[b].buffer;
  make_storage_set(dev, set_layout_, buffers, kBindings, descriptor_pool_, set_);
  for (const Code& c : kCode) {
    VkShaderModule m = VK_NULL_HANDLE;
    pipelines_.push_back(make_compute_pipeline(dev, c.words, c.bytes, layout_, m));
    modules_.push_back(m);
  }
  force_stage_->make_pipelines(layout_);
  if (options_.contact_stage) contact_stage_ = std::make_unique<GpuContactStage>(*this, model, options_);
  if (ctx_->timestamp_period_ns() > 0) {
    VkQueryPoolCreateInfo q{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    q.queryType = VK_QUERY_TYPE_TIMESTAMP;
    q.queryCount = kTimestamps;
    WEFT_VK_CHECK(vkCreateQueryPool(dev, &q, nullptr, &queries_));
  }
  VkCommandBufferAllocateInfo a{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  a.commandPool = ctx_->pool();
  a.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  a.commandBufferCount = 1;
  WEFT_VK_CHECK(vkAllocateCommandBuffers(dev, &a, &cmd_));
  VkFenceCreateInfo f{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  WEFT_VK_CHECK(vkCreateFence(dev, &f, nullptr, &fence_));
}

GpuIntegrator::~GpuIntegrator() {
  const VkDevice dev = ctx_->device();
  vkDeviceWaitIdle(dev);
  contact_stage_.reset();  // its buffers came from this integrator's device
  vkDestroyFence(dev, fence_, nullptr);
  vkFreeCommandBuffers(dev, ctx_->pool(), 1, &cmd_);
  if (queries_) vkDestroyQueryPool(dev, queries_, nullptr);
  for (VkPipeline p : pipelines_) vkDestroyPipeline(dev, p, nullptr);
  for (VkShaderModule m : modules_) vkDestroyShaderModule(dev, m, nullptr);
  vkDestroyDescriptorPool(dev, descriptor_pool_, nullptr);
  vkDestroyPipelineLayout(dev, layout_, nullptr);
  vkDestroyDescriptorSetLayout(dev, set_layout_, nullptr);
  for (Buffer& b : buf_) destroy_device_buffer(*ctx_, b);
  destroy_device_buffer(*ctx_, up_);
  destroy_device_buffer(*ctx_, down_);
}

// The whole stage as one command buffer: upload, forces, the PCG's recorded iterations, download.
void GpuIntegrator::record(const ClothModel& model, float h) {
  WEFT_VK_CHECK(vkResetCommandBuffer(cmd_, 0));
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  WEFT_VK_CHECK(vkBeginCommandBuffer(cmd_, &begin));
  const VkCommandBuffer c = cmd_;
  auto barrier = [&](VkPipelineStageFlags from, VkAccessFlags from_access, VkPipelineStageFlags to,
                     VkAccessFlags to_access) {
    VkMemoryBarrier m{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    m.srcAccessMask = from_access;
    m.dstAccessMask = to_access;
    vkCmdPipelineBarrier(c, from, to, 0, 1, &m, 0, nullptr, 0, nullptr);
  };
  auto compute_barrier = [&] {
    barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
            VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  };
  auto stamp = [&](uint32_t k) {
    if (queries_) vkCmdWriteTimestamp(c, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, queries_, k);
  };
  const glm::vec3 g = model.material.gravity;
  Push push{n_, nlink_, h, model.material.damping, {g.x, g.y, g.z, 0.f}, 0, 0, 0, groups_, options_.tolerance};
  auto run = [&](VkPipeline p, uint32_t groups) {
    vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_COMPUTE, p);
    vkCmdPushConstants(c, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(Push), &push);
    vkCmdDispatch(c, groups, 1, 1);
    compute_barrier();
  };
  auto dispatch = [&](Kernel k, uint32_t groups, uint32_t src = 0, uint32_t dst = 0, uint32_t mode = 0) {
    push.src = src;
    push.dst = dst;
    push.mode = mode;
    run(pipelines_[k], groups);
  };
  // Last tick's kernels wrote what this one's transfers overwrite.
  barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
          VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
          VK_ACCESS_TRANSFER_WRITE_BIT);
  if (queries_) vkCmdResetQueryPool(c, queries_, 0, kTimestamps);
  stamp(0);
  vkCmdFillBuffer(c, buf_[Scalars].buffer, 0, VK_WHOLE_SIZE, 0);
  const VkDeviceSize block = 16 * VkDeviceSize(n_);
  if (n_ > 0) {
    const VkBufferCopy x{0, 0, block}, v{block, 0, block}, k{2 * block, 0, block};
    vkCmdCopyBuffer(c, up_.buffer, buf_[X].buffer, 1, &x);
    vkCmdCopyBuffer(c, up_.buffer, buf_[V].buffer, 1, &v);
    vkCmdCopyBuffer(c, up_.buffer, buf_[Kin].buffer, 1, &k);
    const VkBufferCopy contacts{3 * block, kSlotCon0 * block, 2 * block};
    vkCmdCopyBuffer(c, up_.buffer, buf_[Vecs].buffer, 1, &contacts);
  }
  force_stage_->record_upload(c);
  barrier(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
          VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  stamp(1);
  const VkDescriptorSet sets[2] = {set_, force_stage_->set()};
  vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 2, sets, 0, nullptr);
  force_stage_->record_before_links(run);
  if (nlink_ > 0) dispatch(LinkForces, groups_of(nlink_));
  force_stage_->record_after_links(run);
  dispatch(Assemble, groups_, 0, 0, options_.warm_start ? 1 : 0);
  stamp(2);
  dispatch(Spmv, groups_, kSlotDv, kSlotQ);
  dispatch(CgStart, groups_);
  dispatch(CgReduce, 1, 0, 0, 0);
  for (int it = 0; it < options_.max_iterations; ++it) {
    dispatch(Spmv, groups_, kSlotD, kSlotQ);
    dispatch(CgDotDq, groups_);
    dispatch(CgReduce, 1, 0, 0, 1);
    dispatch(CgUpdate, groups_);
    dispatch(CgReduce, 1, 0, 0, 2);
    dispatch(CgDirection, groups_);
  }
  dispatch(ContactImpulse, groups_);
  stamp(3);
  barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
          VK_ACCESS_TRANSFER_READ_BIT);
  if (n_ > 0) {
    const VkBufferCopy dv{16 * VkDeviceSize(kSlotDv) * n_, 0, block}, f{0, block, block};
    vkCmdCopyBuffer(c, buf_[Vecs].buffer, down_.buffer, 1, &dv);
    vkCmdCopyBuffer(c, buf_[Force].buffer, down_.buffer, 1, &f);
  }
  const VkBufferCopy s{0, 2 * block, 4 * kScalarCount};
  vkCmdCopyBuffer(c, buf_[Scalars].buffer, down_.buffer, 1, &s);
  if (n_ > 0) {
    const VkBufferCopy contacts{kSlotConOut * block, 2 * block + 4 * kScalarCount, block};
    vkCmdCopyBuffer(c, buf_[Vecs].buffer, down_.buffer, 1, &contacts);
  }
  force_stage_->record_download(c);
  barrier(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
          VK_ACCESS_HOST_READ_BIT);
  stamp(4);
  WEFT_VK_CHECK(vkEndCommandBuffer(c));
  recorded_h_ = h;
}

uint64_t GpuIntegrator::tick_upload_bytes() const {
  return up_.size + force_stage_->upload_bytes() + (runs(PostSolveStage::ColliderPasses) ? contact_stage_->tick_upload_bytes() : 0);
}

uint64_t GpuIntegrator::tick_download_bytes() const {
  return down_.size + force_stage_->download_bytes() +
         (runs(PostSolveStage::ColliderPasses) ? contact_stage_->tick_download_bytes() : 0);
}

bool GpuIntegrator::runs(PostSolveStage stage) const {
  if (stage == PostSolveStage::Plasticity) return force_stage_->runs_plasticity();
  if (stage == PostSolveStage::SelfContacts)
    return options_.self_response && contact_stage_ && world_model_ && world_model_->config.self_collision.enabled;
  return contact_stage_ && world_model_ &&
         (stage == PostSolveStage::StrainLimit || stage == PostSolveStage::ColliderPasses);
}

void GpuIntegrator::attach_world(const WorldModel& model, WorldState& state, WorldScratch& scratch, StepReport& report) {
  world_model_ = &model;
  world_state_ = &state;
  world_scratch_ = &scratch;
  world_report_ = &report;
}

void GpuIntegrator::step(const ClothModel& model, ClothState& state, float h) {
  if (h != recorded_h_) record(model, h);  // once: h is fixed while a world runs (an edit makes a new integrator)
  float* up = static_cast<float*>(up_.mapped);
  const size_t n = n_;
  for (size_t i = 0; i < n; ++i) {
    const glm::vec3 x = state.position[i], v = state.velocity[i], k = state.kinematic_velocity[i];
    float* px = up + 4 * i;
    float* pv = up + 4 * (n + i);
    float* pk = up + 4 * (2 * n + i);
    px[0] = x.x; px[1] = x.y; px[2] = x.z; px[3] = 0.f;
    pv[0] = v.x; pv[1] = v.y; pv[2] = v.z; pv[3] = 0.f;
    pk[0] = k.x; pk[1] = k.y; pk[2] = k.z; pk[3] = state.kinematic[i] ? 1.f : 0.f;
  }
  // The contacts the solve keeps (found on the CPU by stage 3's find_resting_contacts): zero but theirs.
  const ContactFilter& filter = state.contact_filter;
  float* pc = up + 4 * 3 * n;
  std::memset(pc, 0, 2 * 16 * n);
  for (size_t k = 0; k < filter.size(); ++k) {
    float* e = pc + 4 * size_t(filter.vertex[k]);  // kCon0
    float* f = e + 4 * n;                          // kCon1
    const glm::vec3 nrm = filter.normal[k], slip = filter.slip[k];
    e[0] = nrm.x; e[1] = nrm.y; e[2] = nrm.z; e[3] = filter.dv_normal[k];
    f[0] = slip.x; f[1] = slip.y; f[2] = slip.z; f[3] = filter.friction[k];
  }
  force_stage_->pack(state);
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd_;
  WEFT_VK_CHECK(vkQueueSubmit(ctx_->queue(), 1, &submit, fence_));
  WEFT_VK_CHECK(vkWaitForFences(ctx_->device(), 1, &fence_, VK_TRUE, UINT64_MAX));
  WEFT_VK_CHECK(vkResetFences(ctx_->device(), 1, &fence_));
  const float* down = static_cast<const float*>(down_.mapped);
  for (size_t i = 0; i < n; ++i) {
    dv_[i] = glm::vec3(down[4 * i], down[4 * i + 1], down[4 * i + 2]);
    forces_.force[i] = glm::vec3(down[4 * (n + i)], down[4 * (n + i) + 1], down[4 * (n + i) + 2]);
    forces_.drag_coefficient[i] = down[4 * (n + i) + 3];  // air's (assemble.comp): the translation correction's
  }
  const float* scalars = down + 8 * n;
  force_stage_->read_back(state);
  stats_.solver_iterations = int(scalars[kScalarIter]);
  stats_.residual = scalars[kScalarRes];
  // Each contact's impulse (next tick's N, the lift-off test) and work (the translation correction), as
  // record_contact_impulses makes them on the CPU.
  ContactFilter& contacts = state.contact_filter;
  const float* out = scalars + kScalarCount;
  contacts.work.resize(contacts.size());  // within the capacity reserved for every vertex
  for (size_t k = 0; k < contacts.size(); ++k) {
    const float* e = out + 4 * size_t(contacts.vertex[k]);
    contacts.work[k] = glm::vec3(e[0], e[1], e[2]);
    contacts.impulse[k] = e[3];
  }
  if (queries_) {
    uint64_t t[kTimestamps];
    if (vkGetQueryPoolResults(ctx_->device(), queries_, 0, kTimestamps, sizeof(t), t, sizeof(uint64_t),
                              VK_QUERY_RESULT_64_BIT) == VK_SUCCESS) {
      const double ms = ctx_->timestamp_period_ns() * 1e-6;
      times_ = {double(t[1] - t[0]) * ms, double(t[2] - t[1]) * ms, double(t[3] - t[2]) * ms, double(t[4] - t[3]) * ms};
      sums_.upload += times_.upload, sums_.forces += times_.forces, sums_.solve += times_.solve;
      sums_.download += times_.download;
      ++timed_;
    }
  }
  apply_implicit_step(model, state, forces_, h, dv_.data(), translation_correction_);
}

// Not at the end of step(): World::step measures the fail-safe's post-solve energy between the two (stage 4
// run inside step() pushed cloth out of the table before that measure, and the push-out's potential energy
// read as a passive cloth's gain: an energy clamp a tick and 12 mm from the CPU's stage 4 in 0.25 s).
void GpuIntegrator::run_post_solve(float h) {
  if (runs(PostSolveStage::ColliderPasses))
    contact_stage_->run(*world_model_, *world_state_, *world_scratch_, *world_report_, h);
  if (runs(PostSolveStage::SelfContacts)) run_self_contacts(h);
}

// Stage 5 as resolve_self_contacts orders it: the self-contacts on the positions stage 4 left (the layers on a
// collider held), then, where there were contacts, stage 4 once more (the limiter, alternated with the colliders, the
// limiter last). Its own submits for now, each with the state's round trip.
void GpuIntegrator::run_self_contacts(float h) {
  const WorldModel& world = *world_model_;
  WorldState& state = *world_state_;
  WorldScratch& scratch = *world_scratch_;
  if (!self_response_)  // at the first tick, as the stages' command buffers (h is fixed while a world runs)
    self_response_ = std::make_unique<GpuSelfResponse>(ctx_, world.cloth, world.config.self_collision, h);
  self_response_->resolve(world.cloth, state.cloth, scratch.x_prev.data(), scratch.collider_contact.data());
  if (self_response_->stats().contacts == 0) return;
  const StrainLimitStats first = world_report_->strain;
  contact_stage_->run(world, state, scratch, *world_report_, h);
  world_report_->strain.corrected += first.corrected;
}

}  // namespace weft
