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

// Material coordinates from the two widest axes of the bounding box, for files without `vt`.
void planar_material(Mesh& mesh) {
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

}  // namespace

// tinyobjloader reads "nan" or "abc" as 0 without a word: check every vertex line first.
void check_vertex_lines(const std::string& path, std::istream& in) {
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.size() < 2 || line[0] != 'v' || (line[1] != ' ' && line[1] != 't' && line[1] != '\t')) continue;
    std::istringstream fields(line.substr(line[1] == 't' ? 2 : 1));
    std::string token;
    int count = 0;
    while (fields >> token) {
      char* end = nullptr;
      const double value = std::strtod(token.c_str(), &end);
      if (end == token.c_str() || *end != '\0' || !std::isfinite(value) || std::abs(value) > 3e38) {
        std::ostringstream msg;
        msg << "line " << number << ": '" << token << "' is not a finite number";
        fail(path, msg.str());
      }
      ++count;
    }
    if (count < (line[1] == 't' ? 2 : 3)) fail(path, "line " + std::to_string(number) + ": too few coordinates");
  }
}

Mesh load_obj_mesh(const std::string& path) {
  std::ifstream probe(path);
  if (!probe) fail(path, "cannot open the file");
  check_vertex_lines(path, probe);
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
  for (int t : texcoord_of) every_vertex_textured = every_vertex_textured && t >= 0;
  if (every_vertex_textured) {
    for (size_t i = 0; i < nvert; ++i)
      mesh.material.emplace_back(attrib.texcoords[2 * texcoord_of[i]], attrib.texcoords[2 * texcoord_of[i] + 1]);
  } else {
    planar_material(mesh);
  }
  if (const std::string err = validate_mesh(mesh); !err.empty()) fail(path, err);
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
