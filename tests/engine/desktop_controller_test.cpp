// The desktop mouse and keyboard reach the cloth only through the one input seam (engine/input_sink.h).
#include <doctest/doctest.h>

#include <vector>

#include "engine/desktop_controller.h"
#include "engine/camera.h"

namespace weft {
namespace {

// A recording fake of the one input seam.
struct RecordingSink final : InputSink {
  std::vector<PoseSample> poses;
  std::vector<Hand> grabs, releases;
  int resets = 0;
  void submit_pose(const PoseSample& s) override { poses.push_back(s); }
  void grab(Hand h, const Pose&, float) override { grabs.push_back(h); }
  void release(Hand h) override { releases.push_back(h); }
  void attach(Device, const Pose&, float) override {}
  void detach(Device) override {}
  void reset() override { ++resets; }
  void reset_device(Device) override {}
  std::vector<ToolAction> tools;
  void tool(const ToolAction& a) override { tools.push_back(a); }
};

TEST_CASE("desktop: a press on the cloth grabs, R resets through the sink and the hold goes with it") {
  SnapshotMesh mesh;  // a 1 m square of cloth standing at z = 0; the camera looks from +z
  mesh.triangles = {{0, 1, 2}, {1, 3, 2}};
  mesh.material.assign(4, glm::vec2(0.f));
  ClothSnapshot snap;
  snap.resize(4);
  snap.position = {{-0.5f, 0.5f, 0.f}, {0.5f, 0.5f, 0.f}, {-0.5f, 1.5f, 0.f}, {0.5f, 1.5f, 0.f}};
  RecordingSink sink;
  DesktopController mouse(sink, mesh, snap, [] { return 0.0; });
  mouse.set_viewport({640.f, 360.f});
  mouse.camera().target = {0.f, 1.f, 0.f};
  mouse.camera().pitch = 0.f;
  mouse.camera().distance = 3.f;
  const glm::vec2 on_cloth(project_to_pixel(mouse.view(), {0.f, 1.f, 0.f}, {640.f, 360.f}));
  mouse.mouse_button(MouseButton::Left, true, on_cloth);
  REQUIRE(mouse.holding(Hand::Left));
  CHECK(sink.grabs == std::vector<Hand>{Hand::Left});
  CHECK_FALSE(sink.poses.empty());
  mouse.key('R');
  CHECK(sink.resets == 1);
  CHECK_FALSE(mouse.holding(Hand::Left));
  CHECK(sink.releases.empty());  // the reset released the hands in the sim; nothing more to send
  mouse.mouse_button(MouseButton::Left, false, on_cloth);
  CHECK(sink.releases.empty());
}

TEST_CASE("desktop: keys pick the tool - a left drag with the cut sends chained blade segments, on past the border") {
  SnapshotMesh mesh;  // the same 1 m square at z = 0, seen from +z
  mesh.triangles = {{0, 1, 2}, {1, 3, 2}};
  mesh.material.assign(4, glm::vec2(0.f));
  ClothSnapshot snap;
  snap.resize(4);
  snap.position = {{-0.5f, 0.5f, 0.f}, {0.5f, 0.5f, 0.f}, {-0.5f, 1.5f, 0.f}, {0.5f, 1.5f, 0.f}};
  RecordingSink sink;
  DesktopController mouse(sink, mesh, snap, [] { return 0.0; });
  mouse.set_viewport({640.f, 360.f});
  mouse.camera().target = {0.f, 1.f, 0.f};
  mouse.camera().pitch = 0.f;
  mouse.camera().distance = 3.f;
  auto px = [&](glm::vec3 p) { return glm::vec2(project_to_pixel(mouse.view(), p, {640.f, 360.f})); };
  CHECK(mouse.tool_label() == "grab");
  mouse.key('2');
  CHECK(mouse.tool_label() == "cut");
  mouse.mouse_button(MouseButton::Left, true, px({0.f, 1.f, 0.f}));
  CHECK_FALSE(mouse.holding(Hand::Left));  // the left button is the tool now, not a hand
  for (int k = 1; k <= 8; ++k) mouse.cursor_moved(px({0.1f * float(k), 1.f, 0.f}));  // out to x = 0.8, past 0.5
  mouse.mouse_button(MouseButton::Left, false, px({0.8f, 1.f, 0.f}));
  CHECK(sink.grabs.empty());
  REQUIRE(sink.tools.size() == 8);
  for (size_t k = 0; k < sink.tools.size(); ++k) {
    CHECK(sink.tools[k].kind == ToolActionKind::Cut);
    CHECK(sink.tools[k].a_to.x == doctest::Approx(0.1f * float(k + 1)).epsilon(1e-3));
    CHECK(sink.tools[k].a_to.z == doctest::Approx(0.f).scale(1.f));  // off the cloth too: in the blade's plane
    if (k > 0) CHECK(sink.tools[k].a_from == sink.tools[k - 1].a_to);
  }
  // Remove with a bigger brush: one dab at the click, with the radius [ and ] set.
  sink.tools.clear();
  mouse.key('3');
  mouse.key(']');
  mouse.mouse_button(MouseButton::Left, true, px({0.f, 1.f, 0.f}));
  mouse.mouse_button(MouseButton::Left, false, px({0.f, 1.f, 0.f}));
  REQUIRE(sink.tools.size() == 1);
  CHECK(sink.tools[0].kind == ToolActionKind::Remove);
  CHECK(sink.tools[0].radius == doctest::Approx(ToolSettings{}.brush_radius * 1.25f));
  // Seam: two drags, the title says which run is next, the second release sews.
  sink.tools.clear();
  mouse.key('6');
  CHECK(mouse.tool_label() == "seam (drag run a)");
  mouse.mouse_button(MouseButton::Left, true, px({-0.4f, 0.6f, 0.f}));
  mouse.cursor_moved(px({0.4f, 0.6f, 0.f}));
  mouse.mouse_button(MouseButton::Left, false, px({0.4f, 0.6f, 0.f}));
  CHECK(mouse.tool_label() == "seam (drag run b)");
  mouse.mouse_button(MouseButton::Left, true, px({-0.4f, 1.4f, 0.f}));
  mouse.mouse_button(MouseButton::Left, false, px({0.4f, 1.4f, 0.f}));
  REQUIRE(sink.tools.size() == 1);
  CHECK(sink.tools[0].kind == ToolActionKind::Sew);
  CHECK(sink.tools[0].a_from.y == doctest::Approx(0.6f).epsilon(1e-3));
  CHECK(sink.tools[0].b_to.x == doctest::Approx(0.4f).epsilon(1e-3));
  // Back to grab: the left button grabs again.
  mouse.key('1');
  mouse.mouse_button(MouseButton::Left, true, px({0.f, 1.f, 0.f}));
  CHECK(mouse.holding(Hand::Left));
}

}  // namespace
}  // namespace weft
