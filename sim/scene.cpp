#include "sim/scene.h"

namespace weft {

World build_world(const Scene& scene) {
  World world(build_cloth_model(scene.mesh, scene.material, scene.pins, scene.creases), scene.world);
  for (const Collider& c : scene.colliders) world.add_collider(c);
  for (const RigidBox& b : scene.rigid_boxes) world.add_rigid_box(b);
  for (const TrackerAttachment& t : scene.trackers) world.attach(t.device, t.vertices, t.pose);
  for (const auto& [a, b] : scene.seams) world.add_seam(a, b);
  const SeamSet& s = scene.seam_lines;
  for (size_t k = 0; k < s.size(); ++k) world.add_seam(s.a[k], s.b[k], s.c[k], s.w[k]);
  return world;
}

}  // namespace weft
