#include "engine/json_reader.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>

namespace weft {

using json = nlohmann::json;

namespace {
// "file:line:column: /pointer: problem", leaving out what is not known.
std::string error_text(const std::string& file, size_t line, size_t column, const std::string& pointer,
                       const std::string& problem) {
  std::string s;
  if (!file.empty()) {
    s += file;
    if (line) s.append(":").append(std::to_string(line));
    if (line && column) s.append(":").append(std::to_string(column));
    s += ": ";
  }
  if (!pointer.empty()) s.append(pointer).append(": ");
  return s + problem;
}
}  // namespace

JsonError::JsonError(std::string file, size_t line, std::string pointer, std::string problem, size_t column)
    : std::runtime_error(error_text(file, line, column, pointer, problem)),
      file_(std::move(file)), pointer_(std::move(pointer)), problem_(std::move(problem)), line_(line), column_(column) {}

const char* json_type_name(JsonType type) {
  switch (type) {
    case JsonType::Number: return "number";
    case JsonType::Integer: return "integer";
    case JsonType::Boolean: return "boolean";
    case JsonType::String: return "string";
    case JsonType::Vec2: return "[x, y]";
    case JsonType::Vec3: return "[x, y, z]";
    case JsonType::Object: return "object";
    case JsonType::Array: return "array";
    case JsonType::NumberOrFalse: return "number or false";
    case JsonType::StringOrObject: return "string or object";
    case JsonType::Any: return "any (not read)";
  }
  return "?";
}

namespace {

std::string number_text(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

std::string integer_text(double x) { return std::to_string(int64_t(x)); }

std::string choices_text(std::string_view choices) {
  std::string out(choices);
  for (size_t at = out.find(' '); at != std::string::npos; at = out.find(' ', at + 2)) out.replace(at, 1, ", ");
  return out;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Lets the SAX handler see how far nlohmann's lexer has read: each character read records its address.
struct TrackingIterator {
  using iterator_category = std::forward_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;
  const char* at;
  const char** last_read;
  reference operator*() const {
    *last_read = at;
    return *at;
  }
  TrackingIterator& operator++() {
    ++at;
    return *this;
  }
  TrackingIterator operator++(int) {
    TrackingIterator before = *this;
    ++at;
    return before;
  }
  bool operator==(const TrackingIterator& o) const { return at == o.at; }
};

// nlohmann's "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error ..." without
// the parts this layer says itself.
std::string nlohmann_problem(const std::string& what) {
  std::string s = what;
  if (s.starts_with("[json.exception.")) s = s.substr(std::min(s.size(), s.find("] ") + 2));
  if (s.starts_with("parse error")) s = s.substr(std::min(s.size(), s.find(": ") + 2));
  return s;
}

}  // namespace

std::string json_key_range(const JsonKey& key) {
  if (key.type == JsonType::String) return choices_text(key.choices);
  if (key.type != JsonType::Number && key.type != JsonType::Integer && key.type != JsonType::NumberOrFalse) return "";
  const bool has_lo = key.lo > -JsonDocument::kInf, has_hi = key.hi < JsonDocument::kInf;
  const auto text = key.type == JsonType::Integer ? integer_text : number_text;
  std::string s;
  if (has_lo && has_hi) s.append("[").append(text(key.lo)).append(", ").append(text(key.hi)).append("]");
  else if (has_lo) s.append(">= ").append(text(key.lo));
  else if (has_hi) s.append("<= ").append(text(key.hi));
  return s;
}

std::string json_pointer(const std::string& pointer, std::string_view key) {
  std::string out = pointer + "/";
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

std::string json_pointer(const std::string& pointer, size_t index) { return pointer + "/" + std::to_string(index); }

// A SAX handler that builds the tree as json::parse would and records the line of each value by its
// pointer: a key's line for an object member, the first character's line for anything else.
class JsonLineRecorder {
 public:
  JsonLineRecorder(JsonDocument& doc, const std::string& text, const char* const& last_read, bool track)
      : doc_(doc), text_(text), last_read_(last_read), track_(track) {
    if (track_)
      for (size_t i = 0; i < text.size(); ++i)
        if (text[i] == '\n') newlines_.push_back(i);
  }

  bool null() { return add(json(nullptr)); }
  bool boolean(bool b) { return add(json(b)); }
  bool number_integer(json::number_integer_t x) { return add(json(x)); }
  bool number_unsigned(json::number_unsigned_t x) { return add(json(x)); }
  bool number_float(json::number_float_t x, const json::string_t&) { return add(json(x)); }
  bool string(json::string_t& s) { return add(json(std::move(s))); }
  bool binary(json::binary_t& b) { return add(json::binary(std::move(b))); }
  bool start_object(size_t) { return open(json::object()); }
  bool start_array(size_t) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(json::string_t& k) {
    Open& top = stack_.back();
    top.member = &(*top.value)[k];
    top.member_pointer = json_pointer(top.pointer, k);
    record(top.member_pointer);
    return true;
  }

  // Syntax errors and numbers beyond a double (nlohmann's out_of_range.406, which json::parse throws
  // without a place): position counts the characters read, the offending token last.
  bool parse_error(size_t position, const std::string& token, const nlohmann::detail::exception& e) {
    const bool syntax = std::string_view(e.what()).find("parse_error") != std::string_view::npos;
    size_t at = std::min(position, text_.size());
    at = at ? at - 1 : 0;
    while (at > 0 && at < text_.size() && is_space(text_[at])) --at;  // an unexpected end: the last thing there
    // a number too large ends at `at`: point at its first digit
    if (!syntax && !token.empty() && token.size() <= at + 1 &&
        text_.compare(at + 1 - token.size(), token.size(), token) == 0)
      at -= token.size() - 1;
    size_t line = doc_.first_line_, line_start = 0;
    for (size_t i = 0; i < at && i < text_.size(); ++i)
      if (text_[i] == '\n') ++line, line_start = i + 1;
    const std::string problem = nlohmann_problem(e.what());
    throw JsonError(doc_.file_, line, stack_.empty() ? "" : (stack_.back().pointer.empty() ? "/" : stack_.back().pointer),
                    syntax ? "invalid JSON: " + problem : problem, at - line_start + 1);
  }

 private:
  struct Open {
    json* value;
    std::string pointer;
    size_t next_index = 0;             // arrays
    json* member = nullptr;            // objects: the member whose key was read last
    std::string member_pointer;
  };

  // Where a new value goes, and its pointer (an object member's line was recorded with its key).
  json* place(json&& v, std::string& pointer) {
    if (stack_.empty()) {
      doc_.root_ = std::move(v);
      pointer.clear();
      record(pointer);
      return &doc_.root_;
    }
    Open& top = stack_.back();
    if (top.value->is_array()) {
      top.value->push_back(std::move(v));
      pointer = json_pointer(top.pointer, top.next_index++);
      record(pointer);
      return &top.value->back();
    }
    *top.member = std::move(v);
    pointer = top.member_pointer;
    return top.member;
  }
  bool add(json&& v) {
    std::string pointer;
    place(std::move(v), pointer);
    return true;
  }
  bool open(json&& v) {
    std::string pointer;
    json* at = place(std::move(v), pointer);
    stack_.push_back({at, std::move(pointer)});
    return true;
  }
  bool close() {
    stack_.pop_back();
    return true;
  }

  // The line of the last character the lexer read, stepping back over the one it may have read past a
  // number (every JSON token but a string's escapes lies on one line).
  void record(const std::string& pointer) {
    if (!track_ || !last_read_) return;
    const char* p = last_read_;
    while (p > text_.data() && is_space(*p)) --p;
    const size_t offset = size_t(p - text_.data());
    doc_.lines_[pointer] =
        doc_.first_line_ + size_t(std::lower_bound(newlines_.begin(), newlines_.end(), offset) - newlines_.begin());
  }

  JsonDocument& doc_;
  const std::string& text_;
  const char* const& last_read_;
  bool track_;
  std::vector<size_t> newlines_;  // offsets of '\n'
  std::vector<Open> stack_;
};

JsonDocument JsonDocument::parse(const std::string& text, const std::string& file, size_t first_line) {
  JsonDocument doc;
  doc.file_ = file;
  doc.first_line_ = first_line;
  const char* last_read = nullptr;
  // A document on one line of a JSON-lines file needs no line per value.
  const bool track = text.find('\n') != std::string::npos;
  JsonLineRecorder recorder(doc, text, last_read, track);
  json::sax_parse(TrackingIterator{text.data(), &last_read}, TrackingIterator{text.data() + text.size(), &last_read},
                  &recorder);
  return doc;
}

JsonDocument JsonDocument::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw JsonError(path, 0, "", "cannot open the file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse(buffer.str(), path);
}

size_t JsonDocument::line_of(const std::string& pointer) const {
  std::string p = pointer == "/" ? "" : pointer;
  while (true) {
    if (auto it = lines_.find(p); it != lines_.end()) return it->second;
    if (p.empty()) return first_line_;
    p.resize(p.rfind('/'));
  }
}

void JsonDocument::fail(const std::string& pointer, const std::string& problem) const {
  throw JsonError(file_, line_of(pointer), pointer.empty() ? "/" : pointer, problem);
}

double JsonDocument::number(const json& v, const std::string& pointer, double lo, double hi) const {
  if (!v.is_number()) fail(pointer, "expected a number");
  const double x = v.get<double>();
  if (!std::isfinite(x)) fail(pointer, "expected a finite number");
  if (x < lo || x > hi)
    fail(pointer, "value " + number_text(x) + " out of range [" + number_text(lo) + ", " + number_text(hi) + "]");
  return x;
}

uint32_t JsonDocument::integer(const json& v, const std::string& pointer, uint32_t lo, uint32_t hi) const {
  if (!v.is_number_integer()) fail(pointer, "expected an integer");
  const int64_t x = v.get<int64_t>();
  if (x < int64_t(lo) || x > int64_t(hi))
    fail(pointer, "value " + std::to_string(x) + " out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return uint32_t(x);
}

glm::vec3 JsonDocument::vec3(const json& v, const std::string& pointer) const {
  if (!v.is_array() || v.size() != 3) fail(pointer, "expected an array of 3 numbers");
  return glm::vec3(float(number(v[0], json_pointer(pointer, 0))), float(number(v[1], json_pointer(pointer, 1))),
                   float(number(v[2], json_pointer(pointer, 2))));
}

glm::vec2 JsonDocument::vec2(const json& v, const std::string& pointer) const {
  if (!v.is_array() || v.size() != 2) fail(pointer, "expected an array of 2 numbers");
  return glm::vec2(float(number(v[0], json_pointer(pointer, 0))), float(number(v[1], json_pointer(pointer, 1))));
}

const json& JsonDocument::array(const json& v, const std::string& pointer) const {
  if (!v.is_array()) fail(pointer, "expected an array");
  return v;
}

JsonObject::JsonObject(const JsonDocument& doc, const json& j, std::string pointer, const JsonObjectSpec& spec)
    : doc_(doc), j_(j), pointer_(std::move(pointer)), spec_(spec) {
  if (!j_.is_object()) fail("expected an object");
  for (const auto& [name, value] : j_.items()) {
    bool known = false;
    for (const JsonObjectSpec* s = &spec_; s && !known; s = s->also)
      for (const JsonKey& k : s->keys) known = known || k.name == name;
    if (!known) fail(name, "unknown key '" + name + "'");
  }
}

const JsonKey& JsonObject::key(std::string_view name, JsonType type) const {
  for (const JsonKey& k : spec_.keys)
    if (k.name == name) {
      const bool fits = k.type == type || (type == JsonType::Number && k.type == JsonType::NumberOrFalse) ||
                        ((type == JsonType::String || type == JsonType::Object) && k.type == JsonType::StringOrObject);
      if (!fits) break;
      return k;
    }
  // A reader reading a key its table does not declare (or with another type): the table is the truth.
  throw std::logic_error(std::string(spec_.name) + "." + std::string(name) + ": not in the key table as " +
                         json_type_name(type));
}

bool JsonObject::has(std::string_view key) const { return j_.contains(key); }

const json& JsonObject::at(std::string_view key) const {
  auto it = j_.find(key);
  if (it == j_.end()) fail("missing key '" + std::string(key) + "'");
  return *it;
}

const json& JsonObject::number_json(std::string_view name) const {
  const json& v = at(name);
  if (!spec_.sourced_numbers || !v.is_object()) return v;
  const JsonObject wrapper(doc_, v, pointer(name), *spec_.sourced_numbers);
  if (!wrapper.has("value")) fail(name, "missing key 'value'");
  return v.at("value");
}

double JsonObject::number(std::string_view name, double fallback) const {
  const JsonKey& k = key(name, JsonType::Number);
  return number(name, fallback, k.lo, k.hi);
}

double JsonObject::number(std::string_view name, double fallback, double lo, double hi) const {
  key(name, JsonType::Number);
  if (!has(name)) return fallback;
  return doc_.number(number_json(name), pointer(name), lo, hi);
}

uint32_t JsonObject::integer(std::string_view name, uint32_t fallback) const {
  const JsonKey& k = key(name, JsonType::Integer);
  return integer(name, fallback, uint32_t(std::max(0.0, k.lo)), uint32_t(std::min(double(UINT32_MAX), k.hi)));
}

uint32_t JsonObject::integer(std::string_view name, uint32_t fallback, uint32_t lo, uint32_t hi) const {
  key(name, JsonType::Integer);
  if (!has(name)) return fallback;
  return doc_.integer(at(name), pointer(name), lo, hi);
}

bool JsonObject::boolean(std::string_view name, bool fallback) const {
  key(name, JsonType::Boolean);
  if (!has(name)) return fallback;
  if (!at(name).is_boolean()) fail(name, "expected true or false");
  return at(name).get<bool>();
}

std::string JsonObject::string(std::string_view name, const std::string& fallback) const {
  const JsonKey& k = key(name, JsonType::String);
  if (!has(name)) return fallback;
  const json& v = at(name);
  if (!v.is_string()) fail(name, "expected a string");
  const std::string s = v.get<std::string>();
  if (k.choices.empty()) return s;
  for (size_t start = 0; start < k.choices.size();) {
    const size_t end = std::min(k.choices.find(' ', start), k.choices.size());
    if (k.choices.substr(start, end - start) == s) return s;
    start = end + 1;
  }
  fail(name, "'" + s + "' is not one of " + choices_text(k.choices));
}

glm::vec3 JsonObject::vec3(std::string_view name, glm::vec3 fallback) const {
  key(name, JsonType::Vec3);
  if (!has(name)) return fallback;
  return doc_.vec3(at(name), pointer(name));
}

glm::vec2 JsonObject::vec2(std::string_view name) const {
  key(name, JsonType::Vec2);
  return doc_.vec2(at(name), pointer(name));
}

const json& JsonObject::array(std::string_view name) const {
  key(name, JsonType::Array);
  return doc_.array(at(name), pointer(name));
}

JsonObject JsonObject::object(std::string_view name, const JsonObjectSpec& spec) const {
  key(name, JsonType::Object);
  return JsonObject(doc_, at(name), pointer(name), spec);
}

}  // namespace weft
