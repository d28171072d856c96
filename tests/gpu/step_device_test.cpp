// The device choice and its refusals (gpu/step_device.h): no Vulkan device needed.
#include <doctest/doctest.h>

#include <string>

#include "gpu/step_device.h"
#include "sim/mesh_generators.h"
#include "sim/world.h"
#include "tests/skip.h"

using namespace weft;

TEST_SUITE_BEGIN("gpu");

namespace {

Scene hanging_scene() {
  Scene s;
  s.name = "small hanging";
  GridSpec g;
  g.columns = g.rows = 4;
  s.mesh = make_grid(g);
  s.pins = {20, 24};
  return s;
}

}  // namespace

TEST_CASE("step device: names parse and anything else is refused") {
  CHECK(parse_step_device("cpu") == StepDevice::Cpu);
  CHECK(parse_step_device("gpu") == StepDevice::Gpu);
  CHECK(parse_step_device("auto") == StepDevice::Auto);
  CHECK_THROWS_AS(parse_step_device("cuda"), std::invalid_argument);
  CHECK(std::string(step_device_name(StepDevice::Auto)) == "auto");
}

TEST_CASE("step device: cpu is the default and opens no device") {
  const StepDeviceChoice c = choose_step_device(hanging_scene());
  CHECK_FALSE(c.gpu);
  CHECK(c.device_name == "cpu");
  CHECK(c.context == nullptr);
  WorldConfig w;
  use_step_device(c, w);
  CHECK_FALSE(bool(w.make_custom_integrator));
}

TEST_CASE("step device: a feature the GPU step lacks is refused for gpu by name and auto says why it took the CPU") {
  Scene s = hanging_scene();
  CHECK(s.hand_colliders.enabled);  // the default: every hand carries a palm and a forearm, kept in the GPU solve
  CHECK(gpu_unsupported_feature(s) == nullptr);
  s.world.self_collision.enabled = true;
  REQUIRE(gpu_unsupported_feature(s) != nullptr);
  CHECK(std::string(gpu_unsupported_feature(s)) == "self-collision");
  s.world.device = StepDevice::Gpu;
  try {
    choose_step_device(s);
    FAIL("gpu took a self-colliding scene");
  } catch (const StepDeviceRefused& e) {
    const std::string m = e.what();
    CHECK(m.find("small hanging") != std::string::npos);
    CHECK(m.find("self-collision") != std::string::npos);
  }
  s.world.device = StepDevice::Auto;
  const StepDeviceChoice c = choose_step_device(s);
  CHECK_FALSE(c.gpu);
  CHECK(c.reason.find("self-collision") != std::string::npos);

  Scene m = hanging_scene();
  m.material.stretch_model = StretchModel::WeftWarp;  // runs on the GPU (gpu/gpu_force_stage.h) ...
  CHECK(gpu_unsupported_feature(m) == nullptr);
  m.material.weave.membrane = Membrane::Isotropic;  // ... and so does its isotropic membrane
  CHECK(gpu_unsupported_feature(m) == nullptr);
  for (StretchModel sm : {StretchModel::Volino, StretchModel::Springs}) {
    Scene a = hanging_scene();
    a.material.stretch_model = sm;
    a.material.drag = 0.5f;
    a.material.lift = 0.2f;
    CHECK(gpu_unsupported_feature(a) == nullptr);
  }
  Scene e = hanging_scene();
  e.world.integrator = IntegratorKind::RungeKutta4;
  CHECK(gpu_unsupported_feature(e) != nullptr);
  Scene c2 = hanging_scene();
  c2.colliders.push_back(Collider{});  // contacts and friction in the GPU solve (gpu/shaders/contact_friction.glsl)
  CHECK(gpu_unsupported_feature(c2) == nullptr);
  c2.body = make_mannequin(Pose{}, 1.75f);  // a body's parts are colliders (tests/gpu/gpu_body_test.cpp)
  CHECK(gpu_unsupported_feature(c2) == nullptr);
  c2.rigid_boxes.push_back(RigidBox{});
  CHECK(std::string(gpu_unsupported_feature(c2)) == "rigid boxes");
}

TEST_CASE("step device: auto never takes a CPU Vulkan device") {
  Scene s = hanging_scene();
  s.world.device = StepDevice::Auto;
  const auto devices = list_compute_devices();
  bool real_gpu = false;
  for (const ComputeDeviceInfo& d : devices) real_gpu = real_gpu || d.is_gpu();
  const StepDeviceChoice c = choose_step_device(s);
  CHECK(c.gpu == real_gpu);
  if (!real_gpu) CHECK(c.reason.rfind("auto: ", 0) == 0);
}

TEST_CASE("step device: the GPU step's options reach the worlds built on the chosen device") {
  Scene s = hanging_scene();
  s.world.device = StepDevice::Gpu;
  WEFT_SKIP_IF(list_compute_devices().empty(), "no Vulkan device");
  const StepDeviceChoice c = choose_step_device(s);
  REQUIRE(c.gpu);
  GpuStepOptions mg;
  mg.multigrid = true;  // `validate interaction --preconditioner mg`
  use_step_device(c, s.world, mg);
  CHECK(std::string(build_world(s).integrator().name()) == "gpu-mg");
  use_step_device(c, s.world);
  CHECK(std::string(build_world(s).integrator().name()) == "gpu-pcg");
}

TEST_SUITE_END();
