#pragma once
// The scripted tool session (`weft record --script tools`, `weft run --mode headless --script tools`):
// every tool once on a cloth lying on a table, through the same ToolStroke the mouse and the controllers
// use, driving an InputSink only. Points are taken on the cloth as it lies now (the newest snapshot), as a
// person aims at the cloth they see. Sim times (s), for the table scene's 0.8 m cloth:
//   0.3 - 0.6  cut a strip off across the near side (z = 0.18), blade from beyond one border to the other;
//   0.8 - 1.3  the right hand grabs the strip, pulls it 6 cm away and lets go: a gap opens;
//   1.4 - 1.7  seam: run a along the cloth's cut border, run b along the strip's, sewn back together;
//   1.9        remove a hole in the middle;
//   2.2, 2.6   expand a patch on the left, shrink one on the right (a short drag each).
#include <glm/glm.hpp>

#include "engine/input_sink.h"
#include "engine/snapshot.h"
#include "engine/tool_stroke.h"

namespace weft {

class ToolScript {
 public:
  static constexpr double kEnd = 3.0;  // the last action; a recording runs on to settle
  double duration() const { return kEnd; }
  // Sends what is due at sim time t (once per tick, t increasing), aiming at the cloth in `snapshot`.
  void drive(double t, const ClothSnapshot& snapshot, InputSink& sink);
  const ToolStroke& tools() const { return tools_; }

  // The point of the cloth over (x, z): the height of the vertex nearest in x and z (beyond a border,
  // the border's height at that x and z: a blade starts off the cloth).
  static glm::vec3 on_cloth(const ClothSnapshot& snapshot, float x, float z);

 private:
  ToolStroke tools_;
  int step_ = 0;     // actions done, in the order above
  double hand_t0_ = 0;
  glm::vec3 hand_from_{0.f};  // where the hand took the strip
};

}  // namespace weft
