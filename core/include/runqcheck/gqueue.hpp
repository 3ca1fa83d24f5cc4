// runqcheck/gqueue.hpp — gQueue and gList: intrusive lists of Gs through
// g.schedlink (Go: proc.go, "A gQueue is a dequeue of Gs linked through
// g.schedlink. A G can only be on one gQueue or gList at a time.").
//
// Not thread-safe: a gQueue is owned by one P (a batch in flight) or guarded
// by sched.lock (the global queue). Its fields are backend plain variables so
// that Relacy reports any unguarded concurrent use as a data race.
//
// Change from Go: Go copies gQueue values freely (`*batch = gQueue{}`,
// pushBackAll(q2 gQueue) "after this q2 must not be used"). Here gQueue is
// move-only and a move empties the source, so "must not be used" is enforced.
#pragma once

#include <cstdint>
#include <utility>

#include "g.hpp"

namespace runqcheck {

template <class B>
class gList;

template <class B>
class gQueue {
 public:
  using G = g<B>;

  gQueue() = default;
  gQueue(G* head, G* tail, std::int32_t size) { set(head, tail, size); }
  gQueue(gQueue&& o) noexcept { take(o); }
  gQueue& operator=(gQueue&& o) noexcept {
    if (this != &o) take(o);
    return *this;
  }
  gQueue(const gQueue&) = delete;
  gQueue& operator=(const gQueue&) = delete;

  // Go: (*gQueue).empty
  bool empty() const { return head_.load() == nullptr; }

  // Go: (*gQueue).push — adds gp to the head of q.
  void push(G* gp) {
    gp->schedlink.store(head_.load());
    head_.store(gp);
    if (tail_.load() == nullptr) tail_.store(gp);
    size_.store(size_.load() + 1);
  }

  // Go: (*gQueue).pushBack — adds gp to the tail of q.
  void pushBack(G* gp) {
    gp->schedlink.store(nullptr);
    if (G* t = tail_.load(); t != nullptr) {
      t->schedlink.store(gp);
    } else {
      head_.store(gp);
    }
    tail_.store(gp);
    size_.store(size_.load() + 1);
  }

  // Go: (*gQueue).pushBackAll — adds all Gs of q2 to the tail of q; q2 ends empty.
  void pushBackAll(gQueue&& q2) {
    G* t2 = q2.tail_.load();
    if (t2 == nullptr) return;
    t2->schedlink.store(nullptr);
    if (G* t = tail_.load(); t != nullptr) {
      t->schedlink.store(q2.head_.load());
    } else {
      head_.store(q2.head_.load());
    }
    tail_.store(t2);
    size_.store(size_.load() + q2.size_.load());
    q2.set(nullptr, nullptr, 0);
  }

  // Go: (*gQueue).pop — removes and returns the head of q, nullptr if empty.
  G* pop() {
    G* gp = head_.load();
    if (gp != nullptr) {
      head_.store(gp->schedlink.load());
      if (head_.load() == nullptr) tail_.store(nullptr);
      size_.store(size_.load() - 1);
    }
    return gp;
  }

  // Go: (*gQueue).popList — takes all Gs in q and returns them as a gList.
  gList<B> popList();

  std::int32_t size() const { return size_.load(); }
  G* head() const { return head_.load(); }
  G* tail() const { return tail_.load(); }

 private:
  void set(G* h, G* t, std::int32_t n) {
    head_.store(h);
    tail_.store(t);
    size_.store(n);
  }
  void take(gQueue& o) {
    set(o.head_.load(), o.tail_.load(), o.size_.load());
    o.set(nullptr, nullptr, 0);
  }

  typename B::template var<G*> head_{nullptr};
  typename B::template var<G*> tail_{nullptr};
  typename B::template var<std::int32_t> size_{0};
};

template <class B>
class gList {
 public:
  using G = g<B>;

  gList() = default;
  gList(G* head, std::int32_t size) {
    head_.store(head);
    size_.store(size);
  }
  gList(gList&& o) noexcept : gList(o.head_.load(), o.size_.load()) { o.clear(); }
  gList& operator=(gList&& o) noexcept {
    if (this != &o) {
      head_.store(o.head_.load());
      size_.store(o.size_.load());
      o.clear();
    }
    return *this;
  }
  gList(const gList&) = delete;
  gList& operator=(const gList&) = delete;

  // Go: (*gList).empty
  bool empty() const { return head_.load() == nullptr; }

  // Go: (*gList).push — adds gp to the head of l.
  void push(G* gp) {
    gp->schedlink.store(head_.load());
    head_.store(gp);
    size_.store(size_.load() + 1);
  }

  // Go: (*gList).pushAll — prepends all Gs in q to l; q ends empty.
  void pushAll(gQueue<B>&& q) {
    if (!q.empty()) {
      q.tail()->schedlink.store(head_.load());
      head_.store(q.head());
      size_.store(size_.load() + q.size());
      q = gQueue<B>{};  // Go: "After this q must not be used."
    }
  }

  // Go: (*gList).pop — removes and returns the head of l, nullptr if empty.
  G* pop() {
    G* gp = head_.load();
    if (gp != nullptr) {
      head_.store(gp->schedlink.load());
      size_.store(size_.load() - 1);
    }
    return gp;
  }

  std::int32_t size() const { return size_.load(); }

 private:
  void clear() {
    head_.store(nullptr);
    size_.store(0);
  }
  typename B::template var<G*> head_{nullptr};
  typename B::template var<std::int32_t> size_{0};
};

template <class B>
gList<B> gQueue<B>::popList() {
  gList<B> stack(head_.load(), size_.load());
  set(nullptr, nullptr, 0);
  return stack;
}

}  // namespace runqcheck
