// A body on the GPU step (sim/body.h: a mannequin's parts are sphere and capsule colliders, Collider::body,
// still or following a tracker): the resting contacts, the solve's filter and stage 4's collide.comp take
// them as any other collider. Parity against the CPU's default step on a disc with a hole (make_annulus, not
// a grid) hung against a mannequin's chest, and with the chest following a tracker that pushes it.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <stdexcept>

#include "gpu/gpu_integrator.h"
#include "gpu/step_device.h"
#include "sim/body.h"
#include "sim/mesh_generators.h"
#include "tests/gpu/gpu_world.h"
#include "tests/sim/pose_samples.h"
#include "tests/skip.h"

using namespace weft;
using weft::test::gpu_world;
using weft::test::open_device;
using weft::test::rms_difference;
using weft::test::sample;

TEST_SUITE_BEGIN("gpu");

namespace {

// The apron (gpu_world.h) comes to rest against the chest and the waist, a stable drape. `tracked`: the chest
// follows Tracker0.
Scene body_disc(bool tracked) {
  Scene s = weft::test::apron_on_mannequin("gpu body: an apron on a mannequin");
  if (tracked) drive_part(*s.body.find("chest"), Device::Tracker0, weft::test::at(glm::vec3(0.f, 1.30f, 0.f)));
  return s;
}

// The tracker (if any) holds the chest still for 0.25 s, then pushes it 3 cm forward (-z) over 0.25 s.
void body_tick(World& w, bool tracked) {
  if (tracked) {
    const double t = w.state().time, h = w.time_step();
    const float push = 0.03f * float(std::clamp((t - 0.25) / 0.25, 0.0, 1.0));
    w.submit_pose(sample(Device::Tracker0, t + h, glm::vec3(0.f, 1.30f, -push)));
  }
  w.step();
}

}  // namespace

// 0.75 s at 240 Hz: the apron swings onto the chest and rests against it; the bar is the existing parity
// tests' 1 mm, the resting contacts and stage 4's contacts alike (within 10 % or 3), no vertex inside a part.
TEST_CASE("gpu body: an apron hung against a mannequin, still or its chest pushed by a tracker, as on the CPU") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  for (bool tracked : {false, true}) {
    CAPTURE(tracked);
    const Scene s = body_disc(tracked);
    REQUIRE(gpu_unsupported_feature(s) == nullptr);
    World cpu = build_world(s), gpu = gpu_world(s, ctx);
    REQUIRE(gpu.has_body());
    uint32_t most_cpu = 0, most_gpu = 0;
    float deepest_cpu = 0.f, deepest_gpu = 0.f;
    for (int k = 0; k < 180; ++k) {
      body_tick(cpu, tracked);
      body_tick(gpu, tracked);
      most_cpu = std::max(most_cpu, cpu.step_report().collision.contacts);
      most_gpu = std::max(most_gpu, gpu.step_report().collision.contacts);
      deepest_cpu = std::max(deepest_cpu, cpu.step_report().body_penetration_m);
      deepest_gpu = std::max(deepest_gpu, gpu.step_report().body_penetration_m);
    }
    const double rms = rms_difference(cpu, gpu);
    const size_t resting_cpu = cpu.state().contact_filter.size(), resting_gpu = gpu.state().contact_filter.size();
    MESSAGE(std::string(tracked ? "chest on a tracker" : "still mannequin")
            << ", 0.75 s: RMS " << rms * 1e3 << " mm; resting contacts CPU " << resting_cpu << ", GPU " << resting_gpu
            << "; most collider contacts in a tick CPU " << most_cpu << ", GPU " << most_gpu
            << "; deepest in the body CPU " << deepest_cpu * 1e3 << " mm, GPU " << deepest_gpu * 1e3 << " mm; chest at z "
            << gpu.colliders()[2].pose.position.z << " m");
    CHECK(rms <= 1e-3);
    CHECK(resting_gpu > 0);
    CHECK(std::abs(int(resting_gpu) - int(resting_cpu)) <= std::max(3, int(resting_cpu) / 10));
    CHECK(most_gpu > 0);
    CHECK(std::abs(int(most_gpu) - int(most_cpu)) <= std::max(3, int(most_cpu) / 10));
    CHECK(deepest_gpu <= deepest_cpu + 1e-3f);
    for (const Collider& c : gpu.colliders())
      for (const glm::vec3& p : gpu.state().position) {
        glm::vec3 n;
        CHECK(collider_distance(c, p, n) > -1e-3f);
      }
  }
}

TEST_CASE("gpu body: two runs on a tracked mannequin give one hash") {
  auto ctx = open_device(false);
  WEFT_SKIP_IF(!ctx, "no Vulkan device");
  const Scene s = body_disc(true);
  auto run = [&] {
    World w = gpu_world(s, ctx);
    for (int k = 0; k < 90; ++k) body_tick(w, true);
    return w.state_hash();
  };
  CHECK(run() == run());
}

TEST_CASE("gpu body: the Vulkan validation layer says nothing") {
  std::string why;
  const std::shared_ptr<ComputeContext> ctx = weft::test::open_validated_device(why);
  WEFT_SKIP_IF(!ctx, why.c_str());
  {
    World w = gpu_world(body_disc(true), ctx);
    size_t contacts = 0;  // the apron reaches the chest at about 0.2 s
    for (int k = 0; k < 90; ++k) {
      body_tick(w, true);
      contacts = std::max(contacts, w.state().contact_filter.size() + w.step_report().collision.contacts);
    }
    CHECK(contacts > 0);
  }
  INFO(ctx->first_validation_message());
  CHECK(ctx->validation_messages() == 0);
}

TEST_SUITE_END();
