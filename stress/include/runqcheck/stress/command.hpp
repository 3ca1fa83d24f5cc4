// runqcheck/stress/command.hpp — the `stress` command: its options, its run,
// and how to add it to a CLI11 application.
//
//   runqcheck_stress --workload W --procs N (--seconds S | --rounds R)
//                    [--size K] [--seed X] [--watchdog-ms M] [--sysmon]
//   runqcheck stress ...   (the project's main CLI, via add_command)
//
// Output: progress lines on stderr; the final
//   bench: workload=W procs=N size=K rounds=R median_ns=… min_ns=… max_ns=…
// on stdout (the contract of stress/WORKLOADS.md). Exit status: 0 ok,
// 1 a failed invariant, 2 bad usage, 3 the watchdog (no progress).
#pragma once

#include <cstdint>
#include <string>

namespace CLI {
class App;
}

namespace runqcheck::stress {

struct options {
  std::string workload;
  int procs = 0;            // 0: the number of CPUs
  double seconds = 0;       // > 0: run rounds until this much time has passed
  std::int64_t rounds = 0;  // > 0: one warm-up round, then this many timed rounds
  std::int64_t size = 0;    // 0: the workload's default K
  std::uint64_t seed = 1;
  int watchdog_ms = 10000;
  bool sysmon = false;
  std::string argv0 = "runqcheck_stress";  // the reproducer's command: the binary's full path
};

// The running binary's absolute path (/proc/self/exe), "" if unknown.
std::string self_path();

// Adds the options above to app (as flags of app itself).
void add_options(CLI::App& app, options& o);
// Runs one stress command; returns the exit status.
int run(const options& o);
// Adds subcommand `stress` to app; its callback runs it and stores the exit
// status in exit_code. Returns the subcommand.
CLI::App* add_command(CLI::App& app, int& exit_code);

}  // namespace runqcheck::stress
