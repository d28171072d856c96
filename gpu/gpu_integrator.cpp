#include "gpu/gpu_integrator.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "gpu/compute_pipeline.h"
#include "gpu/gpu_chebyshev.h"
#include "gpu/gpu_contact_stage.h"
#include "gpu/gpu_force_stage.h"
#include "gpu/gpu_multigrid.h"
#include "gpu/gpu_resting_contacts.h"
#include "gpu/gpu_self_response.h"
#include "gpu/storage_set.h"
#include "gpu/vk_check.h"
#include "sim/buckled_links.h"
#include "sim/implicit_step.h"
#include "sim/sewn_filter.h"

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
const uint32_t kSewnProject[] = {
#include "sewn_project.comp.spv.inc"
};
const uint32_t kTranslationSums[] = {
#include "translation_sums.comp.spv.inc"
};
const uint32_t kTranslationReduce[] = {
#include "translation_reduce.comp.spv.inc"
};
const uint32_t kEndStep[] = {
#include "end_step.comp.spv.inc"
};
enum Kernel {
  LinkForces, Assemble, Spmv, CgStart, CgDotDq, CgUpdate, CgDirection, CgReduce, ContactImpulse, SewnProject,
  TranslationSums, TranslationReduce, EndStep, kKernels
};
struct Code {
  const uint32_t* words;
  size_t bytes;
};
const Code kCode[kKernels] = {{kLinkForces, sizeof(kLinkForces)}, {kAssemble, sizeof(kAssemble)},
                              {kSpmv, sizeof(kSpmv)},             {kCgStart, sizeof(kCgStart)},
                              {kCgDotDq, sizeof(kCgDotDq)},       {kCgUpdate, sizeof(kCgUpdate)},
                              {kCgDirection, sizeof(kCgDirection)}, {kCgReduce, sizeof(kCgReduce)},
                              {kContactImpulse, sizeof(kContactImpulse)}, {kSewnProject, sizeof(kSewnProject)},
                              {kTranslationSums, sizeof(kTranslationSums)},
                              {kTranslationReduce, sizeof(kTranslationReduce)}, {kEndStep, sizeof(kEndStep)}};

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
  X, V, Kin, VData, Links, LinkP, LinkF, LinkJ, CsrOff, Csr, Pre, Diag, Vecs, Force, Partial, Scalars, Buckled,
  kBindings
};
// Slots 6-8: the contacts in and their impulses out (step_layout.glsl's kCon0, kCon1, kConOut); 9-10 the sewn
// pairs (kSew0, kSew1); 3-4 the end of the step's x and v (end_step.comp's kXEnd, kVEnd: the solve's q and s,
// dead by then).
constexpr uint32_t kSlots = 11, kSlotDv = 0, kSlotD = 2, kSlotQ = 3, kSlotS = 4, kSlotB = 5, kSlotCon0 = 6,
                   kSlotConOut = 8, kSlotSew0 = 9, kSlotXEnd = 3;
// Scalars: the first 16 made on the device and read back, then the contact axes uploaded (step_layout.glsl).
constexpr uint32_t kScalarCount = 16, kScalarRes = 4, kScalarIter = 5, kAxesFloats = 16;
constexpr uint32_t kScalarChebyS = 12, kScalarChebyA = 13, kScalarChebyE = 14;  // cheby_layout.glsl's
constexpr uint32_t kTimestamps = 5;

