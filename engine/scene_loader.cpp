#include "engine/scene_loader.h"

#include "engine/gltf_mesh.h"
#include "engine/json_reader.h"
#include "engine/material_loader.h"
#include "engine/mesh_io.h"
#include "gpu/step_device.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include <glm/gtc/matrix_transform.hpp>

#include "sim/crease_line.h"
#include "sim/mesh_generators.h"
#include "sim/seam_line.h"
#include "sim/topology.h"

namespace weft {
namespace {

using json = nlohmann::json;
using T = JsonType;

// The scene's keys, one table per object (docs/scene_format.md lists the same, with defaults).
constexpr JsonKey kSceneKeys[] = {
    {"name", T::String},      {"sim", T::Object},         {"cloth", T::Object},     {"interaction", T::Object},
    {"self_collision", T::Object}, {"pins", T::Array},    {"colliders", T::Array},  {"rigid_boxes", T::Array},
    {"hands", T::Object},     {"trackers", T::Array},     {"seams", T::Array},      {"stage", T::Object},
    {"body", T::Object},
    {"seam_lines", T::Array},  {"demo", T::String, 0, 0, "two_hand none"},
};
constexpr JsonObjectSpec kScene{"scene", kSceneKeys};

constexpr JsonKey kSimKeys[] = {
    {"tick_hz", T::Number, 10, 10000},
    {"solver", T::String, 0, 0, "mg gs approx cg euler rk4 be bdf2 rk45"},
    {"iterations", T::Integer, 1, 99},  // approx: odd (Kang & Cho 4.2)
    {"cg_tolerance", T::Number, 1e-8, 0.5},
    {"cg_max_iterations", T::Integer, 1, 10000},
    {"alpha", T::Number, 0.5, 1},
    {"rk_tolerance", T::Number, 1e-12, 1},
    {"sweeps", T::Integer, 1, 1000},
    {"mg_tolerance", T::Number, 1e-8, 0.5},
    {"mg_max_iterations", T::Integer, 1, 10000},
    {"threads", T::Integer, 1, 2},
    {"failsafe", T::Boolean},
    {"device", T::String, 0, 0, "cpu gpu auto"},
};
constexpr JsonObjectSpec kSim{"sim", kSimKeys};

constexpr JsonKey kClothKeys[] = {
    {"mesh", T::Object},         {"position", T::Vec3}, {"rotation_deg", T::Vec3}, {"material", T::StringOrObject},
    {"weave_angle_deg", T::Number, -360, 360},          {"creases", T::Array},
    {"panels", T::Array},
};
constexpr JsonObjectSpec kCloth{"cloth", kClothKeys};

constexpr JsonKey kGridKeys[] = {
    {"type", T::String, 0, 0, "grid"},      {"width", T::Number, 1e-3, 100}, {"height", T::Number, 1e-3, 100},
    {"columns", T::Integer, 1, 1024},       {"rows", T::Integer, 1, 1024},
};
constexpr JsonObjectSpec kGrid{"cloth.mesh (grid)", kGridKeys};

constexpr JsonKey kIrregularKeys[] = {
    {"type", T::String, 0, 0, "irregular"}, {"width", T::Number, 1e-3, 100}, {"height", T::Number, 1e-3, 100},
    {"columns", T::Integer, 1, 1024},       {"rows", T::Integer, 1, 1024},   {"grading", T::Number, 1, 100},
    {"jitter", T::Number, 0, 0.45},         {"seed", T::Integer, 0, 4294967295.0},
};
constexpr JsonObjectSpec kIrregular{"cloth.mesh (irregular)", kIrregularKeys};

constexpr JsonKey kObjKeys[] = {
    {"type", T::String, 0, 0, "obj"}, {"path", T::String}, {"scale", T::Number, 1e-6, 1e6},
};
constexpr JsonObjectSpec kObj{"cloth.mesh (obj)", kObjKeys};

constexpr JsonKey kGltfKeys[] = {
    {"type", T::String, 0, 0, "gltf"}, {"path", T::String}, {"scale", T::Number, 1e-6, 1e6},
};
constexpr JsonObjectSpec kGltf{"cloth.mesh (gltf)", kGltfKeys};

// A garment's pieces: each its own mesh, placed, merged into one cloth of disjoint pieces.
constexpr JsonKey kPanelKeys[] = {
    {"name", T::String}, {"mesh", T::Object}, {"position", T::Vec3}, {"rotation_deg", T::Vec3},
};
constexpr JsonObjectSpec kPanel{"cloth.panels[]", kPanelKeys};

// A seam line: two border runs paired by arc length (sim/seam_line.h).
constexpr JsonKey kSeamLineKeys[] = {{"a", T::Object}, {"b", T::Object}};
constexpr JsonObjectSpec kSeamLine{"seam_lines[]", kSeamLineKeys};

// One run: a vertex list in order, an edge list, a named line of the panel's mesh file, or the border path
// between the border vertices nearest two points.
constexpr JsonKey kSeamRunKeys[] = {
    {"panel", T::String}, {"vertices", T::Array}, {"from", T::Vec3}, {"to", T::Vec3},
    {"edges", T::Array},  {"line", T::String},    {"reverse", T::Boolean},
};
constexpr JsonObjectSpec kSeamRun{"seam_lines[].a, seam_lines[].b", kSeamRunKeys};

constexpr JsonKey kCreaseKeys[] = {
    {"from", T::Vec2}, {"to", T::Vec2}, {"angle_deg", T::Number, -179.9, 179.9},
    {"stiffness_scale", T::Number, 0, 1e4}, {"tolerance", T::Number, 1e-7, 1},
};
constexpr JsonObjectSpec kCrease{"cloth.creases[]", kCreaseKeys};

constexpr JsonKey kInteractionKeys[] = {
    {"tau", T::Number, 1e-4, 10},
    {"max_speed", T::Number, 1e-3, 1e3},
    {"seam_tau", T::Number, 1e-4, 10},
    {"sew_gap", T::Number, 0, 0.1},
    {"thickness", T::Number, 0, 0.1},
    {"strain_limit", T::NumberOrFalse, 0, 10},
    {"strain_iterations", T::Integer, 1, 1000},
    {"tether_slack", T::Number, 0, 10},
    {"extrapolation_horizon", T::Number, 0, 1},
    {"grasp_radius", T::Number, 1e-4, 1},
    {"falloff", T::String, 0, 0, "uniform linear smooth"},
    {"core_fraction", T::Number, 0, 1},
    {"min_weight", T::Number, 0.01, 1},
    {"release_time", T::Number, 0, 1},
};
constexpr JsonObjectSpec kInteraction{"interaction", kInteractionKeys};

constexpr JsonKey kSelfCollisionKeys[] = {
    {"enabled", T::Boolean},
    {"thickness", T::Number, 1e-5, 0.1},
    {"friction", T::Number, 0, 10},
    {"iterations", T::Integer, 1, 100},
    {"consistent_orientation", T::Boolean},
    {"untangle_step", T::Number, 0, 2},         // x thickness; 0: off
    {"rescan_ticks", T::Integer, 0, 1000000},   // 0: never
};
constexpr JsonObjectSpec kSelfCollision{"self_collision", kSelfCollisionKeys};

// Vertex indices are checked against the mesh when read: the tables give only their lower bound.
constexpr JsonKey kPinKeys[] = {
    {"vertex", T::Integer, 0}, {"vertices", T::Array}, {"near", T::Vec3}, {"radius", T::Number, 0, 100},
};
constexpr JsonObjectSpec kPin{"pins[]", kPinKeys};

constexpr JsonKey kColliderKeys[] = {
    {"type", T::String, 0, 0, "plane sphere capsule box"},
    {"position", T::Vec3},
    {"rotation_deg", T::Vec3},
    {"radius", T::Number, 1e-4, 100},
    {"half_length", T::Number, 0, 100},
    {"half_extents", T::Vec3},
    {"velocity", T::Vec3},
    {"angular_velocity", T::Vec3},
    {"mu_static", T::Number, 0, 10},
    {"mu_kinetic", T::Number, 0, 10},
};
constexpr JsonObjectSpec kCollider{"colliders[]", kColliderKeys};

constexpr JsonKey kRigidBoxKeys[] = {
    {"position", T::Vec3}, {"rotation_deg", T::Vec3}, {"half_extents", T::Vec3}, {"mass", T::Number, 1e-4, 1e4},
    {"velocity", T::Vec3}, {"mu_static", T::Number, 0, 10}, {"mu_kinetic", T::Number, 0, 10},
};
constexpr JsonObjectSpec kRigidBox{"rigid_boxes[]", kRigidBoxKeys};

constexpr JsonKey kHandsKeys[] = {{"left", T::Object}, {"right", T::Object}, {"colliders", T::Object}};
constexpr JsonObjectSpec kHands{"hands", kHandsKeys};

constexpr JsonKey kPoseKeys[] = {{"position", T::Vec3}, {"rotation_deg", T::Vec3}};
constexpr JsonObjectSpec kPlacement{"stage, hands.left, hands.right", kPoseKeys};

constexpr JsonKey kHandCollidersKeys[] = {
    {"enabled", T::Boolean},
    {"palm_radius", T::Number, 0.005, 0.3},
    {"palm_half_length", T::Number, 0, 0.3},
    {"forearm_radius", T::Number, 0.005, 0.3},
    {"forearm_length", T::Number, 0, 1},
    {"wrist_offset", T::Number, 0, 0.5},
    {"mu_static", T::Number, 0, 10},
    {"mu_kinetic", T::Number, 0, 10},
};
constexpr JsonObjectSpec kHandColliders{"hands.colliders", kHandCollidersKeys};

// Devices and Vive tracker roles (XR_HTCX_vive_tracker_interaction) a body part can follow.
constexpr const char* kFollowChoices =
    "head left_hand right_hand tracker0 tracker1 tracker2 tracker3 handheld_object left_foot right_foot left_shoulder "
    "right_shoulder left_elbow right_elbow left_knee right_knee waist chest camera keyboard";

constexpr JsonKey kBodyKeys[] = {
    {"preset", T::String, 0, 0, "mannequin"},
    {"position", T::Vec3},
    {"rotation_deg", T::Vec3},
    {"height", T::Number, 0.5, 2.5},
    {"mu_static", T::Number, 0, 10},
    {"mu_kinetic", T::Number, 0, 10},
    {"parts", T::Array},
};
constexpr JsonObjectSpec kBody{"body", kBodyKeys};

constexpr JsonKey kBodyPartKeys[] = {
    {"name", T::String},
    {"type", T::String, 0, 0, "sphere capsule"},
    {"position", T::Vec3},
    {"rotation_deg", T::Vec3},
    {"radius", T::Number, 1e-3, 2},
    {"half_length", T::Number, 0, 2},
    {"follows", T::String, 0, 0, kFollowChoices},
    {"offset", T::Vec3},
    {"mu_static", T::Number, 0, 10},
    {"mu_kinetic", T::Number, 0, 10},
};
constexpr JsonObjectSpec kBodyPart{"body.parts[]", kBodyPartKeys};

constexpr JsonKey kTrackerKeys[] = {
    {"device", T::String, 0, 0, "tracker0 tracker1 tracker2 tracker3"},
    {"vertices", T::Array}, {"vertex", T::Integer, 0}, {"near", T::Vec3}, {"radius", T::Number, 0, 100},
    {"position", T::Vec3}, {"rotation_deg", T::Vec3},
};
constexpr JsonObjectSpec kTracker{"trackers[]", kTrackerKeys};

// position + rotation_deg (Euler angles in degrees, applied x, then y, then z)
Pose read_pose(const JsonObject& o) {
  Pose p;
  p.position = o.vec3("position", glm::vec3(0.f));
  const glm::vec3 deg = o.vec3("rotation_deg", glm::vec3(0.f));
  const glm::vec3 r = glm::radians(deg);
  p.orientation = glm::normalize(glm::angleAxis(r.z, glm::vec3(0, 0, 1)) * glm::angleAxis(r.y, glm::vec3(0, 1, 0)) *
                                 glm::angleAxis(r.x, glm::vec3(1, 0, 0)));
  return p;
}

// The mesh object `m` at `place`, not yet placed. file: set to the path of an OBJ or glTF mesh.
Mesh read_mesh_object(const JsonDocument& doc, const json& m, const std::string& place, const std::string& base_dir,
                      std::string& file, std::vector<MeshLine>* lines = nullptr) {
  if (!m.is_object()) doc.fail(place, "expected an object");
  // the type picks the table the other keys are read with
  const auto type = m.find("type");
  if (type == m.end()) doc.fail(place, "missing key 'type' (grid, irregular, obj or gltf)");
  if (!type->is_string()) doc.fail(json_pointer(place, "type"), "expected a string");
  const std::string name = type->get<std::string>();
  Mesh mesh;
  if (name == "grid") {
    const JsonObject o(doc, m, place, kGrid);
    GridSpec g;
    g.width = float(o.number("width", g.width));
    g.height = float(o.number("height", g.height));
    g.columns = o.integer("columns", g.columns);
    g.rows = o.integer("rows", g.rows);
    mesh = make_grid(g);
  } else if (name == "irregular") {
    const JsonObject o(doc, m, place, kIrregular);
    IrregularSpec s;
    s.width = float(o.number("width", s.width));
    s.height = float(o.number("height", s.height));
    s.columns = o.integer("columns", s.columns);
    s.rows = o.integer("rows", s.rows);
    s.grading = float(o.number("grading", s.grading));
    s.jitter = float(o.number("jitter", s.jitter));
    s.seed = o.integer("seed", s.seed);
    mesh = make_irregular(s);
  } else if (name == "obj" || name == "gltf") {
    const bool gltf = name == "gltf";
    const JsonObject o(doc, m, place, gltf ? kGltf : kObj);
    const std::string path = o.string("path", "");
    if (path.empty()) o.fail("path", gltf ? "missing glTF path" : "missing OBJ path");
    // The file's unit in metres: 0.01 for a mesh modelled in centimetres, 0.001 for millimetres.
    const float scale = float(o.number("scale", 1.0));
    try {
      file = (std::filesystem::path(base_dir) / path).string();
      mesh = gltf ? load_gltf_mesh(file, lines) : load_obj_mesh(file, nullptr, true, lines);
    } catch (const MeshFileError& e) {
      o.fail("path", e.what());
    }
    for (glm::vec3& p : mesh.positions) p *= scale;
    for (glm::vec2& u : mesh.material) u *= scale;  // material coordinates are rest lengths, in the same unit
    if (lines)
      for (MeshLine& l : *lines)
        for (auto& seg : l.segments) seg = {seg[0] * scale, seg[1] * scale};
  } else {
    doc.fail(json_pointer(place, "type"), "'" + name + "' is not one of grid, irregular, obj, gltf");
  }
  return mesh;
}

void place_mesh(Mesh& mesh, const Pose& placement) {
  transform_mesh(mesh, glm::translate(glm::mat4(1.f), placement.position) * glm::mat4_cast(placement.orientation));
}

// A panel's named lines placed as its mesh, by the same arithmetic (so a line's points land on its vertices).
void place_lines(std::vector<MeshLine>& lines, const Pose& placement) {
  Mesh points;
  for (const MeshLine& l : lines)
    for (const auto& seg : l.segments) points.positions.insert(points.positions.end(), {seg[0], seg[1]});
  place_mesh(points, placement);
  size_t k = 0;
  for (MeshLine& l : lines)
    for (auto& seg : l.segments) {
      seg = {points.positions[k], points.positions[k + 1]};
      k += 2;
    }
}

// The cloth's mesh: `mesh`, or its `panels` merged in order (each placed by its own pose, then all by the
// cloth's); scene.panels gets each piece's vertex and triangle ranges.
Mesh read_cloth_mesh(const JsonObject& cloth, const std::string& base_dir, Scene& scene,
                     std::vector<std::vector<MeshLine>>& panel_lines) {
  const JsonDocument& doc = cloth.doc();
  if (cloth.has("mesh") == cloth.has("panels")) cloth.fail("needs either 'mesh' or 'panels'");
  Mesh mesh;
  if (cloth.has("mesh")) {
    Panel p;
    p.name = "cloth";
    panel_lines.emplace_back();
    mesh = read_mesh_object(doc, cloth.at("mesh"), cloth.pointer("mesh"), base_dir, scene.mesh_file, &panel_lines.back());
    p.file = scene.mesh_file;
    p.vertex_count = uint32_t(mesh.vertex_count());
    p.triangle_count = uint32_t(mesh.triangle_count());
    scene.panels.push_back(p);
  } else {
    const json& list = cloth.array("panels");
    if (list.empty()) cloth.fail("panels", "needs at least one panel");
    for (size_t k = 0; k < list.size(); ++k) {
      const JsonObject o(doc, list[k], json_pointer(cloth.pointer("panels"), k), kPanel);
      Panel p;
      p.name = o.string("name", "panel" + std::to_string(k));
      for (const Panel& q : scene.panels)
        if (q.name == p.name) o.fail("name", "a second panel named '" + p.name + "'");
      if (!o.has("mesh")) o.fail("missing key 'mesh'");
      panel_lines.emplace_back();
      Mesh piece = read_mesh_object(doc, o.at("mesh"), o.pointer("mesh"), base_dir, p.file, &panel_lines.back());
      place_mesh(piece, read_pose(o));
      place_lines(panel_lines.back(), read_pose(o));
      if (const std::string err = validate_mesh(piece); !err.empty()) doc.fail(o.pointer("mesh"), err);
      p.first_vertex = uint32_t(mesh.vertex_count());
      p.first_triangle = uint32_t(mesh.triangle_count());
      p.vertex_count = uint32_t(piece.vertex_count());
      p.triangle_count = uint32_t(piece.triangle_count());
      for (auto t : piece.triangles)
        mesh.triangles.push_back({t[0] + p.first_vertex, t[1] + p.first_vertex, t[2] + p.first_vertex});
      mesh.positions.insert(mesh.positions.end(), piece.positions.begin(), piece.positions.end());
      mesh.material.insert(mesh.material.end(), piece.material.begin(), piece.material.end());
      if (k == 0) scene.mesh_file = p.file;
      scene.panels.push_back(std::move(p));
    }
  }
  place_mesh(mesh, read_pose(cloth));
  for (std::vector<MeshLine>& lines : panel_lines) place_lines(lines, read_pose(cloth));
  const std::string place = cloth.has("mesh") ? cloth.pointer("mesh") : cloth.pointer("panels");
  if (const std::string err = validate_mesh(mesh); !err.empty()) doc.fail(place, err);
  return mesh;
}

// One border run of a seam line, as vertex indices of the whole cloth.
std::vector<uint32_t> read_seam_run_in_order(const JsonObject& j, const Scene& scene, const Topology& topology,
                                             const std::vector<std::vector<MeshLine>>& panel_lines) {
  uint32_t first = 0, count = uint32_t(scene.mesh.vertex_count());
  size_t panel = 0;
  std::vector<uint8_t> in_panel;
  if (j.has("panel")) {
    const std::string name = j.string("panel", "");
    const auto p = std::find_if(scene.panels.begin(), scene.panels.end(), [&](const Panel& q) { return q.name == name; });
    if (p == scene.panels.end()) j.fail("panel", "no panel named '" + name + "'");
    panel = size_t(p - scene.panels.begin());
    first = p->first_vertex;
    count = p->vertex_count;
    in_panel.assign(scene.mesh.vertex_count(), 0);
    std::fill(in_panel.begin() + first, in_panel.begin() + first + count, 1);
  }
  const bool by_vertices = j.has("vertices"), by_points = j.has("from") || j.has("to");
  const bool by_edges = j.has("edges"), by_line = j.has("line");
  if (int(by_vertices) + int(by_points) + int(by_edges) + int(by_line) != 1)
    j.fail("needs one of 'vertices', 'edges', 'line', or 'from' and 'to'");
  std::vector<uint32_t> run;
  if (by_vertices) {
    const json& list = j.array("vertices");
    for (size_t k = 0; k < list.size(); ++k)  // indices within the panel when one is named
      run.push_back(first + j.doc().integer(list[k], json_pointer(j.pointer("vertices"), k), 0, count - 1));
    if (run.size() < 2) j.fail("vertices", "a run needs at least two vertices");
    return run;
  }
  const char* why = "";
  if (by_edges) {  // [[a, b], ...], indices within the panel when one is named, chained into one path
    const json& list = j.array("edges");
    std::vector<std::array<uint32_t, 2>> edges;
    for (size_t k = 0; k < list.size(); ++k) {
      const std::string at = json_pointer(j.pointer("edges"), k);
      if (!list[k].is_array() || list[k].size() != 2) j.doc().fail(at, "expected an edge [a, b]");
      edges.push_back({first + j.doc().integer(list[k][0], json_pointer(at, 0), 0, count - 1),
                       first + j.doc().integer(list[k][1], json_pointer(at, 1), 0, count - 1)});
    }
    run = chain_edges(edges, &why);
    if (run.empty()) j.fail("edges", why);
    return run;
  }
  if (by_line) {  // a named line of the panel's mesh file, its points matched to the panel's vertices
    if (!j.has("panel") && scene.panels.size() != 1) j.fail("line", "a line needs its 'panel'");
    const std::string name = j.string("line", "");
    const MeshLine* line = nullptr;
    for (const MeshLine& l : panel_lines[panel])
      if (l.name == name) line = &l;
    if (!line) {
      std::string known;
      for (const MeshLine& l : panel_lines[panel]) known += (known.empty() ? "" : ", ") + ("'" + l.name + "'");
      j.fail("line", "the mesh file of panel '" + scene.panels[panel].name + "' has no line named '" + name + "' (" +
                         (known.empty() ? std::string("it has no lines") : "its lines: " + known) + ")");
    }
    const glm::vec3* x = scene.mesh.positions.data();
    auto vertex_at = [&](const glm::vec3& p) {
      uint32_t best = first;
      float best_d = INFINITY;
      for (uint32_t i = first; i < first + count; ++i)
        if (const float d = glm::length(x[i] - p); d < best_d) { best_d = d; best = i; }
      constexpr float kOnVertex = 1e-4f;  // m: a line's point is a vertex of the panel, up to the file's rounding
      if (!(best_d <= kOnVertex)) {
        char msg[160];
        std::snprintf(msg, sizeof msg, "line '%s': a point (%.4f, %.4f, %.4f) is %.2f mm from the panel's nearest vertex",
                      name.c_str(), double(p.x), double(p.y), double(p.z), double(best_d) * 1e3);
        j.fail("line", msg);
      }
      return best;
    };
    std::vector<std::array<uint32_t, 2>> edges;
    for (const auto& seg : line->segments) edges.push_back({vertex_at(seg[0]), vertex_at(seg[1])});
    run = chain_edges(edges, &why);
    if (run.empty()) j.fail("line", "line '" + name + "': " + why);
    return run;
  }
  if (!j.has("from") || !j.has("to")) j.fail("needs both 'from' and 'to'");
  const glm::vec3* x = scene.mesh.positions.data();
  const size_t n = scene.mesh.vertex_count();
  const uint8_t* allowed = in_panel.empty() ? nullptr : in_panel.data();
  const uint32_t from = nearest_border_vertex(topology, x, n, j.vec3("from", glm::vec3(0.f)), allowed);
  const uint32_t to = nearest_border_vertex(topology, x, n, j.vec3("to", glm::vec3(0.f)), allowed);
  why = "the cloth has no border";
  if (from != UINT32_MAX) run = border_run(topology, x, from, to, &why);
  if (run.empty()) j.fail(why);
  return run;
}

std::vector<uint32_t> read_seam_run(const JsonObject& j, const Scene& scene, const Topology& topology,
                                    const std::vector<std::vector<MeshLine>>& panel_lines) {
  std::vector<uint32_t> run = read_seam_run_in_order(j, scene, topology, panel_lines);
  if (j.boolean("reverse", false)) std::reverse(run.begin(), run.end());
  return run;
}

// A fabric preset by name (assets/materials/NAME.json beside the scenes folder, or a path), or the
// material object itself, read by the presets' parser.
Material read_scene_material(const JsonObject& cloth, const std::string& base_dir) {
  if (!cloth.has("material")) return Material{};
  const json& j = cloth.at("material");
  if (j.is_string()) {
    const std::string name = j.get<std::string>();
    const std::filesystem::path beside = std::filesystem::path(base_dir) / ".." / "materials";
    try {
      if (std::filesystem::exists(beside / (name + ".json"))) return load_material_preset(name, beside.string());
      return load_material_preset(name);
    } catch (const MaterialFileError& e) {
      cloth.fail("material", e.what());
    }
  }
  return read_material(cloth.doc(), j, cloth.pointer("material"));
}

// Crease lines (sim/crease_line.h): segments in the mesh's material coordinates, each mapped to the
// bending hinges on it. Checked here so that a line that misses every interior edge names its place.
std::vector<CreaseLine> read_creases(const JsonObject& cloth, const Mesh& mesh, const Material& material) {
  std::vector<CreaseLine> out;
  if (!cloth.has("creases")) return out;
  const json& list = cloth.array("creases");
  if (!list.empty() && material.stretch_model != StretchModel::WeftWarp)
    cloth.fail("creases", "crease lines need a weft_warp material (a fabric preset such as \"cotton\"): they set its "
                          "bending hinges' rest angles");
  const Topology topology = build_topology(mesh);
  for (size_t k = 0; k < list.size(); ++k) {
    const JsonObject j(cloth.doc(), list[k], json_pointer(cloth.pointer("creases"), k), kCrease);
    CreaseLine c;
    c.from = j.vec2("from");
    c.to = j.vec2("to");
    if (!j.has("angle_deg")) j.fail("missing key 'angle_deg'");
    c.rest_angle_deg = float(j.number("angle_deg", 0));
    c.stiffness_scale = float(j.number("stiffness_scale", c.stiffness_scale));
    c.tolerance = float(j.number("tolerance", c.tolerance));
    if (const std::string err = validate_crease_line(c); !err.empty()) j.fail(err);
    if (crease_interior_edge_count(c, mesh, topology) == 0)
      j.fail("the segment lies on no interior edge of the mesh (material coordinates, metres; tolerance " +
             std::to_string(c.tolerance) + " m)");
    out.push_back(c);
  }
  return out;
}

// A vertex list: explicit indices, or every vertex within `radius` of `near` (the nearest if none is).
std::vector<uint32_t> read_vertices(const JsonObject& j, const Mesh& mesh) {
  std::vector<uint32_t> out;
  const uint32_t last = uint32_t(mesh.vertex_count() - 1);
  if (j.has("vertex")) out.push_back(j.integer("vertex", 0, 0, last));
  if (j.has("vertices")) {
    const json& list = j.array("vertices");
    for (size_t k = 0; k < list.size(); ++k)
      out.push_back(j.doc().integer(list[k], json_pointer(j.pointer("vertices"), k), 0, last));
  }
  if (j.has("near")) {
    const glm::vec3 p = j.vec3("near", glm::vec3(0.f));
    const float radius = float(j.number("radius", 0.0));
    uint32_t nearest = 0;
    float best = INFINITY;
    for (uint32_t i = 0; i < mesh.vertex_count(); ++i) {
      const float d = glm::length(mesh.positions[i] - p);
      if (d <= radius) out.push_back(i);
      if (d < best) { best = d; nearest = i; }
    }
    if (out.empty()) out.push_back(nearest);
  }
  if (out.empty()) j.fail("needs 'vertex', 'vertices' or 'near'");
  return out;
}

Collider read_collider(const JsonObject& j) {
  Collider c;
  const std::string type = j.string("type", "");
  if (type.empty()) j.fail("missing key 'type' (plane, sphere, capsule or box)");
  c.shape = type == "plane" ? ColliderShape::Plane : type == "sphere" ? ColliderShape::Sphere
          : type == "capsule" ? ColliderShape::Capsule : ColliderShape::Box;
  c.pose = read_pose(j);
  c.radius = float(j.number("radius", c.radius));
  c.half_length = float(j.number("half_length", c.half_length));
  c.half_extents = j.vec3("half_extents", c.half_extents);
  for (int k = 0; k < 3; ++k)
    if (c.half_extents[k] <= 0.f) j.fail("half_extents", "half extents must be positive");
  c.linear_velocity = j.vec3("velocity", c.linear_velocity);
  c.angular_velocity = j.vec3("angular_velocity", c.angular_velocity);
  c.mu_static = float(j.number("mu_static", c.mu_static));
  c.mu_kinetic = float(j.number("mu_kinetic", c.mu_kinetic));
  if (c.mu_kinetic > c.mu_static) j.fail("mu_kinetic", "kinetic friction exceeds static friction");
  c.previous_pose = c.pose;
  return c;
}

RigidBox read_rigid_box(const JsonObject& j) {
  RigidBox b;
  b.pose = read_pose(j);
  b.previous_pose = b.pose;
  b.half_extents = j.vec3("half_extents", b.half_extents);
  for (int a = 0; a < 3; ++a)
    if (b.half_extents[a] <= 0.f) j.fail("half_extents", "half extents must be positive");
  b.mass = float(j.number("mass", b.mass));
  b.linear_velocity = j.vec3("velocity", b.linear_velocity);
  b.mu_static = float(j.number("mu_static", b.mu_static));
  b.mu_kinetic = float(j.number("mu_kinetic", b.mu_kinetic));
  return b;
}

void read_sim(const JsonObject& j, WorldConfig& world) {
  world.tick_hz = j.number("tick_hz", world.tick_hz);
  world.integrator = parse_integrator_kind(j.string("solver", integrator_kind_name(WorldConfig{}.integrator)));
  SolverOptions& so = world.solver;
  so.iterations = int(j.integer("iterations", so.iterations));
  so.cg_tolerance = float(j.number("cg_tolerance", so.cg_tolerance));
  so.cg_max_iterations = int(j.integer("cg_max_iterations", so.cg_max_iterations));
  so.alpha = float(j.number("alpha", so.alpha));
  so.rk_tolerance = float(j.number("rk_tolerance", so.rk_tolerance));
  so.gs_sweeps = int(j.integer("sweeps", so.gs_sweeps));
  so.mg_tolerance = float(j.number("mg_tolerance", so.mg_tolerance));
  so.mg_max_iterations = int(j.integer("mg_max_iterations", so.mg_max_iterations));
  so.mg_threads = int(j.integer("threads", so.mg_threads));
  world.failsafe.enabled = j.boolean("failsafe", world.failsafe.enabled);
  world.device = parse_step_device(j.string("device", step_device_name(world.device)));
  if (so.iterations % 2 == 0) j.fail("iterations", "must be odd (Kang & Cho 4.2)");
}

void read_interaction(const JsonObject& j, Scene& scene) {
  InteractionConfig& c = scene.world.interaction;
  c.elastic.tau = float(j.number("tau", c.elastic.tau));
  c.elastic.max_speed = float(j.number("max_speed", c.elastic.max_speed));
  c.seam.tau = float(j.number("seam_tau", c.seam.tau));
  c.sew_gap = float(j.number("sew_gap", c.sew_gap));
  c.thickness = float(j.number("thickness", c.thickness));
  if (j.has("strain_limit")) {
    if (j.at("strain_limit").is_boolean()) {
      if (j.at("strain_limit").get<bool>()) j.fail("strain_limit", "give the limit as a number, or false");
      c.strain.enabled = false;
    } else {
      c.strain.max_strain = float(j.number("strain_limit", c.strain.max_strain));
    }
  }
  c.strain.iterations = int(j.integer("strain_iterations", uint32_t(c.strain.iterations)));
  c.strain.near_iterations = std::min(c.strain.near_iterations, c.strain.iterations);  // never more than a full pass
  c.strain.tether_slack = float(j.number("tether_slack", c.strain.tether_slack));
  c.extrapolation_horizon = j.number("extrapolation_horizon", c.extrapolation_horizon);
  scene.grasp_radius = float(j.number("grasp_radius", scene.grasp_radius));
  const std::string falloff = j.string("falloff", "smooth");
  c.grasp.falloff = falloff == "uniform" ? Falloff::Uniform : falloff == "linear" ? Falloff::Linear : Falloff::Smooth;
  c.grasp.core_fraction = float(j.number("core_fraction", c.grasp.core_fraction));
  c.grasp.min_weight = float(j.number("min_weight", c.grasp.min_weight));
  c.release_time = float(j.number("release_time", c.release_time));
}

void read_self_collision(const JsonObject& j, SelfCollisionConfig& c) {
  c.enabled = j.boolean("enabled", true);  // the key's presence turns it on
  c.thickness = float(j.number("thickness", c.thickness));
  c.friction = float(j.number("friction", c.friction));
  c.iterations = int(j.integer("iterations", uint32_t(c.iterations)));
  c.consistent_orientation = j.boolean("consistent_orientation", c.consistent_orientation);
  c.untangle_step = float(j.number("untangle_step", c.untangle_step));
  c.rescan_ticks = int(j.integer("rescan_ticks", uint32_t(c.rescan_ticks)));
}

void read_hand_colliders(const JsonObject& j, HandColliderSizes& c) {
  c.enabled = j.boolean("enabled", true);  // the key's presence turns them on
  c.palm_radius = float(j.number("palm_radius", c.palm_radius));
  c.palm_half_length = float(j.number("palm_half_length", c.palm_half_length));
  c.forearm_radius = float(j.number("forearm_radius", c.forearm_radius));
  c.forearm_length = float(j.number("forearm_length", c.forearm_length));
  c.wrist_offset = float(j.number("wrist_offset", c.wrist_offset));
  c.mu_static = float(j.number("mu_static", c.mu_static));
  c.mu_kinetic = float(j.number("mu_kinetic", c.mu_kinetic));
  if (c.mu_kinetic > c.mu_static) j.fail("mu_kinetic", "kinetic friction exceeds static friction");
}

// The device a body part follows: a hand, a tracker, or the tracker slot kept for a Vive tracker role (the
// first slot no scene tracker and no other role uses; XR assigns that role to it).
Device follow_device(const JsonObject& j, Scene& scene) {
  const std::string name = j.string("follows", "");
  if (name == "head") return Device::Head;
  if (name == "left_hand") return Device::LeftHand;
  if (name == "right_hand") return Device::RightHand;
  if (name.starts_with("tracker")) return Device(device_index(Device::Tracker0) + (name.back() - '0'));
  for (int k = 0; k < 4; ++k)
    if (scene.tracker_roles[size_t(k)] == name) return Device(device_index(Device::Tracker0) + k);
  for (int k = 0; k < 4; ++k) {
    const Device d = Device(device_index(Device::Tracker0) + k);
    bool used = !scene.tracker_roles[size_t(k)].empty();
    for (const TrackerAttachment& t : scene.trackers) used = used || t.device == d;
    if (used) continue;
    scene.tracker_roles[size_t(k)] = name;
    return d;
  }
  j.fail("follows", "no tracker slot left for role '" + name + "' (four trackers in all)");
}

void read_body_part(const JsonObject& j, Scene& scene) {
  const std::string name = j.string("name", "");
  if (name.empty()) j.fail("missing key 'name'");
  BodyPart* part = scene.body.find(name);
  if (!part) {  // a new part: its shape is required
    if (!j.has("type")) j.fail("missing key 'type' (sphere or capsule) for the new part '" + name + "'");
    scene.body.parts.push_back(BodyPart{.name = name, .collider = {}});
    part = &scene.body.parts.back();
    part->collider.body = true;
  }
  Collider& c = part->collider;
  if (j.has("type")) c.shape = j.string("type", "") == "sphere" ? ColliderShape::Sphere : ColliderShape::Capsule;
  if (j.has("position") || j.has("rotation_deg")) c.pose = read_pose(j);
  c.previous_pose = c.pose;
  c.radius = float(j.number("radius", c.radius));
  c.half_length = float(j.number("half_length", c.half_length));
  c.mu_static = float(j.number("mu_static", c.mu_static));
  c.mu_kinetic = float(j.number("mu_kinetic", c.mu_kinetic));
  if (c.mu_kinetic > c.mu_static) j.fail("mu_kinetic", "kinetic friction exceeds static friction");
  if (j.has("offset") && !j.has("follows")) j.fail("offset", "an offset needs 'follows'");
  if (j.has("follows")) {
    const Device d = follow_device(j, scene);
    // centred on the device (or at `offset` in its frame), turning with it from the part's own orientation
    const glm::vec3 offset = j.vec3("offset", glm::vec3(0.f));
    drive_part(*part, d, Pose{c.pose.position - offset, glm::quat(1.f, 0.f, 0.f, 0.f)});
  }
}

void read_body(const JsonObject& j, Scene& scene) {
  const float mu_s = float(j.number("mu_static", 0.5)), mu_k = float(j.number("mu_kinetic", 0.4));
  if (mu_k > mu_s) j.fail("mu_kinetic", "kinetic friction exceeds static friction");
  if (j.has("preset") && j.string("preset", "") == "mannequin") scene.body = make_mannequin(read_pose(j), float(j.number("height", 1.75)), mu_s, mu_k);
  else if (j.has("position") || j.has("rotation_deg") || j.has("height"))
    j.fail("placement and height need a 'preset'");
  if (j.has("parts")) {
    const json& list = j.array("parts");
    for (size_t k = 0; k < list.size(); ++k)
      read_body_part(JsonObject(j.doc(), list[k], json_pointer(j.pointer("parts"), k), kBodyPart), scene);
  }
  if (scene.body.parts.empty()) j.fail("a body needs a 'preset' or 'parts'");
}

// Each element of the array `key` of `root` as an object read with `spec`.
template <class F>
void for_each_object(const JsonObject& root, const char* key, const JsonObjectSpec& spec, F&& read) {
  if (!root.has(key)) return;
  const json& list = root.array(key);
  for (size_t k = 0; k < list.size(); ++k) read(JsonObject(root.doc(), list[k], json_pointer(root.pointer(key), k), spec));
}

Scene read_scene(const JsonDocument& doc, const std::string& base_dir) {
  const JsonObject root(doc, doc.root(), "", kScene);
  Scene scene;
  scene.name = root.string("name", "unnamed");
  scene.scripted_demo = root.string("demo", "two_hand") == "two_hand";
  if (root.has("sim")) read_sim(root.object("sim", kSim), scene.world);
  const JsonObject cloth = root.object("cloth", kCloth);
  std::vector<std::vector<MeshLine>> panel_lines;  // each panel's named lines, placed with it
  scene.mesh = read_cloth_mesh(cloth, base_dir, scene, panel_lines);
  scene.material = read_scene_material(cloth, base_dir);
  // the weft's angle from the mesh's material u axis (weft/warp materials; Volino 2005 sec. 2.2.2)
  scene.material.weave.angle_deg = float(cloth.number("weave_angle_deg", scene.material.weave.angle_deg));
  scene.creases = read_creases(cloth, scene.mesh, scene.material);
  if (root.has("interaction")) read_interaction(root.object("interaction", kInteraction), scene);
  if (root.has("self_collision"))
    read_self_collision(root.object("self_collision", kSelfCollision), scene.world.self_collision);
  for_each_object(root, "pins", kPin, [&](const JsonObject& j) {
    for (uint32_t v : read_vertices(j, scene.mesh)) scene.pins.push_back(v);
  });
  for_each_object(root, "colliders", kCollider, [&](const JsonObject& j) { scene.colliders.push_back(read_collider(j)); });
  for_each_object(root, "rigid_boxes", kRigidBox,
                  [&](const JsonObject& j) { scene.rigid_boxes.push_back(read_rigid_box(j)); });
  if (root.has("stage")) scene.stage = read_pose(root.object("stage", kPlacement));
  if (root.has("hands")) {
    const JsonObject hands = root.object("hands", kHands);
    for (int h = 0; h < 2; ++h) {
      const char* key = h == 0 ? "left" : "right";
      if (hands.has(key)) scene.hand_start[h] = read_pose(hands.object(key, kPlacement));
    }
    if (hands.has("colliders")) read_hand_colliders(hands.object("colliders", kHandColliders), scene.hand_colliders);
  }
  for_each_object(root, "trackers", kTracker, [&](const JsonObject& j) {
    TrackerAttachment t;
    const std::string device = j.string("device", "tracker0");
    t.device = Device(int(Device::Tracker0) + (device.back() - '0'));
    t.vertices = read_vertices(j, scene.mesh);
    t.pose = read_pose(j);
    scene.trackers.push_back(std::move(t));
  });
  if (root.has("body")) read_body(root.object("body", kBody), scene);
  if (root.has("seams")) {
    const json& list = root.array("seams");
    const uint32_t last = uint32_t(scene.mesh.vertex_count() - 1);
    for (size_t k = 0; k < list.size(); ++k) {
      const std::string place = json_pointer(root.pointer("seams"), k);
      if (!list[k].is_array() || list[k].size() != 2) doc.fail(place, "expected a pair [a, b] of vertex indices");
      const uint32_t a = doc.integer(list[k][0], json_pointer(place, 0), 0, last);
      const uint32_t b = doc.integer(list[k][1], json_pointer(place, 1), 0, last);
      if (a == b) doc.fail(place, "a seam joins two different vertices");
      scene.seams.emplace_back(a, b);
    }
  }
  if (root.has("seam_lines")) {
    const Topology topology = build_topology(scene.mesh);
    for_each_object(root, "seam_lines", kSeamLine, [&](const JsonObject& j) {
      if (!j.has("a") || !j.has("b")) j.fail("needs both runs 'a' and 'b'");
      const std::vector<uint32_t> a = read_seam_run(j.object("a", kSeamRun), scene, topology, panel_lines);
      const std::vector<uint32_t> b = read_seam_run(j.object("b", kSeamRun), scene, topology, panel_lines);
      if (pair_runs(a, b, scene.mesh.positions.data(), scene.seam_lines) == 0)
        j.fail("the two runs give no seam pair (the same run, or of no length)");
    });
  }
  return scene;
}

}  // namespace

Scene parse_scene(const std::string& text, const std::string& file, const std::string& base_dir) {
  try {
    return read_scene(JsonDocument::parse(text, file), base_dir);
  } catch (const JsonError& e) {
    throw SceneError(e);
  }
}

Scene load_scene(const std::string& path) {
  try {
    return read_scene(JsonDocument::load(path), std::filesystem::path(path).parent_path().string());
  } catch (const JsonError& e) {
    throw SceneError(e);
  }
}

std::vector<const JsonObjectSpec*> scene_format() {
  std::vector<const JsonObjectSpec*> out = {&kScene, &kSim, &kCloth, &kGrid, &kIrregular, &kObj, &kGltf, &kPanel,
                                            &kSeamLine, &kSeamRun, &kCrease,
                                            &kInteraction, &kSelfCollision, &kPin, &kCollider, &kRigidBox,
                                            &kHands, &kPlacement, &kTracker, &kHandColliders, &kBody, &kBodyPart};
  for (const JsonObjectSpec* s : material_format()) out.push_back(s);
  return out;
}

}  // namespace weft
