#pragma once
// Discrete inputs from the render/input side to the simulation (grab, release, reset, parameter
// change). Each carries the tick at whose boundary it applies, so the same stream gives the same
// state whatever the thread timing.
#include <cmath>
#include <cstdint>

#include "engine/tool_action.h"
#include "sim/pose.h"

namespace weft {

class World;

// ResetDevice: the device's poses now come from another source (XR: live controllers take over from the
// built-in replay); the conditioner forgets that device's history so the jump is not gated as an outlier.
// Edit: a cut, removal or rest-length scaling (World::edit); Sew: two border runs seamed (World::sew).
enum class SimEventKind : uint8_t { Grab, Release, Reset, SetParameter, Attach, Detach, ResetDevice, Edit, Sew };

struct SimEvent {
  uint64_t tick = 0;  // applies at the boundary before this tick is stepped (runtime tick count)
  SimEventKind kind = SimEventKind::Reset;
  Hand hand = Hand::Left;  // Grab, Release
  Device device = Device::Tracker0;  // Attach, Detach, ResetDevice: the tracker (or any device)
  Pose pose;               // Grab: where the hand closes; Attach: the device's pose (world frame)
  float radius = 0.05f;    // Grab, Attach: capture radius, m
  uint32_t parameter = 0;  // SetParameter: id understood by the ParameterHook
  double value = 0;        // SetParameter: new value
  ToolAction tool;         // Edit (kind Cut, Remove or Scale), Sew (kind Sew)
};

// Parameter changes go to a caller-supplied function, so the runtime needs no knowledge of them.
struct ParameterHook {
  bool (*apply)(World& world, uint32_t parameter, double value, void* context) = nullptr;
  void* context = nullptr;
};

// First tick boundary at or after sim time t (s) for a tick rate (Hz): ceil(t * hz), with times that
// are a tick's own time up to rounding mapping to that tick.
inline uint64_t tick_at_time(double t, double tick_hz) {
  if (!(t > 0)) return 0;
  const double x = t * tick_hz;
  const double r = std::round(x);
  return uint64_t(std::fabs(x - r) < 1e-6 ? r : std::ceil(x));
}

struct EventResult {
  bool applied = false;   // false: a parameter nobody handles, or an edit or sew the world refused
  size_t grabbed = 0;     // Grab, Attach: vertices now held
  const char* refused = nullptr;  // Edit, Sew: why the world refused it (a static string)
  bool topology_changed = false;  // Edit: the mesh's vertices or triangles changed
  bool queued = false;  // Edit: a cut or removal queued (World::queue_edit): counted when it lands
};

// The ToolAction as the world's edit (kinds Cut, Remove, Scale; Sew has no ClothEdit).
struct ClothEdit;
ClothEdit cloth_edit_of(const ToolAction& action);

// Applies one event to the world (the only place events touch it).
EventResult apply_event(World& world, const SimEvent& event, const ParameterHook& hook = {});

}  // namespace weft
