// runqcheck/subject.hpp — the contract every checker holds a port to. A
// "subject" is a run-queue port under test: the bundled go1.25 port and its
// pre-1.25 flavor are subjects; so is any user's port registered with
// runqcheck_add_subject(NAME … HEADER … TYPE …). docs/porting.md explains
// each rule with the checker that enforces it.
//
// A subject is a class template S<B, Cap> (B: a backend, Cap: ring capacity,
// a power of two >= 4) with the nested types and static functions below,
// named as in proc.go. The harness owns the Gs (runqcheck::g<B>) and hands
// batches around as runqcheck::gQueue<B>; the subject owns its P and
// global-queue state. A port includes only this header (it brings backend.hpp,
// g.hpp, gqueue.hpp) and may use anything else of runqcheck's or nothing.
//
//   typename S::p                     per-P state; S::p(schedt&, int32_t id)
//   typename S::schedt                global state; S::schedt(int32_t gomaxprocs)
//   S::name                           "go1.25", shown in reports
//   S::runqempty(p&) -> bool          any thread; never true while the P held a
//                                     G throughout the call
//   S::runqput(p&, g*, bool next)     owner. next: gp to runnext, the old runnext
//                                     (if any) to the ring tail. Full ring: the
//                                     oldest Cap/2 then gp to the global tail.
//                                     gp may already be queued (Go's tests put one
//                                     G i times): not a list through g.schedlink
//   S::runqputbatch(p&, gQueue&)      owner; as many as fit, in order; leftovers
//                                     stay in the gQueue (Go 1.25's signature)
//   S::runqget(p&) -> {g*, bool}      owner; runnext first ({gp, inheritTime =
//                                     true}), else the ring head ({gp, false})
//   S::runqdrain(p&) -> gQueue        owner; runnext first, then the ring in order
//   S::runqsteal(p& thief, p& victim, bool stealRunNextG) -> g*
//                                     thief's owner; takes ceil(n/2) of the n Gs
//                                     in victim's ring (only runnext, when the
//                                     ring is empty and stealRunNextG), puts all
//                                     but the last into thief's ring in order,
//                                     returns the last; nil if nothing. A steal
//                                     that would leave thief's ring full (its Gs
//                                     + the n-1 kept >= Cap) is a fatal error, as
//                                     Go's "runqsteal: runq overflow"
//   S::globrunqput(schedt&, g*)       any; global tail; takes sched.lock itself
//   S::globrunqget(schedt&) -> g*     any; the global head; takes sched.lock
//                                     (Go <= 1.24's globrunqget(pp, max) is
//                                     findRunnable_globrunq below)
//   S::findRunnable_globrunq(p&) -> g*  owner; findRunnable's global step on an
//                                     empty ring: n = min(Cap/2, size,
//                                     size/gomaxprocs + 1) Gs off the global
//                                     head, the first returned, the rest into
//                                     pp's ring in order. A non-empty ring breaks
//                                     the precondition: raise a fatal error or
//                                     keep every G, never lose one
//   S::destroy(p&)                    procresize, world stopped: pp's Gs to the
//                                     global HEAD so that the global queue reads
//                                     runnext, ring head..tail, old global Gs
//   S::globrunqsize(schedt&) -> int32 any; takes sched.lock itself
//
// Blocking: only sched.lock (and a port's own locks) may block, and only for
// as long as another thread holds them. Fatal errors: a port reports a
// broken invariant or precondition through B::fatal (RQ_CHECK), with its own
// text; checkers recognise a port's fatal error by its kind (fatal_info's
// kind: fatal_kind::port for RQ_CHECK; a checker's invariant is
// fatal_kind::invariant and the harness's own checks, such as the native
// mutex's self-deadlock, fatal_kind::harness: both always fail),
// never by Go's wording. A self-deadlock on sched.lock is a hang, not a
// fatal error of the port's.
//
// Optional hooks, each enabling checks that would otherwise not apply (the
// verdict lists every check that did not apply, and --strict fails on it):
//
//   S::runq_counters(p&) -> runqcheck::basic_runq_counters<C>
//        the ring's free-running head and tail, relaxed reads; enables the
//        steal-size invariant (ceil(n/2)) wherever a steal runs alone
//   S::set_runq_counters(p&, C v)
//        on a fresh, empty P: head = tail = v; enables the wrap scenarios and
//        tests (counters near 2^W)
//   C is the port's counter type, an unsigned integer of W bits (Go's:
//   uint32, runqcheck::runq_counters); checkers read it from these hooks'
//   signatures (runq_counter_t<S>) and drive the wrap at that width.
//   S::set_gomaxprocs(schedt&, std::int32_t n)
//        what procresize does to sched.gomaxprocs; enables the procresize
//        property (destroy's order at the global head, the batch size after)
//   S::describe_p(p&) -> std::string and S::describe_sched(schedt&) -> std::string
//        one line each for the watchdog's state dump (ring, counters, runnext;
//        the global queue WITHOUT taking sched.lock), relaxed reads, native only
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "backend.hpp"
#include "g.hpp"
#include "gqueue.hpp"

