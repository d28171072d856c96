#pragma once
// Saturating grasps: a hand may pull the cloth only as far as the cloth can follow without tearing.
// Held vertices are kinematic, and so is a pin, so no strain limiter can shorten a path of edges between
// them: a hand pulling away from a pin (or from the other hand) would stretch that path without bound
// and store the energy that a release then turns into a flung cloth. Before the step, each device's
// held patch is therefore kept, as a whole, within (1 + max_strain) times the rest path length (the
// tether length, sim/tether.h) of every other immobile vertex: pins and the other devices' held
// vertices. Two devices share a violation half and half. The hand goes on moving; the cloth stops at
// its strain limit, and follows again (at the elastic rate) once the hand comes back.
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/cloth_model.h"
#include "sim/elastic_constraint.h"
#include "sim/pose.h"
#include "sim/tether.h"

namespace weft {

// Whether entry k of set is part of the device's fully held patch: weight 1, kinematic, not pinned.
inline bool held_core(const ElasticSet& set, size_t k, const uint8_t* kinematic, const uint8_t* is_fixed) {
  const uint32_t i = set.vertex[k];
  return set.weight[k] >= 1.f && kinematic[i] && !is_fixed[i];
}

// Calls fn(p, e) for every vertex that device d's patch is tethered against: each kinematic fixed vertex
// (e = -1), then every other device's held core (e = that device). The saturation, the release slide and
// the stored-stretch measure all walk these pairs.
template <class Fn>
void for_each_tether_partner(int d, const std::array<ElasticSet, kDeviceCount>& sets,
                             const std::vector<uint32_t>& fixed, const uint8_t* kinematic, const uint8_t* is_fixed,
                             Fn&& fn) {
  for (uint32_t p : fixed)
    if (kinematic[p]) fn(p, -1);
  for (int e = 0; e < kDeviceCount; ++e) {
    if (e == d) continue;
    for (size_t k = 0; k < sets[e].size(); ++k)
      if (held_core(sets[e], k, kinematic, is_fixed)) fn(sets[e].vertex[k], e);
  }
}

// The anchor a of the tether from p to a patch and its length: false when p is not connected to the patch
// or the anchor is not a held (kinematic, unpinned) vertex of it.
inline bool tether_anchor(const Tethers& t, uint32_t p, const uint8_t* kinematic, const uint8_t* is_fixed,
                          uint32_t& a, float& length) {
  length = t.length[p];
  a = t.anchor[p];
  return std::isfinite(length) && a != p && kinematic[a] && !is_fixed[a];
}

// Shortens a predicted anchor-to-partner gap to lmax by shifting the patches: `share` of the correction
// goes to the partner's patch (shift_e, null for a fixed partner), the rest to the anchor's (shift_d).
inline void pull_gap_within(const glm::vec3& gap, float lmax, float share, glm::vec3& shift_d, glm::vec3* shift_e) {
  const float len = glm::length(gap);
  if (!(len > lmax)) return;
  const glm::vec3 correction = (len - lmax) / len * gap;
  shift_d -= (1.f - share) * correction;
  if (shift_e) *shift_e += share * correction;
}

// The largest strain l / l0 - 1 over the structural edges with at least one end not kinematic: what the
// strain limiter has to hold (edges inside a held patch it cannot shorten). O(nedge), allocation-free.
float free_edge_strain(const ClothModel& model, const glm::vec3* x, const uint8_t* kinematic);

// Moves each device's held core by shift[d] over the step (its kinematic velocity gains shift / h, capped at
// max_speed). Returns the number of devices moved.
int apply_patch_shifts(const std::array<ElasticSet, kDeviceCount>& sets, const std::array<glm::vec3, kDeviceCount>& shift,
                       const uint8_t* kinematic, const uint8_t* is_fixed, float h, float max_speed,
                       glm::vec3* kinematic_velocity);

// Shifts the kinematic velocities of each device's fully held vertices (weight >= 1, kinematic, not
// fixed) so that, after a step of h, every held patch is within (1 + max_strain) of its tether length
// from each fixed vertex (`fixed`, listed and flagged in is_fixed (nvert), moving at its kinematic velocity) and from the other devices' held
// vertices. Gauss-Seidel over those pairs, `iterations` sweeps; a patch's shift is capped at max_speed h per step
// (a grab on an already overstretched cloth relaxes it at that speed, not in one jump). Returns the number of
// patches held back (the grasps that yielded this step). `at_limit` (the cloth between already at the
// saturation strain somewhere, free_edge_strain): no pair may separate past its distance now either. The
// tether length is an edge path, longer than the geodesic on meshes that are not flat convex pieces (an
// annulus, a mesh with slits), so the path bound alone let two hands pull an irregular annulus to 11-14 %
// strain. Allocation-free.
int saturate_held_motion(const std::array<ElasticSet, kDeviceCount>& sets,
                          const std::array<Tethers, kDeviceCount>& tethers, const std::vector<uint32_t>& fixed,
                          const uint8_t* is_fixed, float max_strain, float max_speed, float h, int iterations, const glm::vec3* x,
                          const uint8_t* kinematic, glm::vec3* kinematic_velocity, bool at_limit = false);

}  // namespace weft
