// narrow_index/narrow_index.hpp — a BUGGY port for the stall checker's teeth:
// Go's lock-free run queue with 16-bit runqhead/runqtail (tokio #5041's bug).
// Consistent mod 2^16, so every short scenario passes; a thief stalled
// between its reads and its CAS while the owner advances head by 2^16 sees
// its CAS succeed on a recycled index (ABA) and claims Gs already consumed.
// Registered only by tests/stall (stall_teeth/narrow_index), which passes iff
// the stall checker fails on it.
#pragma once

#include <array>
#include <cstdint>
#include <runqcheck/go125.hpp>
#include <string>

namespace narrow {

using runqcheck::g;
using runqcheck::gQueue;
using u16 = std::uint16_t;
constexpr auto relaxed = std::memory_order::relaxed;
constexpr auto acquire = std::memory_order::acquire;
constexpr auto release = std::memory_order::release;

template <class B, std::uint32_t Cap = 256>
struct narrow_index : runqcheck::go125<B, Cap> {
  static_assert(Cap <= (1u << 15), "16-bit indices need Cap <= 2^15");
  using G = g<B>;
  using schedt = runqcheck::schedt<B>;
  static constexpr const char* name = "narrow_index";

  struct p {
    p(schedt& s, std::int32_t pid) : sched(&s), id(pid) {}
    schedt* sched;
    std::int32_t id;
    typename B::template atomic<u16> runqhead{0};  // the bug: 16 bits
    typename B::template atomic<u16> runqtail{0};
    std::array<typename B::template atomic<G*>, Cap> runq{};
    typename B::template atomic<G*> runnext{nullptr};
  };
  using ring = decltype(p::runq);

  static u16 sub(u16 a, u16 b) { return static_cast<u16>(a - b); }

  static bool runqempty(p& pp) {
    for (;;) {
      u16 h = pp.runqhead.load(acquire);   // acquire: pairs with consumers' release CAS
      u16 t = pp.runqtail.load(acquire);   // acquire: pairs with the owner's release store
      G* next = pp.runnext.load(acquire);  // acquire: pairs with the release CASes on runnext
      if (t == pp.runqtail.load(relaxed)) return h == t && next == nullptr;  // coherence
    }
  }

  static void runqput(p& pp, G* gp, bool next) {
    if (next) {
      G* old = pp.runnext.load(relaxed);  // relaxed: only this P stores non-nil
      while (
          !pp.runnext.compare_exchange_strong(old, gp, release, relaxed)) {  // release: to thieves
      }
      if (old == nullptr) return;
      gp = old;
    }
    for (;;) {
      u16 h = pp.runqhead.load(acquire);  // acquire: consumers' slot reads happen before overwrite
      u16 t = pp.runqtail.load(relaxed);  // own tail
      if (sub(t, h) < Cap) {
        pp.runq[t % Cap].store(gp, relaxed);     // published by the tail store
        pp.runqtail.store(u16(t + 1), release);  // release: to consumers' acquire of tail
        return;
      }
      if (runqputslow(pp, gp, h, t)) return;
    }
  }

  static bool runqputslow(p& pp, G* gp, u16 h, u16 t) {
    std::array<G*, Cap / 2 + 1> batch{};
    u16 n = sub(t, h) / 2;
    RQ_CHECK(B, n == Cap / 2, "runqputslow: queue is not full", "h", h, "t", t);
    for (u16 i = 0; i < n; i++) batch[i] = pp.runq[u16(h + i) % Cap].load(relaxed);  // own slots
    u16 hh = h;
    if (!pp.runqhead.compare_exchange_strong(hh, u16(h + n), release,
                                             relaxed)) {  // release: commits
      return false;
    }
    batch[n] = gp;
    for (u16 i = 0; i < n; i++) batch[i]->schedlink.store(batch[i + 1]);
    gQueue<B> q(batch[0], batch[n], n + 1);
    auto sched = runqcheck::lock(*pp.sched);
    runqcheck::globrunqputbatch(sched, q);
    return true;
  }

  static void runqputbatch(p& pp, gQueue<B>& q) {
    u16 h = pp.runqhead.load(acquire);  // acquire: as in runqput
    u16 t = pp.runqtail.load(relaxed);
    while (!q.empty() && sub(t, h) < Cap) {
      pp.runq[t % Cap].store(q.pop(), relaxed);  // published by the tail store
      t++;
    }
    pp.runqtail.store(t, release);  // release: to consumers
  }

  static runqcheck::runqget_result<B> runqget(p& pp) {
    G* next = pp.runnext.load(relaxed);  // relaxed: this P stored it
    if (next != nullptr) {
      G* expect = next;
      if (pp.runnext.compare_exchange_strong(expect, nullptr, release,
                                             relaxed)) {  // release: runqempty
        return {next, true};
      }
    }
    for (;;) {
      u16 h = pp.runqhead.load(acquire);  // acquire: other consumers
      u16 t = pp.runqtail.load(relaxed);
      if (t == h) return {nullptr, false};
      G* gp = pp.runq[h % Cap].load(relaxed);
      if (pp.runqhead.compare_exchange_strong(h, u16(h + 1), release,
                                              relaxed)) {  // release: commits
        return {gp, false};
      }
    }
  }

