#include "engine/tool_script.h"

#include <algorithm>
#include <limits>

namespace weft {

glm::vec3 ToolScript::on_cloth(const ClothSnapshot& s, float x, float z) {
  float best = std::numeric_limits<float>::max(), y = 0.f;
  for (const glm::vec3& p : s.position) {
    const float d = (p.x - x) * (p.x - x) + (p.z - z) * (p.z - z);
    if (d < best) best = d, y = p.y;
  }
  return {x, y, z};
}

void ToolScript::drive(double t, const ClothSnapshot& s, InputSink& sink) {
  constexpr float kCutZ = 0.18f, kPull = 0.06f;
  auto lerp = [](double t, double t0, double t1) { return float(std::clamp((t - t0) / (t1 - t0), 0.0, 1.0)); };
  auto stroke = [&](Tool tool, double t0, double t1, glm::vec2 from, glm::vec2 to, int next) {
    // One stroke from `from` to `to` (x, z) between t0 and t1: press, a move per tick, release.
    if (t < t0) return;
    if (tools_.tool() != tool) tools_.select(tool);
    const glm::vec2 q = glm::mix(from, to, lerp(t, t0, t1));
    const glm::vec3 p = on_cloth(s, q.x, q.y);
    if (!tools_.active() && t < t1) tools_.press(p, sink);
    else if (t < t1) tools_.move(p, sink);
    else {
      tools_.release(p, sink);
      step_ = next;
    }
  };
  switch (step_) {
    case 0: stroke(Tool::Cut, 0.3, 0.6, {-0.46f, kCutZ}, {0.46f, kCutZ}, 1); break;
    case 1:  // the hand takes the strip and pulls it away from the cut
      if (t >= 0.8) {
        hand_t0_ = t;
        const glm::vec3 p = hand_from_ = on_cloth(s, 0.f, 0.3f);
        PoseSample h;
        h.time = t;
        h.device = Device::RightHand;
        h.pose.position = p;
        sink.submit_pose(h);
        sink.grab(Hand::Right, Pose{p, {1.f, 0.f, 0.f, 0.f}}, 0.04f);
        step_ = 2;
      }
      break;
    case 2: {
      PoseSample h;  // from where it took hold, not the cloth's height now (which follows the hand)
      h.time = t;
      h.device = Device::RightHand;
      h.pose.position = hand_from_ + glm::vec3(0.f, 0.01f, kPull) * lerp(t, hand_t0_, hand_t0_ + 0.4);
      if (t < hand_t0_ + 0.5) {
        sink.submit_pose(h);
      } else {
        sink.release(Hand::Right);
        step_ = 3;
      }
      break;
    }
    case 3: stroke(Tool::Seam, 1.4, 1.5, {-0.3f, kCutZ - 0.02f}, {0.3f, kCutZ - 0.02f}, 4); break;
    case 4: stroke(Tool::Seam, 1.55, 1.7, {-0.3f, kCutZ + kPull}, {0.3f, kCutZ + kPull}, 5); break;
    case 5: stroke(Tool::Remove, 1.9, 1.95, {0.f, -0.05f}, {0.f, -0.05f}, 6); break;
    case 6: stroke(Tool::Expand, 2.2, 2.3, {-0.22f, -0.2f}, {-0.18f, -0.2f}, 7); break;
    case 7: stroke(Tool::Shrink, 2.6, 2.7, {0.18f, -0.2f}, {0.22f, -0.2f}, 8); break;
    default: break;
  }
}

}  // namespace weft
