#include "engine/runtime.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include <glm/gtc/matrix_transform.hpp>

#include "engine/material_loader.h"
#include "engine/mesh_check.h"
#include "engine/scene_loader.h"
#include "engine/snapshot_builder.h"
#include "gpu/step_device.h"
#include "sim/mesh_generators.h"

namespace weft {
namespace {

constexpr const char* kBuiltinName = "builtin:table";

uint64_t fnv1a(const char* data, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ uint8_t(data[i])) * 1099511628211ull;
  return h;
}

// Floor and table the renderer draws, from the scene's colliders: the plane is the floor, the first
// still box is the table (the other colliders come with every snapshot: fill_solids).
SceneProps props_from_colliders(const Scene& scene) {
  SceneProps props;
  for (const Collider& c : scene.colliders)
    if (c.shape == ColliderShape::Plane) props.floor_height = c.pose.position.y;
  if (const int table = table_collider_index(scene.colliders); table >= 0) {
    const Collider& c = scene.colliders[size_t(table)];
    TableProp t;
    t.center_xz = glm::vec2(c.pose.position.x, c.pose.position.z);
    t.size_xz = 2.f * glm::vec2(c.half_extents.x, c.half_extents.z);
    t.top_height = c.pose.position.y + c.half_extents.y - props.floor_height;
    props.table = t;
  }
  return props;
}

SceneInfo describe(const Scene& scene, const World& world) {
  SceneInfo info;
  info.name = scene.name;
  info.solver = integrator_kind_name(scene.world.integrator);
  info.tick_hz = scene.world.tick_hz;
  info.threads = scene.world.solver.mg_threads;
  info.vertices = world.model().vertex_count();
  info.props = props_from_colliders(scene);
  info.hand_start = scene.hand_start;
  info.stage = scene.stage;
  info.tracker_roles = scene.tracker_roles;
  info.grasp_radius = scene.grasp_radius;
  info.scripted_demo = scene.scripted_demo;
  info.strain_limit = world.config().interaction.strain.enabled ? world.config().interaction.strain.max_strain : 0.f;
  // The scripted demo takes the two cloth vertices nearest the low corners on the camera's (+z) side.
  glm::vec3 lo(INFINITY), hi(-INFINITY);
  const auto& rest = world.model().rest_position;
  for (const glm::vec3& p : rest) lo = glm::min(lo, p), hi = glm::max(hi, p);
  auto nearest = [&](const glm::vec3& q) {
    uint32_t best = 0;
    for (uint32_t i = 1; i < rest.size(); ++i)
      if (glm::distance(rest[i], q) < glm::distance(rest[best], q)) best = i;
    return best;
  };
  info.near_corners = {nearest({lo.x, lo.y, hi.z}), nearest({hi.x, lo.y, hi.z})};
  info.near_corner_rest = {rest[info.near_corners[0]], rest[info.near_corners[1]]};
  info.camera.target = 0.5f * (lo + hi);
  info.camera.distance = std::max(1.2f, 2.4f * glm::length(hi - lo));
  info.camera.pitch = 0.35f;
  info.camera.yaw = 0.35f;
  return info;
}

}  // namespace

uint64_t scene_file_hash(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SceneError(path, "/", "cannot open the file");
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return fnv1a(bytes.data(), bytes.size());
}

Scene builtin_table_scene() {
  Scene s;
  s.name = "table (built-in)";
  const TableProp table;  // the renderer's default table: 1.4 x 0.9 m top at 0.75 m
  const float size = 0.8f, top = table.top_height;
  GridSpec grid;
  grid.width = grid.height = size;
  grid.columns = grid.rows = 24;
  s.mesh = make_grid(grid);
  // Grid plane z = 0 (normal +z) -> horizontal (normal +y), 1 cm above the table, centred; grid row 0 ends
  // up on the +z side, nearest the default camera.
  glm::mat4 place = glm::translate(glm::mat4(1.f), glm::vec3(-0.5f * size, top + 0.01f, 0.5f * size));
  place = glm::rotate(place, glm::radians(-90.f), glm::vec3(1.f, 0.f, 0.f));
  transform_mesh(s.mesh, place);
  Collider floor;
  floor.shape = ColliderShape::Plane;
  s.colliders.push_back(floor);
  Collider box;
  box.shape = ColliderShape::Box;
  box.pose.position = glm::vec3(table.center_xz.x, 0.5f * top, table.center_xz.y);
  box.half_extents = glm::vec3(0.5f * table.size_xz.x, 0.5f * top, 0.5f * table.size_xz.y);
  s.colliders.push_back(box);
  s.hand_start[0].position = {-0.3f, top + 0.2f, 0.45f};
  s.hand_start[1].position = {0.3f, top + 0.2f, 0.45f};
  s.stage.position = {0.f, 0.f, 0.95f};  // XR: the user stands 0.5 m from the cloth's near edge, facing -z
  return s;
}

namespace {
void apply_threads(Scene& scene, int threads) {
  if (threads == 0) return;
  if (threads != 1 && threads != 2)
    throw std::invalid_argument("--threads " + std::to_string(threads) + ": the solver runs on 1 or 2 threads");
  scene.world.solver.mg_threads = threads;
}
}  // namespace

