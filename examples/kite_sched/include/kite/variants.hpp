// kite/variants.hpp — kite's bugs: one in its protocol, two in its queue
// (queue subjects, which the protocol columns then run kite around: the
// proof that they run around the QUEUE named). The columns must reject
// them (examples/kite_sched/variants.cmake registers them; ci/test).
#pragma once

#include <array>
#include <cstdint>

#include "runq.hpp"
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

// runqempty reads the perch without its lock (a hint, the author thought):
// a data race with the owner's put, which a searcher's recheck (the
// protocol's dropspinning) hits.
template <class B, std::uint32_t Cap>
struct empty_unlocked_bug : runq<B, Cap> {
  using base = runq<B, Cap>;
  static constexpr const char* name = "kite_empty_unlocked";
  static bool runqempty(typename base::perch& pp) {
    return pp.count.load() == 0 && pp.runnext.load() == nullptr;  // the bug: no lock
  }
};

// runqsteal copies the victim's Gs but leaves them in its ring (the thief
// read where it meant to take): a stolen G is queued on two Ps and runs
// twice. kite's protocol around this queue must fail the protocol columns,
// the stress scheduler's too (it runs around the QUEUE named).
template <class B, std::uint32_t Cap>
struct steal_keeps_bug : runq<B, Cap> {
  using base = runq<B, Cap>;
  using G = typename base::G;
  static constexpr const char* name = "kite_steal_keeps";
  static G* runqsteal(typename base::perch& thief, typename base::perch& victim,
                      bool stealRunNextG) {
    std::array<G*, Cap> got{};
    std::uint32_t n = 0;
    {
      typename base::held l(victim.mu);
      std::uint32_t c = victim.count.load(), f = victim.first.load();
      if (c == 0 && stealRunNextG && victim.runnext.load() != nullptr) {
        got[n++] = victim.runnext.load();
        victim.runnext.store(nullptr);
      }
      for (std::uint32_t i = 0; i < c - c / 2; i++)
        got[n++] = victim.ring[(f + i) % Cap].load();  // the bug: victim keeps them
    }
    if (n == 0) return nullptr;
    typename base::held l(thief.mu);
    for (std::uint32_t i = 0; i + 1 < n; i++) base::push(thief, got[i]);
    return got[n - 1];
  }
};

}  // namespace kite
