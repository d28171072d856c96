#include "engine/material_loader.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>

#include <nlohmann/json.hpp>

#include "sim/cloth_model.h"

namespace weft {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}
  [[noreturn]] void fail(const std::string& place, const std::string& problem) const {
    throw MaterialFileError(file_ + ": " + (place.empty() ? "/" : place) + ": " + problem);
  }
  void object(const json& j, const std::string& place, std::initializer_list<const char*> allowed) const {
    if (!j.is_object()) fail(place, "expected an object");
    for (const auto& [key, value] : j.items()) {
      bool known = key == "source" || key == "sources" || key == "notes" || key == "description" || key == "name";
      for (const char* a : allowed) known = known || key == a;
      if (!known) fail(place + "/" + key, "unknown key '" + key + "'");
    }
  }
  // A number, or { "value": number, "source": text }.
  float number(const json& obj, const std::string& place, const char* key, float fallback, double lo, double hi) const {
    if (!obj.contains(key)) return fallback;
    const std::string p = place + "/" + key;
    const json* v = &obj.at(key);
    if (v->is_object()) {
      object(*v, p, {"value"});
      if (!v->contains("value")) fail(p, "missing key 'value'");
      v = &v->at("value");
    }
    if (!v->is_number()) fail(p, "expected a number");
    const double x = v->get<double>();
    if (!std::isfinite(x) || x < lo || x > hi) {
      std::ostringstream s;
      s << "value " << x << " out of range [" << lo << ", " << hi << "]";
      fail(p, s.str());
    }
    return float(x);
  }
  StressCurve curve(const json& obj, const std::string& place, const char* key) const {
    const std::string p = place + "/" + key;
    if (!obj.contains(key)) fail(place, std::string("missing curve '") + key + "'");
    const json& c = obj.at(key);
    object(c, p, {"strain", "stress"});
    std::vector<float> lists[2];
    const char* names[2] = {"strain", "stress"};
    for (int k = 0; k < 2; ++k) {
      if (!c.contains(names[k]) || !c.at(names[k]).is_array()) fail(p, std::string("expected an array '") + names[k] + "'");
      for (const auto& x : c.at(names[k])) {
        if (!x.is_number()) fail(p + "/" + names[k], "expected numbers");
        lists[k].push_back(x.get<float>());
      }
    }
    if (auto err = check_curve_points(lists[0], lists[1]); !err.empty()) fail(p, err);
    return StressCurve::from_points(lists[0], lists[1]);
  }

 private:
  std::string file_;
};

