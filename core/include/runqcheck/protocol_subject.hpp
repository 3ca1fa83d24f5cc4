// runqcheck/protocol_subject.hpp — the contract of a wakeup protocol under
// test, as subject.hpp is for a run-queue port: what the protocol checkers
// (relacy_protocol, fuzz_protocol, the stress scheduler, diff_go's idle
// lists) drive, and which parts are optional hooks. The bundled protocol
// (protocol.hpp, go1.27 proc.go) is the first protocol subject; the
// static_asserts are in the worlds that run it (models/protocol/
// protocol_world.hpp, stress/src/proc.cpp).
//
// A protocol subject is a class PS (the bundled one: protocol<Env>, the
// protocol instantiated on a checker's world Env) with the nested types B
// (backend), S (the queue subject it submits to), P (a P: derives S::p), M
// (an M: derives m<B>), G (S::p::G) and the static functions below, named
// as in proc.go. The world owns the Ms (threads, and what each parks on:
// Env::notewakeup wakes one), Gs and Ps; the protocol owns its idle P and
// M lists and its counters (PS::state), with its own names: the checkers
// reach them only through these functions, never by member name.
//
// Locks: PS::locked is the proof a `locked&` parameter asks for. Without
// the own-lock hook it is locked_sched<B>: the world holds sched.lock
// (Env::core()'s). A protocol with its own lock (has_protocol_lock: its
// B::mutex in PS::state, seen by every checker as the backend's mutex)
// names its guard as PS::locked and makes one with PS::lock(); the world
// then takes that around the calls with a `locked&` (stopm's mput, the
// idle Ps at start, procresize's section), and the protocol takes it
// itself everywhere else. The model worlds take it alone; the stress
// scheduler takes it, then sched.lock (its own state's): the lock order is
// the protocol's lock, then sched.lock, never the other way round (a
// protocol may take sched.lock under its own, but not in a `locked&` call
// there, which holds it already) — except destroy_runq, which every world
// calls with the protocol's lock alone: it reaches the queue's global state
// through the queue's functions, which take sched.lock (S::destroy). A protocol whose idle lists
// take no lock (lock-free stacks, a bitmask of idle Ps) names an empty
// guard: `struct locked {}; static locked lock() { return {}; }`; the
// stress scheduler then serializes only its own calls (sched.lock), and
// observe() is read while other Ms change the lists: keep its counts
// atomic. Env::handoff_gcstop still
// takes sched.lock's proof: such a protocol calls it under
// lock(Env::core()).
//
// Queues: the protocol runs around its world's queue subject S (Env::S):
// the bundled go125 unless its registration names one (QUEUE). It reaches
// the queues through subject.hpp's functions on Env::sched() (S::schedt&,
// the queue's global state). The core's global-queue functions on
// Env::core() reach go125's queue only; Env::core() stays sched.lock.
//
// Required (Go signature on the right):
//   PS::name                            shown in reports
//   PS::state                           the protocol's own idle lists and
//        counters, default-constructed; the world owns one per run and
//        hands it back as Env::ws()
//   PS::observe() -> protocol_counts    what the checks at quiescence read
//        (spinning Ms, idle Ps, idle Ms), in the port's own terms; called
//        after the run or under its lock (Locks, above)
//   PS::spin_gate(M*, int32 gomaxprocs) -> bool
//        findRunnable's limit on spinning Ms (Go: half the busy Ps): true
//        if the M, holding a P, may spin (becomeSpinning done)
//   PS::submit(P*, G*, bool next)       func runqput(pp *p, gp *g, next bool)
//        the M owning pp: publish      + wakep() (newproc, ready)
//        gp, then wake an M if an idle P could run it
//   PS::wakep()                         func wakep()
//   PS::becomeSpinning(M*)              func (mp *m) becomeSpinning()
//   PS::resetspinning(M*)               func resetspinning()
//        a spinning M found work: stop spinning, wake another if needed
//   PS::stop_or_spin(M*, P*, globrunq_batch<B>&, stopping) -> idle_step
//        findRunnable's "We have nothing to do" block, under its lock;
//        PS::idle_step is an enum with (at least) these three values:
//          released  the P is released (pidleput): the world drops the
//                    M's spinning (dropspinning) and parks it (stopm)
//          again     look again from findRunnable's top (stopping() held,
//                    or the M became spinning for a waiting wakeup)
//          global    a global batch is taken: run the batch's gp, the
//                    rest already on the P's ring
//   PS::dropspinning(M*, span<S::p* const> allp) -> {G* gp, P* pp}
//        findRunnable's spinning -> non-spinning transition ("Delicate
//        dance"): drop the count, #StoreLoad, recheck every queue; a P
//        found is acquired and the M spins again
//   PS::pidleput(locked&, P*)           func pidleput(pp *p, now int64) int64
//   PS::pidleget(locked&) -> P*         func pidleget(now int64) (*p, int64)
//   PS::mput(locked&, M*)               func mput(mp *m)
//        the M then parks; the protocol unparks it (Env::notewakeup)
//   PS::mget(locked&) -> M*             func mget() *m
//   PS::handoffp(P*)                    func handoffp(pp *p)
//        a P nobody owns (blocking syscall, retake): run it or park it
//   PS::injectglist(P*, gQueue<B>&)     func injectglist(glist *gList)
//   PS::gosched_globrunqput(G*)         goschedImpl: globrunqput + wakep
//
// The world (Env, protocol_env<Env> below) gives a protocol these and only
// these: Env's functions (ws, core, sched, newm, notewakeup, acquirep, releasep,
// owner, count_wakep, handoff_gcstop, g_m; protocol.hpp's top comment says
// what each does) and these fields of its Ps and Ms (every world has them;
// the rest of a world's P or M is its own):
//   P: the queue's p (S::p: id, the ring), status, m (go125's p's, else
//      the world's), link (P*: an idle list's link; its lock), idle
//      (atomic bool: Go's idlepMask bit, a hint stealers read), oldm
//      (atomic M*: the M that last ran it),
//      syscalltick (atomic uint32), sysmontick (uint32: retake's own)
//   M: m<B> (curg), id, spinning (atomic bool), nextp (atomic P*: startm's
//      hand-over, published by notewakeup), p (atomic P*: the M's P,
//      read by syscall thieves), idleNode (prev, next: an idle list's
//      links; its lock: sched.lock, or the protocol's own)
//
// What the checkers hold it to: every G runs at most once and none is lost;
// at quiescence (every M parked or done) no runnable G while a P is idle
// and no M spins (work conservation: no M parked forever while work
// waits); the port's own fatal errors (B::fatal) never fire; natively, the
// stress scheduler's watchdog: no hang while Gs are alive.
//
// Optional hooks (a check that needs a missing one prints `runqcheck: not
// applied: <check>: <why>`):
//   has_protocol_syscalls<PS>: the syscall exits and sysmon's retake
//     PS::casgstatus(G*, gstatus, gstatus)   func casgstatus(gp *g, oldval, newval uint32)
//     PS::exitsyscallTryGetP(P* oldp) -> P*  func exitsyscallTryGetP(oldp *p) *p
//     PS::exitsyscallNoP_pidle(G*) -> P*     func exitsyscallNoP(gp *g) (its pidleget part)
//     PS::retake_syscall(P*) -> bool         func retake(now int64) uint32 (one P's syscall part)
//   has_protocol_syscall_thief<PS>: the stress scheduler's syscall paths
//     (entersyscall/exitsyscall, sysmon's retake, stopTheWorld's Ps in
//     syscalls; without it those workloads print `not applied`), beside
//     has_protocol_syscalls:
//     PS::syscallingThread                   type syscallingThread struct (go1.26)
//     PS::setBlockOnExitSyscall(P*, syscallingThread&) -> bool
//                                            func setBlockOnExitSyscall(pp *p) syscallingThread
//     t.releaseP(pstatus), t.resume()        func (s syscallingThread) releaseP(state
//                                                uint32) *p; func (s syscallingThread) resume()
//   has_protocol_procresize<PS>: the P hand-out after a resize
//     PS::destroy_runq(locked&, P*)          func (pp *p) destroy() (its queues)
//     PS::procresize_runnable(locked&, span<P* const>, P* own) -> P*
//                                            func procresize(nprocs int32) *p
//     PS::startTheWorld_runnable(P*)         func startTheWorldWithSema(now int64,
//                                                w worldStop) int64 (its runnable-P loop)
//   has_protocol_lock<PS>: the protocol's own lock (Locks, above)
//     PS::lock() -> PS::locked               lock(&sched.lock), of its own mutex
//   has_protocol_describe<PS>: a failure's picture names its objects
//     PS::describe(f): f(const void* addr, const char* name) per object
//     (without it the picture shows the world's objects only)
//   has_protocol_idle_lists<PS>: diff_go's idle-list sequences against Go
//     PS::pidlegetSpinning(locked&) -> P*    func pidlegetSpinning(now int64) (*p, int64)
//     PS::mgetSpecific(locked&, M*) -> M*    func mgetSpecific(mp *m) *m
//
// A protocol subject is registered with runqcheck_add_protocol_subject
// (cmake/runqcheck.cmake); relacy_protocol, fuzz_protocol and the stress
// scheduler (runqcheck_stress__<name>) then run for it (the scenarios or
// workloads that need a missing hook print `runqcheck: not applied:`, or
// `declared absent:` where its registration says WITHOUT syscalls or
// procresize: a scheduler without those features by design).
// examples/kite_sched is a whole scheduler: its own queue subject and its
// own lock. Not yet: diff_go for a second protocol; timers, netpoll, GC
// workers, locked Ms (LockOSThread).
#pragma once

