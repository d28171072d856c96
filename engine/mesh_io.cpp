#include "engine/mesh_io.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <tiny_obj_loader.h>

namespace weft {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& problem) {
  throw MeshFileError(path + ": " + problem);
}

}  // namespace

void planar_material_coordinates(Mesh& mesh) {
  glm::vec3 lo(INFINITY), hi(-INFINITY);
  for (const glm::vec3& p : mesh.positions) { lo = glm::min(lo, p); hi = glm::max(hi, p); }
  const glm::vec3 extent = hi - lo;
  int narrow = 0;
  if (extent.y < extent[narrow]) narrow = 1;
  if (extent.z < extent[narrow]) narrow = 2;
  const int a = narrow == 0 ? 1 : 0, b = narrow == 2 ? 1 : 2;
  mesh.material.clear();
  for (const glm::vec3& p : mesh.positions) mesh.material.emplace_back(p[a] - lo[a], p[b] - lo[b]);
}

namespace {

[[noreturn]] void fail_at(const std::string& path, int line, const std::string& problem) {
  throw MeshFileError(path + ":" + std::to_string(line) + ": " + problem);
}

// tinyobjloader reads "nan" or "abc" as 0 without a word and reports a bad face index without its line:
// check every vertex and face line first. Returns the line of each triangle (a face of n corners is
// triangulated into n - 2, in order).
// Also collects the line elements (`l a b c ...`, 0-based vertex indices) under the latest `o` or `g` name:
// read here, since tinyobjloader drops an object of lines followed by another group.
struct ObjLineElement {
  std::string name;
  std::vector<uint32_t> vertices;
};
std::vector<uint32_t> scan_obj_lines(const std::string& path, std::istream& in, std::vector<ObjLineElement>& elements) {
  std::vector<uint32_t> triangle_line;
  std::string line, group;
  long vertices = 0;
  // A face's or line's vertex token ("7", "7/2/3", "-1"): its 1-based index, checked against the vertices so far.
  auto vertex_index = [&](const std::string& token, const char* element, int number) {
    char* end = nullptr;
    const long index = std::strtol(token.c_str(), &end, 10);
    if (end == token.c_str() || (*end != '\0' && *end != '/')) fail_at(path, number, "'" + token + "' is not a vertex index");
    const long resolved = index < 0 ? vertices + index + 1 : index;  // negative: relative to the vertices so far
    if (index == 0 || resolved < 1 || resolved > vertices)
      fail_at(path, number, std::string(element) + " refers to vertex " + std::to_string(index) + " but only " +
                                std::to_string(vertices) + " vertices are defined before this line");
    return uint32_t(resolved);
  };
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.size() >= 2 && (line[0] == 'o' || line[0] == 'g') && (line[1] == ' ' || line[1] == '\t')) {
      std::istringstream fields(line.substr(1));
      group.clear();
      fields >> group;
      continue;
    }
    if (line.size() >= 2 && line[0] == 'l' && (line[1] == ' ' || line[1] == '\t')) {
      std::istringstream fields(line.substr(1));
      std::string token;
      ObjLineElement element{group, {}};
      while (fields >> token) element.vertices.push_back(vertex_index(token, "line", number) - 1);
      if (element.vertices.size() < 2) fail_at(path, number, "a line needs at least 2 vertices");
      elements.push_back(std::move(element));
      continue;
    }
    if (line.size() >= 2 && line[0] == 'f' && (line[1] == ' ' || line[1] == '\t')) {
      std::istringstream fields(line.substr(1));
      std::string token;
      int corners = 0;
      while (fields >> token) {
        vertex_index(token, "face", number);
        ++corners;
      }
      if (corners < 3) fail_at(path, number, "a face needs at least 3 vertices");
      for (int k = 0; k < corners - 2; ++k) triangle_line.push_back(uint32_t(number));
      continue;
    }
    if (line.size() < 2 || line[0] != 'v' || (line[1] != ' ' && line[1] != 't' && line[1] != '\t')) continue;
    std::istringstream fields(line.substr(line[1] == 't' ? 2 : 1));
    std::string token;
    int count = 0;
    while (fields >> token) {
      char* end = nullptr;
      const double value = std::strtod(token.c_str(), &end);
      if (end == token.c_str() || *end != '\0' || !std::isfinite(value) || std::abs(value) > 3e38)
        fail_at(path, number, "'" + token + "' is not a finite number");
      ++count;
    }
    if (count < (line[1] == 't' ? 2 : 3)) fail_at(path, number, "too few coordinates");
    if (line[1] != 't') ++vertices;
  }
  return triangle_line;
}

}  // namespace

