#include "sim/elastic_constraint.h"

#include <cmath>

namespace weft {

glm::vec3 cap_speed(const glm::vec3& v, float max_speed) {
  const float s2 = glm::dot(v, v);
  if (s2 <= max_speed * max_speed) return v;
  return v * (max_speed / std::sqrt(s2));
}

glm::vec3 elastic_velocity(const glm::vec3& x, const glm::vec3& xt0, const glm::vec3& xt1, float h,
                           const ElasticParams& params) {
  const float rate = -std::expm1(-h / params.tau) / h;  // (1 - e^{-h/tau}) / h
  return cap_speed((xt1 - xt0) / h + rate * (xt0 - x), params.max_speed);
}

void ElasticAccumulator::resize(size_t nvert) {
  weighted_velocity.assign(nvert, glm::vec3(0.f));
  weight.assign(nvert, 0.f);
  shared_change.assign(nvert, glm::vec3(0.f));
  shared_count.assign(nvert, 0);
  touched.clear();
  touched.reserve(nvert);
}

void ElasticAccumulator::add(uint32_t vertex, float w, const glm::vec3& v_demand) {
  if (weight[vertex] == 0.f) touched.push_back(vertex);  // within reserved capacity: no allocation
  weighted_velocity[vertex] += w * v_demand;
  weight[vertex] += w;
}

void ElasticAccumulator::clear() {
  for (uint32_t i : touched) {
    weighted_velocity[i] = glm::vec3(0.f);
    weight[i] = 0.f;
    shared_change[i] = glm::vec3(0.f);
    shared_count[i] = 0;
  }
  touched.clear();
}

void accumulate_elastic_set(const ElasticSet& set, const Pose& from, const Pose& to, const glm::vec3* x, float h,
                            const ElasticParams& params, ElasticAccumulator& acc) {
  for (size_t k = 0; k < set.size(); ++k) {
    const uint32_t i = set.vertex[k];
    const glm::vec3 xt0 = from.transform_point(set.offset[k]);
    const glm::vec3 xt1 = to.transform_point(set.offset[k]);
    acc.add(i, set.weight[k], elastic_velocity(x[i], xt0, xt1, h, params));
  }
}

void share_velocity_change(const ElasticSet& set, const glm::vec3* v, const uint8_t* kinematic,
                           ElasticAccumulator& acc) {
  glm::vec3 sum(0.f);
  uint32_t count = 0;
  auto core = [&](size_t k) {
    const uint32_t i = set.vertex[k];
    return set.weight[k] >= 1.f && acc.weight[i] >= 1.f && !kinematic[i];
  };
  for (size_t k = 0; k < set.size(); ++k)
    if (core(k)) {
      const uint32_t i = set.vertex[k];
      sum += acc.weighted_velocity[i] / acc.weight[i] - v[i];
      ++count;
    }
  if (count == 0) return;
  const glm::vec3 mean = sum / float(count);
  for (size_t k = 0; k < set.size(); ++k)
    if (core(k)) {
      acc.shared_change[set.vertex[k]] += mean;
      ++acc.shared_count[set.vertex[k]];
    }
}

void apply_elastic_demands(const ElasticAccumulator& acc, glm::vec3* v, uint8_t* kinematic,
                           glm::vec3* kinematic_velocity, float max_delta_v) {
  for (uint32_t i : acc.touched) {
    if (kinematic[i]) continue;  // pins (already kinematic at zero velocity) outrank elastics
    const float w = acc.weight[i];
    const glm::vec3 change = acc.weighted_velocity[i] / w - v[i];
    // Kept as overwrite, not if/else: the if/else form is contracted into FMAs differently (-march=native)
    // and changed the recorded demo's state hash.
    glm::vec3 demand = v[i] + cap_speed(change, max_delta_v);
    if (w >= 1.f && acc.shared_count[i] > 0) {
      const glm::vec3 common = acc.shared_change[i] / float(acc.shared_count[i]);
      demand = v[i] + cap_speed(common, max_delta_v) + cap_speed(change - common, max_delta_v);
    }
    if (w >= 1.f) {
      kinematic[i] = 1;
      kinematic_velocity[i] = demand;
    } else {
      v[i] += w * (demand - v[i]);
    }
  }
}

}  // namespace weft
