// runqcheck/stress/proc.hpp — the scheduler's functions, named as in
// go1.25 proc.go. The design comment (wakeup protocol, orders) is at the top
// of stress/src/proc.cpp.
//
// Callable from a G (the workload API): newproc, gosched, gopark, goready,
// entersyscall / exitsyscall / entersyscallblock, gomaxprocs (stop the world +
// procresize). Callable from the driver thread (not an M): runtime_start,
// run_main, runtime_stop. Everything else is internal to the scheduler and
// says who may call it in proc.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "runtime.hpp"
#include "sched.hpp"

namespace runqcheck::stress {

// From a G: the calling G, its M.
G* getg();
M* getm();

// Go: newproc. From a G: start fn as a new G, put in runnext of this P, wakep.
void newproc(std::function<void()> fn);
// Go: Gosched. From a G: yield; the G goes to the global queue.
void gosched();
// Go's preemption check at a function prologue, reduced: from a G, if a
// stop-the-world asked this G to stop (preemptall), yield to it (gopreempt_m:
// the G waits in its P's runnext, go1.26).
void checkpreempt();
// Go: gopark. From a G: park; unlockf(gp, lock) runs on g0 after the G is
// off its stack (returning false resumes the G at once).
void gopark(bool (*unlockf)(G*, void*), void* lock);
// Go: goready (ready with next=true). From a G with a P: gp must be waiting.
void goready(G* gp);
// Go: entersyscall / exitsyscall (go1.27: the P stays _Prunning and wired to
// the M; sysmon, stopTheWorld or another exitsyscall may take it from the G in
// _Gsyscall)
// and entersyscallblock (P handed off at once). From a G.
void entersyscall();
void entersyscallblock();
void exitsyscall();
// Go: GOMAXPROCS(n): stopTheWorld, procresize, startTheWorld. From a G.
void gomaxprocs(int n);

// A spin-lock for channels and semaphores (Go: runtime mutex). Held only by
// one G or g0 for a few instructions, and released on the same thread that
// took it (gopark's unlockf runs on g0 of the parking G's M). An atomic, not
// a std::mutex, because TSan treats a G and its g0 as different fibers and a
// mutex taken on one and released on the other would be reported.
class spinlock {
 public:
  void lock() {
    while (f_.exchange(true, std::memory_order_acquire)) {  // acquire: pairs with unlock's release
      while (f_.load(std::memory_order_relaxed)) std::this_thread::yield();
    }
  }
  void unlock() {
    f_.store(false, std::memory_order_release);
  }                                   // release: publishes the critical section
  static bool unlockf(G*, void* l) {  // gopark's unlock function (Go: parkunlock_c)
    static_cast<spinlock*>(l)->unlock();
    return true;
  }

 private:
  std::atomic<bool> f_{false};  // held; exchange-acquire in lock, store-release in unlock
};

// From a G: true when every other M is on the protocol's idle list and none
// spins (observe(), under sched.lock). Then only the caller runs until it
// wakes an M: nothing else can start one (no sysmon, no other M).
bool others_idle();
// From a G that will not yield or submit until it has looked: as
// others_idle(), and then a P idle too; a G queued (a ring, a runnext, the
// global queue) is then stranded, and the run fails at once (exit 1: which
// G, where, the dump, `reproduce:`). True when quiescent with nothing queued.
bool quiescent_others();
// From a G: hold the next spinning M whose steal finds nothing, there
// (findRunnable, before it gives up), until release_searcher(); the
// window between a searcher's last look and its drop. searcher_held():
// one is held now. cancel_hold(): disarm an unused hold. One hold at a time.
void hold_next_searcher();
bool searcher_held();
void release_searcher();
void cancel_hold();
// Where each queued G and each G in a syscall sits ("g7 in P0's runnext,
// g9 in the global queue, g5 in a syscall on M2"), "" if none; l: sched.lock
// held (the global queue is read), or null (not read). Racy reads unless
// every M is idle: for reports.
std::string where_gs(runqcheck::locked_sched<B>* l);

// Prints every P, M, the global queue and the counters to stderr (watchdog,
// failed checks). Reads concurrently with the Ms; values may be in flux.
void dump_sched(const char* why);

}  // namespace runqcheck::stress
