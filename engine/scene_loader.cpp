#include "engine/scene_loader.h"

#include "engine/material_loader.h"
#include "engine/mesh_io.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <sstream>

#include <glm/gtc/matrix_transform.hpp>
#include <nlohmann/json.hpp>

#include "sim/crease_line.h"
#include "sim/mesh_generators.h"
#include "sim/topology.h"

namespace weft {

SceneError::SceneError(std::string file, std::string place, std::string problem)
    : std::runtime_error(file + ": " + place + ": " + problem),
      file_(std::move(file)), place_(std::move(place)), problem_(std::move(problem)) {}

namespace {

using json = nlohmann::json;
constexpr double kInf = std::numeric_limits<double>::infinity();

// Reads typed values out of the JSON tree, naming the JSON pointer of anything wrong.
class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& place, const std::string& problem) const {
    throw SceneError(file_, place.empty() ? "/" : place, problem);
  }

  static std::string at(const std::string& place, const std::string& key) { return place + "/" + key; }
  static std::string at(const std::string& place, size_t index) { return place + "/" + std::to_string(index); }

  // j must be an object whose keys are all in `allowed`.
  void object(const json& j, const std::string& place, std::initializer_list<const char*> allowed) const {
    if (!j.is_object()) fail(place, "expected an object");
    for (const auto& [key, value] : j.items()) {
      bool known = false;
      for (const char* a : allowed) known = known || key == a;
      if (!known) fail(at(place, key), "unknown key '" + key + "'");
    }
  }

  const json& array(const json& j, const std::string& place) const {
    if (!j.is_array()) fail(place, "expected an array");
    return j;
  }

  double number(const json& obj, const std::string& place, const char* key, double fallback, double lo = -kInf,
                double hi = kInf) const {
    if (!obj.contains(key)) return fallback;
    return number_value(obj.at(key), at(place, key), lo, hi);
  }

  double number_value(const json& v, const std::string& place, double lo = -kInf, double hi = kInf) const {
    if (!v.is_number()) fail(place, "expected a number");
    const double x = v.get<double>();
    if (!std::isfinite(x)) fail(place, "expected a finite number");
    if (x < lo || x > hi) {
      std::ostringstream s;
      s << "value " << x << " out of range [" << lo << ", " << hi << "]";
      fail(place, s.str());
    }
    return x;
  }

  uint32_t integer(const json& obj, const std::string& place, const char* key, uint32_t fallback, uint32_t lo,
                   uint32_t hi) const {
    if (!obj.contains(key)) return fallback;
    return integer_value(obj.at(key), at(place, key), lo, hi);
  }

