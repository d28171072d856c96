#pragma once
// The scripted two-hand demo on the default table scene, stepped on the calling thread: the shared
// core of `weft run --mode headless` and the render tests.
#include <cstdint>

#include "engine/demo_scene.h"
#include "engine/direct_world_input.h"
#include "engine/scripted_manipulation.h"
#include "engine/snapshot.h"

namespace weft {

class HeadlessDemo {
 public:
  explicit HeadlessDemo(const TableSceneSpec& spec = {});

  // Steps the world (script, hands, stand-in contact) until sim time reaches t (s).
  void advance_to(double t);
  // Fills the snapshot with the current cloth and hands.
  void snapshot(ClothSnapshot& out) const;

  DemoScene& scene() { return scene_; }
  World& world() { return scene_.world; }
  DirectWorldInput& input() { return input_; }
  double time() const { return scene_.world.state().time; }
  const TwoHandScript& script() const { return script_; }

 private:
  DemoScene scene_;
  DirectWorldInput input_;
  TwoHandScript script_;
};

}  // namespace weft
