// tests/relacy/protocol_world.hpp — the wakeup protocol's scenarios and
// world (core/include/runqcheck/protocol.hpp on the go125 queues, or a
// protocol subject on the queue subject its registration names (QUEUE), at
// ring capacity 4, each M a thread of the checker): the catalog as data,
// Go's P, M and sched around the core's queues, the checks at quiescence and
// the Relacy test suite per M count. Shared by relacy_protocol
// (tests/relacy/protocol.cpp: Relacy's searches), fuzz_protocol
// (fuzz/targets/fuzz_protocol.cpp: the interleaving from a fuzz input) and
// explore_protocol (tests/explore/protocol.cpp: every execution graph).
// The backend is Relacy's unless the including file defines
// RQPROTO_BACKEND first (one backend per translation unit); the Relacy
// suite exists only where relacy.hpp was included.
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
// under the G's scan bit); gosched_ring and spinner_drop: m_role. Ms in the
// scheduler run a bounded findRunnable (queues, stealWork, protocol.hpp's
// stop_or_spin and Delicate dance, stopm) and run each G they find at once
// (run_on: that G runs on and its M leaves).
// Ps held by nobody start on pidle. When every M is parked or done the run
// is quiescent and parked Ms leave.
//
// Invariants (after each execution): every G runs at most once (checked
// when it runs) and work conservation: no submitted G is left unrun while a
// P is idle (at quiescence no M is spinning or about to be woken).
//
// The protocol under test is the suite's template parameter Proto, a
// protocol subject (protocol_subject.hpp) on this world's env:
// Proto<env<Proto>>, the bundled runqcheck::protocol the first (and the
// default). The world reaches its state only through the contract: it owns
// a Proto::state (env::ws()), asks spin_gate whether an M may spin, reads
// observe()'s counts at quiescence and names objects through describe. A
// scenario whose Ms need an optional hook Proto lacks is not run
// (missing_hook: run_one prints `runqcheck: not applied:`). The queues
// only through subject.hpp's functions on `sched` (S::schedt); `core` is
// sched.lock (go125's global queue too), taken around Proto's `locked&`
// calls unless Proto has its own lock (runqcheck::protocol_lock).
//
// Include after the std headers; with RUNQCHECK_PICTURES, after driver.hpp
// (the suite then records the picture of a failure). One execution at a
// time: the running world is the global W<Proto> (set in the suite's
// before()).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <runqcheck/go125.hpp>
#include <runqcheck/sched_policy.hpp>
#include <runqcheck/protocol.hpp>
#include <runqcheck/protocol_subject.hpp>

#include "invariant.hpp"
#if __has_include(<runqcheck_protocol_subject.hpp>)
// protocol_under_test; with QUEUE, RUNQCHECK_PROTOCOL_QUEUE and protocol_queue
#include <runqcheck_protocol_subject.hpp>
#endif

namespace rqproto {

#ifndef RQPROTO_BACKEND
#define RQPROTO_BACKEND runqcheck::relacy
#endif
using B = RQPROTO_BACKEND;
// The backend ends a run whose Ms all wait for good (explore_backend): the
// world then keeps no live count (below), whose RMWs by every M would only
// add orders to explore.
template <class Backend>
constexpr bool ends_waits_v = requires { Backend::ends_waits; };
constexpr bool backend_ends_waits = ends_waits_v<B>;
constexpr std::uint32_t cap = 4;
#ifdef RUNQCHECK_PROTOCOL_QUEUE
using S = ::protocol_queue<B, cap>;  // the queue subject its registration names
static_assert(runqcheck::subject<S, B>, "QUEUE: not a queue subject (subject.hpp)");
#else
using S = runqcheck::go125<B, cap>;
#endif
// A queue of its own: its global state is not the core's schedt.
constexpr bool own_queue = !std::same_as<S::schedt, runqcheck::schedt<B>>;
using core_p = S::p;
using core_g = runqcheck::g<B>;
constexpr int max_ps = 4, max_ms = 4, max_gs = 4;

// --- scenarios as data ---

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
  // set), runs on; syscall_block: entersyscallblock, handoffp(releasep());
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
};

// Q's set_gomaxprocs hook (subject.hpp), where it has one: missing_hook
// keeps a resize from a queue of its own without it.
template <class Q>
void set_gomaxprocs(typename Q::schedt& s, std::int32_t n) {
  if constexpr (runqcheck::has_set_gomaxprocs<Q>) Q::set_gomaxprocs(s, n);
}

