#include "engine/sim_event.h"

#include "sim/world.h"

namespace weft {

EventResult apply_event(World& world, const SimEvent& event, const ParameterHook& hook) {
  EventResult r;
  switch (event.kind) {
    case SimEventKind::Grab:
      r.grabbed = world.grab(event.hand, event.pose, event.radius);
      r.applied = true;
      break;
    case SimEventKind::Release:
      world.release(event.hand);
      r.applied = true;
      break;
    case SimEventKind::Reset:
      world.reset();
      r.applied = true;
      break;
    case SimEventKind::Attach:
      r.grabbed = world.attach_near(event.device, event.pose, event.radius);
      r.applied = true;
      break;
    case SimEventKind::Detach:
      world.detach(event.device);
      r.applied = true;
      break;
    case SimEventKind::ResetDevice:  // the conditioner's business (on the sim thread); the world keeps its state
      r.applied = true;
      break;
    case SimEventKind::SetParameter:
      r.applied = hook.apply && hook.apply(world, event.parameter, event.value, hook.context);
      break;
  }
  return r;
}

}  // namespace weft
