// kite/sched.hpp — kite's wakeup protocol, the other half of a whole
// scheduler in its own style: a protocol subject
// (core/include/runqcheck/protocol_subject.hpp) around kite's own queue
// (kite/runq.hpp, its registration's QUEUE) with its own lock, not
// sched.lock. examples/kite_sched/subject.cmake registers both.
//
// Its own data: a `nest` holds the free Ps and the sleeping Ms as two
// stacks under the nest's lock (nest.mu, a B::mutex: Relacy's, the
// exhaustive engine's or the native one, whichever checker runs it), the
// `searchers` count (Go: nmspinning), `free_procs` (npidle) and `asked`
// (needspinning), read without the lock. The global queue is kite's tray,
// reached only through the queue subject's functions on Env::sched().
//
// Its policy: one searching M at a time (spin_gate: a CAS of searchers
// 0 -> 1); injectglist sends every G to the tray, then wakes an M per
// free P.
//
// What keeps it correct (proc.go, "Worker thread parking/unparking"):
//   post:     1. publish the G   2. #StoreLoad   3. read searchers
//   give up:  1. searchers -= 1  2. #StoreLoad   3. recheck every queue
// and, where Go relies on one lock for the global queue and the idle
// lists, the nest's lock alone: a poster that finds no free P sets
// `asked` and gives its claim back in one section of it (generated_protocol
// found the lost wakeup when the claim went back after the section), and
// an M about to free its P reads `asked` under it
// and searches instead; a G put on the tray after the freeing M looked is
// the poster's to wake for.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include <runqcheck/check.hpp>
#include <runqcheck/gqueue.hpp>
#include <runqcheck/protocol_subject.hpp>

namespace kite {

inline constexpr int max_procs = 8, max_threads = 8;

// The protocol's own state. The stacks: mu. The counters: seq_cst.
template <class B, class P, class M>
struct nest {
  typename B::mutex mu;  // kite's lock (not sched.lock)
  std::array<typename B::template var<P*>, max_procs> free;
  std::array<typename B::template var<M*>, max_threads> sleepers;
  typename B::template var<std::int32_t> nfree, nsleep;
  typename B::template atomic<std::int32_t> searchers{0};   // searching Ms + reservations
  typename B::template atomic<std::int32_t> free_procs{0};  // nfree, for readers without mu
  typename B::template atomic<std::uint32_t> asked{0};      // a poster found no free P
};

template <class Env>
struct sched {
  using B = typename Env::B;  // the checker's backend
  using S = typename Env::S;  // kite::runq, its registration's QUEUE
  static constexpr const char* name = "kite";
  using P = typename Env::P;
  using M = typename Env::M;
  using G = typename S::p::G;
  using state = nest<B, P, M>;
  static constexpr auto sc = std::memory_order::seq_cst;
  static constexpr auto rx = std::memory_order::relaxed;

  // The nest's lock held for a scope (the contract's `locked`). Not
  // copyable, the C++03 way (under Relacy `delete` is a macro).
  class locked {
   public:
    explicit locked(typename B::mutex& mu) : mu_(mu) { mu_.lock(); }
    ~locked() { mu_.unlock(); }

   private:
    locked(const locked&);
    locked& operator=(const locked&);
    typename B::mutex& mu_;
  };
  // Any thread not holding the nest's lock.
  static locked lock() { return locked(Env::ws().mu); }

  static void fence() {
    B::fence(sc);  // step 2 of both sides: pairs with the other side's fence
  }

