#include "lab/stress.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include <glm/gtc/matrix_transform.hpp>

#include "engine/pose_conditioner.h"
#include "engine/pose_noise.h"
#include "engine/runtime.h"
#include "engine/stream_metrics.h"
#include "lab/scenarios.h"
#include "sim/mesh_generators.h"
#include "sim/strain_limit.h"
#include "sim/world.h"

namespace weft::lab {
namespace {

constexpr double kDeviceHz = 90;       // tracking rate; the sim ticks at 240 Hz
constexpr double kSettle = 2.0;        // s simulated after the release, for rest_error_m
constexpr float kClothSize = 0.6f;     // m
constexpr double kGapSamples = 3;      // this many device samples missing in a row is a tracking gap

enum class Kind { TwoHand, TrackerCircle, HandSweep };

Kind kind_of(const std::string& name) {
  if (name == "two_hand") return Kind::TwoHand;
  if (name == "tracker_circle") return Kind::TrackerCircle;
  if (name == "hand_sweep") return Kind::HandSweep;
  throw std::invalid_argument("unknown stress scenario '" + name + "' (two_hand, tracker_circle, hand_sweep)");
}

float ease(double t0, double t1, double t) {
  const float s = float(std::clamp((t - t0) / (t1 - t0), 0.0, 1.0));
  return s * s * (3.f - 2.f * s);
}

// One scenario's scene and script: where each device truly is at time t, and when it takes or lets go.
struct Rig {
  Kind kind;
  Scene scene;  // what the runtime builds its world from
  glm::vec3 corner[2]{};
  std::vector<Device> devices;
  double grab_time = 0, release_time = 0;
  bool grabbed = false, released = false;
  std::vector<uint32_t> pushed;  // hand sweep: the vertices in the hand's path (its driven patch)

  double duration() const { return release_time + kSettle; }
  // End of the time the devices drive the cloth: the release; for the sweep the turn of the hand (on the
  // way back the hand withdraws faster than the cloth swings after it: the patch swings free).
  double drive_end() const { return kind == Kind::HandSweep ? 1.0 : release_time; }

  // Centre of the driven patch: the vertices the devices hold right now, or for the sweep (which holds
  // nothing) the patch in the hand's path; 0 when none.
  glm::dvec3 driven_centre(const World& world) const {
    glm::dvec3 c(0.0);
    size_t m = 0;
    for (uint32_t i : pushed) c += glm::dvec3(world.state().position[i]), ++m;
    for (Device d : devices)
      for (uint32_t i : world.held_vertices(d).vertex) c += glm::dvec3(world.state().position[i]), ++m;
    return m ? c / double(m) : c;
  }

  glm::vec3 true_position(Device d, double t) const {
    switch (kind) {
      case Kind::TwoHand: {
        const int k = d == Device::LeftHand ? 0 : 1;
        const float side = k == 0 ? -1.f : 1.f;
        glm::vec3 p = corner[k] + glm::vec3(0.f, 0.08f * (1.f - ease(0.0, grab_time, t)), 0.f);  // approach
        p += glm::vec3(0.f, 0.45f, -0.25f) * ease(grab_time, 1.3, t);                           // lift
        p += glm::vec3(side * 0.005f, 0.f, 0.f) * ease(1.3, 1.8, t);                            // pull straight
        if (t > 1.8 && t < 2.8) {                                                               // shake, 3 Hz, then hold still
          const double w = 2.0 * 3.14159265358979 * 3.0 * (t - 1.8);
          p += glm::vec3(0.f, 0.05f * float(std::sin(w)), 0.03f * float(std::sin(2.0 * w)));
        }
        // lay it down: lower to 5 cm above the floor while moving forward, so the hanging part falls flat
        // in front (dropped from hanging straight down it topples either way: docs/stress.md)
        p += glm::vec3(0.f, -0.40f, 0.35f) * ease(3.0, 4.0, t);
        return p;
      }
      case Kind::TrackerCircle: {  // circles of 10 cm radius at 1 Hz, across the cloth's plane
        const double w = 2.0 * 3.14159265358979 * std::min(t, release_time);
        return corner[0] + 0.1f * glm::vec3(0.f, 1.f - float(std::cos(w)), float(std::sin(w)));
      }
      case Kind::HandSweep: {  // pushes through the hanging cloth and back
        const float z = -0.2f + 0.32f * ease(0.0, 1.0, t) - 0.32f * ease(1.0, 2.0, t);
        return glm::vec3(0.f, 0.7f, z);
      }
    }
    return glm::vec3(0.f);
  }

