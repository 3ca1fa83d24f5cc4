// acme::workq — a run queue written in its own style, checked by runqcheck
// like any user's port: Go's algorithm (a lock-free ring with free-running
// counters, a next-up slot changed by CAS, spill half when full, steal half)
// with its own names, its own global queue and its own error texts. It
// includes only what runqcheck/subject.hpp documents.
//
// Invariants:
//  - `first` and `last` run freely over Ctr (uint32 unless a variant says);
//    a slot is counter % Cap; last - first <= Cap.
//  - Only the owner writes `last`, the slots and a non-nil `next_up`;
//    anyone advances `first` by CAS after reading the slots it claims, and
//    anyone may CAS `next_up` to nil.
//  - The owner reads its own `last` plainly (it is the only writer), as Go
//    does; everyone else reads it with acquire.
#pragma once

#include <algorithm>
#include <array>
#include <concepts>
#include <cstdint>
#include <string>

#include <runqcheck/subject.hpp>

namespace acme {

template <class B>
struct central {
  explicit central(std::int32_t n) : nproc(n) {}
  typename B::mutex mu;
  runqcheck::gQueue<B> q;  // guarded by mu
  std::int32_t nproc;      // guarded by mu
};

template <class B>
class held {  // mu held for the object's lifetime
 public:
  explicit held(central<B>& c) : c_(c) { c_.mu.lock(); }
  ~held() { c_.mu.unlock(); }
  held(const held&) = delete;
  held& operator=(const held&) = delete;

 private:
  central<B>& c_;
};

// Publish: runqput's tail store (acme::strict makes it seq_cst).
template <class B, std::uint32_t Cap, std::unsigned_integral Ctr = std::uint32_t,
          std::memory_order Publish = std::memory_order::release>
struct workq {
  using G = runqcheck::g<B>;
  using schedt = central<B>;
  using ctr = Ctr;  // the counters' type: Go's uint32, or a wider one
  static constexpr const char* name = "acme-workq";
  static constexpr auto relaxed = std::memory_order::relaxed;
  static constexpr auto acquire = std::memory_order::acquire;
  static constexpr auto release = std::memory_order::release;

  struct p {
    p(central<B>& c, std::int32_t n) : home(&c), id(n) {}
    central<B>* home;
    std::int32_t id;
    typename B::template atomic<ctr> first{0}, last{0};
    std::array<typename B::template atomic<G*>, Cap> slots;
    typename B::template atomic<G*> next_up{nullptr};
  };
  struct got {
    G* gp;
    bool inheritTime;
  };

  // Any thread. Re-reads `last` so that a next-up kicked into the ring while
  // we looked is not missed.
  static bool runqempty(p& q) {
    for (;;) {
      ctr f = q.first.load(acquire);  // acquire: pairs with consumers' release CAS
      ctr l = q.last.load(acquire);   // acquire: pairs with the owner's release store
      G* n = q.next_up.load(acquire);           // acquire: pairs with the release CAS on next_up
      if (l == q.last.load(relaxed)) return f == l && n == nullptr;
    }
  }

  // Owner only.
  static void runqput(p& q, G* gp, bool next) {
    if (next) {
      G* old = q.next_up.load(relaxed);
      // release: publishes gp to a thief's acquire CAS
      while (!q.next_up.compare_exchange_strong(old, gp, release, relaxed)) {
      }
      if (old == nullptr) return;
      gp = old;
    }
    for (;;) {
      // acquire: consumers' slot reads happen before our overwrite
      ctr f = q.first.load(acquire);
      ctr l = q.last.load_plain();    // own counter, plain as in Go
      if (l - f < Cap) {
        q.slots[l % Cap].store(gp, relaxed);  // published by the release below
        q.last.store(l + 1, Publish);         // Publish (release): to consumers' acquire
        return;
      }
      if (spill(q, gp, f, l)) return;
    }
  }

