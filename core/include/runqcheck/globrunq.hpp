// runqcheck/globrunq.hpp — the global run queue: sched.runq under sched.lock.
//
// Ports (go1.25 proc.go): globrunqput, globrunqputhead, globrunqputbatch,
// globrunqget, globrunqgetbatch; and the pre-1.25 globrunqget(pp, max)
// (go1.3 … go1.24) as the `pre125` flavor (subject go124), which go1.25 split into
// globrunqgetbatch + runqputbatch outside the lock (commit a42e337ede: a
// runqput under sched.lock could reach runqputslow, which locks it again).
//
// "sched.lock must be held": every function here takes a locked_sched&, which
// only lock(sched) can make, so calling one without the lock does not compile
// (Go checks this at run time with assertLockHeld).
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>

#include "gqueue.hpp"

namespace runqcheck {

template <class B, std::uint32_t Cap>
struct p;

// Go: type schedt, the part the queues use.
template <class B>
struct schedt {
  explicit schedt(std::int32_t nprocs = 1) : gomaxprocs(nprocs) {}
  schedt(const schedt&) = delete;
  schedt& operator=(const schedt&) = delete;

  typename B::mutex lock;  // Go: sched.lock
  gQueue<B> runq;          // Go: sched.runq; guarded by lock
  // Go: the global gomaxprocs. Read by globrunqgetbatch under the lock,
  // written by procresize (world stopped in Go; under the lock here).
  std::int32_t gomaxprocs;
};

// Proof that sched.lock is held: the only way to reach sched.runq.
template <class B>
class [[nodiscard]] locked_sched {
 public:
  explicit locked_sched(schedt<B>& s, loc l = loc::current()) : s_(s) { s_.lock.lock(l); }
  ~locked_sched() { s_.lock.unlock(); }
  locked_sched(const locked_sched&) = delete;
  locked_sched& operator=(const locked_sched&) = delete;

  gQueue<B>& runq() { return s_.runq; }
  std::int32_t gomaxprocs() const { return s_.gomaxprocs; }
  void set_gomaxprocs(std::int32_t n) { s_.gomaxprocs = n; }

 private:
  schedt<B>& s_;
};

// Go: lock(&sched.lock). The lock is released when the result is destroyed.
template <class B>
locked_sched<B> lock(schedt<B>& s, loc l = loc::current()) {
  return locked_sched<B>(s, l);
}

// x+1 with Go's int32 wraparound: at size = 2^31-1 and gomaxprocs = 1, Go's
// `size/gomaxprocs + 1` wraps to -2^31 (proofs/z3, twin *.int32_max); in C++
// signed overflow is undefined, so the port wraps explicitly, as Go does.
constexpr std::int32_t go_add1(std::int32_t x) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(x) + 1u);
}

// Put gp on the global runnable queue.
// sched.lock must be held.  Go: globrunqput
template <class B>
void globrunqput(locked_sched<B>& sched, g<B>* gp) {
  sched.runq().pushBack(gp);
}

// Put gp at the head of the global runnable queue.
// sched.lock must be held.  Go: globrunqputhead
template <class B>
void globrunqputhead(locked_sched<B>& sched, g<B>* gp) {
  sched.runq().push(gp);
}

// Put a batch of runnable goroutines on the global runnable queue.
// This clears *batch. sched.lock must be held.  Go: globrunqputbatch
template <class B>
void globrunqputbatch(locked_sched<B>& sched, gQueue<B>& batch) {
  sched.runq().pushBackAll(std::move(batch));
}

// Try get a single G from the global runnable queue.
// sched.lock must be held.  Go: globrunqget (go1.25)
template <class B>
g<B>* globrunqget(locked_sched<B>& sched) {
  if (sched.runq().size() == 0) {
    return nullptr;
  }
  return sched.runq().pop();
}

template <class B>
struct [[nodiscard]] globrunq_batch {
  g<B>* gp = nullptr;  // the G to run now
  gQueue<B> q;         // the rest, for runqputbatch outside the lock
};

// Try get a batch of G's from the global runnable queue.
// sched.lock must be held.  Go: globrunqgetbatch (go1.25)
template <class B>
globrunq_batch<B> globrunqgetbatch(locked_sched<B>& sched, std::int32_t n) {
  globrunq_batch<B> r;
  std::int32_t size = sched.runq().size();
  if (size == 0) {
    return r;
  }

  n = std::min({n, size, go_add1(size / sched.gomaxprocs())});

  r.gp = sched.runq().pop();
  n--;

  for (; n > 0; n--) {
    g<B>* gp1 = sched.runq().pop();
    RQ_CHECK(B, gp1 != nullptr, "globrunqgetbatch: global runq shorter than its size", "n", n);
    r.q.pushBack(gp1);
  }
  return r;
}

namespace pre125 {

// Try get a batch of G's from the global runnable queue and put all but the
// returned one on pp's local queue with runqput — under sched.lock.
// sched.lock must be held.  Go: globrunqget(pp, max), go1.3 … go1.24.
template <class B, std::uint32_t Cap>
g<B>* globrunqget(locked_sched<B>& sched, p<B, Cap>& pp, std::int32_t max) {
  std::int32_t size = sched.runq().size();
  if (size == 0) {
    return nullptr;
  }

  std::int32_t n = go_add1(size / sched.gomaxprocs());
  if (n > size) {
    n = size;
  }
  if (max > 0 && n > max) {
    n = max;
  }
  if (n > static_cast<std::int32_t>(Cap) / 2) {
    n = static_cast<std::int32_t>(Cap) / 2;
  }

  // Go also kept sched.runqsize here; our gQueue carries its own size.
  g<B>* gp = sched.runq().pop();
  n--;
  for (; n > 0; n--) {
    g<B>* gp1 = sched.runq().pop();
    runqput(pp, gp1, false);  // may reach runqputslow: the latent self-deadlock
  }
  return gp;
}

}  // namespace pre125
}  // namespace runqcheck