// The optional hook (protocol_subject.hpp) scenario s needs that protocol
// PS lacks, or null: such a scenario is not applied, never run half.
template <class PS>
const char* missing_hook(const proto_scenario& s) {
  for (const m_role& r : s.ms) {
    bool sys = r.k == m_role::syscall || r.k == m_role::syscall_keep || r.k == m_role::sysmon;
    bool rs = r.k == m_role::resizer || r.k == m_role::handback;
    if (sys && !runqcheck::has_protocol_syscalls<PS>)
      return "its Ms exit syscalls or retake: needs has_protocol_syscalls";
    if (rs && !runqcheck::has_protocol_procresize<PS>)
      return "its Ms resize gomaxprocs: needs has_protocol_procresize";
    if (rs && own_queue && !runqcheck::has_set_gomaxprocs<S>)
      return "its Ms resize gomaxprocs: needs the queue's set_gomaxprocs";
  }
  return nullptr;
}

// Not the port's protocol, or a window it shares with Go: relacy_protocol
// runs it only when RUNQCHECK_CASE names it, fuzz_protocol never.
inline bool by_name_only(const proto_scenario& s) { return s.go_peek || s.go_window; }

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
};

// --- the world: Go's P, M and sched around the core's queues ---

// Go's plain field, which Relacy checks for data races (B::var), with the
// load/store of an atomic (protocol.hpp reads mp.p as the native one, a
// relaxed atomic there): the scan-bit protocol must order every syscall
// thief's access with the M's own, and only the M's own accesses remain.
template <class T>
struct plain {
  B::var<T> v{};
  T load(std::memory_order, runqcheck::loc l = runqcheck::loc::current()) const {
    return v.load(l);
  }
  void store(T x, std::memory_order, runqcheck::loc l = runqcheck::loc::current()) {
    v.store(x, l);
  }
};

struct M;
// Go's pp.status and pp.m: go125's p has them (runqgrab reads them); a
// queue of its own need not, and the world's P then has its own.
template <class Q>
struct go_p_fields {};
template <class Q>
  requires(!requires(Q& q) { q.status; q.m; })
struct go_p_fields<Q> {
  B::atomic<std::uint32_t> status{static_cast<std::uint32_t>(runqcheck::pstatus::idle)};
  B::atomic<runqcheck::m<B>*> m{nullptr};  // acquirep, releasep
};
struct P : core_p, go_p_fields<core_p> {
  P(S::schedt& s, std::int32_t id) : core_p(s, id) {}
  P* link = nullptr;             // pidle; sched.lock
  B::atomic<bool> idle{false};  // Go: idlepMask bit (relaxed hint)
  B::atomic<M*> oldm{nullptr};  // Go: pp.oldm (go1.26): the M that last acquired it (a hint)
  B::atomic<std::uint32_t> syscalltick{0};  // owner or a syscall thief; sysmon reads (a hint)
  std::uint32_t sysmontick = 0;             // the sysmon role's
};
struct M : runqcheck::m<B> {
  int id = 0;
  B::atomic<bool> spinning{false};  // this M, and startm before the wakeup (relaxed)
  B::atomic<P*> nextp{nullptr};     // startm -> the woken M (published by the note)
  runqcheck::note<B> park;
  runqcheck::idle_node<M> idleNode;  // Go: mp.idleNode, midle; sched.lock
  plain<P*> p;                 // this M; a syscall thief, holding its G's scan bit, clears it
  P* oldp = nullptr;           // Go: mp.oldp, the P held at entersyscall; this M only
  P* curp() const { return p.load(std::memory_order::relaxed); }  // mp.p, as this M reads it
};
struct G : core_g {
  B::atomic<M*> m{nullptr};  // Go: gp.m; set before the run (relaxed: read after curg's acquire)
};

constexpr std::uint32_t st(runqcheck::pstatus s) { return static_cast<std::uint32_t>(s); }
constexpr std::uint32_t st(runqcheck::gstatus s) { return static_cast<std::uint32_t>(s); }

template <template <class> class Proto>
struct world;
template <template <class> class Proto>
inline world<Proto>* W = nullptr;  // the running execution's (set in before())
inline std::uint64_t unjudged_executions = 0;  // world::check counts them, run_one prints them

