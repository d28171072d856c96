// Placeholder until issue 8 lands.
#include "app/commands.h"

namespace weft::app {
void register_validate_self_collision(CLI::App& validate) {
  validate.add_subcommand("self-collision", "(not built yet: issue 8)")->callback([] { throw CLI::RuntimeError("not built yet", 3); });
}
}  // namespace weft::app
