#pragma once
// Elastics as velocity constraints (Volino & Thalmann 1997 section 2.3): a vertex is driven toward a
// moving target with one time constant tau, instead of being pulled by a spring whose force (and so
// stability) depends on what it is attached to. They serve grasps, tracker attachments, elastic pins
// and seams (sim/seam.h).
//
// How the demanded velocity enters the step, per vertex with accumulated weight w (see ElasticAccumulator):
//   w >= 1 (core): force correction (B): the integrator imposes the velocity (ClothState::kinematic), so
//                  the neighbours feel it through the off-diagonal blocks (Baraff-Witkin filter);
//   0 < w < 1 (rim): immediate velocity correction (A) before the step, v <- v + w (v_demand - v); the
//                  vertex then moves freely under the forces, so the patch edge stays soft.
#include <cmath>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "sim/pose.h"

namespace weft {

struct ElasticParams {
  float tau = 0.02f;       // time constant of the pull toward the target, s
  float max_speed = 6.f;   // cap on the demanded speed, m/s: a target jumping far away moves nothing violently
  // Cap on the velocity change an elastic imposes, per second (m/s^2): the elastic's force per unit mass is
  // bounded, so a held patch yanked from rest reaches the hand's speed over a few ticks, not in one.
  float max_acceleration = 400.f;
};

// The velocity that brings x to a target moving from xt0 (now) to xt1 (end of the step) so that the
// offset decays as exp(-t/tau):  v = (xt1 - xt0)/h + (1 - e^{-h/tau}) (xt0 - x)/h, capped to max_speed.
// This is Volino 1997's v_target + (x_target - x)/tau, discretised exactly: for h << tau the factor
// (1 - e^{-h/tau})/h tends to 1/tau, and for any h the imposed motion never overshoots the target.
glm::vec3 elastic_velocity(const glm::vec3& x, const glm::vec3& xt0, const glm::vec3& xt1, float h,
                           const ElasticParams& params);

// Caps |v| at max_speed (direction kept).
glm::vec3 cap_speed(const glm::vec3& v, float max_speed);

// A vertex set attached to one rigid frame (a hand, a tracker or a fixed pin frame). Flat arrays, all
// of length nattached.
struct ElasticSet {
  std::vector<uint32_t> vertex;   // attached vertex index
  std::vector<glm::vec3> offset;  // the vertex's target in the frame's local coordinates, m
  std::vector<float> weight;      // falloff weight in (0, 1]; 1 = fully held

  size_t size() const { return vertex.size(); }
  void clear() { vertex.clear(); offset.clear(); weight.clear(); }
};

// Per-vertex sums of weighted demanded velocities from every elastic that touches the vertex, sized once
// (nvert). A vertex held by several elastics (two hands on overlapping patches) follows the
// weight-averaged demand: the hands share it, neither wins, and the result does not depend on the order
// in which they grabbed.
struct ElasticAccumulator {
  std::vector<glm::vec3> weighted_velocity;  // sum of w v_demand (nvert), m/s
  std::vector<float> weight;                 // sum of w (nvert)
  std::vector<uint32_t> touched;             // vertices with weight > 0 this tick (capacity nvert)
  std::vector<glm::vec3> shared_change;      // sum over the sets holding the vertex of the set's mean velocity
                                             // change (share_velocity_change, nvert), m/s
  std::vector<uint32_t> shared_count;        // number of such sets (nvert)

  void resize(size_t nvert);
  void add(uint32_t vertex, float w, const glm::vec3& v_demand);
  // Clears what this tick touched (O(touched), not O(nvert)).
  void clear();
};

// Adds the demands of one set whose frame moves from `from` (now) to `to` (end of the step).
void accumulate_elastic_set(const ElasticSet& set, const Pose& from, const Pose& to, const glm::vec3* x, float h,
                            const ElasticParams& params, ElasticAccumulator& acc);

// After every set's demands are in: the mean velocity change the set asks of its fully weighted
// vertices (weight 1, not already kinematic), recorded on each of them, so that apply_elastic_demands caps
// that common change for the patch as a whole. Capped vertex by vertex instead, a patch asked to move
// faster than the cap kept the velocity differences its vertices had (each got its own velocity plus the
// same capped change), and held vertices, which no strain limit can bring back together, drifted apart
// for as long as the cap held (an edge of a shaken patch stretched to 268 % under noisy tracking).
void share_velocity_change(const ElasticSet& set, const glm::vec3* v, const uint8_t* kinematic,
                           ElasticAccumulator& acc);

// Turns the accumulated demands into (B) kinematic velocities for core vertices and (A) velocity
// corrections for rim vertices, as described at the top of this file. Vertices already kinematic
// (pins) are left alone: a pin outranks a grasp. The change from the vertex's velocity is capped at
// max_delta_v (m/s; ElasticParams::max_acceleration times h): for a core vertex whose sets shared their
// change (share_velocity_change), that mean change is capped, and so, apart, is the vertex's own
// deviation from it.
void apply_elastic_demands(const ElasticAccumulator& acc, glm::vec3* v, uint8_t* kinematic,
                           glm::vec3* kinematic_velocity, float max_delta_v = INFINITY);

}  // namespace weft
