#pragma once
// Local expansion or shrinking of the rest shape (Volino & Thalmann 1997 Fig. 5b/5d): each triangle carries
// a scale of its rest shape (1: as in the mesh), which the rest geometry of every stretch model follows
// (edge and bending links' rest lengths, Volino triangles' rest edges and areas, the weave's coefficients).
// The masses stay: expanding cloth does not make more of it.
#include <vector>

#include <glm/glm.hpp>

#include "sim/cloth_model.h"

namespace weft {

// The factor and the scale it leads to are kept in this range: beyond it the mesh cannot follow.
inline constexpr float kRestScaleMin = 0.5f, kRestScaleMax = 2.f;

// Multiplies the scale of the triangles whose centroid, at x, lies within radius of centre by factor
// (clamped to [kRestScaleMin, kRestScaleMax], and so is each triangle's scale). Returns the triangles touched.
size_t scale_in_brush(const ClothModel& model, const glm::vec3* x, const glm::vec3& centre, float radius, float factor,
                      std::vector<float>& triangle_scale);

// Applies per-triangle scales (ntri) to a model freshly built from its mesh (all scales 1 there). A link
// takes the mean scale of the triangles beside its edge.
void apply_rest_scale(ClothModel& model, const std::vector<float>& triangle_scale);

// The same in place, for a model whose triangles have the scales `from` now: afterwards it is as if built
// with `to` (the topology, masses and everything else stay, so what was built from them can too).
void rescale_rest_shape(ClothModel& model, const std::vector<float>& from, const std::vector<float>& to);

}  // namespace weft
