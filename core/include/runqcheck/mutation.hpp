// runqcheck/mutation.hpp — the hooks through which checkers inject bugs.
//
// Every atomic operation of the core names its site, and a few lines of logic
// ask whether a logic mutant is active. A backend that defines neither
// `weaken` nor `mutated` (native, relacy) gets the original order and `false`
// as constants: the production instantiation compiles to the code without
// hooks. A test-only backend (models/mutants) defines them and selects one
// mutant at run time, so one binary covers the whole kill matrix.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <string_view>

namespace runqcheck {

// Each atomic access of core/, by Go function and role. The list is the
// order audit's universe: every entry can be weakened one step.
#define RUNQCHECK_SITES(X)                                                      \
  X(runqempty_head_load)                                                        \
  X(runqempty_tail_load)                                                        \
  X(runqempty_runnext_load)                                                     \
  X(runqempty_tail_reload)                                                      \
  X(runqput_runnext_cas)                                                        \
  X(runqput_head_load)                                                          \
  X(runqput_tail_store)                                                         \
  X(runqputslow_head_cas)                                                       \
  X(runqputbatch_head_load)                                                     \
  X(runqputbatch_tail_store)                                                    \
  X(runqget_runnext_cas)                                                        \
  X(runqget_head_load)                                                          \
  X(runqget_head_cas)                                                           \
  X(runqdrain_runnext_cas)                                                      \
  X(runqdrain_head_load)                                                        \
  X(runqdrain_head_cas)                                                         \
  X(runqgrab_head_load)                                                         \
  X(runqgrab_tail_load)                                                         \
  X(runqgrab_runnext_cas)                                                       \
  X(runqgrab_head_cas)                                                          \
  X(runqsteal_head_load)                                                        \
  X(runqsteal_tail_store)

enum class site : std::uint8_t {
#define RUNQCHECK_ENUM(n) n,
  RUNQCHECK_SITES(RUNQCHECK_ENUM)
#undef RUNQCHECK_ENUM
      count_
};

inline constexpr std::array<std::string_view, static_cast<std::size_t>(site::count_)> site_names = {
#define RUNQCHECK_NAME(n) #n,
    RUNQCHECK_SITES(RUNQCHECK_NAME)
#undef RUNQCHECK_NAME
};

// Logic mutants: each models a real bug shape (see models/mutants for the
// catalog with descriptions). `none` is the faithful port.
enum class mutant : std::uint8_t {
  none,
  runqempty_no_tail_reread,     // runqempty trusts one read of head/tail/runnext (pre-Go 1.7)
  runqput_runnext_no_retry,     // runqput gives up when its runnext CAS fails: the G is lost
  runqputslow_move_127,         // runqputslow moves n-1 Gs to the global queue
  runqputslow_move_129,         // runqputslow moves n+1 Gs, one not yet published
  runqputslow_no_full_check,    // "queue is not full" throw removed
  runqget_runnext_no_cas,       // runqget takes runnext with a plain store, racing thieves
  runqdrain_no_torn_guard,      // runqdrain accepts h/t read at different times (qn > cap)
  runqdrain_link_before_cas,    // runqdrain links schedlink before its CAS (reverted Go 1.17 bug)
  runqgrab_floor_half,          // steal takes floor(n/2): a single G is never stolen
  runqgrab_no_torn_guard,       // runqgrab accepts n > cap/2 from inconsistent h/t
  runqgrab_cas_as_load_store,   // head CAS replaced by load + store
  runqgrab_runnext_no_retry,    // runqgrab gives up when runnext CAS fails instead of retrying
  runqgrab_runnext_load_store,  // runqgrab takes runnext by load + store instead of CAS
  runqget_runnext_retry,        // runqget retries its runnext CAS (Go does not; equivalent)
  runqsteal_no_overflow_check,  // "runqsteal: runq overflow" throw removed
  globrunqgetbatch_off_by_one,  // the batch loop takes one G more than n
  globrunqgetbatch_no_size_cap, // n not capped by the queue size
  globrunq_without_lock,        // runqputslow pushes its batch without sched.lock
  destroy_runnext_last,         // procresize puts runnext behind the ring at the global head
  findRunnable_no_fairness,     // findRunnable without the schedtick%61 global-queue check (sched_policy.hpp)
  // Protocol mutants of the stress scheduler (stress/src/proc.cpp), which is
  // the only code that asks for them: the wakeup protocol around the queues.
  submit_no_wakep,              // newproc/goready publish a G without wakep
  spinning_drop_no_recheck,     // an M leaving the spinning state neither rechecks the queues nor wakes a replacement
  wakep_no_storeload,           // no #StoreLoad between publishing work and reading nmspinning (and in the spinner's recheck)
  exitsyscall_loses_g,          // exitsyscall0 finds no idle P and drops its G instead of globrunqput
  procresize_drops_runnext,     // procresize clears a dying P's runnext instead of moving it to the global queue
  count_
};

namespace detail {
template <class B>
concept has_weaken = requires(site s, std::memory_order mo) {
  { B::weaken(s, mo) } -> std::same_as<std::memory_order>;
};
template <class B>
concept has_mutated = requires(mutant m) {
  { B::mutated(m) } -> std::same_as<bool>;
};
template <class B, class T>
struct slot_of {
  using type = typename B::template atomic<T>;
};
template <class B, class T>
  requires requires { typename B::template slot<T>; }
struct slot_of<B, T> {
  using type = typename B::template slot<T>;
};
}  // namespace detail

// The type of a ring slot: B::atomic<T>, unless a test backend replaces it
// (the plain-slot mutant: Go's plain slots, a data race in C++).
template <class B, class T>
using slot_t = typename detail::slot_of<B, T>::type;

// The order to use at site s, normally `mo` itself.
template <class B>
constexpr std::memory_order order(site s, std::memory_order mo) {
  if constexpr (detail::has_weaken<B>) return B::weaken(s, mo);
  else return mo;
}

// Whether logic mutant m is active; a compile-time false in production.
template <class B>
constexpr bool mutated(mutant m) {
  if constexpr (detail::has_mutated<B>) return B::mutated(m);
  else return false;
}

// The one-step-weaker order used by the order audit and its mutants.
constexpr std::memory_order weaker(std::memory_order mo) {
  switch (mo) {
    case std::memory_order::seq_cst: return std::memory_order::acq_rel;
    case std::memory_order::acq_rel: return std::memory_order::acquire;  // and release: see models
    default: return std::memory_order::relaxed;
  }
}

}  // namespace runqcheck
