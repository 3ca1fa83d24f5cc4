// stress/tests/wren_keeps_count.hpp — a bug for the stress scheduler's
// end-of-round check (judge_round_end; cmake/stress.cmake's stress_teeth):
// wren whose giving-up searcher clears its own flag but keeps its count in
// `searchers`. Every round still runs to its end (the M that posts work runs
// it), so only the end state shows it: every M idle, one counted spinning.
#pragma once

#include <wren/sched.hpp>

namespace stress_teeth {

template <class Env>
struct keeps_count_bug : wren::sched<Env> {
  using base = wren::sched<Env>;
  static constexpr const char* name = "wren_keeps_count";
  static typename base::recheck dropspinning(typename base::M* mp,
                                             std::span<typename base::S::p* const> allp) {
    mp->spinning.store(false, base::rx);  // the count is not dropped
    base::fence();
    return base::recheck_all(mp, allp);
  }
};

}  // namespace stress_teeth
