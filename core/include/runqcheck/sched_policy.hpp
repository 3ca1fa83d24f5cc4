// runqcheck/sched_policy.hpp — the order in which the scheduler looks for
// work, as small templates over a subject (subject.hpp), so that every
// checker that schedules (the property tests, the stress scheduler) uses the
// same order as proc.go.
//
//   findRunnable_queues   findRunnable's queue part: the schedtick%61
//                         fairness check, the local runq, the global batch
//   stealWork             4 passes over the Ps in a random coprime order,
//                         runnext only on the last pass
//   findRunnable          the two in that order (netpoll, timers, GC
//                         workers and the trace reader are not modelled)
//
// Changes from Go:
//  - Go peeks at sched.runq.empty() without sched.lock before locking; an
//    unlocked read of the gQueue is a data race in C++, so the peek here is
//    S::globrunqsize, which takes the lock.
//  - cheaprand() is the caller's callable `rand`, so that a test can replay
//    the same choices.
#pragma once

#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>

#include "found_in.hpp"
#include "g.hpp"
#include "steal_order.hpp"

namespace runqcheck {


template <class S>
using subject_g_t =
    std::remove_pointer_t<decltype(S::globrunqget(std::declval<typename S::schedt&>()))>;

template <class S>
struct [[nodiscard]] sched_found {
  subject_g_t<S>* gp = nullptr;
  bool inheritTime = false;  // Go: execute() does not advance schedtick
  found_in from = found_in::none;
};

// Go: findRunnable, from "Check the global runnable queue once in a while
// to ensure fairness" to "global runq" (proc.go). Executed by pp's owner;
// schedtick is pp.schedtick. Returns {nullptr} when the caller should go on
// to stealWork.
template <class S>
sched_found<S> findRunnable_queues(typename S::schedt& sched, typename S::p& pp,
                                   std::uint32_t schedtick) {
  // Check the global runnable queue once in a while to ensure fairness.
  // Otherwise two goroutines can completely occupy the local runqueue
  // by constantly respawning each other.
  if (schedtick % 61 == 0 && S::globrunqsize(sched) != 0) {
    if (auto* gp = S::globrunqget(sched); gp != nullptr) {
      return {gp, false, found_in::fairness};
    }
  }
  // local runq
  if (auto r = S::runqget(pp); r.gp != nullptr) {
    return {r.gp, r.inheritTime, found_in::local};
  }
  // global runq
  if (S::globrunqsize(sched) != 0) {
    if (auto* gp = S::findRunnable_globrunq(pp); gp != nullptr) {
      return {gp, false, found_in::global};
    }
  }
  return {};
}

// Go: stealWork (proc.go), without timers. pp steals into its own ring;
// allp are all Ps (pp among them); stealOrder was reset to allp.size() (Go:
// procresize); rand() stands for cheaprand(), called once per pass as Go
// does; idle(i) tells whether allp[i] is on the idle list (Go's idlepMask).
// Returns the stolen G, never with inheritTime.
template <class S, class Rand, class Idle>
sched_found<S> stealWork(typename S::p& pp, std::span<typename S::p* const> allp,
                         const randomOrder& stealOrder,
                         Rand&& rand, Idle&& idle) {
  constexpr int stealTries = 4;
  for (int i = 0; i < stealTries; i++) {
    bool stealTimersOrRunNextG = i == stealTries - 1;
    for (randomEnum e = stealOrder.start(static_cast<std::uint32_t>(rand())); !e.done(); e.next()) {
      typename S::p* p2 = allp[e.position()];
      if (&pp == p2) {
        continue;
      }
      // Don't bother to attempt to steal if p2 is idle.
      if (!idle(e.position())) {
        if (auto* gp = S::runqsteal(pp, *p2, stealTimersOrRunNextG); gp != nullptr) {
          return {gp, false, found_in::steal};
        }
      }
    }
  }
  return {};
}

template <class S, class Rand>
sched_found<S> stealWork(typename S::p& pp, std::span<typename S::p* const> allp,
                         const randomOrder& stealOrder,
                         Rand&& rand) {
  return stealWork<S>(pp, allp, stealOrder, std::forward<Rand>(rand),
                      [](std::uint32_t) { return false; });
}

// Go: findRunnable's queue part, then stealWork.
template <class S, class Rand>
sched_found<S> findRunnable(typename S::schedt& sched, typename S::p& pp, std::uint32_t schedtick,
                            std::span<typename S::p* const> allp,
                            const randomOrder& stealOrder, Rand&& rand) {
  sched_found<S> f = findRunnable_queues<S>(sched, pp, schedtick);
  if (f.gp == nullptr) {
    f = stealWork<S>(pp, allp, stealOrder, std::forward<Rand>(rand));
  }
  return f;
}

}  // namespace runqcheck
