#pragma once
// The one runtime every mode runs (window, headless frames, --no-render, xr, xr-headless, record, replay,
// stress): the scene's World on the SimThread, which is the only writer of cloth state, and the
// lock-free exchange around it (snapshots out; poses and events in through input()). Front ends only
// push inputs and read snapshots.
//
// Two clocks:
//   - live (window, xr, --no-render): the sim free-runs at its tick on the wall clock; inputs are stamped
//     with clock_now() and apply at the next tick boundary; the renderer draws the newest snapshots,
//     interpolated to its display time (engine/snapshot_interpolation.h);
//   - lockstep (headless frames, record, replay, stress): the producer feeds tick k's inputs between
//     begin_tick(k) and end_tick(k); the sim runs each tick as soon as its inputs are complete, so the
//     state is a function of the input stream alone (same scene + same stream = same state hash).
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/camera.h"
#include "engine/input_sink.h"
#include "engine/pose_stream.h"
#include "engine/scene_props.h"
#include "engine/sim_thread.h"
#include "sim/scene.h"

namespace weft {

struct RuntimeOptions {
  std::string scene_file;            // scene JSON; empty: the built-in table scene
  std::string solver;                // "approx", "cg", ...; empty: the scene's
  std::string material;              // a fabric preset name or file (assets/materials); empty: the scene's
  double tick_hz = 0;                // 0: the scene's
  int threads = 0;                   // the solver's threads (sim.threads: 1 or 2); 0: the scene's
  std::string device;                // cpu | gpu | auto (sim.device, gpu/step_device.h); empty: the scene's
  bool gpu_validation = false;       // the GPU step's device opened with VK_LAYER_KHRONOS_validation
  bool lockstep = false;             // offline: deterministic, as fast as the CPU allows
  SimPriority priority = SimPriority::Realtime;  // falls back when not permitted
  bool condition_poses = true;       // input conditioning on the sim thread
  ConditionerConfig conditioning;
  bool record = false;               // keep the log of applied inputs (drain_input_log)
  double debug_tick_sleep_ms = 0;    // test/debug: every tick also sleeps this long
  TickHook tick_hook;                // called on the sim thread after every tick (measurement harnesses)
};

// What front ends know of the scene (fixed for the runtime's life).
struct SceneInfo {
  std::string name;                  // the scene's own name
  std::string file;                  // the path it was loaded from ("" for the built-in scene)
  uint64_t content_hash = 0;         // FNV-1a of the file's bytes (built-in: of "builtin:table")
  std::string solver;                // integrator name the world runs
  double tick_hz = 240;
  int threads = 1;                   // the multigrid solver's threads (sim.threads)
  std::string device = "cpu";        // what steps it: cpu, or gpu (stage 3 on a Vulkan device, gpu/step_device.h)
  std::string device_name = "cpu";   // the Vulkan device's name
  std::string device_reason;         // why that device
  size_t vertices = 0;
  SceneProps props;                  // floor and table the renderer draws
  OrbitCamera camera;                // a desktop camera framing the cloth
  std::array<uint32_t, 2> near_corners{};        // cloth corners on the camera's side (scripted demo)
  bool scripted_demo = true;                     // false: the scripted demo's hands leave the cloth alone
  std::array<glm::vec3, 2> near_corner_rest{};   // their rest positions
  std::array<Pose, 2> hand_start;    // where the hands start (scene "hands")
  Pose stage;                        // where the user stands (scene "stage"): XR's stage origin in the scene
  std::array<std::string, 4> tracker_roles;  // the Vive tracker role kept for each tracker slot (scene "body")
  float grasp_radius = 0.04f;        // radius a grab takes
  float strain_limit = 0;            // the world's strain limit (0: none)
  // `weft mesh --check`'s counts on the loaded mesh (engine/mesh_check.h), per kind in its order, zeros included.
  std::vector<std::pair<std::string, size_t>> mesh_check;
};

// Loads a scene for the runtime (the built-in table when file is empty) with the overrides applied.
// Throws SceneError naming the file for a missing or malformed file, std::invalid_argument for a bad
// solver name, tick rate or thread count (threads: 1 or 2; 0 keeps the scene's).
Scene load_runtime_scene(const std::string& file, const std::string& solver, double tick_hz,
                         const std::string& material = "", int threads = 0);
// The same overrides on a scene already loaded or made in code (`origin` names it in errors): a material
// preset keeps the scene's weave angle and must be weft/warp where the scene has creases.
void apply_runtime_overrides(Scene& scene, const std::string& origin, const std::string& solver, double tick_hz,
                             const std::string& material, int threads);
// The built-in table scene as plain data: 0.8 m cloth (25 x 25 vertices) on a table, floor and table
// as colliders.
Scene builtin_table_scene();
// A 1 m square cloth of quads x quads hanging from its two top corners, tilted 80 degrees so it swings
// (`weft run --grid N`: a timing scene of any size).
Scene hanging_grid_scene(uint32_t quads);
// FNV-1a 64 of a file's bytes; throws SceneError when it cannot be read.
uint64_t scene_file_hash(const std::string& path);

class Runtime {
 public:
  explicit Runtime(const RuntimeOptions& options);
  // A scene made in code (stress scenarios, generated timing scenes): `label` names it in streams and its
  // hash stands for the content hash. options.solver and options.tick_hz still apply.
  Runtime(const RuntimeOptions& options, Scene scene, const std::string& label);
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  const SceneInfo& scene() const { return info_; }
  const RuntimeOptions& options() const { return options_; }
  SimThread& sim() { return *sim_; }
  const SimThread& sim() const { return *sim_; }
  SnapshotBuffer& snapshots() { return sim_->snapshots(); }
  const SnapshotMesh& mesh() const { return sim_->mesh(); }

  void start() { sim_->start(); }
  void stop() { sim_->stop(); }

  // --- input producer (one thread): the one input seam (engine/input_sink.h). Poses go to the mailbox as
  // they are; grab, release, attach, detach and the resets become events for the next tick boundary (live)
  // or for the tick being fed (lockstep).
  InputSink& input();
  // Runtime clock (s): live modes stamp pose samples with it.
  double clock_now() const { return sim_->clock_now(); }

  // --- lockstep producer
  // Waits until the sim has done k ticks: inputs pushed now apply exactly at boundary k.
  void begin_tick(uint64_t k);
  // Tick k's inputs are complete: the sim may run it.
  void end_tick(uint64_t k);
  // Lets the sim run up to k ticks with no further input and waits for the snapshot of tick k.
  void run_to(uint64_t k);
  // Ticks fed so far (the next begin_tick's k).
  uint64_t fed_ticks() const { return fed_; }

  // --- recording (options.record): the inputs the sim applied, each with the tick it applied at.
  // Call from one thread, often enough that the log does not fill (stats().input_log_dropped counts).
  size_t drain_input_log(PoseStreamWriter& writer);
  PoseStreamHeader stream_header(const std::string& source) const;

  // --- after stop()
  const World& world() const { return sim_->world(); }
  TickStats stats() const { return sim_->stats(); }

 private:
  class Input;
  // origin: the scene file (or a code scene's label), named in load warnings.
  void init(Scene scene, uint64_t content_hash, const std::string& origin);
  RuntimeOptions options_;
  SceneInfo info_;
  std::unique_ptr<SimThread> sim_;
  std::unique_ptr<Input> input_;
  uint64_t fed_ = 0;  // lockstep: ticks whose inputs are complete
};

}  // namespace weft