// The hooks the protocol calls (protocol.hpp's top comment).
template <template <class> class Proto>
struct env {
  using B = rqproto::B;
  using S = rqproto::S;
  using P = rqproto::P;
  using M = rqproto::M;
  static auto& ws() { return W<Proto>->state; }  // Proto's own state
  static runqcheck::schedt<B>& core() { return W<Proto>->core; }
  static S::schedt& sched() { return W<Proto>->sched; }  // the queue's global state
  // startm's "no idle M" path (Go: newm): the world has no M to start, so
  // the execution leaves the scenario's scope and is counted, not judged
  // (the P stays with nobody). Not a failure: a protocol may start an M
  // where Go's would not (a wakeup more is no bug), and the catalog sizes
  // its Ms for Go's; run_one prints the count.
  static void newm(P*, bool) { W<Proto>->unjudged = true; }
  static void notewakeup(M* mp) {
    // relaxed: the waker is live until after this
    if constexpr (!backend_ends_waits) W<Proto>->live.fetch_add(1, std::memory_order::relaxed);
    mp->park.wakeup();
  }
  // Go: acquirep/wirep, with wirep's throws.
  static void acquirep(M* mp, P* pp) {
    RQ_CHECK(B, mp->p.load(std::memory_order::relaxed) == nullptr, "wirep: already in go",
             "m", mp->id);
    RQ_CHECK(B,
             pp->m.load(std::memory_order::relaxed) == nullptr &&
                 pp->status.load(std::memory_order::relaxed) == st(runqcheck::pstatus::idle),
             "wirep: invalid p state", "p", pp->id);
    pp->m.store(mp, std::memory_order::release);  // release: runqgrab's acquire of pp.m
    pp->status.store(st(runqcheck::pstatus::running), std::memory_order::relaxed);  // a hint
    pp->oldm.store(mp, std::memory_order::relaxed);  // a hint (go1.26, 2263d4aabd)
    mp->p.store(pp, std::memory_order::relaxed);     // relaxed: as releasep
  }
  static P* releasep(M* mp) {
    P* pp = mp->p.load(std::memory_order::relaxed);
    pp->m.store(nullptr, std::memory_order::relaxed);  // relaxed: pidleput's lock publishes it
    pp->status.store(st(runqcheck::pstatus::idle), std::memory_order::relaxed);  // a hint
    mp->p.store(nullptr, std::memory_order::relaxed);  // relaxed: this M, or a P's next owner
    return pp;
  }
  static M* g_m(core_g* gp) {
    return static_cast<G*>(gp)->m.load(std::memory_order::relaxed);  // relaxed: see G::m
  }
  static core_p& owner(P* pp) { return *pp; }
  static void count_wakep() {}
  // No scenario stops the world while a P is handed off.
  static bool handoff_gcstop(runqcheck::locked_sched<B>&, P*) { return false; }
};
template <template <class> class Proto>
struct world {
  using envt = env<Proto>;
  using proto = Proto<envt>;
  // The syscall and procresize hooks are optional: missing_hook.
  static_assert(runqcheck::protocol_subject<proto>);
  static constexpr bool syscalls = runqcheck::has_protocol_syscalls<proto>;
  static constexpr bool resize = runqcheck::has_protocol_procresize<proto>;

  typename proto::state state;  // the protocol's idle lists and counters

  const proto_scenario& sc;
  runqcheck::schedt<B> core;  // sched.lock; go125's global queue too
  // The queue's global state: core itself for go125, else S's own.
  std::conditional_t<own_queue, S::schedt, runqcheck::schedt<B>&> sched;
  P ps[max_ps] = {{sched, 0}, {sched, 1}, {sched, 2}, {sched, 3}};
  std::array<core_p*, max_ps> allp{};
  M ms[max_ms];
  G gs[max_gs];
  B::atomic<int> runs[max_gs];
  B::atomic<int> live{0};  // Ms not parked: when 0, parked Ms leave (quiescence)
  // With backend_ends_waits, in place of live: each M's own record (plain
  // harness state, rebuilt by each run), read by check().
  std::array<bool, max_ms> parked{}, ended{};
  B::atomic<int> gomaxprocs{0};  // allp's live length (procresize shrinks it)
  runqcheck::randomOrder stealOrder;
  bool unjudged = false;  // newm left the scenario's scope (env::newm)
  B::atomic<bool> glob_maybe{false};  // go_peek: a global put may have begun

  explicit world(const proto_scenario& s) : sc(s), core(s.nprocs), sched(sched_arg(s.nprocs)) {
    static_assert(runqcheck::protocol_env<envt>);  // here: env::ws() needs a complete world
  }
  // sched's initializer: S::schedt(nprocs), or a reference to core.
  decltype(auto) sched_arg(int n) {
    if constexpr (own_queue) return std::int32_t{n};
    else return (core);
  }
  // The lock around proto's `locked&` calls: its own, else sched.lock
  // (at the caller's line). Any M not holding it.
  typename proto::locked plock(runqcheck::loc l = runqcheck::loc::current()) {
    return runqcheck::protocol_lock<proto>(core, l);
  }

