// The compute contexts (gpu/compute_context.h): a process opens and closes many (a test binary, `weft stress
// --device gpu` a run each), and the NVIDIA driver refused new Vulkan instances after a few dozen, so every
// context shares the process's one instance.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "gpu/compute_context.h"
#include "tests/gpu/gpu_world.h"
#include "tests/skip.h"

using namespace weft;

TEST_SUITE_BEGIN("gpu");

TEST_CASE("compute context: contexts opened one after another share one instance, and 48 of them all open") {
  const auto devices = list_compute_devices();
  WEFT_SKIP_IF(devices.empty(), "no Vulkan device");
  VkInstance first = VK_NULL_HANDLE;
  for (int k = 0; k < 48; ++k) {
    ComputeContext ctx(devices.front().index, false);
    REQUIRE(ctx.device() != VK_NULL_HANDLE);
    if (k == 0) first = ctx.instance();
    CHECK(ctx.instance() == first);
  }
  ComputeContext a(devices.front().index, false), b(devices.front().index, false);
  CHECK(a.instance() == b.instance());  // two at once too
  CHECK(a.device() != b.device());      // each its own device, queue and pool
}

TEST_CASE("compute context: a validated context has its own instance and counts only its own messages") {
  std::string why;
  auto checked = test::open_validated_device(why);
  WEFT_SKIP_IF(!checked, why);
  auto again = test::open_validated_device(why);
  REQUIRE(again);
  CHECK(checked->instance() == again->instance());
  const auto devices = list_compute_devices();
  ComputeContext plain(devices.front().index, false);
  CHECK(plain.instance() != checked->instance());
  CHECK(checked->validation_messages() == 0);
}