  // --- the stacks (the nest's lock held) ---
  static void pidleput(locked&, P* pp) { push_free(pp); }
  // pidleput's body. The nest's lock held.
  static void push_free(P* pp) {
    RQ_CHECK(B, S::runqempty(*pp), "kite: freeing a P with work", "p", pp->id);
    auto& n = Env::ws();
    std::int32_t k = n.nfree.load();
    RQ_CHECK(B, k < max_procs, "kite: free stack full", "n", k);
    n.free[static_cast<std::size_t>(k)].store(pp);
    n.nfree.store(k + 1);
    n.free_procs.store(k + 1, sc);  // seq_cst: read by posters without the lock
  }
  static P* pidleget(locked&) {
    auto& n = Env::ws();
    std::int32_t k = n.nfree.load();
    if (k == 0) return nullptr;
    n.nfree.store(k - 1);
    n.free_procs.store(k - 1, sc);  // seq_cst: as push_free
    return n.free[static_cast<std::size_t>(k - 1)].load();
  }
  // A free P for a searcher; none: ask the next M that frees its P.
  static P* take_for_search(locked& l) {
    P* pp = pidleget(l);
    if (pp == nullptr) Env::ws().asked.store(1, sc);  // seq_cst: read under the lock
    return pp;
  }
  static void mput(locked&, M* mp) {
    auto& n = Env::ws();
    std::int32_t k = n.nsleep.load();
    RQ_CHECK(B, k < max_threads, "kite: sleeper stack full", "n", k);
    n.sleepers[static_cast<std::size_t>(k)].store(mp);
    n.nsleep.store(k + 1);
  }
  static M* mget(locked&) {
    auto& n = Env::ws();
    std::int32_t k = n.nsleep.load();
    if (k == 0) return nullptr;
    n.nsleep.store(k - 1);
    return n.sleepers[static_cast<std::size_t>(k - 1)].load();
  }

  // --- searching: one M at a time ---
  // Claims the one search: searchers 0 -> 1. Any M.
  static bool claim() {
    std::int32_t none = 0;
    return Env::ws().searchers.compare_exchange_strong(none, 1, sc, sc);
  }
  // mp searches, the count already says so. mp, or its waker before the wakeup.
  static void mark(M* mp) {
    mp->spinning.store(true, rx);
    Env::ws().asked.store(0, sc);  // a request answered
  }
  // mp stops searching and gives its count back. mp only.
  static void unmark(M* mp) {
    mp->spinning.store(false, rx);
    std::int32_t left = Env::ws().searchers.fetch_sub(1, sc) - 1;
    RQ_CHECK(B, left >= 0, "kite: searchers below zero", "left", left);
  }
  static void becomeSpinning(M* mp) {
    Env::ws().searchers.fetch_add(1, sc);
    mark(mp);
  }
  // mp holds a P.
  static bool spin_gate(M* mp, std::int32_t) {
    if (mp->spinning.load(rx)) return true;
    if (!claim()) return false;
    mark(mp);
    return true;
  }
  static void resetspinning(M* mp) {
    unmark(mp);
    wakep();  // the next searcher
  }

  // f(locked&) under the nest's lock. Any thread not holding it.
  template <class F>
  static auto with_nest(F&& f) {
    locked l = lock();
    return f(l);
  }

  // Hands pp to a sleeping M, else to Env::newm.
  static void wake(P* pp, bool searching) {
    M* mp = with_nest([](locked& l) { return mget(l); });
    if (mp == nullptr) return Env::newm(pp, searching);
    mp->spinning.store(searching, rx);  // published by notewakeup's release
    mp->nextp.store(pp, rx);            // the same
    Env::notewakeup(mp);
  }

  // Starts a searcher if a P is free and nobody searches.
  static void wakep() {
    if (Env::ws().searchers.load(sc) != 0 || !claim()) return;  // step 3: one searches
    P* pp = with_nest([](locked& l) {
      P* free = take_for_search(l);
      // No free P: the claim back in the same section as `asked`, or an M
      // that answers the ask could later find the search still claimed.
      if (free == nullptr) Env::ws().searchers.fetch_sub(1, sc);
      return free;
    });
    if (pp != nullptr) wake(pp, true);
  }

  static void submit(P* pp, G* gp, bool next) {
    S::runqput(Env::owner(pp), gp, next);  // step 1
    fence();                               // step 2
    wakep();                               // step 3
  }

