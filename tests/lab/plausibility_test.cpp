#include <doctest/doctest.h>

#include "lab/plausibility.h"

using namespace weft;
using namespace weft::lab;

TEST_CASE("E and S on hand-made motions (Kang & Cho Eq. 35-37)") {
  const glm::vec3 ref[3] = {{1, 0, 0}, {0, 2, 0}, {0, 0, 0}};
  // identical motion: E = 0, S = 1
  Plausibility p = compare_motion(ref, ref, 3, nullptr);
  CHECK(p.error == doctest::Approx(0));
  CHECK(p.similarity == doctest::Approx(1));
  CHECK(p.counted == 2);  // the vertex that does not move has no defined E
  // half the motion: E_i = 0.25, same direction
  const glm::vec3 half[3] = {{0.5f, 0, 0}, {0, 1, 0}, {0, 0, 0}};
  p = compare_motion(ref, half, 3, nullptr);
  CHECK(p.error == doctest::Approx(0.25));
  CHECK(p.similarity == doctest::Approx(1));
  // perpendicular motion of the same length: E_i = 2, S_i = 0; opposite motion: E_i = 4, S_i = 1
  const glm::vec3 mixed[3] = {{0, 1, 0}, {0, -2, 0}, {5, 5, 5}};
  p = compare_motion(ref, mixed, 3, nullptr);
  CHECK(p.error == doctest::Approx((2.0 + 4.0) / 2));
  CHECK(p.similarity == doctest::Approx(0.5));
  // skipped vertices leave the means
  const uint8_t skip[3] = {1, 0, 0};
  p = compare_motion(ref, mixed, 3, skip);
  CHECK(p.counted == 1);
  CHECK(p.error == doctest::Approx(4.0));
}
