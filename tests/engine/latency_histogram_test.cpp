#include "engine/latency_histogram.h"

#include <doctest/doctest.h>

namespace weft {
namespace {

TEST_CASE("latency histogram: percentiles within one bin of the exact value") {
  LatencyHistogram h;
  CHECK(h.percentile(0.5) == 0);
  for (int i = 1; i <= 1000; ++i) h.record(0.01 * i);  // 0.01 .. 10 ms
  CHECK(h.count() == 1000);
  CHECK(h.max() == doctest::Approx(10.0));
  CHECK(h.percentile(0.50) == doctest::Approx(5.0).epsilon(0.026));
  CHECK(h.percentile(0.99) == doctest::Approx(9.9).epsilon(0.026));
  CHECK(h.percentile(0.50) >= 5.0);  // an upper bound
  CHECK(h.percentile(1.0) == doctest::Approx(10.0));
  h.record(-1.0);  // below range: counted in the first bin
  h.record(1e9);   // above range: the last bin, max kept exactly
  CHECK(h.count() == 1002);
  CHECK(h.max() == 1e9);
  h.clear();
  CHECK(h.count() == 0);
}

}  // namespace
}  // namespace weft
