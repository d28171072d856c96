#pragma once
// Two separate triangles side by side for the sewn-seam tests: panel A (0, 1, 2) and panel B (3, 4, 5), A's
// vertex 1 on B's vertex 3.
#include "sim/mesh.h"

namespace weft::test {

inline Mesh two_panels() {
  Mesh m;
  m.positions = {{0, 0, 0}, {0.1f, 0, 0}, {0, 0.1f, 0}, {0.1f, 0, 0}, {0.2f, 0, 0}, {0.2f, 0.1f, 0}};
  m.material = {{0, 0}, {0.1f, 0}, {0, 0.1f}, {0.1f, 0}, {0.2f, 0}, {0.2f, 0.1f}};
  m.triangles = {{0, 1, 2}, {3, 4, 5}};
  return m;
}

}  // namespace weft::test
