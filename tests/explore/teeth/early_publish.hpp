// teeth::early_publish — go125 but for runqput's ring path, which publishes the
// tail (a release) before it writes the slot, and the thief's copy, which reads the
// slot plainly, as a stamp design reads a slot after the stamp that publishes it.
// The thief's acquire read a release made before the write it was to publish: the
// race's cause must name that release (runqcheck_fuzz/hand_over.hpp, early_release),
// not leave the hand-over out, nor name an earlier put's release for a slot reused.
#pragma once

#include <runqcheck/go125.hpp>

namespace teeth {

template <class B, std::uint32_t Cap = 256>
struct early_publish : runqcheck::go125<B, Cap> {
  using base = runqcheck::go125<B, Cap>;
  using p = typename base::p;
  using G = typename base::G;
  static constexpr auto acq = std::memory_order::acquire, rel = std::memory_order::release,
                        rlx = std::memory_order::relaxed;
  // The ring path publishes first; runnext and a full ring as go125.
  static void runqput(p& pp, G* gp, bool next) {
    std::uint32_t h = pp.runqhead.load(acq), t = pp.runqtail.load_plain();
    if (next || t - h >= Cap) return base::runqput(pp, gp, next);
    pp.runqtail.store(t + 1, rel);  // the bug: the tail before the slot
    pp.runq[t % Cap].store(gp, rlx);
  }
  static G* runqsteal(p& pp, p& p2, bool stealRunNextG) {
    std::uint32_t t = pp.runqtail.load_plain();
    for (;;) {
      std::uint32_t h = p2.runqhead.load(acq);
      std::uint32_t n = p2.runqtail.load(acq) - h;
      n -= n / 2;
      if (n == 0) return base::runqsteal(pp, p2, stealRunNextG);  // runnext, or nil
      if (n > Cap / 2) continue;
      for (std::uint32_t i = 0; i < n; i++)  // plain: published by the tail's acquire
        pp.runq[(t + i) % Cap].store(p2.runq[(h + i) % Cap].load_plain(), rlx);
      if (!p2.runqhead.compare_exchange_strong(h, h + n, rel, rlx)) continue;
      G* gp = pp.runq[(t + n - 1) % Cap].load(rlx);
      if (n > 1) pp.runqtail.store(t + n - 1, rel);
      return gp;
    }
  }
};

}  // namespace teeth
