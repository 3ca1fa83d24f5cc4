// runqcheck/stress/watchdog.hpp — work conservation and failure reports.
//
// The watchdog is a thread that samples the scheduler's progress: Gs
// created, readied (goready) and finished. If none of these happens for
// --watchdog-ms while Gs are alive (created but not finished), work is not
// being conserved: a G sits in a queue (or was lost) while every M is parked,
// Gs spin waiting for one that never runs (GoroutineParallelism2), or a G
// polls with Gosched for one that was lost (chaos's main G). It then prints every P's ring and
// runnext, every M's state, the global queue and the counters, the reproducing command line, and
// exits with status 3. The deadline is a hang detector, not a timing assertion: the default (10 s)
// is orders of magnitude above any legitimate gap between two such events in these workloads, even
// under TSan.
//
// Every failed check (RQ_CHECK in core/ and in the scheduler) goes through
// the same report (message, dump, reproducer) and exits with status 1.
#pragma once

#include <string>

namespace runqcheck::stress {

inline constexpr int exit_invariant = 1;  // a failed check (RQ_CHECK) or end-of-run invariant
inline constexpr int exit_usage = 2;      // bad command line
inline constexpr int exit_watchdog = 3;   // no progress while Gs are alive

// The command line printed with every failure ("reproduce: ...").
void set_reproducer(std::string cmd);
const std::string& reproducer();
// Installs the fatal handler for RQ_CHECK failures (dump + reproducer).
void install_fatal_handler();
// A failed end-state check: "fatal error: <what>", the dump, the
// reproducer, exit 1 (the first failure wins). sched.lock not held.
[[noreturn]] void fail_run(const std::string& what);
// Driver: start/stop the watchdog thread; mark a round in flight; mark the
// shutdown (every idle M woken, the Ms joined: an M that never exits fails).
void watchdog_start(int ms);
void watchdog_round(bool active);
void watchdog_shutdown();
void watchdog_stop();

}  // namespace runqcheck::stress
