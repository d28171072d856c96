#include "sim/world_scratch.h"

#include "sim/cloth_model.h"

namespace weft {

void WorldScratch::resize(const ClothModel& model) {
  const size_t n = model.vertex_count();
  grasp.resize(n);
  elastic.resize(n);
  tether.resize(model);
  strain.resize(model);
  x_prev.resize(n);
  box_solve_x.resize(n);
  box_solve_v.resize(n);
  v_start.resize(n);
  collider_contact.resize(n);
  collider_moved.resize(n);
  last_contact_filter.resize(n);
  solved_length.assign(model.edge_count, 0.f);
  held_by.assign(n, 0);
  pushed_or_kinematic.assign(n, 0);
  seam_slip.assign(n, 0);
  freed.resize(n, model.link_count_total());
}

}  // namespace weft
