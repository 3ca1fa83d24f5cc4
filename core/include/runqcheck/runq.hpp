// runqcheck/runq.hpp — the per-P local run queue, ported from go1.27 proc.go.
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
// Ported from go1.25.0 src/runtime/proc.go; the go1.27 line (1.27.3) has the
// same functions except runqgrab's runnext backoff (go1.26, d55ecea9e5).
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "globrunq.hpp"
#include "gqueue.hpp"

namespace runqcheck {

// Go: _Pidle, _Prunning, … (runtime2.go). runqgrab reads it.
enum class pstatus : std::uint32_t { idle = 0, running = 1, syscall = 2, gcstop = 3, dead = 4 };

// Go: type m, the part runqgrab reads: the M's current G.
template <class B>
struct m {
  // Go: mp.curg; nil while the M is in the scheduler. Written by the M with
  // release; runqgrab reads it racily (acquire, then reads the G's status).
  typename B::template atomic<g<B>*> curg{nullptr};
};

// Go: type p, the run-queue part of it. Cap is 256 in production and small
// (4, 8) for model checking, where it keeps the state space small.
template <class B, std::uint32_t Cap = 256>
struct p {
  static_assert(std::has_single_bit(Cap) && Cap >= 2, "ring capacity must be a power of two >= 2");
  static constexpr std::uint32_t capacity = Cap;
  using G = g<B>;
  using ring = std::array<typename B::template atomic<G*>, Cap>;

  explicit p(schedt<B>& s, std::int32_t pid = 0) : sched(&s), id(pid) {}
  p(const p&) = delete;
  p& operator=(const p&) = delete;

  schedt<B>* sched;  // Go: the global sched this P belongs to
  std::int32_t id;
  // Go: pp.status; read racily by runqgrab as a hint, so an atomic here.
  typename B::template atomic<std::uint32_t> status{static_cast<std::uint32_t>(pstatus::idle)};
  // Go: pp.m, the M that holds this P (nil if idle); set by acquirep (with
  // release) and releasep. runqgrab reads it racily (acquire, then reads the M).
  typename B::template atomic<runqcheck::m<B>*> m{nullptr};

