#include "app/commands.h"

namespace weft::app {

void register_validate(CLI::App& app) {
  auto* validate = app.add_subcommand("validate", "Reproduce the papers' experiments and check Weft's bounds");
  validate->require_subcommand(1);
  register_validate_kang(*validate);
  register_validate_poisson(*validate);
  register_validate_stability(*validate);
  register_validate_grasp(*validate);
  register_validate_self_collision(*validate);
  register_validate_tensile(*validate);
  register_validate_plasticity(*validate);
  register_validate_integrators(*validate);
  register_validate_interaction(*validate);
}

}  // namespace weft::app
