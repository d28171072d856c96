#pragma once
// A scene as plain data: the cloth (mesh + material), what holds it (pins, tracker attachments, seams),
// what it touches (colliders, rigid boxes), the hands' start poses and the sim settings. Files are read
// by engine/scene_loader (sim/ knows nothing of JSON); build_world turns a Scene into a World.
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "sim/body.h"
#include "sim/collider.h"
#include "sim/crease_line.h"
#include "sim/hand_colliders.h"
#include "sim/material.h"
#include "sim/mesh.h"
#include "sim/pose.h"
#include "sim/rigid_body.h"
#include "sim/world.h"

namespace weft {

struct TrackerAttachment {
  Device device = Device::Tracker0;
  std::vector<uint32_t> vertices;  // attached vertices
  Pose pose;                       // the tracker's pose when the attachment is made
};

// One piece of a garment: a range of the cloth's vertices and triangles (panels are merged into one
// cloth of disjoint pieces, in the scene's order).
struct Panel {
  std::string name;
  std::string file;                  // the mesh file it was read from ("": generated)
  uint32_t first_vertex = 0, vertex_count = 0;
  uint32_t first_triangle = 0, triangle_count = 0;
};

struct Scene {
  std::string name;
  Mesh mesh;                                     // cloth rest shape, placed in the world
  std::string mesh_file;                         // the OBJ file it was read from ("": generated)
  std::vector<Panel> panels;                     // the pieces of mesh, a garment's panels (one: the whole cloth)
  Material material;
  std::vector<uint32_t> pins;                    // vertices fixed at their rest position
  std::vector<Collider> colliders;
  std::vector<RigidBox> rigid_boxes;
  std::vector<TrackerAttachment> trackers;
  std::vector<std::pair<uint32_t, uint32_t>> seams;
  SeamSet seam_lines;                            // the seam lines' pairs, by arc length (sim/seam_line.h)
  std::vector<CreaseLine> creases;               // fold lines in material coordinates (weft_warp materials)
  std::array<Pose, 2> hand_start;                // left, right: where the hands start (for the runtime)
  HandColliderSizes hand_colliders;              // each hand's palm and forearm (on unless "enabled": false)
  Body body;                                     // a mannequin or tracked body parts (none: empty)
  // The Vive tracker role (XR_HTCX_vive_tracker_interaction's name, "waist") each tracker slot is kept
  // for, "" where none: a body part following a role follows that slot's device, and XR gives the role
  // that slot.
  std::array<std::string, 4> tracker_roles;
  Pose stage;                                    // where the user stands (XR: the stage origin), y = floor
  float grasp_radius = 0.04f;                    // radius a grab takes, m
  bool scripted_demo = true;                     // the headless modes' two-hand demo grabs the cloth (runtime)
  WorldConfig world;
};

// Builds the model and the world and applies pins, colliders, boxes, trackers and seams; then the body's
// parts and the hands' colliders (after the scene's colliders: their indices stay the file's).
// Throws std::invalid_argument (from build_cloth_model) on an unusable mesh or material.
World build_world(const Scene& scene);

}  // namespace weft
