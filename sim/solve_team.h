#pragma once
// Two parts of a solve run side by side: the caller's thread takes part 0 and, when the team has one, a
// helper thread part 1. A job is a sequence of phases; both parts finish a phase before either starts
// the next (a barrier), so a phase may read what the other part wrote in an earlier one. Without a
// helper the caller runs each phase for part 0 then part 1, so a job whose parts never read what the
// other writes within a phase gives the same bits with or without the helper (the multigrid's regions:
// each reads the other's values from ghost slots written in an earlier phase).
//
// Hand-overs are frequent and short (a V-cycle phase of a 16 k-vertex region is tens of microseconds),
// so the threads spin on an atomic (about 0.2 us a hand-over on the 2-core test VM) and only after a
// while yield, and the helper sleeps between jobs, so an oversubscribed machine (tests in parallel, a
// CPU renderer) is not starved.
#include <atomic>
#include <cstdint>
#include <thread>

namespace weft {

class SolveTeam {
 public:
  static constexpr int kParts = 2;

  explicit SolveTeam(bool helper);
  ~SolveTeam();
  SolveTeam(const SolveTeam&) = delete;
  SolveTeam& operator=(const SolveTeam&) = delete;

  bool has_helper() const { return helper_.joinable(); }

  // job(part, phase) for every phase in order, each part of a phase before the next phase starts.
  // Returns when every phase is done. Not reentrant.
  template <class Job>
  void run(int phases, Job&& job) {
    if (phases <= 0) return;  // (a dispatch without a barrier could be overwritten while the helper reads it)
    if (!has_helper()) {
      for (int phase = 0; phase < phases; ++phase)
        for (int part = 0; part < kParts; ++part) job(part, phase);
      return;
    }
    auto call = [](void* context, int part, int phase) { (*static_cast<Job*>(context))(part, phase); };
    dispatch(call, &job, phases);
  }

 private:
  using Call = void (*)(void* context, int part, int phase);
  void dispatch(Call call, void* context, int phases);
  void helper_loop();
  void barrier();

  // The posted job (written before job_seq_ is bumped, read after the helper sees the bump).
  Call call_ = nullptr;
  void* context_ = nullptr;
  int phases_ = 0;
  alignas(64) std::atomic<uint32_t> job_seq_{0};
  alignas(64) std::atomic<uint32_t> arrived_{0};
  alignas(64) std::atomic<uint32_t> generation_{0};
  std::atomic<bool> sleeping_{false};
  std::atomic<bool> stop_{false};
  std::thread helper_;
};

}  // namespace weft
