#include "sim/rest_ramp.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "sim/rest_scale.h"

namespace weft {

void start_rest_ramp(RestRamp& ramp, const std::vector<float>& current, std::vector<float> target, int ticks) {
  ramp.target = std::move(target);
  ramp.next.assign(current.size(), 1.f);
  ramp.ticks_left = std::max(1, ticks);
}

bool step_rest_ramp(RestRamp& ramp, ClothModel& model, std::vector<float>& scale) {
  if (!ramp.active() || ramp.target.size() != scale.size()) {
    ramp.ticks_left = 0;
    return false;
  }
  const float share = 1.f / float(ramp.ticks_left);
  for (size_t t = 0; t < scale.size(); ++t)
    ramp.next[t] = ramp.ticks_left == 1 || scale[t] == ramp.target[t] ? ramp.target[t]
                                                                      : scale[t] * std::pow(ramp.target[t] / scale[t], share);
  rescale_rest_shape(model, scale, ramp.next);
  std::swap(scale, ramp.next);
  return --ramp.ticks_left == 0;
}

bool finish_rest_ramp(RestRamp& ramp, ClothModel& model, std::vector<float>& scale) {
  if (!ramp.active()) return false;
  ramp.ticks_left = 1;
  step_rest_ramp(ramp, model, scale);
  return true;
}

}  // namespace weft
