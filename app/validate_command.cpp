#include "app/commands.h"
namespace weft::app { void register_validate(CLI::App&) {} }
