// teeth::drain_keeps_next — go125 whose runqdrain takes runnext only when the ring
// holds a G (a user's C port did): on an empty ring the P does not end empty, and the
// scenario world must name runqdrain, not the runqget that finds the G later.
#pragma once

#include <runqcheck/go125.hpp>

namespace teeth {
template <class B, std::uint32_t Cap = 256>
struct drain_keeps_next : runqcheck::go125<B, Cap> {
  static runqcheck::gQueue<B> runqdrain(runqcheck::p<B, Cap>& pp) {
    constexpr auto rlx = std::memory_order::relaxed;
    if (pp.runqtail.load(rlx) == pp.runqhead.load(rlx)) return {};  // runnext stays: the bug
    return runqcheck::go125<B, Cap>::runqdrain(pp);
  }
};
}  // namespace teeth
