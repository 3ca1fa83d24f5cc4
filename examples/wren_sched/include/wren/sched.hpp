// wren/sched.hpp — a wakeup protocol in its own style around Go's run
// queues: the example protocol subject (core/include/runqcheck/
// protocol_subject.hpp), registered by examples/wren_sched/subject.cmake.
//
// Its own names and data: a `roost` (not Go's schedt) holds the free Ps and
// the sleeping Ms as two fixed stacks under sched.lock, the `searchers`
// count (Go: nmspinning), `free_procs` (npidle) and `asked` (needspinning).
//
// Its own policy: findRunnable lets an M start searching only when none
// searches (spin_gate: a CAS of searchers 0 -> 1; Go admits up to half the
// busy Ps). injectglist sends every G to the global queue, then wakes an M
// per free P and ends with a wakeup (Go keeps part of the list on the
// caller's ring).
//
// What keeps it correct is Go's two-sided handshake (proc.go, "Worker
// thread parking/unparking"):
//   post:       1. publish the G   2. #StoreLoad   3. read searchers
//   give up:    1. searchers -= 1  2. #StoreLoad   3. recheck every queue
// Two seq_cst fences are ordered, so one side sees the other's store.
// A searcher that sees work but no free P sets `asked`; an M about to free
// its P then searches instead (Go 1.20, #45867).
//
// Rejected: a condition variable per M (the seam has none; the world parks
// an M), a lock-free free-P list (the lock is taken anyway to wake an M).
// No syscall or procresize hooks: those relacy_protocol scenarios print
// `runqcheck: not applied`.
#pragma once

#include <cstdint>
#include <span>

#include <runqcheck/check.hpp>
#include <runqcheck/globrunq.hpp>
#include <runqcheck/gqueue.hpp>
#include <runqcheck/protocol_subject.hpp>

namespace wren {

inline constexpr int max_procs = 8, max_threads = 8;

// The protocol's own state. Stacks: sched.lock. Counters: seq_cst.
template <class B, class P, class M>
struct roost {
  typename B::template atomic<std::int32_t> searchers{0};   // searching Ms + reservations
  typename B::template atomic<std::int32_t> free_procs{0};  // Ps on the free stack
  typename B::template atomic<std::uint32_t> asked{0};      // a searcher found no free P
  P* free_stack[max_procs] = {};
  M* sleep_stack[max_threads] = {};
  std::int32_t sleeping = 0;
};

template <class Env>
struct sched {
  using B = typename Env::B;
  using S = typename Env::S;
  using P = typename Env::P;
  using M = typename Env::M;
  using G = typename S::p::G;
  using locked = runqcheck::locked_sched<B>;
  using state = roost<B, P, M>;
  static constexpr const char* name = "wren";
  static constexpr auto sc = std::memory_order::seq_cst;
  static constexpr auto rx = std::memory_order::relaxed;

  static void fence() {
    B::fence(sc);  // step 2 of both sides: pairs with the other side's fence
  }

  // --- the stacks (sched.lock held) ---
  static void pidleput(locked&, P* pp) {
    RQ_CHECK(B, S::runqempty(*pp), "wren: freeing a P with work", "p", pp->id);
    auto& r = Env::ws();
    std::int32_t n = r.free_procs.load(rx);  // the lock orders writers
    RQ_CHECK(B, n < max_procs, "wren: free stack full", "n", n);
    r.free_stack[n] = pp;
    r.free_procs.store(n + 1, sc);  // seq_cst: read by post's wakeup without the lock
  }
  static P* pidleget(locked&) {
    auto& r = Env::ws();
    std::int32_t n = r.free_procs.load(rx);  // the lock orders writers
    if (n == 0) return nullptr;
    r.free_procs.store(n - 1, sc);  // seq_cst: as pidleput
    return r.free_stack[n - 1];
  }
  // A free P for a searcher; none: ask the next M that gives up its P.
  static P* take_for_search(locked& l) {
    P* pp = pidleget(l);
    if (pp == nullptr) Env::ws().asked.store(1, sc);  // seq_cst: read under the lock
    return pp;
  }
  static void mput(locked&, M* mp) {
    auto& r = Env::ws();
    RQ_CHECK(B, r.sleeping < max_threads, "wren: sleep stack full");
    r.sleep_stack[r.sleeping++] = mp;
  }
  static M* mget(locked&) {
    auto& r = Env::ws();
    return r.sleeping == 0 ? nullptr : r.sleep_stack[--r.sleeping];
  }

  // --- searching ---
  static void becomeSpinning(M* mp) {
    mp->spinning.store(true, rx);  // this M's
    Env::ws().searchers.fetch_add(1, sc);
    Env::ws().asked.store(0, sc);  // this M answers a request
  }
  // The policy: one searcher at a time. mp holds a P.
  static bool spin_gate(M* mp, std::int32_t) {
    if (mp->spinning.load(rx)) return true;
    std::int32_t none = 0;
    if (!Env::ws().searchers.compare_exchange_strong(none, 1, sc, sc)) return false;
    mp->spinning.store(true, rx);
    Env::ws().asked.store(0, sc);
    return true;
  }
  static void resetspinning(M* mp) {
    RQ_CHECK(B, mp->spinning.load(rx), "wren: reset of an M not searching");
    mp->spinning.store(false, rx);
    std::int32_t n = Env::ws().searchers.fetch_add(-1, sc) - 1;
    RQ_CHECK(B, n >= 0, "wren: negative searchers", "n", n);
    wakep();  // the next searcher
  }