  // Queue of runnable goroutines. Accessed without lock.
  typename B::template atomic<std::uint32_t> runqhead{0};
  typename B::template atomic<std::uint32_t> runqtail{0};
  ring runq;
  // runnext, if non-nil, is a runnable G that was ready'd by the current G
  // and should be run next instead of what's in runq.
  typename B::template atomic<G*> runnext{nullptr};
};

// runqempty reports whether pp has no Gs on its local run queue.
// It never returns true spuriously.
// Can be executed by any P.  Go: runqempty
template <class B, std::uint32_t Cap>
bool runqempty(p<B, Cap>& pp) {
  // Defends against: pp has G1 in runnext and head == tail; runqput kicks G1
  // into the ring; runqget empties runnext. Seeing head == tail and then
  // runnext == nil does not mean the queue was ever empty, hence the re-read.
  for (;;) {
    // acquire: pairs with the consumers' release CAS of head.
    std::uint32_t head = pp.runqhead.load(acquire);
    // acquire: pairs with the owner's release store of tail.
    std::uint32_t tail = pp.runqtail.load(acquire);
    // acquire: pairs with the release CAS of runnext in runqput/runqget, so
    // that a tail store before it is visible to the re-read below.
    g<B>* runnext = pp.runnext.load(acquire);
    // relaxed: coherence after the acquire above suffices.
    if (tail == pp.runqtail.load(relaxed)) {
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
// Not ported: the !haveSysmon and randomizeScheduler cases that turn next
// off; a caller that wants them passes next=false.
template <class B, std::uint32_t Cap>
void runqput(p<B, Cap>& pp, g<B>* gp, bool next) {
  if (next) {
  retryNext:
    // relaxed: only this P stores non-nil; a stale value just fails the CAS.
    g<B>* oldnext = pp.runnext.load(relaxed);
    // release: publishes gp to a thief's acquire CAS in runqgrab.
    if (!pp.runnext.compare_exchange_strong(oldnext, gp, release, relaxed)) {
      goto retryNext;
    }
    if (oldnext == nullptr) {
      return;
    }
    // Kick the old runnext out to the regular run queue.
    gp = oldnext;
  }

retry:
  // load-acquire, synchronize with consumers: their slot reads happen
  // before our overwrite.
  std::uint32_t h = pp.runqhead.load(acquire);
  std::uint32_t t = pp.runqtail.load(relaxed);  // own tail: only this P writes it
  if (t - h < Cap) {
    pp.runq[t % Cap].store(gp, relaxed);  // published by the tail store below
    // store-release, makes the item available for consumption
    pp.runqtail.store(t + 1, release);
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
  std::array<g<B>*, Cap / 2 + 1> batch{};

  // First, grab a batch from local queue.
  std::uint32_t n = t - h;
  n = n / 2;
  RQ_CHECK(B, n == Cap / 2, "runqputslow: queue is not full", "h", h, "t", t);
  for (std::uint32_t i = 0; i < n; i++) {
    batch[i] = pp.runq[(h + i) % Cap].load(relaxed);  // own slots
  }
  // cas-release, commits consume: pairs with a thief's acquire of head.
  if (!pp.runqhead.compare_exchange_strong(h, h + n, release, relaxed)) {
    return false;
  }
  batch[n] = gp;

  // Link the goroutines. Safe only now: the CAS made them ours.
  for (std::uint32_t i = 0; i < n; i++) {
    batch[i]->schedlink.store(batch[i + 1]);
  }
  gQueue<B> q(batch[0], batch[n], static_cast<std::int32_t>(n + 1));

  // Now put the batch on global queue.
  auto sched = lock(*pp.sched);
  globrunqputbatch(sched, q);
  return true;
}

// runqputbatch tries to put all the G's on q on the local runnable queue.
// If the local runq is full the input queue still contains unqueued Gs.
// Executed only by the owner P.  Go: runqputbatch (go1.25)
// Not ported: the randomizeScheduler shuffle (Go's n counts for it).
template <class B, std::uint32_t Cap>
void runqputbatch(p<B, Cap>& pp, gQueue<B>& q) {
  if (q.empty()) {
    return;
  }
  // load-acquire, synchronize with consumers
  std::uint32_t h = pp.runqhead.load(acquire);
  std::uint32_t t = pp.runqtail.load(relaxed);  // own tail
  while (!q.empty() && t - h < Cap) {
    pp.runq[t % Cap].store(q.pop(), relaxed);  // published by the tail store below
    t++;
  }

  // store-release, makes the items available for consumption
  pp.runqtail.store(t, release);
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
  // If there's a runnext, it's the next G to run.
  g<B>* next = pp.runnext.load(relaxed);  // this P stored it; a thief can only clear it
  // A failed CAS means a thief took it: only this P sets runnext non-nil, so
  // no retry. release: pairs with runqempty's acquire load of runnext.
  if (next != nullptr && pp.runnext.compare_exchange_strong(next, nullptr, release, relaxed)) {
    return {next, true};
  }

  for (;;) {
    // load-acquire, synchronize with other consumers
    std::uint32_t h = pp.runqhead.load(acquire);
    std::uint32_t t = pp.runqtail.load(relaxed);  // own tail
    if (t == h) {
      return {nullptr, false};
    }
    g<B>* gp = pp.runq[h % Cap].load(relaxed);  // own slot
    // cas-release, commits consume
    if (pp.runqhead.compare_exchange_strong(h, h + 1, release, relaxed)) {
      return {gp, false};
    }
  }
}

// runqdrain drains the local runnable queue of pp and returns all goroutines in it.
// Executed only by the owner P.  Go: runqdrain
template <class B, std::uint32_t Cap>
gQueue<B> runqdrain(p<B, Cap>& pp) {
  gQueue<B> drainQ;
  g<B>* oldNext = pp.runnext.load(relaxed);  // as in runqget
  // release: as in runqget.
  if (oldNext != nullptr &&
      pp.runnext.compare_exchange_strong(oldNext, nullptr, release, relaxed)) {
    drainQ.pushBack(oldNext);
  }

retry:
  // load-acquire, synchronize with other consumers
  std::uint32_t h = pp.runqhead.load(acquire);
  std::uint32_t t = pp.runqtail.load(relaxed);  // own tail
  std::uint32_t qn = t - h;
  if (qn == 0) {
    return drainQ;
  }
  if (qn > Cap) {  // read inconsistent h and t
    goto retry;
  }

  // cas-release, commits consume
  if (!pp.runqhead.compare_exchange_strong(h, h + qn, release, relaxed)) {
    goto retry;
  }

  // The head moves before the Gs are linked: a G's schedlink may be written
  // only once the CAS made it ours, while thieves may still be copying it.
  for (std::uint32_t i = 0; i < qn; i++) {
    drainQ.pushBack(pp.runq[(h + i) % Cap].load(relaxed));  // ours since the CAS
  }
  return drainQ;
}

// Grabs a batch of goroutines from pp's runnable queue into batch.
// Batch is a ring buffer starting at batchHead.
// Returns number of grabbed goroutines.
// Can be executed by any P.  Go: runqgrab
template <class B, std::uint32_t Cap>
std::uint32_t runqgrab(p<B, Cap>& pp, typename p<B, Cap>::ring& batch, std::uint32_t batchHead,
                       bool stealRunNextG) {
  for (;;) {
    // load-acquire, synchronize with other consumers
    std::uint32_t h = pp.runqhead.load(acquire);
    // load-acquire, synchronize with the producer
    std::uint32_t t = pp.runqtail.load(acquire);
    std::uint32_t n = t - h;
    n = n - n / 2;
    if (n == 0) {
      if (stealRunNextG) {
        // Try to steal from pp.runnext.
        // relaxed: the CAS below validates it.
        if (g<B>* next = pp.runnext.load(relaxed); next != nullptr) {
          // relaxed: a hint.
          if (pp.status.load(relaxed) == static_cast<std::uint32_t>(pstatus::running)) {
            // acquire: pairs with acquirep's release store, so the M is ours to read.
            if (runqcheck::m<B>* mp = pp.m.load(acquire); mp != nullptr) {
              // go1.26 (d55ecea9e5): no backoff while pp's G is in a syscall.
              // acquire: pairs with the M's release store of curg (the G's
              // construction happens before its status is read); status: a hint.
              if (g<B>* gp = mp->curg.load(acquire);
                  gp == nullptr || (gp->atomicstatus.load(relaxed) & ~gscan) !=
                                       static_cast<std::uint32_t>(gstatus::syscall)) {
                // Back off so that pp can run the G it just readied (Go:
                // usleep(3); a yield under Relacy).
                B::runqgrab_backoff();
              }
            }
          }
          // acquire: pairs with the owner's release CAS in runqput, so the
          // G's state is ours.
          if (!pp.runnext.compare_exchange_strong(next, nullptr, acquire, relaxed)) {
            continue;
          }
          batch[batchHead % Cap].store(next, relaxed);  // published by runqsteal
          return 1;
        }
      }
      return 0;
    }
    if (n > Cap / 2) {  // read inconsistent h and t
      continue;
    }
    for (std::uint32_t i = 0; i < n; i++) {
      // relaxed: after the tail acquire; if overwritten, the CAS fails.
      g<B>* gp = pp.runq[(h + i) % Cap].load(relaxed);
      batch[(batchHead + i) % Cap].store(gp, relaxed);  // published by runqsteal
    }
    // cas-release, commits consume: pairs with the owner's acquire of head
    // before it overwrites these slots.
    if (pp.runqhead.compare_exchange_strong(h, h + n, release, relaxed)) {
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
  // load-acquire, synchronize with consumers
  std::uint32_t h = pp.runqhead.load(acquire);
  RQ_CHECK(B, t - h + n < Cap, "runqsteal: runq overflow", "h", h, "t", t, "n", n);
  // store-release, makes the item available for consumption
  pp.runqtail.store(t + n, release);
  return gp;
}

// The run-queue part of (*p).destroy, used by procresize when shrinking:
// move all runnable goroutines to the global queue, keeping local order at
// its head, runnext first. In Go the world is stopped; here the caller must
// guarantee that no other P touches pp (relaxed accesses) and hold the lock.
// Go: (*p).destroy, "Move all runnable goroutines to the global queue".
template <class B, std::uint32_t Cap>
void destroy(locked_sched<B>& sched, p<B, Cap>& pp) {
  while (pp.runqhead.load(relaxed) != pp.runqtail.load(relaxed)) {
    // Pop from tail of local queue
    std::uint32_t t = pp.runqtail.load(relaxed) - 1;
    pp.runqtail.store(t, relaxed);
    g<B>* gp = pp.runq[t % Cap].load(relaxed);
    // Push onto head of global queue
    globrunqputhead(sched, gp);
  }
  if (g<B>* next = pp.runnext.load(relaxed); next != nullptr) {
    globrunqputhead(sched, next);
    pp.runnext.store(nullptr, relaxed);
  }
}

// findRunnable's "global runq" step (go1.25): a batch of up to Cap/2 under
// sched.lock, then runqputbatch outside it. Go first peeks at
// sched.runq.empty() without the lock; that racy read is a data race in
// C++, so the port always locks. Owner P only, on an empty ring.
// Go: the globrunqgetbatch block of findRunnable.
template <class B, std::uint32_t Cap>
g<B>* findRunnable_globrunq(p<B, Cap>& pp) {
  globrunq_batch<B> r;
  {
    auto sched = lock(*pp.sched);
    r = globrunqgetbatch(sched, static_cast<std::int32_t>(Cap) / 2);
  }
  if (r.gp != nullptr) {
    runqputbatch(pp, r.q);
    RQ_CHECK(B, r.q.empty(), "Couldn't put Gs into empty local runq", "left", r.q.size());
  }
  return r.gp;
}

}  // namespace runqcheck
