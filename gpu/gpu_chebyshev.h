#pragma once
// The GPU step's third solve (issue 36, build 2): Kang & Cho's own Jacobi iteration (Eq. 17, 27: 3x3 blocks,
// the same filtered block-Jacobi inverse as the PCG's preconditioner) with Wang 2015's Chebyshev acceleration,
// one dispatch an iteration and no reductions in the loop (gpu/shaders/chebyshev.comp). A dispatch and its
// barrier cost an H100 4.5-5.8 us whatever they do (docs/gpu.md), so PCG's 5 an iteration (2 of them one
// workgroup's reductions) and the multigrid's 18-30 are what the tick pays for, not the bytes.
//
// The weights need the iteration's spectral radius. Once a tick, before the loop, chebyshev_bound.comp bounds
// the preconditioned system's spectrum (Gershgorin on P^1/2 W P^1/2 with Frobenius block norms, and W >= M):
// a bound, not an estimate, so the weights never amplify a mode (a rho set too low diverges), it follows the
// stiffness as the cloth stretches (a constant found at load would not), and it costs one dispatch and no
// read-back. Where the bound's interval is not centred on 1 (triangle membranes: s > 1) the base iteration is
// damped Jacobi (gamma < 1). The iterations are a fixed count, recorded: all of them run.
#include <cstdint>
#include <functional>

#include <vulkan/vulkan.h>

namespace weft {

// Wang 2015's weight omega_k (k >= 1: omega_1 = 1, omega_2 = 2 / (2 - rho^2), omega_{k+1} = 4 / (4 - rho^2
// omega_k)) in the closed form chebyshev.comp uses (cheby_layout.glsl's cheby_omega), for tests.
float chebyshev_omega(uint32_t k, float rho);
// cheby_layout.glsl's cheby_interval: the damping gamma and the radius rho on [lo, 1 + s].
void chebyshev_interval(float s, float lo, float& gamma, float& rho);

class GpuChebyshev {
 public:
  // Its two pipelines in the step's pipeline layout (set 0 the step's: gpu/shaders/step_layout.glsl).
  // lo_scale: the lower end of the interval is the uniform translation's Rayleigh quotient times this.
  GpuChebyshev(VkDevice dev, VkPipelineLayout step_layout, int iterations, float lo_scale);
  ~GpuChebyshev();
  GpuChebyshev(const GpuChebyshev&) = delete;
  GpuChebyshev& operator=(const GpuChebyshev&) = delete;

  // Pushes (src, dst, mode) over the step's other push constants, dispatches, barriers.
  using Dispatch = std::function<void(VkPipeline, uint32_t groups, uint32_t src, uint32_t dst, uint32_t mode)>;
  // After assemble.comp (b in slot b_slot, the start dv in dv_slot): the bounds, then the iterations, x_k and
  // x_{k-1} alternating between dv_slot and spare_slot; the last lands in dv_slot (the count is even).
  // between: recorded after the bounds, before the iterations (or nothing).
  void record(const Dispatch& dispatch, uint32_t groups, uint32_t dv_slot, uint32_t spare_slot,
              const std::function<void()>& between = {}) const;
  int iterations() const { return iterations_; }

 private:
  VkDevice dev_;
  int iterations_;
  float lo_scale_;
  enum Kernel { Bound, Reduce, Iterate, kKernels };
  VkShaderModule modules_[kKernels]{};
  VkPipeline pipelines_[kKernels]{};
};

}  // namespace weft
