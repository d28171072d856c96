// `weft record --out FILE`: saves every input sample of a session as a pose stream (docs/pose_stream.md).
// With a display (--mode window) it records what the mouse hands do; without one (--mode headless) it
// records the scripted two-hand session, sim as fast as it runs.
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "app/run_summary.h"
#include "engine/desktop_app.h"
#include "engine/stream_replay.h"

namespace weft::app {
namespace {

struct RecordCliOptions {
  std::string out;
  std::string mode = "auto";
  std::string scene;
  std::string solver;
  int threads = 0;
  std::string device;
  double seconds = 0;
  double tick_hz = 0;
  std::string noise = "none";
  uint64_t seed = 1;
  bool json = false;
  std::string script = "two-hand";
};

int record(const RecordCliOptions& o) {
  std::string mode = o.mode;
  if (mode == "auto") {
    const char* display = std::getenv("DISPLAY");
    mode = display && *display ? "window" : "headless";
    std::fprintf(stderr, "weft: record: mode auto -> %s\n", mode.c_str());
  }
  const NoiseProfile noise = noise_profile(o.noise);
  const auto t0 = std::chrono::steady_clock::now();
  uint64_t ticks = 0, records = 0, hash = 0;
  nlohmann::json stream, mesh_check;
  if (mode == "headless") {
    RecordOptions ro;
    ro.scene_file = o.scene;
    ro.solver = o.solver;
    ro.threads = o.threads;
    ro.device = o.device;
    ro.tick_hz = o.tick_hz;
    ro.seconds = o.seconds;
    ro.noise = noise;
    ro.seed = o.seed;
    ro.script = o.script == "tools" ? SessionScript::Tools : SessionScript::TwoHand;
    const RecordResult r = record_scripted_session(o.out, ro);
    ticks = r.ticks, records = r.records, hash = r.hash;
    stream = stream_summary(r.stats);
    mesh_check = mesh_check_summary(r.mesh_check);
  } else {
    DesktopAppOptions d;
    d.runtime.scene_file = o.scene;
    d.runtime.solver = o.solver;
    d.runtime.threads = o.threads;
    d.runtime.device = o.device;
    d.runtime.tick_hz = o.tick_hz;
    d.record_path = o.out;
    d.noise_profile = o.noise == "none" ? "all" : o.noise;  // what J toggles; on from the start if asked
    d.noise_seed = o.seed;
    DesktopApp app(d);
    app.controller().noise = o.noise != "none";
    print_desktop_help();
    std::fprintf(stderr, "weft: recording to %s; close the window to stop\n", o.out.c_str());
    while (app.frame()) {
      const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (o.seconds > 0 && wall > o.seconds) break;
    }
    app.finish();
    ticks = app.runtime().stats().ticks, hash = app.runtime().world().state_hash();
    stream = stream_summary(app.runtime().stats());
    mesh_check = mesh_check_summary(app.runtime().scene().mesh_check);
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016" PRIx64, hash);
  if (o.json) {
    nlohmann::json j = {{"file", o.out}, {"mode", mode},         {"scene_file", o.scene}, {"ticks", ticks},
                        {"state_hash", hex}, {"wall_s", wall}, {"noise", noise.name},   {"seed", o.seed},
                        {"mesh_check", mesh_check}, {"stream", stream}};
    if (mode == "headless") j["records"] = records;
    std::printf("%s\n", j.dump(2).c_str());
  } else {
    std::printf("recorded %s: %" PRIu64 " ticks, final state hash %s (%.2f s wall)\n", o.out.c_str(), ticks, hex, wall);
  }
  print_stream_notices(stream);
  return 0;
}

}  // namespace

void register_record(CLI::App& app) {
  auto o = std::make_shared<RecordCliOptions>();
  auto* cmd = app.add_subcommand("record", "Record every input sample of a session to a pose stream file");
  cmd->add_option("--out", o->out, "Pose stream file to write (JSON lines)")->required();
  cmd->add_option("--mode", o->mode, "auto | window (mouse hands) | headless (the scripted two-hand session)")
      ->check(CLI::IsMember({"auto", "window", "headless"}));
  cmd->add_option("--seconds", o->seconds, "Headless: sim seconds (default: script + 1 s); window: wall seconds")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--scene", o->scene, "Scene JSON file (default: the built-in table); the stream names it")
      ->check(CLI::ExistingFile);
  cmd->add_option("--solver", o->solver, "Integrator (default: the scene's)");
  cmd->add_option("--device", o->device, "Where the step runs: cpu | gpu | auto (default: the scene's sim.device, cpu; docs/gpu.md)")
      ->check(CLI::IsMember({"cpu", "gpu", "auto"}));
  cmd->add_option("--threads", o->threads, "The solver's threads, 1 or 2 (default: the scene's sim.threads); the stream names it")
      ->check(CLI::Range(1, 2));
  cmd->add_option("--tick-hz", o->tick_hz, "Simulation tick rate (default: the scene's)")->check(CLI::Range(60.0, 2000.0));
  cmd->add_option("--script", o->script, "Headless: two-hand (the default demo) | tools (every tool once: "
                  "cut, pull, seam, remove, expand, shrink)")
      ->check(CLI::IsMember({"two-hand", "tools"}));
  cmd->add_option("--noise", o->noise, "Noise profile on the hands before recording (see docs/stress.md)");
  cmd->add_option("--seed", o->seed, "Noise seed");
  cmd->add_flag("--json", o->json, "Print a JSON summary on stdout");
  cmd->callback([o] {
    if (const int rc = record(*o); rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace weft::app
