#pragma once
// Whether an OpenXR runtime could be loaded, for tests that run against one and are skipped (never
// passed) without. Only looks for the manifest (cheap enough for static init in every test
// process); loading the runtime is the test itself.
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace weft::test {

// Empty when a runtime manifest exists; otherwise why the runtime tests are skipped.
inline std::string no_runtime_reason() {
  namespace fs = std::filesystem;
  if (const char* j = std::getenv("XR_RUNTIME_JSON"); j && *j)
    return fs::exists(j) ? std::string() : std::string("XR_RUNTIME_JSON names a missing file: ") + j;
  std::vector<fs::path> dirs;
  if (const char* c = std::getenv("XDG_CONFIG_HOME"); c && *c) dirs.emplace_back(c);
  else if (const char* h = std::getenv("HOME"); h && *h) dirs.emplace_back(fs::path(h) / ".config");
  dirs.emplace_back("/etc/xdg");
  for (const auto& d : dirs)
    if (fs::exists(d / "openxr/1/active_runtime.json")) return {};
  return "no OpenXR runtime (XR_RUNTIME_JSON unset and no active_runtime.json installed)";
}

}  // namespace weft::test
