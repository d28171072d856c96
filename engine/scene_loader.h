#pragma once
// Reads a scene file (JSON, assets/scenes/*.json) into a weft::Scene. Every problem is reported as a
// SceneError `file:line: /json/pointer: problem` (such as `table.json:14: /colliders/2/radius: value -1 out
// of range [0.0001, 100]`). Unknown keys are errors too, so a typo never goes unnoticed.
// Format: docs/scene_format.md, every key with its type, range and default (a test holds the document
// against the key tables in scene_loader.cpp).
#include <string>
#include <utility>
#include <vector>

#include "engine/json_error.h"
#include "sim/scene.h"

namespace weft {

struct JsonObjectSpec;

class SceneError : public JsonError {
 public:
  explicit SceneError(const JsonError& e) : JsonError(e) {}
  SceneError(std::string file, std::string place, std::string problem)  // no line: a file that cannot be read
      : JsonError(std::move(file), 0, std::move(place), std::move(problem)) {}
  const std::string& place() const { return pointer(); }  // a JSON pointer, "/" for the whole file
};

// Reads and checks the file; OBJ paths are relative to the scene file's folder.
Scene load_scene(const std::string& path);

// Same from text; `file` names it in errors, `base_dir` resolves OBJ paths.
Scene parse_scene(const std::string& text, const std::string& file, const std::string& base_dir = ".");

// Every object's key table (the file's top level first, then the material's), for docs/scene_format.md's test.
std::vector<const JsonObjectSpec*> scene_format();

}  // namespace weft
