// teeth::counters_by_value — go125 whose runq_counters hook loads runqtail only when
// the head it read is even (else reports the ring empty): which loads it makes depends
// on the values read. Run again on the values a deferred steal may read (exec.hpp,
// judge_steal_size), it loads other locations, so those readings are not judged: the
// run says so once (`not applied: steal-size invariant (some readings)`) and passes.
#pragma once

#include <runqcheck/go125.hpp>

namespace teeth {
template <class B, std::uint32_t Cap = 256>
struct counters_by_value : runqcheck::go125<B, Cap> {
  static constexpr const char* name = "counters_by_value";
  static runqcheck::runq_counters runq_counters(runqcheck::p<B, Cap>& pp) {
    constexpr auto rlx = std::memory_order::relaxed;
    std::uint32_t h = pp.runqhead.load(rlx);
    if (h % 2 != 0) return {h, h};  // the hook's own shortcut (a port's choice, not Go's)
    return {h, pp.runqtail.load(rlx)};
  }
};
}  // namespace teeth
