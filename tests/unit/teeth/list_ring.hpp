// tests/unit/teeth/list_ring.hpp — go125 with its ring replaced by a list
// through g.schedlink (test unit_teeth/list_ring): Go's RunSchedLocalQueueTest
// puts one G i times, which a list cannot hold; the failure must say so.
#pragma once

#include <cstdint>

#include <runqcheck/go125.hpp>

namespace teeth {

template <class B, std::uint32_t Cap>
struct list_ring : runqcheck::go125<B, Cap> {
  using base = runqcheck::go125<B, Cap>;
  static constexpr const char* name = "list_ring";
  struct p : base::p {
    using base::p::p;
    runqcheck::gQueue<B> list;
  };
  static void runqput(p& pp, runqcheck::g<B>* gp, bool) { pp.list.pushBack(gp); }
  static runqcheck::runqget_result<B> runqget(p& pp) {
    return {pp.list.empty() ? nullptr : pp.list.pop(), false};
  }
};

}  // namespace teeth
