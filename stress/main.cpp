// stress/main.cpp — runqcheck_stress: the stress command as its own program
// (the project's main CLI exposes the same command as `runqcheck stress`).
#include <cstdio>
#include <string_view>

#include <CLI/CLI.hpp>

#include "runqcheck/stress/command.hpp"
#include "runqcheck/stress/watchdog.hpp"

int main(int argc, char** argv) {
  CLI::App app{"runqcheck_stress: Go's run queues in an M:N scheduler on real threads; see stress/README.md"};
  runqcheck::stress::options o;
  if (argc > 0) {  // the reproducer names this program (runqcheck_stress, runqcheck_stress__<name>)
    std::string_view a = argv[0];
    o.argv0 = a.substr(a.find_last_of('/') + 1);
  }
  runqcheck::stress::add_options(app, o);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "runqcheck_stress: error: %s\n", e.what());
    return runqcheck::stress::exit_usage;
  }
  return runqcheck::stress::run(o);
}
