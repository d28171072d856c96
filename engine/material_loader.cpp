#include "engine/material_loader.h"

#include <algorithm>
#include <filesystem>

#include "engine/json_reader.h"
#include "sim/cloth_model.h"

namespace weft {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;
using T = JsonType;

// Free text for people, accepted in every material object and never read.
constexpr JsonKey kNoteKeys[] = {
    {"name", T::Any}, {"description", T::Any}, {"source", T::Any}, {"sources", T::Any}, {"notes", T::Any}};
constexpr JsonObjectSpec kNotes{"notes", kNoteKeys};

constexpr JsonKey kSourcedNumberKeys[] = {{"value", T::Number}};
constexpr JsonObjectSpec kSourcedNumber{"number with source", kSourcedNumberKeys, &kNotes};

// Scenes and presets once read these with different bounds: areal_density takes the wider of the two.
constexpr JsonKey kMaterialKeys[] = {
    {"areal_density", T::Number, 1e-6, 1e3},  // kg/m^2
    {"total_mass", T::Number, 0, 1e3},        // kg; 0: from areal_density
    {"stretch_model", T::String, 0, 0, "springs volino weft_warp"},
    {"stretch_stiffness", T::Number, 0, 1e9},
    {"bend_stiffness", T::Number, 0, 1e9},
    {"young_modulus", T::Number, 0, 1e9},
    {"alpha", T::Number, 0, 1.2},
    {"damping", T::Number, 0, 1e6},
    {"drag", T::Number, 0, 1e6},
    {"lift", T::Number, 0, 1e6},
    {"wind", T::Vec3},
    {"gravity", T::Vec3},
    {"weave", T::Object},
};
constexpr JsonObjectSpec kMaterial{"material", kMaterialKeys, &kNotes, &kSourcedNumber};

constexpr JsonKey kWeaveKeys[] = {
    {"membrane", T::String, 0, 0, "weft_warp isotropic"},
    {"weft", T::Object},
    {"warp", T::Object},
    {"shear", T::Object},
    {"weft_viscosity", T::Number, 0, 1e6},  // N s/m
    {"warp_viscosity", T::Number, 0, 1e6},
    {"shear_viscosity", T::Number, 0, 1e6},
    {"weft_bending", T::Number, 0, 10},  // N m
    {"warp_bending", T::Number, 0, 10},
    {"weft_rest_curvature", T::Number, -1e4, 1e4},  // 1/m
    {"warp_rest_curvature", T::Number, -1e4, 1e4},
    {"angle_deg", T::Number, -360, 360},
    {"plasticity", T::Object},
};
constexpr JsonObjectSpec kWeave{"material.weave", kWeaveKeys, &kNotes, &kSourcedNumber};

constexpr JsonKey kCurveKeys[] = {{"strain", T::Array}, {"stress", T::Array}};
constexpr JsonObjectSpec kCurve{"material.weave.weft, material.weave.warp, material.weave.shear", kCurveKeys, &kNotes,
                                &kSourcedNumber};

constexpr JsonKey kPlasticityKeys[] = {
    {"enabled", T::Boolean},                            // bending (hinges)
    {"yield_curvature", T::Number, 1e-6, 1e6},          // 1/m
    {"relaxation_time", T::Number, 1e-4, 1e9},          // s
    {"in_plane", T::Boolean},                           // weave triangles; needs yield_strain
    {"yield_strain", T::Number, 1e-6, 10},
    {"shear_yield_strain", T::Number, 1e-6, 10},        // default: yield_strain
    {"strain_relaxation_time", T::Number, 1e-4, 1e9},   // s
};
constexpr JsonObjectSpec kPlasticity{"material.weave.plasticity", kPlasticityKeys, &kNotes, &kSourcedNumber};

StressCurve read_curve(const JsonObject& weave, const char* key) {
  if (!weave.has(key)) weave.fail(std::string("missing curve '") + key + "'");
  const JsonObject c = weave.object(key, kCurve);
  std::vector<float> lists[2];
  const char* names[2] = {"strain", "stress"};
  for (int k = 0; k < 2; ++k) {
    if (!c.has(names[k]) || !c.at(names[k]).is_array()) c.fail(std::string("expected an array '") + names[k] + "'");
    for (const auto& x : c.array(names[k])) {
      if (!x.is_number()) c.fail(names[k], "expected numbers");
      lists[k].push_back(x.get<float>());
    }
  }
  if (auto err = check_curve_points(lists[0], lists[1]); !err.empty()) c.fail(err);
  return StressCurve::from_points(lists[0], lists[1]);
}

void read_weave(const JsonObject& w, WeaveMaterial& wm) {
  wm.membrane = w.string("membrane", "weft_warp") == "isotropic" ? Membrane::Isotropic : Membrane::WeftWarp;
  wm.weft = read_curve(w, "weft");
  if (wm.membrane == Membrane::Isotropic) {  // one curve for every direction, the shear half of it
    for (const char* key : {"warp", "shear", "warp_viscosity", "shear_viscosity"})
      if (w.has(key)) w.fail(key, "the isotropic membrane reads one curve, 'weft', for every direction");
    wm.warp = wm.weft;
    wm.shear = wm.weft.scaled(0.5f);
  } else {
    wm.warp = read_curve(w, "warp");
    wm.shear = read_curve(w, "shear");
  }
  wm.weft_viscosity = float(w.number("weft_viscosity", wm.weft_viscosity));
  wm.warp_viscosity = float(w.number("warp_viscosity", wm.warp_viscosity));
  wm.shear_viscosity = float(w.number("shear_viscosity", wm.shear_viscosity));
  wm.weft_bending = float(w.number("weft_bending", wm.weft_bending));
  wm.warp_bending = float(w.number("warp_bending", wm.warp_bending));
  wm.weft_rest_curvature = float(w.number("weft_rest_curvature", 0));
  wm.warp_rest_curvature = float(w.number("warp_rest_curvature", 0));
  wm.angle_deg = float(w.number("angle_deg", 0));
  if (!w.has("plasticity")) return;
  const JsonObject pl = w.object("plasticity", kPlasticity);
  PlasticityParams& pm = wm.plasticity;
  pm.enabled = pl.boolean("enabled", false);
  pm.in_plane = pl.boolean("in_plane", false);
  pm.yield_curvature = float(pl.number("yield_curvature", pm.yield_curvature));
  pm.relaxation_time = float(pl.number("relaxation_time", pm.relaxation_time));
  pm.yield_strain = float(pl.number("yield_strain", pm.yield_strain));
  pm.shear_yield_strain = float(pl.number("shear_yield_strain", pm.yield_strain));
  pm.strain_relaxation_time = float(pl.number("strain_relaxation_time", pm.strain_relaxation_time));
  if (pm.in_plane && !pl.has("yield_strain")) pl.fail("in_plane needs 'yield_strain'");
  if (pm.in_plane && wm.membrane == Membrane::Isotropic)
    pl.fail("in_plane", "in-plane plasticity needs the weft_warp membrane");
}

std::vector<fs::path> search_dirs(const std::string& dir) {
  if (!dir.empty()) return {fs::path(dir)};
  std::vector<fs::path> out = {fs::path("assets") / "materials"};
#ifdef WEFT_ASSET_DIR
  out.push_back(fs::path(WEFT_ASSET_DIR) / "materials");
#endif
  return out;
}

}  // namespace

