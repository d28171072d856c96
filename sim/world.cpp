#include "sim/world.h"

#include <cmath>
#include <cstring>

namespace weft {

World::World(ClothModel model, const WorldConfig& config)
    : model_(std::move(model)), config_(config), state_(make_rest_state(model_)),
      integrator_(make_integrator(config.integrator, model_, config.solver)) {}
World::~World() = default;
World::World(World&&) noexcept = default;
World& World::operator=(World&&) noexcept = default;

void World::step() { integrator_->step(model_, state_, float(time_step())); }

void World::reset() { state_ = make_rest_state(model_); }

bool World::submit_pose(const PoseSample& sample) {
  const auto& p = sample.pose;
  bool ok = sample.valid && std::isfinite(sample.time);
  for (int k = 0; k < 3 && ok; ++k) ok = std::isfinite(p.position[k]);
  const float qn = glm::dot(p.orientation, p.orientation);
  ok = ok && std::isfinite(qn) && std::abs(qn - 1.f) < 1e-3f;
  if (!ok) {
    ++invalid_poses_;
    return false;
  }
  return true;  // grasp targets land with the constraint layer (issue 3)
}

size_t World::grab(Hand, const Pose&, float) { return 0; }
void World::release(Hand) {}

uint64_t World::state_hash() const {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](const void* data, size_t bytes) {
    const auto* b = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < bytes; ++i) { h ^= b[i]; h *= 1099511628211ull; }
  };
  mix(state_.position.data(), state_.position.size() * sizeof(glm::vec3));
  mix(state_.velocity.data(), state_.velocity.size() * sizeof(glm::vec3));
  return h;
}

}  // namespace weft
