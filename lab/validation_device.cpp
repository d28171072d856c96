#include "lab/validation_device.h"

#include <cstdio>

namespace weft::lab {

StepDeviceChoice use_validation_device(const std::string& device, const std::string& what, WorldConfig& config,
                                       const Material& material, bool validation_layers, const GpuStepOptions& gpu) {
  Scene scene;  // what the validation's Worlds use, for gpu_unsupported_feature
  scene.name = "validate " + what;
  scene.material = material;
  scene.world = config;
  scene.world.device = parse_step_device(device);
  const StepDeviceChoice choice = choose_step_device(scene, validation_layers);
  if (!choice.warning.empty()) std::fprintf(stderr, "weft: warning: %s\n", choice.warning.c_str());
  std::fprintf(stderr, "validate %s: step on %s: %s (%s)\n", what.c_str(), choice.gpu ? "gpu" : "cpu",
               choice.device_name.c_str(), choice.reason.c_str());
  use_step_device(choice, config, gpu);
  return choice;
}

nlohmann::json device_json(const StepDeviceChoice& choice) {
  return {{"device", choice.gpu ? "gpu" : "cpu"}, {"device_name", choice.device_name},
          {"device_reason", choice.reason}};
}

}  // namespace weft::lab
