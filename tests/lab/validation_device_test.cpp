// `--device` on `weft validate` (lab/validation_device.h): the choice goes into the validation's WorldConfig;
// the refusals need no Vulkan device (the GPU run itself: gpu_validate_interaction in tests/CMakeLists.txt).
#include <doctest/doctest.h>

#include <string>

#include "lab/validation_device.h"

namespace weft::lab {

TEST_CASE("validation device: cpu clears the integrator factory and says cpu in the JSON") {
  WorldConfig config;
  config.make_custom_integrator = [](const ClothModel&, const SolverOptions&) { return nullptr; };
  const StepDeviceChoice c = use_validation_device("cpu", "interaction", config);
  CHECK_FALSE(c.gpu);
  CHECK_FALSE(bool(config.make_custom_integrator));
  const nlohmann::json j = device_json(c);
  CHECK(j["device"] == "cpu");
  CHECK(j["device_name"] == "cpu");
}

TEST_CASE("validation device: gpu refuses what the validation's Worlds use that the GPU step does not run, by name") {
  WorldConfig config;
  config.self_collision.enabled = true;
  try {
    use_validation_device("gpu", "self-collision", config);
    FAIL("gpu took a self-colliding validation");
  } catch (const StepDeviceRefused& e) {
    const std::string m = e.what();
    CHECK(m.find("validate self-collision") != std::string::npos);
    CHECK(m.find("uses self-collision") != std::string::npos);
  }
  CHECK_FALSE(bool(config.make_custom_integrator));
  WorldConfig explicit_euler;
  explicit_euler.integrator = IntegratorKind::SymplecticEuler;
  CHECK_THROWS_AS(use_validation_device("gpu", "grasp", explicit_euler), StepDeviceRefused);
  // auto falls back to the CPU saying why
  const StepDeviceChoice a = use_validation_device("auto", "self-collision", config);
  CHECK_FALSE(a.gpu);
  CHECK(a.reason.find("self-collision") != std::string::npos);
  CHECK_THROWS_AS(use_validation_device("cuda", "grasp", config), std::invalid_argument);
}

}  // namespace weft::lab

#include "gpu/gpu_integrator.h"
#include "lab/interaction_validation.h"
#include "tests/skip.h"

namespace weft::lab {

TEST_SUITE_BEGIN("gpu");

// `weft validate interaction --device gpu`: the experiment's Worlds step on the GPU integrator (a short
// timeline at 81 vertices: the whole one is minutes on lavapipe).
TEST_CASE("validation device: gpu steps the interaction experiment on the GPU step") {
  WorldConfig config;
  try {
    use_validation_device("gpu", "interaction", config);
  } catch (const StepDeviceRefused& e) {
    WEFT_SKIP_IF(true, e.what());  // no Vulkan device
  }
  REQUIRE(bool(config.make_custom_integrator));
  int made = 0, gpu = 0;
  InteractionSetup setup;
  setup.quads = 8;
  setup.make_integrator = [&](const ClothModel& m, const SolverOptions& o) {
    std::unique_ptr<Integrator> i = config.make_custom_integrator(m, o);
    ++made;
    gpu += dynamic_cast<GpuIntegrator*>(i.get()) != nullptr;
    return i;
  };
  InteractionTimeline tl;
  tl.lift_end = 0.1, tl.pull_end = 0.15, tl.shake_end = 0.2, tl.still_from = 0.22, tl.release = 0.25, tl.end = 0.3;
  const InteractionResult r = run_interaction(setup, tl);
  CHECK(r.finite);
  CHECK(r.vertices == 81);
  CHECK(made >= 1);
  CHECK(gpu == made);
  CHECK(r.mean_solver_iterations > 0);
}

TEST_SUITE_END();

}  // namespace weft::lab
