#include "engine/pose_noise.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include <glm/gtc/quaternion.hpp>

namespace weft {
namespace {

NoiseProfile named_profile(const std::string& name) {
  NoiseProfile p;
  p.name = name;
  if (name == "none") return p;
  if (name == "jitter2") {
    p.position_sigma_m = 0.002, p.orientation_sigma_deg = 0.5;
  } else if (name == "jitter10") {
    p.position_sigma_m = 0.010, p.orientation_sigma_deg = 3.0;
  } else if (name == "spikes") {
    p.spike_probability = 0.01, p.spike_magnitude_m = 100.0;
  } else if (name == "dropouts") {
    p.dropout_probability = 0.20;
  } else if (name == "nan") {
    p.nan_probability = 0.02, p.nan_burst = 10;
  } else if (name == "all") {
    p.position_sigma_m = 0.010, p.orientation_sigma_deg = 3.0;
    p.spike_probability = 0.01, p.spike_magnitude_m = 100.0;
    p.dropout_probability = 0.20;
    p.nan_probability = 0.02, p.nan_burst = 10;
    p.latency_s = 0.02, p.timestamp_jitter_s = 0.001;
    p.nonunit_probability = 0.02;
    p.backwards_probability = 0.01;
  } else {
    std::string known;
    for (const std::string& n : noise_profile_names()) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown noise profile '" + name + "' (known: " + known + ")");
  }
  return p;
}

void set_field(NoiseProfile& p, const std::string& key, double v) {
  if (!std::isfinite(v) || v < 0) throw std::invalid_argument("noise: " + key + " must be finite and >= 0");
  if (key == "position_sigma_m") p.position_sigma_m = v;
  else if (key == "orientation_sigma_deg") p.orientation_sigma_deg = v;
  else if (key == "spike_probability") p.spike_probability = v;
  else if (key == "spike_magnitude_m") p.spike_magnitude_m = v;
  else if (key == "dropout_probability") p.dropout_probability = v;
  else if (key == "frozen_fraction") p.frozen_fraction = v;
  else if (key == "latency_s") p.latency_s = v;
  else if (key == "timestamp_jitter_s") p.timestamp_jitter_s = v;
  else if (key == "nan_probability") p.nan_probability = v;
  else if (key == "nan_burst") p.nan_burst = int(v);
  else if (key == "nonunit_probability") p.nonunit_probability = v;
  else if (key == "nonunit_scale") p.nonunit_scale = v;
  else if (key == "backwards_probability") p.backwards_probability = v;
  else if (key == "backwards_s") p.backwards_s = v;
  else throw std::invalid_argument("noise: unknown parameter '" + key + "'");
}

}  // namespace

bool NoiseProfile::any() const {
  return position_sigma_m > 0 || orientation_sigma_deg > 0 || spike_probability > 0 || dropout_probability > 0 ||
         latency_s > 0 || timestamp_jitter_s > 0 || nan_probability > 0 || nonunit_probability > 0 ||
         backwards_probability > 0;
}

const std::vector<std::string>& noise_profile_names() {
  static const std::vector<std::string> names{"none", "jitter2", "jitter10", "spikes", "dropouts", "all", "nan"};
  return names;
}

NoiseProfile noise_profile(const std::string& spec) {
  std::stringstream ss(spec);
  std::string part;
  std::getline(ss, part, ',');
  NoiseProfile p = named_profile(part);
  while (std::getline(ss, part, ',')) {
    const size_t eq = part.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("noise: expected key=value, got '" + part + "'");
    double v = 0;
    try {
      size_t used = 0;
      v = std::stod(part.substr(eq + 1), &used);
      if (used != part.size() - eq - 1) throw std::invalid_argument("trailing characters");
    } catch (const std::exception&) {
      throw std::invalid_argument("noise: '" + part + "' has no number after '='");
    }
    set_field(p, part.substr(0, eq), v);
  }
  if (p.nan_burst < 1) throw std::invalid_argument("noise: nan_burst must be >= 1");
  return p;
}

PoseNoise::PoseNoise(const NoiseProfile& profile, uint64_t seed) : profile_(profile), rng_(seed) {}

Pose PoseNoise::delayed_pose(DeviceState& d, const PoseSample& s) const {
  // The newest true sample at least latency_s older than s (the oldest kept if none is).
  const double t = s.time - profile_.latency_s;
  Pose out = s.pose;
  for (int k = 1; k <= d.count; ++k) {
    const PoseSample& h = d.history[(d.head - k + kHistory) % kHistory];
    out = h.pose;
    if (h.time <= t) break;
  }
  return out;
}

bool PoseNoise::apply(PoseSample& s) {
  last_spike_ = false;
  const int di = device_index(s.device);
  if (di < 0 || di >= kDeviceCount) return true;
  DeviceState& d = devices_[di];
  ++stats_.samples;
  const double true_time = s.time;

  // latency: remember the true sample, deliver an older pose
  d.history[d.head] = s;
  d.head = (d.head + 1) % kHistory;
  if (d.count < kHistory) ++d.count;
  if (profile_.latency_s > 0) s.pose = delayed_pose(d, s);

  if (rng_.chance(profile_.dropout_probability)) {
    if (!d.has_delivered || !rng_.chance(profile_.frozen_fraction)) {
      ++stats_.dropped;
      return false;
    }
    ++stats_.frozen;
    s.pose = d.delivered;
  } else {
    if (profile_.position_sigma_m > 0) s.pose.position += rng_.gaussian3(profile_.position_sigma_m);
    if (profile_.orientation_sigma_deg > 0) {
      const glm::vec3 r = rng_.gaussian3(glm::radians(profile_.orientation_sigma_deg));
      const float angle = glm::length(r);
      if (angle > 0.f) s.pose.orientation = glm::normalize(glm::angleAxis(angle, r / angle) * s.pose.orientation);
    }
    if (rng_.chance(profile_.spike_probability)) {
      s.pose.position += rng_.unit_vector() * float(profile_.spike_magnitude_m);
      last_spike_ = true;
      ++stats_.spikes;
    }
  }
  if (!last_spike_) {
    d.delivered = s.pose;
    d.has_delivered = true;
  }

  if (rng_.chance(profile_.nonunit_probability)) {
    const double f = 1.0 + profile_.nonunit_scale * (2.0 * rng_.uniform() - 1.0);
    s.pose.orientation = s.pose.orientation * float(f);
    ++stats_.nonunit;
  }
  if (d.nan_left == 0 && rng_.chance(profile_.nan_probability)) d.nan_left = profile_.nan_burst;
  if (d.nan_left > 0) {
    const float bad = (d.nan_left % 2) ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
    // which field breaks rotates through position, orientation and both
    const int which = int(rng_.bits() % 3);
    if (which != 1) s.pose.position.y = bad;
    if (which != 0) s.pose.orientation.x = bad;
    --d.nan_left;
    ++stats_.non_finite;
  }

  if (profile_.timestamp_jitter_s > 0) s.time += profile_.timestamp_jitter_s * rng_.gaussian();
  if (rng_.chance(profile_.backwards_probability)) {
    s.time = std::min(s.time, d.last_time) - profile_.backwards_s;
    ++stats_.backwards;
  }
  d.last_time = std::max(d.last_time, true_time);
  return true;
}

}  // namespace weft
