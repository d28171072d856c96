#include "engine/snapshot.h"

#include "sim/cloth_model.h"

namespace weft {

SnapshotMesh make_snapshot_mesh(const ClothModel& model) {
  return {model.triangle, model.material_coord, model.vertex_count() * kTopologyHeadroom,
          model.triangle.size() * kTopologyHeadroom};
}

void ClothSnapshot::reserve(const SnapshotMesh& mesh) {
  position.reserve(mesh.vertex_capacity);
  normal.reserve(mesh.vertex_capacity);
  strain.reserve(mesh.vertex_capacity);
  grasped.reserve(mesh.vertex_capacity);
  topology.material.reserve(mesh.vertex_capacity);
  topology.triangles.reserve(mesh.triangle_capacity);
  topology.triangles = mesh.triangles;
  topology.material = mesh.material;
}

void ClothSnapshot::resize(size_t vertex_count) {
  position.resize(vertex_count);
  normal.resize(vertex_count);
  strain.resize(vertex_count);
  grasped.resize(vertex_count);
}

}  // namespace weft