  // before(): the scenario's initial state.
  void init() {
    stealOrder.reset(static_cast<std::uint32_t>(sc.nprocs));
    gomaxprocs.store(sc.nprocs, std::memory_order::relaxed);
    for (int i = 0; i < sc.nprocs; i++) allp[static_cast<std::size_t>(i)] = &ps[i];
    for (int i = 0; i < max_gs; i++) gs[i].goid = static_cast<std::uint64_t>(i);
    std::array<bool, max_ps> held{};
    for (std::size_t i = 0; i < sc.ms.size(); i++) {
      M* mp = &ms[i];
      mp->id = static_cast<int>(i);
      const m_role& r = sc.ms[i];
      if (r.k == m_role::idle || r.k == m_role::handback) {
        auto l = plock();
        proto::mput(l, mp);
        if (r.k == m_role::handback) {  // its P stopped with Gs queued (gcstop)
          P* pp = &ps[r.p];
          held[static_cast<std::size_t>(r.p)] = true;
          pp->oldm.store(mp, std::memory_order::relaxed);
          pp->status.store(st(runqcheck::pstatus::gcstop), std::memory_order::relaxed);
          for (const submit& s : r.submits) S::runqput(*pp, &gs[s.g], s.next);
        }
        continue;
      }
      if (r.k == m_role::syscall || r.k == m_role::syscall_keep) in_syscall(mp, r);
      if (r.k == m_role::syscall || r.k == m_role::injector_nop || r.k == m_role::sysmon) continue;
      held[static_cast<std::size_t>(r.p)] = true;
      if (r.k == m_role::resizer) {  // the last P, stopped (gcstop) with the submits queued
        P* dying = &ps[sc.nprocs - 1];
        held[static_cast<std::size_t>(sc.nprocs - 1)] = true;
        dying->status.store(st(runqcheck::pstatus::gcstop), std::memory_order::relaxed);
        for (const submit& s : r.submits) S::runqput(*dying, &gs[s.g], s.next);
      }
      envt::acquirep(mp, &ps[r.p]);
      if (r.k == m_role::syscall_keep)  // readied before the syscall (runqput only)
        for (std::size_t j = 1; j < r.submits.size(); j++)
          S::runqput(ps[r.p], &gs[r.submits[j].g], r.submits[j].next);
      if (r.k == m_role::gosched_ring)  // the batch's rest (Go: runqputbatch), no wakep
        for (std::size_t j = 0; j + 1 < r.submits.size(); j++)
          S::runqput(ps[r.p], &gs[r.submits[j].g], r.submits[j].next);
      if (r.k == m_role::spinner || r.k == m_role::spinner_drop) proto::becomeSpinning(mp);
      if (r.k == m_role::busy)  // no P is idle yet: each wakep sets needspinning
        for (const submit& s : r.submits) proto::submit(mp->curp(), &gs[s.g], s.next);
    }
    {
      auto l = plock();
      for (int i = sc.nprocs - 1; i >= 0; i--)
        if (!held[static_cast<std::size_t>(i)]) proto::pidleput(l, &ps[i]);
    }
    for (int g : sc.global) S::globrunqput(sched, &gs[g]);
    // sysmon: every P's sysmontick (0) already equals its syscalltick (0),
    // as if the last sysmon tick saw the same syscalls.
    // Every M counts as live; an idle one leave()s at its first park.
    live.store(static_cast<int>(sc.ms.size()), std::memory_order::relaxed);
  }

  void run(int idx) {
    run_m(idx);
    ended[static_cast<std::size_t>(idx)] = true;
  }

  void run_m(int idx) {
    M* mp = &ms[idx];
    const m_role& r = sc.ms[static_cast<std::size_t>(idx)];
    if (r.k == m_role::busy) {
      leave();  // its G runs on: its own queue is for the others
      return;
    }
    if (r.k == m_role::sysmon) {
      if constexpr (syscalls) retake();  // else not run (missing_hook)
      leave();
      return;
    }
    if (r.k == m_role::syscall_block) {  // Go: entersyscallblock
      proto::handoffp(envt::releasep(mp));
      leave();  // in the syscall until the run ends
      return;
    }
    if (r.k == m_role::submitter) {
      for (const submit& s : r.submits) proto::submit(mp->curp(), &gs[s.g], s.next);
      leave();  // its G runs on: its own queue is for the others
      return;
    }
    if ((r.k == m_role::gosched || r.k == m_role::gosched_ring) && !gosched(mp, r)) return;
    if (r.k == m_role::injector || r.k == m_role::injector_nop) {
      inject(mp, r);
      leave();  // injector: its G runs on, its own queue is for the others
      return;
    }
    if constexpr (resize)  // else not run (missing_hook)
      if (r.k == m_role::resizer) procresize(mp);
    if ((r.k == m_role::idle || r.k == m_role::handback) && !park(mp)) return;
    bool in_sys = r.k == m_role::syscall || r.k == m_role::syscall_keep;
    if constexpr (syscalls)  // else not run (missing_hook)
      if (in_sys && !exitsyscall(mp, &gs[r.submits[0].g])) return;
    schedule(mp, r.k == m_role::spinner_drop);
  }

