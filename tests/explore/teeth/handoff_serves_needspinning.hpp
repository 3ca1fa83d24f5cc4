// tests/explore/teeth/handoff_serves_needspinning.hpp — the bundled protocol
// with docs/proofs.md's candidate fix of Go's own window handoffp_vs_submit:
// under sched.lock, before pidleput, handoffp serves a pending needspinning
// as findRunnable does. explore_protocol must report that window closed for
// it (test explore_protocol_windows/closed); the bundled protocol, which
// follows Go 1.27, reaches it. Not a port: a subject that differs from Go's.
#pragma once

#include <runqcheck/protocol.hpp>

namespace teeth {

template <class Env>
struct handoff_serves_needspinning : runqcheck::protocol<Env> {
  using base = runqcheck::protocol<Env>;
  using P = typename Env::P;
  static constexpr const char* name = "handoff_serves_needspinning";

  // base::handoffp, its last step changed: a wakep that found no idle P
  // (needspinning) gets pp and a spinning M here, not pidle.
  static void handoffp(P* pp) {
    auto& w = Env::ws();
    if (!Env::S::runqempty(*pp) || Env::S::globrunqsize(Env::core()) != 0) {
      base::startm(pp, false);
      return;
    }
    std::int32_t zero = 0;
    if (w.nmspinning.load(base::seq_cst) + w.npidle.load(base::seq_cst) == 0 &&
        w.nmspinning.compare_exchange_strong(zero, 1, base::seq_cst, base::seq_cst)) {
      w.needspinning.store(0, base::seq_cst);
      base::startm(pp, true);
      return;
    }
    bool spinning = false;  // true: pp serves a wakep's needspinning
    {
      typename base::locked l = runqcheck::lock(Env::core());
      if (Env::handoff_gcstop(l, pp)) return;
      if (l.runq().size() == 0) {
        zero = 0;
        spinning = base::needspinning_set() &&
                   w.nmspinning.compare_exchange_strong(zero, 1, base::seq_cst, base::seq_cst);
        if (!spinning) {
          base::pidleput(l, pp);
          return;
        }
        w.needspinning.store(0, base::seq_cst);
      }
    }
    base::startm(pp, spinning);
  }
};

}  // namespace teeth
