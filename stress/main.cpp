// stress/main.cpp — runqcheck_stress: the stress command as its own program
// (the project's main CLI exposes the same command as `runqcheck stress`).
#include <cstdio>
#include <string>

#include <CLI/CLI.hpp>

#include "runqcheck/stress/command.hpp"
#include "runqcheck/stress/watchdog.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "runqcheck_stress: Go's run queues in an M:N scheduler on real threads; see "
      "stress/README.md"};
  runqcheck::stress::options o;
  // The reproducer names this program by its full path (runqcheck_stress,
  // runqcheck_stress__<name>, wherever it was run from).
  if (std::string self = runqcheck::stress::self_path(); !self.empty()) o.argv0 = self;
  else if (argc > 0) o.argv0 = argv[0];
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
