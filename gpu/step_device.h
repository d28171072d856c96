#pragma once
// Which device runs a scene's step (sim.device, `--device`): the choice, why, and the scenes the GPU step
// refuses. `cpu` is the default until the GPU step covers the shipped scenes. `gpu` takes the best Vulkan
// device there is, lavapipe included with a warning that it is a CPU, and refuses a scene that uses a
// feature the GPU step does not run (naming it); `auto` takes a real GPU (discrete or integrated, never
// lavapipe) for a scene it can run, else the CPU, and says why. Nothing is moved to the CPU quietly.
#include <memory>
#include <stdexcept>
#include <string>

#include "gpu/compute_context.h"
#include "gpu/gpu_integrator.h"
#include "sim/scene.h"

namespace weft {

struct StepDeviceChoice {
  bool gpu = false;             // the GPU step runs stage 3
  std::string device_name = "cpu";  // the Vulkan device's name, or "cpu"
  std::string reason;           // why this device (one line)
  std::string warning;          // non-empty: print it (the GPU step on a CPU Vulkan device)
  std::shared_ptr<ComputeContext> context;  // gpu: the opened device
};

// `--device gpu` asked for a scene the GPU step cannot run, or no Vulkan device: the message names the
// scene and the feature (or what is missing).
class StepDeviceRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

StepDevice parse_step_device(const std::string& name);  // cpu | gpu | auto; throws std::invalid_argument
const char* step_device_name(StepDevice device);

// The first feature of the scene the GPU step does not run yet ("self-collision", "colliders", ...), or
// null when it runs the scene.
const char* gpu_unsupported_feature(const Scene& scene);

// Resolves scene.world.device (validation: open the device with VK_LAYER_KHRONOS_validation). Throws
// StepDeviceRefused for `gpu` with an unsupported feature or no device.
StepDeviceChoice choose_step_device(const Scene& scene, bool validation = false);

// Sets the world's integrator factory to the GPU step on the chosen device, with `options` (nothing for the CPU).
void use_step_device(const StepDeviceChoice& choice, WorldConfig& config, const GpuStepOptions& options = {});

}  // namespace weft