void apply_runtime_overrides(Scene& scene, const std::string& origin, const std::string& solver, double tick_hz,
                             const std::string& material, int threads) {
  if (!material.empty()) {
    const float angle = scene.material.weave.angle_deg;  // the scene's weave orientation stays
    scene.material = load_material_preset(material);
    scene.material.weave.angle_deg = angle;
    if (!scene.creases.empty() && scene.material.stretch_model != StretchModel::WeftWarp)
      throw std::invalid_argument(origin + ": /cloth/creases: crease lines need a weft_warp material; --material " +
                                  material + " is not one");
  }
  if (!solver.empty()) scene.world.integrator = parse_integrator_kind(solver);
  if (tick_hz > 0) {
    if (!(tick_hz >= 60 && tick_hz <= 2000))
      throw std::invalid_argument("tick rate " + std::to_string(tick_hz) + " Hz is outside 60 to 2000 Hz");
    scene.world.tick_hz = tick_hz;
  }
  apply_threads(scene, threads);
}

Scene load_runtime_scene(const std::string& file, const std::string& solver, double tick_hz,
                         const std::string& material, int threads) {
  Scene scene = file.empty() ? builtin_table_scene() : load_scene(file);
  apply_runtime_overrides(scene, file.empty() ? std::string(kBuiltinName) : file, solver, tick_hz, material, threads);
  return scene;
}

// The producer's side of the one input seam: poses to the mailbox as they are (their own timestamps),
// everything else as events stamped with the tick they apply at. Nothing is checked here: the sim thread
// checks and counts (engine/sim_thread.h).
class Runtime::Input final : public InputSink {
 public:
  explicit Input(Runtime& rt) : rt_(rt) {}
  void submit_pose(const PoseSample& sample) override { rt_.sim_->push_pose(sample); }
  void grab(Hand hand, const Pose& pose, float radius) override {
    SimEvent e = event(SimEventKind::Grab);
    e.hand = hand;
    e.pose = pose;
    e.radius = radius;
    rt_.sim_->push_event(e);
  }
  void release(Hand hand) override {
    SimEvent e = event(SimEventKind::Release);
    e.hand = hand;
    rt_.sim_->push_event(e);
  }
  void attach(Device device, const Pose& pose, float radius) override {
    SimEvent e = event(SimEventKind::Attach, device);
    e.pose = pose;
    e.radius = radius;
    rt_.sim_->push_event(e);
  }
  void detach(Device device) override { rt_.sim_->push_event(event(SimEventKind::Detach, device)); }
  void reset() override { rt_.sim_->push_event(event(SimEventKind::Reset)); }
  void reset_device(Device device) override { rt_.sim_->push_event(event(SimEventKind::ResetDevice, device)); }
  void tool(const ToolAction& action) override {
    SimEvent e = event(action.kind == ToolActionKind::Sew ? SimEventKind::Sew : SimEventKind::Edit);
    e.tool = action;
    rt_.sim_->push_event(e);
  }

 private:
  SimEvent event(SimEventKind kind, Device device = Device::Tracker0) const {
    SimEvent e;
    e.tick = event_tick();
    e.kind = kind;
    e.device = device;
    return e;
  }
  // Lockstep: the tick being fed. Live: the first boundary at or after now (a later one if the sim is
  // already past it: then it applies at once and counts late).
  uint64_t event_tick() const {
    if (rt_.options_.lockstep) return rt_.fed_;
    return std::max(tick_at_time(rt_.clock_now(), rt_.info_.tick_hz), rt_.sim_->ticks());
  }
  Runtime& rt_;
};

Scene hanging_grid_scene(uint32_t quads) {
  Scene s;
  s.name = "hanging grid " + std::to_string(quads);
  GridSpec spec;
  spec.columns = spec.rows = quads;
  s.mesh = make_grid(spec);
  glm::mat4 m = glm::translate(glm::mat4(1.f), glm::vec3(-0.5f, 1.5f, 0.f));
  m = glm::rotate(m, glm::radians(80.f), glm::vec3(1.f, 0.f, 0.f));
  m = glm::translate(m, glm::vec3(0.f, -1.f, 0.f));  // top edge (y = 1) at the pivot
  transform_mesh(s.mesh, m);
  const uint32_t top = quads * (quads + 1);
  s.pins = {top, top + quads};
  return s;
}

Runtime::Runtime(const RuntimeOptions& options) : options_(options) {
  const std::string& file = options.scene_file;
  init(load_runtime_scene(file, options.solver, options.tick_hz, options.material, options.threads),
       file.empty() ? fnv1a(kBuiltinName, std::char_traits<char>::length(kBuiltinName)) : scene_file_hash(file),
       file.empty() ? std::string(kBuiltinName) : file);
  info_.file = file;
  if (file.empty()) {  // the built-in table's own framing: closer, from higher up
    info_.camera.target = glm::vec3(0.f, TableProp{}.top_height + 0.1f, 0.f);
    info_.camera.distance = 2.1f;
    info_.camera.pitch = 0.45f;
  }
}

