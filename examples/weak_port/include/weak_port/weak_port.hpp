// weak_port/weak_port.hpp — a deliberately broken port, for docs/porting.md.
//
// A user's port of Go's run queue that is the bundled go1.25 port except for
// runqput, which the user wrote themselves and in which the tail publication
// is relaxed instead of Go's StoreRel. Everything else is inherited from
// runqcheck::go125. On x86 (TSO) and under qemu the unit tests pass; the
// Relacy scenarios reject it with a replayable counterexample (a thief reads
// a slot whose write it is not ordered after).
//
// NOT registered in the default build: it must fail. docs/porting.md
// registers it with -DRUNQCHECK_EXTRA_SUBJECTS in a separate build folder.
#pragma once

#include <atomic>
#include <cstdint>

#include <runqcheck/go125.hpp>

namespace weak {

template <class B, std::uint32_t Cap>
struct weak_port : runqcheck::go125<B, Cap> {
  using base = runqcheck::go125<B, Cap>;
  using p = typename base::p;
  using G = runqcheck::g<B>;
  static constexpr const char* name = "weak-port";

  // The user's runqput (owner P only), Go's runqput line by line.
  static void runqput(p& pp, G* gp, bool next) {
    constexpr auto relaxed = std::memory_order::relaxed;
    constexpr auto acquire = std::memory_order::acquire;
    constexpr auto release = std::memory_order::release;
    if (next) {
    retryNext:
      G* oldnext = pp.runnext.load(relaxed);
      if (!pp.runnext.compare_exchange_strong(oldnext, gp, release, relaxed)) goto retryNext;
      if (oldnext == nullptr) return;
      gp = oldnext;  // kick the old runnext out to the ring
    }
  retry:
    std::uint32_t h = pp.runqhead.load(acquire);  // load-acquire, synchronize with consumers
    std::uint32_t t = pp.runqtail.load(relaxed);  // own tail
    if (t - h < Cap) {
      pp.runq[t % Cap].store(gp, relaxed);
      pp.runqtail.store(t + 1, relaxed);  // THE BUG: Go writes StoreRel (release) here
      return;
    }
    if (runqcheck::runqputslow(pp, gp, h, t)) return;
    goto retry;
  }
};

}  // namespace weak