uint32_t groups_of(uint32_t count) { return (count + 255) / 256; }
static_assert(kBuckleStrain == 0.02f, "link_forces.comp's kBuckleStrain");
// The buckled marks' bytes, four to a word (step_layout.glsl's Buckled): at least one word.
VkDeviceSize buckled_bytes(size_t nedge) { return 4 * std::max<VkDeviceSize>((nedge + 3) / 4, 1); }

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
                                         kSlots * v4 * nn, v4 * nn,       16 * groups_of(uint32_t(nn)),
                                         4 * (kScalarCount + kAxesFloats), buckled_bytes(model.edge_count)};
  static_assert(std::tuple_size_v<decltype(buf_)> == kBindings);
  for (size_t b = 0; b < buf_.size(); ++b) buf_[b] = make_buffer(sizes[b], storage, false);
  // x v kin | contacts (2) | axes | buckled marks
  up_ = make_buffer(5 * v4 * nn + 4 * kAxesFloats + buckled_bytes(model.edge_count), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
  // x v (the end of the step's) scalars | the tests' dv force contacts' impulses, contacts (2)
  down_ = make_buffer(2 * v4 * nn + 4 * kScalarCount + (options_.read_back_solve ? 5 * v4 * nn : 0),
                      VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
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
  layout_ = make_compute_layout(dev, set_layouts, 2, sizeof(Push));
  VkBuffer buffers[kBindings];
  for (uint32_t b = 0; b < kBindings; ++b) buffers[b] = buf_[b].buffer;
  make_storage_set(dev, set_layout_, buffers, kBindings, descriptor_pool_, set_);
  for (const Code& c : kCode) {
    VkShaderModule m = VK_NULL_HANDLE;
    pipelines_.push_back(make_compute_pipeline(dev, c.words, c.bytes, layout_, m));
    modules_.push_back(m);
  }
  force_stage_->make_pipelines(layout_);
  if (options_.chebyshev) chebyshev_ = std::make_unique<GpuChebyshev>(dev, layout_, options_.chebyshev_iterations,
                                                                         options_.chebyshev_lo_scale);
  if (options_.multigrid && !options_.chebyshev)
    multigrid_ = std::make_unique<GpuMultigrid>(*this, model, set_layout_, uint32_t(sizeof(Push)), options_);
  if (options_.contact_stage) contact_stage_ = std::make_unique<GpuContactStage>(*this, model, options_);
  if (contact_stage_ && options_.resting_search)
    resting_ = std::make_unique<GpuRestingContacts>(
        *this, model, *contact_stage_,
        GpuRestingContacts::StepBuffers{buf_[X].buffer, buf_[V].buffer, buf_[Kin].buffer, buf_[VData].buffer,
                                        buf_[Vecs].buffer, buf_[CsrOff].buffer, buf_[Csr].buffer, buf_[Links].buffer});
  if (ctx_->timestamp_period_ns() > 0) {
    VkQueryPoolCreateInfo q{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    q.queryType = VK_QUERY_TYPE_TIMESTAMP;
    q.queryCount = kTimestamps;
    WEFT_VK_CHECK(vkCreateQueryPool(dev, &q, nullptr, &queries_));
  }
  make_command_buffer_and_fence(dev, ctx_->pool(), cmd_, fence_);
  if (contact_stage_ && options_.one_submit) {
    make_command_buffer_and_fence(dev, ctx_->pool(), cmd_fused_[0], fence_fused_);
    for (VkCommandBuffer* b : {&cmd_fused_[1], &cmd_stage4_whole_[0], &cmd_stage4_whole_[1]}) {
      VkFence unused = VK_NULL_HANDLE;
      make_command_buffer_and_fence(dev, ctx_->pool(), *b, unused);
      vkDestroyFence(dev, unused, nullptr);
    }
  }
}

GpuIntegrator::~GpuIntegrator() {
  const VkDevice dev = ctx_->device();
  vkDeviceWaitIdle(dev);
  resting_.reset();
  chebyshev_.reset();
  contact_stage_.reset();  // its buffers came from this integrator's device
  vkDestroyFence(dev, fence_, nullptr);
  vkFreeCommandBuffers(dev, ctx_->pool(), 1, &cmd_);
  if (cmd_fused_[0]) {
    vkDestroyFence(dev, fence_fused_, nullptr);
    vkFreeCommandBuffers(dev, ctx_->pool(), 2, cmd_fused_.data());
    vkFreeCommandBuffers(dev, ctx_->pool(), 2, cmd_stage4_whole_.data());
  }
  if (queries_) vkDestroyQueryPool(dev, queries_, nullptr);
  for (VkPipeline p : pipelines_) vkDestroyPipeline(dev, p, nullptr);
  for (VkShaderModule m : modules_) vkDestroyShaderModule(dev, m, nullptr);
  vkDestroyDescriptorPool(dev, descriptor_pool_, nullptr);
  vkDestroyPipelineLayout(dev, layout_, nullptr);
  vkDestroyDescriptorSetLayout(dev, set_layout_, nullptr);
  for (Buffer& b : buf_) destroy_device_buffer(*ctx_, b);
  destroy_device_buffer(*ctx_, up_);
  destroy_device_buffer(*ctx_, down_);
  destroy_device_buffer(*ctx_, sew_up_);
}

// The whole stage as one command buffer: upload, forces, the PCG's recorded iterations, download.
// The end of the step (apply_implicit_step) after the contacts' impulses: the free-flight translation
// correction's sums and c (a fixed-order reduction), then per vertex v += dv, x += h v into the slots
// end_step.comp names.
template <class Dispatch>
void GpuIntegrator::record_end_of_step(Dispatch& dispatch) {
  if (translation_correction_) {
    dispatch(TranslationSums, groups_, 0, 0, 0);
    dispatch(TranslationReduce, 1, 0, 0, 0);
  }
  dispatch(EndStep, groups_, 0, 0, 0);
}

// x and v at the step's end (x's w: the contacts' normal impulses) and the scalars; the tests' dv, forces and
// contacts' impulses after them.
void GpuIntegrator::record_end_of_step_download(VkCommandBuffer c, bool xv) {
  const VkDeviceSize block = 16 * VkDeviceSize(n_);
  if (n_ > 0 && xv) {  // (fused: stage 4 copied them after the release grip's throw)
    const VkBufferCopy xv{kSlotXEnd * block, 0, 2 * block};
    vkCmdCopyBuffer(c, buf_[Vecs].buffer, down_.buffer, 1, &xv);
  }
  const VkBufferCopy s{0, 2 * block, 4 * kScalarCount};
  vkCmdCopyBuffer(c, buf_[Scalars].buffer, down_.buffer, 1, &s);
  if (options_.read_back_solve && n_ > 0) {
    const VkDeviceSize at = 2 * block + 4 * kScalarCount;
    const VkBufferCopy dv{kSlotDv * block, at, block}, f{0, at + block, block}, con{kSlotConOut * block, at + 2 * block, block};
    const VkBufferCopy found{kSlotCon0 * block, at + 3 * block, 2 * block};
    vkCmdCopyBuffer(c, buf_[Vecs].buffer, down_.buffer, 1, &dv);
    vkCmdCopyBuffer(c, buf_[Force].buffer, down_.buffer, 1, &f);
    vkCmdCopyBuffer(c, buf_[Vecs].buffer, down_.buffer, 1, &con);
    vkCmdCopyBuffer(c, buf_[Vecs].buffer, down_.buffer, 1, &found);
  }
}

void GpuIntegrator::record(const ClothModel& model, float h, bool sewn, bool searching) {
  record_into(cmd_, model, h, sewn, searching, false, true);
  recorded_h_ = h;
  sewn_recorded_ = sewn;
  search_recorded_ = searching;
}

// The step's command buffer c; fused: stage 4 recorded after the end of the step (GpuContactStage::record_fused).
void GpuIntegrator::record_into(VkCommandBuffer c, const ClothModel& model, float h, bool sewn, bool searching,
                                bool fused, bool solved) {
  // The multigrid's sums (mg_dots.comp) come before the pairs' projection of z would: not combined yet.
  if (sewn && multigrid_)
    throw std::runtime_error("GPU step: the multigrid preconditioner does not take sewn seams yet (use block Jacobi)");
  if (sewn && chebyshev_)  // each iterate would need the pairs' projection: a second dispatch an iteration
    throw std::runtime_error("GPU step: the Chebyshev solve does not take sewn seams yet (use block Jacobi)");
  if (sewn) make_sewn_upload();
  WEFT_VK_CHECK(vkResetCommandBuffer(c, 0));
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  WEFT_VK_CHECK(vkBeginCommandBuffer(c, &begin));
  auto barrier = [&](VkPipelineStageFlags from, VkAccessFlags from_access, VkPipelineStageFlags to,
                     VkAccessFlags to_access) { memory_barrier(c, from, from_access, to, to_access); };
  auto compute_barrier = [&] {
    barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
            VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  };
  auto stamp = [&](uint32_t k) {
    if (queries_) vkCmdWriteTimestamp(c, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, queries_, k);
  };
  const glm::vec3 g = model.material.gravity;
  Push push{n_, nlink_, h, model.material.damping, {g.x, g.y, g.z, 0.f}, 0, 0, 0, groups_, options_.tolerance};
  dispatches_ = 0;
  auto run = [&](VkPipeline p, uint32_t groups) {
    ++dispatches_;
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
  vkCmdFillBuffer(c, buf_[Scalars].buffer, 0, 4 * kScalarCount, 0);
  const VkDeviceSize block = 16 * VkDeviceSize(n_);
  if (n_ > 0) {
    const VkBufferCopy x{0, 0, block}, v{block, 0, block}, k{2 * block, 0, block};
    vkCmdCopyBuffer(c, up_.buffer, buf_[X].buffer, 1, &x);
    vkCmdCopyBuffer(c, up_.buffer, buf_[V].buffer, 1, &v);
    vkCmdCopyBuffer(c, up_.buffer, buf_[Kin].buffer, 1, &k);
    const VkBufferCopy contacts{3 * block, kSlotCon0 * block, 2 * block};
    if (!searching) vkCmdCopyBuffer(c, up_.buffer, buf_[Vecs].buffer, 1, &contacts);
    if (sewn) {
      const VkBufferCopy pairs{0, kSlotSew0 * block, 2 * block};
      vkCmdCopyBuffer(c, sew_up_.buffer, buf_[Vecs].buffer, 1, &pairs);
    }
  }
  const VkBufferCopy axes{5 * block, 4 * kScalarCount, 4 * kAxesFloats};
  vkCmdCopyBuffer(c, up_.buffer, buf_[Scalars].buffer, 1, &axes);
  const VkBufferCopy marks{5 * block + 4 * kAxesFloats, 0, buf_[Buckled].size};
  vkCmdCopyBuffer(c, up_.buffer, buf_[Buckled].buffer, 1, &marks);
  force_stage_->record_upload(c);
  if (searching) resting_->record_upload(c);
  barrier(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
          VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  stamp(1);
  if (searching) {
    const InteractionConfig& in = world_model_->config.interaction;
    resting_->record(c, h, in.thickness, model.material.gravity, in.contacts_in_solve);
  }
  bind_sets(c);
  force_stage_->record_before_links(run);
  if (nlink_ > 0) dispatch(LinkForces, groups_of(nlink_));
  force_stage_->record_after_links(run);
  dispatch(Assemble, groups_, 0, 0, options_.warm_start ? 1 : 0);
  // The sewn pairs (sewn_project.comp) where the world has any: dv imposed, b, each W d and each
  // preconditioned residual projected, so r and d stay on the pairs' constraints (r.z and d.q are then the
  // projected ones: S is a symmetric projection and r = S r).
  auto project_pairs = [&](uint32_t slot, uint32_t mode) {
    if (sewn) dispatch(SewnProject, groups_of((n_ + 1) / 2), slot, 0, mode);
  };
  project_pairs(kSlotDv, 1);
  project_pairs(kSlotB, 0);
  stamp(2);
  // The multigrid (when it preconditions): its levels' matrices, then a V-cycle wherever block Jacobi's
  // z = P r was (cg_start and cg_update in mode 1 leave z and the sums to it).
  const GpuMultigrid::Dispatch mg = [&](VkPipeline p, VkPipelineLayout layout, uint32_t groups, uint32_t src,
                                        uint32_t dst, uint32_t mode) {
    push.src = src, push.dst = dst, push.mode = mode;
    ++dispatches_;
    vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_COMPUTE, p);
    vkCmdPushConstants(c, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(Push), &push);
    vkCmdDispatch(c, groups, 1, 1);
    compute_barrier();
  };
  auto precondition = [&](uint32_t z_slot) {
    if (!multigrid_) return;
    multigrid_->record_apply(c, mg, z_slot);
    bind_sets(c);
  };
  const uint32_t cg_mode = multigrid_ ? 1 : 0;
  if (multigrid_) {
    multigrid_->record_setup(c, mg);
    bind_sets(c);
  }
  // The Chebyshev solve in place of PCG's iterations (gpu/gpu_chebyshev.h): its own loop, then PCG's start
  // below only for the residual reached (kRes; 3 dispatches a tick), and no PCG iteration.
  if (chebyshev_) {
    const GpuChebyshev::Dispatch cheby = [&](VkPipeline p, uint32_t groups, uint32_t src, uint32_t dst, uint32_t mode) {
      push.src = src, push.dst = dst, push.mode = mode;
      run(p, groups);
    };
    chebyshev_->record(cheby, groups_, kSlotDv, kSlotD, [&] { record_chebyshev_ends(c); });
    dispatches_per_iteration_ = 1;
  }
  const int pcg_iterations = chebyshev_ ? 0 : options_.max_iterations;
  dispatch(Spmv, groups_, kSlotDv, kSlotQ);
  project_pairs(kSlotQ, 0);
  dispatch(CgStart, groups_, 0, 0, cg_mode);
  precondition(kSlotD);
  project_pairs(kSlotD, 0);
  dispatch(CgReduce, 1, 0, 0, 0);
  for (int it = 0; it < pcg_iterations; ++it) {
    const uint32_t before = dispatches_;
    // W d and d.q in one kernel, unless q must be projected onto the sewn pairs between them.
    dispatch(Spmv, groups_, kSlotD, kSlotQ, sewn ? 0 : 1);
    project_pairs(kSlotQ, 0);
    if (sewn) dispatch(CgDotDq, groups_);
    dispatch(CgReduce, 1, 0, 0, 1);
    dispatch(CgUpdate, groups_, 0, 0, cg_mode);
    precondition(kSlotS);
    project_pairs(kSlotS, 0);
    dispatch(CgReduce, 1, 0, 0, 2);
    dispatch(CgDirection, groups_);
    dispatches_per_iteration_ = dispatches_ - before;
  }
  dispatch(ContactImpulse, groups_);
  record_end_of_step(dispatch);
  if (fused) contact_stage_->record_fused(c, *world_model_, h, kSlotXEnd, solved, true);
  stamp(3);
  barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
          VK_ACCESS_TRANSFER_READ_BIT);
  record_end_of_step_download(c, !fused);
  if (searching) resting_->record_keep_start(c);
  force_stage_->record_download(c);
  barrier(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
          VK_ACCESS_HOST_READ_BIT);
  stamp(4);
  WEFT_VK_CHECK(vkEndCommandBuffer(c));
}

// GpuStepOptions::chebyshev_lo and _hi (measurements): the ends the bound kernels made overwritten by constants.
void GpuIntegrator::record_chebyshev_ends(VkCommandBuffer c) {
  if (!(options_.chebyshev_lo > 0.f) && !(options_.chebyshev_hi > 0.f)) return;
  memory_barrier(c, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_ACCESS_TRANSFER_WRITE_BIT);
  auto fill = [&](uint32_t scalar, float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    vkCmdFillBuffer(c, buf_[Scalars].buffer, 4 * scalar, 4, bits);
  };
  if (options_.chebyshev_lo > 0.f) fill(kScalarChebyA, options_.chebyshev_lo);
  if (options_.chebyshev_hi > 0.f) {
    fill(kScalarChebyS, options_.chebyshev_hi - 1.f);
    fill(kScalarChebyE, options_.chebyshev_hi - 1.f);
  }
  memory_barrier(c, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                 VK_ACCESS_SHADER_READ_BIT);
}

// The sewn pairs' upload (kSew0, kSew1: 32 bytes a vertex), made once, at the first record with pairs; every
// entry starts past the last (a = -1).
void GpuIntegrator::make_sewn_upload() {
  if (sew_up_.buffer || n_ == 0) return;
  sew_up_ = make_buffer(2 * 16 * VkDeviceSize(n_), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
  float* p = static_cast<float*>(sew_up_.mapped);
  for (size_t k = 0; k < 8 * size_t(n_); ++k) p[k] = 0.f;
  for (size_t k = 0; k < n_; ++k) p[4 * k] = -1.f;
  sew_packed_ = 0;
}

// This tick's sewn pairs (stage 3's find_sewn_pairs) into kSew0 and kSew1; the entries the last tick had
// beyond them marked past the last.
void GpuIntegrator::pack_sewn(const SewnFilter& f) {
  float* p = static_cast<float*>(sew_up_.mapped);
  const size_t n = n_, count = std::min(f.size(), n);
  for (size_t k = 0; k < count; ++k) {
    float* e = p + 4 * k;
    float* d = p + 4 * (n + k);
    e[0] = float(f.a[k]); e[1] = float(f.b[k]); e[2] = float(f.c[k]); e[3] = f.w[k];
    d[0] = f.normal[k].x; d[1] = f.normal[k].y; d[2] = f.normal[k].z; d[3] = f.dv_normal[k];
  }
  for (size_t k = count; k < sew_packed_; ++k) p[4 * k] = -1.f;
  sew_packed_ = count;
}

void GpuIntegrator::bind_sets(VkCommandBuffer c) const {
  const VkDescriptorSet sets[2] = {set_, force_stage_->set()};
  vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 2, sets, 0, nullptr);
}

uint64_t GpuIntegrator::tick_upload_bytes() const {
  const uint64_t contacts = search_recorded_ ? 2 * 16 * uint64_t(n_) : 0;  // found on the device instead
  const uint64_t stage4 = !runs(PostSolveStage::ColliderPasses) ? 0
                          : fused_                              ? contact_stage_->fused_upload_bytes()
                                                                : contact_stage_->tick_upload_bytes();
  return up_.size - contacts + (search_recorded_ ? resting_->upload_bytes() : 0) +
         (sewn_recorded_ ? sew_up_.size : 0) + force_stage_->upload_bytes() + stage4;
}

uint64_t GpuIntegrator::tick_download_bytes() const {
  return down_.size - (lean_ ? 2 * 16 * VkDeviceSize(n_) : 0) + force_stage_->download_bytes() +
         (runs(PostSolveStage::ColliderPasses) ? contact_stage_->tick_download_bytes() : 0);
}

bool GpuIntegrator::runs(PostSolveStage stage) const {
  if (stage == PostSolveStage::RestingContacts) return searches();
  if (stage == PostSolveStage::ReleaseThrow) return fused_;
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

// One submit for stages 3 and 4 where stage 4 runs here and nothing the CPU runs between them (World::step)
// writes the state: not on a tick with the freed relaxation (the spring models), the release recoil's end,
// seams (their closing, welds and driven vertices) or a held patch's shift taken back (sim/held_clearance.h:
// stage 3's forget_held_shift, after step()); the release grip's throw runs on the device.
bool GpuIntegrator::one_submit_tick(bool sewn) const {
  if (!cmd_fused_[0] || !runs(PostSolveStage::ColliderPasses) || sewn) return false;
  const WorldScratch& scratch = *world_scratch_;
  const WorldState& state = *world_state_;
  if (scratch.release_recoil_due) return false;
  for (const glm::vec3& shift : state.held_shift)
    if (shift != glm::vec3(0.f)) return false;
  if (!scratch.freed.freed.empty() && !world_model_->cloth.weft_warp.active()) return false;
  return state.seams.size() == 0 && state.seam_driven.empty() && scratch.strain.weld_members.empty();
}

void GpuIntegrator::step(const ClothModel& model, ClothState& state, float h) {
  // Once: h is fixed while a world runs (an edit makes a new integrator); again, once, when the seams are all
  // sewn and the solve starts keeping the pairs (sim/sewn_filter.h).
  const bool sewn = sewn_recorded_ || !state.sewn_filter.empty();
  const bool searching = searches();
  if (h != recorded_h_ || sewn != sewn_recorded_ || searching != search_recorded_) record(model, h, sewn, searching);
  fused_ = one_submit_tick(sewn) && contact_stage_->pack_fused(*world_model_, *world_state_, *world_scratch_, h);
  lean_ = fused_ && !world_scratch_->solved_state_read;
  const int variant = lean_ ? 0 : 1;
  // Once each, at its first tick (a world is attached: stage 4 reads it); again if the search starts or stops.
  if (fused_ && (h != fused_h_[variant] || searching != fused_searching_[variant])) {
    record_into(cmd_fused_[variant], model, h, false, searching, true, !lean_);
    fused_h_[variant] = h;
    fused_searching_[variant] = searching;
  }
  if (sewn) pack_sewn(state.sewn_filter);
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
  // The contacts the solve keeps: found on the device (resting_contacts.comp), or on the CPU by stage 3's
  // find_resting_contacts and packed here, zero but theirs.
  if (searching) pack_resting(up + 4 * n);
  const ContactFilter& filter = state.contact_filter;
  float* pc = up + 4 * 3 * n;
  if (!searching) std::memset(pc, 0, 2 * 16 * n);
  for (size_t k = 0; k < filter.size() && !searching; ++k) {
    float* e = pc + 4 * size_t(filter.vertex[k]);  // kCon0
    float* f = e + 4 * n;                          // kCon1
    const glm::vec3 nrm = filter.normal[k], slip = filter.slip[k];
    e[0] = nrm.x; e[1] = nrm.y; e[2] = nrm.z; e[3] = filter.dv_normal[k];
    f[0] = slip.x; f[1] = slip.y; f[2] = slip.z; f[3] = filter.friction[k];
  }
  pack_contact_axes(state.contact_axes, up + 4 * 5 * n);
  pack_buckled_links(state, up + 4 * 5 * n + kAxesFloats);
  force_stage_->pack(state);
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = fused_ ? &cmd_fused_[variant] : &cmd_;
  const VkFence fence = fused_ ? fence_fused_ : fence_;
  WEFT_VK_CHECK(vkQueueSubmit(ctx_->queue(), 1, &submit, fence));
  WEFT_VK_CHECK(vkWaitForFences(ctx_->device(), 1, &fence, VK_TRUE, UINT64_MAX));
  WEFT_VK_CHECK(vkResetFences(ctx_->device(), 1, &fence));
  ++submits_;
  if (fused_ && contact_stage_->truncated()) rerun_stage4_whole(variant, h);
  const float* down = static_cast<const float*>(down_.mapped);
  const float* scalars = down + 8 * n;
  force_stage_->read_back(state);
  stats_.solver_iterations = chebyshev_ ? chebyshev_->iterations() : int(scalars[kScalarIter]);
  if (chebyshev_) chebyshev_interval(std::min(scalars[kScalarChebyS], scalars[kScalarChebyE]), scalars[kScalarChebyA], cheby_gamma_, cheby_rho_);
  stats_.residual = scalars[kScalarRes];
  read_back_end_of_step(state, down, h, !lean_);
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
}

// The links the corrections crushed (ClothState::buckled, marked by World::step after stage 4), or none.
void GpuIntegrator::pack_buckled_links(const ClothState& state, float* out) const {
  const size_t bytes = buf_[Buckled].size;
  const uint8_t* marks = buckled_links(state);
  if (marks) {
    std::memcpy(out, marks, state.buckled.size());
    std::memset(reinterpret_cast<uint8_t*>(out) + state.buckled.size(), 0, bytes - state.buckled.size());
  } else {
    std::memset(out, 0, bytes);
  }
}

void GpuIntegrator::pack_contact_axes(const ContactAxes& axes, float* out) {
  std::memset(out, 0, 4 * kAxesFloats);
  for (int k = 0; k < axes.count && k < 3; ++k) {
    out[4 * k] = axes.axis[k].x;
    out[4 * k + 1] = axes.axis[k].y;
    out[4 * k + 2] = axes.axis[k].z;
  }
  out[12] = float(axes.count);
  out[13] = axes.stuck ? 1.f : 0.f;
}

// The state at the step's end as end_step.comp left it, the contacts the solve kept (read_back_contacts) and
// the clock (apply_implicit_step's); with read_back_solve, the solve's dv and the forces too. Not xv (a lean
// one-submit tick): x, v and the contacts come with stage 4's download, in run_post_solve.
void GpuIntegrator::read_back_end_of_step(ClothState& state, const float* down, float h, bool xv) {
  const size_t n = n_;
  for (size_t i = 0; i < n && xv; ++i) {
    const float* px = down + 4 * i;
    const float* pv = down + 4 * (n + i);
    state.position[i] = glm::vec3(px[0], px[1], px[2]);
    state.velocity[i] = glm::vec3(pv[0], pv[1], pv[2]);
  }
  if (xv) read_back_contacts(state, down);
  if (options_.read_back_solve) {
    const float* extra = down + 8 * n + kScalarCount;
    for (size_t i = 0; i < n; ++i) {
      dv_[i] = glm::vec3(extra[4 * i], extra[4 * i + 1], extra[4 * i + 2]);
      const float* f = extra + 4 * (n + i);
      forces_.force[i] = glm::vec3(f[0], f[1], f[2]);
      forces_.drag_coefficient[i] = f[3];  // air's (assemble.comp)
    }
  }
  state.time += h;
  ++state.step_count;
}

// The contacts the solve kept, from xv (x then v, n each, as end_step.comp left their w: stage 4 and the
// release grip's throw write only xyz, so its download carries them too): with the device's search, which
// vertices (v's w); each one's normal impulse (x's w: next tick's N and lift-off test, on the device already);
// with read_back_solve their whole impulses (ContactFilter::work, record_contact_impulses' on the CPU).
void GpuIntegrator::read_back_contacts(ClothState& state, const float* xv) const {
  const size_t n = n_;
  if (search_recorded_) read_back_resting_contacts(state, xv);
  ContactFilter& contacts = state.contact_filter;
  contacts.work.resize(contacts.size());  // within the capacity reserved for every vertex
  const float* extra = options_.read_back_solve ? static_cast<const float*>(down_.mapped) + 8 * n + kScalarCount : nullptr;
  for (size_t k = 0; k < contacts.size(); ++k) {
    const size_t i = contacts.vertex[k];
    contacts.impulse[k] = xv[4 * i + 3];
    const float* e = extra ? extra + 4 * (2 * n + i) : nullptr;
    contacts.work[k] = e ? glm::vec3(e[0], e[1], e[2]) : glm::vec3(0.f);
  }
}

bool GpuIntegrator::searches() const { return resting_ && world_model_ && world_state_; }

// Stage 3's search on the device: the colliders where stage 1 left them, and each vertex's held flag in v's w
// (stage 2's WorldScratch::held_by: the search leaves what a device holds).
void GpuIntegrator::pack_resting(float* v_up) {
  resting_->pack(world_state_->colliders);
  const WorldScratch& scratch = *world_scratch_;
  const uint8_t* held = scratch.held_by_live ? scratch.held_by.data() : nullptr;
  for (size_t i = 0; i < n_; ++i) v_up[4 * i + 3] = held && held[i] ? 1.f : 0.f;
}

// The contacts the device kept (end_step.comp's v w, in xv's second block), in vertex order, into the filter the
// CPU stages after the step read (which vertices rest, and through read_back_contacts their impulses); with
// read_back_solve their normals, dv along them, slips and friction weights as the search found them (the
// tests' parity with find_resting_contacts), from the step's download.
void GpuIntegrator::read_back_resting_contacts(ClothState& state, const float* xv) const {
  const size_t n = n_;
  ContactFilter& f = state.contact_filter;
  f.clear();
  const float* down = static_cast<const float*>(down_.mapped);
  const float* found = options_.read_back_solve ? down + 8 * n + kScalarCount + 12 * n : nullptr;
  for (size_t i = 0; i < n; ++i) {
    if (xv[4 * (n + i) + 3] == 0.f) continue;
    f.entry_of_vertex[i] = uint32_t(f.vertex.size());
    f.vertex.push_back(uint32_t(i));
    const float* c0 = found ? found + 4 * i : nullptr;
    const float* c1 = found ? found + 4 * (n + i) : nullptr;
    f.normal.push_back(c0 ? glm::vec3(c0[0], c0[1], c0[2]) : glm::vec3(0.f));
    f.dv_normal.push_back(c0 ? c0[3] : 0.f);
    f.slip.push_back(c1 ? glm::vec3(c1[0], c1[1], c1[2]) : glm::vec3(0.f));
    f.friction.push_back(c1 ? c1[3] : 0.f);
    f.impulse.push_back(0.f);
    f.distance.push_back(0.f);
    f.body.push_back(ContactFilter::kNone);
  }
}

// The brief stage 4 of a one-submit tick ran out before a pass or the alternation converged: stage 4 whole
// again from the end of the step's slots (untouched since: the next tick's upload overwrites them), with the
// throw, as the full recording would have run it; its own command buffer, recorded at its first use.
void GpuIntegrator::rerun_stage4_whole(int variant, float h) {
  const VkCommandBuffer c = cmd_stage4_whole_[variant];
  if (h != stage4_whole_h_[variant]) {
    WEFT_VK_CHECK(vkResetCommandBuffer(c, 0));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    WEFT_VK_CHECK(vkBeginCommandBuffer(c, &begin));
    contact_stage_->record_fused(c, *world_model_, h, kSlotXEnd, variant == 1, false);
    memory_barrier(c, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                   VK_ACCESS_HOST_READ_BIT);
    WEFT_VK_CHECK(vkEndCommandBuffer(c));
    stage4_whole_h_[variant] = h;
  }
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &c;
  WEFT_VK_CHECK(vkQueueSubmit(ctx_->queue(), 1, &submit, fence_fused_));
  WEFT_VK_CHECK(vkWaitForFences(ctx_->device(), 1, &fence_fused_, VK_TRUE, UINT64_MAX));
  WEFT_VK_CHECK(vkResetFences(ctx_->device(), 1, &fence_fused_));
  ++submits_;
  ++stage4_reruns_;
}

// Not at the end of step(): World::step measures the fail-safe's post-solve energy between the two (stage 4
// run inside step() pushed cloth out of the table before that measure, and the push-out's potential energy
// read as a passive cloth's gain: an energy clamp a tick and 12 mm from the CPU's stage 4 in 0.25 s). On a
// one-submit tick step() leaves the state as it was before stage 4 (the CPU's measures read it) and this puts
// stage 4's result, read back in the same submit, in its place.
void GpuIntegrator::run_post_solve(float h) {
  if (fused_) {  // stage 4 ran in the step's submit: its result, read back with the step's
    // A lean tick brought no end-of-step state back: the kept contacts come with stage 4's (its w untouched).
    if (lean_) read_back_contacts(world_state_->cloth, contact_stage_->state_download());
    contact_stage_->read_back(*world_state_, *world_scratch_, *world_report_);
  } else if (runs(PostSolveStage::ColliderPasses)) {
    contact_stage_->run(*world_model_, *world_state_, *world_scratch_, *world_report_, h);
    ++submits_;
  }
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
  ++submits_;
  world_report_->strain.corrected += first.corrected;
}

}  // namespace weft
