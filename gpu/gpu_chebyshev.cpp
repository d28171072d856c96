#include "gpu/gpu_chebyshev.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "gpu/compute_pipeline.h"

namespace weft {
namespace {

// SPIR-V of the solve's kernels (gpu/CMakeLists.txt compiles every gpu/shaders/*.comp).
const uint32_t kBound[] = {
#include "chebyshev_bound.comp.spv.inc"
};
const uint32_t kReduce[] = {
#include "chebyshev_reduce.comp.spv.inc"
};
const uint32_t kIterate[] = {
#include "chebyshev.comp.spv.inc"
};

}  // namespace

float chebyshev_omega(uint32_t k, float rho) {
  if (k <= 1) return 1.f;
  const float sigma = std::sqrt(std::max((1.f - rho) * (1.f + rho), 0.f));
  const float e = rho / (1.f + sigma), q = e * e;
  const float qk1 = std::pow(q, float(k - 1)), qk = qk1 * q;
  return 2.f / (1.f + sigma) * (1.f + qk1) / (1.f + qk);
}

void chebyshev_interval(float s, float lo, float& gamma, float& rho) {
  const float hi = 1.f + s;
  lo = std::clamp(lo, 0.f, 1.f);
  gamma = 2.f / (lo + hi);
  rho = (hi - lo) / (hi + lo);
}

GpuChebyshev::GpuChebyshev(VkDevice dev, VkPipelineLayout step_layout, int iterations, float lo_scale)
    : dev_(dev), iterations_(std::max(2, iterations + iterations % 2)), lo_scale_(lo_scale) {
  pipelines_[Bound] = make_compute_pipeline(dev, kBound, sizeof(kBound), step_layout, modules_[Bound]);
  pipelines_[Reduce] = make_compute_pipeline(dev, kReduce, sizeof(kReduce), step_layout, modules_[Reduce]);
  pipelines_[Iterate] = make_compute_pipeline(dev, kIterate, sizeof(kIterate), step_layout, modules_[Iterate]);
}

GpuChebyshev::~GpuChebyshev() {
  destroy_compute_pipelines(dev_, pipelines_, modules_, kKernels);
}

void GpuChebyshev::record(const Dispatch& dispatch, uint32_t groups, uint32_t dv_slot, uint32_t spare_slot,
                          const std::function<void()>& between) const {
  dispatch(pipelines_[Bound], groups, 0, 0, 0);
  uint32_t scale_bits;
  std::memcpy(&scale_bits, &lo_scale_, 4);
  dispatch(pipelines_[Reduce], 1, 0, 0, scale_bits);
  if (between) between();
  for (int k = 0; k < iterations_; ++k) {
    const bool even = k % 2 == 0;
    dispatch(pipelines_[Iterate], groups, even ? dv_slot : spare_slot, even ? spare_slot : dv_slot, uint32_t(k));
  }
}

}  // namespace weft