Material read_material(const JsonDocument& doc, const json& j, const std::string& pointer) {
  const JsonObject o(doc, j, pointer, kMaterial);
  Material m;
  m.areal_density = float(o.number("areal_density", m.areal_density));
  m.total_mass = float(o.number("total_mass", m.total_mass));
  m.damping = float(o.number("damping", m.damping));
  m.drag = float(o.number("drag", m.drag));
  m.lift = float(o.number("lift", m.lift));
  m.stretch_stiffness = float(o.number("stretch_stiffness", m.stretch_stiffness));
  m.bend_stiffness = float(o.number("bend_stiffness", m.bend_stiffness));
  m.young_modulus = float(o.number("young_modulus", m.young_modulus));
  m.alpha = float(o.number("alpha", m.alpha));
  m.wind = o.vec3("wind", m.wind);
  m.gravity = o.vec3("gravity", m.gravity);
  const std::string model = o.string("stretch_model", "springs");
  m.stretch_model = model == "weft_warp" ? StretchModel::WeftWarp
                  : model == "volino"    ? StretchModel::Volino : StretchModel::Springs;
  if (m.stretch_model == StretchModel::WeftWarp) {
    if (!o.has("weave")) o.fail("stretch_model weft_warp needs a 'weave' object");
    read_weave(o.object("weave", kWeave), m.weave);
  } else if (o.has("weave")) {
    o.fail("weave", "only read with stretch_model weft_warp");
  }
  if (const std::string err = validate_material(m); !err.empty()) o.fail(err);
  return m;
}

std::vector<const JsonObjectSpec*> material_format() {
  return {&kMaterial, &kWeave, &kCurve, &kPlasticity, &kSourcedNumber, &kNotes};
}

Material parse_material(const std::string& text, const std::string& file) {
  try {
    const JsonDocument doc = JsonDocument::parse(text, file);
    return read_material(doc, doc.root(), "");
  } catch (const JsonError& e) {
    throw MaterialFileError(e);
  }
}

Material load_material_file(const std::string& path) {
  try {
    const JsonDocument doc = JsonDocument::load(path);
    return read_material(doc, doc.root(), "");
  } catch (const JsonError& e) {
    throw MaterialFileError(e);
  }
}

std::string default_material_dir() {
  for (const fs::path& d : search_dirs(""))
    if (fs::is_directory(d)) return d.string();
  return (fs::path("assets") / "materials").string();
}

Material load_material_preset(const std::string& name, const std::string& dir) {
  if (name.empty()) throw MaterialFileError("empty material name");
  const bool is_path = name.find('/') != std::string::npos || (name.size() > 5 && name.ends_with(".json"));
  if (is_path) return load_material_file(name);
  for (const fs::path& d : search_dirs(dir)) {
    const fs::path file = d / (name + ".json");
    if (fs::exists(file)) return load_material_file(file.string());
  }
  const auto known = list_material_presets(dir);
  std::string list;
  for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
  throw MaterialFileError("unknown material '" + name + "'" + (list.empty() ? std::string(" (no presets found)") : " (presets: " + list + ")"));
}

std::vector<std::string> list_material_presets(const std::string& dir) {
  std::vector<std::string> names;
  for (const fs::path& d : search_dirs(dir)) {
    std::error_code ec;
    if (!fs::is_directory(d, ec)) continue;
    for (const auto& entry : fs::directory_iterator(d, ec))
      if (entry.path().extension() == ".json") names.push_back(entry.path().stem().string());
    break;  // the first folder that exists
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace weft
