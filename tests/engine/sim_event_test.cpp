#include "engine/sim_event.h"

#include <doctest/doctest.h>

#include "sim/cloth_model.h"
#include "sim/mesh_generators.h"
#include "sim/world.h"

namespace weft {
namespace {

World small_world() {
  GridSpec g;
  g.columns = g.rows = 4;
  return World(build_cloth_model(make_grid(g), Material{}, {0, 4}), WorldConfig{});
}

TEST_CASE("tick_at_time: the first tick boundary at or after a time") {
  CHECK(tick_at_time(0.0, 240) == 0);
  CHECK(tick_at_time(-1.0, 240) == 0);
  CHECK(tick_at_time(10.0 / 240.0, 240) == 10);  // a tick's own time maps to it despite rounding
  CHECK(tick_at_time(10.5 / 240.0, 240) == 11);
  CHECK(tick_at_time(1.0, 90) == 90);
}

TEST_CASE("apply_event: reset restores the rest state and parameters go to the hook or are unhandled") {
  World w = small_world();
  const uint64_t rest = w.state_hash();
  w.step();
  CHECK(w.state_hash() != rest);
  SimEvent reset;
  reset.kind = SimEventKind::Reset;
  CHECK(apply_event(w, reset).applied);
  CHECK(w.state_hash() == rest);

  SimEvent param;
  param.kind = SimEventKind::SetParameter;
  param.parameter = 7;
  param.value = 2.5;
  CHECK_FALSE(apply_event(w, param).applied);  // no hook
  struct Seen { uint32_t id = 0; double value = 0; } seen;
  ParameterHook hook{[](World&, uint32_t id, double v, void* ctx) {
                       auto* s = static_cast<Seen*>(ctx);
                       s->id = id;
                       s->value = v;
                       return id == 7;
                     },
                     &seen};
  CHECK(apply_event(w, param, hook).applied);
  CHECK(seen.id == 7);
  CHECK(seen.value == 2.5);
  param.parameter = 8;
  CHECK_FALSE(apply_event(w, param, hook).applied);
}

}  // namespace
}  // namespace weft
