#pragma once
// Decides once per test process whether a Vulkan 1.3 device exists; tests that need one start with
// `WEFT_SKIP_IF(!test::vulkan_available(), ...)` (tests/skip.h) and are reported Skipped by ctest otherwise.
#include <cstdio>
#include <exception>

#include "engine/vulkan_context.h"

namespace weft::test {

inline bool vulkan_available() {
  static const bool available = [] {
    try {
      VulkanContext ctx(VulkanContextOptions{});
      ctx.create_device();
      return true;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "SKIPPED: no usable Vulkan device: %s\n", e.what());
      return false;
    }
  }();
  return available;
}

// Validation on, as in every render test; fails the test if the layer is missing.
inline VulkanContextOptions validated_options() {
  VulkanContextOptions o;
  o.validation = true;
  return o;
}

}  // namespace weft::test