#include <atomic>
#include <concepts>
#include <cstdint>
#include <span>
#include <type_traits>

#include "g.hpp"
#include "globrunq.hpp"
#include "gqueue.hpp"
#include "runq.hpp"

namespace runqcheck {

// What the checks at quiescence read of a protocol's state (observe()).
struct protocol_counts {
  std::int32_t spinning = 0;  // Ms spinning, or reserved to spin by a wakeup
  std::int32_t idle_ps = 0;   // Ps on the protocol's idle list
  std::int32_t idle_ms = 0;   // Ms on the protocol's idle list
};

// The world a protocol runs in: Env's functions and the P and M fields
// above. Each world static_asserts it (stress/src/proc.cpp,
// models/protocol/protocol_world.hpp); tests/unit/core_protocol_contract.cpp
// runs protocol.hpp in a world with these fields and no others.
template <class Env>
concept protocol_env = requires(typename Env::P* pp, typename Env::M* mp,
                                g<typename Env::B>* gp, locked_sched<typename Env::B>& l) {
  requires std::derived_from<typename Env::P, typename Env::S::p>;
  requires std::derived_from<typename Env::M, m<typename Env::B>>;
  { pp->status.load(std::memory_order::relaxed) } -> std::convertible_to<std::uint32_t>;
  { pp->m.load(std::memory_order::relaxed) } -> std::convertible_to<m<typename Env::B>*>;
  { mp->curg.load(std::memory_order::relaxed) } -> std::convertible_to<g<typename Env::B>*>;
  { pp->link } -> std::convertible_to<typename Env::P*>;
  { pp->idle.load(std::memory_order::relaxed) } -> std::convertible_to<bool>;
  { pp->oldm.load(std::memory_order::relaxed) } -> std::convertible_to<typename Env::M*>;
  { pp->syscalltick.load(std::memory_order::relaxed) } -> std::convertible_to<std::uint32_t>;
  { pp->sysmontick } -> std::convertible_to<std::uint32_t>;
  mp->id;
  { mp->spinning.load(std::memory_order::relaxed) } -> std::convertible_to<bool>;
  { mp->nextp.load(std::memory_order::relaxed) } -> std::convertible_to<typename Env::P*>;
  { mp->p.load(std::memory_order::relaxed) } -> std::convertible_to<typename Env::P*>;
  { mp->idleNode.prev } -> std::convertible_to<typename Env::M*>;
  { mp->idleNode.next } -> std::convertible_to<typename Env::M*>;
  Env::ws();
  { Env::core() } -> std::same_as<schedt<typename Env::B>&>;
  { Env::sched() } -> std::same_as<typename Env::S::schedt&>;
  Env::newm(pp, true);
  Env::notewakeup(mp);
  Env::acquirep(mp, pp);
  { Env::releasep(mp) } -> std::convertible_to<typename Env::P*>;
  { Env::owner(pp) } -> std::convertible_to<typename Env::S::p&>;
  Env::count_wakep();
  { Env::handoff_gcstop(l, pp) } -> std::same_as<bool>;
  { Env::g_m(gp) } -> std::convertible_to<typename Env::M*>;
};

// The own-lock hook (Locks, above): PS::lock() makes a PS::locked.
template <class PS>
concept has_protocol_lock = requires {
  { PS::lock() } -> std::same_as<typename PS::locked>;
};

namespace protocol_detail {
struct never {  // stop_or_spin's stopping(): no stop-the-world
  bool operator()() const { return false; }
};
// PS::locked: its own lock's guard, else sched.lock's proof.
template <class PS>
concept lock_of = has_protocol_lock<PS> ||
                  std::same_as<typename PS::locked, locked_sched<typename PS::B>>;
}  // namespace protocol_detail

// The lock a world takes around a protocol's `locked&` calls (Locks,
// above): PS's own, else sched.lock (core). Any thread not holding it.
template <class PS>
typename PS::locked protocol_lock(schedt<typename PS::B>& core, loc l = loc::current()) {
  if constexpr (has_protocol_lock<PS>) return PS::lock();
  else return lock(core, l);
}

template <class PS>
concept protocol_subject = requires(typename PS::P* pp, typename PS::M* mp, typename PS::G* gp,
                                    bool next, gQueue<typename PS::B>& q,
                                    std::span<typename PS::S::p* const> allp,
                                    typename PS::locked& l,
                                    globrunq_batch<typename PS::B>& r) {
  { PS::name } -> std::convertible_to<const char*>;
  requires protocol_detail::lock_of<PS>;
  requires std::default_initializable<typename PS::state>;
  { PS::observe() } -> std::same_as<protocol_counts>;
  { PS::spin_gate(mp, std::int32_t{}) } -> std::same_as<bool>;
  requires std::derived_from<typename PS::P, typename PS::S::p>;
  PS::submit(pp, gp, next);
  PS::wakep();
  PS::becomeSpinning(mp);
  PS::resetspinning(mp);
  { PS::stop_or_spin(mp, pp, r, protocol_detail::never{}) } -> std::same_as<
      typename PS::idle_step>;
  requires std::is_enum_v<typename PS::idle_step>;
  PS::idle_step::released;  // the values the world acts on (above)
  PS::idle_step::again;
  PS::idle_step::global;
  { PS::dropspinning(mp, allp).gp } -> std::convertible_to<typename PS::G*>;
  { PS::dropspinning(mp, allp).pp } -> std::convertible_to<typename PS::P*>;
  PS::pidleput(l, pp);
  { PS::pidleget(l) } -> std::convertible_to<typename PS::P*>;
  PS::mput(l, mp);
  { PS::mget(l) } -> std::convertible_to<typename PS::M*>;
  PS::handoffp(pp);
  PS::injectglist(pp, q);
  PS::gosched_globrunqput(gp);
};

// The optional hooks (see the list above).
template <class PS>
concept has_protocol_syscalls = requires(typename PS::P* pp, typename PS::G* gp, gstatus s) {
  PS::casgstatus(gp, s, s);
  { PS::exitsyscallTryGetP(pp) } -> std::convertible_to<typename PS::P*>;
  { PS::exitsyscallNoP_pidle(gp) } -> std::convertible_to<typename PS::P*>;
  { PS::retake_syscall(pp) } -> std::same_as<bool>;
};
template <class PS>
concept has_protocol_syscall_thief =
    has_protocol_syscalls<PS> &&
    requires(typename PS::P* pp, typename PS::syscallingThread& t) {
      { PS::setBlockOnExitSyscall(pp, t) } -> std::same_as<bool>;
      t.releaseP(pstatus::gcstop);
      t.resume();
    };
template <class PS>
concept has_protocol_procresize = requires(typename PS::P* pp, typename PS::locked& l,
                                           std::span<typename PS::P* const> allp) {
  PS::destroy_runq(l, pp);
  { PS::procresize_runnable(l, allp, pp) } -> std::convertible_to<typename PS::P*>;
  PS::startTheWorld_runnable(pp);
};
template <class PS>
concept has_protocol_describe =
    requires { PS::describe([](const void*, const char*) {}); };
template <class PS>
concept has_protocol_idle_lists = requires(typename PS::M* mp, typename PS::locked& l) {
  { PS::pidlegetSpinning(l) } -> std::convertible_to<typename PS::P*>;
  { PS::mgetSpecific(l, mp) } -> std::convertible_to<typename PS::M*>;
};

}  // namespace runqcheck
