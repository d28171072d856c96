#include "engine/snapshot.h"

#include "sim/cloth_model.h"

namespace weft {

SnapshotMesh make_snapshot_mesh(const ClothModel& model) { return {model.triangle, model.material_coord}; }

void ClothSnapshot::resize(size_t vertex_count) {
  position.resize(vertex_count);
  normal.resize(vertex_count);
  strain.resize(vertex_count);
  grasped.resize(vertex_count);
}

}  // namespace weft