  // The checks at quiescence (after()): every thread has ended, so the
  // queues are drained here (owner operations from the harness).
  void check() {
    if (unjudged) {
      unjudged_executions++;
      return;
    }
    if constexpr (backend_ends_waits)  // the run ended with every M done or parked
      for (std::size_t i = 0; i < sc.ms.size(); i++)
        RQ_INVARIANT(B, ended[i] || parked[i],
                     "invariant: protocol model: an M waits for good outside a park "
                     "(deadlock)",
                     "m", static_cast<int>(i));
    runqcheck::protocol_counts c = proto::observe();
    std::int32_t npidle = c.idle_ps;
    RQ_INVARIANT(B, c.spinning == 0, "invariant: an M still spinning with every M parked or gone",
             "spinning", c.spinning);
    std::array<bool, max_gs> queued{};
    for (int i = 0; i < sc.nprocs; i++)
      while (core_g* gp = S::runqget(ps[i]).gp) queued[gp->goid] = true;
    while (core_g* gp = S::globrunqget(sched)) queued[gp->goid] = true;
    auto judge = [&](int g) {  // a G of the scenario: run, or queued with no P idle
      if (runs[g].load(std::memory_order::relaxed) == 1) return;
      RQ_INVARIANT(B, queued[static_cast<std::size_t>(g)],
                   "invariant: a G was lost (never run, on no queue)", "g", g);
      RQ_INVARIANT(B, npidle == 0,
                   "invariant: work conservation: a runnable G was never run while a P is idle "
                   "and no M is spinning or being woken (lost wakeup)",
                   "g", g, "npidle", npidle);
    };
    for (const m_role& r : sc.ms)
      for (const submit& s : r.submits) judge(s.g);
    for (int g : sc.global) judge(g);
  }

 private:
  void leave() {
    if constexpr (!backend_ends_waits)
      live.fetch_add(-1, std::memory_order::release);  // release: pairs with park's acquire
  }

  // The injector's G (or a thread without a P): r's Gs as one list to
  // injectglist, with mp's P (null for injector_nop).
  void inject(M* mp, const m_role& r) {
    runqcheck::gQueue<B> q;
    for (const submit& s : r.submits) q.pushBack(&gs[s.g]);
    glob_put_begins();
    proto::injectglist(mp->curp(), q);
  }

  // Go: mPark, from stopm. False: quiescent, the M leaves without a P.
  bool park(M* mp) {
    leave();
    auto& me = parked[static_cast<std::size_t>(mp->id)];
    me = true;
    bool woken = mp->park.sleep([this] {
      if constexpr (backend_ends_waits) return false;  // the engine ends the run
      else return live.load(std::memory_order::acquire) == 0;
    });
    me = false;
    if (!woken) return false;
    mp->park.clear();
    P* pp = mp->nextp.load(std::memory_order::relaxed);  // relaxed: the note's acquire
    mp->nextp.store(nullptr, std::memory_order::relaxed);
    envt::acquirep(mp, pp);
    return true;
  }

  // Before the run: mp's G of role r in a syscall (Go: reentersyscall done;
  // its P, if any, still wired: syscall_keep acquires it after this).
  void in_syscall(M* mp, const m_role& r) {
    G* gp = &gs[r.submits[0].g];
    gp->atomicstatus.store(st(runqcheck::gstatus::syscall), std::memory_order::relaxed);
    gp->m.store(mp, std::memory_order::relaxed);
    mp->curg.store(gp, std::memory_order::relaxed);  // before the run: no ordering needed
    mp->oldp = r.p >= 0 ? &ps[r.p] : nullptr;
  }

  // Go: one sysmon pass of retake's syscall part (protocol.hpp's
  // retake_syscall on each _Prunning P). A thread without a P.
  void retake()
    requires syscalls
  {
    for (core_p* cp : live_allp()) {
      auto* pp = static_cast<P*>(cp);
      if (pp->status.load(std::memory_order::relaxed) != st(runqcheck::pstatus::running))
        continue;  // relaxed: a hint, as Go's
      proto::retake_syscall(pp);
    }
  }

  // Go: exitsyscall (go1.27). gp back to _Grunning first, waiting while a
  // thief holds its scan bit; then the P is ours if still wired to mp,
  // else exitsyscallTryGetP (the old P back from a syscalling M, or an
  // idle P), else exitsyscallNoP (an idle P, or gp to the global queue and
  // stopm). False: parked until quiescence.
  bool exitsyscall(M* mp, G* gp)
    requires syscalls
  {
    // waits while a thief holds the scan bit; its acquire: resume's release
    proto::casgstatus(gp, runqcheck::gstatus::syscall, runqcheck::gstatus::running);
    P* oldp = mp->oldp;
    mp->oldp = nullptr;
    P* pp = mp->curp();
    if (pp == nullptr) {
      pp = proto::exitsyscallTryGetP(oldp);
      if (pp != nullptr) envt::acquirep(mp, pp);
    }
    if (pp == nullptr) {  // Go: exitsyscallNoP: casgstatus to _Grunnable, dropg
      proto::casgstatus(gp, runqcheck::gstatus::running, runqcheck::gstatus::runnable);
      mp->curg.store(nullptr, std::memory_order::relaxed);  // relaxed: read only by thieves
      glob_put_begins();
      pp = proto::exitsyscallNoP_pidle(gp);
      if (pp != nullptr) envt::acquirep(mp, pp);
    }
    if (pp != nullptr) {
      execute(mp, gp);
      if (sc.run_on) leave();  // gp runs on
      return !sc.run_on;
    }
    {  // Go: stopm
      auto l = plock();
      proto::mput(l, mp);
    }
    return park(mp);
  }

