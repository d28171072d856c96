#include "app/commands.h"
namespace weft::app { void register_bench(CLI::App&) {} }