  // Owner only: the oldest half and gp to the global tail; false if a thief
  // moved `first` meanwhile (the ring is no longer full).
  static bool spill(p& q, G* gp, ctr f, ctr l) {
    ctr n = (l - f) / 2;
    RQ_CHECK(B, n == Cap / 2, "acme: spill of a ring that is not full", "first", f, "last", l);
    std::array<G*, Cap / 2 + 1> b{};
    for (ctr i = 0; i < n; i++) b[i] = q.slots[(f + i) % Cap].load(relaxed);
    // release: our slot reads happen before the owner reuses them
    if (!q.first.compare_exchange_strong(f, f + n, release, relaxed)) return false;
    b[n] = gp;
    runqcheck::gQueue<B> out;
    for (ctr i = 0; i <= n; i++) out.pushBack(b[i]);
    held<B> lk(*q.home);
    q.home->q.pushBackAll(std::move(out));
    return true;
  }

  // Owner only: as many as fit, in order; the rest stay in `in`.
  static void runqputbatch(p& q, runqcheck::gQueue<B>& in) {
    if (in.empty()) return;
    ctr f = q.first.load(acquire);  // acquire: as in runqput
    ctr l = q.last.load_plain();
    while (!in.empty() && l - f < Cap) q.slots[l++ % Cap].store(in.pop(), relaxed);
    q.last.store(l, release);  // release: publishes the slots
  }

  // Owner only.
  static got runqget(p& q) {
    if (G* n = q.next_up.load(relaxed); n != nullptr) {
      G* want = n;
      // release: pairs with runqempty's acquire of next_up
      if (q.next_up.compare_exchange_strong(want, nullptr, release, relaxed)) return {n, true};
    }
    for (;;) {
      ctr f = q.first.load(acquire);  // acquire: other consumers
      ctr l = q.last.load_plain();
      if (f == l) return {nullptr, false};
      G* gp = q.slots[f % Cap].load(relaxed);
      // release: our slot read happens before the slot is reused
      if (q.first.compare_exchange_strong(f, f + 1, release, relaxed)) return {gp, false};
    }
  }

  // Owner only.
  static runqcheck::gQueue<B> runqdrain(p& q) {
    runqcheck::gQueue<B> out;
    if (G* n = q.next_up.load(relaxed); n != nullptr) {
      G* want = n;
      // release: as in runqget
      if (q.next_up.compare_exchange_strong(want, nullptr, release, relaxed)) out.pushBack(n);
    }
    for (;;) {
      ctr f = q.first.load(acquire);  // acquire: other consumers
      ctr l = q.last.load_plain();
      if (f == l) return out;
      ctr ff = f;
      if (!q.first.compare_exchange_strong(ff, l, release, relaxed)) continue;  // release: as above
      for (ctr i = f; i != l; i++) out.pushBack(q.slots[i % Cap].load(relaxed));
      return out;
    }
  }

  // Any thread: copies ceil(n/2) of victim's Gs (or its next-up) into
  // thief's slots from thief's `last`; returns how many.
  static ctr grab(p& victim, p& thief, bool take_next) {
    for (;;) {
      ctr f = victim.first.load(acquire);  // acquire: other consumers
      ctr l = victim.last.load(acquire);   // acquire: the owner's release of last
      ctr n = l - f;
      if (n == 0) {
        if (!take_next) return 0;
        G* nx = victim.next_up.load(relaxed);
        if (nx == nullptr) return 0;
        // acquire: pairs with the owner's release CAS that set it
        constexpr auto acq_rel = std::memory_order::acq_rel;
        if (!victim.next_up.compare_exchange_strong(nx, nullptr, acq_rel, relaxed))
          continue;
        thief.slots[thief.last.load_plain() % Cap].store(nx, relaxed);
        return 1;
      }
      n -= n / 2;
      if (n > Cap / 2) continue;  // inconsistent f, l
      if (claim(victim, thief, f, n)) return n;
    }
  }

