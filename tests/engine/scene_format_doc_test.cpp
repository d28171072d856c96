#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "engine/json_reader.h"
#include "engine/scene_loader.h"

using namespace weft;

namespace {

struct DocRow {
  std::string type, range;
};
// docs/scene_format.md's tables: each "### `name`" heading (several names: "### `a`, `b`" is "a, b"), then
// rows "| `key` | type | range | default | meaning |".
using DocTables = std::map<std::string, std::map<std::string, DocRow>>;

std::string trim(const std::string& s) {
  std::string out;
  for (char c : s)
    if (c != '`') out += c;
  const size_t a = out.find_first_not_of(' '), b = out.find_last_not_of(' ');
  return a == std::string::npos ? "" : out.substr(a, b - a + 1);
}

DocTables read_doc(const std::string& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in, "cannot read " << path);
  DocTables tables;
  std::string line, section;
  while (std::getline(in, line)) {
    if (line.starts_with("#")) {
      section.clear();
      if (!line.starts_with("### ")) continue;
      for (size_t a = line.find('`'); a != std::string::npos; a = line.find('`', line.find('`', a + 1) + 1)) {
        const size_t b = line.find('`', a + 1);
        if (b == std::string::npos) break;
        section += (section.empty() ? "" : ", ") + line.substr(a + 1, b - a - 1);
      }
      tables[section];
    } else if (!section.empty() && line.starts_with("| `")) {
      std::vector<std::string> cells;
      for (size_t a = 1, b; (b = line.find('|', a)) != std::string::npos; a = b + 1)
        cells.push_back(trim(line.substr(a, b - a)));
      REQUIRE_MESSAGE(cells.size() >= 3, line);
      tables[section][cells[0]] = {cells[1], cells[2]};
    }
  }
  return tables;
}

}  // namespace

// The loader's key tables (engine/scene_loader.cpp, engine/material_loader.cpp) against the document, both ways:
// a key read but not documented, documented but not read, or with another type or range fails here.
TEST_CASE("docs/scene_format.md lists every key the scene and material readers accept, with its type and range") {
  const DocTables doc = read_doc(std::string(WEFT_SOURCE_DIR) + "/docs/scene_format.md");
  std::set<std::string> read;
  for (const JsonObjectSpec* spec : scene_format()) {
    const std::string name(spec->name);
    read.insert(name);
    const auto section = doc.find(name);
    if (section == doc.end()) {
      FAIL_CHECK("the document has no section ### `" << name << "` (the loader reads that object)");
      continue;
    }
    for (const JsonKey& key : spec->keys) {
      INFO("`" << name << "` key `" << key.name << "`: | `" << key.name << "` | "
                << std::string(json_type_name(key.type)) << " | " << json_key_range(key) << " |");
      const auto row = section->second.find(std::string(key.name));
      if (row == section->second.end()) {
        FAIL_CHECK("the loader accepts the key, the document does not list it");
        continue;
      }
      CHECK(row->second.type == json_type_name(key.type));
      CHECK(row->second.range == json_key_range(key));
    }
    for (const auto& [key, row] : section->second) {
      bool accepted = false;
      for (const JsonKey& k : spec->keys) accepted = accepted || k.name == key;
      if (!accepted) FAIL_CHECK("`" << name << "`: the document lists `" << key << "`, the loader does not accept it");
    }
  }
  for (const auto& [name, rows] : doc)
    if (!read.contains(name)) FAIL_CHECK("the document's section `" << name << "` is no object the loader reads");
}