Mesh load_obj_mesh(const std::string& path, std::vector<uint32_t>* triangle_line, bool validate,
                   std::vector<MeshLine>* lines_out) {
  std::ifstream probe(path);
  if (!probe) fail(path, "cannot open the file");
  std::vector<ObjLineElement> elements;
  std::vector<uint32_t> lines = scan_obj_lines(path, probe, elements);
  tinyobj::ObjReaderConfig config;
  config.triangulate = true;
  config.vertex_color = false;
  tinyobj::ObjReader obj;
  if (!obj.ParseFromFile(path, config)) {
    std::string err = obj.Error();
    while (!err.empty() && (err.back() == '\n' || err.back() == '\r')) err.pop_back();
    fail(path, err.empty() ? "not a readable OBJ file" : err);
  }
  const auto& attrib = obj.GetAttrib();
  Mesh mesh;
  const size_t nvert = attrib.vertices.size() / 3;
  if (nvert == 0) fail(path, "no vertices ('v' lines)");
  for (size_t i = 0; i < nvert; ++i)
    mesh.positions.emplace_back(attrib.vertices[3 * i], attrib.vertices[3 * i + 1], attrib.vertices[3 * i + 2]);
  std::vector<int> texcoord_of(nvert, -1);
  bool every_vertex_textured = !attrib.texcoords.empty();
  for (const auto& shape : obj.GetShapes()) {
    const auto& idx = shape.mesh.indices;
    for (size_t k = 0; k + 2 < idx.size(); k += 3) {
      std::array<uint32_t, 3> tri;
      for (int c = 0; c < 3; ++c) {
        const auto& ix = idx[k + c];
        if (ix.vertex_index < 0 || size_t(ix.vertex_index) >= nvert) {
          std::ostringstream msg;
          msg << "face " << k / 3 + 1 << " in '" << shape.name << "' refers to vertex " << ix.vertex_index + 1
              << " of " << nvert;
          fail(path, msg.str());
        }
        tri[c] = uint32_t(ix.vertex_index);
        if (ix.texcoord_index < 0) every_vertex_textured = false;
        else if (texcoord_of[tri[c]] < 0) texcoord_of[tri[c]] = ix.texcoord_index;
      }
      mesh.triangles.push_back(tri);
    }
  }
  if (mesh.triangles.empty()) fail(path, "no triangles ('f' lines)");
  if (lines.size() != mesh.triangles.size()) lines.clear();  // a triangulation other than a fan: lines unknown
  // Line elements (`l`): named segments; the vertices only they use (a seam drawn as its own object, as
  // Blender exports loose edges) are left out of the cloth.
  std::vector<uint8_t> on_face(nvert, 0);
  for (const auto& t : mesh.triangles) on_face[t[0]] = on_face[t[1]] = on_face[t[2]] = 1;
  bool line_only = false;
  for (const ObjLineElement& element : elements) {  // consecutive elements of one name make one line
    if (!lines_out) break;
    if (lines_out->empty() || lines_out->back().name != element.name) lines_out->push_back({element.name, {}});
    for (size_t k = 0; k + 1 < element.vertices.size(); ++k)
      lines_out->back().segments.push_back({mesh.positions[element.vertices[k]], mesh.positions[element.vertices[k + 1]]});
  }
  for (const ObjLineElement& element : elements)
    for (uint32_t i : element.vertices) line_only = line_only || !on_face[i];
  if (line_only) {  // renumber the cloth's vertices without those only lines use
    std::vector<uint32_t> to(nvert, UINT32_MAX);
    std::vector<glm::vec3> kept;
    std::vector<int> kept_texcoord;
    for (size_t i = 0; i < nvert; ++i) {
      if (!on_face[i]) continue;
      to[i] = uint32_t(kept.size());
      kept.push_back(mesh.positions[i]);
      kept_texcoord.push_back(texcoord_of[i]);
    }
    for (auto& t : mesh.triangles)
      for (uint32_t& v : t) v = to[v];
    mesh.positions = std::move(kept);
    texcoord_of = std::move(kept_texcoord);
  }
  for (int t : texcoord_of) every_vertex_textured = every_vertex_textured && t >= 0;
  if (every_vertex_textured) {
    for (size_t i = 0; i < mesh.positions.size(); ++i)
      mesh.material.emplace_back(attrib.texcoords[2 * texcoord_of[i]], attrib.texcoords[2 * texcoord_of[i] + 1]);
  } else {
    planar_material_coordinates(mesh);
  }
  if (validate) {
    if (const std::string err = validate_mesh(mesh); !err.empty()) {
      // validate_mesh names "triangle N": add the file line it came from
      const size_t at = err.find("triangle ");
      if (at != std::string::npos && !lines.empty()) {
        const size_t t = std::strtoul(err.c_str() + at + 9, nullptr, 10);
        if (t >= 1 && t <= lines.size()) fail_at(path, int(lines[t - 1]), err);
      }
      fail(path, err);
    }
  }
  if (triangle_line) *triangle_line = std::move(lines);
  return mesh;
}

void save_obj_mesh(const Mesh& mesh, const std::string& path) {
  std::ofstream out(path);
  if (!out) fail(path, "cannot write the file");
  out << "# Weft cloth mesh: " << mesh.vertex_count() << " vertices, " << mesh.triangle_count() << " triangles\n";
  out.precision(9);
  for (const auto& p : mesh.positions) out << "v " << p.x << ' ' << p.y << ' ' << p.z << '\n';
  for (const auto& m : mesh.material) out << "vt " << m.x << ' ' << m.y << '\n';
  for (const auto& t : mesh.triangles)
    out << "f " << t[0] + 1 << '/' << t[0] + 1 << ' ' << t[1] + 1 << '/' << t[1] + 1 << ' ' << t[2] + 1 << '/'
        << t[2] + 1 << '\n';
  if (!out) fail(path, "write failed");
}

}  // namespace weft
