// runqcheck/runq.hpp — the per-P local run queue, ported from go1.25 proc.go.
//
// Protocol (Go's design, unchanged):
//  - runqhead/runqtail are free-running uint32 counters; slot = counter % Cap;
//    t-h is the length under modular arithmetic and never exceeds Cap.
//  - Only the owner P writes runqtail and the ring slots; anyone may advance
//    runqhead, always by CAS, after reading the slots it claims (consumers:
//    the owner's runqget/runqdrain/runqputslow, and thieves in runqgrab).
//  - runnext: only the owner P sets it to a G; anyone may CAS it to nullptr.
//  - Thieves read slots the owner may overwrite concurrently; their CAS on
//    runqhead then fails and the values read are discarded.
//
// Invariants checked in every build (Go's throws): a full queue is exactly
// full in runqputslow; a thief's ring has room for what it stole.
//
// C++ memory model (where this differs from Go's text):
//  - Slots and runnext are std::atomic-like (relaxed unless noted). Go reads
//    and writes slots with plain accesses: legal in Go's runtime, a data race
//    (UB) in C++, because a thief reads a slot the owner may be rewriting.
//  - Go's LoadAcq/StoreRel/CasRel map to acquire/release/release; Go's full
//    Cas on runnext and full Loads in runqempty map to the weakest C++ order
//    that still gives what each access is for, named on its line. Go's
//    full operations are the same instructions as the Acq/Rel ones on amd64
//    and arm64, so Go does not say which strength it relies on; C++ must.
//  - The owner reads its own runqtail with a relaxed load (Go: plain read).
//
// Rejected designs: plain slots with a fence (a race in C++ whatever the
// fence); 16-bit indices (ABA, tokio #5041); a lock on the ring (the whole
// point is that the owner path takes none).
//
// Ported from go1.25.0 (= go1.25.3) src/runtime/proc.go.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "globrunq.hpp"
#include "gqueue.hpp"
#include "mutation.hpp"

namespace runqcheck {

// Go: _Pidle, _Prunning, … (runtime2.go). runqgrab reads it.
enum class pstatus : std::uint32_t { idle = 0, running = 1, syscall = 2, gcstop = 3, dead = 4 };

// Go: type p, the run-queue part of it. Cap is 256 in production and small
// (4, 8) for model checking, where it keeps the state space small.
template <class B, std::uint32_t Cap = 256>
struct p {
  static_assert(std::has_single_bit(Cap) && Cap >= 2, "ring capacity must be a power of two >= 2");
  static constexpr std::uint32_t capacity = Cap;
  using G = g<B>;
  using ring = std::array<slot_t<B, G*>, Cap>;

  explicit p(schedt<B>& s, std::int32_t pid = 0) : sched(&s), id(pid) {}
  p(const p&) = delete;
  p& operator=(const p&) = delete;

  schedt<B>* sched;  // Go: the global sched this P belongs to
  std::int32_t id;
  // Go: pp.status; read racily by runqgrab as a hint, so an atomic here.
  typename B::template atomic<std::uint32_t> status{static_cast<std::uint32_t>(pstatus::idle)};

