#include "engine/tool_stroke.h"

#include <vector>

#include <doctest/doctest.h>

#include "tests/tool_sink.h"

using namespace weft;
using weft::test::ToolSink;

TEST_CASE("tool stroke: a cut drag sends one blade segment per move, chained, short moves wait") {
  ToolSink sink;
  ToolStroke t;
  t.select(Tool::Cut);
  t.press({0.f, 0.f, 0.f}, sink);
  CHECK(sink.tools.empty());
  t.move({0.001f, 0.f, 0.f}, sink);  // under min_segment: waits
  CHECK(sink.tools.empty());
  t.move({0.02f, 0.f, 0.f}, sink);
  t.move({0.04f, 0.01f, 0.f}, sink);
  t.release({0.06f, 0.01f, 0.f}, sink);
  REQUIRE(sink.tools.size() == 3);
  for (const ToolAction& a : sink.tools) CHECK(a.kind == ToolActionKind::Cut);
  CHECK(sink.tools[0].a_from == glm::vec3(0.f));
  CHECK(sink.tools[0].a_to == glm::vec3(0.02f, 0.f, 0.f));
  CHECK(sink.tools[1].a_from == sink.tools[0].a_to);  // the blade is continuous
  CHECK(sink.tools[2].a_from == sink.tools[1].a_to);
  CHECK(sink.tools[2].a_to == glm::vec3(0.06f, 0.01f, 0.f));
  CHECK_FALSE(t.active());
  t.move({1.f, 0.f, 0.f}, sink);  // released: nothing more
  CHECK(sink.tools.size() == 3);
}

TEST_CASE("tool stroke: brushes dab at the press and every half radius - expand and shrink scale, remove removes") {
  ToolSink sink;
  ToolStroke t;
  t.select(Tool::Remove);
  const float r = t.brush_radius();
  t.press({0.f, 0.f, 0.f}, sink);
  t.move({0.2f * r, 0.f, 0.f}, sink);  // too close to the last dab
  t.move({0.6f * r, 0.f, 0.f}, sink);
  t.release({0.7f * r, 0.f, 0.f}, sink);
  REQUIRE(sink.tools.size() == 2);
  CHECK(sink.tools[0].kind == ToolActionKind::Remove);
  CHECK(sink.tools[0].radius == doctest::Approx(r));
  CHECK(sink.tools[1].a_from.x == doctest::Approx(0.6f * r));
  sink.tools.clear();
  t.select(Tool::Expand);
  t.press({0.f, 0.f, 0.f}, sink);
  t.release({0.f, 0.f, 0.f}, sink);
  t.select(Tool::Shrink);
  t.press({0.f, 0.f, 0.f}, sink);
  t.release({0.f, 0.f, 0.f}, sink);
  REQUIRE(sink.tools.size() == 2);
  CHECK(sink.tools[0].kind == ToolActionKind::Scale);
  CHECK(sink.tools[0].factor > 1.f);
  CHECK(sink.tools[1].kind == ToolActionKind::Scale);
  CHECK(sink.tools[1].factor < 1.f);
  t.scale_radius(100.f);
  CHECK(t.brush_radius() == doctest::Approx(ToolSettings{}.max_radius));
  t.scale_radius(1e-6f);
  CHECK(t.brush_radius() == doctest::Approx(ToolSettings{}.min_radius));
}

TEST_CASE("tool stroke: a seam takes two strokes, run a then run b, and sews on the second release") {
  ToolSink sink;
  ToolStroke t;
  t.select(Tool::Seam);
  t.press({0.f, 0.f, 0.f}, sink);
  t.move({0.5f, 0.f, 0.f}, sink);
  t.release({1.f, 0.f, 0.f}, sink);
  CHECK(sink.tools.empty());
  CHECK(t.seam_half_done());
  t.press({0.f, 1.f, 0.f}, sink);
  t.release({1.f, 1.f, 0.f}, sink);
  REQUIRE(sink.tools.size() == 1);
  const ToolAction& a = sink.tools[0];
  CHECK(a.kind == ToolActionKind::Sew);
  CHECK(a.a_from == glm::vec3(0.f));
  CHECK(a.a_to == glm::vec3(1.f, 0.f, 0.f));
  CHECK(a.b_from == glm::vec3(0.f, 1.f, 0.f));
  CHECK(a.b_to == glm::vec3(1.f, 1.f, 0.f));
  CHECK_FALSE(t.seam_half_done());
  // Another tool forgets a half-marked seam.
  t.press({0.f, 0.f, 0.f}, sink);
  t.release({1.f, 0.f, 0.f}, sink);
  t.select(Tool::Cut);
  t.select(Tool::Seam);
  CHECK_FALSE(t.seam_half_done());
}

TEST_CASE("tool stroke: grab sends nothing, cycling visits every tool, an interrupted stroke stays ended") {
  ToolSink sink;
  ToolStroke t;
  t.press({0.f, 0.f, 0.f}, sink);
  t.release({1.f, 0.f, 0.f}, sink);
  CHECK(sink.tools.empty());
  CHECK_FALSE(t.active());
  for (int k = 1; k <= kToolCount; ++k) {
    t.cycle();
    CHECK(int(t.tool()) == k % kToolCount);
  }
  t.select(Tool::Cut);
  t.press({0.f, 0.f, 0.f}, sink);
  t.interrupt();
  t.move({1.f, 0.f, 0.f}, sink);
  t.release({1.f, 0.f, 0.f}, sink);
  CHECK(sink.tools.empty());
}
