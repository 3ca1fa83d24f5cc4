// tests/explore/teeth/handoff_frees_work.hpp — kite (examples/kite_sched)
// with a handoffp that frees its P without looking at the P's queue: the
// catalog's handoffp_with_work must fail it (test
// explore_protocol_teeth/handoff_frees_work); before that scenario every
// handoffp of the catalog met an empty P and the bug passed.
#pragma once

#include <kite/sched.hpp>

namespace teeth {

template <class Env>
struct handoff_frees_work : kite::sched<Env> {
  static constexpr const char* name = "handoff_frees_work";
  // pp to the nest, its queue not looked at (kite's push_free then fails).
  static void handoffp(typename Env::P* pp) {
    auto held = kite::sched<Env>::lock();
    kite::sched<Env>::push_free(pp);
  }
};

}  // namespace teeth
