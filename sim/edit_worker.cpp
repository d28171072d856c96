// The edit worker's thread and queue (sim/edit_worker.h).
#include "sim/edit_worker.h"

#include <chrono>

#include "sim/wall_time.h"

namespace weft {

EditWorker::~EditWorker() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void EditWorker::submit(std::unique_ptr<EditJob> job) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    jobs_.push_back(std::move(job));
  }
  if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
  wake_.notify_all();
}

std::unique_ptr<EditJob> EditWorker::take_front() {
  std::unique_lock<std::mutex> lock(mutex_);
  built_.wait(lock, [&] { return jobs_.front()->done; });
  std::unique_ptr<EditJob> job = std::move(jobs_.front());
  jobs_.pop_front();
  return job;
}

void EditWorker::retire(std::unique_ptr<EditJob> job) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    retired_.push_back(std::move(job));
  }
  wake_.notify_all();
}

void EditWorker::forget_base() {
  std::lock_guard<std::mutex> lock(mutex_);
  base_.reset();
  origins_.clear();
}

void EditWorker::run() {
  for (;;) {
    EditJob* job = nullptr;
    std::vector<std::unique_ptr<EditJob>> retired;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      // The first job not built (the sim thread pops only built ones, so the pointer stays valid), or
      // landed ones to free.
      wake_.wait(lock, [&] {
        if (stop_ || !retired_.empty()) return true;
        for (const auto& j : jobs_)
          if (!j->done) return (job = j.get()) != nullptr;
        return false;
      });
      if (stop_) return;
      retired.swap(retired_);
    }
    retired.clear();  // freed here, not on the sim thread
    if (!job) continue;
    build(*job);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job->done = true;
    }
    built_.notify_all();
  }
}

void EditWorker::build(EditJob& job) {
  if (delay_ms > 0) std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(delay_ms));
  const auto t0 = WallClock::now();
  if (!base_) {  // nothing queued before this job: the world's model is the one it applies to, and stays so
    base_ = std::make_unique<Base>();
    base_->cloth = *job.world.cloth;
    base_->rest_scale = *job.world.rest_scale;
    base_->pins = *job.world.pins;
    base_->self = job.world.leaf_order != nullptr;
    if (base_->self) base_->leaf_order = *job.world.leaf_order;
    base_->generation = job.generation;
    origins_.clear();
  }
  // The positions came in the topology of generation job.generation: carried through every build applied
  // since (each new vertex where its origin's old ones are: the lips' parting at landing does not matter).
  while (!origins_.empty() && origins_.front().first <= job.generation) origins_.pop_front();
  std::vector<glm::vec3> carried;
  for (const auto& [generation, origin] : origins_) {
    carried.resize(origin.size());
    for (size_t i = 0; i < origin.size(); ++i)
      carried[i] = glm::mix(job.x[origin[i].a], job.x[origin[i].b], origin[i].t);
    job.x.swap(carried);
  }
  const EditBase base{&base_->cloth, &base_->rest_scale, &base_->pins, base_->self ? &base_->leaf_order : nullptr};
  try {
    build_edit(job.edit, base, job.config, job.x.data(), true, job.build);
  } catch (...) {  // (the hierarchy's build: out of memory) refused, not thrown on a thread
    job.build = EditBuild{};
    job.build.report.refused = "the edited cloth's structures could not be built";
  }
  if (job.build.report.applied) {  // the next job applies to this one's result
    base_->cloth = job.build.cloth;
    base_->rest_scale = job.build.rest_scale;
    base_->pins = job.build.pins;
    if (base_->self) base_->leaf_order = job.build.self->leaf_order();
    ++base_->generation;
    origins_.emplace_back(base_->generation, job.build.me.origin);
  }
  job.worker_ms = ms_between(t0, WallClock::now());
}

}  // namespace weft
