// Three deliberately hanging ports, the teeth of the watchdog
// (models/watchdog) and of Relacy's livelock/deadlock detection: each is the
// bundled go1.25 port with one operation broken so that it never returns
// (fatal_locked: after its own fatal error).
// Registered only by tests/selftest/hang_port.sh, never by a normal build.
#pragma once

#include <cstdint>
#include <runqcheck/go125.hpp>

namespace hang_port {

// Livelock: runqsteal on a victim whose ring is not empty retries a CAS on
// the victim's head that expects the head one past where it is, so it fails
// for as long as the victim stays put.
template <class B, std::uint32_t Cap>
struct livelock : runqcheck::go125<B, Cap> {
  using base = runqcheck::go125<B, Cap>;
  using p = typename base::p;
  using G = typename base::G;
  static constexpr const char* name = "hang_livelock";

  static G* runqsteal(p& thief, p& victim, bool stealRunNextG) {
    for (;;) {
      std::uint32_t h =
          victim.runqhead.load(std::memory_order::acquire);  // pairs with the owner's CAS
      std::uint32_t t =
          victim.runqtail.load(std::memory_order::acquire);  // pairs with the owner's store
      if (h == t) return base::runqsteal(thief, victim, stealRunNextG);
      std::uint32_t expect = h + 1;  // BUG: should be h
      // acq_rel: as runqgrab's CAS (never succeeds while the victim waits).
      if (victim.runqhead.compare_exchange_strong(expect, h + 1, std::memory_order::acq_rel,
                                                  std::memory_order::relaxed))
        return base::runqsteal(thief, victim, stealRunNextG);
      B::spin_pause();
    }
  }
};

// Deadlock: the port guards its global-queue operations with a lock of its
// own (a flag it spins on; sched.lock is still taken inside), and
// globrunqput and the spill of a full ring take it and never release it, so
// the next global-queue operation or spill, from any thread, waits forever. (A leaked sched.lock
// would not hang: the native backend reports re-locking it from the same thread.)
template <class B, std::uint32_t Cap>
struct deadlock : runqcheck::go125<B, Cap> {
  using base = runqcheck::go125<B, Cap>;
  using p = typename base::p;
  using G = typename base::G;
  static constexpr const char* name = "hang_deadlock";

  struct schedt : runqcheck::schedt<B> {
    using runqcheck::schedt<B>::schedt;
    typename B::template atomic<bool> busy{false};  // the port's own lock
  };
  static schedt& of(p& pp) { return static_cast<schedt&>(*pp.sched); }

  static void acquire(schedt& s) {
    bool expect = false;
    // acquire: pairs with release()'s store (which globrunqput never makes).
    while (!s.busy.compare_exchange_strong(expect, true, std::memory_order::acquire,
                                           std::memory_order::relaxed)) {
      expect = false;
      B::spin_pause();
    }
  }
  static void release(schedt& s) { s.busy.store(false, std::memory_order::release); }

  // BUG (also): the spill to the global queue (runqputslow, ring full)
  // takes the port's lock and keeps it.
  static void runqput(p& pp, G* gp, bool next) {
    auto [h, t] = base::runq_counters(pp);
    if (t - h >= Cap) acquire(of(pp));
    base::runqput(pp, gp, next);
  }
  static void globrunqput(schedt& s, G* gp) {
    acquire(s);  // BUG: never released
    base::globrunqput(s, gp);
  }
  static G* globrunqget(schedt& s) {
    acquire(s);
    G* gp = base::globrunqget(s);
    release(s);
    return gp;
  }
  static std::int32_t globrunqsize(schedt& s) {
    acquire(s);
    std::int32_t n = base::globrunqsize(s);
    release(s);
    return n;
  }
  static G* findRunnable_globrunq(p& pp) {
    acquire(of(pp));
    G* gp = base::findRunnable_globrunq(pp);
    release(of(pp));
    return gp;
  }
  static void destroy(p& pp) {
    acquire(of(pp));
    base::destroy(pp);
    release(of(pp));
  }
};

// A fatal error raised with the port's own lock held: globrunqput takes the
// lock (deadlock's), then fails its check on a non-empty global queue, and
// the throw skips the release, so the next global-queue operation waits
// forever. The checkers must still show the fatal error's own text: the
// watchdog puts an exception that ended the last operation first.
template <class B, std::uint32_t Cap>
struct fatal_locked : deadlock<B, Cap> {
  using base = deadlock<B, Cap>;
  using typename base::schedt;
  using G = typename base::G;
  static constexpr const char* name = "hang_fatal";

  static void runqput(typename base::p& pp, G* gp, bool next) {
    base::base::runqput(pp, gp, next);  // spills without the port's lock
  }
  static void globrunqput(schedt& s, G* gp) {
    base::acquire(s);
    std::int32_t n = base::base::globrunqsize(s);
    RQ_CHECK(B, n == 0, "hang_port: globrunqput onto a non-empty queue", "n", n);  // lock held
    base::base::globrunqput(s, gp);
    base::release(s);
  }
};

}  // namespace hang_port
