#pragma once
// `weft bench --device gpu`: GPU time per tick by stage (timestamps) of the GPU step on a hanging cloth
// lifted by two hands, at 16 k vertices (and 64 k, 256 k when asked), with the host's wall time per tick.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace weft::lab {

struct GpuBenchOptions {
  std::vector<std::string> sizes = {"16k"};  // 16k | 64k | 256k (and 1k, 4k: the solve's iteration counts)
  int steps = 20;                            // timed ticks per size, after 4 untimed
  std::string device = "gpu";                // gpu | auto (auto: refuses to time a CPU)
  bool validation = false;                   // the device opened with VK_LAYER_KHRONOS_validation
  std::string material;                      // fabric preset (assets/materials) for the cloth; empty: springs
  std::string preconditioner = "jacobi";     // jacobi (block-Jacobi PCG, the step's default) | mg (GpuStepOptions::multigrid)
                                             // | chebyshev (GpuStepOptions::chebyshev: no PCG)
  int mg_coarse_nodes = -1;                  // GpuStepOptions::mg_coarse_nodes; -1: its default
  int chebyshev_iterations = -1;             // GpuStepOptions::chebyshev_iterations; -1: its default
  int submits = 1;                           // 1: stage 4 in the step's submit (the default); 2: its own (GpuStepOptions::one_submit)
};

// One entry per size; throws StepDeviceRefused when no device fits (and for auto, when it would be the CPU).
nlohmann::json bench_gpu_step(const GpuBenchOptions& options);

}  // namespace weft::lab