  static void gosched_globrunqput(G* gp) {
    S::globrunqput(Env::sched(), gp);  // step 1
    fence();                           // step 2
    wakep();                           // step 3
  }

  // A P nobody owns: run it if there is work, else start a searcher if
  // nobody searches and no P is free, else free it (and wake for a G put
  // on the tray meanwhile).
  static void handoffp(P* pp) {
    auto& n = Env::ws();
    if (!S::runqempty(*pp) || S::globrunqsize(Env::sched()) != 0) return wake(pp, false);
    if (n.free_procs.load(sc) == 0 && n.searchers.load(sc) == 0 && claim()) {
      n.asked.store(0, sc);
      return wake(pp, true);
    }
    with_nest([pp](locked& l) { pidleput(l, pp); });  // give up, step 1 (free_procs)
    fence();                                            // step 2
    if (S::globrunqsize(Env::sched()) != 0) wakep();    // step 3
  }

  // Every G to the tray, an M per free P, then a wakeup.
  static void injectglist(P*, runqcheck::gQueue<B>& q) {
    std::int32_t k = q.size();
    while (!q.empty()) S::globrunqput(Env::sched(), q.pop());
    for (; k > 0; k--) {
      P* pp = with_nest([](locked& l) { return take_for_search(l); });
      if (pp == nullptr) break;
      wake(pp, false);
    }
    fence();
    wakep();
  }

  // --- giving up ---
  enum class idle_step { released, again, global };
  template <class F>
  static idle_step stop_or_spin(M* mp, P* pp, runqcheck::globrunq_batch<B>& b, F&& stopping) {
    if (take_global(pp, b)) return idle_step::global;
    locked l = lock();
    if (stopping() || answer_ask(mp)) return idle_step::again;
    P* mine = Env::releasep(mp);
    RQ_CHECK(B, mine == pp, "kite: wrong P");
    pidleput(l, pp);
    return idle_step::released;
  }
  // A batch off the tray, its first G in b.gp, the rest on pp's ring. pp's M.
  static bool take_global(P* pp, runqcheck::globrunq_batch<B>& b) {
    if (S::globrunqsize(Env::sched()) == 0) return false;
    b.gp = S::findRunnable_globrunq(Env::owner(pp));
    return b.gp != nullptr;
  }
  // A poster found no free P: mp, not searching, searches instead of
  // freeing its P. The nest's lock held.
  static bool answer_ask(M* mp) {
    if (mp->spinning.load(rx) || Env::ws().asked.load(sc) != 1) return false;
    becomeSpinning(mp);
    return true;
  }

  struct recheck {
    G* gp = nullptr;
    P* pp = nullptr;
  };
  // A searcher without a P stops searching: steps 1-3 of giving up. On
  // work, a free P and the search again.
  static recheck dropspinning(M* mp, std::span<typename S::p* const> allp) {
    unmark(mp);  // step 1
    fence();     // step 2
    bool work = S::globrunqsize(Env::sched()) != 0;  // step 3
    for (auto* cp : allp) work = work || !S::runqempty(*cp);
    P* pp = work ? with_nest([](locked& l) { return take_for_search(l); }) : nullptr;
    if (pp == nullptr) return {};
    Env::acquirep(mp, pp);
    becomeSpinning(mp);
    return {nullptr, pp};
  }

  // --- what the checks read: after the run, or under the nest's lock ---
  static runqcheck::protocol_counts observe() {
    auto& n = Env::ws();
    return {n.searchers.load(rx), n.free_procs.load(rx), n.nsleep.load()};
  }
  template <class F>
  static void describe(F&& name) {
    auto& n = Env::ws();
    name(&n.mu, "nest.mu");
    name(&n.nfree, "nest.nfree");
    name(&n.nsleep, "nest.nsleep");
    name(&n.searchers, "nest.searchers");
    name(&n.free_procs, "nest.free_procs");
    name(&n.asked, "nest.asked");
  }
};

}  // namespace kite