namespace runqcheck {

template <class S, class B>
concept subject = requires(typename S::p& pp, typename S::p& p2, typename S::schedt& sched,
                           g<B>* gp, gQueue<B>& q, bool next) {
  { S::name } -> std::convertible_to<const char*>;
  requires std::constructible_from<typename S::schedt, std::int32_t>;
  requires std::constructible_from<typename S::p, typename S::schedt&, std::int32_t>;
  { S::runqempty(pp) } -> std::same_as<bool>;
  S::runqput(pp, gp, next);
  S::runqputbatch(pp, q);
  { S::runqget(pp).gp } -> std::convertible_to<g<B>*>;
  { S::runqget(pp).inheritTime } -> std::convertible_to<bool>;
  { S::runqdrain(pp) } -> std::same_as<gQueue<B>>;
  { S::runqsteal(pp, p2, next) } -> std::convertible_to<g<B>*>;
  S::globrunqput(sched, gp);
  { S::globrunqget(sched) } -> std::convertible_to<g<B>*>;
  { S::findRunnable_globrunq(pp) } -> std::convertible_to<g<B>*>;
  S::destroy(pp);
  { S::globrunqsize(sched) } -> std::convertible_to<std::int32_t>;
};

// The optional hooks, as concepts (see the list above).
template <std::unsigned_integral C>
struct basic_runq_counters {
  C head, tail;
};
using runq_counters = basic_runq_counters<std::uint32_t>;  // Go's width

namespace detail {
template <class F>
struct hook_value {};  // not a plain function of two arguments: no type
template <class R, class P, class V>
struct hook_value<R (*)(P, V)> {
  using type = std::remove_cvref_t<V>;
};
template <class S>
struct counter_of {  // neither hook says: Go's width
  using type = std::uint32_t;
};
// Callable first: a hook whose constraints fail must not have its address taken.
template <class S>
concept set_hook_typed =
    requires(typename S::p& pp, std::uint64_t v) { S::set_runq_counters(pp, v); } &&
    requires { typename hook_value<decltype(&S::set_runq_counters)>::type; };
template <class S>
  requires set_hook_typed<S>
struct counter_of<S> {  // set_runq_counters's value parameter
  using type = typename hook_value<decltype(&S::set_runq_counters)>::type;
};
template <class S>
  requires(!set_hook_typed<S>) && requires(typename S::p& pp) { S::runq_counters(pp).head; }
struct counter_of<S> {  // else the fields runq_counters returns
  using type = decltype(S::runq_counters(std::declval<typename S::p&>()).head);
};
}  // namespace detail

// The port's counter type C (see the list above).
template <class S>
using runq_counter_t = typename detail::counter_of<S>::type;

template <class S>
concept has_runq_counters = std::unsigned_integral<runq_counter_t<S>> &&
                            requires(typename S::p& pp) {
                              {
                                S::runq_counters(pp)
                              } -> std::same_as<basic_runq_counters<runq_counter_t<S>>>;
                            };
template <class S>
concept has_set_runq_counters =
    std::unsigned_integral<runq_counter_t<S>> &&
    requires(typename S::p& pp, runq_counter_t<S> v) { S::set_runq_counters(pp, v); };
template <class S>
concept has_set_gomaxprocs = requires(typename S::schedt& s, std::int32_t n) {
  S::set_gomaxprocs(s, n);
};
template <class S>
concept has_describe = requires(typename S::p& pp, typename S::schedt& s) {
  { S::describe_p(pp) } -> std::convertible_to<std::string>;
  { S::describe_sched(s) } -> std::convertible_to<std::string>;
};

}  // namespace runqcheck
