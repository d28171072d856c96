#include "sim/release_grip.h"

#include "sim/contact_filter.h"

namespace weft {

size_t take_release_throw(const std::vector<uint32_t>& vertices, size_t count, const std::vector<glm::vec3>& v_start,
                          const uint8_t* kinematic, const ContactFilter* filter, glm::vec3 gravity, float h,
                          glm::vec3* v) {
  size_t slowed = 0;
  for (size_t k = 0; k < count && k < vertices.size() && k < v_start.size(); ++k) {
    const uint32_t i = vertices[k];
    if (kinematic[i]) continue;
    if (filter && filter->entry_of_vertex.size() > i && filter->entry_of_vertex[i] != ContactFilter::kNone) continue;
    const glm::vec3 base = v_start[k] + h * gravity;
    if (glm::dot(v[i], v[i]) <= glm::dot(base, base)) continue;  // the grip takes speed, never gives it
    v[i] = base;
    ++slowed;
  }
  return slowed;
}

}  // namespace weft
