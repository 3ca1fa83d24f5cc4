// kite/variants.hpp — kite's bug, a protocol subject that the protocol
// columns must reject (examples/kite_sched/variants.cmake registers it;
// ci/test expects its cells).
#pragma once

#include "sched.hpp"

namespace kite {

// stop_or_spin frees its P outside the nest's lock ("the P is ours"): the
// push races with a poster's pidleget under the lock, a data race on the
// nest's stack that Relacy and the exhaustive engine report.
template <class Env>
struct release_unlocked_bug : sched<Env> {
  using base = sched<Env>;
  static constexpr const char* name = "kite_release_unlocked";
  template <class F>
  static typename base::idle_step stop_or_spin(typename base::M* mp, typename base::P* pp,
                                               runqcheck::globrunq_batch<typename base::B>& b,
                                               F&& stopping) {
    using step = typename base::idle_step;
    if (base::take_global(pp, b)) return step::global;
    {
      typename base::locked l = base::lock();
      if (stopping() || base::answer_ask(mp)) return step::again;
    }
    Env::releasep(mp);
    base::push_free(pp);  // the bug: the nest's lock is not held
    return step::released;
  }
};

}  // namespace kite
