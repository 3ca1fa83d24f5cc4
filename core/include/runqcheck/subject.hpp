// runqcheck/subject.hpp — the interface every checker drives: a "subject" is
// a run-queue port under test. The bundled go1.25 port and its pre-1.25
// flavor are subjects; so is any user's port registered with
// runqcheck_add_subject(NAME … HEADER … TYPE …).
//
// A subject is a class template S<B, Cap> (B: a backend, Cap: ring capacity)
// with the nested types and static functions below, named as in proc.go. The
// harness owns the Gs (runqcheck::g<B>) and hands batches around as
// runqcheck::gQueue<B>; the subject owns its P and global-queue state.
//
//   typename S::p                     per-P state; S::p(schedt&, int32_t id)
//   typename S::schedt                global state; S::schedt(int32_t gomaxprocs)
//   S::name                           "go1.25", shown in reports
//   S::runqempty(p&) -> bool          any P; never true spuriously
//   S::runqput(p&, g*, bool next)     owner
//   S::runqputbatch(p&, gQueue&)      owner; leftovers stay in the gQueue
//   S::runqget(p&) -> {g*, bool}      owner; {gp, inheritTime}
//   S::runqdrain(p&) -> gQueue        owner
//   S::runqsteal(p& thief, p& victim, bool stealRunNextG) -> g*   thief's owner
//   S::globrunqput(schedt&, g*)       any; takes sched.lock itself
//   S::globrunqget(schedt&) -> g*     any; one G, takes sched.lock itself
//   S::findRunnable_globrunq(p&) -> g*  owner; findRunnable's global-queue step:
//                                     a batch into pp's (empty) ring, one G back
//   S::destroy(p&)                    procresize: pp's Gs to the global head
//   S::globrunqsize(schedt&) -> int32 any; takes sched.lock itself
#pragma once

#include <concepts>
#include <cstdint>

#include "backend.hpp"
#include "g.hpp"
#include "gqueue.hpp"

namespace runqcheck {

template <class S, class B>
concept subject = requires(typename S::p& pp, typename S::p& p2, typename S::schedt& sched, g<B>* gp,
                           gQueue<B>& q, bool next) {
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

}  // namespace runqcheck
