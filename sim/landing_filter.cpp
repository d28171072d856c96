#include "sim/landing_filter.h"

#include "sim/cloth_model.h"
#include "sim/collider.h"
#include "sim/contact_filter.h"

namespace weft {
namespace {

constexpr float kSteep = 0.5f;  // sin 30 degrees: a link rising more than this off the collider is "onto"
constexpr float kReach = 1.02f;  // the filter's reach, in thicknesses (sim/contact_filter.cpp)

}  // namespace

void leave_flat_landings(const ClothModel& model, const Collider* colliders, size_t ncollider,
                         const uint8_t* kinematic, const glm::vec3* x, const glm::vec3* x_last, float thickness,
                         ContactFilter& filter) {
  // Marks in `distance` (a scratch while building): 1 for a just-landed entry, 2 once a steep link holds it.
  bool any = false;
  for (size_t k = 0; k < filter.size(); ++k) {
    const uint32_t i = filter.vertex[k];
    const bool landed = glm::dot(x[i] - x_last[i], filter.normal[k]) < -thickness;
    filter.distance[k] = landed ? 1.f : 0.f;
    any = any || landed;
  }
  if (!any) return;
  for (size_t l = 0; l < model.link_count_total(); ++l) {
    for (int s = 0; s < 2; ++s) {
      const uint32_t i = model.link[l][s], j = model.link[l][1 - s];
      const uint32_t k = filter.entry_of_vertex[i];
      if (k == ContactFilter::kNone || filter.distance[k] != 1.f) continue;
      if (kinematic[j] || filter.entry_of_vertex[j] != ContactFilter::kNone) continue;  // a free neighbour
      // Onto it: the neighbour rises steeply above it and stays above it through the next step (it fell less
      // last step than it rises); one that comes level within a step lands beside it (a folded disc's layers
      // landing together: held, the crease links were crushed into the floor, 0.23 J stored in one solve).
      const glm::vec3 d = x[j] - x[i];
      const float rise = glm::dot(d, filter.normal[k]);
      const float fall = -glm::dot(x[j] - x_last[j], filter.normal[k]);
      if (rise > kSteep * glm::length(d) && rise > fall) filter.distance[k] = 2.f;
    }
  }
  for (size_t k = 0; k < filter.size(); ++k) {
    if (filter.distance[k] != 1.f) continue;
    for (size_t c = 0; c < ncollider; ++c) {
      glm::vec3 n;
      if (colliders[c].follows && collider_distance(colliders[c], x[filter.vertex[k]], n) < kReach * thickness)
        filter.distance[k] = 2.f;
    }
  }
  filter.keep_if([&](size_t k) { return filter.distance[k] != 1.f; });
}

}  // namespace weft
