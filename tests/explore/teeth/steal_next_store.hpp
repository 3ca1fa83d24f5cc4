// teeth::steal_next_store — go125 whose runqsteal takes runnext by load + store,
// not CAS (a user's port did): owner and thief both run the G. The data race's
// cause must not name a hook's read (runq_counters), which is the checker's.
#pragma once

#include <runqcheck/go125.hpp>

namespace teeth {

template <class B, std::uint32_t Cap = 256>
struct steal_next_store : runqcheck::go125<B, Cap> {
  using base = runqcheck::go125<B, Cap>;
  using p = typename base::p;
  using G = typename base::G;
  static G* runqsteal(p& pp, p& p2, bool stealRunNextG) {
    constexpr auto acq = std::memory_order::acquire;
    if (stealRunNextG && p2.runqhead.load(acq) == p2.runqtail.load(acq)) {
      G* next = p2.runnext.load(acq);
      if (next == nullptr) return nullptr;
      p2.runnext.store(nullptr, std::memory_order::release);  // the bug: no CAS
      return next;
    }
    return runqcheck::runqsteal(pp, p2, stealRunNextG);
  }
};

}  // namespace teeth
