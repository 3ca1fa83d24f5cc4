// runqcheck/stress/workloads.hpp — the workloads of stress/WORKLOADS.md (the
// contract shared with the Go peer, stress/go/): Go's scheduler benchmarks
// and tests as rounds of fixed work of size K on the stress scheduler.
// Each round function runs inside the round's main G.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace runqcheck::stress {

struct round_ctx {
  int procs;            // GOMAXPROCS of the run
  std::int64_t size;    // K
  std::uint64_t seed;   // --seed (chaos)
  int round;            // 0 = warm-up, then 1..R
};

struct workload {
  const char* name;
  std::int64_t default_size;  // K when --size is not given
  bool procs1;                // Go's benchmark forces GOMAXPROCS(1) (PingPongHog)
  // Runs one round in the main G. Returns the round's own timing in ns when
  // it times only part of the round (as Go's does), or 0: the driver then
  // times the whole round.
  std::int64_t (*round)(const round_ctx&);
  const char* what;
  // The protocol's optional hooks the workload runs (protocol_subject.hpp):
  // without them it is not applied (command.cpp says so).
  bool syscalls = false;    // has_protocol_syscalls (entersyscall, exitsyscall)
  bool procresize = false;  // has_protocol_procresize (gomaxprocs)
  int min_procs = 1;        // fewer Ps: a usage error
};

std::span<const workload> workloads();
const workload* find_workload(std::string_view name);

// Building blocks, also used by tests. From a G.
void spin_for_ns(std::int64_t ns);          // Go: spin loop on the clock
void sys_nanosleep_ns(std::int64_t ns,
                      bool block = false);  // entersyscall(block) / nanosleep / exitsyscall

}  // namespace runqcheck::stress
