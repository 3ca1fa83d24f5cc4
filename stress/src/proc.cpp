// stress/src/proc.cpp — schedule, findRunnable, wakep, startm, stopm,
// resetspinning, handoffp, the syscall paths and procresize: the M:N
// scheduler of go1.27 proc.go, reduced to what moves Gs through the queues.
//
// Wakeup protocol (proc.go, "Worker thread parking/unparking"): wakep,
// startm, resetspinning, the idle P/M lists, the submission path (newproc,
// goready) and findRunnable's spinning -> non-spinning recheck are the
// protocol subject's (protocol_subject.hpp): the bundled protocol.hpp,
// written on the backend seam so that the Relacy checker
// (tests/relacy/protocol.cpp) runs the same source (its top comment gives
// the steps and why each side needs a seq_cst fence, #StoreLoad), or, in
// runqcheck_stress__<name>, a registered protocol_under_test. The
// scheduler reaches the protocol's state only through the contract:
// spin_gate, observe (dumps, the end-of-run check), the hooks.
// TSan does not model fences (GCC warns, -Wtsan); no plain data depends on
// these two, only the wakeup decision, which TSan does not check anyway.
//
// Changes from Go (each also noted where it happens):
//  - No preemption, no netpoll, no timers, no GC, no locked Ms. sysmon only
//    retakes Ps from syscalls, and only with --sysmon (preemption and retake
//    have hidden lost wakeups in Go: issues 45867, 55160).
//  - A G gets its fiber stack at its first execute, not at newproc.
//  - mcall: a G switches to its M's g0 (the M's own thread stack) with a
//    function for g0 to run (park_m, gosched_m, goexit0, exitsyscallNoP), which
//    returns the G to run next or nullptr for findRunnable; Go's schedule()
//    "never returns", here it is the loop in schedule_loop.
//  - The global queue is never read without sched.lock (sched_policy.hpp).
//  - Gosched puts the G on the global queue, as Go does.
//  - A spinning M that stops for the world (gcstopm) or exits drops its
//    count through the protocol's dropspinning, after releasing its P (Go
//    drops nmspinning directly, holding it): see dropspinning_stopping.
//  - Without the protocol's syscall or procresize hooks the syscall paths
//    and gomaxprocs fail a check; command.cpp does not run such workloads.
//  - A protocol's QUEUE (sched.hpp's S) is reached through subject.hpp's
//    functions only; a protocol's own lock is taken before sched.lock
//    (both_locked).
#include "runqcheck/stress/proc.hpp"

#include <unistd.h>

#include <chrono>
#include <cinttypes>
#include <concepts>
#include <cstdio>
#include <mutex>
#include <span>
#include <thread>
#include <type_traits>

#include "fiber.hpp"
#include "runqcheck/stress/watchdog.hpp"
#ifdef RUNQCHECK_STRESS_PROTOCOL_SUBJECT
#include <runqcheck_protocol_subject.hpp>  // protocol_under_test, RUNQCHECK_PROTOCOL_SUBJECT
#endif