  // The scripted grab, release and detach due at time t, through the runtime (the sim counts them).
  void events(double t, Runtime& runtime) {
    if (kind == Kind::TwoHand) {
      if (!grabbed && t >= grab_time) {
        grabbed = true;
        for (int k = 0; k < 2; ++k) {
          const Pose at{true_position(k == 0 ? Device::LeftHand : Device::RightHand, t), {1, 0, 0, 0}};
          runtime.input().grab(Hand(k), at, 0.04f);
        }
      }
      if (!released && t >= release_time) {
        released = true;
        runtime.input().release(Hand::Left);
        runtime.input().release(Hand::Right);
      }
    } else if (kind == Kind::TrackerCircle && !released && t >= release_time) {
      released = true;
      runtime.input().detach(Device::Tracker0);
    }
  }

};

// Cotton with air drag: without it a cloth hanging from two pins still swings 2 s after release, and
// "rest" would not be rest.
Material stress_material() {
  Material m = cotton_material();
  m.drag = 1.0f;
  return m;
}

glm::dvec3 centre_of_mass(const ClothModel& model, const ClothState& st) {
  glm::dvec3 c(0.0);
  double m = 0;
  for (size_t i = 0; i < st.position.size(); ++i) c += double(model.mass[i]) * glm::dvec3(st.position[i]), m += model.mass[i];
  return m > 0 ? c / m : c;
}

Rig make_rig(Kind kind, uint32_t quads) {
  Rig r;
  r.kind = kind;
  WorldConfig& config = r.scene.world;
  // The runtime's solver (WorldConfig's default: multigrid-preconditioned CG).
  // Elastic time constant 50 ms instead of the sim default 20 ms: only the catch-up of an offset
  // (a pose back after a dropout) is slower, following a moving target is unchanged (the v_target
  // term); at 20 ms a 10 cm catch-up drives the held patch at 4.5 m/s and whips the cloth.
  config.interaction.elastic.tau = 0.05f;
  Collider floor;  // plane y = 0
  if (kind == Kind::TwoHand) {
    Mesh mesh = make_grid({.width = kClothSize, .height = kClothSize, .columns = quads, .rows = quads});
    glm::mat4 place = glm::translate(glm::mat4(1.f), glm::vec3(-0.5f * kClothSize, 0.01f, 0.5f * kClothSize));
    place = glm::rotate(place, glm::radians(-90.f), glm::vec3(1.f, 0.f, 0.f));
    transform_mesh(mesh, place);
    r.scene.mesh = mesh;
    r.corner[0] = mesh.positions[0];
    r.corner[1] = mesh.positions[quads];
    r.devices = {Device::LeftHand, Device::RightHand};
    r.grab_time = 0.3, r.release_time = 4.0;
  } else {
    HangingCloth c = make_hanging_grid(quads, kClothSize, false);
    r.scene.mesh = c.mesh;
    r.scene.pins = c.pins;
    if (kind == Kind::TrackerCircle) {
      const uint32_t s = quads + 1;
      r.corner[0] = c.mesh.positions[0];  // bottom-left corner
      r.scene.trackers.push_back({Device::Tracker0, {0, 1, s, s + 1}, Pose{r.corner[0], {1, 0, 0, 0}}});
      r.devices = {Device::Tracker0};
      r.release_time = 3.0;
    } else {
      Collider hand;
      hand.shape = ColliderShape::Capsule;
      hand.radius = 0.04f;
      hand.half_length = 0.06f;
      hand.pose.position = r.true_position(Device::RightHand, 0.0);
      // The collider follows the hand as the World tracks it (validated, interpolated samples), with the
      // same elastic law as a grasp: a hand found again 10 cm away after a dropout moves there over tau,
      // not in one tick through the cloth. The sim moves it (sim/collider.h Collider::follows).
      hand.follows = Device::RightHand;
      hand.body = true;  // a hand: its depth in the cloth is the run's body_penetration_max_m
      r.scene.colliders.push_back(hand);
      // the cloth in front of the hand: within its radius + 2 cm across, its length + 2 cm along
      for (uint32_t i = 0; i < c.mesh.positions.size(); ++i) {
        const glm::vec3 d = c.mesh.positions[i] - hand.pose.position;
        if (std::abs(d.x) <= hand.radius + 0.02f && std::abs(d.y) <= hand.half_length + 0.02f) r.pushed.push_back(i);
      }
      r.devices = {Device::RightHand};
      r.release_time = 2.0;
      // This capsule is the hand: the default palm and forearm (sim/hand_colliders.h) would be a second one, its
      // forearm trailing along +z, ahead of the sweep and edge-on into the sheet (max strain 16 %, 7 clamps).
      r.scene.hand_colliders.enabled = false;
    }
  }
  r.scene.colliders.push_back(floor);
  r.scene.material = stress_material();
  return r;
}

// Where the cloth came to rest and how large it lies: centre of mass and bounding-box size.
void rest_shape(const ClothModel& model, const ClothState& st, glm::dvec3& com, glm::dvec3& extent) {
  com = centre_of_mass(model, st);
  glm::dvec3 lo(1e30), hi(-1e30);
  for (const glm::vec3& x : st.position) lo = glm::min(lo, glm::dvec3(x)), hi = glm::max(hi, glm::dvec3(x));
  extent = st.position.empty() ? glm::dvec3(0.0) : hi - lo;
}

bool finite_state(const ClothState& s) {
  for (size_t i = 0; i < s.position.size(); ++i) {
    const glm::vec3 &x = s.position[i], &v = s.velocity[i];
    if (!std::isfinite(x.x + x.y + x.z + v.x + v.y + v.z)) return false;
  }
  return true;
}

}  // namespace

const std::vector<std::string>& stress_scenario_names() {
  static const std::vector<std::string> names{"two_hand", "tracker_circle", "hand_sweep"};
  return names;
}

namespace {

// Everything measured after each tick, on the sim thread (TickHook::observe): the producer never reads
// the world while the sim runs.
struct TickObserver {
  const Rig* rig = nullptr;
  const StressOptions* options = nullptr;
  StressRun* run = nullptr;
  StressBaseline* record_baseline = nullptr;
  const StressBaseline* baseline = nullptr;
  std::vector<float>* deviation = nullptr;
  uint64_t drive_begin = 0, drive_end = 0, lag = 0;

