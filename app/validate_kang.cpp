// Placeholder until issue 2 lands.
#include "app/commands.h"

namespace weft::app {
void register_validate_kang(CLI::App& validate) {
  validate.add_subcommand("kang", "(not built yet: issue 2)")->callback([] { throw CLI::RuntimeError("not built yet", 3); });
}
}  // namespace weft::app