  // A G on mp's P readies submits[0..n-2] (newproc/ready; gosched_ring: on
  // the ring already) and then goschedImpl's itself (submits[n-1]): Go's
  // schedule() follows; the G it finds runs on (the M keeps its P). False:
  // the M released its P and parked to quiescence.
  bool gosched(M* mp, const m_role& r) {
    const std::vector<submit>& subs = r.submits;
    for (std::size_t i = 0; r.k == m_role::gosched && i + 1 < subs.size(); i++)
      proto::submit(mp->curp(), &gs[subs[i].g], subs[i].next);
    glob_put_begins();
    proto::gosched_globrunqput(&gs[subs.back().g]);
    if (core_g* gp = find_runnable(mp); gp != nullptr) {
      execute(mp, gp);
      leave();  // gp runs on
      return false;
    }
    {  // Go: stopm
      auto l = plock();
      proto::mput(l, mp);
    }
    return park(mp);
  }

  // go_peek's flag, before a harness call that may put on the global queue
  // (only there do the scenarios' Gs reach it). Any M.
  void glob_put_begins() {
    if (sc.go_peek) glob_maybe.store(true, std::memory_order::seq_cst);  // seq_cst: a flag
  }

  // findRunnable's queue part (schedtick 1: no fairness check). go_peek: the
  // global queue only if Go's lockless peek could see it non-empty. pp's M.
  core_g* find_queues(P* pp) {
    if (!sc.go_peek) return runqcheck::findRunnable_queues<S>(sched, *pp, 1).gp;
    if (core_g* gp = S::runqget(*pp).gp; gp != nullptr) return gp;
    // seq_cst: a flag set before the put, so a G on the queue is never missed
    if (!glob_maybe.load(std::memory_order::seq_cst)) return nullptr;
    return S::findRunnable_globrunq(*pp);
  }

  // Go: GOMAXPROCS(n-1) from a G holding a P, reduced: the world is stopped
  // (every other P stopped or idle: the idle ones leave pidle, as
  // stopTheWorld's "stop idle P's"), procresize destroys the last P's queue
  // (protocol.hpp's destroy_runq), shrinks allp and hands the surviving Ps
  // out (procresize_runnable: empty ones to pidle, runnable ones to their
  // old M if idle); startTheWorld wakes those Ms, then its wakep starts an
  // M if a P is idle. The G then ends; its M schedules.
  void procresize(M* mp)
    requires resize
  {
    std::int32_t n = sc.nprocs - 1;
    glob_put_begins();  // destroy_runq puts the dying P's Gs on the global queue
    P* runnable;
    {
      auto l = plock();
      while (P* pp = proto::pidleget(l))
        pp->status.store(st(runqcheck::pstatus::gcstop), std::memory_order::relaxed);
      proto::destroy_runq(l, &ps[n]);
      ps[n].status.store(st(runqcheck::pstatus::dead), std::memory_order::relaxed);
      if constexpr (!own_queue && !runqcheck::has_protocol_lock<proto>) l.set_gomaxprocs(n);
      std::array<P*, max_ps> live{};
      for (int i = 0; i < n; i++) live[static_cast<std::size_t>(i)] = &ps[i];
      runnable = proto::procresize_runnable(
          l, std::span<P* const>(live.data(), static_cast<std::size_t>(n)), mp->curp());
      stealOrder.reset(static_cast<std::uint32_t>(n));
      gomaxprocs.store(n, std::memory_order::release);  // release: allp's length, as proc.cpp
    }
    if constexpr (own_queue || runqcheck::has_protocol_lock<proto>)
      set_gomaxprocs<S>(sched, n);  // outside Proto's lock: the queue's own
    proto::startTheWorld_runnable(runnable);
    proto::wakep();  // Go: startTheWorldWithSema's wakep
  }

  // allp[0..gomaxprocs).
  std::span<core_p* const> live_allp() const {
    auto n = gomaxprocs.load(std::memory_order::acquire);  // acquire: pairs with procresize
    return std::span<core_p* const>(allp.data(), static_cast<std::size_t>(n));
  }

  // Go's idlepMask bit of allp[i] (stealWork's skip; relaxed: a hint).
  bool idle(std::uint32_t i) const { return ps[i].idle.load(std::memory_order::relaxed); }

