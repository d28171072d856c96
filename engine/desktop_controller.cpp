#include "engine/desktop_controller.h"

#include <cmath>
#include <utility>

#include "engine/ray_pick.h"

namespace weft {

DesktopController::DesktopController(InputSink& sink, const SnapshotMesh& mesh, const ClothSnapshot& snapshot,
                                     std::function<double()> clock)
    : sink_(sink), mesh_(mesh), snapshot_(snapshot), clock_(std::move(clock)) {}

void DesktopController::send_pose(Hand hand) {
  PoseSample s;
  s.time = clock_();
  s.device = hand_device(hand);
  s.pose.position = hand_[int(hand)].position;
  sink_.submit_pose(s);
}

std::optional<glm::vec3> DesktopController::pick(glm::vec2 cursor) const {
  const Ray ray = ray_through_pixel(view(), cursor, viewport_);
  const auto& triangles = snapshot_.topology.triangles.empty() ? mesh_.triangles : snapshot_.topology.triangles;
  auto hit = pick_triangle(ray, snapshot_.position, triangles);
  if (!hit) return std::nullopt;
  if (const auto solid = nearest_solid_hit(ray, snapshot_); solid && *solid < hit->distance) return std::nullopt;
  return hit->point;
}

std::optional<glm::vec3> DesktopController::tool_point(glm::vec2 cursor) const {
  if (auto p = pick(cursor)) return p;
  if (tools_.tool() != Tool::Cut) return std::nullopt;
  // Off the cloth a blade goes on in the plane through its last point facing the camera, so a drag out
  // across the border cuts through it instead of stopping short of it.
  const Ray ray = ray_through_pixel(view(), cursor, viewport_);
  const glm::vec3 n = glm::normalize(camera_.target - camera_.eye());
  const float denom = glm::dot(ray.direction, n);
  if (std::abs(denom) < 1e-6f) return std::nullopt;
  const float t = glm::dot(tool_point_ - ray.origin, n) / denom;
  if (!(t > 0.f)) return std::nullopt;
  return ray.origin + t * ray.direction;
}

std::string DesktopController::tool_label() const {
  std::string s = tool_name(tools_.tool());
  if (tools_.tool() == Tool::Seam) s += tools_.seam_half_done() ? " (drag run b)" : " (drag run a)";
  if (tools_.tool() == Tool::Remove || tools_.tool() == Tool::Expand || tools_.tool() == Tool::Shrink)
    s += " r " + std::to_string(int(std::lround(tools_.brush_radius() * 1000))) + " mm";
  return s;
}

void DesktopController::mouse_button(MouseButton button, bool pressed, glm::vec2 cursor) {
  cursor_ = cursor;
  if (button == MouseButton::Middle) {
    panning_ = pressed;
    return;
  }
  if (button == MouseButton::Left && tools_.tool() != Tool::Grab) {  // the left button is the tool
    if (!pressed) {
      if (tools_.active()) tools_.release(tool_point(cursor).value_or(tool_point_), sink_);
      orbiting_ = false;
      return;
    }
    if (const auto p = pick(cursor)) {
      tool_point_ = *p;
      tools_.press(*p, sink_);
    } else {
      orbiting_ = true;
    }
    return;
  }
  const Hand hand = button == MouseButton::Left ? Hand::Left : Hand::Right;
  HandDrag& d = hand_[int(hand)];
  if (!pressed) {
    if (d.held) sink_.release(hand);
    d.held = false;
    (button == MouseButton::Left ? orbiting_ : panning_) = false;
    return;
  }
  // A collider or rigid box drawn in front of the cloth hides it: what you see is what you grab.
  if (const auto hit = pick(cursor)) {
    d.position = *hit;
    d.plane_normal = glm::normalize(camera_.target - camera_.eye());
    send_pose(hand);
    // The hand closes on the cloth under the cursor; whether it caught vertices is the sim's to say (the
    // grab is queued to the sim thread, which counts grabs and misses).
    sink_.grab(hand, Pose{*hit, {1.f, 0.f, 0.f, 0.f}}, kGrabRadius);
    d.held = true;
  }
  if (!d.held) (button == MouseButton::Left ? orbiting_ : panning_) = true;
}

void DesktopController::cursor_moved(glm::vec2 cursor) {
  const glm::vec2 delta = cursor - cursor_;
  cursor_ = cursor;
  for (int k = 0; k < 2; ++k) {
    HandDrag& d = hand_[k];
    if (!d.held) continue;
    const Ray ray = ray_through_pixel(view(), cursor, viewport_);
    const float denom = glm::dot(ray.direction, d.plane_normal);
    if (std::abs(denom) < 1e-6f) continue;
    const float t = glm::dot(d.position - ray.origin, d.plane_normal) / denom;
    if (t <= 0.f) continue;
    d.position = ray.origin + t * ray.direction;
    send_pose(Hand(k));
  }
  if (tools_.active()) {  // the stroke follows the cloth under the cursor; off the cloth it ends
    if (const auto p = tool_point(cursor)) {
      tool_point_ = *p;
      tools_.move(*p, sink_);
    } else {
      tools_.interrupt();
    }
  }
  if (orbiting_) camera_.orbit(-delta.x * 0.008f, delta.y * 0.008f);
  if (panning_) {
    const float m_per_px = 2.f * camera_.distance * std::tan(0.5f * camera_.fov_y) / std::max(viewport_.y, 1.f);
    camera_.pan(-delta.x * m_per_px, delta.y * m_per_px);
  }
}

void DesktopController::scroll(float notches) {
  bool moved_hand = false;
  for (int k = 0; k < 2; ++k) {
    HandDrag& d = hand_[k];
    if (!d.held) continue;
    d.position += d.plane_normal * (-notches * kDepthStep);  // wheel up pulls the hand closer
    send_pose(Hand(k));
    moved_hand = true;
  }
  if (!moved_hand) camera_.zoom(notches);
}

void DesktopController::key(char k) {
  switch (k) {
    case 'R':  // the holds go with the reset: forget them without sending releases
      sink_.reset();
      hand_[0].held = hand_[1].held = false;
      break;
    case 'P': case ' ': paused = !paused; break;
    case 'N': step_ = true; break;
    case 'S': strain_view = !strain_view; break;
    case 'J': noise = !noise; break;
    case 'H': help_ = true; break;
    case 'Q': case 27: quit_ = true; break;
    case '1': case '2': case '3': case '4': case '5': case '6': tools_.select(Tool(k - '1')); break;
    case '[': tools_.scale_radius(0.8f); break;
    case ']': tools_.scale_radius(1.25f); break;
    default: break;
  }
}

}  // namespace weft
