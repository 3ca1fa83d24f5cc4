// models/protocol/protocol_scenario.hpp — the wakeup protocol's scenarios
// as data: an M's role, its submits, the scenario's Ps and flags. Shared by
// the catalog (protocol_catalog.hpp), the generated programs
// (models/generate/protocol.hpp's kinds are m_role's, in order) and the
// world that runs one (protocol_world.hpp). No backend here.
//
// An M of a scenario is a submitter (holds a P and runs a G that submits
// Gs: newproc's runqput + wakep, then keeps running, so its own queue is
// left to others), a spinner (holds a P and is spinning), idle (parked on
// midle) or gosched (holds a P; its G readies Gs, goscheds, and the G the M
// finds next runs on), busy (holds a P whose G readied Gs before the run,
// when no P was idle, and runs on), syscall_block (holds a P whose G
// enters a blocking syscall: entersyscallblock's handoffp), handback
// (parked, the old M of a P the world stop left with work), syscall (its G
// returns from a syscall that lost the M its P) or syscall_keep (its G
// returns from a syscall while the P is still wired to it, which sysmon
// (the sysmon role: one retake pass) or another M's exitsyscall may steal
// under the G's scan bit); gosched_ring and spinner_drop: m_role.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace rqproto {

constexpr std::uint32_t cap = 4;  // every world's ring capacity
constexpr int max_ps = 4, max_ms = 4, max_gs = 4;

struct submit {
  int g;
  bool next;  // runqput's next: newproc and ready pass true
};
struct m_role {
  // gosched: submits, then the last one's G goscheds; injector: holds a P, its
  // G injects submits as one list (injectglist) and runs on; injector_nop: a
  // thread without a P (sysmon, netpoll) that injects submits and leaves;
  // resizer: holds a P, the world stopped, its G shrinks gomaxprocs by one
  // (procresize): the last P, stopped with submits on its queue, dies; busy:
  // submitted before the run (runqput + wakep with no P idle: needspinning
  // set), runs on; syscall_block: its submits queued on its P before (runqput
  // only), then entersyscallblock, handoffp(releasep());
  // handback: parked on midle, the M that last ran P p, which the world
  // stop left with the submits queued (procresize hands p back to it);
  // syscall: its G (submits[0]) in a syscall, the M without a P (p: its old
  // P, held by another M, or -1); syscall_keep: its G in a syscall on P p,
  // the rest of the submits queued there before; sysmon: no P, one retake
  // pass (each syscall already a sysmon tick old); gosched_ring: as gosched,
  // but submits[0..n-2] were on its P's ring before the run (the rest of a
  // global batch it took as a non-spinning M: queued without a wakep);
  // spinner_drop: a spinner whose search (local, global, stealWork) found
  // nothing: it starts at findRunnable's "We have nothing to do" block
  enum kind {
    submitter, spinner, running, syscall, idle, gosched, injector, injector_nop, resizer, busy,
    syscall_block, handback, syscall_keep, sysmon, gosched_ring, spinner_drop
  } k;
  int p = -1;  // the P it holds (none: idle, injector_nop, sysmon; handback's, syscall's last)
  std::vector<submit> submits;  // submitter, gosched, injector*: in order; syscall*: its G first
};
struct proto_scenario {
  std::string_view name;
  std::string_view targets;  // the race it exists for
  int nprocs;
  std::vector<m_role> ms;
  // A reduced scenario with no spare M: its executions where startm finds
  // no idle M (Go: newm) are expected (env::newm); it prints their count.
  bool newm_unjudged = false;
  // findRunnable's global-queue check as Go does it: a peek without
  // sched.lock (Go: !sched.runq.empty()), where the port's globrunqsize
  // takes the lock (go125.hpp: Go's racy read is a data race in C++). The
  // peek reads a harness flag set before any global put may start, so it
  // is never falsely empty. Not the port's protocol: runs only by name.
  bool go_peek = false;
  // Go's own window (docs/proofs.md): the port, like Go, loses a wakeup here
  // in some executions, which a replay test shows. Runs only by name.
  bool go_window = false;
  // The global queue at the start, head first (generated programs).
  std::vector<int> global = {};
  // Each G runs on (a long-running G): the M that runs it leaves, so only the
  // search for each G is explored, not what its M looks for next.
  bool run_on = false;
  // One M more, on no idle list: newm's (startm found no idle M). It waits
  // for newm to hand it a P, then schedules as a woken M does; without it
  // such an execution is counted, not judged (newm_unjudged). Generated
  // programs have one.
  bool spare_m = false;
};

// The threads a scenario runs: an M a role, then the spare.
inline int threads_of(const proto_scenario& s) {
  return static_cast<int>(s.ms.size()) + (s.spare_m ? 1 : 0);
}

// Not the port's protocol, or a window it shares with Go: relacy_protocol
// runs it only when RUNQCHECK_CASE names it, fuzz_protocol never.
inline bool by_name_only(const proto_scenario& s) { return s.go_peek || s.go_window; }

}  // namespace rqproto
