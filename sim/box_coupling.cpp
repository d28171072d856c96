#include "sim/box_coupling.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "sim/contact_filter.h"
#include "sim/rigid_body.h"

namespace weft {
namespace {

// Solves A u = b for a 6x6 A by Gaussian elimination with partial pivoting.
bool solve6(double A[6][6], double b[6], double u[6]) {
  for (int c = 0; c < 6; ++c) {
    int p = c;
    for (int r = c + 1; r < 6; ++r)
      if (std::abs(A[r][c]) > std::abs(A[p][c])) p = r;
    if (!(std::abs(A[p][c]) > 0.0)) return false;
    if (p != c) {
      for (int k = 0; k < 6; ++k) std::swap(A[c][k], A[p][k]);
      std::swap(b[c], b[p]);
    }
    for (int r = c + 1; r < 6; ++r) {
      const double f = A[r][c] / A[c][c];
      for (int k = c; k < 6; ++k) A[r][k] -= f * A[c][k];
      b[r] -= f * b[c];
    }
  }
  for (int c = 5; c >= 0; --c) {
    double s = b[c];
    for (int k = c + 1; k < 6; ++k) s -= A[c][k] * u[k];
    u[c] = s / A[c][c];
  }
  return std::isfinite(u[0] + u[1] + u[2] + u[3] + u[4] + u[5]);
}

// [r]x: the matrix of r x (.).
glm::dmat3 cross_matrix(const glm::dvec3& r) { return glm::dmat3(0, r.z, -r.y, -r.z, 0, r.x, r.y, -r.x, 0); }

// The change of the box's velocity at x along n.
float normal_change(const RigidBox& box, const BoxTwist& du, const glm::vec3& x, const glm::vec3& n) {
  return glm::dot(du.linear + glm::cross(du.angular, x - box.pose.position), n);
}

}  // namespace

bool box_velocity_change(const ContactFilter& filter, const float* mass, const glm::vec3* x, const RigidBox& box,
                         uint32_t b, const BoxTwist& moved, BoxTwist& du) {
  du = BoxTwist{};
  const bool lumped = filter.lumped_mass.size() == filter.size();  // the GPU step records none: the vertex's mass
  const glm::dvec3 centre(box.pose.position);
  const glm::dmat3 inertia(box.world_inertia());
  // M + sum J^T D J, blocks [[A11, A12], [A12^T, A22]]; -sum J^T work - M moved.
  glm::dmat3 A11 = double(box.mass) * glm::dmat3(1.0), A12(0.0), A22 = inertia;
  glm::dvec3 f_lin = -double(box.mass) * glm::dvec3(moved.linear), f_ang = -(inertia * glm::dvec3(moved.angular));
  size_t count = 0;
  for (size_t k = 0; k < filter.size(); ++k) {
    if (filter.body_of(k) != b) continue;
    ++count;
    const uint32_t i = filter.vertex[k];
    const glm::dvec3 n(filter.normal[k]);
    const double wn = lumped ? filter.lumped_mass[k].x : mass[i];
    const double wt = lumped ? filter.lumped_mass[k].y : mass[i];
    const double hc = filter.friction[k];
    const double dt = hc > 0.0 ? hc * wt / (hc + wt) : 0.0;  // the friction's damping in series with the vertex
    const glm::dmat3 D = dt * glm::dmat3(1.0) + (wn - dt) * glm::outerProduct(n, n);
    const glm::dvec3 r = glm::dvec3(x[i]) - centre;
    const glm::dmat3 C = cross_matrix(r);
    A11 += D;
    A12 -= D * C;
    A22 -= C * D * C;
    const glm::dvec3 j = -glm::dvec3(filter.work[k]);  // the contact's impulse on the box
    f_lin += j;
    f_ang += glm::cross(r, j);
  }
  if (count == 0) return false;
  double A[6][6], rhs[6] = {f_lin.x, f_lin.y, f_lin.z, f_ang.x, f_ang.y, f_ang.z}, u[6];
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      A[r][c] = A11[c][r];
      A[r][3 + c] = A12[c][r];
      A[3 + r][c] = A12[r][c];
      A[3 + r][3 + c] = A22[c][r];
    }
  if (!solve6(A, rhs, u)) return false;
  du.linear = glm::vec3(float(u[0]), float(u[1]), float(u[2]));
  du.angular = glm::vec3(float(u[3]), float(u[4]), float(u[5]));
  return true;
}

