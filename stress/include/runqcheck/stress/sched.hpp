// runqcheck/stress/sched.hpp — the data of the stress scheduler: G, M, P and
// schedt, with Go's names (runtime2.go), built on a queue subject's queues.
//
// A compact M:N scheduler on OS threads that runs the run queues (the go125
// subject on the native backend, or a protocol subject's QUEUE: S below)
// the way proc.go runs them: Gs are Boost.Context fibers, Ms are
// std::threads, Ps own the subject's ring + runnext; the global queue is
// go125's sched.runq (the core's) or the QUEUE's own schedt.
// proc.hpp holds the functions (schedule, findRunnable, wakep, ...).
//
// Who touches what (the rules proc.go states, checked where cheap):
//  - P's ring and runnext: put/get by the owner M only (P::m == the calling
//    M, checked on every owner operation, see owner()); steal/runqempty by any.
//  - sched.lock (core schedt::lock) guards: go125's global runq, pidle,
//    midle, nmidle, stopwait, allm, and P::link (the idle lists: the
//    protocol's own lock instead, if it has one; proc.cpp's both_locked).
//  - Fields read by the watchdog from another thread are atomics even where
//    Go uses plain fields (m.spinning, m.p, m.curg): relaxed, for dumps only.
//
// Rejected designs: one mutex around all scheduler state (hides exactly the
// races this harness exists to find); a G-to-G switch (Go always goes through
// g0; mcall here switches to the M's scheduler context, so a G's context is
// saved before anything can publish it); stackful Gs allocated at newproc
// (1M skynet Gs would each hold a stack: a G gets its stack on first run).
#pragma once

#include <array>
#include <atomic>
#include <concepts>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

#include <boost/context/fiber.hpp>

#include <runqcheck/backend/native.hpp>
#include <runqcheck/go125.hpp>
#include <runqcheck/protocol.hpp>
#include <runqcheck/protocol_subject.hpp>
#include <runqcheck/sched_policy.hpp>
#include <runqcheck/subject.hpp>

#include "runtime.hpp"  // max_procs
#ifdef RUNQCHECK_STRESS_OWN_QUEUE
#include <runqcheck_subject.hpp>  // subject_under_test: the QUEUE (runqcheck_subject_header)
#endif

namespace runqcheck::stress {

using B = ::runqcheck::native;
inline constexpr std::uint32_t runq_cap = 256;  // Go: len(pp.runq)
// The queue subject the scheduler runs: go125, or the QUEUE a protocol
// subject's registration names (cmake/stress.cmake builds every source of
// that subject's binary on it, with RUNQCHECK_STRESS_OWN_QUEUE).
#ifdef RUNQCHECK_STRESS_OWN_QUEUE
using S = ::subject_under_test<B, runq_cap>;
#else
using S = runqcheck::go125<B, runq_cap>;
#endif
// A queue of its own: its global state is not the core's schedt, and the
// scheduler reaches it only through subject.hpp's functions.
inline constexpr bool own_queue = !std::same_as<S::schedt, runqcheck::schedt<B>>;
using core_p = S::p;
using core_g = runqcheck::g<B>;

struct M;
struct P;

// Go: note on futex OSes (lock_futex.go: notesleep, notewakeup, noteclear),
// an M's park: a futex wait. The protocol only wakes it (env::notewakeup);
// other backends' worlds park on core/'s note<B>, a yielding spin.
class futex_note {
 public:
  // notewakeup. Any thread: publishes what it wrote before (nextp, spinning).
  void wakeup() {
    key_.store(1, std::memory_order::release);  // release: pairs with sleep's acquire
    key_.notify_one();  // a wake before the wait is not lost: wait() rechecks the value
  }
  // notesleep. The owner M only; true when woken (always: no harness end here).
  template <class F>
  bool sleep(F&&) {
    while (key_.load(std::memory_order::acquire) == 0) key_.wait(0, std::memory_order::acquire);
    return true;  // acquire (both): pairs with wakeup's release
  }
  // noteclear. The owner M, before it can be woken again (mput under sched.lock).
  void clear() { key_.store(0, std::memory_order::relaxed); }  // next wakeup comes after mput
  std::uint32_t peek() const { return key_.load(std::memory_order::relaxed); }  // dumps

