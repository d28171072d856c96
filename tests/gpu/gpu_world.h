#pragma once
// The GPU tests' shared pieces: the first compute device, a world stepped by the GPU integrator on it, and the
// RMS position difference between two worlds (the parity measure).
#include <cmath>
#include <memory>

#include "gpu/compute_context.h"
#include "gpu/gpu_integrator.h"
#include "sim/scene.h"
#include "sim/world.h"

namespace weft::test {

inline std::shared_ptr<ComputeContext> open_device(bool validation) {
  const auto devices = list_compute_devices();
  if (devices.empty()) return nullptr;
  return std::make_shared<ComputeContext>(devices.front().index, validation);
}

inline World gpu_world(Scene s, std::shared_ptr<ComputeContext> ctx) {
  s.world.make_custom_integrator = [ctx](const ClothModel& m, const SolverOptions& o) {
    return std::make_unique<GpuIntegrator>(ctx, m, o);
  };
  return build_world(s);
}

inline double rms_difference(const World& a, const World& b) {
  double s = 0;
  const auto& x = a.state().position;
  const auto& y = b.state().position;
  for (size_t i = 0; i < x.size(); ++i) {
    const glm::vec3 d = x[i] - y[i];
    s += double(glm::dot(d, d));
  }
  return std::sqrt(s / double(x.size()));
}

}  // namespace weft::test
