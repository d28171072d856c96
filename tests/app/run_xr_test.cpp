// `weft run --mode xr` on a machine without a runtime: one line saying why, non-zero exit. The
// loader is pointed at a manifest that does not exist, so this holds whatever is installed.
// With a runtime (XR_RUNTIME_JSON, e.g. Monado's simulated headset), the real run renders frames
// under the validation layer and dumps left-eye PNGs; without one that case is skipped.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <string>
#include <sys/wait.h>

#include <nlohmann/json.hpp>

#include "../xr/runtime_probe.h"
#include "tests/skip.h"

namespace {
struct Result {
  int rc = -1;
  std::string output;
};
Result run(const std::string& args) {
  const std::string cmd = "XR_RUNTIME_JSON=/nonexistent/weft-no-runtime.json DISPLAY= " WEFT_BINARY_DIR "/weft " +
                          args + " 2>&1";
  Result r;
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::array<char, 512> buf;
  while (fgets(buf.data(), int(buf.size()), p)) r.output += buf.data();
  const int status = pclose(p);
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}
int lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}
}  // namespace

TEST_CASE("weft run --mode xr without a runtime prints one line saying why and fails") {
  for (const char* mode : {"xr", "xr-headless"}) {
    const Result r = run(std::string("run --mode ") + mode + " --frames 1");
    CAPTURE(r.output);
    CHECK(r.rc != 0);
    CHECK(lines(r.output) == 1);
    CHECK(r.output.find("runtime unavailable") != std::string::npos);
  }
}

TEST_CASE("weft run in auto mode says it falls back from xr and why") {
  const Result r = run("run --frames 1");
  CAPTURE(r.output);
  CHECK(r.output.find("weft: mode auto -> ") == 0);
  CHECK(r.output.find("no xr: OpenXR runtime unavailable") != std::string::npos);
}

namespace {
const std::string kNoRuntime = weft::test::no_runtime_reason();  // why the runtime case skips, if it does
}  // namespace

TEST_CASE("OpenXR runtime: weft run --mode xr renders frames under validation and dumps the left eye") {
  WEFT_SKIP_IF(!kNoRuntime.empty(), kNoRuntime);
  namespace fs = std::filesystem;
  const fs::path out = fs::temp_directory_path() / "weft_run_xr_test";
  fs::remove_all(out);
  // The runtime's environment as the caller set it; stdout only (the JSON), stderr to a file.
  const std::string cmd = "WEFT_VALIDATION=1 " WEFT_BINARY_DIR "/weft run --mode xr --frames 30 --json --out " +
                          out.string() + " --out-every 10 2>" + (out.string() + ".log");
  std::string stdout_text;
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::array<char, 512> buf;
  while (fgets(buf.data(), int(buf.size()), p)) stdout_text += buf.data();
  const int status = pclose(p);
  CAPTURE(stdout_text);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  const nlohmann::json j = nlohmann::json::parse(stdout_text);
  CHECK(j["mode"] == "xr");
  CHECK(j["frames_rendered"].get<uint64_t>() >= 30);
  CHECK(j["validation"] == true);
  CHECK(j["validation_errors"] == 0);
  CHECK(j["session_states"].back() == "XR_SESSION_STATE_EXITING");
  CHECK(j["hand_poses_received"].get<uint64_t>() > 0);
  CHECK(j["invalid_poses"] == 0);
  const auto& ext = j["extensions"];
  const bool depth_offered = std::find(ext.begin(), ext.end(), "XR_KHR_composition_layer_depth") != ext.end();
  CHECK(j["depth_submitted"] == depth_offered);
  // Frames 0, 10, 20 (and 30 when the runtime ran one more before exiting).
  CHECK(j["left_eye_pngs"].get<uint64_t>() >= 3);
  CHECK(fs::file_size(out / "xr_left_00000.png") > 100);
  CHECK(fs::file_size(out / "xr_left_00020.png") > 100);
}
