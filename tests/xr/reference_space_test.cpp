#include <doctest/doctest.h>

#include "xr/reference_space.h"

using namespace weft::xr;

TEST_CASE("STAGE is used as is when the runtime has one") {
  const auto c = choose_reference_space({XR_REFERENCE_SPACE_TYPE_VIEW, XR_REFERENCE_SPACE_TYPE_LOCAL,
                                         XR_REFERENCE_SPACE_TYPE_STAGE});
  CHECK(c.type == XR_REFERENCE_SPACE_TYPE_STAGE);
  CHECK(c.name == "STAGE");
  CHECK(c.pose_in_reference.position.y == 0.f);
  CHECK(c.pose_in_reference.orientation.w == 1.f);
}

TEST_CASE("without STAGE, LOCAL's origin drops a standing eye height so the head sits at that height") {
  const auto c = choose_reference_space({XR_REFERENCE_SPACE_TYPE_VIEW, XR_REFERENCE_SPACE_TYPE_LOCAL}, 1.7f);
  CHECK(c.type == XR_REFERENCE_SPACE_TYPE_LOCAL);
  CHECK(c.name == "LOCAL");
  // The new space's origin sits at y = -1.7 in LOCAL: the head (LOCAL's origin) is at y = +1.7 in it.
  CHECK(c.pose_in_reference.position.y == doctest::Approx(-1.7f));
  CHECK(c.pose_in_reference.position.x == 0.f);
  CHECK(c.pose_in_reference.orientation.w == 1.f);
  CHECK(choose_reference_space({}).type == XR_REFERENCE_SPACE_TYPE_LOCAL);
}