  uint32_t integer_value(const json& v, const std::string& place, uint32_t lo, uint32_t hi) const {
    if (!v.is_number_integer()) fail(place, "expected an integer");
    const int64_t x = v.get<int64_t>();
    if (x < int64_t(lo) || x > int64_t(hi))
      fail(place, "value " + std::to_string(x) + " out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return uint32_t(x);
  }

  std::string string(const json& obj, const std::string& place, const char* key, const std::string& fallback,
                     std::initializer_list<const char*> allowed = {}) const {
    if (!obj.contains(key)) return fallback;
    const json& v = obj.at(key);
    if (!v.is_string()) fail(at(place, key), "expected a string");
    const std::string s = v.get<std::string>();
    if (allowed.size() == 0) return s;
    std::string list;
    for (const char* a : allowed) {
      if (s == a) return s;
      list += std::string(list.empty() ? "" : ", ") + a;
    }
    fail(at(place, key), "'" + s + "' is not one of " + list);
  }

  bool boolean(const json& obj, const std::string& place, const char* key, bool fallback) const {
    if (!obj.contains(key)) return fallback;
    if (!obj.at(key).is_boolean()) fail(at(place, key), "expected true or false");
    return obj.at(key).get<bool>();
  }

  glm::vec3 vec3(const json& obj, const std::string& place, const char* key, glm::vec3 fallback) const {
    if (!obj.contains(key)) return fallback;
    const json& v = obj.at(key);
    const std::string p = at(place, key);
    if (!v.is_array() || v.size() != 3) fail(p, "expected an array of 3 numbers");
    return glm::vec3(float(number_value(v[0], at(p, 0))), float(number_value(v[1], at(p, 1))),
                     float(number_value(v[2], at(p, 2))));
  }

  glm::vec2 vec2(const json& obj, const std::string& place, const char* key) const {
    const std::string p = at(place, key);
    if (!obj.contains(key)) fail(place, std::string("missing key '") + key + "'");
    const json& v = obj.at(key);
    if (!v.is_array() || v.size() != 2) fail(p, "expected an array of 2 numbers");
    return glm::vec2(float(number_value(v[0], at(p, 0))), float(number_value(v[1], at(p, 1))));
  }

  // position + rotation_deg (Euler angles in degrees, applied x, then y, then z)
  Pose pose(const json& obj, const std::string& place) const {
    Pose p;
    p.position = vec3(obj, place, "position", glm::vec3(0.f));
    const glm::vec3 deg = vec3(obj, place, "rotation_deg", glm::vec3(0.f));
    const glm::vec3 r = glm::radians(deg);
    p.orientation = glm::normalize(glm::angleAxis(r.z, glm::vec3(0, 0, 1)) * glm::angleAxis(r.y, glm::vec3(0, 1, 0)) *
                                   glm::angleAxis(r.x, glm::vec3(1, 0, 0)));
    return p;
  }

 private:
  std::string file_;
};

Mesh load_obj(const Reader& r, const std::string& path, const std::string& place) {
  try {
    return load_obj_mesh(path);
  } catch (const MeshFileError& e) {
    r.fail(place, e.what());
  }
}

Mesh read_mesh(const Reader& r, const json& cloth, const std::string& base_dir) {
  if (!cloth.contains("mesh")) r.fail("/cloth", "missing key 'mesh'");
  const json& m = cloth.at("mesh");
  const std::string place = "/cloth/mesh";
  if (!m.is_object()) r.fail(place, "expected an object");
  const std::string type = r.string(m, place, "type", "", {"grid", "irregular", "obj"});
  Mesh mesh;
  if (type == "grid") {
    r.object(m, place, {"type", "width", "height", "columns", "rows"});
    GridSpec g;
    g.width = float(r.number(m, place, "width", g.width, 1e-3, 100));
    g.height = float(r.number(m, place, "height", g.height, 1e-3, 100));
    g.columns = r.integer(m, place, "columns", g.columns, 1, 1024);
    g.rows = r.integer(m, place, "rows", g.rows, 1, 1024);
    mesh = make_grid(g);
  } else if (type == "irregular") {
    r.object(m, place, {"type", "width", "height", "columns", "rows", "grading", "jitter", "seed"});
    IrregularSpec s;
    s.width = float(r.number(m, place, "width", s.width, 1e-3, 100));
    s.height = float(r.number(m, place, "height", s.height, 1e-3, 100));
    s.columns = r.integer(m, place, "columns", s.columns, 1, 1024);
    s.rows = r.integer(m, place, "rows", s.rows, 1, 1024);
    s.grading = float(r.number(m, place, "grading", s.grading, 1, 100));
    s.jitter = float(r.number(m, place, "jitter", s.jitter, 0, 0.45));
    s.seed = r.integer(m, place, "seed", s.seed, 0, UINT32_MAX);
    mesh = make_irregular(s);
  } else if (type == "obj") {
    r.object(m, place, {"type", "path", "scale"});
    const std::string path = r.string(m, place, "path", "");
    if (path.empty()) r.fail(place + "/path", "missing OBJ path");
    // The file's unit in metres: 0.01 for a mesh modelled in centimetres, 0.001 for millimetres.
    const float scale = float(r.number(m, place, "scale", 1.0, 1e-6, 1e6));
    mesh = load_obj(r, (std::filesystem::path(base_dir) / path).string(), place + "/path");
    for (glm::vec3& p : mesh.positions) p *= scale;
    for (glm::vec2& u : mesh.material) u *= scale;  // material coordinates are rest lengths, in the same unit
  } else {
    r.fail(place, "missing key 'type' (grid, irregular or obj)");
  }
  const Pose placement = r.pose(cloth, "/cloth");
  transform_mesh(mesh, glm::translate(glm::mat4(1.f), placement.position) * glm::mat4_cast(placement.orientation));
  if (const std::string err = validate_mesh(mesh); !err.empty()) r.fail(place, err);
  return mesh;
}

Material read_material(const Reader& r, const json& cloth, const std::string& base_dir) {
  Material m;
  if (!cloth.contains("material")) return m;
  const json& j = cloth.at("material");
  const std::string place = "/cloth/material";
  if (j.is_string()) {  // a fabric preset: assets/materials/NAME.json beside the scenes folder, or a path
    const std::string name = j.get<std::string>();
    const std::filesystem::path beside = std::filesystem::path(base_dir) / ".." / "materials";
    try {
      if (std::filesystem::exists(beside / (name + ".json"))) return load_material_preset(name, beside.string());
      return load_material_preset(name);
    } catch (const MaterialFileError& e) {
      r.fail(place, e.what());
    }
  }
  r.object(j, place, {"areal_density", "total_mass", "stretch_model", "stretch_stiffness", "bend_stiffness",
                      "young_modulus", "alpha", "damping", "drag", "lift", "wind", "gravity"});
  m.areal_density = float(r.number(j, place, "areal_density", m.areal_density, 1e-6, 1e3));
  m.total_mass = float(r.number(j, place, "total_mass", m.total_mass, 0, 1e3));
  m.stretch_model = r.string(j, place, "stretch_model", "springs", {"springs", "volino"}) == "volino"
                        ? StretchModel::Volino : StretchModel::Springs;
  m.stretch_stiffness = float(r.number(j, place, "stretch_stiffness", m.stretch_stiffness, 0, 1e9));
  m.bend_stiffness = float(r.number(j, place, "bend_stiffness", m.bend_stiffness, 0, 1e9));
  m.young_modulus = float(r.number(j, place, "young_modulus", m.young_modulus, 0, 1e9));
  m.alpha = float(r.number(j, place, "alpha", m.alpha, 0, 1.2));
  m.damping = float(r.number(j, place, "damping", m.damping, 0, 1e6));
  m.drag = float(r.number(j, place, "drag", m.drag, 0, 1e6));
  m.lift = float(r.number(j, place, "lift", m.lift, 0, 1e6));
  m.wind = r.vec3(j, place, "wind", m.wind);
  m.gravity = r.vec3(j, place, "gravity", m.gravity);
  if (const std::string err = validate_material(m); !err.empty()) r.fail(place, err);
  return m;
}

// Crease lines (sim/crease_line.h): segments in the mesh's material coordinates, each mapped to the
// bending hinges on it. Checked here so that a line that misses every interior edge names its place.
std::vector<CreaseLine> read_creases(const Reader& r, const json& cloth, const Mesh& mesh, const Material& material) {
  std::vector<CreaseLine> out;
  if (!cloth.contains("creases")) return out;
  const std::string place = "/cloth/creases";
  const json& list = r.array(cloth.at("creases"), place);
  if (!list.empty() && material.stretch_model != StretchModel::WeftWarp)
    r.fail(place, "crease lines need a weft_warp material (a fabric preset such as \"cotton\"): they set its bending "
                  "hinges' rest angles");
  const Topology topology = build_topology(mesh);
  for (size_t k = 0; k < list.size(); ++k) {
    const std::string p = Reader::at(place, k);
    const json& j = list[k];
    r.object(j, p, {"from", "to", "angle_deg", "stiffness_scale", "tolerance"});
    CreaseLine c;
    c.from = r.vec2(j, p, "from");
    c.to = r.vec2(j, p, "to");
    if (!j.contains("angle_deg")) r.fail(p, "missing key 'angle_deg'");
    c.rest_angle_deg = float(r.number(j, p, "angle_deg", 0, -179.9, 179.9));
    c.stiffness_scale = float(r.number(j, p, "stiffness_scale", c.stiffness_scale, 0, 1e4));
    c.tolerance = float(r.number(j, p, "tolerance", c.tolerance, 1e-7, 1));
    if (const std::string err = validate_crease_line(c); !err.empty()) r.fail(p, err);
    if (crease_interior_edge_count(c, mesh, topology) == 0)
      r.fail(p, "the segment lies on no interior edge of the mesh (material coordinates, metres; tolerance " +
                    std::to_string(c.tolerance) + " m)");
    out.push_back(c);
  }
  return out;
}

// A vertex list: explicit indices, or every vertex within `radius` of `near` (the nearest if none is).
std::vector<uint32_t> read_vertices(const Reader& r, const json& j, const std::string& place, const Mesh& mesh) {
  std::vector<uint32_t> out;
  const uint32_t last = uint32_t(mesh.vertex_count() - 1);
  if (j.contains("vertex")) out.push_back(r.integer(j, place, "vertex", 0, 0, last));
  if (j.contains("vertices")) {
    const json& list = r.array(j.at("vertices"), Reader::at(place, "vertices"));
    for (size_t k = 0; k < list.size(); ++k)
      out.push_back(r.integer_value(list[k], Reader::at(Reader::at(place, "vertices"), k), 0, last));
  }
  if (j.contains("near")) {
    const glm::vec3 p = r.vec3(j, place, "near", glm::vec3(0.f));
    const float radius = float(r.number(j, place, "radius", 0.0, 0, 100));
    uint32_t nearest = 0;
    float best = INFINITY;
    for (uint32_t i = 0; i < mesh.vertex_count(); ++i) {
      const float d = glm::length(mesh.positions[i] - p);
      if (d <= radius) out.push_back(i);
      if (d < best) { best = d; nearest = i; }
    }
    if (out.empty()) out.push_back(nearest);
  }
  if (out.empty()) r.fail(place, "needs 'vertex', 'vertices' or 'near'");
  return out;
}

Collider read_collider(const Reader& r, const json& j, const std::string& place) {
  r.object(j, place, {"type", "position", "rotation_deg", "radius", "half_length", "half_extents", "velocity",
                      "angular_velocity", "mu_static", "mu_kinetic"});
  Collider c;
  const std::string type = r.string(j, place, "type", "", {"plane", "sphere", "capsule", "box"});
  if (type.empty()) r.fail(place, "missing key 'type' (plane, sphere, capsule or box)");
  c.shape = type == "plane" ? ColliderShape::Plane : type == "sphere" ? ColliderShape::Sphere
          : type == "capsule" ? ColliderShape::Capsule : ColliderShape::Box;
  c.pose = r.pose(j, place);
  c.radius = float(r.number(j, place, "radius", c.radius, 1e-4, 100));
  c.half_length = float(r.number(j, place, "half_length", c.half_length, 0, 100));
  c.half_extents = r.vec3(j, place, "half_extents", c.half_extents);
  for (int k = 0; k < 3; ++k)
    if (c.half_extents[k] <= 0.f) r.fail(Reader::at(place, "half_extents"), "half extents must be positive");
  c.linear_velocity = r.vec3(j, place, "velocity", c.linear_velocity);
  c.angular_velocity = r.vec3(j, place, "angular_velocity", c.angular_velocity);
  c.mu_static = float(r.number(j, place, "mu_static", c.mu_static, 0, 10));
  c.mu_kinetic = float(r.number(j, place, "mu_kinetic", c.mu_kinetic, 0, 10));
  if (c.mu_kinetic > c.mu_static) r.fail(Reader::at(place, "mu_kinetic"), "kinetic friction exceeds static friction");
  c.previous_pose = c.pose;
  return c;
}

void read_interaction(const Reader& r, const json& root, Scene& scene) {
  if (!root.contains("interaction")) return;
  const json& j = root.at("interaction");
  const std::string place = "/interaction";
  r.object(j, place, {"tau", "max_speed", "seam_tau", "thickness", "strain_limit", "strain_iterations",
                      "tether_slack", "extrapolation_horizon", "grasp_radius", "falloff", "core_fraction", "min_weight"});
  InteractionConfig& c = scene.world.interaction;
  c.elastic.tau = float(r.number(j, place, "tau", c.elastic.tau, 1e-4, 10));
  c.elastic.max_speed = float(r.number(j, place, "max_speed", c.elastic.max_speed, 1e-3, 1e3));
  c.seam.tau = float(r.number(j, place, "seam_tau", c.seam.tau, 1e-4, 10));
  c.thickness = float(r.number(j, place, "thickness", c.thickness, 0, 0.1));
  if (j.contains("strain_limit")) {
    if (j.at("strain_limit").is_boolean()) {
      if (j.at("strain_limit").get<bool>()) r.fail(place + "/strain_limit", "give the limit as a number, or false");
      c.strain.enabled = false;
    } else {
      c.strain.max_strain = float(r.number(j, place, "strain_limit", c.strain.max_strain, 0, 10));
    }
  }
  c.strain.iterations = int(r.integer(j, place, "strain_iterations", uint32_t(c.strain.iterations), 1, 1000));
  c.strain.near_iterations = std::min(c.strain.near_iterations, c.strain.iterations);  // never more than a full pass
  c.strain.tether_slack = float(r.number(j, place, "tether_slack", c.strain.tether_slack, 0, 10));
  c.extrapolation_horizon = r.number(j, place, "extrapolation_horizon", c.extrapolation_horizon, 0, 1);
  scene.grasp_radius = float(r.number(j, place, "grasp_radius", scene.grasp_radius, 1e-4, 1));
  const std::string falloff = r.string(j, place, "falloff", "smooth", {"uniform", "linear", "smooth"});
  c.grasp.falloff = falloff == "uniform" ? Falloff::Uniform : falloff == "linear" ? Falloff::Linear : Falloff::Smooth;
  c.grasp.core_fraction = float(r.number(j, place, "core_fraction", c.grasp.core_fraction, 0, 1));
  c.grasp.min_weight = float(r.number(j, place, "min_weight", c.grasp.min_weight, 0.01, 1));
}

void read_self_collision(const Reader& r, const json& root, Scene& scene) {
  if (!root.contains("self_collision")) return;
  const json& j = root.at("self_collision");
  const std::string place = "/self_collision";
  r.object(j, place, {"enabled", "thickness", "friction", "iterations", "consistent_orientation", "untangle_step",
                      "rescan_ticks"});
  SelfCollisionConfig& c = scene.world.self_collision;
  c.enabled = r.boolean(j, place, "enabled", true);
  c.thickness = float(r.number(j, place, "thickness", c.thickness, 1e-5, 0.1));
  c.friction = float(r.number(j, place, "friction", c.friction, 0, 10));
  c.iterations = int(r.integer(j, place, "iterations", uint32_t(c.iterations), 1, 100));
  c.consistent_orientation = r.boolean(j, place, "consistent_orientation", c.consistent_orientation);
  c.untangle_step = float(r.number(j, place, "untangle_step", c.untangle_step, 0, 2));  // x thickness; 0: off
  c.rescan_ticks = int(r.integer(j, place, "rescan_ticks", uint32_t(c.rescan_ticks), 0, 1000000));  // 0: never
}

Scene read_scene(const Reader& r, const json& root, const std::string& base_dir) {
  r.object(root, "", {"name", "sim", "cloth", "interaction", "self_collision", "pins", "colliders", "rigid_boxes",
                      "hands", "trackers", "seams", "stage"});
  Scene scene;
  scene.name = r.string(root, "", "name", "unnamed");
  if (root.contains("sim")) {
    const json& j = root.at("sim");
    r.object(j, "/sim", {"tick_hz", "solver", "iterations", "cg_tolerance", "cg_max_iterations", "alpha", "rk_tolerance",
                         "sweeps", "mg_tolerance", "mg_max_iterations", "threads"});
    scene.world.tick_hz = r.number(j, "/sim", "tick_hz", scene.world.tick_hz, 10, 10000);
    scene.world.integrator = parse_integrator_kind(r.string(j, "/sim", "solver", integrator_kind_name(WorldConfig{}.integrator),
                                                            {"mg", "gs", "approx", "cg", "euler", "rk4", "be", "bdf2", "rk45"}));
    SolverOptions& so = scene.world.solver;
    so.iterations = int(r.integer(j, "/sim", "iterations", so.iterations, 1, 99));
    so.cg_tolerance = float(r.number(j, "/sim", "cg_tolerance", so.cg_tolerance, 1e-8, 0.5));
    so.cg_max_iterations = int(r.integer(j, "/sim", "cg_max_iterations", so.cg_max_iterations, 1, 10000));
    so.alpha = float(r.number(j, "/sim", "alpha", so.alpha, 0.5, 1));
    so.rk_tolerance = float(r.number(j, "/sim", "rk_tolerance", so.rk_tolerance, 1e-12, 1));
    so.gs_sweeps = int(r.integer(j, "/sim", "sweeps", so.gs_sweeps, 1, 1000));
    so.mg_tolerance = float(r.number(j, "/sim", "mg_tolerance", so.mg_tolerance, 1e-8, 0.5));
    so.mg_max_iterations = int(r.integer(j, "/sim", "mg_max_iterations", so.mg_max_iterations, 1, 10000));
    so.mg_threads = int(r.integer(j, "/sim", "threads", so.mg_threads, 1, 2));
    if (scene.world.solver.iterations % 2 == 0) r.fail("/sim/iterations", "must be odd (Kang & Cho 4.2)");
  }
  if (!root.contains("cloth")) r.fail("", "missing key 'cloth'");
  const json& cloth = root.at("cloth");
  r.object(cloth, "/cloth", {"mesh", "position", "rotation_deg", "material", "weave_angle_deg", "creases"});
  scene.mesh = read_mesh(r, cloth, base_dir);
  scene.material = read_material(r, cloth, base_dir);
  // the weft's angle from the mesh's material u axis (weft/warp materials; Volino 2005 sec. 2.2.2)
  scene.material.weave.angle_deg = float(r.number(cloth, "/cloth", "weave_angle_deg", scene.material.weave.angle_deg, -360, 360));
  scene.creases = read_creases(r, cloth, scene.mesh, scene.material);
  read_interaction(r, root, scene);
  read_self_collision(r, root, scene);

  if (root.contains("pins")) {
    const json& pins = r.array(root.at("pins"), "/pins");
    for (size_t k = 0; k < pins.size(); ++k) {
      const std::string place = Reader::at("/pins", k);
      r.object(pins[k], place, {"vertex", "vertices", "near", "radius"});
      for (uint32_t v : read_vertices(r, pins[k], place, scene.mesh)) scene.pins.push_back(v);
    }
  }
  if (root.contains("colliders")) {
    const json& list = r.array(root.at("colliders"), "/colliders");
    for (size_t k = 0; k < list.size(); ++k) scene.colliders.push_back(read_collider(r, list[k], Reader::at("/colliders", k)));
  }
  if (root.contains("rigid_boxes")) {
    const json& list = r.array(root.at("rigid_boxes"), "/rigid_boxes");
    for (size_t k = 0; k < list.size(); ++k) {
      const std::string place = Reader::at("/rigid_boxes", k);
      const json& j = list[k];
      r.object(j, place, {"position", "rotation_deg", "half_extents", "mass", "velocity", "mu_static", "mu_kinetic"});
      RigidBox b;
      b.pose = r.pose(j, place);
      b.previous_pose = b.pose;
      b.half_extents = r.vec3(j, place, "half_extents", b.half_extents);
      for (int a = 0; a < 3; ++a)
        if (b.half_extents[a] <= 0.f) r.fail(Reader::at(place, "half_extents"), "half extents must be positive");
      b.mass = float(r.number(j, place, "mass", b.mass, 1e-4, 1e4));
      b.linear_velocity = r.vec3(j, place, "velocity", b.linear_velocity);
      b.mu_static = float(r.number(j, place, "mu_static", b.mu_static, 0, 10));
      b.mu_kinetic = float(r.number(j, place, "mu_kinetic", b.mu_kinetic, 0, 10));
      scene.rigid_boxes.push_back(b);
    }
  }
  if (root.contains("stage")) {
    r.object(root.at("stage"), "/stage", {"position", "rotation_deg"});
    scene.stage = r.pose(root.at("stage"), "/stage");
  }
  if (root.contains("hands")) {
    const json& j = root.at("hands");
    r.object(j, "/hands", {"left", "right"});
    for (int h = 0; h < 2; ++h) {
      const char* key = h == 0 ? "left" : "right";
      if (!j.contains(key)) continue;
      const std::string place = Reader::at("/hands", key);
      r.object(j.at(key), place, {"position", "rotation_deg"});
      scene.hand_start[h] = r.pose(j.at(key), place);
    }
  }
  if (root.contains("trackers")) {
    const json& list = r.array(root.at("trackers"), "/trackers");
    for (size_t k = 0; k < list.size(); ++k) {
      const std::string place = Reader::at("/trackers", k);
      const json& j = list[k];
      r.object(j, place, {"device", "vertices", "vertex", "near", "radius", "position", "rotation_deg"});
      TrackerAttachment t;
      const std::string device = r.string(j, place, "device", "tracker0", {"tracker0", "tracker1", "tracker2", "tracker3"});
      t.device = Device(int(Device::Tracker0) + (device.back() - '0'));
      t.vertices = read_vertices(r, j, place, scene.mesh);
      t.pose = r.pose(j, place);
      scene.trackers.push_back(std::move(t));
    }
  }
  if (root.contains("seams")) {
    const json& list = r.array(root.at("seams"), "/seams");
    const uint32_t last = uint32_t(scene.mesh.vertex_count() - 1);
    for (size_t k = 0; k < list.size(); ++k) {
      const std::string place = Reader::at("/seams", k);
      if (!list[k].is_array() || list[k].size() != 2) r.fail(place, "expected a pair [a, b] of vertex indices");
      const uint32_t a = r.integer_value(list[k][0], Reader::at(place, 0), 0, last);
      const uint32_t b = r.integer_value(list[k][1], Reader::at(place, 1), 0, last);
      if (a == b) r.fail(place, "a seam joins two different vertices");
      scene.seams.emplace_back(a, b);
    }
  }
  return scene;
}

}  // namespace

Scene parse_scene(const std::string& text, const std::string& file, const std::string& base_dir) {
  const Reader r(file);
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error& e) {
    // nlohmann reports a byte offset; turn it into line:column for people
    size_t line = 1, column = 1;
    for (size_t i = 0; i + 1 < e.byte && i < text.size(); ++i) {
      if (text[i] == '\n') { ++line; column = 1; } else { ++column; }
    }
    const std::string what = e.what();
    const size_t colon = what.find("parse error");
    r.fail("line " + std::to_string(line) + ", column " + std::to_string(column),
           "JSON syntax error (" + (colon == std::string::npos ? what : what.substr(colon)) + ")");
  }
  return read_scene(r, root, base_dir);
}

Scene load_scene(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SceneError(path, "/", "cannot open the file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse_scene(buffer.str(), path, std::filesystem::path(path).parent_path().string());
}

}  // namespace weft
