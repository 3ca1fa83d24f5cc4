// teeth::grab_after_cas — go125 whose steal copies the victim's slots after its CAS
// on runqhead (a user's port did): the owner may refill them first. Neither the
// slot's store nor its load is ordered: the race's cause must name the load too.
// teeth::grab_after_relaxed_cas — the same with the claim CAS relaxed (held-out round
// 8's variant 4): the cause still names the load, read after its own claim, not the
// owner's relaxed slot store.
#pragma once

#include <runqcheck/go125.hpp>

namespace teeth {

template <class B, std::uint32_t Cap, std::memory_order Claim>
struct grab_after_claim : runqcheck::go125<B, Cap> {
  using base = runqcheck::go125<B, Cap>;
  using p = typename base::p;
  using G = typename base::G;
  static G* runqsteal(p& pp, p& p2, bool stealRunNextG) {
    constexpr auto acq = std::memory_order::acquire, rlx = std::memory_order::relaxed;
    std::uint32_t t = pp.runqtail.load_plain();
    for (;;) {
      std::uint32_t h = p2.runqhead.load(acq), n = p2.runqtail.load(acq) - h;
      n -= n / 2;
      if (n == 0) return base::runqsteal(pp, p2, stealRunNextG);  // runnext, or nil
      if (n > Cap / 2) continue;
      if (!p2.runqhead.compare_exchange_strong(h, h + n, Claim, rlx)) continue;
      for (std::uint32_t i = 0; i < n; i++)  // the bug: the slots are no longer ours
        pp.runq[(t + i) % Cap].store(p2.runq[(h + i) % Cap].load(rlx), rlx);
      G* gp = pp.runq[(t + n - 1) % Cap].load(rlx);
      if (n > 1) pp.runqtail.store(t + n - 1, std::memory_order::release);
      return gp;
    }
  }
};

template <class B, std::uint32_t Cap = 256>
struct grab_after_cas : grab_after_claim<B, Cap, std::memory_order::release> {};

template <class B, std::uint32_t Cap = 256>
struct grab_after_relaxed_cas : grab_after_claim<B, Cap, std::memory_order::relaxed> {};

}  // namespace teeth