float inelastic_exchange(const RigidBox& box, const BoxTwist& moved, const glm::vec3& gravity, float h, BoxTwist& du) {
  const glm::dvec3 g(gravity);
  const double m = box.mass;
  const glm::dmat3 inertia(box.world_inertia());
  // The free motion (stage 1) and the whole change from it so far.
  const glm::dvec3 v_free = glm::dvec3(box.linear_velocity) - glm::dvec3(moved.linear);
  const glm::dvec3 w_free = glm::dvec3(box.angular_velocity) - glm::dvec3(moved.angular);
  const glm::dvec3 p_free = glm::dvec3(box.pose.position) - double(h) * glm::dvec3(moved.linear);
  const glm::dvec3 t_lin = glm::dvec3(moved.linear) + glm::dvec3(du.linear);
  const glm::dvec3 t_ang = glm::dvec3(moved.angular) + glm::dvec3(du.angular);
  // At the start of the tick: stage 1 added h g to the velocity and moved the centre from previous_pose.
  const glm::dvec3 v_start = v_free - double(h) * g;
  const double e_start = 0.5 * m * glm::dot(v_start, v_start) + 0.5 * glm::dot(w_free, inertia * w_free) -
                         m * glm::dot(g, glm::dvec3(box.previous_pose.position));
  // E(s) = a s^2 + b s + c for the velocity v_free + s T and the centre p_free + h s T.
  const double a = 0.5 * m * glm::dot(t_lin, t_lin) + 0.5 * glm::dot(t_ang, inertia * t_ang);
  const double b = m * glm::dot(v_free, t_lin) + glm::dot(w_free, inertia * t_ang) - m * h * glm::dot(g, t_lin);
  const double c = 0.5 * m * glm::dot(v_free, v_free) + 0.5 * glm::dot(w_free, inertia * w_free) -
                   m * glm::dot(g, p_free);
  // The box's settling exchanges with its cloth pass (capped to nothing, they left the cloth under a crate at rest
  // ringing at 0.4-1 m/s); a landing's rebound, some 10 mJ a tick on cube_drop.json, does not.
  const double budget = e_start + m * glm::length(g) * kInelasticSlack;
  if (a + b + c <= budget || !(a > 0.0)) return 1.f;
  double s;
  if (c >= budget) {
    s = std::clamp(-b / (2.0 * a), 0.0, 1.0);  // no share keeps it: the one that takes the most
  } else {
    const double disc = b * b - 4.0 * a * (c - budget);  // > 0: E(0) < budget < E(1)
    s = std::clamp((-b + std::sqrt(std::max(disc, 0.0))) / (2.0 * a), 0.0, 1.0);
  }
  du.linear = glm::vec3(s * t_lin - glm::dvec3(moved.linear));
  du.angular = glm::vec3(s * t_ang - glm::dvec3(moved.angular));
  return float(s);
}

void move_box(RigidBox& box, const BoxTwist& du, float h) {
  box.linear_velocity += du.linear;
  box.angular_velocity += du.angular;
  box.pose.position += h * du.linear;
  const float turn = glm::length(du.angular) * h;
  if (turn > 0.f)
    box.pose.orientation = glm::normalize(glm::angleAxis(turn, glm::normalize(du.angular)) * box.pose.orientation);
}

void follow_box_in_filter(ContactFilter& filter, const glm::vec3* x, const RigidBox& box, uint32_t b,
                          const BoxTwist& du) {
  for (size_t k = 0; k < filter.size(); ++k) {
    if (filter.body_of(k) != b) continue;
    const glm::vec3 n = filter.normal[k];
    const glm::vec3 change = du.linear + glm::cross(du.angular, x[filter.vertex[k]] - box.pose.position);
    const float along = glm::dot(change, n);
    filter.dv_normal[k] += along;
    filter.slip[k] -= change - along * n;  // the slip is the vertex's relative to the box
  }
}

void follow_box_in_cloth(const ContactFilter& filter, const RigidBox& box, uint32_t b, const BoxTwist& du, float h,
                         glm::vec3* x, glm::vec3* v) {
  for (size_t k = 0; k < filter.size(); ++k) {
    if (filter.body_of(k) != b) continue;
    const uint32_t i = filter.vertex[k];
    const glm::vec3 n = filter.normal[k];
    const float dn = normal_change(box, du, x[i], n);
    v[i] += dn * n;
    x[i] += h * dn * n;
  }
}

}  // namespace weft
