// runqcheck/stress/runtime.hpp — the driver's side of the stress scheduler
// (command.cpp's, and a test's main): start, run a round, judge, stop. It
// does not see the queue subject the scheduler runs (sched.hpp's S), so the
// command line is built once for every protocol subject's binary
// (cmake/stress.cmake). The functions are proc.cpp's.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace runqcheck::stress {

inline constexpr int max_procs = 256;  // the most Ps a run may have

struct runtime_config {
  int procs = 1;
  std::uint64_t seed = 1;
  bool sysmon = false;
  int watchdog_ms = 10000;
  std::string reproduce;  // the command line printed on every failure
};

// Driver thread: bring up procs Ps (all idle) and the watchdog (and sysmon).
void runtime_start(const runtime_config& cfg);
// Driver thread: run fn as a new G (Go: the main goroutine of one round) and
// wait until it returns; then wait until every G created so far has exited.
void run_main(std::function<void()> fn);
// Driver thread: stop every M, check the run's invariants, free everything.
// Returns false (after printing) if an invariant failed.
bool runtime_stop();

// The protocol subject this scheduler runs (protocol_subject.hpp; the
// bundled one unless built by runqcheck_add_protocol_subject) and which of
// its optional hooks the scheduler can use: the syscall paths (sysmon,
// entersyscall/exitsyscall) and gomaxprocs fail a check without them.
struct protocol_info {
  const char* name;
  bool syscalls;
  bool procresize;
  bool without_syscalls;    // its registration's WITHOUT: absent by design
  bool without_procresize;
};
protocol_info protocol_under_test_info();

// Driver, after a round (every G done): wait until every M is on the
// protocol's idle list, then judge the end state: no M spinning, every P
// idle, no G queued, the counts consistent. A violation fails the run
// (exit 1, dump, `reproduce:`); an M that never parks is the watchdog's.
void judge_round_end();

// Stats printed at the end of a run.
std::string stats_line();

}  // namespace runqcheck::stress
