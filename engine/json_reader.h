#pragma once
// One way to read Weft's JSON files (scenes, fabric presets, pose streams). nlohmann::json parses; this
// layer keeps the line every value starts on, reads each object against a table of its keys (name, type,
// range), and reports every problem as a JsonError `file:line: /json/pointer: problem`. The tables are
// data, so a test can hold them against the format's document (docs/scene_format.md).
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/json_error.h"

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <nlohmann/json.hpp>

namespace weft {

// The JSON types a key may hold, as docs/scene_format.md names them.
enum class JsonType : uint8_t {
  Number,         // finite, within [lo, hi]
  Integer,        // within [lo, hi]
  Boolean,
  String,         // one of `choices` when given
  Vec2,           // [x, y]
  Vec3,           // [x, y, z]
  Object,         // read with its own table
  Array,
  NumberOrFalse,  // a number within [lo, hi], or false
  StringOrObject,
  Any,            // free text for people: accepted, never read
};
const char* json_type_name(JsonType type);

// One accepted key of an object.
struct JsonKey {
  std::string_view name;
  JsonType type;
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  std::string_view choices = {};  // String: the accepted values, separated by spaces
};

// Every key an object accepts: the one place a reader's keys, types and ranges are declared.
struct JsonObjectSpec {
  std::string_view name;                  // where it sits, as the format's document heads it: "sim", "colliders[]"
  std::span<const JsonKey> keys;
  const JsonObjectSpec* also = nullptr;   // more keys accepted (and never read), e.g. a preset's notes
  // Numbers may also be given as this object's "value" ({ "value": x, "source": "where it comes from" }).
  const JsonObjectSpec* sourced_numbers = nullptr;
};

// "[lo, hi]", ">= lo", "<= hi" or "" for a number or integer key; the choices "a, b, c" for a string key.
std::string json_key_range(const JsonKey& key);

// A parsed file and the line each value starts on (by JSON pointer).
class JsonDocument {
 public:
  // Throws JsonError naming the line (and column) of a syntax error or of a number too large for a double.
  // `first_line`: the text's first line in the file (a JSON-lines file parses one line at a time, and
  // then skips recording lines per value: they are all on that line).
  static JsonDocument parse(const std::string& text, const std::string& file, size_t first_line = 1);
  static JsonDocument load(const std::string& path);  // reads the file; "cannot open the file" if it cannot

  const nlohmann::json& root() const { return root_; }
  nlohmann::json take_root() { return std::move(root_); }  // for a reader that keeps the tree, not the lines
  const std::string& file() const { return file_; }
  // The line of the value at `pointer`, or of its nearest ancestor that has one (a missing key's object).
  size_t line_of(const std::string& pointer) const;
  [[noreturn]] void fail(const std::string& pointer, const std::string& problem) const;

  // Values not under an object's table: array elements.
  double number(const nlohmann::json& v, const std::string& pointer, double lo = -kInf, double hi = kInf) const;
  uint32_t integer(const nlohmann::json& v, const std::string& pointer, uint32_t lo, uint32_t hi) const;
  glm::vec3 vec3(const nlohmann::json& v, const std::string& pointer) const;
  glm::vec2 vec2(const nlohmann::json& v, const std::string& pointer) const;
  const nlohmann::json& array(const nlohmann::json& v, const std::string& pointer) const;

  static constexpr double kInf = std::numeric_limits<double>::infinity();

 private:
  nlohmann::json root_;
  std::string file_;
  size_t first_line_ = 1;
  std::unordered_map<std::string, size_t> lines_;  // JSON pointer -> line
  friend class JsonLineRecorder;
};

// `pointer` + "/" + the key, escaped as RFC 6901 asks (~ as ~0, / as ~1).
std::string json_pointer(const std::string& pointer, std::string_view key);
std::string json_pointer(const std::string& pointer, size_t index);

// An object of a document, checked against its table: not an object, or a key the table lacks, is an error.
// Reads a key by its name with the table's type and range; a key absent from the table is a programming error.
class JsonObject {
 public:
  JsonObject(const JsonDocument& doc, const nlohmann::json& j, std::string pointer, const JsonObjectSpec& spec);

  const JsonDocument& doc() const { return doc_; }
  const nlohmann::json& value() const { return j_; }
  const std::string& pointer() const { return pointer_; }
  std::string pointer(std::string_view key) const { return json_pointer(pointer_, key); }
  bool has(std::string_view key) const;
  const nlohmann::json& at(std::string_view key) const;
  [[noreturn]] void fail(const std::string& problem) const { doc_.fail(pointer_, problem); }
  [[noreturn]] void fail(std::string_view key, const std::string& problem) const { doc_.fail(pointer(key), problem); }

  // Absent: the fallback. Present: checked against the table (or the bounds given, for ranges known only
  // when reading, such as a vertex index).
  double number(std::string_view key, double fallback) const;
  double number(std::string_view key, double fallback, double lo, double hi) const;
  uint32_t integer(std::string_view key, uint32_t fallback) const;
  uint32_t integer(std::string_view key, uint32_t fallback, uint32_t lo, uint32_t hi) const;
  bool boolean(std::string_view key, bool fallback) const;
  std::string string(std::string_view key, const std::string& fallback) const;
  glm::vec3 vec3(std::string_view key, glm::vec3 fallback) const;
  glm::vec2 vec2(std::string_view key) const;  // required
  const nlohmann::json& array(std::string_view key) const;  // required when called
  JsonObject object(std::string_view key, const JsonObjectSpec& spec) const;  // required when called

 private:
  const JsonKey& key(std::string_view name, JsonType type) const;
  const nlohmann::json& number_json(std::string_view key) const;  // unwraps { "value": x } where the table allows it

  const JsonDocument& doc_;
  const nlohmann::json& j_;
  std::string pointer_;
  const JsonObjectSpec& spec_;
};

}  // namespace weft
