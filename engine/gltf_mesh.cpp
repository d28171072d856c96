#include "engine/gltf_mesh.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>

// tinygltf's implementation lives here, once: JSON through the system nlohmann/json (Debian's tiny_gltf.h
// includes <nlohmann/json.hpp>); no image codecs, since a cloth mesh needs no textures.
#define TINYGLTF_IMPLEMENTATION
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <tiny_gltf.h>
#pragma GCC diagnostic pop

namespace weft {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& problem) {
  throw MeshFileError(path + ": " + problem);
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

// Images are not read (a cloth panel needs none): accept and skip them.
bool skip_image(tinygltf::Image*, const int, std::string*, std::string*, int, int, const unsigned char*, int, void*) {
  return true;
}

// The bytes of accessor `index`, checked: type, component type and that every element lies in its buffer.
struct View {
  const unsigned char* data = nullptr;
  size_t count = 0, stride = 0;
  int component = 0;
};
View accessor_view(const std::string& path, const tinygltf::Model& m, int index, const std::string& what, int type,
                   std::initializer_list<int> components) {
  if (index < 0 || size_t(index) >= m.accessors.size())
    fail(path, what + ": accessor " + std::to_string(index) + " does not exist (" + std::to_string(m.accessors.size()) +
                   " accessors)");
  const tinygltf::Accessor& a = m.accessors[size_t(index)];
  const std::string name = what + " (accessor " + std::to_string(index) + ")";
  if (a.type != type) fail(path, name + ": wrong element type");
  if (std::find(components.begin(), components.end(), a.componentType) == components.end())
    fail(path, name + ": unsupported component type " + std::to_string(a.componentType));
  if (a.sparse.isSparse) fail(path, name + ": sparse accessors are not supported");
  if (a.bufferView < 0 || size_t(a.bufferView) >= m.bufferViews.size())
    fail(path, name + ": buffer view " + std::to_string(a.bufferView) + " does not exist");
  const tinygltf::BufferView& bv = m.bufferViews[size_t(a.bufferView)];
  if (bv.buffer < 0 || size_t(bv.buffer) >= m.buffers.size())
    fail(path, name + ": buffer " + std::to_string(bv.buffer) + " does not exist");
  const tinygltf::Buffer& buf = m.buffers[size_t(bv.buffer)];
  const size_t element = size_t(tinygltf::GetComponentSizeInBytes(uint32_t(a.componentType))) *
                         size_t(tinygltf::GetNumComponentsInType(uint32_t(a.type)));
  const size_t stride = bv.byteStride ? bv.byteStride : element;
  const size_t span = a.count == 0 ? 0 : (a.count - 1) * stride + element;
  if (bv.byteOffset + bv.byteLength > buf.data.size() || a.byteOffset + span > bv.byteLength)
    fail(path, name + ": reads past the end of buffer " + std::to_string(bv.buffer) + " (" +
                   std::to_string(buf.data.size()) + " bytes)");
  return {buf.data.data() + bv.byteOffset + a.byteOffset, a.count, stride, a.componentType};
}

uint32_t read_index(const View& v, size_t k) {
  const unsigned char* p = v.data + k * v.stride;
  if (v.component == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE) return *p;
  if (v.component == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT) { uint16_t s; std::memcpy(&s, p, 2); return s; }
  uint32_t i;
  std::memcpy(&i, p, 4);
  return i;
}

glm::mat4 node_matrix(const tinygltf::Node& n) {
  if (n.matrix.size() == 16) {
    glm::dmat4 m;
    for (int k = 0; k < 16; ++k) glm::value_ptr(m)[k] = n.matrix[size_t(k)];  // column-major, as glTF
    return glm::mat4(m);
  }
  glm::mat4 m(1.f);
  if (n.translation.size() == 3) m = glm::translate(m, glm::vec3(n.translation[0], n.translation[1], n.translation[2]));
  if (n.rotation.size() == 4)
    m *= glm::mat4_cast(glm::quat(float(n.rotation[3]), float(n.rotation[0]), float(n.rotation[1]), float(n.rotation[2])));
  if (n.scale.size() == 3) m = glm::scale(m, glm::vec3(n.scale[0], n.scale[1], n.scale[2]));
  return m;
}

struct Reader {
  const std::string& path;
  const tinygltf::Model& model;
  Mesh mesh;
  std::vector<MeshLine> lines;
  bool every_textured = true;

