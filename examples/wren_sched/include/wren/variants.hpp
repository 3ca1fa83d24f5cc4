// wren/variants.hpp — wren's bugs, each a protocol subject that
// relacy_protocol must reject with a replay line (ci/test;
// examples/wren_sched/variants.cmake registers them).
#pragma once

#include "sched.hpp"

namespace wren {

// A lost wakeup on submission: the G is published, nobody is woken.
template <class Env>
struct lost_wakeup_bug : sched<Env> {
  using base = sched<Env>;
  static constexpr const char* name = "wren_lost_wakeup";
  static void submit(typename base::P* pp, typename base::G* gp, bool next) {
    base::S::runqput(Env::owner(pp), gp, next);
  }
};

// A searcher gives up without its recheck: work posted while it searched,
// whose poster saw it searching and woke nobody, waits.
template <class Env>
struct drop_no_recheck_bug : sched<Env> {
  using base = sched<Env>;
  static constexpr const char* name = "wren_drop_no_recheck";
  static typename base::recheck dropspinning(typename base::M* mp,
                                             std::span<typename base::S::p* const>) {
    mp->spinning.store(false, base::rx);
    Env::ws().searchers.fetch_add(-1, base::sc);
    return {};
  }
};

}  // namespace wren
