// teeth::get_next_weak — go125 whose runqget takes runnext by one weak CAS and no
// retry (a port written for x86, where the weak CAS never fails spuriously): on
// LL/SC a spurious failure falls through to an empty ring and runqget returns
// nil while runnext holds a G. Relacy's weak CAS fails spuriously, so the
// catalog's invariants must catch it there (relacy_weak_cas/teeth).
#pragma once

#include <runqcheck/go125.hpp>

namespace teeth {

template <class B, std::uint32_t Cap = 256>
struct get_next_weak : runqcheck::go125<B, Cap> {
  using base = runqcheck::go125<B, Cap>;
  using p = typename base::p;
  using G = typename base::G;
  static runqcheck::runqget_result<B> runqget(p& pp) {
    constexpr auto rlx = std::memory_order::relaxed;
    constexpr auto rel = std::memory_order::release;
    G* next = pp.runnext.load(rlx);
    if (next != nullptr && pp.runnext.compare_exchange_weak(next, nullptr, rel, rlx))
      return {next, true};  // the bug: a spurious failure is taken for a thief's
    for (;;) {
      std::uint32_t h = pp.runqhead.load(std::memory_order::acquire);
      if (pp.runqtail.load(rlx) == h) return {nullptr, false};
      G* gp = pp.runq[h % Cap].load(rlx);
      if (pp.runqhead.compare_exchange_strong(h, h + 1, rel, rlx)) return {gp, false};
    }
  }
};

}  // namespace teeth
