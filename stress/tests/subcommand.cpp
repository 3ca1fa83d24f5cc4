// stress/tests/subcommand.cpp — the `stress` subcommand as the project's main
// CLI will use it (runqcheck::stress::add_command), checked end to end:
// `prog stress ARGS...` must run the command and leave its exit status in
// exit_code; the program exits with it (bad flags: 2, as the CLI's own).
#include <cstdio>

#include <CLI/CLI.hpp>

#include "runqcheck/stress/command.hpp"

int main(int argc, char** argv) {
  CLI::App app{"runqcheck (test of the stress subcommand)"};
  app.require_subcommand(1);
  int exit_code = -1;
  CLI::App* sub = runqcheck::stress::add_command(app, exit_code);
  if (sub == nullptr || sub->get_name() != "stress") return 10;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "runqcheck: error: %s\n", e.what());
    return 2;
  }
  return exit_code;  // -1 (255) if the callback did not run
}
