// runqcheck/stress/chan.hpp — a minimal channel and WaitGroup on gopark /
// goready (Go: chan.go's chansend/chanrecv/closechan without select, and
// sync.WaitGroup on a semaphore). From a G only.
//
// Go's structure: a lock, a ring buffer, queues of waiting Gs (sudog: here
// the G's elem/success/waitlink fields). A sender that finds a waiting
// receiver copies straight into the receiver's slot and readies it (and the
// reverse); otherwise it uses the buffer or parks. The lock is released by
// gopark's unlock function on g0, after the G is off its stack, so a waker
// can never resume a G that is still running (Go: chanparkcommit).
#pragma once

#include <cstdint>
#include <vector>

#include <runqcheck/check.hpp>

#include "proc.hpp"

namespace runqcheck::stress {

// Go: waitq (a FIFO of waiting Gs). Guarded by the owner's lock.
struct waitq {
  G* first = nullptr;
  G* last = nullptr;
  void enqueue(G* gp) {
    gp->waitlink = nullptr;
    if (last) last->waitlink = gp;
    else first = gp;
    last = gp;
  }
  G* dequeue() {
    G* gp = first;
    if (gp) {
      first = gp->waitlink;
      if (!first) last = nullptr;
      gp->waitlink = nullptr;
    }
    return gp;
  }
};

// Go: hchan. T must be copyable.
template <class T>
class chan {
 public:
  explicit chan(std::size_t cap = 0) : buf_(cap) {}
  chan(const chan&) = delete;
  chan& operator=(const chan&) = delete;

  // Go: chansend (blocking). Sending on a closed channel is a fatal error.
  void send(T v) {
    lock_.lock();
    RQ_CHECK(B, !closed_, "send on closed channel");
    if (G* r = recvq_.dequeue()) {  // a waiting receiver takes v directly
      *static_cast<T*>(r->elem) = v;
      r->success = true;
      lock_.unlock();
      goready(r);
      return;
    }
    if (count_ < buf_.size()) {
      buf_[(head_ + count_) % buf_.size()] = v;
      count_++;
      lock_.unlock();
      return;
    }
    G* gp = getg();
    gp->elem = &v;
    gp->success = false;
    sendq_.enqueue(gp);
    gopark(&spinlock::unlockf, &lock_);
    RQ_CHECK(B, gp->success, "send on closed channel (closed while blocked)");
  }

  // Go: chanrecv (blocking); ok is false for a closed, drained channel.
  T recv(bool* ok = nullptr) {
    lock_.lock();
    if (G* s = sendq_.dequeue()) {
      T v;
      if (buf_.empty()) {
        v = *static_cast<T*>(s->elem);
      } else {  // full buffer: take the head, the sender's value goes to the tail
        v = buf_[head_];
        buf_[head_] = *static_cast<T*>(s->elem);
        head_ = (head_ + 1) % buf_.size();
      }
      s->success = true;
      lock_.unlock();
      goready(s);
      if (ok) *ok = true;
      return v;
    }
    if (count_ > 0) {
      T v = buf_[head_];
      head_ = (head_ + 1) % buf_.size();
      count_--;
      lock_.unlock();
      if (ok) *ok = true;
      return v;
    }
    if (closed_) {
      lock_.unlock();
      if (ok) *ok = false;
      return T{};
    }
    T v{};
    G* gp = getg();
    gp->elem = &v;
    gp->success = false;
    recvq_.enqueue(gp);
    gopark(&spinlock::unlockf, &lock_);
    if (ok) *ok = gp->success;
    return v;
  }

  // Go: closechan. Readies every waiter (receivers get ok=false).
  void close() {
    lock_.lock();
    RQ_CHECK(B, !closed_, "close of closed channel");
    closed_ = true;
    std::vector<G*> ready;
    while (G* g = recvq_.dequeue()) ready.push_back(g);
    while (G* g = sendq_.dequeue()) ready.push_back(g);
    lock_.unlock();
    for (G* g : ready) goready(g);
  }

 private:
  spinlock lock_;
  std::vector<T> buf_;
  std::size_t head_ = 0, count_ = 0;
  bool closed_ = false;
  waitq recvq_, sendq_;
};

// Go: sync.WaitGroup (Add/Done/Wait), waiters parked on a waitq.
class waitgroup {
 public:
  void add(std::int64_t n) {
    lock_.lock();
    n_ += n;
    RQ_CHECK(B, n_ >= 0, "sync: negative WaitGroup counter", "n", n_);
    std::vector<G*> ready;
    if (n_ == 0) {
      while (G* g = waiters_.dequeue()) ready.push_back(g);
    }
    lock_.unlock();
    for (G* g : ready) goready(g);
  }
  void done() { add(-1); }
  void wait() {
    lock_.lock();
    if (n_ == 0) {
      lock_.unlock();
      return;
    }
    waiters_.enqueue(getg());
    gopark(&spinlock::unlockf, &lock_);
  }

 private:
  spinlock lock_;
  std::int64_t n_ = 0;
  waitq waiters_;
};

}  // namespace runqcheck::stress
