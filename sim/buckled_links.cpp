#include "sim/buckled_links.h"

#include "sim/cloth_model.h"
#include "sim/collider.h"
#include "sim/rigid_body.h"

namespace weft {

bool springs_buckle(const ClothModel& model) { return model.material.stretch_model == StretchModel::Springs; }

void record_solved_lengths(const ClothModel& model, const glm::vec3* x, float* solved_length) {
  for (size_t l = 0; l < model.edge_count; ++l) solved_length[l] = glm::length(x[model.link[l][1]] - x[model.link[l][0]]);
}

bool mark_buckled_links(const ClothModel& model, const glm::vec3* x, const float* solved_length, float strain,
                        const RigidBox* boxes, size_t nbox, const Collider* colliders, size_t ncollider, float reach,
                        const glm::vec3* x_start, float thickness, uint8_t* buckled, bool in_flight) {
  const auto landed = [&](uint32_t i) {
    glm::vec3 n;
    for (size_t c = 0; c < ncollider; ++c)
      if (!colliders[c].follows && collider_distance(colliders[c], x[i], n) < reach &&
          glm::dot(x[i] - x_start[i], n) < -thickness)
        return true;
    return false;
  };
  size_t followers = 0;
  for (size_t c = 0; c < ncollider; ++c) followers += colliders[c].follows ? 1 : 0;
  const auto pushed = [&](uint32_t i) {
    glm::vec3 n;
    for (size_t b = 0; b < nbox; ++b)
      if (collider_distance(boxes[b].as_collider(), x[i], n) < reach) return true;
    for (size_t c = 0; c < ncollider && followers; ++c)
      if (colliders[c].follows && collider_distance(colliders[c], x[i], n) < reach) return true;
    return false;
  };
  bool any = false;
  for (size_t l = 0; l < model.edge_count; ++l) {
    const float len = glm::length(x[model.link[l][1]] - x[model.link[l][0]]);
    const bool crushed = len < (1.f - strain) * model.rest_length[l];
    if (buckled[l] == kBuckledInFlight) {
      if (len >= model.rest_length[l]) buckled[l] = 0;
    } else if (buckled[l]) {
      if (!crushed) buckled[l] = 0;
    } else if (crushed && len < solved_length[l]) {
      if (in_flight) buckled[l] = kBuckledInFlight;
      else if (landed(model.link[l][0]) || landed(model.link[l][1])) buckled[l] = kBuckledAtLanding;
    }
    if (buckled[l] && (nbox || followers) && (pushed(model.link[l][0]) || pushed(model.link[l][1]))) buckled[l] = 0;
    any = any || buckled[l];
  }
  return any;
}

bool cloth_in_flight(const uint8_t* kinematic, const uint8_t* in_contact, const glm::vec3* x, size_t nvert,
                     const RigidBox* boxes, size_t nbox, float reach) {
  for (size_t i = 0; i < nvert; ++i)
    if (kinematic[i] || in_contact[i]) return false;
  glm::vec3 n;
  for (size_t b = 0; b < nbox; ++b)
    for (size_t i = 0; i < nvert; ++i)
      if (collider_distance(boxes[b].as_collider(), x[i], n) < reach) return false;
  return true;
}

bool device_touches(const Collider* colliders, size_t ncollider, const glm::vec3* x, size_t nvert, float reach) {
  for (size_t c = 0; c < ncollider; ++c) {
    const Collider& col = colliders[c];
    if (!col.follows || col.parked) continue;
    glm::vec3 lo, hi, n;
    const bool bounded = collider_bounds(col, lo, hi);
    lo -= reach;
    hi += reach;
    for (size_t i = 0; i < nvert; ++i) {
      const glm::vec3 p = x[i];
      if (bounded && (p.x < lo.x || p.y < lo.y || p.z < lo.z || p.x > hi.x || p.y > hi.y || p.z > hi.z)) continue;
      if (collider_distance(col, p, n) < reach) return true;
    }
  }
  return false;
}

void cap_buckled_links(const ClothModel& model, const glm::vec3* x, const uint8_t* buckled, float strain,
                       glm::vec3* force) {
  for (size_t l = 0; l < model.edge_count; ++l) {
    if (!buckled[l]) continue;
    const uint32_t i = model.link[l][0], j = model.link[l][1];
    const glm::vec3 d = x[j] - x[i];
    const float len = glm::length(d);
    if (!(len > 1e-12f)) continue;
    const float k = model.stiffness[l], l0 = model.rest_length[l];
    const float t = k * (len - l0);
    const float cap = buckled[l] == kBuckledInFlight ? 0.f : strain;
    const glm::vec3 df = ((buckled_tension(k, l0, len, cap) - t) / len) * d;  // the link pulls i with t d / len
    force[i] += df;
    force[j] -= df;
  }
}

}  // namespace weft