 private:
  std::atomic<std::uint32_t> key_{0};  // 1 = woken
};

// What a G asks its M's g0 to do after mcall (Go: mcall(fn)); returns the G
// to run next without going through findRunnable, or nullptr to schedule.
struct next_g {
  struct G* gp = nullptr;
  bool inheritTime = false;
};
using mcall_fn = next_g (*)(M* mp, struct G* gp);

// Go: type g. The core's g<B> (goid, schedlink) plus the fiber.
struct G : core_g {
  std::function<void()> fn;           // the G's function; reset when it returns
  boost::context::fiber ctx;          // saved context while not running; empty before the first run
  void* tsan_fiber = nullptr;         // TSan's fiber for this G (sanitizer builds only)
  // atomicstatus is core_g's (runqgrab reads it): every transition here is a
  // CAS from the expected state, the exactly-once checks (casgstatus).
  std::atomic<M*> m{nullptr};         // the M running it (dumps only; relaxed)
  std::uint32_t nparks = 0;           // gopark calls; the G itself only
  std::atomic<std::uint32_t> nreadies{
      0};  // goready calls (relaxed: published with the G by runqput)
  std::atomic<bool> preempt{
      false};  // Go: gp.preempt; set by preemptall, cleared by the G (relaxed)
  std::uint64_t rng = 0;              // per-G seeded random state (workloads)
  // Go: sudog, reduced: a channel waiter's element and result.
  void* elem = nullptr;
  bool success = false;
  G* waitlink = nullptr;
};

// Go's pp.status and pp.m: go125's p has them (runqgrab reads them); a
// queue of its own need not, and the P then has its own.
template <class Q>
struct go_p_fields {};
template <class Q>
  requires(!requires(Q& q) {
    q.status;
    q.m;
  })
struct go_p_fields<Q> {
  std::atomic<std::uint32_t> status{static_cast<std::uint32_t>(pstatus::idle)};
  std::atomic<runqcheck::m<B>*> m{nullptr};  // acquirep, releasep (as go125's)
};

// Go: type p, the scheduler part around the queue subject's p.
struct P : core_p, go_p_fields<core_p> {
  P(S::schedt& s, std::int32_t pid) : core_p(s, pid) {}
  std::uint32_t schedtick = 0;  // owner only: incremented on every non-inherited execute
  // owner, or a syscall thief (releaseP), writes; sysmon reads (relaxed: a hint)
  std::atomic<std::uint32_t> syscalltick{0};
  P* link = nullptr;                            // pidle list; sched.lock
  // pp.m is core_p's (runqgrab reads it): written by acquirep/releasep (the
  // owning M), read by owner checks (relaxed: a P is handed over with
  // release/acquire elsewhere). M() gives it as the stress M.
  M* owner() const;
  std::atomic<bool> idle{false};                // Go: idlepMask bit; relaxed hint for stealWork
  std::vector<stress::G*> gfree;  // Go: pp.gFree; owner only (stress::G: core_p::G is the core g)
  std::uint32_t sysmontick = 0;                 // sysmon's last seen syscalltick; sysmon only
  // Go: pp.oldm (go1.26, 2263d4aabd): the M that last acquired pp; relaxed:
  // a hint, procresize takes that M only if it is idle (mgetSpecific).
  std::atomic<M*> oldm{nullptr};
};

// M states for the watchdog dump.
enum class mstate : std::uint8_t {
  idle,
  running,
  findrunnable,
  spinning,
  parked,
  syscall,
  stw,
  exited
};

// Go: type m. curg is the core m's (runqgrab reads it); curG() as a stress G.
struct M : runqcheck::m<B> {
  G* curG() const { return static_cast<G*>(curg.load(std::memory_order::relaxed)); }
  std::int64_t id = 0;
  std::thread thread;
  std::atomic<P*> p{nullptr};          // Go: mp.p; owner M writes, dumps read (relaxed)
  std::atomic<P*> nextp{nullptr};  // Go: mp.nextp; written by startm before notewakeup (published
                                   // by the note's release)
  P* oldp = nullptr;                   // Go: mp.oldp; the P held at entersyscall; this M only
  std::atomic<bool> spinning{
      false};  // Go: mp.spinning; this M (and startm before wakeup); dumps read (relaxed)
  futex_note park;                     // Go: mp.park (notewakeup releases, mPark acquires)
  idle_node<M> idleNode;               // Go: mp.idleNode, the midle list; sched.lock
  boost::context::fiber g0;  // while a G runs on this M: the M's scheduler context (Go: g0)
  void* tsan_g0 = nullptr;             // TSan's fiber of the thread itself
  mcall_fn fn = nullptr;               // set by the G before mcall, run on g0
  bool (*waitunlockf)(G*, void*) = nullptr;  // Go: mp.waitunlockf (gopark)
  void* waitlock = nullptr;                  // Go: mp.waitlock
  std::atomic<mstate> state{mstate::idle};   // dumps only (relaxed)
  std::uint64_t fastrand = 0;                // Go: cheaprand state; this M only
};

inline M* P::owner() const { return static_cast<M*>(m.load(std::memory_order::relaxed)); }

// Go: type schedt, the scheduler part around the core's (lock, runq, gomaxprocs).
// The wakeup part (Go: pidle, midle, nmspinning, ...) is the protocol's own
// state (protocol_subject.hpp's PS::state, proc.cpp's the_state), reached
// only through the protocol's functions; the dump reads observe().
struct schedt {
  // sched.lock (and go125's global queue).
  runqcheck::schedt<B> core{1};
  // The queue's global state: core's for go125, else the queue's own (its
  // functions take its own lock; never under that lock, sched.lock may be held).
  struct no_queue {
    explicit no_queue(std::int32_t) {}
  };
  [[no_unique_address]] std::conditional_t<own_queue, S::schedt, no_queue> own_runq;
  explicit schedt(std::int32_t procs) : own_runq(procs) {}
  template <class Q = S>  // a template: only the branch of this S is instantiated
  typename Q::schedt& queues() {
    if constexpr (own_queue) return own_runq;
    else return core;
  }
  const char* protocol_name = "";             // PS::name
  protocol_counts (*observe)() = nullptr;     // PS::observe(); sched.lock held
  // guarded by core.lock
  std::int32_t stopwait = 0;
  std::vector<M*> allm;
  bool injecting = false;  // the driver injects a round's main G: checkdead waits
  std::atomic<bool> gcwaiting{false};           // Go: sched.gcwaiting (stop the world)
  std::atomic<std::uint32_t> stopnote{0};       // generation, bumped when stopwait reaches 0
  std::atomic<std::int32_t> gomaxprocs{
      0};  // copy of core.gomaxprocs for lock-free reads (Go reads it racily)
  std::array<std::atomic<P*>, max_procs>
      allp{};  // Ps never freed during a run, so a stale read is safe
  runqcheck::randomOrder stealOrder;            // reset under stop-the-world only
  std::atomic<bool> shutdown{
      false};  // driver -> Ms, sysmon: set under sched.lock with release; read acquire
  std::atomic<std::uint32_t> round_done{
      0};  // run_main's main G sets it (release) and notifies the driver
  // A workload's hold of a searcher (hold_next_searcher): 0 none, 1 armed, 2 held.
  // acquire/release: the holder's window against the workload's submission.
  std::atomic<int> hold{0};
  // Go: sched.gFree, under its own lock.
  std::mutex gfree_lock;
  std::vector<G*> gfree;
  // Counters (relaxed; the invariants compare them once the run is quiet).
  // ngdone: release in goexit0, acquire by the driver (run_main, runtime_stop); the rest relaxed.
  std::atomic<std::uint64_t> goidgen{0}, ngcreated{0}, ngdone{0}, nready{0}, nexecute{0}, nsteal{0},
      nglobal{0};
  std::atomic<std::uint64_t> nstopm{0}, nwakep{0}, nhandoff{0}, nretake{0}, nprocresize{0};
  std::atomic<std::int32_t> mcount{0};
  // Gs parked (gopark) and not readied yet: checkdead tells a lost G (alive,
  // not parked, in no queue) from a deadlock. Relaxed: read with every M idle.
  std::atomic<std::int64_t> nwaiting{0};
  // Configuration, fixed before the first M starts.
  std::uint64_t seed = 1;
  bool sysmon = false;
};

// The one scheduler of the process (Go: the global sched); valid between
// runtime_start and runtime_stop.
schedt& sched();

// go125's Gs on P pp for a report (relaxed reads, no lock: a snapshot):
// f(runnext, true) (null where empty), then f(g, false) for each G of its
// ring, head to tail. The dump (watchdog.cpp) and the stranded-G lines
// (proc.cpp) walk it so.
template <class PP, class F>
void each_local_g(PP* pp, F&& f) {
  f(pp->runnext.load(std::memory_order_relaxed), true);
  std::uint32_t h = pp->runqhead.load(std::memory_order_relaxed);
  std::uint32_t t = pp->runqtail.load(std::memory_order_relaxed);
  for (std::uint32_t k = h; k != t && k - h < runq_cap; k++)
    f(pp->runq[k % runq_cap].load(std::memory_order_relaxed), false);
}

// go125's global queue (sched.lock held: l), its first 64 Gs: f(g).
template <class L, class F>
void each_global_g(L& l, F&& f) {
  int k = 0;
  for (auto* g = l.runq().head(); g != nullptr && k < 64; g = g->schedlink.load(), k++) f(g);
}

}  // namespace runqcheck::stress