  // A LINES or LINE_STRIP primitive: its segments, named by the node (or else the mesh).
  void add_lines(const tinygltf::Primitive& prim, const std::string& where, const std::string& name,
                 const glm::mat4& to_world) {
    const auto pos = prim.attributes.find("POSITION");
    if (pos == prim.attributes.end()) fail(path, where + ": no POSITION attribute");
    const View xv = accessor_view(path, model, pos->second, where + " POSITION", TINYGLTF_TYPE_VEC3,
                                  {TINYGLTF_COMPONENT_TYPE_FLOAT});
    std::vector<glm::vec3> x(xv.count);
    for (size_t k = 0; k < xv.count; ++k) {
      float f[3];
      std::memcpy(f, xv.data + k * xv.stride, sizeof f);
      if (!std::isfinite(f[0]) || !std::isfinite(f[1]) || !std::isfinite(f[2]))
        fail(path, where + ": vertex " + std::to_string(k) + " has a non-finite coordinate");
      x[k] = glm::vec3(to_world * glm::vec4(f[0], f[1], f[2], 1.f));
    }
    std::vector<uint32_t> index;
    if (prim.indices < 0) {
      for (uint32_t k = 0; k < xv.count; ++k) index.push_back(k);
    } else {
      const View iv = accessor_view(path, model, prim.indices, where + " indices", TINYGLTF_TYPE_SCALAR,
                                    {TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT,
                                     TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT});
      for (size_t k = 0; k < iv.count; ++k) {
        const uint32_t i = read_index(iv, k);
        if (i >= xv.count)
          fail(path, where + ": index " + std::to_string(i) + " out of range of its " + std::to_string(xv.count) + " vertices");
        index.push_back(i);
      }
    }
    const bool strip = prim.mode == TINYGLTF_MODE_LINE_STRIP;
    if (!strip && index.size() % 2) fail(path, where + ": " + std::to_string(index.size()) + " indices is not a whole number of lines");
    MeshLine line{name, {}};
    for (size_t k = 0; k + 1 < index.size(); k += strip ? 1 : 2) line.segments.push_back({x[index[k]], x[index[k + 1]]});
    lines.push_back(std::move(line));
  }

