#pragma once
// The mutable state of one cloth: what a step changes, what a snapshot copies, what a replay resets.
#include <array>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/contact_axes.h"
#include "sim/contact_filter.h"
#include "sim/sewn_filter.h"

namespace weft {

struct ClothModel;

struct ClothState {
  std::vector<glm::vec3> position;  // x per vertex (nvert), m
  std::vector<glm::vec3> velocity;  // v per vertex (nvert), m/s
  // Kinematic vertices have their end-of-step velocity imposed (Volino's force correction (B), applied
  // as a Baraff-Witkin filter): pins (target 0) and, through the constraint layer, grasps.
  std::vector<uint8_t> kinematic;              // 1 if the vertex velocity is imposed this step (nvert)
  std::vector<glm::vec3> kinematic_velocity;   // the imposed velocity (nvert), m/s
  // Plasticity (weave_material.h): the hinges' current rest angles (nhinge when the material's plasticity
  // is on, else empty), rad.
  std::vector<float> hinge_rest_angle;
  // In-plane plasticity: the weave triangles' plastic strains {weft uu, warp vv, shear uv} (ntri when the
  // material's in-plane plasticity is on, else empty); the stress curves see e - e_p.
  std::vector<std::array<float, 3>> plastic_strain;
  // The collider contacts of the last step (World's collider pass), read by the free-flight translation
  // correction of the next.
  ContactAxes contact_axes;
  // The collider contacts the solve keeps this step (sim/contact_filter.h), with their impulses: the next
  // step lets go of those that held the cloth down.
  ContactFilter contact_filter;
  // The seams sewn for good that the solve keeps closed this step (sim/sewn_filter.h).
  SewnFilter sewn_filter;
  // The structural spring links the corrections crushed, buckled until they are back within the strain
  // (sim/buckled_links.h): 1 per marked link (nedge for a springs material, else empty); any_buckled: one is.
  std::vector<uint8_t> buckled;
  bool any_buckled = false;
  double time = 0;                             // simulated time, s
  uint64_t step_count = 0;                     // steps taken since the state was made
};

// A state at rest in the model's rest shape, with the model's pins kinematic at zero velocity.
ClothState make_rest_state(const ClothModel& model);

// The plastic rest angles evaluate_forces should use (ForceOptions::hinge_rest_angle), or null.
inline const float* plastic_rest_angles(const ClothState& state) {
  return state.hinge_rest_angle.empty() ? nullptr : state.hinge_rest_angle.data();
}

// The plastic strains evaluate_forces should use (ForceOptions::plastic_strain), or null.
inline const std::array<float, 3>* plastic_strains(const ClothState& state) {
  return state.plastic_strain.empty() ? nullptr : state.plastic_strain.data();
}

// The buckled links evaluate_forces should cap (ForceOptions::buckled), or null.
inline const uint8_t* buckled_links(const ClothState& state) {
  return state.any_buckled ? state.buckled.data() : nullptr;
}

}  // namespace weft
