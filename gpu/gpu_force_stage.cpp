#include "gpu/gpu_force_stage.h"

#include <algorithm>
#include <cstring>

#include "gpu/compute_pipeline.h"
#include "gpu/storage_set.h"
#include "gpu/vk_check.h"

namespace weft {
namespace {

// SPIR-V of the stage's kernels (gpu/CMakeLists.txt compiles every gpu/shaders/*.comp).
const uint32_t kVolinoTriangles[] = {
#include "volino_triangles.comp.spv.inc"
};
const uint32_t kWeaveTriangles[] = {
#include "weave_triangles.comp.spv.inc"
};
const uint32_t kIsotropicTriangles[] = {
#include "isotropic_triangles.comp.spv.inc"
};
const uint32_t kWeaveHinges[] = {
#include "weave_hinges.comp.spv.inc"
};
const uint32_t kWeaveLinks[] = {
#include "weave_links.comp.spv.inc"
};
const uint32_t kPlasticity[] = {
#include "plasticity.comp.spv.inc"
};
const uint32_t kAirForces[] = {
#include "air_forces.comp.spv.inc"
};

// force_layout.glsl's ForceParams, std430.
struct Params {
  uint32_t ntri, nhinge, nedge, flags;
  float alpha, min_det, drag, lift;
  float wind[4];
  uint32_t curve_off[4], curve_n[4];
  float viscosity[4];
  float plasticity[4];
};
constexpr uint32_t kVolino = 1, kGeneralMass = 2, kWeftWarp = 4, kAir = 8, kPlasticHinges = 32, kPlasticStrain = 64;
enum Binding { P, Tri, TriCoef, Hinge, HingeK, Plastic, Curves, ElemForce, ElemBlock, VgOff, Vg, LgOff, Lg, Air, VArea };

uint32_t groups_of(uint32_t count) { return (count + 255) / 256; }

// A table of entries per owner (vertex or link) in the order they are added: offsets (owners + 1), entries.
struct Gather {
  std::vector<uint32_t> offset, entry;
  std::vector<std::pair<uint32_t, uint32_t>> added;  // (owner, entry) in element order
  void add(uint32_t owner, uint32_t e) { added.push_back({owner, e}); }
  void build(size_t owners) {
    offset.assign(owners + 1, 0);
    for (const auto& [o, e] : added) ++offset[o + 1];
    for (size_t i = 0; i < owners; ++i) offset[i + 1] += offset[i];
    entry.resize(added.size());
    std::vector<uint32_t> fill(offset.begin(), offset.end() - 1);
    for (const auto& [o, e] : added) entry[fill[o]++] = e;  // stable: element order within each owner
  }
};

}  // namespace

GpuForceStage::GpuForceStage(GpuIntegrator& owner, const ClothModel& model)
    : owner_(owner),
      n_(uint32_t(model.vertex_count())),
      nlink_(uint32_t(model.link_count_total())),
      ntri_(uint32_t(model.triangle_count())) {
  const Material& m = model.material;
  const WeftWarpModel& w = model.weft_warp;
  volino_ = m.stretch_model == StretchModel::Volino;
  weave_ = w.active();
  isotropic_ = weave_ && m.weave.membrane == Membrane::Isotropic;
  air_ = m.drag > 0.f || m.lift > 0.f;
  nhinge_ = weave_ ? uint32_t(w.hinge_count()) : 0;
  // Stage 6 on the GPU (plasticity.comp) where the CPU's would do something (make_rest_state sizes its parts)
  const PlasticityParams& plasticity = m.weave.plasticity;
  const bool plastic_hinges = weave_ && plasticity.enabled && nhinge_ > 0;
  const bool plastic_strain = weave_ && plasticity.in_plane && ntri_ > 0;
  plastic_gpu_ = plastic_hinges || plastic_strain;

  Params p{};
  p.ntri = ntri_;
  p.nhinge = nhinge_;
  p.nedge = uint32_t(model.edge_count);
  p.flags = (volino_ ? kVolino : 0) | (m.volino_general_mass ? kGeneralMass : 0) | (weave_ ? kWeftWarp : 0) |
            (air_ ? kAir : 0) | (plastic_hinges ? kPlasticHinges : 0) | (plastic_strain ? kPlasticStrain : 0);
  p.plasticity[0] = plasticity.relaxation_time, p.plasticity[1] = plasticity.strain_relaxation_time;
  p.plasticity[2] = plasticity.yield_strain, p.plasticity[3] = plasticity.shear_yield_strain;
  p.alpha = m.alpha;
  p.min_det = m.volino_min_determinant;
  p.drag = m.drag;
  p.lift = m.lift;
  p.wind[0] = m.wind.x, p.wind[1] = m.wind.y, p.wind[2] = m.wind.z;
  std::vector<float> curves;
  if (weave_) {
    const StressCurve* c[3] = {&m.weave.weft, &m.weave.warp, &m.weave.shear};
    for (int k = 0; k < 3; ++k) {
      p.curve_off[k] = uint32_t(curves.size());
      p.curve_n[k] = uint32_t(c[k]->strains().size());
      for (const auto* list : {&c[k]->strains(), &c[k]->stresses(), &c[k]->slopes()})
        curves.insert(curves.end(), list->begin(), list->end());
    }
    p.viscosity[0] = m.weave.weft_viscosity, p.viscosity[1] = m.weave.warp_viscosity;
    p.viscosity[2] = m.weave.shear_viscosity;
  }

  // Triangles and their coefficients: Volino's rest edges and strengths, or the weave's R_u, R_v and area.
  std::vector<uint32_t> tri(4 * ntri_);
  std::vector<float> coef(8 * ntri_, 0.f);
  for (uint32_t t = 0; t < ntri_; ++t) {
    for (int k = 0; k < 3; ++k) {
      tri[4 * t + k] = model.triangle[t][k];
      if (weave_) {
        coef[8 * t + k] = w.ru[t][k];
        coef[8 * t + 4 + k] = w.rv[t][k];
      } else {
        coef[8 * t + k] = model.triangle_rest_edge[t][k];
        coef[8 * t + 4 + k] = model.triangle_strength[t][k];
      }
    }
    if (weave_) coef[8 * t + 3] = w.area[t];
  }
  std::vector<uint32_t> hinge(4 * nhinge_);
  std::vector<float> hinge_k(3 * size_t(nhinge_));  // stiffness, original rest angle, yield angle
  for (uint32_t e = 0; e < nhinge_; ++e) {
    for (int q = 0; q < 4; ++q) hinge[4 * e + q] = w.hinge[e][q];
    hinge_k[e] = w.hinge_stiffness[e];
    hinge_k[nhinge_ + e] = w.hinge_rest_angle[e];
    hinge_k[2 * nhinge_ + e] = plastic_hinges ? plasticity.yield_curvature / w.curvature_per_angle[e] : 0.f;
  }
  // The plastic rest state until a state has one: the model's rest angles, no plastic strain.
  nplastic_ = nhinge_ + (weave_ ? 3 * ntri_ : 0);
  std::vector<float> plastic(nplastic_ + 1, 0.f);  // and plasticity.comp's gate: 0, the first tick's
  for (uint32_t e = 0; e < nhinge_; ++e) plastic[e] = w.hinge_rest_angle[e];

  // Gathers: each vertex's triangle corners (air's normals, the weave's forces) then hinge corners; each
  // link's Volino tensions or weave pair blocks, in element order as the CPU adds them.
  Gather vg, lg;
  if (weave_ || air_)
    for (uint32_t t = 0; t < ntri_; ++t)
      for (uint32_t k = 0; k < 3; ++k) vg.add(model.triangle[t][k], 3 * t + k);
  for (uint32_t e = 0; e < nhinge_; ++e)
    for (uint32_t q = 0; q < 4; ++q) vg.add(w.hinge[e][q], 3 * ntri_ + 4 * e + q);
  if (volino_)
    for (uint32_t t = 0; t < ntri_; ++t)
      for (uint32_t k = 0; k < 3; ++k) lg.add(model.triangle_edge[t][k], 3 * t + k);
  if (weave_) {
    for (uint32_t t = 0; t < ntri_; ++t)
      for (uint32_t q = 0; q < 3; ++q) lg.add(w.pair_link[t][q], 3 * t + q);
    for (uint32_t e = 0; e < nhinge_; ++e)
      for (uint32_t q = 0; q < 6; ++q) lg.add(w.hinge_link[e][q], 3 * ntri_ + 6 * e + q);
  }
  vg.build(n_);
  lg.build(nlink_);

  const VkBufferUsageFlags storage =
      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  auto one = [](size_t count) { return VkDeviceSize(std::max<size_t>(count, 1)); };
  const size_t elem_forces = 3 * size_t(ntri_) + 4 * size_t(nhinge_), elem_pairs = 3 * size_t(ntri_) + 6 * size_t(nhinge_);
  const VkDeviceSize sizes[kBindings] = {sizeof(Params),          16 * one(ntri_),          32 * one(ntri_),
                                         16 * one(nhinge_),       12 * one(nhinge_),        4 * (nplastic_ + 1),
                                         4 * one(curves.size()),  16 * one(elem_forces),    32 * one(elem_pairs),
                                         4 * (one(n_) + 1),       4 * one(vg.entry.size()), 4 * (one(nlink_) + 1),
                                         4 * one(lg.entry.size()), 16 * one(n_),            4 * one(n_)};
  for (uint32_t b = 0; b < kBindings; ++b) buf_[b] = owner_.make_buffer(sizes[b], storage, false);
  plastic_up_ = owner_.make_buffer(sizes[Plastic], VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);
  if (plastic_gpu_) plastic_down_ = owner_.make_buffer(4 * one(nplastic_), VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
  auto put = [&](Binding b, const auto& v) {
    if (!v.empty()) owner_.upload_once(buf_[b], v.data(), VkDeviceSize(v.size() * sizeof(v[0])));
  };
  owner_.upload_once(buf_[P], &p, sizeof(p));
  put(Tri, tri);
  put(TriCoef, coef);
  put(Hinge, hinge);
  put(HingeK, hinge_k);
  put(Plastic, plastic);
  put(Curves, curves);
  put(VgOff, vg.offset);
  put(Vg, vg.entry);
  put(LgOff, lg.offset);
  put(Lg, lg.entry);
  put(VArea, model.vertex_area);
  if (!plastic.empty()) std::memcpy(plastic_up_.mapped, plastic.data(), 4 * plastic.size());

  const VkDevice dev = owner_.ctx_->device();
  set_layout_ = make_storage_set_layout(dev, kBindings);
  VkBuffer buffers[kBindings];
  for (uint32_t b = 0; b < kBindings; ++b) buffers[b] = buf_[b].buffer;
  make_storage_set(dev, set_layout_, buffers, kBindings, pool_, set_);
}

void GpuForceStage::make_pipelines(VkPipelineLayout layout) {
  const VkDevice dev = owner_.ctx_->device();
  struct Code {
    const uint32_t* words;
    size_t bytes;
  };
  const Code code[kKernels] = {{kVolinoTriangles, sizeof(kVolinoTriangles)},
                               {kWeaveTriangles, sizeof(kWeaveTriangles)},
                               {kWeaveHinges, sizeof(kWeaveHinges)},
                               {kWeaveLinks, sizeof(kWeaveLinks)},
                               {kAirForces, sizeof(kAirForces)},
                               {kIsotropicTriangles, sizeof(kIsotropicTriangles)},
                               {kPlasticity, sizeof(kPlasticity)}};
  for (int k = 0; k < kKernels; ++k)
    pipelines_[k] = make_compute_pipeline(dev, code[k].words, code[k].bytes, layout, modules_[k]);
}

GpuForceStage::~GpuForceStage() {
  const VkDevice dev = owner_.ctx_->device();
  destroy_compute_pipelines(dev, pipelines_, modules_, kKernels);
  vkDestroyDescriptorPool(dev, pool_, nullptr);
  vkDestroyDescriptorSetLayout(dev, set_layout_, nullptr);
  for (Buf& b : buf_) destroy_device_buffer(*owner_.ctx_, b);
  destroy_device_buffer(*owner_.ctx_, plastic_up_);
  destroy_device_buffer(*owner_.ctx_, plastic_down_);
}

void GpuForceStage::record_upload(VkCommandBuffer c) const {
  if (!weave_) return;
  // The GPU's own plastic state stays; only the gate comes in (pack). Else the whole state, as stage 6 left it.
  const VkDeviceSize gate = 4 * VkDeviceSize(nplastic_);
  const VkBufferCopy copy = plastic_gpu_ ? VkBufferCopy{gate, gate, 4} : VkBufferCopy{0, 0, plastic_up_.size};
  vkCmdCopyBuffer(c, plastic_up_.buffer, buf_[Plastic].buffer, 1, &copy);
}

void GpuForceStage::record_download(VkCommandBuffer c) const {
  if (!plastic_gpu_ || nplastic_ == 0) return;
  const VkBufferCopy all{0, 0, 4 * VkDeviceSize(nplastic_)};
  vkCmdCopyBuffer(c, buf_[Plastic].buffer, plastic_down_.buffer, 1, &all);
}

void GpuForceStage::record_before_links(const Dispatch& dispatch) const {
  if (plastic_gpu_) dispatch(pipelines_[Plasticity], groups_of(std::max(nhinge_, ntri_)));  // first: the forces read it
  if (volino_ && ntri_ > 0) dispatch(pipelines_[VolinoTriangles], groups_of(ntri_));
  if (weave_ && ntri_ > 0) dispatch(pipelines_[isotropic_ ? IsotropicTriangles : WeaveTriangles], groups_of(ntri_));
  if (weave_ && nhinge_ > 0) dispatch(pipelines_[WeaveHinges], groups_of(nhinge_));
  if (air_ && n_ > 0) dispatch(pipelines_[AirForces], groups_of(n_));
}

void GpuForceStage::record_after_links(const Dispatch& dispatch) const {
  if (weave_ && nlink_ > 0) dispatch(pipelines_[WeaveLinks], groups_of(nlink_));
}

void GpuForceStage::pack(const ClothState& state) {
  if (!weave_) return;
  float* p = static_cast<float*>(plastic_up_.mapped);
  if (plastic_gpu_ && seeded_) {
    p[nplastic_] = 1.f;  // plasticity.comp runs: the last tick's update
    return;
  }
  if (state.hinge_rest_angle.size() == nhinge_ && nhinge_ > 0)
    std::memcpy(p, state.hinge_rest_angle.data(), 4 * size_t(nhinge_));
  if (state.plastic_strain.size() == ntri_ && ntri_ > 0)
    std::memcpy(p + nhinge_, state.plastic_strain.data(), 12 * size_t(ntri_));
  if (!plastic_gpu_) return;
  // The first tick (of this integrator: an edit makes a new one): the state's plastic state in, no update
  p[nplastic_] = 0.f;
  owner_.upload_once(buf_[Plastic], p, 4 * (VkDeviceSize(nplastic_) + 1));
  seeded_ = true;
}

void GpuForceStage::read_back(ClothState& state) const {
  if (!plastic_gpu_) return;
  const float* p = static_cast<const float*>(plastic_down_.mapped);
  if (state.hinge_rest_angle.size() == nhinge_ && nhinge_ > 0)
    std::memcpy(state.hinge_rest_angle.data(), p, 4 * size_t(nhinge_));
  if (state.plastic_strain.size() == ntri_ && ntri_ > 0)
    std::memcpy(state.plastic_strain.data(), p + nhinge_, 12 * size_t(ntri_));
}

}  // namespace weft