  void execute(M* mp, core_g* gp) {
    if (mp->spinning.load(std::memory_order::relaxed)) proto::resetspinning(mp);  // Go: schedule
    int n = runs[gp->goid].fetch_add(1, std::memory_order::relaxed);
    RQ_INVARIANT(B, n == 0, "invariant: a G ran twice", "g", gp->goid);
  }

  // Go: schedule + findRunnable (queues, stealWork, the idle path), bounded.
  // searched: the first findRunnable starts at its "nothing to do" block.
  void schedule(M* mp, bool searched = false) {
    for (int round = 0; round < 8; round++, searched = false) {
      if (core_g* gp = find_runnable(mp, searched); gp != nullptr) {
        execute(mp, gp);
        if (!sc.run_on) continue;
        leave();  // gp runs on
        return;
      }
      {  // Go: stopm
        auto l = plock();
        proto::mput(l, mp);
      }
      if (!park(mp)) return;
    }
    RQ_INVARIANT(B, false, "invariant: protocol model: an M looped 8 times (livelock?)", "m",
                 mp->id);
  }

  // A G, or nullptr after this M released its P (it may then stopm).
  // searched: the first pass skips the search (spinner_drop's was empty).
  core_g* find_runnable(M* mp, bool searched = false) {
    for (;; searched = false) {
      P* pp = mp->curp();
      // Go would fault on a nil mp.p here: only a syscall thief unwires an M
      RQ_INVARIANT(B, pp != nullptr,
               "invariant: an M schedules without a P (a thief took it: two Ms on one P)", "m",
               mp->id);
      if (core_g* gp = searched ? nullptr : find_queues(pp); gp != nullptr) return gp;
      auto all = live_allp();
      if (!searched && proto::spin_gate(mp, static_cast<std::int32_t>(all.size()))) {
        auto f = runqcheck::stealWork<S>(*pp, all, stealOrder, [] { return 0u; },
                                         [&](std::uint32_t i) { return idle(i); });
        if (f.gp != nullptr) return f.gp;
      }
      runqcheck::globrunq_batch<B> r;
      switch (proto::stop_or_spin(mp, pp, r, [] { return false; })) {
        case proto::idle_step::again: continue;
        case proto::idle_step::global: return r.gp;
        case proto::idle_step::released: break;
      }
      if (!mp->spinning.load(std::memory_order::relaxed)) return nullptr;
      auto rc = proto::dropspinning(mp, live_allp());
      if (rc.gp != nullptr) return rc.gp;
      if (rc.pp == nullptr) return nullptr;
    }
  }
};

inline const proto_scenario* current = nullptr;

#ifdef RUNQCHECK_PICTURES
// The picture of a failure (tests/relacy/picture.hpp): each M a lane, each
// object of the protocol by its Go name. Only while a picture is taken.
inline const char* role_name(m_role::kind k) {
  switch (k) {
    case m_role::submitter: return "submitter";
    case m_role::spinner: return "spinner";
    case m_role::running: return "running";
    case m_role::syscall: return "in a syscall";
    case m_role::idle: return "idle, parked";
    case m_role::gosched: return "gosched";
    case m_role::injector: return "injector";
    case m_role::injector_nop: return "injector without a P";
    case m_role::resizer: return "procresize";
    case m_role::busy: return "busy";
    case m_role::syscall_block: return "blocking syscall";
    case m_role::handback: return "parked, P's old M";
    case m_role::syscall_keep: return "in a syscall, P wired";
    case m_role::sysmon: return "sysmon";
    case m_role::gosched_ring: return "gosched, its ring queued";
    case m_role::spinner_drop: return "spinner, search done";
  }
  return "?";  // a role this table does not know yet
}