  void add_mesh(int index, const glm::mat4& to_world, const std::string& node_name = "") {
    if (index < 0 || size_t(index) >= model.meshes.size()) fail(path, "node refers to mesh " + std::to_string(index) + " that does not exist");
    const tinygltf::Mesh& gm = model.meshes[size_t(index)];
    for (size_t p = 0; p < gm.primitives.size(); ++p) {
      const tinygltf::Primitive& prim = gm.primitives[p];
      const std::string where = "mesh '" + gm.name + "' primitive " + std::to_string(p);
      if (prim.mode == TINYGLTF_MODE_LINE || prim.mode == TINYGLTF_MODE_LINE_STRIP) {
        add_lines(prim, where, node_name.empty() ? gm.name : node_name, to_world);
        continue;
      }
      if (prim.mode != TINYGLTF_MODE_TRIANGLES)
        fail(path, where + ": mode " + std::to_string(prim.mode) + " is neither triangles (4) nor lines (1, 3)");
      const auto pos = prim.attributes.find("POSITION");
      if (pos == prim.attributes.end()) fail(path, where + ": no POSITION attribute");
      const View xv = accessor_view(path, model, pos->second, where + " POSITION", TINYGLTF_TYPE_VEC3,
                                    {TINYGLTF_COMPONENT_TYPE_FLOAT});
      const uint32_t first = uint32_t(mesh.positions.size());
      for (size_t k = 0; k < xv.count; ++k) {
        float f[3];
        std::memcpy(f, xv.data + k * xv.stride, sizeof f);
        if (!std::isfinite(f[0]) || !std::isfinite(f[1]) || !std::isfinite(f[2]))
          fail(path, where + ": vertex " + std::to_string(k) + " has a non-finite coordinate");
        mesh.positions.push_back(glm::vec3(to_world * glm::vec4(f[0], f[1], f[2], 1.f)));
      }
      const auto uv = prim.attributes.find("TEXCOORD_0");
      if (uv == prim.attributes.end()) {
        every_textured = false;
      } else {
        const View tv = accessor_view(path, model, uv->second, where + " TEXCOORD_0", TINYGLTF_TYPE_VEC2,
                                      {TINYGLTF_COMPONENT_TYPE_FLOAT});
        if (tv.count != xv.count) fail(path, where + ": TEXCOORD_0 and POSITION differ in count");
        for (size_t k = 0; k < tv.count; ++k) {
          float f[2];
          std::memcpy(f, tv.data + k * tv.stride, sizeof f);
          mesh.material.emplace_back(f[0], f[1]);
        }
      }
      if (prim.indices < 0) {  // non-indexed: every three vertices a triangle
        if (xv.count % 3) fail(path, where + ": " + std::to_string(xv.count) + " vertices is not a whole number of triangles");
        for (uint32_t k = 0; k < xv.count; k += 3) mesh.triangles.push_back({first + k, first + k + 1, first + k + 2});
        continue;
      }
      const View iv = accessor_view(path, model, prim.indices, where + " indices", TINYGLTF_TYPE_SCALAR,
                                    {TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT,
                                     TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT});
      if (iv.count % 3) fail(path, where + ": " + std::to_string(iv.count) + " indices is not a whole number of triangles");
      for (size_t k = 0; k < iv.count; k += 3) {
        std::array<uint32_t, 3> t;
        for (int c = 0; c < 3; ++c) {
          const uint32_t i = read_index(iv, k + size_t(c));
          if (i >= xv.count)
            fail(path, where + ": index " + std::to_string(i) + " (triangle " + std::to_string(k / 3) +
                           ") out of range of its " + std::to_string(xv.count) + " vertices");
          t[size_t(c)] = first + i;
        }
        mesh.triangles.push_back(t);
      }
    }
  }

  void add_node(int index, const glm::mat4& parent, int depth) {
    if (index < 0 || size_t(index) >= model.nodes.size()) fail(path, "node " + std::to_string(index) + " does not exist");
    if (depth > 64) fail(path, "nodes nest deeper than 64 (a cycle?)");
    const tinygltf::Node& n = model.nodes[size_t(index)];
    const glm::mat4 m = parent * node_matrix(n);
    if (n.mesh >= 0) add_mesh(n.mesh, m, n.name);
    for (int c : n.children) add_node(c, m, depth + 1);
  }
};

}  // namespace

bool is_gltf_path(const std::string& path) {
  std::string ext = path.size() >= 5 ? path.substr(path.size() - 5) : path;
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext == ".gltf" || ext.substr(1) == ".glb";
}

Mesh load_gltf_mesh(const std::string& path, std::vector<MeshLine>* lines) {
  tinygltf::TinyGLTF loader;
  loader.SetImageLoader(skip_image, nullptr);
  tinygltf::Model model;
  std::string err, warn;
  const bool binary = is_gltf_path(path) && std::tolower(path.back()) == 'b';
  const bool ok = binary ? loader.LoadBinaryFromFile(&model, &err, &warn, path)
                         : loader.LoadASCIIFromFile(&model, &err, &warn, path);
  if (!ok) fail(path, err.empty() ? "not a readable glTF file" : trimmed(err));
  Reader r{path, model, {}};
  if (!model.scenes.empty()) {
    const size_t s = model.defaultScene >= 0 ? size_t(model.defaultScene) : 0;
    if (s >= model.scenes.size()) fail(path, "default scene " + std::to_string(s) + " does not exist");
    for (int n : model.scenes[s].nodes) r.add_node(n, glm::mat4(1.f), 0);
  } else {
    for (size_t k = 0; k < model.meshes.size(); ++k) r.add_mesh(int(k), glm::mat4(1.f));  // no scene: every mesh
  }
  Mesh mesh = std::move(r.mesh);
  if (lines) *lines = std::move(r.lines);
  if (mesh.positions.empty())
    fail(path, r.lines.empty() ? "no vertices (no mesh in the default scene)" : "no triangles (only lines)");
  if (mesh.triangles.empty()) fail(path, "no triangles");
  if (!r.every_textured || mesh.material.size() != mesh.positions.size()) planar_material_coordinates(mesh);
  if (const std::string e = validate_mesh(mesh); !e.empty()) fail(path, e);
  return mesh;
}