Runtime::Runtime(const RuntimeOptions& options, Scene scene, const std::string& label) : options_(options) {
  apply_runtime_overrides(scene, label, options.solver, options.tick_hz, options.material, options.threads);
  init(std::move(scene), fnv1a(label.data(), label.size()), label);
}

void Runtime::init(Scene scene, uint64_t content_hash, const std::string& origin) {
  // The device that steps it (gpu/step_device.h): `gpu` refuses here, naming the feature, what it cannot run.
  if (!options_.device.empty()) scene.world.device = parse_step_device(options_.device);
  const StepDeviceChoice device = choose_step_device(scene, options_.gpu_validation);
  if (!device.warning.empty()) std::fprintf(stderr, "weft: warning: %s\n", device.warning.c_str());
  use_step_device(device, scene.world);
  World world = build_world(scene);
  // What `weft mesh --check` sees, counted the same way (the same function), once at load.
  const MeshCheckReport check = check_mesh(scene.mesh);
  if (check.total() > 0) {
    std::string counts;
    for (const MeshIssue& i : check.issues)
      if (i.count > 0) counts += (counts.empty() ? "" : ", ") + std::to_string(i.count) + " " + i.kind;
    const std::string how = scene.mesh_file.empty() ? "its mesh is generated: `weft mesh --out` writes one to check"
                                                    : "`weft mesh --check " + scene.mesh_file + "` lists them";
    std::fprintf(stderr, "weft: warning: %s: the cloth mesh has %s (as `weft mesh --check` counts them; %s)\n",
                 origin.c_str(), counts.c_str(), how.c_str());
  }
  // The overlaps lie flat on each other: no crossing test sees them, so they are handed to the untangling.
  world.add_overlapping_pairs(check.overlapping_pairs);
  if (const SelfCollision* sc = world.self_collision(); sc && sc->tangled_at_scan() > 0)  // once, at load
    std::fprintf(stderr,
                 "weft: warning: scene '%s' starts with %llu pairs of cloth triangles crossing or lying on each "
                 "other; self-collision leaves them out and draws them apart\n",
                 scene.name.c_str(), (unsigned long long)sc->tangled_at_scan());
  {
    ClothSnapshot probe;  // what the renderer will be given of the colliders (no vertex arrays)
    fill_solids(world, probe);
    if (probe.solids_left_out > 0)
      std::fprintf(stderr, "weft: warning: scene '%s' has %u colliders and rigid boxes; the first %zu are drawn\n",
                   scene.name.c_str(), probe.solid_count + probe.solids_left_out, ClothSnapshot::kMaxSolids);
  }
  info_ = describe(scene, world);
  info_.device = device.gpu ? "gpu" : "cpu";
  info_.device_name = device.device_name;
  info_.device_reason = device.reason;
  info_.content_hash = content_hash;
  for (const MeshIssue& i : check.issues) info_.mesh_check.emplace_back(i.kind, i.count);
  const RuntimeOptions& options = options_;
  SimThreadConfig config;
  config.tick_hz = scene.world.tick_hz;
  config.lockstep = config.free_wheel = options.lockstep;
  config.priority = options.lockstep ? SimPriority::Normal : options.priority;
  config.condition_poses = options.condition_poses;
  config.conditioning = options.conditioning;
  config.input_log_capacity = options.record ? 1u << 16 : 0;
  config.debug_tick_sleep_ms = options.debug_tick_sleep_ms;
  config.tick_hook = options.tick_hook;
  sim_ = std::make_unique<SimThread>(std::move(world), config);
  input_ = std::make_unique<Input>(*this);
}

Runtime::~Runtime() { sim_->stop(); }

InputSink& Runtime::input() { return *input_; }

void Runtime::begin_tick(uint64_t k) {
  if (!options_.lockstep) throw std::logic_error("begin_tick: the runtime is not in lockstep");
  fed_ = k;
  sim_->wait_published(k);
}

void Runtime::end_tick(uint64_t k) {
  fed_ = k + 1;
  sim_->set_input_horizon(fed_);
}

void Runtime::run_to(uint64_t k) {
  if (k > fed_) {
    fed_ = k;
    sim_->set_input_horizon(k);
  }
  sim_->wait_published(k);
}

size_t Runtime::drain_input_log(PoseStreamWriter& writer) {
  SpscQueue<StreamRecord>* log = sim_->input_log();
  if (!log) return 0;
  size_t n = 0;
  StreamRecord r;
  while (log->try_pop(r)) writer.write(r), ++n;
  return n;
}

PoseStreamHeader Runtime::stream_header(const std::string& source) const {
  PoseStreamHeader h;
  h.scene = info_.name;
  h.scene_file = info_.file;
  h.scene_hash = info_.content_hash;
  h.solver = info_.solver;
  h.threads = info_.threads;
  if (info_.device == "gpu") h.device = "gpu";
  h.tick_hz = info_.tick_hz;
  h.source = source;
  return h;
}

}  // namespace weft
