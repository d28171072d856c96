// Placeholder until issue 3 lands.
#include "app/commands.h"

namespace weft::app {
void register_validate_grasp(CLI::App& validate) {
  validate.add_subcommand("grasp", "(not built yet: issue 3)")->callback([] { throw CLI::RuntimeError("not built yet", 3); });
}
}  // namespace weft::app
