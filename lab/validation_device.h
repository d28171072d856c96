#pragma once
// `--device` on `weft validate` (issue 36): the validations build their Worlds from a WorldConfig, not a scene
// file, so the device is chosen for a scene that describes what their Worlds use (the solver, the weft/warp
// membrane, self-collision) by the runtime's own rules (gpu/step_device.h): `gpu` refuses what the GPU step
// does not run, naming it; `auto` falls back to the CPU saying why. The choice goes into the WorldConfig as
// its integrator factory, which every World built from it (and from its copies) uses.
#include <string>

#include <nlohmann/json.hpp>

#include "gpu/step_device.h"
#include "sim/material.h"
#include "sim/world_config.h"

namespace weft::lab {

// Resolves `device` (cpu | gpu | auto) for the validation `what` whose Worlds run on `config` and `material`;
// sets config.make_custom_integrator for the GPU step (cleared for the CPU) and prints the warning (lavapipe)
// and the device line on stderr. Throws StepDeviceRefused (gpu: a feature it does not run, or no device) and
// std::invalid_argument (a device name other than the three).
StepDeviceChoice use_validation_device(const std::string& device, const std::string& what, WorldConfig& config,
                                       const Material& material = {}, bool validation_layers = false,
                                       const GpuStepOptions& gpu = {});

// "device", "device_name", "device_reason" for a validation's JSON.
nlohmann::json device_json(const StepDeviceChoice& choice);

}  // namespace weft::lab
