#pragma once
// A body the cloth rests on (Volino & Thalmann 1997 Fig. 6: garment panels placed around a body and sewn):
// named parts, each a sphere or capsule body collider (sim/collider.h). A part stands still (a mannequin)
// or follows a device (a tracker on the hips or a foot, a hand) by the same elastic law and caps as the
// hands' colliders.
#include <string>
#include <vector>

#include "sim/collider.h"
#include "sim/pose.h"

namespace weft {

struct BodyPart {
  std::string name;  // "head", "torso", "left_thigh", ...
  Collider collider;  // body = true; follows and grip set for a driven part
};

struct Body {
  std::vector<BodyPart> parts;

  // The part named `name`, or null.
  BodyPart* find(const std::string& name);
};

// A standing mannequin of `height` m (proportions of a 1.75 m adult, scaled): head, neck, chest, shoulders,
// waist, hips, upper arms and forearms hanging at its sides, thighs, shins and feet. `place` is the point
// on the floor between its feet, its -z the way it faces.
Body make_mannequin(const Pose& place, float height, float mu_static = 0.5f, float mu_kinetic = 0.4f);

// Makes `part` follow `device`: its current pose becomes its start, and its pose relative to the device
// at that start (`device_start`, where the device is expected to be) its grip.
void drive_part(BodyPart& part, Device device, const Pose& device_start);

}  // namespace weft
