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

}  // namespace
}  // namespace weft
