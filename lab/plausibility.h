#pragma once
// Kang & Cho's plausibility measures (section 7): positional error E (Eq. 35-36) and directional
// similarity S (Eq. 37) between a reference motion and an experimental motion over one check interval.
#include <cstddef>
#include <cstdint>

#include <glm/glm.hpp>

namespace weft::lab {

struct Plausibility {
  double error = 0;       // E, mean of |dx_ref - dx_exp|^2 / |dx_ref|^2
  double similarity = 1;  // S, mean of (dx_ref_hat . dx_exp_hat)^2
  size_t counted = 0;     // vertices that entered the means
};

// dref and dexp are per-vertex displacements since the previous check point. Vertices flagged in
// skip (may be null), or whose reference motion is below min_motion metres (E is undefined for a
// vertex that does not move: pins), are left out of both means.
Plausibility compare_motion(const glm::vec3* dref, const glm::vec3* dexp, size_t n, const uint8_t* skip,
                            double min_motion = 1e-9);

}  // namespace weft::lab
