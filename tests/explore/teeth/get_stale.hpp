// teeth::get_stale — go125 whose runqget retries its head CAS with the slot value it
// read before a lost CAS (a user's C port did): a G a thief took is handed out twice.
// The race's cause must say so, at the port's read of that G.
#pragma once

#include <runqcheck/go125.hpp>

namespace teeth {
template <class B, std::uint32_t Cap = 256>
struct get_stale : runqcheck::go125<B, Cap> {
  static runqcheck::runqget_result<B> runqget(runqcheck::p<B, Cap>& pp) {
    constexpr auto acq = std::memory_order::acquire, rlx = std::memory_order::relaxed;
    if (pp.runnext.load(rlx) != nullptr) return runqcheck::go125<B, Cap>::runqget(pp);
    runqcheck::g<B>* seen = nullptr;
    for (std::uint32_t h = pp.runqhead.load(acq);;) {
      if (pp.runqtail.load(rlx) == h) return {nullptr, false};
      runqcheck::g<B>* gp = seen != nullptr ? seen : pp.runq[h % Cap].load(rlx);  // the bug
      seen = gp;
      if (pp.runqhead.compare_exchange_strong(h, h + 1, std::memory_order::release, rlx))
        return {gp, false};
    }
  }
};
}  // namespace teeth