Material read_material(const Reader& r, const json& j) {
  r.object(j, "", {"areal_density", "damping", "drag", "lift", "stretch_model", "stretch_stiffness", "bend_stiffness",
                   "young_modulus", "alpha", "weave"});
  Material m;
  m.areal_density = r.number(j, "", "areal_density", m.areal_density, 1e-4, 100);
  m.damping = r.number(j, "", "damping", m.damping, 0, 1e6);
  m.drag = r.number(j, "", "drag", m.drag, 0, 1e6);
  m.lift = r.number(j, "", "lift", m.lift, 0, 1e6);
  m.stretch_stiffness = r.number(j, "", "stretch_stiffness", m.stretch_stiffness, 0, 1e9);
  m.bend_stiffness = r.number(j, "", "bend_stiffness", m.bend_stiffness, 0, 1e9);
  m.young_modulus = r.number(j, "", "young_modulus", m.young_modulus, 0, 1e9);
  m.alpha = r.number(j, "", "alpha", m.alpha, 0, 1.2);
  const std::string model = j.contains("stretch_model") && j.at("stretch_model").is_string()
                                ? j.at("stretch_model").get<std::string>() : "springs";
  if (model == "springs") m.stretch_model = StretchModel::Springs;
  else if (model == "volino") m.stretch_model = StretchModel::Volino;
  else if (model == "weft_warp") m.stretch_model = StretchModel::WeftWarp;
  else r.fail("/stretch_model", "'" + model + "' is not one of springs, volino, weft_warp");
  if (m.stretch_model == StretchModel::WeftWarp) {
    if (!j.contains("weave")) r.fail("", "stretch_model weft_warp needs a 'weave' object");
    const json& w = j.at("weave");
    const std::string p = "/weave";
    r.object(w, p, {"weft", "warp", "shear", "weft_viscosity", "warp_viscosity", "shear_viscosity", "weft_bending",
                    "warp_bending", "weft_rest_curvature", "warp_rest_curvature", "angle_deg", "plasticity",
                    "membrane"});
    WeaveMaterial& wm = m.weave;
    const std::string membrane = w.contains("membrane") && w.at("membrane").is_string()
                                     ? w.at("membrane").get<std::string>() : "weft_warp";
    if (membrane == "weft_warp") wm.membrane = Membrane::WeftWarp;
    else if (membrane == "isotropic") wm.membrane = Membrane::Isotropic;
    else r.fail(p + "/membrane", "'" + membrane + "' is not one of weft_warp, isotropic");
    wm.weft = r.curve(w, p, "weft");
    if (wm.membrane == Membrane::Isotropic) {  // one curve for every direction, the shear half of it
      for (const char* key : {"warp", "shear", "warp_viscosity", "shear_viscosity"})
        if (w.contains(key)) r.fail(p + "/" + key, "the isotropic membrane reads one curve, 'weft', for every direction");
      wm.warp = wm.weft;
      wm.shear = wm.weft.scaled(0.5f);
    } else {
      wm.warp = r.curve(w, p, "warp");
      wm.shear = r.curve(w, p, "shear");
    }
    wm.weft_viscosity = r.number(w, p, "weft_viscosity", wm.weft_viscosity, 0, 1e6);
    wm.warp_viscosity = r.number(w, p, "warp_viscosity", wm.warp_viscosity, 0, 1e6);
    wm.shear_viscosity = r.number(w, p, "shear_viscosity", wm.shear_viscosity, 0, 1e6);
    wm.weft_bending = r.number(w, p, "weft_bending", wm.weft_bending, 0, 10);
    wm.warp_bending = r.number(w, p, "warp_bending", wm.warp_bending, 0, 10);
    wm.weft_rest_curvature = r.number(w, p, "weft_rest_curvature", 0, -1e4, 1e4);
    wm.warp_rest_curvature = r.number(w, p, "warp_rest_curvature", 0, -1e4, 1e4);
    wm.angle_deg = r.number(w, p, "angle_deg", 0, -360, 360);
    if (w.contains("plasticity")) {
      const json& pl = w.at("plasticity");
      const std::string pp = p + "/plasticity";
      r.object(pl, pp, {"enabled", "yield_curvature", "relaxation_time", "in_plane", "yield_strain", "shear_yield_strain",
                        "strain_relaxation_time"});
      for (const char* flag : {"enabled", "in_plane"})
        if (pl.contains(flag) && !pl.at(flag).is_boolean()) r.fail(pp + "/" + flag, "expected true or false");
      PlasticityParams& pm = wm.plasticity;
      pm.enabled = pl.value("enabled", false);  // bending (hinges)
      pm.yield_curvature = r.number(pl, pp, "yield_curvature", pm.yield_curvature, 1e-6, 1e6);
      pm.relaxation_time = r.number(pl, pp, "relaxation_time", pm.relaxation_time, 1e-4, 1e9);
      pm.in_plane = pl.value("in_plane", false);  // weave triangles
      pm.yield_strain = r.number(pl, pp, "yield_strain", pm.yield_strain, 1e-6, 10);
      pm.shear_yield_strain = r.number(pl, pp, "shear_yield_strain", pm.yield_strain, 1e-6, 10);  // default: yield_strain
      pm.strain_relaxation_time = r.number(pl, pp, "strain_relaxation_time", pm.strain_relaxation_time, 1e-4, 1e9);
      if (pm.in_plane && !pl.contains("yield_strain")) r.fail(pp, "in_plane needs 'yield_strain'");
      if (pm.in_plane && wm.membrane == Membrane::Isotropic)
        r.fail(pp + "/in_plane", "in-plane plasticity needs the weft_warp membrane");
    }
  } else if (j.contains("weave")) {
    r.fail("/weave", "only read with stretch_model weft_warp");
  }
  if (const std::string err = validate_material(m); !err.empty()) r.fail("", err);
  return m;
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

Material parse_material(const std::string& text, const std::string& file) {
  const Reader r(file);
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error& e) {
    r.fail("", std::string("JSON syntax error: ") + e.what());
  }
  return read_material(r, root);
}

Material load_material_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw MaterialFileError(path + ": cannot open the file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse_material(buffer.str(), path);
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
