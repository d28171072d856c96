#include "sim/solve_team.h"

#include <chrono>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define WEFT_PAUSE() _mm_pause()
#else
#define WEFT_PAUSE() std::this_thread::yield()
#endif

namespace weft {
namespace {

using Clock = std::chrono::steady_clock;

// Spins until done(), for at most spin_for: whether it came.
template <class Done>
bool spin_for(Done done, std::chrono::microseconds spin_for) {
  const auto until = Clock::now() + spin_for;
  for (uint32_t k = 0; !done(); ++k) {
    WEFT_PAUSE();
    if ((k & 63) == 63 && Clock::now() > until) return done();
  }
  return true;
}

// Phases are microseconds long.
constexpr std::chrono::microseconds kBarrierSpin{50};
// Jobs of one solve follow each other within microseconds; between ticks the helper sleeps.
constexpr std::chrono::microseconds kIdleSpin{100};

}  // namespace

SolveTeam::SolveTeam(bool helper) {
  if (helper) helper_ = std::thread([this] { helper_loop(); });
}

SolveTeam::~SolveTeam() {
  if (!has_helper()) return;
  stop_.store(true);
  job_seq_.fetch_add(1);
  job_seq_.notify_one();
  helper_.join();
}

void SolveTeam::barrier() {
  const uint32_t gen = generation_.load(std::memory_order_acquire);
  if (arrived_.fetch_add(1, std::memory_order_acq_rel) == kParts - 1) {
    arrived_.store(0, std::memory_order_relaxed);  // seen before the new generation by the other part
    generation_.store(gen + 1, std::memory_order_release);
    return;
  }
  auto passed = [&] { return generation_.load(std::memory_order_acquire) != gen; };
  // The partner is most likely off its core: spinning on would only delay it.
  if (!spin_for(passed, kBarrierSpin))
    while (!passed()) std::this_thread::yield();
}

void SolveTeam::dispatch(Call call, void* context, int phases) {
  call_ = call;
  context_ = context;
  phases_ = phases;
  job_seq_.fetch_add(1);  // seq_cst, against the helper's sleeping_ store and job_seq_ load
  if (sleeping_.load()) job_seq_.notify_one();
  for (int phase = 0; phase < phases; ++phase) {
    call(context, 0, phase);
    barrier();
  }
}

void SolveTeam::helper_loop() {
  uint32_t seen = 0;
  for (;;) {
    if (!spin_for([&] { return job_seq_.load(std::memory_order_acquire) != seen; }, kIdleSpin)) {
      while (job_seq_.load() == seen) {  // sleep until the next job (dispatch wakes a sleeping helper)
        sleeping_.store(true);
        if (job_seq_.load() == seen) job_seq_.wait(seen);
        sleeping_.store(false);
      }
    }
    seen = job_seq_.load(std::memory_order_acquire);
    if (stop_.load()) return;
    // Copied now: after the last barrier the caller may already be posting the next job.
    const Call call = call_;
    void* const context = context_;
    const int phases = phases_;
    for (int phase = 0; phase < phases; ++phase) {
      call(context, 1, phase);
      barrier();
    }
  }
}

}  // namespace weft
