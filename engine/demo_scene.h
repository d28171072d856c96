#pragma once
// The built-in default scene: a square cloth lying on a table, ready for two-hand grabbing, plus a
// stand-in table/floor contact used until the simulator's own collisions (issue 3) land.
#include <array>
#include <cstdint>
#include <string>

#include "engine/camera.h"
#include "engine/scene_props.h"
#include "sim/world.h"

namespace weft {

struct TableSceneSpec {
  float cloth_size = 0.8f;     // m, square
  uint32_t quads = 24;         // per side: (quads + 1)^2 vertices
  float lift = 0.01f;          // initial height above the table top, m
  double tick_hz = 240;
  // Full implicit Euler by CG: falls and drapes correctly; Kang & Cho's one-iteration Jacobi
  // approximation slows free fall badly at this stiffness and resolution.
  IntegratorKind integrator = IntegratorKind::ConjugateGradient;
  std::string scene_file;      // a scene JSON (assets/scenes/); when set it replaces the built-in table
};

struct DemoScene {
  World world;
  SceneProps props;
  std::array<uint32_t, 2> near_corners{};  // left and right cloth corners on the camera's side
  OrbitCamera camera;                      // frames the table from the front
};

// The built-in table scene, or spec.scene_file's scene (its world, colliders as props, a camera on the
// cloth, the near corners for the scripted demo). Throws SceneError for a malformed file.
DemoScene make_table_scene(const TableSceneSpec& spec = {});

// Pushes vertices that sank into the table top or the floor back onto the surface, removes their
// inward velocity and applies simple friction. Kinematic vertices are left alone. Returns the number
// of vertices in contact.
size_t apply_stand_in_contact(const SceneProps& props, ClothState& state, float thickness = 0.004f,
                              float friction = 0.5f);

}  // namespace weft
