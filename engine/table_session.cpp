#include "engine/table_session.h"

namespace weft {
namespace {

TableSceneSpec spec_of(const PoseStreamHeader& h) {
  TableSceneSpec s;
  s.quads = h.quads;
  s.cloth_size = h.cloth_size;
  s.tick_hz = h.tick_hz;
  return s;
}

}  // namespace

TableSession::TableSession(const PoseStreamHeader& header, const ConditionerConfig& conditioning)
    : scene_(make_table_scene(spec_of(header))), input_(scene_.world, conditioning) {}

PoseStreamHeader TableSession::header_for(const TableSceneSpec& spec, const char* source) {
  PoseStreamHeader h;
  h.quads = spec.quads;
  h.cloth_size = spec.cloth_size;
  h.tick_hz = spec.tick_hz;
  h.source = source;
  return h;
}

void TableSession::step() {
  input_.before_step();
  scene_.world.step();
  apply_stand_in_contact(scene_.props, scene_.world.mutable_state());
  ++tick_;
}

void TableSession::reset() {
  scene_.world.reset();
  input_.reset();
}

}  // namespace weft
