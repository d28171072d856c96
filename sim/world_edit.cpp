// World::edit: a cut, removal or rest-shape scaling applied between ticks (sim/cloth_edit.h).
#include "sim/world.h"

namespace weft {

EditReport World::edit(const ClothEdit& edit) {
  (void)edit;
  EditReport report;
  report.refused = "not implemented yet";
  ++edits_refused_;
  return report;
}

}  // namespace weft
