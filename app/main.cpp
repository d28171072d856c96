// weft: real-time VR cloth manipulation runtime. Subcommands are registered by app/*_command.cpp.
#include <cstdio>
#include <exception>

#include "app/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"Weft: real-time VR cloth manipulation runtime"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "weft 0.1.0");
  weft::app::register_validate(app);
  weft::app::register_bench(app);
  weft::app::register_run(app);
  weft::app::register_record(app);
  weft::app::register_replay(app);
  weft::app::register_stress(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "weft: error: %s\n", e.what());
    return 2;
  }
  return 0;
}
