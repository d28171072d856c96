#pragma once
// Fabric presets (assets/materials/NAME.json) and scene files' inline "material" objects, read into a
// weft::Material by one parser with one set of keys and bounds. Every number may be given plain or as
// { "value": x, "source": "where it comes from" }, so each file names the source of each number beside it.
// Errors are MaterialFileError `file:line: /json/pointer: problem`; unknown keys are errors.
// Format: docs/scene_format.md ("Material").
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "engine/json_error.h"
#include "sim/material.h"

namespace weft {

class JsonDocument;
struct JsonObjectSpec;

struct MaterialFileError : JsonError {
  explicit MaterialFileError(const JsonError& e) : JsonError(e) {}
  explicit MaterialFileError(const std::string& problem) : JsonError("", 0, "", problem) {}  // no file: a name
};

// Reads one preset file.
Material load_material_file(const std::string& path);
// Same from text; `file` names it in errors.
Material parse_material(const std::string& text, const std::string& file);

// The material object `j` of `doc` at `pointer`: a preset file's root, or a scene's "cloth/material".
// Throws JsonError.
Material read_material(const JsonDocument& doc, const nlohmann::json& j, const std::string& pointer);

// The material's key tables (the material object first), for the format's document and its test.
std::vector<const JsonObjectSpec*> material_format();

// A preset by name ("denim": DIR/denim.json) or by path (anything with a '/' or ending in .json).
// An empty dir searches ./assets/materials, then the source tree's assets/materials. This is the
// function behind scene files' "material": "denim" and the --material option.
Material load_material_preset(const std::string& name_or_path, const std::string& dir = "");

// Names of the presets in dir (same default search), sorted.
std::vector<std::string> list_material_presets(const std::string& dir = "");

// The folder the default search settles on (for messages).
std::string default_material_dir();

}  // namespace weft
