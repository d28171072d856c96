#include <doctest/doctest.h>

#include <string>

#include "engine/json_reader.h"

using namespace weft;

namespace {

constexpr JsonKey kBoxKeys[] = {
    {"size", JsonType::Number, 0, 10}, {"count", JsonType::Integer, 1, 5}, {"kind", JsonType::String, 0, 0, "a b"},
    {"at", JsonType::Vec3},            {"on", JsonType::Boolean},
};
constexpr JsonObjectSpec kBox{"box", kBoxKeys};

// The message of the JsonError `f` throws ("" when it throws none).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const JsonError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("json reader: every value's line, by JSON pointer") {
  const std::string text = "{\n"
                           "  \"a\": 1,\n"
                           "  \"list\": [\n"
                           "    2,\n"
                           "    {\"b\": [3,\n"
                           "            4]}\n"
                           "  ],\n"
                           "  \"c/d\": 5.5\n"
                           "}\n";
  const JsonDocument doc = JsonDocument::parse(text, "t.json");
  CHECK(doc.root()["list"][1]["b"][1] == 4);
  CHECK(doc.root() == nlohmann::json::parse(text));  // the same tree as json::parse
  CHECK(doc.line_of("") == 1);
  CHECK(doc.line_of("/a") == 2);
  CHECK(doc.line_of("/list") == 3);
  CHECK(doc.line_of("/list/0") == 4);  // a number followed by a newline: its own line, not the next
  CHECK(doc.line_of("/list/1") == 5);
  CHECK(doc.line_of("/list/1/b/0") == 5);
  CHECK(doc.line_of("/list/1/b/1") == 6);
  CHECK(doc.line_of("/c~1d") == 8);      // RFC 6901 escapes
  CHECK(doc.line_of("/list/1/nothing") == 5);  // a missing key: its object's line
  CHECK(error_of([&] { doc.fail("/list/1/b/1", "too big"); }) == "t.json:6: /list/1/b/1: too big");
  CHECK(error_of([&] { doc.fail("", "empty"); }) == "t.json:1: /: empty");
}

TEST_CASE("json reader: syntax errors and numbers beyond a double name the line and column") {
  CHECK(error_of([] { JsonDocument::parse("{\n  \"a\": [1,\n  ]\n}", "t.json"); })
            .starts_with("t.json:3:3: /a: invalid JSON: syntax error while parsing value - unexpected ']'"));
  CHECK(error_of([] { JsonDocument::parse("{\"a\": 1,\n \"b\": 1e999\n}", "t.json"); }) ==
        "t.json:2:7: /: number overflow parsing '1e999'");
  CHECK(error_of([] { JsonDocument::parse("{\"a\": 1e999}", "s.jsonl", 12); }) ==
        "s.jsonl:12:7: /: number overflow parsing '1e999'");  // one line of a JSON-lines file
  CHECK(error_of([] { JsonDocument::parse("{\"a\": [1, 2\n\n", "t.json"); }).starts_with("t.json:1:11: /a: invalid JSON"));
  CHECK(error_of([] { JsonDocument::parse("", "t.json"); }).starts_with("t.json:1:1: invalid JSON"));
  CHECK(error_of([] { JsonDocument::load("/nonexistent/t.json"); }) == "/nonexistent/t.json: cannot open the file");
}

TEST_CASE("json reader: objects read against their key table") {
  const JsonDocument doc = JsonDocument::parse("{\"size\": 2.5,\n \"count\": 3, \"kind\": \"b\", \"at\": [1, 2, 3]}", "t.json");
  const JsonObject box(doc, doc.root(), "", kBox);
  CHECK(box.number("size", 0) == 2.5);
  CHECK(box.integer("count", 1) == 3);
  CHECK(box.string("kind", "a") == "b");
  CHECK(box.vec3("at", glm::vec3(0.f)) == glm::vec3(1, 2, 3));
  CHECK(box.boolean("on", true));  // absent: the fallback
  CHECK_THROWS_AS(box.number("colour", 0), std::logic_error);  // not in the table: a reader's bug
  CHECK_THROWS_AS(box.integer("size", 0), std::logic_error);   // in the table as another type

  const auto read = [](const std::string& text) {
    const JsonDocument d = JsonDocument::parse(text, "t.json");
    const JsonObject o(d, d.root(), "", kBox);
    o.number("size", 0);
    o.integer("count", 1);
    o.string("kind", "a");
    o.vec3("at", glm::vec3(0.f));
    o.boolean("on", false);
  };
  CHECK(error_of([&] { read("{\n\"sise\": 1}"); }) == "t.json:2: /sise: unknown key 'sise'");
  CHECK(error_of([&] { read("{\"size\":\n 11}"); }) == "t.json:1: /size: value 11 out of range [0, 10]");
  CHECK(error_of([&] { read("{\"count\": 1.5}"); }) == "t.json:1: /count: expected an integer");
  CHECK(error_of([&] { read("{\"count\": 6}"); }) == "t.json:1: /count: value 6 out of range [1, 5]");
  CHECK(error_of([&] { read("{\"kind\": \"c\"}"); }) == "t.json:1: /kind: 'c' is not one of a, b");
  CHECK(error_of([&] { read("{\"at\": [1,\n 2,\n \"x\"]}"); }) == "t.json:3: /at/2: expected a number");
  CHECK(error_of([&] { read("{\"on\": 1}"); }) == "t.json:1: /on: expected true or false");
  CHECK(error_of([&] { read("[1]"); }) == "t.json:1: /: expected an object");
}

TEST_CASE("json reader: key ranges as the format's document writes them") {
  CHECK(json_key_range(kBoxKeys[0]) == "[0, 10]");
  CHECK(json_key_range(kBoxKeys[1]) == "[1, 5]");
  CHECK(json_key_range(kBoxKeys[2]) == "a, b");
  CHECK(json_key_range(kBoxKeys[3]) == "");
  CHECK(json_key_range({"seed", JsonType::Integer, 0, 4294967295.0}) == "[0, 4294967295]");
  CHECK(json_key_range({"vertex", JsonType::Integer, 0}) == ">= 0");
  CHECK(json_key_range({"tolerance", JsonType::Number, 1e-8, 0.5}) == "[1e-08, 0.5]");
}
