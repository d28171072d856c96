#pragma once
// Reads a scene file (JSON, assets/scenes/*.json) into a weft::Scene. Every problem is reported as a
// SceneError naming the file, the place (a JSON pointer such as /colliders/2/radius, or line:column for
// a syntax error) and what is wrong. Unknown keys are errors too, so a typo never goes unnoticed.
//
// Format (all keys optional unless marked):
//   name: string
//   sim: { tick_hz, solver: "cg" (default: WorldConfig{})|"gs"|"approx"|"euler"|"rk4"|"be"|"bdf2"|"rk45",
//          iterations (approx), sweeps (gs), alpha (be, bdf2), rk_tolerance (rk45), cg_tolerance, cg_max_iterations }
//   cloth: { mesh (required): { type: "grid"|"irregular", width, height, columns, rows,
//                                [grading, jitter, seed (irregular)] } | { type: "obj", path, scale },
//            (lengths are metres; `scale` is the OBJ file's unit in metres: 0.01 for centimetres, 0.001 for mm)
//            position: [x,y,z], rotation_deg: [x,y,z] (applied to the mesh, the grid lies in z = 0),
//            weave_angle_deg (weft/warp materials: the weft's angle from the mesh's u axis),
//            creases (weft/warp materials): [ { from: [u,v], to: [u,v] (material coordinates, m; a grid's run
//                    from (0,0) to (width,height)), angle_deg (rest fold, (-180,180); positive folds toward the
//                    side the triangle normals face), stiffness_scale (default 1), tolerance (m, default 0.001) } ]
//            material: "NAME" (a fabric preset, engine/material_loader.h: ../materials/NAME.json, then
//                    assets/materials) or { areal_density, total_mass, stretch_model: "springs"|"volino", stretch_stiffness,
//                        bend_stiffness, young_modulus, alpha, damping, drag, lift, wind, gravity } }
//   interaction: { tau, max_speed, seam_tau, thickness, strain_limit (false or max strain),
//                  strain_iterations (the limiter's full pass, default 48; its passes between the
//                  colliders take at most 24, never more than this), tether_slack, extrapolation_horizon, grasp_radius,
//                  falloff: "uniform"|"linear"|"smooth", core_fraction, min_weight }
//   self_collision: { enabled (default true once the key is there), thickness, friction, iterations }
//                   (cloth against itself, sim/self_collision.h; off when the key is absent)
//   pins: [ { vertex } | { near: [x,y,z], radius } ]   (near: every vertex within radius, or the nearest)
//   colliders: [ { type: "plane"|"sphere"|"capsule"|"box", position, rotation_deg, radius, half_length,
//                  half_extents, velocity, angular_velocity, mu_static, mu_kinetic } ]
//   rigid_boxes: [ { position, rotation_deg, half_extents, mass, velocity, mu_static, mu_kinetic } ]
//   hands: { left: { position, rotation_deg }, right: { ... } }
//   stage: { position, rotation_deg }   (where the user stands in XR: the stage origin, floor at y = 0)
//   trackers: [ { device: "tracker0".."tracker3", vertices: [...] | near + radius, position, rotation_deg } ]
//   seams: [ [a, b], ... ]
#include <stdexcept>
#include <string>

#include "sim/scene.h"

namespace weft {

class SceneError : public std::runtime_error {
 public:
  SceneError(std::string file, std::string place, std::string problem);
  const std::string& file() const { return file_; }
  const std::string& place() const { return place_; }
  const std::string& problem() const { return problem_; }

 private:
  std::string file_, place_, problem_;
};

// Reads and checks the file; OBJ paths are relative to the scene file's folder.
Scene load_scene(const std::string& path);

// Same from text; `file` names it in errors, `base_dir` resolves OBJ paths.
Scene parse_scene(const std::string& text, const std::string& file, const std::string& base_dir = ".");

}  // namespace weft
