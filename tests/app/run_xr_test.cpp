// `weft run --mode xr` on a machine without a runtime: one line saying why, non-zero exit. The
// loader is pointed at a manifest that does not exist, so this holds whatever is installed.
#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

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
