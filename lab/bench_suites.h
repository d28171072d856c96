#pragma once
// `weft bench` suites. Each times its own scenario and returns a JSON object of results; progress goes
// to stderr. bench_command.cpp runs the selected suites and prints them.
#include <string>

#include <nlohmann/json.hpp>

namespace weft::lab {

struct BenchOptions {
  bool quick = false;     // smaller meshes and fewer steps (used by tests)
  int steps = 0;          // steps per timing run (0: the suite's default)
  std::string solver;     // interaction suite: time only this solver (at 16k and 64k); empty: mg, approx and cg;
                          // self-collision fold: cg or mg (empty: both)
  std::string material;   // interaction suite: a fabric preset (engine/material_loader.h); empty: the default
  bool only_16k = false;  // interaction suite: skip the 64k-vertex run (quicker back-to-back comparisons)
  std::string self_collision_case = "all";  // self-collision suite: all | crumple | fold | folded-over
  bool trace = false;     // self-collision suite: one stderr line per step (its stats)
  bool carry_contacts = false;  // self-collision suite: SelfCollisionConfig::carry_contacts on
  int threads = 1;        // interaction and self-collision suites: SolverOptions::mg_threads (issue 14 times one core)
};

nlohmann::json bench_solvers(const BenchOptions& options);         // lab/bench_solvers.cpp (issue 2)
nlohmann::json bench_interaction(const BenchOptions& options);     // lab/bench_interaction.cpp (issue 3)
nlohmann::json bench_self_collision(const BenchOptions& options);  // lab/bench_self_collision.cpp (issue 8)

}  // namespace weft::lab