  // Hands pp to a sleeping M (none: Env::newm). pp null: a free P, if any.
  static void startm(P* pp, bool spinning) {
    M* mp;
    {
      locked l = runqcheck::lock(Env::core());
      if (pp == nullptr && (pp = pidleget(l)) == nullptr) return;
      mp = mget(l);
    }
    if (mp == nullptr) {
      Env::newm(pp, spinning);
      return;
    }
    mp->spinning.store(spinning, rx);  // published by the wakeup's release
    mp->nextp.store(pp, rx);           // published by the wakeup's release
    Env::notewakeup(mp);
  }

  // Starts a searcher if a P is free and nobody searches.
  static void wakep() {
    auto& r = Env::ws();
    std::int32_t none = 0;
    if (r.searchers.load(sc) != 0 || !r.searchers.compare_exchange_strong(none, 1, sc, sc))
      return;  // step 3: somebody searches
    P* pp;
    {
      locked l = runqcheck::lock(Env::core());
      pp = take_for_search(l);
      if (pp == nullptr) {
        r.searchers.fetch_add(-1, sc);  // the reservation back
        return;
      }
    }
    startm(pp, true);
  }

  static void submit(P* pp, G* gp, bool next) {
    S::runqput(Env::owner(pp), gp, next);  // step 1
    fence();                               // step 2
    wakep();                               // step 3
  }

  static void gosched_globrunqput(G* gp) {
    {
      locked l = runqcheck::lock(Env::core());
      runqcheck::globrunqput(l, gp);
    }
    wakep();  // published under the lock a giving-up searcher takes
  }

  // A P nobody owns: run it if there is work, else start a searcher if
  // nobody searches and no P is free, else free it.
  static void handoffp(P* pp) {
    auto& r = Env::ws();
    if (!S::runqempty(*pp) || S::globrunqsize(Env::core()) != 0) {
      startm(pp, false);
      return;
    }
    std::int32_t none = 0;
    if (r.searchers.load(sc) + r.free_procs.load(sc) == 0 &&
        r.searchers.compare_exchange_strong(none, 1, sc, sc)) {
      r.asked.store(0, sc);
      startm(pp, true);
      return;
    }
    {
      locked l = runqcheck::lock(Env::core());
      if (l.runq().size() == 0) {
        pidleput(l, pp);
        return;
      }
    }
    startm(pp, false);
  }

  // Every G to the global queue, an M per free P, then a wakeup.
  static void injectglist(P*, runqcheck::gQueue<B>& q) {
    if (q.empty()) return;
    std::int32_t n = q.size();
    {
      locked l = runqcheck::lock(Env::core());
      runqcheck::globrunqputbatch(l, q);
    }
    for (; n > 0; n--) {
      P* pp;
      {
        locked l = runqcheck::lock(Env::core());
        pp = take_for_search(l);
      }
      if (pp == nullptr) break;
      startm(pp, false);
    }
    fence();
    wakep();
  }

  // --- giving up ---
  enum class idle_step { released, again, global };
  template <class F>
  static idle_step stop_or_spin(M* mp, P* pp, runqcheck::globrunq_batch<B>& b, F&& stopping) {
    {
      locked l = runqcheck::lock(Env::core());
      if (stopping()) return idle_step::again;
      if (l.runq().size() != 0) {
        b = runqcheck::globrunqgetbatch(l, static_cast<std::int32_t>(S::p::capacity) / 2);
      } else if (!mp->spinning.load(rx) && Env::ws().asked.load(sc) == 1) {
        becomeSpinning(mp);  // a searcher saw work and no free P
        return idle_step::again;
      } else {
        P* mine = Env::releasep(mp);
        RQ_CHECK(B, mine == pp, "wren: wrong P");
        pidleput(l, pp);
        return idle_step::released;
      }
    }
    runqcheck::runqputbatch(Env::owner(pp), b.q);
    RQ_CHECK(B, b.q.empty(), "wren: global batch left over", "left", b.q.size());
    return idle_step::global;
  }

  struct recheck {
    G* gp = nullptr;
    P* pp = nullptr;
  };
  // A searcher without a P stops searching: steps 1-3 of giving up.
  static recheck dropspinning(M* mp, std::span<typename S::p* const> allp) {
    mp->spinning.store(false, rx);
    std::int32_t n = Env::ws().searchers.fetch_add(-1, sc) - 1;  // step 1
    RQ_CHECK(B, n >= 0, "wren: negative searchers", "n", n);
    fence();  // step 2
    return recheck_all(mp, allp);  // step 3
  }
  static recheck recheck_all(M* mp, std::span<typename S::p* const> allp) {
    P* pp = nullptr;
    runqcheck::globrunq_batch<B> b;
    {
      locked l = runqcheck::lock(Env::core());
      if (l.runq().size() != 0 && (pp = take_for_search(l)) != nullptr)
        b = runqcheck::globrunqgetbatch(l, static_cast<std::int32_t>(S::p::capacity) / 2);
    }
    if (pp == nullptr) {
      for (auto* cp : allp)
        if (!S::runqempty(*cp)) {
          locked l = runqcheck::lock(Env::core());
          pp = take_for_search(l);
          break;
        }
      if (pp == nullptr) return {};
    }
    Env::acquirep(mp, pp);
    runqcheck::runqputbatch(Env::owner(pp), b.q);
    becomeSpinning(mp);
    return {b.gp, pp};
  }

  // --- what the checks read ---
  static runqcheck::protocol_counts observe() {
    auto& r = Env::ws();
    return {r.searchers.load(rx), r.free_procs.load(rx), r.sleeping};
  }
  template <class F>
  static void describe(F&& name) {
    auto& r = Env::ws();
    name(&r.searchers, "roost.searchers");
    name(&r.free_procs, "roost.free_procs");
    name(&r.asked, "roost.asked");
  }
};

}  // namespace wren