namespace runqcheck::stress {
namespace {

constexpr auto seq_cst = std::memory_order_seq_cst;
constexpr auto relaxed = std::memory_order_relaxed;
constexpr auto acquire = std::memory_order_acquire;
constexpr auto release = std::memory_order_release;
using locked = runqcheck::locked_sched<B>;  // sched.lock held: unlocked when it goes out of scope
                                            // (also by goto/return)

schedt* the_sched = nullptr;
// The M running on this thread. Read only through getm() (noipa), never
// directly: a G may resume on another thread, and a compiler that proved no
// callee writes this variable could keep its value in a register across a
// fiber switch.
thread_local M* tls_m = nullptr;
std::thread sysmon_thread;
std::mutex worldsema;  // Go: worldsema; one stop-the-world at a time

constexpr std::uint32_t st(gstatus s) { return static_cast<std::uint32_t>(s); }
constexpr std::uint32_t st(pstatus s) { return static_cast<std::uint32_t>(s); }
G* asG(core_g* g) { return static_cast<G*>(g); }

// The wakeup protocol under test (protocol_subject.hpp), on this scheduler:
// the hooks it needs (a protocol may leave some unused). ws() is the
// protocol's own state (proto::state).
struct env {
  using B = stress::B;
  using S = stress::S;
  using P = stress::P;
  using M = stress::M;
  static auto& ws();
  static runqcheck::schedt<B>& core() { return the_sched->core; }
  static S::schedt& sched() { return the_sched->queues(); }  // the queue's global state
  [[maybe_unused]] static void newm(P* pp, bool spinning);
  static void notewakeup(M* mp) { mp->park.wakeup(); }
  [[maybe_unused]] static void acquirep(M* mp, P* pp);
  [[maybe_unused]] static P* releasep(M* mp);
  [[maybe_unused]] static core_p& owner(P* pp);
  static void count_wakep() { the_sched->nwakep.fetch_add(1, relaxed); }
  [[maybe_unused]] static bool handoff_gcstop(locked& l, P* pp);  // protocol.hpp's handoffp
  static M* g_m(core_g* gp) { return asG(gp)->m.load(relaxed); }
};
#ifdef RUNQCHECK_STRESS_PROTOCOL_SUBJECT
// runqcheck_add_protocol_subject's (cmake/stress.cmake), around its QUEUE
// if it names one (sched.hpp's S), with its own lock if it has one.
using proto = protocol_under_test<env>;
#else
using proto = protocol<env>;  // the bundled protocol (core/include/runqcheck/protocol.hpp)
#endif
static_assert(!own_queue || !std::same_as<proto, protocol<env>>,
              "the bundled protocol runs around go125's queues only");
typename proto::state* the_state = nullptr;  // between runtime_start and runtime_stop
auto& env::ws() { return *the_state; }
static_assert(protocol_env<env>);
static_assert(protocol_subject<proto>);

// The optional hooks (protocol_subject.hpp). The syscall paths need the
// syscall hooks and the thief's scan-bit lock (has_protocol_syscall_thief:
// setBlockOnExitSyscall, which stopTheWorld and retake use too); gomaxprocs
// needs the procresize hooks. Without them those paths are not run:
// command.cpp prints `not applied`.
template <class PS>
concept stress_syscalls = has_protocol_syscall_thief<PS>;
constexpr bool with_syscalls = stress_syscalls<proto>;
constexpr bool with_procresize = has_protocol_procresize<proto>;
// A registration's WITHOUT (cmake/runqcheck.cmake): the scheduler has no
// such paths by design; those workloads are `declared absent`, and a
// protocol that has the hooks after all is a registration error.
#ifdef RUNQCHECK_PROTOCOL_WITHOUT_SYSCALLS
constexpr bool without_syscalls = true;
#else
constexpr bool without_syscalls = false;
#endif
#ifdef RUNQCHECK_PROTOCOL_WITHOUT_PROCRESIZE
constexpr bool without_procresize = true;
#else
constexpr bool without_procresize = false;
#endif
static_assert(!without_syscalls || !has_protocol_syscalls<proto>,
              "registered WITHOUT syscalls, yet the protocol has the syscall hooks");
static_assert(!without_procresize || !has_protocol_procresize<proto>,
              "registered WITHOUT procresize, yet the protocol has the procresize hooks");

// Go: cheaprand. This M only.
std::uint32_t cheaprand(M* mp) {
  mp->fastrand += 0x9e3779b97f4a7c15ull;
  std::uint64_t z = mp->fastrand;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return static_cast<std::uint32_t>(z ^ (z >> 31));
}

// Go: casgstatus: the exactly-once checks. With the syscall hooks, the
// protocol's (it also waits while a syscall thief holds the G's _Gscan
// bit); without, no thief exists and one CAS does. Any M.
template <class PS = proto>
void casgstatus_of(G* gp, gstatus from, gstatus to) {
  if constexpr (stress_syscalls<PS>) {
    PS::casgstatus(gp, from, to);
  } else {
    std::uint32_t old = st(from);
    // acq_rel: orders the G's state with its previous owner's
    bool ok = gp->atomicstatus.compare_exchange_strong(old, st(to), std::memory_order::acq_rel,
                                                       acquire);
    RQ_CHECK(B, ok, "casgstatus: bad g status (a G run, readied or finished twice?)", "goid",
             gp->goid, "have", old, "want", st(from));
  }
}
void casgstatus(G* gp, gstatus from, gstatus to) { casgstatus_of(gp, from, to); }

// The owner-P check: runq put/get/drain only by the M that holds the P
// (proc.go: "Executed only by the owner P"). Cheap: one relaxed load.
core_p& owner(P* pp) {
  RQ_CHECK(B, pp->owner() == getm(), "runq owner operation by an M that does not hold the P", "p",
           pp->id);
  return *pp;
}

locked lock_sched() { return runqcheck::lock(the_sched->core); }

// The locks around the protocol's `locked&` calls and the scheduler's own
// state together: sched.lock, which is the protocol's lock too unless it
// has its own (has_protocol_lock). Then that one is taken first: the lock
// order is the protocol's lock, then sched.lock, never the other way (a
// protocol may take sched.lock under its own: lock(Env::core()), and its
// calls here with `locked&` run with both held). Any thread holding neither.
template <class PS = proto, bool = has_protocol_lock<PS>>
struct both_locked {
  locked core = lock_sched();
  locked& protocol() { return core; }
};
template <class PS>
struct both_locked<PS, true> {
  typename PS::locked own = PS::lock();  // first: the lock order
  locked core = lock_sched();
  typename PS::locked& protocol() { return own; }
};

// --- P ownership (Go: acquirep, wirep, releasep) ---

// Go: acquirep/wirep. The calling M, which must hold no P; pp must be idle
// and unowned (taken from pidle, handed over by startm, or taken from a
// syscalling M by syscallingThread::takeP).
void acquirep(M* mp, P* pp) {
  RQ_CHECK(B, mp->p.load(relaxed) == nullptr, "wirep: already in go", "m", mp->id);
  RQ_CHECK(B, pp->owner() == nullptr && pp->status.load(relaxed) == st(pstatus::idle),
           "wirep: invalid p state", "p", pp->id, "status", pp->status.load(relaxed));
  pp->m.store(mp, release);  // release: runqgrab's acquire load of pp.m may then read the M
  mp->p.store(pp, relaxed);    // relaxed: this M only (dumps read it)
  pp->status.store(st(pstatus::running), relaxed);  // relaxed: runqgrab's hint only
  pp->oldm.store(mp, relaxed);  // go1.26 (2263d4aabd): procresize hands pp back to this M
}

// Go: releasep. The M holding the P.
P* releasep(M* mp) {
  P* pp = mp->p.load(relaxed);
  RQ_CHECK(B,
           pp != nullptr && pp->owner() == mp && pp->status.load(relaxed) == st(pstatus::running),
           "releasep: invalid p state", "m", mp->id);
  pp->m.store(nullptr, relaxed);
  mp->p.store(nullptr, relaxed);
  pp->status.store(st(pstatus::idle),
                   relaxed);  // the hand-over is published by sched.lock or the note
  return pp;
}

void env::acquirep(M* mp, P* pp) { stress::acquirep(mp, pp); }
P* env::releasep(M* mp) { return stress::releasep(mp); }
core_p& env::owner(P* pp) { return stress::owner(pp); }

// --- idle P and M lists (the protocol's lock and sched.lock held: the
// both& argument): protocol.hpp's pidleput, pidleget, mput, mget ---

using both = both_locked<>;
void pidleput(both& l, P* pp) { proto::pidleput(l.protocol(), pp); }
P* pidleget(both& l) { return proto::pidleget(l.protocol()); }
void mput(both& l, M* mp) { proto::mput(l.protocol(), mp); }
M* mget(both& l) { return proto::mget(l.protocol()); }

// The global queue's length. sched.lock held (go125's queue is under it;
// a queue of its own takes its own lock).
std::int32_t global_size(locked& l) {
  if constexpr (own_queue) return S::globrunqsize(the_sched->queues());
  else return l.runq().size();
}

// sched.lock must be held. Go: "sched.stopwait--; if sched.stopwait == 0 {
// notewakeup(&sched.stopnote) }"
void stopwait_dec(locked&) {
  if (--the_sched->stopwait == 0) {
    the_sched->stopnote.fetch_add(
        1, release);  // release: pairs with the stopper's acquire load of the generation
    the_sched->stopnote.notify_all();
  }
}

// --- parking (Go: notes; futex-style waits on an atomic) ---

// Go: notewakeup(&mp.park). Any thread, after giving mp its nextp.
void notewakeup(M* mp) { env::notewakeup(mp); }

// Go: mPark (notesleep + noteclear). The M itself.
void mPark(M* mp) {
  mp->state.store(mstate::parked, relaxed);
  mp->park.sleep([] { return false; });
  mp->park.clear();  // the next wakeup comes after mput under sched.lock
}

void mstart(M* mp);

// Go: checkdead, which Go's mput runs. Both locks held. With every M idle
// (none runs, none is in a syscall) nothing but the driver's next round can
// run a G: a queued G is stranded (Go: "checkdead: runnable g"), and Gs
// alive with none queued wait for good (Go: "all goroutines are asleep -
// deadlock!"). Skipped while the driver injects a round's main G (not an
// M: its wakeup follows) and at shutdown. Returns why the run fails ("" if
// it does not): each G and where it sits; the caller fails it at once (exit
// 1), no watchdog wait.
std::string checkdead(both& l) {
  auto& s = *the_sched;
  if (s.injecting || s.shutdown.load(relaxed)) return "";  // relaxed: set under this lock
  protocol_counts c = proto::observe();
  std::int32_t run = s.mcount.load(relaxed) - c.idle_ms;  // Go: mcount() - sched.nmidle - ...
  if (run > 0) return "";
  if (run < 0)
    return "checkdead: inconsistent counts: " + std::to_string(c.idle_ms) + " idle Ms of " +
           std::to_string(s.mcount.load(relaxed));
  if (std::string at = where_gs(&l.core); !at.empty())
    return "checkdead: runnable g: every M is idle (" + std::to_string(c.idle_ps) +
           " Ps idle, " + std::to_string(c.spinning) + " spinning) while " + at;
  std::uint64_t alive = s.ngcreated.load(relaxed) - s.ngdone.load(acquire);
  if (std::int64_t parked = s.nwaiting.load(relaxed); alive > static_cast<std::uint64_t>(parked))
    return "checkdead: " + std::to_string(alive - static_cast<std::uint64_t>(parked)) +
           " Gs lost: runnable (" + std::to_string(alive) + " alive, " + std::to_string(parked) +
           " parked) yet in no queue and on no M, every M idle (a queue dropped them?)";
  if (alive != 0)
    return "all goroutines are asleep - deadlock! (" + std::to_string(alive) +
           " Gs alive, all parked, none queued, every M idle)";
  return "";
}


// Go: newm. Any thread: a new M that will run pp (spinning if the caller
// incremented nmspinning for it; Go: mspinning).
void env::newm(P* pp, bool spinning) {
  M* mp = new M;
  mp->nextp.store(pp, relaxed);         // published by the thread start
  mp->spinning.store(spinning, relaxed);
  int n = the_sched->mcount.fetch_add(1, relaxed) + 1;
  RQ_CHECK(B, n < 10000, "newm: too many Ms", "mcount", n);
  mp->id = n - 1;
  mp->fastrand = the_sched->seed * 0x9e3779b97f4a7c15ull + static_cast<std::uint64_t>(mp->id);
  mp->thread = std::thread(mstart, mp);
  auto l = lock_sched();
  the_sched->allm.push_back(mp);
}

// Go: stopm. The M itself, holding no P. Parks until startm hands it a P;
// false when woken for shutdown.
bool stopm(M* mp) {
  RQ_CHECK(B, mp->p.load(relaxed) == nullptr, "stopm holding p", "m", mp->id);
  RQ_CHECK(B, !mp->spinning.load(relaxed), "stopm spinning", "m", mp->id);
  std::string dead;
  {
    both l;
    if (the_sched->shutdown.load(relaxed)) return false;  // relaxed: set under this lock
    mput(l, mp);
    dead = checkdead(l);
  }
  if (!dead.empty()) fail_run(dead);  // the dump takes sched.lock
  the_sched->nstopm.fetch_add(1, relaxed);
  mPark(mp);
  P* pp = mp->nextp.exchange(nullptr, relaxed);  // relaxed: published by the note's release/acquire
  if (pp == nullptr) return false;              // woken by runtime_stop
  acquirep(mp, pp);
  return true;
}

// Go: wakep, resetspinning (and startm, which only they and handoffp call):
// the protocol's.
void wakep() { proto::wakep(); }
void resetspinning(M* mp) { proto::resetspinning(mp); }

// Go: handoffp: the protocol's. Any thread, for a P nobody owns (released
// from a syscall, retaken by sysmon).
void handoffp(P* pp) {
  the_sched->nhandoff.fetch_add(1, relaxed);
  proto::handoffp(pp);
}

// handoffp's stop-the-world step (Go: if sched.gcwaiting.Load()). sched.lock held.
bool env::handoff_gcstop(locked& l, P* pp) {
  if (!the_sched->gcwaiting.load(seq_cst)) return false;  // seq_cst: set by stopTheWorld
  pp->status.store(st(pstatus::gcstop), relaxed);
  stopwait_dec(l);
  return true;
}

// A spinning M that stops for the world or exits, its P released, drops
// its spinning count through the protocol (dropspinning with no Ps to
// recheck). Go's gcstopm just drops nmspinning ("startTheWorld will unpark
// threads as necessary"); the world has no other way to the count. No P is
// idle while the world stops (stopTheWorld took them) and no work is left
// at exit, so the recheck acquires none.
void dropspinning_stopping(M* mp) {
  auto r = proto::dropspinning(mp, std::span<core_p* const>{});
  RQ_CHECK(B, r.gp == nullptr && r.pp == nullptr, "a stopping M's spinning drop acquired a P", "m",
           mp->id);
}

// Go: gcstopm. The M itself, holding a P, when the world is stopping.
bool gcstopm(M* mp) {
  RQ_CHECK(B, the_sched->gcwaiting.load(seq_cst), "gcstopm: not waiting for gc");
  P* pp = releasep(mp);
  if (mp->spinning.load(relaxed)) dropspinning_stopping(mp);
  {
    auto l = lock_sched();
    pp->status.store(st(pstatus::gcstop), relaxed);
    stopwait_dec(l);
  }
  return stopm(mp);
}

// Go: mp.snapshotAllp. Any M: the Ps that exist now (Ps are never freed
// during a run, so the pointers stay valid after a procresize).
std::int32_t snapshotAllp(std::array<core_p*, max_procs>& snap) {
  std::int32_t n = the_sched->gomaxprocs.load(
      acquire);  // acquire: pairs with procresize's release, so allp[0..n) are set
  for (std::int32_t i = 0; i < n; i++)
    snap[i] = the_sched->allp[i].load(acquire);  // acquire: a new P's fields
  return n;
}

// Leaves the run at shutdown: the M gives its P back and exits.
void dropP_for_exit(M* mp) {
  P* pp = releasep(mp);
  {
    both l;
    pidleput(l, pp);
  }
  if (mp->spinning.load(relaxed)) dropspinning_stopping(mp);
}

// A workload's hold (hold_next_searcher): the spinning M whose steal just
// found nothing waits here, before it gives up, while the workload submits.
void hold_searcher() {
  auto& h = the_sched->hold;
  int armed = 1;
  // acq_rel: the hold's claim; the wait's acquire pairs with release_searcher
  if (h.load(relaxed) != 1 || !h.compare_exchange_strong(armed, 2, std::memory_order_acq_rel))
    return;
  while (h.load(acquire) == 2) std::this_thread::yield();
}

// Go: findRunnable (queues only: no timers, netpoll, GC). The M itself,
// holding a P. Blocks (stopm) until there is work; {nullptr} only at shutdown.
next_g findRunnable(M* mp) {
  auto& s = *the_sched;
  std::array<core_p*, max_procs> snap;
top:
  P* pp = mp->p.load(relaxed);
  // "A spinning M's P has an empty local queue" (Go: schedule's throw; here
  // at findRunnable's top, which every spinning M passes through).
  RQ_CHECK(B, !mp->spinning.load(relaxed) || S::runqempty(*pp),
           "schedule: spinning with local work", "p", pp->id);
  if (s.shutdown.load(acquire)) {  // acquire: pairs with runtime_stop's store
    dropP_for_exit(mp);
    return {};
  }
  if (s.gcwaiting.load(seq_cst)) {
    if (!gcstopm(mp)) return {};
    goto top;
  }
  mp->state.store(mstate::findrunnable, relaxed);
  // schedtick%61 fairness, local runq, global batch (sched_policy.hpp).
  if (auto f = runqcheck::findRunnable_queues<S>(s.queues(), owner(pp), pp->schedtick);
      f.gp != nullptr) {
    if (f.from != found_in::local) s.nglobal.fetch_add(1, relaxed);
    return {asG(f.gp), f.inheritTime};
  }
  // Spinning Ms: steal work from other Ps. Limit the number of spinning Ms
  // (the protocol's spin_gate; Go: to half the number of busy Ps).
  std::int32_t procs = s.gomaxprocs.load(relaxed);
  if (proto::spin_gate(mp, procs)) {
    mp->state.store(mstate::spinning, relaxed);
    std::int32_t n = snapshotAllp(snap);
    auto f = runqcheck::stealWork<S>(
        owner(pp), std::span<core_p* const>(snap.data(), static_cast<std::size_t>(n)), s.stealOrder,
        [mp] { return cheaprand(mp); },
        [&snap](std::uint32_t i) { return static_cast<P*>(snap[i])->idle.load(relaxed); });
    if (f.gp != nullptr) {
      s.nsteal.fetch_add(1, relaxed);
      return {asG(f.gp), false};
    }
    hold_searcher();  // a workload's hold (hold_next_searcher), else nothing
  }
  // We have nothing to do: return P and block.
  std::int32_t n = snapshotAllp(snap);
  runqcheck::globrunq_batch<B> r;
  auto stopping = [&s] { return s.gcwaiting.load(seq_cst); };  // seq_cst: as at findRunnable's top
  switch (proto::stop_or_spin(mp, pp, r, stopping)) {
    case proto::idle_step::again: goto top;
    case proto::idle_step::global: return {asG(r.gp), false};
    case proto::idle_step::released: break;
  }
  // Delicate dance: the M goes from spinning to non-spinning, concurrently
  // with submissions (protocol.hpp: drop nmspinning, #StoreLoad, recheck
  // every source; needspinning covers work found with no P idle).
  if (mp->spinning.load(relaxed)) {
    auto all = std::span<core_p* const>(snap.data(), static_cast<std::size_t>(n));
    if (auto r = proto::dropspinning(mp, all); r.gp != nullptr) return {asG(r.gp), false};
    else if (r.pp != nullptr) goto top;
  }
  if (!stopm(mp)) return {};
  goto top;
}

// --- fibers: execute, mcall and the g0 continuations ---

// Go: mcall. The running G: switch to this M's g0, which runs fn(mp, gp).
// Returns when some M executes the G again.
void mcall(mcall_fn fn) {
  getm()->fn = fn;
  switch_to_g0();
}

void dropg(M* mp, G* gp) {  // Go: dropg. g0 of the M that ran gp.
  mp->curg.store(nullptr, relaxed);
  gp->m.store(nullptr, relaxed);
}

// Go: execute + gogo. g0 of mp, holding a P: run gp until it mcalls, then
// run the mcall function.
next_g execute(M* mp, G* gp, bool inheritTime) {
  P* pp = mp->p.load(relaxed);
  mp->curg.store(gp, release);  // release: runqgrab's acquire load of curg reads the G's status
  gp->m.store(mp, relaxed);
  casgstatus(gp, gstatus::runnable, gstatus::running);
  if (!inheritTime) pp->schedtick++;
  the_sched->nexecute.fetch_add(1, relaxed);
  mp->state.store(mstate::running, relaxed);
  gogo(mp, gp);  // back on g0: gp's context is saved before fn can publish gp
  mcall_fn fn = mp->fn;
  mp->fn = nullptr;
  return fn(mp, gp);
}

// Go: gfput / gfget. The owner of pp. A dead G goes to pp's free list; half
// of a long list moves to the global one (sched.gFree, its own lock).
void gfput(P* pp, G* gp) {
  pp->gfree.push_back(gp);
  if (pp->gfree.size() >= 64) {
    std::lock_guard l(the_sched->gfree_lock);
    the_sched->gfree.insert(the_sched->gfree.end(), pp->gfree.end() - 32, pp->gfree.end());
    pp->gfree.resize(pp->gfree.size() - 32);
  }
}
G* gfget(P* pp) {
  if (pp->gfree.empty()) {
    std::lock_guard l(the_sched->gfree_lock);
    auto& g = the_sched->gfree;
    std::size_t k = std::min<std::size_t>(32, g.size());
    pp->gfree.insert(pp->gfree.end(), g.end() - static_cast<std::ptrdiff_t>(k), g.end());
    g.resize(g.size() - k);
  }
  if (pp->gfree.empty()) {
    G* gp = new G;
    gp->atomicstatus.store(st(gstatus::dead), relaxed);
    return gp;
  }
  G* gp = pp->gfree.back();
  pp->gfree.pop_back();
  return gp;
}

// Go: goexit0 + gdestroy. g0, after gp's function returned (its stack is
// already back in the pool).
next_g goexit0(M* mp, G* gp) {
  casgstatus(gp, gstatus::running, gstatus::dead);
  dropg(mp, gp);
  tsan_fiber_put(
      gp->tsan_fiber);  // the G's fiber ended on this g0; TSan's fiber goes back to the pool
  gp->tsan_fiber = nullptr;
  the_sched->ngdone.fetch_add(1,
                              release);  // release: the driver's acquire sees everything the G did
  gfput(mp->p.load(relaxed), gp);
  return {};
}

// Go: park_m. g0, after gopark's mcall.
next_g park_m(M* mp, G* gp) {
  casgstatus(gp, gstatus::running, gstatus::waiting);
  the_sched->nwaiting.fetch_add(1, relaxed);
  dropg(mp, gp);
  if (auto* f = mp->waitunlockf; f != nullptr) {
    void* lk = mp->waitlock;
    mp->waitunlockf = nullptr;
    mp->waitlock = nullptr;
    if (!f(gp, lk)) {  // the G stays: as if readied by itself
      gp->nreadies.fetch_add(1, relaxed);
      the_sched->nwaiting.fetch_sub(1, relaxed);
      casgstatus(gp, gstatus::waiting, gstatus::runnable);
      return {gp, true};
    }
  }
  return {};
}

// Go: goschedImpl. g0 of the M that ran gp, holding a P.
next_g goschedImpl(M* mp, G* gp, bool preempted) {
  P* pp = mp->p.load(relaxed);
  casgstatus(gp, gstatus::running, gstatus::runnable);
  dropg(mp, gp);
  if (preempted && the_sched->gcwaiting.load(seq_cst)) {
    // go1.26 (4ebf295b0b): preempted for a stop-the-world, the G stays on
    // its P's runnext so it can run right after it.
    S::runqput(owner(pp), gp, true);
    wakep();  // Go: if mainStarted { wakep() }; no #StoreLoad: the world is stopping
  } else {
    proto::gosched_globrunqput(gp);  // globrunqput under sched.lock, then wakep
  }
  return {};
}
next_g gosched_m(M* mp, G* gp) { return goschedImpl(mp, gp, false); }    // Go: gosched_m. g0.
next_g gopreempt_m(M* mp, G* gp) { return goschedImpl(mp, gp, true); }  // Go: gopreempt_m. g0.

// Go: exitsyscallNoP (go1.26, 7244e9221f: was exitsyscall0; the G is
// already _Grunning). g0 of an M without a P: exitsyscall found no P.
template <class PS = proto>
next_g exitsyscallNoP(M* mp, G* gp) {
  casgstatus(gp, gstatus::running, gstatus::runnable);
  dropg(mp, gp);
  P* pp = nullptr;
  // an idle P, or gp on the global queue
  if constexpr (stress_syscalls<PS>) pp = PS::exitsyscallNoP_pidle(gp);
  if (pp != nullptr) {
    acquirep(mp, pp);
    return {gp, false};
  }
  stopm(mp);
  return {};
}

// Go: schedule (the loop around it: Go's never returns). g0 of mp.
void schedule_loop(M* mp) {
  next_g nx;
  for (;;) {
    if (nx.gp == nullptr) {
      if (mp->p.load(relaxed) == nullptr) return;  // stopm was woken for shutdown
      nx = findRunnable(mp);
      if (nx.gp == nullptr) return;  // shutdown
      // This thread is going to run a goroutine and is not spinning anymore,
      // so if it was marked as spinning we need to reset it now and
      // potentially start a new spinning M.
      if (mp->spinning.load(relaxed)) resetspinning(mp);
    }
    nx = execute(mp, nx.gp, nx.inheritTime);
  }
}

// Go: mstart. The new M's thread.
void mstart(M* mp) {
  tls_m = mp;
  mp->tsan_g0 = tsan_current_fiber();
  P* pp = mp->nextp.exchange(nullptr, relaxed);  // published by thread creation
  acquirep(mp, pp);
  schedule_loop(mp);
  mp->state.store(mstate::exited, relaxed);
}

// --- syscalls (go1.26, Go commit 7244e9221f: no _Psyscall; a P whose G is
// in a syscall stays _Prunning and wired to its M, and the G's _Gsyscall
// status, locked with the _Gscan bit, decides who may take the P) ---

// Go: gcstopP. The stopper, under sched.lock: unwire the syscalling
// thread's P into _Pgcstop (t: the protocol's syscallingThread; not const:
// has_protocol_syscall_thief calls releaseP on a plain reference).
template <class T>
void gcstopP(locked&, T& t) {
  t.releaseP(pstatus::gcstop);
  the_sched->stopwait--;
}

// Go: retake, the syscall part (go1.27; protocol.hpp's retake_syscall for
// each _Prunning P). The sysmon thread.
template <class PS = proto>
void retake() {
  auto& s = *the_sched;
  std::int32_t n = s.gomaxprocs.load(acquire);
  for (std::int32_t i = 0; i < n; i++) {
    P* pp = s.allp[i].load(acquire);
    if (pp->status.load(relaxed) != st(pstatus::running)) continue;
    if constexpr (!stress_syscalls<PS>) continue;  // no sysmon then (runtime_start)
    else if (PS::retake_syscall(pp)) {  // taken and handed off (the protocol's handoffp)
      s.nretake.fetch_add(1, relaxed);
      s.nhandoff.fetch_add(1, relaxed);
    }
  }
}

void sysmon() {
  while (!the_sched->shutdown.load(acquire)) {
    ::usleep(1000);  // Go: 20µs growing to 10ms; a fixed 1ms tick here
    retake<>();
  }
}

// --- stop the world and procresize ---

// Go: preemptall + preemptone, reduced: ask the G running on every other
// _Prunning P to stop at its next preemption point (checkpreempt). Best
// effort, as in Go. The stopper, under sched.lock.
void preemptall(M* self) {
  auto& s = *the_sched;
  for (std::int32_t i = 0; i < s.gomaxprocs.load(relaxed); i++) {
    P* pp = s.allp[i].load(relaxed);
    if (pp->status.load(relaxed) != st(pstatus::running)) continue;
    auto* mp = static_cast<M*>(pp->m.load(acquire));  // acquire: pairs with acquirep's release
    if (mp == nullptr || mp == self) continue;
    if (auto* gp = static_cast<G*>(mp->curg.load(acquire));
        gp != nullptr) {                 // acquire: execute's release
      gp->preempt.store(true, relaxed);  // relaxed: a request; the G acts on it at its next check
    }
  }
}

// stopTheWorld's loop over the Ps in syscalls (none without the hooks).
template <class PS = proto>
void stop_syscalling(locked& l) {
  if constexpr (stress_syscalls<PS>) {
    for (std::int32_t i = 0; i < the_sched->gomaxprocs.load(relaxed); i++) {
      P* pp = the_sched->allp[i].load(relaxed);
      if (typename PS::syscallingThread t; PS::setBlockOnExitSyscall(pp, t)) {
        gcstopP(l, t);
        t.resume();
      }
    }
  }
}

// Go: stopTheWorldWithSema. A G (with its P): stop every other P.
void stopTheWorld(M* mp) {
  auto& s = *the_sched;
  G* gp = mp->curG();
  casgstatus(gp, gstatus::running, gstatus::waiting);  // Go: casGToWaitingForSuspendG
  {
    both l;
    s.stopwait = s.gomaxprocs.load(relaxed);
    s.gcwaiting.store(true, seq_cst);  // seq_cst: read by every M at findRunnable's top
    preemptall(mp);
    P* me = mp->p.load(relaxed);
    me->status.store(st(pstatus::gcstop), relaxed);
    s.stopwait--;
    // stop current P and those in syscalls (go1.26, 7244e9221f: a P whose
    // G is in a syscall is found through the G's status, not _Psyscall)
    stop_syscalling<>(l.core);
    // stop idle P's
    while (P* pp = pidleget(l)) {
      pp->status.store(st(pstatus::gcstop), relaxed);
      s.stopwait--;
    }
  }
  // wait for remaining P's to stop voluntarily
  for (;;) {
    std::uint32_t gen = s.stopnote.load(acquire);  // acquire: pairs with stopwait_dec's release
    {
      auto l = lock_sched();
      RQ_CHECK(B, s.stopwait >= 0, "stopTheWorld: negative stopwait", "stopwait", s.stopwait);
      if (s.stopwait == 0) break;
    }
    s.stopnote.wait(gen, acquire);
  }
  casgstatus(gp, gstatus::waiting, gstatus::running);
}

// The run-queue part of (*p).destroy (the core's destroy) plus the G free
// list. Both locks held, world stopped. A protocol with its own lock gets
// destroy_runq with that lock alone, as the model checkers' worlds call it:
// it takes sched.lock itself to reach the queue's global state (S::destroy
// does), which would self-deadlock under ours.
template <class PS = proto>
void destroyP(both& l, P* pp) {
  if constexpr (has_protocol_lock<PS>) {
    the_sched->core.lock.unlock();  // the world is stopped; its token l.core relocks below
    PS::destroy_runq(l.protocol(), pp);
    the_sched->core.lock.lock(runqcheck::loc::current());
  } else {
    PS::destroy_runq(l.protocol(), pp);  // runnext and ring to the global head (protocol.hpp)
  }
  {
    std::lock_guard g(the_sched->gfree_lock);
    the_sched->gfree.insert(the_sched->gfree.end(), pp->gfree.begin(), pp->gfree.end());
  }
  pp->gfree.clear();
  pp->idle.store(true, relaxed);
  pp->status.store(st(pstatus::dead), relaxed);
}

// Go: procresize. Both locks held, world stopped, by the G that stopped it.
// Returns the Ps with local work (Go's runnablePs, linked through P::link),
// for startTheWorld.
template <class PS = proto>
P* procresize(both& l, std::int32_t nprocs, M* mp) {
  auto& s = *the_sched;
  std::int32_t old = s.gomaxprocs.load(relaxed);
  s.nprocresize.fetch_add(1, relaxed);
  // initialize new P's
  for (std::int32_t i = old; i < nprocs; i++) {
    P* pp = s.allp[i].load(relaxed);
    if (pp == nullptr) {
      pp = new P(s.queues(), i);
      s.allp[i].store(
          pp, release);  // release: a P's fields before its pointer (snapshotAllp's acquire)
    }
    pp->status.store(st(pstatus::gcstop), relaxed);
  }
  // the current P: keep it if it survives, else move to allp[0]
  P* cur = mp->p.load(relaxed);
  if (cur->id < nprocs) {
    cur->status.store(st(pstatus::running), relaxed);
  } else {
    cur->m.store(nullptr, relaxed);
    mp->p.store(nullptr, relaxed);
    P* p0 = s.allp[0].load(relaxed);
    p0->m.store(nullptr, relaxed);
    p0->status.store(st(pstatus::idle), relaxed);
    acquirep(mp, p0);
  }
  // release resources from unused P's
  for (std::int32_t i = nprocs; i < old; i++) destroyP<PS>(l, s.allp[i].load(relaxed));
  if constexpr (!own_queue) l.core.set_gomaxprocs(nprocs);  // else after the locks (gomaxprocs_of)
  s.stealOrder.reset(static_cast<std::uint32_t>(nprocs));
  s.gomaxprocs.store(nprocs, release);  // release: pairs with snapshotAllp
  // go1.26 (2263d4aabd): a runnable P goes back to the M it last ran on
  // if that M is idle (protocol.hpp); allp[0..nprocs) as the stress P type.
  std::array<P*, max_procs> ps{};
  for (std::int32_t i = 0; i < nprocs; i++) ps[i] = s.allp[i].load(relaxed);
  std::span<P* const> live(ps.data(), static_cast<std::size_t>(nprocs));
  return PS::procresize_runnable(l.protocol(), live, mp->p.load(relaxed));
}

}  // namespace

// The body of every G's fiber (called from fiber.cpp's entry). On the G's stack.
void gentry(G* gp) {
  {
    std::function<void()> fn = std::move(gp->fn);
    gp->fn = nullptr;
    fn();
  }
  getm()->fn = goexit0;  // Go: goexit1 -> mcall(goexit0); the fiber then ends
}

schedt& sched() { return *the_sched; }

[[gnu::noipa]] M* getm() {
  return tls_m;
}  // noipa: never cache the TLS address across a fiber switch
G* getg() { return getm()->curG(); }

void newproc(std::function<void()> fn) {
  auto& s = *the_sched;
  M* mp = getm();
  P* pp = mp->p.load(relaxed);
  G* newg = gfget(pp);
  newg->goid = s.goidgen.fetch_add(1, relaxed) + 1;
  newg->fn = std::move(fn);
  newg->nparks = 0;
  newg->nreadies.store(0, relaxed);
  newg->preempt.store(false, relaxed);  // a stale request to a G that ended
  newg->rng = s.seed * 0x2545f4914f6cdd1dull + newg->goid;
  casgstatus(newg, gstatus::dead, gstatus::runnable);
  s.ngcreated.fetch_add(1, relaxed);
  proto::submit(pp, newg, true);  // runqput(pp, newg, true); wakep()
}

void gosched() { mcall(gosched_m); }

void checkpreempt() {
  G* gp = getg();
  if (!gp->preempt.load(relaxed)) return;
  gp->preempt.store(false, relaxed);
  if (the_sched->gcwaiting.load(seq_cst)) mcall(gopreempt_m);  // Go: newstack -> gopreempt_m
}

void gopark(bool (*unlockf)(G*, void*), void* lock) {
  M* mp = getm();
  G* gp = mp->curG();
  gp->nparks++;
  mp->waitunlockf = unlockf;
  mp->waitlock = lock;
  mcall(park_m);
  // Each ready resumes exactly once: as many readies as parks.
  RQ_CHECK(B, gp->nreadies.load(relaxed) == gp->nparks,
           "gopark: resumed without exactly one goready", "goid", gp->goid, "parks", gp->nparks,
           "readies", gp->nreadies.load(relaxed));
}

void goready(G* gp) {
  M* mp = getm();
  P* pp = mp->p.load(relaxed);
  casgstatus(gp, gstatus::waiting, gstatus::runnable);  // Go: "bad g->status in ready"
  gp->nreadies.fetch_add(1, relaxed);
  the_sched->nwaiting.fetch_sub(1, relaxed);
  the_sched->nready.fetch_add(1, relaxed);
  proto::submit(pp, gp, true);  // runqput(pp, gp, next=true); wakep()
}

namespace {
// Go: exitsyscallTryGetP (the protocol's; none without the syscall hooks).
template <class PS = proto>
P* exitsyscallTryGetP(P* oldp) {
  if constexpr (stress_syscalls<PS>) return PS::exitsyscallTryGetP(oldp);
  else return nullptr;
}

// Go: entersyscallHandleGCWait. The syscalling M, before its G enters
// _Gsyscall: a stop-the-world is pending, so give the P away now.
void entersyscallHandleGCWait(M* mp) {
  auto l = lock_sched();
  if (the_sched->stopwait > 0) {
    P* pp = mp->p.load(relaxed);
    pp->m.store(nullptr, relaxed);
    mp->p.store(nullptr, relaxed);
    pp->status.store(st(pstatus::gcstop), relaxed);
    pp->syscalltick.fetch_add(1, relaxed);
    stopwait_dec(l);
  }
}
}  // namespace

// Go: reentersyscall (go1.27). The M keeps its P, which stays _Prunning;
// from the casgstatus on, sysmon, stopTheWorld or another M's exitsyscall
// may take the P (setBlockOnExitSyscall).
void entersyscall() {
  RQ_CHECK(B, with_syscalls, "entersyscall: the protocol has no syscall hooks");
  M* mp = getm();
  G* gp = mp->curG();
  mp->oldp = mp->p.load(relaxed);
  mp->state.store(mstate::syscall, relaxed);
  if (the_sched->gcwaiting.load(seq_cst)) entersyscallHandleGCWait(mp);
  // As soon as we switch to _Gsyscall, we are in danger of losing our P.
  casgstatus(gp, gstatus::running, gstatus::syscall);
}

// Go: entersyscallblock (go1.27): hand off the P, then enter _Gsyscall.
void entersyscallblock() {
  RQ_CHECK(B, with_syscalls, "entersyscallblock: the protocol has no syscall hooks");
  M* mp = getm();
  G* gp = mp->curG();
  mp->oldp = nullptr;
  mp->state.store(mstate::syscall, relaxed);
  P* pp = mp->p.load(relaxed);
  pp->syscalltick.fetch_add(1, relaxed);
  handoffp(releasep(mp));  // Go: systemstack(handoffp(releasep()))
  casgstatus(gp, gstatus::running, gstatus::syscall);
}

// Go: exitsyscall (go1.27). Back to _Grunning first (waiting while a thief
// holds the scan bit); then the P is ours if it is still wired to this M.
void exitsyscall() {
  RQ_CHECK(B, with_syscalls, "exitsyscall: the protocol has no syscall hooks");
  M* mp = getm();
  G* gp = mp->curG();
  casgstatus(gp, gstatus::syscall, gstatus::running);  // acquire: a thief's releaseP
  P* oldp = mp->oldp;
  mp->oldp = nullptr;
  P* pp = mp->p.load(relaxed);
  if (pp == nullptr) {
    pp = exitsyscallTryGetP<>(oldp);
    if (pp != nullptr) acquirep(mp, pp);
  }
  if (pp != nullptr) {
    pp->syscalltick.fetch_add(1, relaxed);
    mp->state.store(mstate::running, relaxed);
    return;
  }
  mcall(exitsyscallNoP<>);  // returns when an M executes this G again
  getm()->p.load(relaxed)->syscalltick.fetch_add(1, relaxed);
}

namespace {
// Go: GOMAXPROCS(n): stopTheWorld, procresize, startTheWorld. Needs the
// procresize hooks (gomaxprocs checks; without them this is empty).
template <class PS = proto>
void gomaxprocs_of(int n) {
  if constexpr (has_protocol_procresize<PS>) {
    std::lock_guard w(worldsema);
    M* mp = getm();
    mp->state.store(mstate::stw, relaxed);
    stopTheWorld(mp);
    P* runnable;
    {
      both l;
      runnable = procresize<PS>(l, n, mp);
      the_sched->gcwaiting.store(false, seq_cst);
    }
    // A queue of its own: its gomaxprocs under its own lock, not under these.
    if constexpr (own_queue && runqcheck::has_set_gomaxprocs<S>)
      S::set_gomaxprocs(the_sched->queues(), n);
    // Go: startTheWorldWithSema: every P with work to the M procresize gave
    // it (go1.26, 2263d4aabd), or a new M (the protocol's); then wakep.
    PS::startTheWorld_runnable(runnable);
    wakep();
    mp->state.store(mstate::running, relaxed);
  }
}
}  // namespace

void gomaxprocs(int n) {
  RQ_CHECK(B, n >= 1 && n <= max_procs, "GOMAXPROCS out of range", "n", n);
  RQ_CHECK(B, with_procresize, "GOMAXPROCS: the protocol has no procresize hooks");
  gomaxprocs_of<>(n);
}

// --- the driver (not an M) ---

void runtime_start(const runtime_config& cfg) {
  RQ_CHECK(B, !cfg.sysmon || with_syscalls, "sysmon: the protocol has no syscall hooks");
  the_sched = new schedt(cfg.procs);  // a queue of its own starts at cfg.procs
  the_state = new typename proto::state;
  auto& s = *the_sched;
  s.protocol_name = proto::name;
  s.observe = [] { return proto::observe(); };
  s.seed = cfg.seed;
  s.sysmon = cfg.sysmon;
  {
    both l;
    for (int i = 0; i < cfg.procs; i++) s.allp[i].store(new P(s.queues(), i), release);
    if constexpr (!own_queue) l.core.set_gomaxprocs(cfg.procs);
    s.gomaxprocs.store(cfg.procs, release);
    s.stealOrder.reset(static_cast<std::uint32_t>(cfg.procs));
    for (int i = cfg.procs - 1; i >= 0; i--) pidleput(l, s.allp[i].load(relaxed));
  }
  watchdog_start(cfg.watchdog_ms);
  if (cfg.sysmon) sysmon_thread = std::thread(sysmon);
}

void run_main(std::function<void()> fn) {
  auto& s = *the_sched;
  auto& done = s.round_done;  // in sched, not on this stack: the G still calls notify after the
                              // driver may return
  done.store(0, relaxed);
  G* gp = new G;
  gp->goid = s.goidgen.fetch_add(1, relaxed) + 1;
  gp->fn = [&fn, &done] {
    fn();
    done.store(1, release);  // release: the round's results, for the driver's acquire
    done.notify_one();
  };
  gp->atomicstatus.store(st(gstatus::runnable), relaxed);
  auto injecting = [&s](bool on) {  // checkdead waits meanwhile: this thread is not an M
    auto l = lock_sched();
    s.injecting = on;
  };
  // Before the G counts as alive: an M's checkdead between the count and the
  // queue would see a G alive on no queue with every M idle.
  injecting(true);
  s.ngcreated.fetch_add(1, relaxed);
  watchdog_round(true);
  // Go: injectglist without a P (protocol.hpp): the global queue, then an M
  // for an idle P (or needspinning, if none is idle).
  runqcheck::gQueue<B> q;
  q.pushBack(gp);
  proto::injectglist(nullptr, q);
  injecting(false);
  while (done.load(acquire) == 0) done.wait(0, acquire);
  // The stragglers (a G that sent its last message) finish on their own.
  while (s.ngdone.load(acquire) != s.ngcreated.load(relaxed))
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  watchdog_round(false);
}

namespace {

// Driver, after shutdown: wake every idle M (no nextp: stopm returns false)
// and join all of them, sysmon and the watchdog. Returns the Ms. sysmon goes
// first; after it only an M can start another M (newm), and it publishes the
// new one in allm before it exits, so joining until allm stops growing joins
// every M.
std::vector<M*> stop_threads() {
  auto& s = *the_sched;
  {
    both l;
    s.shutdown.store(true, release);  // release: pairs with findRunnable's and sysmon's acquire
    while (M* mp = mget(l)) notewakeup(mp);
  }
  if (sysmon_thread.joinable()) sysmon_thread.join();
  watchdog_shutdown();  // an M no wakeup reaches would hold the join below forever
  std::vector<M*> ms;
  for (std::size_t joined = 0;;) {
    {
      both l;
      ms = s.allm;
      while (M* mp = mget(l)) notewakeup(mp);  // an M that parked before seeing shutdown
    }
    if (ms.size() == joined) break;
    for (std::size_t i = joined; i < ms.size(); i++) ms[i]->thread.join();
    joined = ms.size();
  }
  watchdog_stop();
  return ms;
}

// Driver, everything stopped: the end-of-run invariants. Prints each
// failure; true if all hold.
bool check_quiescent() {
  auto& s = *the_sched;
  bool ok = true;
  auto fail = [&ok](const char* what, std::uint64_t a, std::uint64_t b) {
    std::fprintf(stderr, "fatal error: %s (%" PRIu64 " vs %" PRIu64 ")\n", what, a, b);
    ok = false;
  };
  std::uint64_t created = s.ngcreated.load(acquire), finished = s.ngdone.load(acquire);
  if (created != finished)
    fail("every G runs to completion exactly once: created vs finished", created, finished);
  {
    both l;
    // The protocol's counts (observe(), under its lock): every M has left.
    protocol_counts c = proto::observe();
    if (c.spinning != 0) fail("the protocol counts spinning Ms after shutdown", c.spinning, 0);
    if (std::int32_t n = global_size(l.core); n != 0)
      fail("global runq not empty after shutdown", static_cast<std::uint64_t>(n), 0);
  }
  std::int32_t n = s.gomaxprocs.load(relaxed);
  for (std::int32_t i = 0; i < n; i++) {
    if (!S::runqempty(*s.allp[i].load(relaxed)))
      fail("a P's runq not empty after shutdown: P", i, 0);
  }
  return ok;
}

}  // namespace

bool runtime_stop() {
  std::vector<M*> ms = stop_threads();
  bool ok = check_quiescent();
  // Free everything: dead Gs are on free lists, Ps and Ms are idle.
  auto& s = *the_sched;
  std::vector<G*> gs = std::move(s.gfree);
  for (auto& a : s.allp) {
    if (P* pp = a.load(relaxed)) {
      gs.insert(gs.end(), pp->gfree.begin(), pp->gfree.end());
      delete pp;
    }
  }
  for (G* gp : gs) delete gp;
  for (M* mp : ms) delete mp;
  delete the_state;
  the_state = nullptr;
  delete the_sched;
  the_sched = nullptr;
  return ok;
}

protocol_info protocol_under_test_info() {
  return {proto::name, with_syscalls, with_procresize, without_syscalls, without_procresize};
}

bool others_idle() {
  both l;
  protocol_counts c = proto::observe();  // under its lock, as the contract asks
  return c.spinning == 0 && c.idle_ms == the_sched->mcount.load(relaxed) - 1;
}

// where_gs's part for one P, named p: add(g, where) for each G in go125's
// runnext and ring; a queue of its own is reached through its functions
// only: "Gs in P0's queue" if it is not empty, with its describe_p line
// where it has the hook.
template <class PP, class Add, class Q = S>
void where_local(PP* pp, const std::string& p, Add& add, std::string& out) {
  if constexpr (own_queue) {
    if (Q::runqempty(*pp)) return;
    out += (out.empty() ? "Gs in " : ", Gs in ") + p + "'s queue";
    if constexpr (runqcheck::has_describe<Q>) out += " (" + Q::describe_p(*pp) + ")";
  } else {
    each_local_g(pp, [&](core_g* g, bool next) {
      if (g != nullptr) add(g, p + (next ? "'s runnext" : "'s ring"));
    });
  }
}
// The same for the global queue (sched.lock held: l).
template <class L, class Add>
void where_global(L& l, Add& add, std::string& out) {
  if constexpr (own_queue) {
    if (std::int32_t n = global_size(l); n != 0)
      out += (out.empty() ? "" : ", ") + std::to_string(n) + " Gs in the global queue";
  } else {
    each_global_g(l, [&](core_g* g) { add(g, "the global queue"); });
  }
}

std::string where_gs(locked* l) {
  auto& s = *the_sched;
  std::string out;
  auto add = [&out](const core_g* g, const std::string& at) {
    out += (out.empty() ? "g" : ", g") + std::to_string(g->goid) + " in " + at;
  };
  for (std::int32_t i = 0, n = s.gomaxprocs.load(acquire); i < n; i++) {
    P* pp = s.allp[i].load(acquire);  // acquire: snapshotAllp's
    bool idle = pp->owner() == nullptr && pp->status.load(relaxed) == st(pstatus::idle);
    std::string p = "P" + std::to_string(i) + (idle ? " (idle)" : "");
    where_local(pp, p, add, out);
  }
  if (l == nullptr) return out;
  where_global(*l, add, out);
  for (M* mp : s.allm) {
    G* g = mp->curG();
    if (g != nullptr && (g->atomicstatus.load(relaxed) & ~runqcheck::gscan) == st(gstatus::syscall))
      add(g, "a syscall on M" + std::to_string(mp->id));
  }
  return out;
}

bool quiescent_others() {
  auto& s = *the_sched;
  std::string why;
  {
    both l;
    protocol_counts c = proto::observe();  // under its lock, as the contract asks
    if (c.spinning != 0 || c.idle_ms != s.mcount.load(relaxed) - 1 || c.idle_ps == 0) return false;
    std::string at = where_gs(&l.core);
    if (at.empty()) return true;
    why = "quiescence: every other M is idle, none spins and " + std::to_string(c.idle_ps) +
          " Ps are idle while " + at + " (a lost wakeup: only this G's M could run it)";
  }
  fail_run(why);
}

void hold_next_searcher() { the_sched->hold.store(1, release); }  // release: the workload's state
bool searcher_held() { return the_sched->hold.load(acquire) == 2; }  // acquire: the claim
void release_searcher() { the_sched->hold.store(0, release); }  // release: the submission
void cancel_hold() { the_sched->hold.store(0, release); }  // a held one is let go too

void judge_round_end() {
  auto& s = *the_sched;
  std::string why;
  watchdog_round(true);  // an M that never parks: the watchdog
  for (;;) {
    {
      both l;
      protocol_counts c = proto::observe();
      std::int32_t ms = s.mcount.load(relaxed);
      if (c.idle_ms == ms) {  // every M on the idle list: nothing runs or is woken
        std::int32_t n = s.gomaxprocs.load(relaxed);
        std::uint64_t created = s.ngcreated.load(relaxed), done = s.ngdone.load(acquire);
        std::int32_t held = 0;  // Ps an M holds (the world's view)
        for (std::int32_t i = 0; i < n; i++)
          if (s.allp[i].load(relaxed)->owner() != nullptr) held++;
        auto counts = [&] {
          return " (spinning=" + std::to_string(c.spinning) + " idle_ps=" +
                 std::to_string(c.idle_ps) + " idle_ms=" + std::to_string(c.idle_ms) +
                 " gomaxprocs=" + std::to_string(n) + " Ms=" + std::to_string(ms) + ")";
        };
        if (std::string at = where_gs(&l.core); !at.empty())
          why = "quiescence: the round is over and every M idle, yet " + at;
        else if (c.spinning != 0)
          why = "quiescence: the protocol counts a spinning M with every M idle" + counts();
        else if (c.idle_ps != n || held != 0)
          why = "quiescence: not every P is idle with every M idle" + counts() + ", " +
                std::to_string(held) + " Ps held by an M";
        else if (created != done)
          why = "quiescence: Gs created vs finished: " + std::to_string(created) + " vs " +
                std::to_string(done);
        break;
      }
    }
    std::this_thread::sleep_for(std::chrono::microseconds(50));  // the Ms park; the watchdog
  }
  if (!why.empty()) fail_run(why);
  watchdog_round(false);
}

std::string stats_line() {
  auto& s = *the_sched;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "stats: gs=%" PRIu64 " executes=%" PRIu64 " steals=%" PRIu64 " global=%" PRIu64
                " wakep=%" PRIu64 " stopm=%" PRIu64 " handoffp=%" PRIu64 " retake=%" PRIu64
                " procresize=%" PRIu64 " ms=%d stack_mapped_mib=%zu",
                s.ngcreated.load(relaxed), s.nexecute.load(relaxed), s.nsteal.load(relaxed),
                s.nglobal.load(relaxed), s.nwakep.load(relaxed), s.nstopm.load(relaxed),
                s.nhandoff.load(relaxed), s.nretake.load(relaxed), s.nprocresize.load(relaxed),
                s.mcount.load(relaxed), stack_bytes_mapped() >> 20);
  return buf;
}

}  // namespace runqcheck::stress
