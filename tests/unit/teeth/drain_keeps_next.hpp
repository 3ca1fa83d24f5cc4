// teeth::drain_keeps_next — go125 whose runqdrain leaves runnext on the P (a
// user's port did): the unit test must fail it with its own message, not crash.
#pragma once

#include <runqcheck/go125.hpp>

namespace teeth {

template <class B, std::uint32_t Cap = 256>
struct drain_keeps_next : runqcheck::go125<B, Cap> {
  using p = typename runqcheck::go125<B, Cap>::p;
  static runqcheck::gQueue<B> runqdrain(p& pp) {
    auto* next = pp.runnext.exchange(nullptr, std::memory_order::relaxed);
    runqcheck::gQueue<B> q = runqcheck::runqdrain(pp);
    pp.runnext.store(next, std::memory_order::relaxed);  // the bug: runnext stays
    return q;
  }
};

}  // namespace teeth
