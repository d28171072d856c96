#pragma once
// The edit worker: builds the cloth models of queued cuts and removals (sim/edit_build.h) on its own
// thread while the world steps on, so that the tick on which an edit lands only carries the state over
// (World::queue_edit). Edits are built in the order they came, each on the model the one before left
// (a stroke's segments chain without waiting); the positions an edit was given in an older topology are
// carried through the edits in between. What it builds depends only on the edits, the positions and the
// models, never on timing: the world takes a build at a fixed step, waiting for it if it is late.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <glm/glm.hpp>

#include "sim/edit_build.h"

namespace weft {

struct EditJob {
  ClothEdit edit;
  uint64_t due_step = 0;        // lands after the step that brings the world's step_count to this
  uint64_t generation = 0;      // the world's topology generation its positions are in
  std::vector<glm::vec3> x;     // the cloth's positions when the edit came
  WorldConfig config;           // the world's (the integrator, self-collision and tether settings)
  EditBase world;               // the world's model when it came (read only if the worker has no base)
  EditBuild build;              // the worker's result
  double worker_ms = 0;         // the worker's wall time for it, copies of its own base included
  bool done = false;            // (under the worker's mutex)
};

class EditWorker {
 public:
  EditWorker() = default;
  ~EditWorker();  // joins the thread; builds not taken are dropped
  EditWorker(const EditWorker&) = delete;
  EditWorker& operator=(const EditWorker&) = delete;

  // Queues a build. job.world is the world's model as it is now: read (copied) by the worker only when it
  // holds no base of its own, which is only while nothing is queued before this job (the world's model
  // then cannot change before this job lands); job.generation: the world's topology generation now.
  void submit(std::unique_ptr<EditJob> job);
  // Sim thread only (it alone pushes and pops).
  bool empty() const { return jobs_.empty(); }
  size_t size() const { return jobs_.size(); }
  uint64_t front_due() const { return jobs_.front()->due_step; }
  // The oldest job, once built (waits for it).
  std::unique_ptr<EditJob> take_front();
  // The world's model changed outside the worker (a synchronous edit, a scaling): its own copy is stale.
  // Only with nothing queued.
  void forget_base();
  // A landed job, with what its landing replaced (EditBuild::retired): freed on the worker's thread.
  void retire(std::unique_ptr<EditJob> job);
  double delay_ms = 0;  // tests: slept before each build (set while nothing is queued)

 private:
  void run();
  void build(EditJob& job);

  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_, built_;
  std::deque<std::unique_ptr<EditJob>> jobs_;  // oldest first; the worker builds the first not done
  std::vector<std::unique_ptr<EditJob>> retired_;  // landed, to free
  bool stop_ = false;

  // The worker's own: the model after every applied build so far (null: take the world's), its generation,
  // and the vertex origins of the last builds, to carry a job's positions from an older topology.
  struct Base {
    ClothModel cloth;
    std::vector<float> rest_scale;
    ElasticSet pins;
    std::vector<uint32_t> leaf_order;
    bool self = false;
    uint64_t generation = 0;
  };
  std::unique_ptr<Base> base_;
  std::deque<std::pair<uint64_t, std::vector<VertexOrigin>>> origins_;  // (generation reached, origins)
};

}  // namespace weft