  // Queue of runnable goroutines. Accessed without lock.
  typename B::template atomic<std::uint32_t> runqhead{0};
  typename B::template atomic<std::uint32_t> runqtail{0};
  ring runq;
  // runnext, if non-nil, is a runnable G that was ready'd by the current G
  // and should be run next instead of what's in runq.
  typename B::template atomic<G*> runnext{nullptr};
};

namespace detail {
constexpr auto relaxed = std::memory_order::relaxed;
constexpr auto acquire = std::memory_order::acquire;
constexpr auto release = std::memory_order::release;
constexpr auto acq_rel = std::memory_order::acq_rel;
}  // namespace detail

// runqempty reports whether pp has no Gs on its local run queue.
// It never returns true spuriously.
// Can be executed by any P.  Go: runqempty
template <class B, std::uint32_t Cap>
bool runqempty(p<B, Cap>& pp) {
  using namespace detail;
  // Defends against: pp has G1 in runnext and head == tail; runqput kicks G1
  // into the ring; runqget empties runnext. Seeing head == tail and then
  // runnext == nil does not mean the queue was ever empty, hence the re-read.
  for (;;) {
    std::uint32_t head = pp.runqhead.load(order<B>(site::runqempty_head_load, acquire));  // acquire: pairs with consumers' CAS-release of head
    std::uint32_t tail = pp.runqtail.load(order<B>(site::runqempty_tail_load, acquire));  // acquire: pairs with the owner's store-release of tail
    g<B>* runnext = pp.runnext.load(order<B>(site::runqempty_runnext_load, acquire));     // acquire: pairs with release CAS of runnext in runqget/runqput, so a tail store before it is visible below
    if (mutated<B>(mutant::runqempty_no_tail_reread)) return head == tail && runnext == nullptr;
    if (tail == pp.runqtail.load(order<B>(site::runqempty_tail_reload, relaxed))) {  // relaxed: coherence after the acquire above suffices
      return head == tail && runnext == nullptr;
    }
  }
}

template <class B, std::uint32_t Cap>
bool runqputslow(p<B, Cap>& pp, g<B>* gp, std::uint32_t h, std::uint32_t t);

// runqput tries to put g on the local runnable queue.
// If next is false, runqput adds g to the tail of the runnable queue.
// If next is true, runqput puts g in the pp.runnext slot.
// If the run queue is full, runnext puts g on the global queue.
// Executed only by the owner P.  Go: runqput
// Not ported: the !haveSysmon and randomizeScheduler (race detector) cases
// that turn next off; a caller that wants them passes next=false.
template <class B, std::uint32_t Cap>
void runqput(p<B, Cap>& pp, g<B>* gp, bool next) {
  using namespace detail;
  if (next) {
  retryNext:
    g<B>* oldnext = pp.runnext.load(relaxed);  // relaxed: only this P stores non-nil, and a stale value just fails the CAS
    if (!pp.runnext.compare_exchange_strong(oldnext, gp, order<B>(site::runqput_runnext_cas, release), relaxed)) {  // release: publishes gp to a thief's acquire CAS in runqgrab
      if (mutated<B>(mutant::runqput_runnext_no_retry)) return;
      goto retryNext;
    }
    if (oldnext == nullptr) {
      return;
    }
    // Kick the old runnext out to the regular run queue.
    gp = oldnext;
  }

retry:
  std::uint32_t h = pp.runqhead.load(order<B>(site::runqput_head_load, acquire));  // load-acquire, synchronize with consumers: their slot reads happen before our overwrite
  std::uint32_t t = pp.runqtail.load(relaxed);                                      // own tail: only this P writes it
  if (t - h < Cap) {
    pp.runq[t % Cap].store(gp, relaxed);                                         // relaxed: published by the tail store below
    pp.runqtail.store(t + 1, order<B>(site::runqput_tail_store, release));       // store-release, makes the item available for consumption
    return;
  }
  if (runqputslow(pp, gp, h, t)) {
    return;
  }
  // the queue is not full, now the put above must succeed
  goto retry;
}

// Put g and a batch of work from local runnable queue on global queue.
// Executed only by the owner P.  Go: runqputslow
template <class B, std::uint32_t Cap>
bool runqputslow(p<B, Cap>& pp, g<B>* gp, std::uint32_t h, std::uint32_t t) {
  using namespace detail;
  std::array<g<B>*, Cap / 2 + 2> batch{};  // Go: [len(pp.runq)/2 + 1]*g; +1 for mutant move_129

  // First, grab a batch from local queue.
  std::uint32_t n = t - h;
  n = n / 2;
  if (!mutated<B>(mutant::runqputslow_no_full_check)) {
    RQ_CHECK(B, n == Cap / 2, "runqputslow: queue is not full", "h", h, "t", t);
  }
  if (mutated<B>(mutant::runqputslow_move_127)) n--;
  if (mutated<B>(mutant::runqputslow_move_129)) n++;
  for (std::uint32_t i = 0; i < n; i++) {
    batch[i] = pp.runq[(h + i) % Cap].load(relaxed);  // own slots: written by this P
  }
  std::uint32_t hh = h;
  if (!pp.runqhead.compare_exchange_strong(hh, h + n, order<B>(site::runqputslow_head_cas, release), relaxed)) {  // cas-release, commits consume: pairs with a thief's acquire of head
    return false;
  }
  batch[n] = gp;

  // Link the goroutines. Safe only now: the CAS made them ours.
  for (std::uint32_t i = 0; i < n; i++) {
    batch[i]->schedlink.store(batch[i + 1]);
  }
  gQueue<B> q(batch[0], batch[n], static_cast<std::int32_t>(n + 1));

  // Now put the batch on global queue.
  if (mutated<B>(mutant::globrunq_without_lock)) {
    locked_sched<B> unlocked(*pp.sched, typename locked_sched<B>::unlocked_tag{});
    globrunqputbatch(unlocked, q);
    return true;
  }
  auto sched = lock(*pp.sched);
  globrunqputbatch(sched, q);
  return true;
}

// runqputbatch tries to put all the G's on q on the local runnable queue.
// If the local runq is full the input queue still contains unqueued Gs.
// Executed only by the owner P.  Go: runqputbatch (go1.25)
// Not ported: the randomizeScheduler shuffle.
template <class B, std::uint32_t Cap>
void runqputbatch(p<B, Cap>& pp, gQueue<B>& q) {
  using namespace detail;
  if (q.empty()) {
    return;
  }
  std::uint32_t h = pp.runqhead.load(order<B>(site::runqputbatch_head_load, acquire));  // load-acquire, synchronize with consumers
  std::uint32_t t = pp.runqtail.load(relaxed);                                           // own tail
  std::uint32_t n = 0;
  while (!q.empty() && t - h < Cap) {
    g<B>* gp = q.pop();
    pp.runq[t % Cap].store(gp, relaxed);  // relaxed: published by the tail store below
    t++;
    n++;
  }
  (void)n;

  pp.runqtail.store(t, order<B>(site::runqputbatch_tail_store, release));  // store-release, makes the items available for consumption
}

// Result of runqget. If inheritTime is true, gp should inherit the remaining
// time in the current time slice. Otherwise, it should start a new time slice.
template <class B>
struct [[nodiscard]] runqget_result {
  g<B>* gp = nullptr;
  bool inheritTime = false;
};

// Get g from local runnable queue.
// Executed only by the owner P.  Go: runqget
template <class B, std::uint32_t Cap>
runqget_result<B> runqget(p<B, Cap>& pp) {
  using namespace detail;
  // If there's a runnext, it's the next G to run.
  g<B>* next = pp.runnext.load(relaxed);  // relaxed: this P stored it; a thief can only have cleared it
  // If the runnext is non-0 and the CAS fails, it could only have been stolen
  // by another P, because other Ps can race to set runnext to 0, but only the
  // current P can set it to non-0. Hence, there's no need to retry this CAS.
  if (next != nullptr) {
    if (mutated<B>(mutant::runqget_runnext_no_cas)) {
      pp.runnext.store(nullptr, relaxed);
      return {next, true};
    }
    g<B>* expect = next;
    if (pp.runnext.compare_exchange_strong(expect, nullptr, order<B>(site::runqget_runnext_cas, release), relaxed)) {  // release: pairs with runqempty's acquire load of runnext (a ring put before it must be seen)
      return {next, true};
    }
    if (mutated<B>(mutant::runqget_runnext_retry) && expect != nullptr) {
      next = expect;
      if (pp.runnext.compare_exchange_strong(expect, nullptr, release, relaxed)) return {next, true};
    }
  }

  for (;;) {
    std::uint32_t h = pp.runqhead.load(order<B>(site::runqget_head_load, acquire));  // load-acquire, synchronize with other consumers
    std::uint32_t t = pp.runqtail.load(relaxed);                                      // own tail
    if (t == h) {
      return {nullptr, false};
    }
    g<B>* gp = pp.runq[h % Cap].load(relaxed);  // own slot
    if (pp.runqhead.compare_exchange_strong(h, h + 1, order<B>(site::runqget_head_cas, release), relaxed)) {  // cas-release, commits consume
      return {gp, false};
    }
  }
}

// runqdrain drains the local runnable queue of pp and returns all goroutines
// in it. Executed only by the owner P.  Go: runqdrain
template <class B, std::uint32_t Cap>
gQueue<B> runqdrain(p<B, Cap>& pp) {
  using namespace detail;
  gQueue<B> drainQ;
  g<B>* oldNext = pp.runnext.load(relaxed);  // relaxed: as in runqget
  if (oldNext != nullptr) {
    g<B>* expect = oldNext;
    if (pp.runnext.compare_exchange_strong(expect, nullptr, order<B>(site::runqdrain_runnext_cas, release), relaxed)) {  // release: as in runqget
      drainQ.pushBack(oldNext);
    }
  }

retry:
  std::uint32_t h = pp.runqhead.load(order<B>(site::runqdrain_head_load, acquire));  // load-acquire, synchronize with other consumers
  std::uint32_t t = pp.runqtail.load(relaxed);                                        // own tail
  std::uint32_t qn = t - h;
  if (qn == 0) {
    return drainQ;
  }
  if (qn > Cap && !mutated<B>(mutant::runqdrain_no_torn_guard)) {  // read inconsistent h and t
    goto retry;
  }

  if (mutated<B>(mutant::runqdrain_link_before_cas)) {
    // The reverted Go 1.17 order: schedlink written while thieves may own the Gs.
    gQueue<B> early;
    for (std::uint32_t i = 0; i < qn; i++) early.pushBack(pp.runq[(h + i) % Cap].load(relaxed));
    std::uint32_t hh = h;
    if (!pp.runqhead.compare_exchange_strong(hh, h + qn, order<B>(site::runqdrain_head_cas, release), relaxed)) {
      goto retry;
    }
    drainQ.pushBackAll(std::move(early));
    return drainQ;
  }

  {
    std::uint32_t hh = h;
    if (!pp.runqhead.compare_exchange_strong(hh, h + qn, order<B>(site::runqdrain_head_cas, release), relaxed)) {  // cas-release, commits consume
      goto retry;
    }
  }

  // Advance the head before linking the Gs into a gQueue: a G's schedlink may
  // be written only once the CAS made the G ours, while thieves may still be
  // copying it. See Go's runqdrain comment and its golang-dev thread.
  for (std::uint32_t i = 0; i < qn; i++) {
    g<B>* gp = pp.runq[(h + i) % Cap].load(relaxed);  // own slot, ours since the CAS
    drainQ.pushBack(gp);
  }
  return drainQ;
}

// Grabs a batch of goroutines from pp's runnable queue into batch.
// Batch is a ring buffer starting at batchHead.
// Returns number of grabbed goroutines.
// Can be executed by any P.  Go: runqgrab
template <class B, std::uint32_t Cap>
std::uint32_t runqgrab(p<B, Cap>& pp, typename p<B, Cap>::ring& batch, std::uint32_t batchHead, bool stealRunNextG) {
  using namespace detail;
  for (;;) {
    std::uint32_t h = pp.runqhead.load(order<B>(site::runqgrab_head_load, acquire));  // load-acquire, synchronize with other consumers
    std::uint32_t t = pp.runqtail.load(order<B>(site::runqgrab_tail_load, acquire));  // load-acquire, synchronize with the producer's store-release of tail
    std::uint32_t n = t - h;
    n = mutated<B>(mutant::runqgrab_floor_half) ? n / 2 : n - n / 2;
    if (n == 0) {
      if (stealRunNextG) {
        // Try to steal from pp.runnext.
        if (g<B>* next = pp.runnext.load(relaxed); next != nullptr) {  // relaxed: the CAS below validates it
          if (pp.status.load(relaxed) == static_cast<std::uint32_t>(pstatus::running)) {  // relaxed: a hint
            // Back off to give pp a chance to schedule runnext (Go sleeps 3µs:
            // a G that ready()s another and then blocks would otherwise see it
            // stolen). A backend hook: usleep natively, a yield under relacy.
            B::runqgrab_backoff();
          }
          if (mutated<B>(mutant::runqgrab_runnext_load_store)) {
            if (pp.runnext.load(acquire) != next) continue;
            pp.runnext.store(nullptr, relaxed);
            batch[batchHead % Cap].store(next, relaxed);
            return 1;
          }
          g<B>* expect = next;
          if (!pp.runnext.compare_exchange_strong(expect, nullptr, order<B>(site::runqgrab_runnext_cas, acquire), relaxed)) {  // acquire: pairs with the owner's release CAS in runqput, so gp's state is ours
            if (mutated<B>(mutant::runqgrab_runnext_no_retry)) return 0;
            continue;
          }
          batch[batchHead % Cap].store(next, relaxed);  // thief's own ring: published by runqsteal's tail store
          return 1;
        }
      }
      return 0;
    }
    if (n > Cap / 2 && !mutated<B>(mutant::runqgrab_no_torn_guard)) {  // read inconsistent h and t
      continue;
    }
    for (std::uint32_t i = 0; i < n; i++) {
      g<B>* gp = pp.runq[(h + i) % Cap].load(relaxed);  // relaxed: ordered after the tail acquire; may be overwritten, then the CAS fails
      batch[(batchHead + i) % Cap].store(gp, relaxed);   // thief's own ring: published by runqsteal's tail store
    }
    if (mutated<B>(mutant::runqgrab_cas_as_load_store)) {
      if (pp.runqhead.load(relaxed) == h) {
        pp.runqhead.store(h + n, release);
        return n;
      }
      continue;
    }
    if (pp.runqhead.compare_exchange_strong(h, h + n, order<B>(site::runqgrab_head_cas, release), relaxed)) {  // cas-release, commits consume: pairs with the owner's acquire of head before it overwrites these slots
      return n;
    }
  }
}

// Steal half of elements from local runnable queue of p2
// and put onto local runnable queue of p.
// Returns one of the stolen elements (or nil if failed).
// Executed only by the owner of pp (the thief); p2 is any other P.
// Go: runqsteal
template <class B, std::uint32_t Cap>
g<B>* runqsteal(p<B, Cap>& pp, p<B, Cap>& p2, bool stealRunNextG) {
  using namespace detail;
  std::uint32_t t = pp.runqtail.load(relaxed);  // own tail
  std::uint32_t n = runqgrab(p2, pp.runq, t, stealRunNextG);
  if (n == 0) {
    return nullptr;
  }
  n--;
  g<B>* gp = pp.runq[(t + n) % Cap].load(relaxed);  // own slot, just written
  if (n == 0) {
    return gp;
  }
  std::uint32_t h = pp.runqhead.load(order<B>(site::runqsteal_head_load, acquire));  // load-acquire, synchronize with consumers
  if (!mutated<B>(mutant::runqsteal_no_overflow_check)) {
    RQ_CHECK(B, t - h + n < Cap, "runqsteal: runq overflow", "h", h, "t", t, "n", n);
  }
  pp.runqtail.store(t + n, order<B>(site::runqsteal_tail_store, release));  // store-release, makes the item available for consumption
  return gp;
}

// The run-queue part of (*p).destroy, used by procresize when shrinking:
// move all runnable goroutines to the global queue, keeping local order at
// its head, runnext first. In Go the world is stopped; here the caller must
// guarantee that no other P touches pp (relaxed accesses) and hold the lock.
// Go: (*p).destroy, "Move all runnable goroutines to the global queue".
template <class B, std::uint32_t Cap>
void destroy(locked_sched<B>& sched, p<B, Cap>& pp) {
  using namespace detail;
  auto runnext_to_head = [&] {
    if (g<B>* next = pp.runnext.load(relaxed); next != nullptr) {
      globrunqputhead(sched, next);
      pp.runnext.store(nullptr, relaxed);
    }
  };
  if (mutated<B>(mutant::destroy_runnext_last)) runnext_to_head();
  while (pp.runqhead.load(relaxed) != pp.runqtail.load(relaxed)) {
    // Pop from tail of local queue
    std::uint32_t t = pp.runqtail.load(relaxed) - 1;
    pp.runqtail.store(t, relaxed);
    g<B>* gp = pp.runq[t % Cap].load(relaxed);
    // Push onto head of global queue
    globrunqputhead(sched, gp);
  }
  if (!mutated<B>(mutant::destroy_runnext_last)) runnext_to_head();
}

}  // namespace runqcheck
