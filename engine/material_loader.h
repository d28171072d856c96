#pragma once
// Fabric presets (assets/materials/NAME.json) read into a weft::Material. Every number may be given
// plain or as { "value": x, "source": "where it comes from" }, so each file names the source of each
// number beside it. Errors are MaterialFileError naming the file, the JSON pointer and the problem;
// unknown keys are errors.
//
// Format:
//   name, description, sources, notes: free text (not read)
//   areal_density (kg/m^2), damping, drag, lift
//   stretch_model: "springs" | "volino" | "weft_warp"
//   springs/volino: stretch_stiffness, bend_stiffness, young_modulus, alpha (as in scene files)
//   weave (weft_warp): { weft, warp, shear: { strain: [...], stress: [...] (N/m), source },
//                        weft_viscosity, warp_viscosity, shear_viscosity (N s/m),
//                        weft_bending, warp_bending (N m), weft_rest_curvature, warp_rest_curvature (1/m),
//                        angle_deg, plasticity: { enabled (bending), yield_curvature (1/m), relaxation_time (s),
//                                                 in_plane (in-plane plasticity, needs yield_strain), yield_strain,
//                                                 shear_yield_strain (default yield_strain),
//                                                 strain_relaxation_time (s) } }
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/material.h"

namespace weft {

struct MaterialFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Reads one preset file.
Material load_material_file(const std::string& path);
// Same from text; `file` names it in errors.
Material parse_material(const std::string& text, const std::string& file);

// A preset by name ("denim": DIR/denim.json) or by path (anything with a '/' or ending in .json).
// An empty dir searches ./assets/materials, then the source tree's assets/materials. This is the
// function behind scene files' "material": "denim" and the --material option.
Material load_material_preset(const std::string& name_or_path, const std::string& dir = "");

// Names of the presets in dir (same default search), sorted.
std::vector<std::string> list_material_presets(const std::string& dir = "");

// The folder the default search settles on (for messages).
std::string default_material_dir();

}  // namespace weft