void save_gltf_mesh(const Mesh& mesh, const std::string& path) {
  tinygltf::Model model;
  tinygltf::Buffer buffer;
  auto append = [&](const void* data, size_t bytes) {
    const size_t at = buffer.data.size();
    buffer.data.resize(at + bytes);
    std::memcpy(buffer.data.data() + at, data, bytes);
    return at;
  };
  const size_t nv = mesh.vertex_count();
  const size_t pos_at = append(mesh.positions.data(), nv * sizeof(glm::vec3));
  const size_t uv_at = append(mesh.material.data(), nv * sizeof(glm::vec2));
  const size_t idx_at = append(mesh.triangles.data(), mesh.triangle_count() * 3 * sizeof(uint32_t));
  model.buffers.push_back(buffer);
  auto view = [&](size_t offset, size_t length, int target) {
    tinygltf::BufferView v;
    v.buffer = 0;
    v.byteOffset = offset;
    v.byteLength = length;
    v.target = target;
    model.bufferViews.push_back(v);
    return int(model.bufferViews.size() - 1);
  };
  auto accessor = [&](int v, int component, int type, size_t count) {
    tinygltf::Accessor a;
    a.bufferView = v;
    a.componentType = component;
    a.type = type;
    a.count = count;
    model.accessors.push_back(a);
    return int(model.accessors.size() - 1);
  };
  const int pos = accessor(view(pos_at, nv * 12, TINYGLTF_TARGET_ARRAY_BUFFER), TINYGLTF_COMPONENT_TYPE_FLOAT,
                           TINYGLTF_TYPE_VEC3, nv);
  glm::vec3 lo(INFINITY), hi(-INFINITY);  // POSITION needs its bounds (glTF 2.0 5.1.1)
  for (const glm::vec3& p : mesh.positions) { lo = glm::min(lo, p); hi = glm::max(hi, p); }
  model.accessors[size_t(pos)].minValues = {lo.x, lo.y, lo.z};
  model.accessors[size_t(pos)].maxValues = {hi.x, hi.y, hi.z};
  const int uv = accessor(view(uv_at, nv * 8, TINYGLTF_TARGET_ARRAY_BUFFER), TINYGLTF_COMPONENT_TYPE_FLOAT,
                          TINYGLTF_TYPE_VEC2, nv);
  const int idx = accessor(view(idx_at, mesh.triangle_count() * 12, TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER),
                           TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT, TINYGLTF_TYPE_SCALAR, mesh.triangle_count() * 3);
  tinygltf::Primitive prim;
  prim.attributes["POSITION"] = pos;
  prim.attributes["TEXCOORD_0"] = uv;
  prim.indices = idx;
  prim.mode = TINYGLTF_MODE_TRIANGLES;
  tinygltf::Mesh gm;
  gm.name = "cloth";
  gm.primitives.push_back(prim);
  model.meshes.push_back(gm);
  tinygltf::Node node;
  node.mesh = 0;
  node.name = "cloth";
  model.nodes.push_back(node);
  tinygltf::Scene scene;
  scene.nodes = {0};
  model.scenes.push_back(scene);
  model.defaultScene = 0;
  model.asset.version = "2.0";
  model.asset.generator = "weft mesh";
  tinygltf::TinyGLTF writer;
  const bool binary = std::tolower(path.back()) == 'b';
  if (!writer.WriteGltfSceneToFile(&model, path, false, true, !binary, binary)) fail(path, "cannot write the file");
}

}  // namespace weft
