#pragma once
// Cloth nobody tuned the runtime for (issue 34): generated meshes that are not grids, the shipped fabric
// presets, two-hand pose streams and a table, for the bounds matrix (tests/engine/bounds_matrix_test.cpp) and
// the other tests that try a mesh or a fabric the shipped scenes do not use.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

#include "engine/material_loader.h"
#include "sim/scene.h"
#include "tests/engine/folded_disc.h"
#include "tests/engine/folded_rest.h"

namespace weft::test {

// The presets of assets/materials the bounds are checked with: three woven fabrics whose weft, warp and bias
// stiffness differ by 10x or more, and the isotropic springs the shipped scenes were tuned on.
inline constexpr std::array<const char*, 4> kFabrics = {"cotton", "denim", "silk", "isotropic"};

inline Material fabric_preset(const std::string& name) {
  return load_material_preset(name, std::string(WEFT_SOURCE_DIR) + "/assets/materials");
}

// Smoothstep from 0 at t = a to 1 at t = b.
inline double ease(double a, double b, double t) {
  const double s = std::clamp((t - a) / (b - a), 0.0, 1.0);
  return s * s * (3.0 - 2.0 * s);
}

enum class Untuned { Annulus, Strip, PinnedDisc, FoldedDisc, FoldedRest };
inline constexpr std::array<Untuned, 5> kUntuned = {Untuned::Annulus, Untuned::Strip, Untuned::PinnedDisc,
                                                    Untuned::FoldedDisc, Untuned::FoldedRest};

inline const char* untuned_name(Untuned m) {
  switch (m) {
    case Untuned::Annulus: return "irregular annulus";
    case Untuned::Strip: return "non-uniform strip";
    case Untuned::PinnedDisc: return "pinned disc";
    case Untuned::FoldedDisc: return "folded-over disc";
    case Untuned::FoldedRest: return "sheet folded at rest";
  }
  return "?";
}

// The generated mesh in its own plane (z = 0, material coordinates = (x, y)) and its centre there.
struct FlatMesh {
  Mesh mesh;
  glm::vec2 centre;
};

inline FlatMesh untuned_flat_mesh(Untuned m) {
  switch (m) {
    case Untuned::Annulus:  // 0.5 m across, 2.5 cm edges at every angle to the weave, about 310 vertices
      return {make_annulus({.inner_radius = 0.06f, .outer_radius = 0.25f, .rings = 7, .edge = 0.025f, .seed = 7}),
              glm::vec2(0.25f)};
    case Untuned::Strip:  // a 0.8 m x 0.16 m scarf, edges from 1.5 cm at one end to 4.5 cm at the other (~280)
      return {make_strip({.length = 0.8f, .width = 0.16f, .edge_start = 0.015f, .edge_end = 0.045f, .seed = 3}),
              glm::vec2(0.4f, 0.08f)};
    case Untuned::PinnedDisc:  // 0.4 m across, 2.5 cm edges (~200 vertices)
      return {make_annulus({.inner_radius = 0.f, .outer_radius = 0.2f, .rings = 7, .edge = 0.025f, .seed = 5}),
              glm::vec2(0.2f)};
    case Untuned::FoldedDisc:  // a disc folded flat in half onto itself (~150 vertices): its layers overlap
      return {folded_flat_disc(0.2f, 0.03f, 6), glm::vec2(0.1f, 0.2f)};
    case Untuned::FoldedRest:  // a 0.24 m sheet (~120 vertices) whose rest shape is folded at 160 degrees
      return {folded_rest_flat(FoldedRest::Fold160), glm::vec2(0.06f, 0.12f)};
  }
  return {};
}

// Lays a flat mesh horizontal with its centre at `centre` (its plane's +z up), then turns it by `tilt`
// radians about the world z axis through that centre.
inline void lay_flat(Mesh& mesh, glm::vec2 flat_centre, glm::vec3 centre, float tilt = 0.f) {
  glm::mat4 t = glm::translate(glm::mat4(1.f), centre);
  t = glm::rotate(t, tilt, glm::vec3(0.f, 0.f, 1.f));
  t = glm::rotate(t, glm::radians(-90.f), glm::vec3(1.f, 0.f, 0.f));  // (x, y, z) -> (x, z, -y)
  t = glm::translate(t, glm::vec3(-flat_centre, 0.f));
  transform_mesh(mesh, t);
}

inline uint32_t nearest_vertex(const Mesh& mesh, glm::vec3 p) {
  uint32_t best = 0;
  for (uint32_t i = 0; i < mesh.positions.size(); ++i)
    if (glm::length(mesh.positions[i] - p) < glm::length(mesh.positions[best] - p)) best = i;
  return best;
}

// The untuned cloth as a scene lying flat with its centre at `centre` (tilted by `tilt` about z),
// self-collision on, a floor at y = 0; the pinned disc is pinned at its rim's -z point. `grip` gets the two
// points two hands take: the rim's ends along x (the folded disc's: along z, where both layers meet).
inline Scene untuned_scene(Untuned m, const std::string& fabric, glm::vec3 centre, float tilt = 0.f,
                           std::array<glm::vec3, 2>* grip = nullptr) {
  FlatMesh flat = untuned_flat_mesh(m);
  Scene s;
  s.name = untuned_name(m);
  s.mesh = std::move(flat.mesh);
  lay_flat(s.mesh, flat.centre, centre, tilt);
  s.material = fabric_preset(fabric);
  s.world.self_collision.enabled = true;
  Collider floor;
  floor.shape = ColliderShape::Plane;
  s.colliders.push_back(floor);
  glm::vec3 lo(1e9f), hi(-1e9f);
  for (const glm::vec3& p : s.mesh.positions) lo = glm::min(lo, p), hi = glm::max(hi, p);
  if (m == Untuned::PinnedDisc) s.pins.push_back(nearest_vertex(s.mesh, glm::vec3(centre.x, centre.y, lo.z)));
  if (grip) {
    const std::array<glm::vec3, 2> ends =
        m == Untuned::FoldedDisc ? std::array{glm::vec3(hi.x, centre.y, lo.z), glm::vec3(hi.x, centre.y, hi.z)}
                                 : std::array{glm::vec3(lo.x, centre.y, centre.z), glm::vec3(hi.x, centre.y, centre.z)};
    for (int k = 0; k < 2; ++k) (*grip)[k] = s.mesh.positions[nearest_vertex(s.mesh, ends[k])];
  }
  return s;
}

// The table of assets/scenes/table.json: a box 1 m x 0.75 m x 0.6 m on the floor, its top at y = 0.75.
inline constexpr float kTableTop = 0.75f;
inline Collider table_box() {
  Collider c;
  c.shape = ColliderShape::Box;
  c.pose.position = {0.f, 0.5f * kTableTop, 0.f};
  c.half_extents = {0.5f, 0.5f * kTableTop, 0.3f};
  c.mu_static = 0.4f;
  c.mu_kinetic = 0.3f;
  return c;
}

// A two-hand pose stream: each hand lifts its grip 0.3 m (0-0.3 s), both pull apart until the grips are 20 %
// farther apart than they started (0.3-0.7 s), then shake the cloth so stretched at 3 Hz (5 cm up and down, 3 cm
// back and forth at twice that) from 0.8 s on. The hands never move faster than 1.6 m/s.
struct TwoHandStream {
  std::array<glm::vec3, 2> grip;

  glm::vec3 hand(int side, double t) const {
    const glm::vec3 out = 0.1f * (grip[side] - grip[1 - side]);  // 10 % of the span, away from the other hand
    glm::vec3 p = grip[side] + glm::vec3(0.f, 0.3f, 0.f) * float(ease(0.0, 0.3, t)) + out * float(ease(0.3, 0.7, t));
    if (t > 0.8) {
      const double ph = 2.0 * 3.14159265358979 * 3.0 * (t - 0.8);
      p += glm::vec3(0.f, 0.05f * float(std::sin(ph)), 0.03f * float(std::sin(2.0 * ph)));
    }
    return p;
  }
};

// Unweighted RMS and largest vertex speed, m/s.
inline float rms_speed(const std::vector<glm::vec3>& v) {
  double s = 0;
  for (const glm::vec3& u : v) s += double(glm::dot(u, u));
  return float(std::sqrt(s / double(v.size())));
}
inline float max_speed(const std::vector<glm::vec3>& v) {
  float s = 0;
  for (const glm::vec3& u : v) s = std::max(s, glm::length(u));
  return s;
}

}  // namespace weft::test