  static gQueue<B> runqdrain(p& pp) {
    gQueue<B> q;
    if (G* next = pp.runnext.load(relaxed); next != nullptr) {  // relaxed: as in runqget
      G* expect = next;
      if (pp.runnext.compare_exchange_strong(expect, nullptr, release, relaxed)) q.pushBack(next);
    }
    for (;;) {
      u16 h = pp.runqhead.load(acquire);  // acquire: other consumers
      u16 t = pp.runqtail.load(relaxed);
      u16 n = sub(t, h);
      if (n == 0) return q;
      if (n > Cap) continue;
      if (!pp.runqhead.compare_exchange_strong(h, u16(h + n), release, relaxed))
        continue;  // commits
      for (u16 i = 0; i < n; i++) q.pushBack(pp.runq[u16(h + i) % Cap].load(relaxed));
      return q;
    }
  }

  static u16 runqgrab(p& pp, ring& batch, u16 bh, bool stealRunNextG) {
    for (;;) {
      u16 h = pp.runqhead.load(acquire);  // acquire: other consumers
      u16 t = pp.runqtail.load(acquire);  // acquire: the producer's release of tail
      u16 n = sub(t, h);
      n = n - n / 2;
      if (n == 0) {
        if (!stealRunNextG) return 0;
        G* next = pp.runnext.load(relaxed);  // relaxed: the CAS validates it
        if (next == nullptr) return 0;
        if (!pp.runnext.compare_exchange_strong(next, nullptr, acquire, relaxed))
          continue;  // acq: put
        batch[bh % Cap].store(next, relaxed);
        return 1;
      }
      if (n > Cap / 2) continue;  // inconsistent h and t
      for (u16 i = 0; i < n; i++) {
        batch[u16(bh + i) % Cap].store(pp.runq[u16(h + i) % Cap].load(relaxed), relaxed);
      }
      if (pp.runqhead.compare_exchange_strong(h, u16(h + n), release, relaxed)) {  // release: owner
        return n;
      }
    }
  }

  static G* runqsteal(p& pp, p& p2, bool stealRunNextG) {
    u16 t = pp.runqtail.load(relaxed);  // own tail
    u16 n = runqgrab(p2, pp.runq, t, stealRunNextG);
    if (n == 0) return nullptr;
    n--;
    G* gp = pp.runq[u16(t + n) % Cap].load(relaxed);
    if (n == 0) return gp;
    u16 h = pp.runqhead.load(acquire);  // acquire: consumers
    RQ_CHECK(B, sub(t, h) + n < Cap, "runqsteal: runq overflow", "h", h, "t", t, "n", n);
    pp.runqtail.store(u16(t + n), release);  // release: to consumers
    return gp;
  }

  static G* findRunnable_globrunq(p& pp) {
    runqcheck::globrunq_batch<B> r;
    {
      auto sched = runqcheck::lock(*pp.sched);
      r = runqcheck::globrunqgetbatch(sched, static_cast<std::int32_t>(Cap) / 2);
    }
    if (r.gp != nullptr) {
      runqputbatch(pp, r.q);
      RQ_CHECK(B, r.q.empty(), "Couldn't put Gs into empty local runq", "left", r.q.size());
    }
    return r.gp;
  }

  // Go's order at the global head: runnext first, then the ring in local order.
  static void destroy(p& pp) {
    auto sched = runqcheck::lock(*pp.sched);
    while (pp.runqhead.load(relaxed) != pp.runqtail.load(relaxed)) {  // relaxed: world stopped
      u16 t = u16(pp.runqtail.load(relaxed) - 1);
      pp.runqtail.store(t, relaxed);
      runqcheck::globrunqputhead(sched, pp.runq[t % Cap].load(relaxed));
    }
    if (G* next = pp.runnext.load(relaxed); next != nullptr) {
      runqcheck::globrunqputhead(sched, next);
      pp.runnext.store(nullptr, relaxed);
    }
  }

  // Optional hook (subject.hpp): one line for dumps; with go125's
  // describe_sched (same schedt) it enables the checkers' state dumps.
  // No runq_counters: its contract is 32-bit free-running counters.
  static std::string describe_p(p& pp) {
    u16 h = pp.runqhead.load(relaxed), t = pp.runqtail.load(relaxed);  // relaxed: a dump
    std::string s = "runqhead=" + std::to_string(h) + " runqtail=" + std::to_string(t) + " runq=[";
    for (u16 i = h; i != t && sub(i, h) < Cap; i++) {
      s += (i == h ? "" : " ") + runqcheck::go125<B, Cap>::gname(pp.runq[i % Cap].load(relaxed));
    }
    return s + "]";
  }
};

}  // namespace narrow
