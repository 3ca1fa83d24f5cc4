// lb_port/lb_port.hpp — a deliberately broken port, for docs/porting.md.
//
// The bundled go1.25 port except for runqput, which reads the ring's head
// relaxed instead of Go's LoadAcq (runqput, proc.go). Nothing orders a
// thief's read of a slot before the owner's overwrite of it: the C++ model
// allows the thief to read the new G (load buffering: the thief's slot read
// reads from a write that depends on the thief's own later head CAS). x86 and
// qemu never show it, and Relacy explores no load buffering, so every other
// checker passes; the weak-memory column (weak_memory/<subject>,
// proofs/weak/audit.py --recorded) rejects it with the witness execution.
//
// NOT registered in the default build: it must fail.
#pragma once

#include <atomic>
#include <cstdint>

#include <runqcheck/go125.hpp>

namespace lb {

template <class B, std::uint32_t Cap>
struct lb_port : runqcheck::go125<B, Cap> {
  using base = runqcheck::go125<B, Cap>;
  using p = typename base::p;
  using G = runqcheck::g<B>;
  static constexpr const char* name = "lb-port";

  // The user's runqput (owner P only), Go's runqput step by step.
  static void runqput(p& pp, G* gp, bool next) {
    constexpr auto relaxed = std::memory_order::relaxed;
    constexpr auto release = std::memory_order::release;
    if (next) {
      G* oldnext = pp.runnext.load(relaxed);
      // release: publishes gp to a thief's acquire CAS
      while (!pp.runnext.compare_exchange_strong(oldnext, gp, release, relaxed)) {
      }
      if (oldnext == nullptr) return;
      gp = oldnext;  // kick the old runnext out to the ring
    }
    for (;;) {
      std::uint32_t h = pp.runqhead.load(relaxed);  // THE BUG: Go's LoadAcq (acquire)
      std::uint32_t t = pp.runqtail.load(relaxed);  // own tail
      if (t - h < Cap) {
        pp.runq[t % Cap].store(gp, relaxed);  // published by the release below
        pp.runqtail.store(t + 1, release);    // release: to consumers' acquire of tail
        return;
      }
      if (runqcheck::runqputslow(pp, gp, h, t)) return;
    }
  }
};

}  // namespace lb
