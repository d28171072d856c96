#pragma once
// How colliders held the cloth in a step: an orthonormal basis (at most 3) of the span of the contact
// normals, and whether static friction stuck any vertex. The free-flight translation correction
// (translation_correction.h) reads it: a stuck vertex leaves the cloth no free tangential translation.
#include <cmath>

#include <glm/glm.hpp>

namespace weft {

struct ContactAxes {
  glm::vec3 axis[3] = {};
  int count = 0;
  bool stuck = false;  // a contact's static friction stopped a vertex

  void clear() {
    count = 0;
    stuck = false;
  }
  // Adds the unit normal n unless it lies within about 8 degrees of the span so far (Gram-Schmidt): a cloth
  // on a plane gives one axis; on a sphere, or over a box edge, the span soon fills all three.
  void add(const glm::vec3& n) {
    if (count == 3) return;
    glm::vec3 r = n;
    for (int k = 0; k < count; ++k) r -= glm::dot(r, axis[k]) * axis[k];
    const float len2 = glm::dot(r, r);
    if (len2 > kMinSin * kMinSin) axis[count++] = r / std::sqrt(len2);
  }
  // v with its components along the axes removed (v minus its projection on their span).
  glm::vec3 remove_from(glm::vec3 v) const {
    for (int k = 0; k < count; ++k) v -= glm::dot(v, axis[k]) * axis[k];
    return v;
  }

  static constexpr float kMinSin = 0.14f;  // sin 8 degrees
};

}  // namespace weft
