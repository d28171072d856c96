#pragma once
// `weft stress` (issue 7): scripted scenarios x noise levels x seeds, each run on the full pose path
// (90 Hz device samples -> noise -> conditioning -> World at 240 Hz), measured against the same run
// without noise. Definitions of every metric and the bounds: docs/stress.md.
#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "engine/snapshot.h"

namespace weft::lab {

// Pass/fail bounds of one run (docs/stress.md).
struct StressBounds {
  uint64_t nan_count = 0;             // ticks with a non-finite position or velocity: none allowed
  double strain_margin = 0.05;        // max edge strain l/l0 - 1 <= max(strain limit, noise-free run's) + this
  double max_vertex_speed = 10.0;     // m/s: elastic speed cap (6) + free fall from 1 m (4.4), rounded down
  double kinetic_energy_factor = 2.0; // peak kinetic energy <= factor x the noise-free run's + kinetic_energy_slack
  double kinetic_energy_slack = 0.05; // J
  double recovery_s = 0.25;           // s until deviation is back within deviation_m after a spike sample
  double deviation_m = 0.05;          // while driven: held-patch centre and cloth centre vs the noise-free run
  double rest_error_m = 0.05;         // 2 s after release: rest centre and bounding-box extent vs the noise-free run
};

struct StressRun {
  std::string scenario, noise;
  uint64_t seed = 0;
  uint64_t nan_count = 0;
  double max_strain = 0, max_vertex_speed = 0, peak_kinetic_energy = 0;
  double recovery_s = 0, deviation_m = 0, rest_error_m = 0;
  double centre_deviation_m = 0;      // the cloth's centre of mass vs the noise-free run while driven (not bounded)
  uint64_t spikes = 0, samples = 0, rejected_conditioning = 0, rejected_world = 0;
  uint64_t input_gaps = 0;            // tracking gaps (3+ samples of a device lost or rejected in a row)
  uint64_t state_hash = 0;            // World::state_hash at the end: same scene and input stream, same hash
  // The stream metrics (edge strain max and p99, peak kinetic energy and vertex speed) and input counters
  // (grabs, poses applied and rejected) under the keys replay and run use (app/run_summary stream_summary).
  TickStats stream;
  bool pass = true;
  std::string failed;                 // which bounds broke, comma separated
  // per tick (seed 0 only, for the plots)
  std::vector<float> kinetic_energy, strain, deviation;
};

struct StressOptions {
  std::vector<std::string> scenarios;  // empty: all
  std::vector<std::string> noises;     // empty: all (engine/pose_noise.h noise_profile_names)
  int seeds = 2;
  uint32_t quads = 20;                 // cloth grid quads per side
  bool conditioning = true;            // input conditioning on (off: only the World's own checks)
  std::string device;                  // cpu | gpu | auto ("": cpu; the scenarios' floor makes gpu refuse them today)
  bool one_euro = true;                // One Euro filter in the conditioning
  bool keep_series = true;
  double recovery_deviation_m = 0.05;  // recovery_s: back within this deviation (StressBounds::deviation_m)
  double recovery_s = 0.25;            // after a tracking gap, this long is recovery, not deviation (StressBounds)
};

const std::vector<std::string>& stress_scenario_names();  // two_hand, tracker_circle, hand_sweep

// Runs one scenario with one noise profile and seed; `baseline` (the same scenario without noise, or
// null for that run itself) gives the deviation metrics.
struct StressBaseline;
StressRun run_stress_case(const std::string& scenario, const std::string& noise, uint64_t seed,
                          const StressOptions& options, StressBaseline* record_baseline,
                          const StressBaseline* baseline);

struct StressBaseline {
  double tick_h = 0;
  std::vector<glm::dvec3> com;   // the cloth's centre of mass per tick (nticks), m
  std::vector<glm::dvec3> held;  // centre of the driven patch per tick (nticks; 0 when none), m
  glm::dvec3 rest_com{0.0}, rest_extent{0.0};  // centre and bounding-box size at the end, m
  size_t nvert = 0;
  double peak_kinetic_energy = 0;
  double max_strain = 0;
  double strain_limit = 0;       // the World's strain limit
};

// The whole matrix; progress on stderr.
std::vector<StressRun> run_stress_matrix(const StressOptions& options, const StressBounds& bounds);
void check_bounds(StressRun& run, const StressBounds& bounds, const StressBaseline& baseline);

// One PNG per scenario: kinetic energy (top) and max strain (bottom) over time, one line per noise level.
void write_stress_plot(const std::string& path, const std::vector<const StressRun*>& runs, double tick_h);
// The colour of noise level k in the plots (RGB).
void stress_plot_colour(size_t k, uint8_t rgb[3]);

}  // namespace weft::lab
