#include <doctest/doctest.h>

#include <vector>

#include "tests/tool_sink.h"
#include "xr/hand_tools.h"

using namespace weft;
using namespace weft::xr;
using weft::test::ToolSink;

namespace {

constexpr XrSpaceLocationFlags kValid = XR_SPACE_LOCATION_POSITION_VALID_BIT | XR_SPACE_LOCATION_ORIENTATION_VALID_BIT;

HandSample at(glm::vec3 p, float trigger, bool button = false, XrSpaceLocationFlags flags = kValid) {
  HandSample s;
  s.flags = flags;
  s.grip.position = p;
  s.trigger = trigger;
  s.tool_button = button;
  s.squeeze_active = true;
  return s;
}
}  // namespace

TEST_CASE("hand tools: the button cycles the hand's own tool on its press, the trigger does nothing with grab") {
  ToolSink sink;
  HandTools ht;
  CHECK(ht.tool(Hand::Left) == Tool::Grab);
  ht.update(Hand::Left, at({0, 1, 0}, 1.f), sink);  // trigger with grab: nothing
  ht.update(Hand::Left, at({0.1f, 1, 0}, 1.f), sink);
  CHECK(sink.tools.empty());
  CHECK(ht.update(Hand::Left, at({0, 1, 0}, 0.f, true), sink));
  CHECK_FALSE(ht.update(Hand::Left, at({0, 1, 0}, 0.f, true), sink));  // held: no second cycle
  CHECK(ht.tool(Hand::Left) == Tool::Cut);
  CHECK(ht.tool(Hand::Right) == Tool::Grab);  // per hand
  CHECK(ht.counters().cycles == 1);
  CHECK(sink.grabs == 0);  // squeeze is the grabber's business, not this class's
}

TEST_CASE("hand tools: a trigger stroke with the cut is the hand's motion, frame to frame, as blade segments") {
  ToolSink sink;
  HandTools ht;
  ht.update(Hand::Right, at({0, 1, 0}, 0.f, true), sink);  // -> cut
  ht.update(Hand::Right, at({0, 1, 0}, 0.f), sink);
  ht.update(Hand::Right, at({0, 1, 0}, 0.9f), sink);       // press
  ht.update(Hand::Right, at({0.05f, 1, 0}, 0.9f), sink);
  ht.update(Hand::Right, at({0.10f, 1, 0}, 0.5f), sink);   // inside the latch band: still cutting
  ht.update(Hand::Right, at({0.15f, 1, 0}, 0.1f), sink);   // release: the last segment
  REQUIRE(sink.tools.size() == 3);
  CHECK(sink.tools[0].a_from == glm::vec3(0, 1, 0));
  CHECK(sink.tools[2].a_to == glm::vec3(0.15f, 1, 0));
  ht.update(Hand::Right, at({0.3f, 1, 0}, 0.f), sink);
  CHECK(sink.tools.size() == 3);
  CHECK(ht.counters().strokes == 1);
}

TEST_CASE("hand tools: a pose the runtime does not vouch for ends the stroke - no blade across the gap") {
  ToolSink sink;
  HandTools ht;
  ht.update(Hand::Left, at({0, 1, 0}, 0.f, true), sink);  // cut
  ht.update(Hand::Left, at({0, 1, 0}, 0.f), sink);
  ht.update(Hand::Left, at({0, 1, 0}, 1.f), sink);
  ht.update(Hand::Left, at({0.05f, 1, 0}, 1.f), sink);
  REQUIRE(sink.tools.size() == 1);
  ht.update(Hand::Left, at({5.f, 1, 0}, 1.f, false, 0), sink);  // lost
  ht.update(Hand::Left, at({0.5f, 1, 0}, 1.f), sink);           // back, trigger still held: no new stroke
  ht.update(Hand::Left, at({0.6f, 1, 0}, 0.f), sink);
  CHECK(sink.tools.size() == 1);
  CHECK(ht.counters().dropped == 1);
}

TEST_CASE("hand tools: seam with one hand is two trigger strokes - cycling in between forgets the first") {
  ToolSink sink;
  HandTools ht;
  for (int k = 0; k < 5; ++k) {  // grab -> cut -> remove -> expand -> shrink -> seam
    ht.update(Hand::Right, at({0, 1, 0}, 0.f, true), sink);
    ht.update(Hand::Right, at({0, 1, 0}, 0.f, false), sink);
  }
  REQUIRE(ht.tool(Hand::Right) == Tool::Seam);
  auto stroke = [&](glm::vec3 a, glm::vec3 b) {
    ht.update(Hand::Right, at(a, 1.f), sink);
    ht.update(Hand::Right, at(b, 1.f), sink);
    ht.update(Hand::Right, at(b, 0.f), sink);
  };
  stroke({0, 1, 0}, {1, 1, 0});
  CHECK(sink.tools.empty());
  stroke({0, 1, 1}, {1, 1, 1});
  REQUIRE(sink.tools.size() == 1);
  CHECK(sink.tools[0].kind == ToolActionKind::Sew);
  CHECK(sink.tools[0].b_to == glm::vec3(1, 1, 1));
}
