// teeth::fence_publish — go125 ordered by fences where Go orders the accesses: the
// owner's runqput publishes a G with a relaxed tail store after a release fence; the
// thief reads the tail relaxed and forgets the acquire fence that should follow. The
// race's cause must name the thief's load (its fence is what is missing), not the
// owner's store, which its fence makes a release (runqcheck_fuzz/hand_over.hpp).
#pragma once

#include <runqcheck/go125.hpp>

namespace teeth {

template <class B, std::uint32_t Cap = 256>
struct fence_publish : runqcheck::go125<B, Cap> {
  using base = runqcheck::go125<B, Cap>;
  using p = typename base::p;
  using G = typename base::G;
  static constexpr auto acq = std::memory_order::acquire, rlx = std::memory_order::relaxed;
  // The ring path with a fence; runnext and a full ring as go125.
  static void runqput(p& pp, G* gp, bool next) {
    std::uint32_t h = pp.runqhead.load(acq), t = pp.runqtail.load_plain();
    if (next || t - h >= Cap) return base::runqput(pp, gp, next);
    pp.runq[t % Cap].store(gp, rlx);
    B::fence(std::memory_order::release);  // the slot before the tail
    pp.runqtail.store(t + 1, rlx);
  }
  static G* runqsteal(p& pp, p& p2, bool stealRunNextG) {
    std::uint32_t t = pp.runqtail.load_plain();
    for (;;) {
      std::uint32_t h = p2.runqhead.load(acq);
      std::uint32_t n = p2.runqtail.load(rlx) - h;  // the bug: no acquire fence after it
      n -= n / 2;
      if (n == 0) return base::runqsteal(pp, p2, stealRunNextG);  // runnext, or nil
      if (n > Cap / 2) continue;
      for (std::uint32_t i = 0; i < n; i++)
        pp.runq[(t + i) % Cap].store(p2.runq[(h + i) % Cap].load(rlx), rlx);
      if (!p2.runqhead.compare_exchange_strong(h, h + n, std::memory_order::release, rlx))
        continue;
      G* gp = pp.runq[(t + n - 1) % Cap].load(rlx);
      if (n > 1) pp.runqtail.store(t + n - 1, std::memory_order::release);
      return gp;
    }
  }
};

}  // namespace teeth
