#include <doctest/doctest.h>

#include "engine/headless_demo.h"

namespace weft {

TEST_CASE("scripted two-hand demo: grabs both corners, lifts, releases, and the cloth lands on the table") {
  HeadlessDemo demo;
  const float top = demo.scene().props.floor_height + demo.scene().props.table->top_height;
  demo.advance_to(TwoHandScript::kGrabTime + 0.05);
  CHECK(!demo.input().held(Hand::Left).empty());
  CHECK(!demo.input().held(Hand::Right).empty());
  demo.advance_to(TwoHandScript::kLiftEnd);
  const uint32_t corner = demo.scene().near_corners[0];
  CHECK(demo.world().state().position[corner].y > top + 0.45f);
  CHECK(std::string(TwoHandScript::phase(2.0)) == "shake");
  demo.advance_to(TwoHandScript::kShakeEnd + 0.05);
  CHECK(demo.input().held(Hand::Left).empty());
  demo.advance_to(TwoHandScript::kEnd + 1.5);
  // Fallen and settled: the highest vertex is back near the table top and most of the cloth rests on it.
  float max_y = -1e9f;
  int on_table = 0;
  for (const glm::vec3& p : demo.world().state().position) {
    max_y = std::max(max_y, p.y);
    on_table += std::abs(p.y - top) < 0.05f;
  }
  glm::vec3 centre(0.f);
  for (const glm::vec3& p : demo.world().state().position) centre += p;
  centre /= float(demo.world().model().vertex_count());
  INFO("on table ", on_table, ", centre ", centre.x, " ", centre.y - top, " ", centre.z, " (table z within 0.3)");
  CHECK(max_y < top + 0.25f);
  CHECK(on_table > int(demo.world().model().vertex_count() / 2));
  CHECK(demo.world().invalid_pose_count() == 0);
}

}  // namespace weft