  // Copies victim's n Gs from `f` into thief's free slots, then claims them
  // by moving victim's `first`; false if another consumer moved it first.
  static bool claim(p& victim, p& thief, ctr f, ctr n) {
    ctr tl = thief.last.load_plain();
    for (ctr i = 0; i < n; i++)
      thief.slots[(tl + i) % Cap].store(victim.slots[(f + i) % Cap].load(relaxed), relaxed);
    // release: our slot reads happen before the owner reuses them
    return victim.first.compare_exchange_strong(f, f + n, release, relaxed);
  }

  // Thief's owner.
  static G* runqsteal(p& thief, p& victim, bool stealRunNextG) {
    ctr n = grab(victim, thief, stealRunNextG);
    if (n == 0) return nullptr;
    n--;
    ctr l = thief.last.load_plain();
    G* gp = thief.slots[(l + n) % Cap].load(relaxed);
    if (n == 0) return gp;
    ctr f = thief.first.load(acquire);  // acquire: other consumers
    RQ_CHECK(B, l - f + n < Cap, "acme: thief ring has no room for the stolen Gs", "n", n);
    thief.last.store(l + n, release);  // release: publishes the stolen Gs
    return gp;
  }

  static void globrunqput(schedt& c, G* gp) {
    held<B> lk(c);
    c.q.pushBack(gp);
  }
  static G* globrunqget(schedt& c) {
    held<B> lk(c);
    return c.q.pop();
  }
  static std::int32_t globrunqsize(schedt& c) {
    held<B> lk(c);
    return c.q.size();
  }

  // Takes n = min(Cap/2, size, size/nproc + 1) Gs off the global head: the
  // first is returned, the rest go to `batch`.
  static G* take_global(p& q, runqcheck::gQueue<B>& batch) {
    held<B> lk(*q.home);
    std::int32_t size = q.home->q.size();
    std::int32_t half = static_cast<std::int32_t>(Cap / 2);
    std::int32_t n = std::min({half, size, size / q.home->nproc + 1});
    if (n == 0) return nullptr;
    G* gp = q.home->q.pop();
    for (std::int32_t i = 1; i < n; i++) batch.pushBack(q.home->q.pop());
    return gp;
  }

  // Owner, empty ring: the global batch into the ring, one G back.
  static G* findRunnable_globrunq(p& q) {
    runqcheck::gQueue<B> batch;
    G* gp = take_global(q, batch);
    runqputbatch(q, batch);
    RQ_CHECK(B, batch.empty(), "acme: global batch did not fit the local ring", "left",
             batch.size());
    return gp;
  }

  // World stopped: next-up, then the ring oldest first, ahead of the global Gs.
  static void destroy(p& q) {
    runqcheck::gQueue<B> mine = runqdrain(q);
    held<B> lk(*q.home);
    mine.pushBackAll(std::move(q.home->q));
    q.home->q = std::move(mine);
  }

  // Hooks (runqcheck/subject.hpp).
  static runqcheck::basic_runq_counters<ctr> runq_counters(p& q) {
    return {q.first.load(relaxed), q.last.load(relaxed)};
  }
  static void set_runq_counters(p& q, ctr v) {
    q.first.store(v, relaxed);
    q.last.store(v, relaxed);
  }
  static void set_gomaxprocs(schedt& c, std::int32_t n) {
    held<B> lk(c);
    c.nproc = n;
  }
  static std::string describe_p(p& q) {
    ctr f = q.first.load(relaxed), l = q.last.load(relaxed);
    std::string s = "first=" + std::to_string(f) + " last=" + std::to_string(l) + " next_up=" +
                    gname(q.next_up.load(relaxed)) + " slots=[";
    for (ctr i = f; i != l && i - f < Cap; i++)
      s += (i == f ? "" : " ") + gname(q.slots[i % Cap].load(relaxed));
    return s + "]";
  }
  static std::string describe_sched(schedt& c) {  // without mu: it may be held by a stuck thread
    return "global size=" + std::to_string(c.q.size()) + " head=" + gname(c.q.head());
  }
  static std::string gname(G* gp) { return gp == nullptr ? "nil" : "G" + std::to_string(gp->goid); }
};

}  // namespace acme
