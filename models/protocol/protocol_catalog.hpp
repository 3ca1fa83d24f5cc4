// models/protocol/protocol_catalog.hpp — the wakeup protocol's scenarios
// every protocol checker runs (relacy_protocol, explore_protocol,
// fuzz_protocol), each naming the race it exists for. Built before main():
// under Relacy, memory allocated during a simulation belongs to its heap.
#pragma once

#include <vector>

#include "protocol_scenario.hpp"

namespace rqproto {

inline const std::vector<proto_scenario> catalog = {
    {"submit_vs_spinner_drop",
     "a submitter's runqput + wakep vs a spinning M dropping spinning (Delicate dance: "
     "nmspinning-1, #StoreLoad, recheck every runq) with an idle M to wake",
     2,
     {{m_role::submitter, 0, {{0, true}}}, {m_role::spinner, 1, {}}, {m_role::idle, -1, {}}}},
    {"submit_ring_vs_spinner_drop",
     "as submit_vs_spinner_drop, the G published by runqput's release store of runqtail",
     2,
     {{m_role::submitter, 0, {{0, false}}}, {m_role::spinner, 1, {}}, {m_role::idle, -1, {}}}},
    {"go125_window",
     "proofs/spin/wakeup.pml's go125_window (NSUB=2) on the C++ code: a submitter readies two "
     "Gs while P1 is idle, M1 parked and M2's G returns from a syscall (exitsyscall takes an "
     "idle P or queues its G globally); becomeSpinning's needspinning = 0 vs wakep's "
     "pidlegetSpinning",
     2,
     {{m_role::submitter, 0, {{0, false}, {1, false}}},
      {m_role::idle, -1, {}},
      {m_role::syscall, -1, {{2, false}}},
      {m_role::idle, -1, {}}}},
    {"syscall_exit_vs_submit",
     "proofs/spin/wakeup.pml at NSUB=1: a submitter readies one G while P1 is idle, M1 parked "
     "and M2's G returns from a syscall; the needspinning hand-off of #45867 (a spinning M "
     "that sees work but no idle P asks the non-spinning M about to drop its P to spin)",
     2,
     {{m_role::submitter, 0, {{0, false}}},
      {m_role::idle, -1, {}},
      {m_role::syscall, -1, {{1, false}}},
      {m_role::idle, -1, {}}}},
    {"syscall_exit_no_idle_p",
     "an M whose G returns from a syscall finds no idle P (exitsyscallNoP: the G goes on the "
     "global queue) while a spinner drops its P",
     2,
     {{m_role::submitter, 0, {}}, {m_role::spinner, 1, {}}, {m_role::syscall, -1, {{0, false}}}}},
    {"two_submitters_one_idle_p",
     "two submitters' wakep race for one idle P: one CAS of nmspinning wins, the woken "
     "spinning M must end with both Gs run (resetspinning, the dance's recheck); a second "
     "idle M for a wakep that finds the P released again (Go: newm)",
     3,
     {{m_role::submitter, 0, {{0, true}}},
      {m_role::submitter, 1, {{1, true}}},
      {m_role::idle, -1, {}},
      {m_role::idle, -1, {}}}},
    {"gosched_vs_last_spinner",
     "#55160: M0's G readies G0 (runqput, wakep sees the spinner) and goscheds (goschedImpl: "
     "itself to the global queue, wakep) and M0 runs G0 from its ring, while the last "
     "spinner M1 drops P1 (its Delicate dance must recheck the global queue) and M2 is "
     "parked for a wakep",
     2,
     {{m_role::gosched, 0, {{0, false}, {1, false}}},
      {m_role::spinner, 1, {}},
      {m_role::idle, -1, {}}}},
    {"injectglist_vs_idle",
     "#63555: an M holding P0 injects two Gs (injectglist: npidle read once, the rest by "
     "runqputbatch to its own ring) while M1 finds nothing and drops P1 to pidle after that "
     "read; injectglist's final wakep must wake an idle M for them",
     2,
     {{m_role::injector, 0, {{0, false}, {1, false}}},
      {m_role::running, 1, {}},
      {m_role::idle, -1, {}},
      {m_role::idle, -1, {}}}},
    {"injectglist_no_p",
     "injectglist without a P (sysmon, netpoll): two Gs to the global queue, then startIdle "
     "wakes an idle M for idle P0 while M1's G keeps P1 busy (the second pidlegetSpinning "
     "finds no P and sets needspinning)",
     2,
     {{m_role::injector_nop, -1, {{0, false}, {1, false}}},
      {m_role::submitter, 1, {}},
      {m_role::idle, -1, {}},
      {m_role::idle, -1, {}}}},
    {"procresize_vs_spinner",
     "procresize shrinks 3 Ps to 2 with the world stopped: the dying P2's runnext G0 and ring "
     "G1 go to the global queue ((*p).destroy); startTheWorld's wakep starts M1 spinning on "
     "idle P1, and M1 and the resizer's M0 race for them (M2: a spare M for a further wakep)",
     3,
     {{m_role::resizer, 0, {{0, true}, {1, false}}},
      {m_role::idle, -1, {}},
      {m_role::idle, -1, {}}}},
    {"go125_window_2m",
     "go125_window reduced to the two Ms its SPIN trail uses: M0 readies two Gs on P0 while "
     "M1's G returns from a syscall, takes idle P1 and M1 spins; neither wakep finds an idle P, "
     "so no parked M is needed: newm leaves the scope (docs/proofs.md)",
     2,
     {{m_role::submitter, 0, {{0, false}, {1, false}}}, {m_role::syscall, -1, {{2, false}}}},
     true},
    {"go125_window_go_peek",
     "go125_window_2m with findRunnable's global-queue check as Go's lockless peek: the "
     "window needs M1 to re-enter findRunnable while wakep holds sched.lock, which the "
     "port's locked globrunqsize forbids; Go's does not (docs/proofs.md). Loses a wakeup: "
     "run only by name",
     2,
     {{m_role::submitter, 0, {{0, false}, {1, false}}}, {m_role::syscall, -1, {{2, false}}}},
     true,
     true},
    {"handoffp_after_wakep",
     "handoffp's spinning-M clause: M0's G readied G0 while no P was idle (its wakep found "
     "none and set needspinning), then M1's G enters a blocking syscall and hands off P1 "
     "with no work on it; no M spins and no P is idle, so handoffp must start a spinning M "
     "(parked M2) for P1 to steal G0, not put P1 on pidle",
     2,
     {{m_role::busy, 0, {{0, true}}}, {m_role::syscall_block, 1, {}}, {m_role::idle, -1, {}}}},
    {"handoffp_vs_submit",
     "Go's window in handoffp (docs/proofs.md): M0's G readies G0 while M1's G enters a "
     "blocking syscall; handoffp reads wakep's transient nmspinning reservation (no spinning "
     "M needed), wakep then finds no idle P, and handoffp puts P1 on pidle: G0 waits on busy "
     "P0 while P1 is idle. Loses a wakeup, as Go 1.27 does: run only by name",
     2,
     {{m_role::submitter, 0, {{0, true}}},
      {m_role::syscall_block, 1, {}},
      {m_role::idle, -1, {}},
      {m_role::idle, -1, {}}},
     false,
     false,
     true},
    {"procresize_handback",
     "go1.26's procresize hand-back (2263d4aabd): 4 Ps shrink to 3 with the world stopped; "
     "P1 stopped with G1 queued goes back to M3, the idle M that last ran it (mgetSpecific: "
     "off midle's head), the dying P3's runnext G0 to the global queue, empty P2 to pidle; "
     "startTheWorld wakes M3 and its wakep starts idle M2 spinning on P2 (M1: a spare M)",
     4,
     {{m_role::resizer, 0, {{0, true}}},
      {m_role::idle, -1, {}},
      {m_role::idle, -1, {}},
      {m_role::handback, 1, {{1, false}}}}},
    {"retake_vs_exitsyscall",
     "go1.26's syscall P steal (7244e9221f): M0's G0 is in a syscall with P0 still wired and G1 "
     "queued on it; sysmon's retake locks G0 in _Gsyscall with the scan bit, takes P0 and "
     "hands it off (parked M2 runs G1) while G0 returns from the syscall: exitsyscall keeps "
     "P0 only if nobody took it, else G0 goes to the global queue; never two Ms on P0",
     1,
     {{m_role::syscall_keep, 0, {{0, false}, {1, false}}},
      {m_role::sysmon, -1, {}},
      {m_role::idle, -1, {}}}},
    {"exitsyscall_steals_oldp",
     "exitsyscallTryGetP's old-P steal (go1.26): M0's G0 returns from a syscall without its P; "
     "P0, its old P, went to M1, whose G1 is now in a syscall on it with G2 queued; M0 steals "
     "P0 back under G1's scan bit while G1 returns too: one of them runs on P0, the other's G "
     "goes to the global queue",
     1,
     {{m_role::syscall, 0, {{0, false}}}, {m_role::syscall_keep, 0, {{1, false}, {2, false}}}}},
    {"gosched_vs_dropping_spinner",
     "#55160, both halves: the last spinner M1 found nothing and drops P1 (stop_or_spin, then "
     "the Delicate dance) while M0's G goscheds (globrunqput, then wakep: it sees M1 still "
     "spinning, or wakes parked M2) and M0 runs G0, the rest of a global batch on its ring "
     "(queued with no wakep); only the dance's global recheck or gosched's wakep runs G1. "
     "Each G runs on (run_on): the search for it is what is explored",
     2,
     {{m_role::gosched_ring, 0, {{0, false}, {1, false}}},
      {m_role::spinner_drop, 1, {}},
      {m_role::idle, -1, {}}},
     false, false, false, {}, true},
    {"handoffp_with_work",
     "handoffp's local-work clause: M1's G readied G0 onto P1's ring (runqput only), then "
     "enters a blocking syscall and hands off P1 with G0 on it; M0 is busy, M2 parked, P2 "
     "idle (so no 'start a spinning M' clause applies). handoffp must start an M for P1 (M2 "
     "runs G0), not put P1 on the idle list with G0",
     3,
     {{m_role::busy, 0, {}}, {m_role::syscall_block, 1, {{0, true}}}, {m_role::idle, -1, {}}}},
};

}  // namespace rqproto
