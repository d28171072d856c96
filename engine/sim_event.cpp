#include "engine/sim_event.h"

#include "sim/cloth_edit.h"
#include "sim/world.h"

namespace weft {

const char* tool_action_name(ToolActionKind kind) {
  switch (kind) {
    case ToolActionKind::Cut: return "cut";
    case ToolActionKind::Remove: return "remove";
    case ToolActionKind::Scale: return "scale";
    case ToolActionKind::Sew: return "sew";
  }
  return "?";
}

ClothEdit cloth_edit_of(const ToolAction& a) {
  ClothEdit e;
  e.kind = a.kind == ToolActionKind::Cut ? EditKind::Cut : a.kind == ToolActionKind::Remove ? EditKind::Remove : EditKind::Scale;
  e.from = a.a_from;
  e.to = a.a_to;
  e.radius = a.radius;
  e.factor = a.factor;
  return e;
}

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
    case SimEventKind::Edit: {
      if (event.tool.kind == ToolActionKind::Sew) {  // a sew sent as an edit: the producer's mistake, refused
        r.refused = "a seam is not an edit";
        break;
      }
      // Built on the edit worker, landing a fixed number of steps later (the same in every mode).
      const EditReport rep = world.queue_edit(cloth_edit_of(event.tool));
      r.queued = rep.queued;
      r.applied = rep.applied || rep.queued;
      r.refused = r.applied ? nullptr : (rep.refused ? rep.refused : "refused");
      r.topology_changed = rep.applied && event.tool.kind != ToolActionKind::Scale;
      break;
    }
    case SimEventKind::Sew: {
      const SewReport rep = world.sew(event.tool.a_from, event.tool.a_to, event.tool.b_from, event.tool.b_to);
      r.applied = rep.refused == nullptr;
      r.refused = rep.refused;
      break;
    }
    case SimEventKind::SetParameter:
      r.applied = hook.apply && hook.apply(world, event.parameter, event.value, hook.context);
      break;
  }
  return r;
}

}  // namespace weft