  static void observe(const World& world, uint64_t ticks_done, void* context) {
    static_cast<TickObserver*>(context)->tick(world, ticks_done - 1);
  }
  void tick(const World& world, uint64_t k) {
    const ClothModel& model = world.model();
    const ClothState& st = world.state();
    if (!finite_state(st)) {
      ++run->nan_count;
      if (options->keep_series) run->kinetic_energy.push_back(0.f), run->strain.push_back(0.f);
      (*deviation)[k] = 1e9f;
      return;
    }
    double ke = 0, vmax2 = 0;
    for (size_t i = 0; i < model.vertex_count(); ++i) {
      const double v2 = glm::dot(st.velocity[i], st.velocity[i]);
      ke += 0.5 * model.mass[i] * v2;
      vmax2 = std::max(vmax2, v2);
    }
    const double strain = max_edge_strain(model, st.position.data());
    const glm::dvec3 com = centre_of_mass(model, st);
    const glm::dvec3 driven = rig->driven_centre(world);
    if (record_baseline) record_baseline->com[k] = com, record_baseline->held[k] = driven;
    // deviation only while the hands (or the tracker) drive the cloth, and of the driven patch only: the
    // free part of the cloth folds and swings chaotically (1 um of input jitter moves its centre by
    // centimetres, docs/stress.md); the centre's deviation is reported, not bounded.
    if (baseline && k < baseline->com.size() && k >= drive_begin && k < drive_end) {
      const uint64_t kb = std::max(k - std::min(k, lag), drive_begin);  // the grab is scripted, not delayed
      (*deviation)[k] = float(glm::length(driven - baseline->held[kb]));
      run->centre_deviation_m = std::max(run->centre_deviation_m, glm::length(com - baseline->com[kb]));
    }
    run->peak_kinetic_energy = std::max(run->peak_kinetic_energy, ke);
    run->max_vertex_speed = std::max(run->max_vertex_speed, std::sqrt(vmax2));
    run->max_strain = std::max(run->max_strain, strain);
    if (options->keep_series) run->kinetic_energy.push_back(float(ke)), run->strain.push_back(float(strain));
  }
};

}  // namespace

StressRun run_stress_case(const std::string& scenario, const std::string& noise_name, uint64_t seed,
                          const StressOptions& options, StressBaseline* record_baseline, const StressBaseline* baseline) {
  Rig rig = make_rig(kind_of(scenario), options.quads);
  const NoiseProfile profile = noise_profile(noise_name);
  PoseNoise noise(profile, seed);
  const double h = 1.0 / rig.scene.world.tick_hz;
  const uint64_t ticks = uint64_t(std::llround(rig.duration() / h));
  const uint64_t drive_end = uint64_t(std::llround(rig.drive_end() / h));

  StressRun run;
  run.scenario = scenario, run.noise = profile.name, run.seed = seed;
  if (options.keep_series) run.kinetic_energy.reserve(ticks), run.strain.reserve(ticks);
  if (record_baseline) {
    record_baseline->tick_h = h;
    record_baseline->nvert = rig.scene.mesh.vertex_count();
    record_baseline->com.assign(ticks, glm::dvec3(0.0));
  }
  std::vector<float> deviation(ticks, 0.f);  // while driven: driven-patch centre distance to the baseline
  std::vector<uint8_t> in_gap(ticks, 0);     // tick inside a tracking gap or the recovery time after it
  std::vector<double> spike_times;
  std::vector<std::pair<double, double>> gaps;  // (last sample before, first sample after), s
  uint64_t sample_index = 0;  // device samples at kDeviceHz, shared clock for every device
  const uint64_t drive_begin = uint64_t(std::llround(rig.grab_time / h));
  // The noisy run is compared with the noise-free one delayed by the injected latency: a tracker that
  // reports late moves the cloth late, which is the latency itself, not something noise broke.
  const uint64_t lag = uint64_t(std::llround(profile.latency_s / h));
  if (record_baseline) record_baseline->held.assign(ticks, glm::dvec3(0.0));

  // The runtime in lockstep: the scene on the sim thread, conditioning there too, measured after every tick.
  TickObserver observer{&rig, &options, &run, record_baseline, baseline, &deviation, drive_begin, drive_end, lag};
  RuntimeOptions ro;
  ro.lockstep = true;
  ro.condition_poses = options.conditioning;
  ro.device = options.device;
  // One Euro filter on (off by default in the runtime: it lags the scripted demos): without it every
  // jitter sample reaches the held vertices as velocity, the elastic follows v_target exactly.
  ro.conditioning.one_euro.enabled = options.one_euro;
  ro.tick_hook.observe = &TickObserver::observe;
  ro.tick_hook.observe_context = &observer;
  Runtime runtime(ro, rig.scene, "stress:" + scenario);
  // Which samples reach the world, for the tracking-gap bookkeeping: the sim thread conditions them, and
  // this mirror (same settings, same samples in the same order) gives the same verdicts here.
  PoseConditioner mirror(ro.conditioning);

  // Tracking gaps (kGapSamples or more samples of a device lost or rejected in a row): from the last
  // sample before to recovery_s after the first one back, where the device was is unknown to the sim;
  // these ticks count for recovery_s, not for deviation_m.
  std::vector<double> last_delivered(rig.devices.size(), 0.0);
  const double gap_s = (kGapSamples + 0.5) / kDeviceHz;
  auto mark_gap = [&](double from, double to) {
    const uint64_t k0 = uint64_t(std::max(0.0, std::floor(from / h)));
    const uint64_t k1 = std::min<uint64_t>(ticks, uint64_t(std::ceil((to + options.recovery_s) / h)));
    for (uint64_t k = k0; k < k1; ++k) in_gap[k] = 1;
    gaps.emplace_back(from, to);
    ++run.input_gaps;
  };

  runtime.start();
  for (uint64_t k = 0; k < ticks; ++k) {
    const double t = double(k) * h;
    runtime.begin_tick(k);
    for (; double(sample_index) / kDeviceHz <= t + 1e-9; ++sample_index) {
      for (size_t di = 0; di < rig.devices.size(); ++di) {
        const Device d = rig.devices[di];
        PoseSample s;
        s.time = double(sample_index) / kDeviceHz;
        s.device = d;
        s.pose.position = rig.true_position(d, s.time);
        ++run.samples;
        if (!noise.apply(s)) continue;
        if (noise.last_was_spike()) spike_times.push_back(s.time), ++run.spikes;
        runtime.input().submit_pose(s);
        PoseSample checked = s;
        const bool accepted = options.conditioning ? mirror.condition(checked) == ConditionVerdict::Accepted
                                                   : check_pose_sample(checked) == PoseRejection::Accepted;
        if (!accepted) continue;
        const double ts = double(sample_index) / kDeviceHz;
        if (ts - last_delivered[di] > gap_s) mark_gap(last_delivered[di], ts);
        last_delivered[di] = ts;
      }
    }
    rig.events(t, runtime);
    runtime.end_tick(k);
  }
  runtime.run_to(ticks);
  runtime.stop();
  const World& world = runtime.world();
  const ClothModel& model = world.model();

  glm::dvec3 rest_com, rest_extent;
  rest_shape(model, world.state(), rest_com, rest_extent);
  if (record_baseline) record_baseline->rest_com = rest_com, record_baseline->rest_extent = rest_extent;
  if (baseline) {
    const glm::dvec3 de = glm::abs(rest_extent - baseline->rest_extent);
    run.rest_error_m = std::max(glm::length(rest_com - baseline->rest_com), std::max(de.x, std::max(de.y, de.z)));
  }
  if (options.keep_series) run.deviation = deviation;
  for (size_t di = 0; di < rig.devices.size(); ++di)  // a gap still open when the drive ends
    if (rig.drive_end() - last_delivered[di] > gap_s) mark_gap(last_delivered[di], rig.drive_end());
  for (uint64_t k = 0; k < ticks; ++k)
    if (!in_gap[k]) run.deviation_m = std::max(run.deviation_m, double(deviation[k]));

  // recovery_s: after each spike sample (gated or not) and each end of a tracking gap, how long until the
  // deviation is back within the deviation bound for good (looked at over the next second, or until the
  // next gap begins: what happens in that one is its own); 0 when it never left.
  std::vector<double> events = spike_times;
  for (const auto& g : gaps) events.push_back(g.second);
  for (double ts : events) {
    const uint64_t k0 = std::min<uint64_t>(ticks - 1, uint64_t(std::max(0.0, std::floor(ts / h))));
    double until = ts + 1.0;
    for (const auto& g : gaps)
      if (g.first > ts) until = std::min(until, g.first);
    uint64_t last_above = k0;
    bool left = false;
    for (uint64_t k = k0; k < ticks && double(k) * h < until; ++k)
      if (deviation[k] > options.recovery_deviation_m) left = true, last_above = k;
    if (left) run.recovery_s = std::max(run.recovery_s, double(last_above + 1 - k0) * h);
  }
  run.state_hash = world.state_hash();
  run.stream = runtime.stats();
  run.rejected_conditioning = run.stream.poses_conditioned_out;
  run.rejected_world = run.stream.poses_invalid;
  if (record_baseline) {
    record_baseline->peak_kinetic_energy = run.peak_kinetic_energy, record_baseline->max_strain = run.max_strain;
    record_baseline->strain_limit = world.config().interaction.strain.max_strain;
  }
  return run;
}

void check_bounds(StressRun& r, const StressBounds& b, const StressBaseline& base) {
  std::string failed;
  auto check = [&](bool ok, const char* what) {
    if (ok) return;
    if (!failed.empty()) failed += ',';
    failed += what;
  };
  check(r.nan_count <= b.nan_count, "nan_count");
  check(r.max_strain <= std::max(base.strain_limit, base.max_strain) + b.strain_margin, "max_strain");
  check(r.max_vertex_speed <= b.max_vertex_speed, "max_vertex_speed");
  check(r.peak_kinetic_energy <= b.kinetic_energy_factor * base.peak_kinetic_energy + b.kinetic_energy_slack,
        "peak_kinetic_energy");
  check(r.recovery_s <= b.recovery_s, "recovery_s");
  check(r.deviation_m <= b.deviation_m, "deviation_m");
  check(r.rest_error_m <= b.rest_error_m, "rest_error_m");
  r.failed = failed;
  r.pass = failed.empty();
}

std::vector<StressRun> run_stress_matrix(const StressOptions& options, const StressBounds& bounds) {
  const std::vector<std::string>& scenarios = options.scenarios.empty() ? stress_scenario_names() : options.scenarios;
  std::vector<std::string> noises = options.noises.empty() ? noise_profile_names() : options.noises;
  std::erase(noises, std::string("none"));
  const size_t total = scenarios.size() * (1 + noises.size() * size_t(std::max(options.seeds, 1)));
  std::vector<StressRun> runs;
  const auto t0 = std::chrono::steady_clock::now();
  auto progress = [&](const StressRun& r) {
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::fprintf(stderr, "weft stress: [%zu/%zu] %-14s %-9s seed %llu  %s%s%s  (%.1f s)\n", runs.size(), total,
                 r.scenario.c_str(), r.noise.c_str(), (unsigned long long)r.seed, r.pass ? "pass" : "FAIL",
                 r.pass ? "" : ": ", r.failed.c_str(), wall);
  };
  for (const std::string& sc : scenarios) {
    StressBaseline baseline;
    StressOptions o = options;
    o.recovery_deviation_m = bounds.deviation_m;
    o.recovery_s = bounds.recovery_s;
    StressRun clean = run_stress_case(sc, "none", 0, o, &baseline, nullptr);
    check_bounds(clean, bounds, baseline);
    runs.push_back(std::move(clean));
    progress(runs.back());
    for (const std::string& nz : noises)
      for (int s = 0; s < std::max(options.seeds, 1); ++s) {
        o.keep_series = options.keep_series && s == 0;
        StressRun r = run_stress_case(sc, nz, uint64_t(s), o, nullptr, &baseline);
        check_bounds(r, bounds, baseline);
        runs.push_back(std::move(r));
        progress(runs.back());
      }
  }
  return runs;
}

}  // namespace weft::lab
