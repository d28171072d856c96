#include "engine/headless_demo.h"

#include "engine/snapshot_builder.h"

namespace weft {

HeadlessDemo::HeadlessDemo(const TableSceneSpec& spec)
    : scene_(make_table_scene(spec)), input_(scene_.world),
      script_(scene_.world.model().rest_position[scene_.near_corners[0]],
              scene_.world.model().rest_position[scene_.near_corners[1]]) {}

void HeadlessDemo::advance_to(double t) {
  const double h = scene_.world.time_step();
  while (scene_.world.state().time + 0.5 * h < t) {
    script_.drive(scene_.world.state().time, input_);
    input_.before_step();
    scene_.world.step();
    apply_stand_in_contact(scene_.props, scene_.world.mutable_state());
  }
}

void HeadlessDemo::snapshot(ClothSnapshot& out) const {
  fill_snapshot(scene_.world, out);
  input_.fill_devices(out);
}

}  // namespace weft
