#include "sim/translation_correction.h"

namespace weft {

bool correct_free_translation(const ClothModel& model, const ClothState& state, const ForceBuffers& forces, float h,
                              glm::vec3* dv) {
  const size_t n = model.vertex_count();
  glm::dvec3 rhs(0.0);
  double mass = 0;
  for (size_t i = 0; i < n; ++i) {
    if (state.kinematic[i]) return false;
    const double mi = double(model.mass[i]) + double(h) * forces.drag_coefficient[i];
    rhs += glm::dvec3(h * forces.force[i]) - mi * glm::dvec3(dv[i]);
    mass += mi;
  }
  if (mass <= 0) return false;
  // The contacts kept in the solve pushed and rubbed: momentum the forces do not account for.
  const ContactFilter& f = state.contact_filter;
  for (size_t k = 0; k < f.size(); ++k) rhs += glm::dvec3(f.work[k]);  // normal and friction: record_contact_impulses
  glm::vec3 c(rhs / mass);
  const ContactAxes& contact = state.contact_axes;
  if (contact.stuck) c -= contact.remove_from(c);  // only the part along the contact normals
  for (size_t i = 0; i < n; ++i) dv[i] += c;
  return true;
}

}  // namespace weft