// What M i was given to do, as the lane's head says it.
inline runqcheck::fuzz::lane m_lane(const proto_scenario& sc, std::size_t i) {
  const m_role& r = sc.ms[i];
  runqcheck::fuzz::lane l{"M" + std::to_string(i) + " (" + role_name(r.k) +
                         (r.p >= 0 ? ", P" + std::to_string(r.p) : std::string()) + ")",
                     {}};
  bool inject = r.k == m_role::injector || r.k == m_role::injector_nop;
  bool gosched = r.k == m_role::gosched || r.k == m_role::gosched_ring;
  for (const submit& sb : r.submits) {
    std::string g = "G" + std::to_string(sb.g);
    if (gosched && &sb == &r.submits.back())
      l.script.push_back("its G " + g + " goscheds: global queue, wakep");
    else if (r.k == m_role::gosched_ring)
      l.script.push_back(g + " on P" + std::to_string(r.p) + "'s ring before the run (no wakep)");
    else if (r.k == m_role::syscall && &sb == &r.submits[0])
      l.script.push_back("exitsyscall " + g + ": the old P, an idle P, else global");
    else if (r.k == m_role::syscall_keep && &sb == &r.submits[0])
      l.script.push_back("exitsyscall " + g + ": its P if still wired, else as an M without one");
    else if (r.k == m_role::syscall_keep)
      l.script.push_back(g + " queued on P" + std::to_string(r.p) + " before the syscall");
    else if (r.k == m_role::resizer)
      l.script.push_back(g + (sb.next ? " in runnext" : " in the ring") + " of the dying P" +
                         std::to_string(sc.nprocs - 1));
    else if (inject) l.script.push_back("injectglist " + g);
    else if (r.k == m_role::handback)
      l.script.push_back(g + " queued on P" + std::to_string(r.p) + ", stopped");
    else if (r.k == m_role::busy)
      l.script.push_back(g + (sb.next ? " in runnext" : " in the ring") +
                         ", readied before the run (its wakep set needspinning)");
    else l.script.push_back("submit " + g + (sb.next ? " (runnext)" : "") + ": runqput, wakep");
  }
  if (r.k == m_role::spinner_drop)
    l.script.push_back("found nothing: release the P, the Delicate dance");
  if (r.k == m_role::resizer) l.script.push_back("procresize: destroy the dying P, wakep");
  if (r.k == m_role::sysmon) l.script.push_back("retake: each P in a syscall, taken, handoffp");
  if (r.k == m_role::syscall_block)
    l.script.push_back("entersyscallblock: handoffp(releasep()), in the syscall to the end");
  else if (r.k == m_role::submitter || r.k == m_role::busy || r.k == m_role::sysmon || inject)
    l.script.push_back("leave: its G runs on");
  else l.script.push_back("findRunnable / stopm until quiescence");
  return l;
}

// Names world w's objects for the recorder: sched.*, P<i>.*, M<i>.*, G<i>.*.
// R: the Relacy recorder (runqcheck_fuzz/trace.hpp) or the explore picture.
template <class R, template <class> class Proto>
void name_objects(R& r, world<Proto>& w) {
  r.owner(&w.core, sizeof w.core, "sched", -1);
  r.name(&w.core.lock, "sched.lock");
  using proto = typename world<Proto>::proto;
  if constexpr (runqcheck::has_protocol_describe<proto>)
    proto::describe([&](const void* a, const char* n) { r.name(a, n); });
  r.name(&w.live, "harness.live");
  r.name(&w.gomaxprocs, "sched.gomaxprocs");
  for (int i = 0; i < w.sc.nprocs; i++) {
    r.name_p(&w.ps[i], i);
    r.name(&w.ps[i].m, "P.m", i);
    r.name(&w.ps[i].idle, "P.idle", i);
    r.name(&w.ps[i].syscalltick, "P.syscalltick", i);
  }
  for (int i = 0; i < static_cast<int>(w.sc.ms.size()); i++) {
    r.owner(&w.ms[i], sizeof w.ms[i], "M", i);
    r.name(&w.ms[i].park, "M.park", i);
    r.name(&w.ms[i].spinning, "M.spinning", i);
    r.name(&w.ms[i].nextp, "M.nextp", i);
    r.name(&w.ms[i].curg, "M.curg", i);
    r.name(&w.ms[i].p, "M.p", i);
  }
  for (int i = 0; i < max_gs; i++) {
    r.name(&w.gs[i].atomicstatus, "G.status", i);
    r.name(&w.gs[i].schedlink, "G.schedlink", i);
    r.name(&w.gs[i].m, "G.m", i);
    r.name(&w.runs[i], "G.runs", i);
  }
}
#endif

#ifdef RL_RELACY_HPP
// The Relacy suite of the scenario `current` with N Ms, on protocol Proto.
template <unsigned N, template <class> class Proto = runqcheck::protocol>
struct suite : rl::test_suite<suite<N, Proto>, N> {
  world<Proto> w{*current};
#ifdef RUNQCHECK_PICTURES
  using ph = runqcheck::fuzz::recorder::phase;
  static std::vector<rqtest::fz::lane> picture_lanes() {
    std::vector<rqtest::fz::lane> out;
    for (std::size_t i = 0; i < current->ms.size(); i++) out.push_back(m_lane(*current, i));
    return out;
  }
  void before() {
    W<Proto> = &w;
    rqtest::trace_begin([&](rqtest::fz::recorder& r) { name_objects(r, w); });
    w.init();
  }
  void thread(unsigned idx) {
    rqtest::trace_phase(ph::run);
    rqtest::trace_step(true, role_name(current->ms[idx].k), "M");
    w.run(static_cast<int>(idx));
    rqtest::trace_step(false, "done", "M");
  }
  void after() {
    rqtest::trace_phase(ph::final);
    w.check();
  }
#else
  void before() {
    W<Proto> = &w;
    w.init();
  }
  void thread(unsigned idx) { w.run(static_cast<int>(idx)); }
  void after() { w.check(); }
#endif
};
#endif  // RL_RELACY_HPP

}  // namespace rqproto
