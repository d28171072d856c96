#include "gpu/step_device.h"

#include "gpu/gpu_contact_stage.h"
#include "gpu/gpu_integrator.h"

namespace weft {

StepDevice parse_step_device(const std::string& name) {
  if (name == "cpu") return StepDevice::Cpu;
  if (name == "gpu") return StepDevice::Gpu;
  if (name == "auto") return StepDevice::Auto;
  throw std::invalid_argument("device '" + name + "': expected cpu, gpu or auto");
}

const char* step_device_name(StepDevice device) {
  switch (device) {
    case StepDevice::Cpu: return "cpu";
    case StepDevice::Gpu: return "gpu";
    case StepDevice::Auto: return "auto";
  }
  return "cpu";
}

const char* gpu_unsupported_feature(const Scene& scene) {
  const WorldConfig& w = scene.world;
  switch (w.integrator) {
    case IntegratorKind::Multigrid: case IntegratorKind::ConjugateGradient: case IntegratorKind::GaussSeidel:
    case IntegratorKind::ApproximateImplicit: break;  // the linearised implicit step: the GPU solves it by PCG
    default: return "an explicit or higher-order integrator (sim.solver: the GPU step is the linearised implicit one)";
  }
  // Volino's triangles, the weft/warp model (either membrane, crease lines: the hinges' baked rest angles and
  // stiffnesses) with its plasticity, and air run on the GPU (gpu/gpu_force_stage.h)
  if (w.self_collision.enabled) return "self-collision";
  if (!scene.rigid_boxes.empty()) return "rigid boxes";
  // A body's parts are sphere and capsule colliders (Collider::body), still or following a device: the
  // resting contacts, the solve's filter and stage 4's collide.comp take them as any other collider.
  if (!scene.seams.empty() || scene.seam_lines.size() > 0) return "seams";
  // stage 4's collider table (gpu/gpu_contact_stage.h), the hands' palms and forearms counted in
  if (scene.colliders.size() + 8 > GpuContactStage::kMaxColliders) return "more than 56 colliders";
  return nullptr;
}

StepDeviceChoice choose_step_device(const Scene& scene, bool validation) {
  StepDeviceChoice out;
  const StepDevice asked = scene.world.device;
  if (asked == StepDevice::Cpu) {
    out.reason = "cpu asked for (sim.device or --device; the default)";
    return out;
  }
  const char* feature = gpu_unsupported_feature(scene);
  if (feature) {
    if (asked == StepDevice::Gpu)
      throw StepDeviceRefused("--device gpu: scene '" + scene.name + "' uses " + feature +
                              ", which the GPU step does not run yet (docs/gpu.md); run it with --device cpu or auto");
    out.reason = std::string("auto: the GPU step does not run ") + feature + " yet";
    return out;
  }
  std::string why;
  const auto devices = list_compute_devices(&why);
  const ComputeDeviceInfo* pick = nullptr;
  for (const ComputeDeviceInfo& d : devices)
    if (asked == StepDevice::Gpu || d.is_gpu()) {
      pick = &d;
      break;
    }
  if (!pick) {
    if (asked == StepDevice::Gpu) throw StepDeviceRefused("--device gpu: " + why);
    out.reason = devices.empty() ? "auto: " + why
                                 : "auto: no GPU, only " + devices.front().name + " (a CPU Vulkan device, never taken by auto)";
    return out;
  }
  out.gpu = true;
  out.device_name = pick->name;
  out.reason = asked == StepDevice::Gpu ? "gpu asked for: the best Vulkan device" : "auto: a real GPU";
  if (pick->is_cpu())
    out.warning = "the GPU step runs on " + pick->name + ", a CPU Vulkan device: correct, not fast";
  out.context = std::make_shared<ComputeContext>(pick->index, validation);
  return out;
}

void use_step_device(const StepDeviceChoice& choice, WorldConfig& config, const GpuStepOptions& options) {
  if (!choice.gpu) {
    config.make_custom_integrator = nullptr;
    return;
  }
  std::shared_ptr<ComputeContext> ctx = choice.context;
  config.make_custom_integrator = [ctx, options](const ClothModel& model, const SolverOptions& solver) {
    return std::make_unique<GpuIntegrator>(ctx, model, solver, options);
  };
}

}  // namespace weft
