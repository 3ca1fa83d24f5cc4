// kite/runq.hpp — kite's run queue, a queue subject in its own style
// (core/include/runqcheck/subject.hpp): each P a fixed ring behind the P's
// own lock, the global queue (`tray`) behind the tray's lock. The whole
// scheduler around it is kite/sched.hpp.
//
// Its own names and data: a `perch` is a P's queue (ring, first, count,
// runnext), a `tray` the global state (not runqcheck::schedt). Every field
// is a backend plain variable (B::var): an access outside its lock is a
// data race that Relacy and the exhaustive engine report.
//
// Lock order: a perch's lock is taken alone, or under the tray's (destroy),
// never the other way round.
//
// Rejected: lock-free counters (go125 is that port; kite shows a queue that
// is not Go's behind the same protocol checkers).
#pragma once

#include <array>
#include <cstdint>

#include <runqcheck/check.hpp>
#include <runqcheck/gqueue.hpp>
#include <runqcheck/runq.hpp>  // runqget_result

namespace kite {

template <class B, std::uint32_t Cap>
struct runq {
  using G = runqcheck::g<B>;
  static constexpr const char* name = "kite";
  static constexpr std::uint32_t capacity = Cap;

  // The global state. q and gomaxprocs: mu.
  struct tray {
    explicit tray(std::int32_t nprocs) { gomaxprocs.store(nprocs); }
    typename B::mutex mu;
    runqcheck::gQueue<B> q;
    typename B::template var<std::int32_t> gomaxprocs;
  };
  using schedt = tray;

  // A P's queue. Every field but id and sched: mu.
  struct perch {
    static constexpr std::uint32_t capacity = Cap;  // the protocols' batch size
    using G = runq::G;
    perch(tray& s, std::int32_t pid) : sched(&s), id(pid) {}  // not copied: a B::mutex
    tray* sched;
    std::int32_t id;
    typename B::mutex mu;
    std::array<typename B::template var<G*>, Cap> ring;
    typename B::template var<std::uint32_t> first, count;
    typename B::template var<G*> runnext;
  };
  using p = perch;

  // Holds a lock for a scope. Any thread not holding it. Not copyable,
  // declared the C++03 way: under Relacy `delete` is a macro.
  template <class Mu>
  class hold {
   public:
    explicit hold(Mu& m) : m_(m) { m_.lock(); }
    ~hold() { m_.unlock(); }

   private:
    hold(const hold&);
    hold& operator=(const hold&);
    Mu& m_;
  };
  using held = hold<typename B::mutex>;

  // --- a perch's ring (its lock held) ---
  static void push(perch& pp, G* gp) {
    std::uint32_t n = pp.count.load();
    pp.ring[(pp.first.load() + n) % Cap].store(gp);
    pp.count.store(n + 1);
  }
  static G* pop(perch& pp) {
    std::uint32_t f = pp.first.load();
    G* gp = pp.ring[f % Cap].load();
    pp.first.store(f + 1);
    pp.count.store(pp.count.load() - 1);
    return gp;
  }

  // Any thread.
  static bool runqempty(perch& pp) {
    held l(pp.mu);
    return pp.count.load() == 0 && pp.runnext.load() == nullptr;
  }

  // The owner. A full ring: its older half and gp to the tray's tail.
  static void runqput(perch& pp, G* gp, bool next) {
    runqcheck::gQueue<B> spill;
    {
      held l(pp.mu);
      if (next) {
        G* old = pp.runnext.load();
        pp.runnext.store(gp);
        if (old == nullptr) return;
        gp = old;
      }
      if (pp.count.load() < Cap) {
        push(pp, gp);
        return;
      }
      for (std::uint32_t i = 0; i < Cap / 2; i++) spill.pushBack(pop(pp));
      spill.pushBack(gp);
    }
    held l(pp.sched->mu);
    pp.sched->q.pushBackAll(std::move(spill));
  }

  // The owner: as many as fit, in order.
  static void runqputbatch(perch& pp, runqcheck::gQueue<B>& q) {
    held l(pp.mu);
    while (!q.empty() && pp.count.load() < Cap) push(pp, q.pop());
  }

  // The owner: runnext first, else the ring's head.
  static runqcheck::runqget_result<B> runqget(perch& pp) {
    held l(pp.mu);
    if (G* n = pp.runnext.load(); n != nullptr) {
      pp.runnext.store(nullptr);
      return {n, true};
    }
    if (pp.count.load() == 0) return {nullptr, false};
    return {pop(pp), false};
  }

  // The owner: runnext, then the ring in order.
  static runqcheck::gQueue<B> runqdrain(perch& pp) {
    runqcheck::gQueue<B> q;
    held l(pp.mu);
    if (G* n = pp.runnext.load(); n != nullptr) q.pushBack(n);
    pp.runnext.store(nullptr);
    while (pp.count.load() != 0) q.pushBack(pop(pp));
    return q;
  }

  // The thief's owner: ceil(n/2) of victim's ring (its runnext when the
  // ring is empty and stealRunNextG), all but the last into thief's ring.
  static G* runqsteal(perch& thief, perch& victim, bool stealRunNextG) {
    std::array<G*, Cap> got{};
    std::uint32_t n = 0;
    {
      held l(victim.mu);
      std::uint32_t c = victim.count.load();
      if (c == 0 && stealRunNextG && victim.runnext.load() != nullptr) {
        got[n++] = victim.runnext.load();
        victim.runnext.store(nullptr);
      }
      for (std::uint32_t i = 0; i < c - c / 2; i++) got[n++] = pop(victim);
    }
    if (n == 0) return nullptr;
    held l(thief.mu);
    RQ_CHECK(B, thief.count.load() + n - 1 < Cap, "kite: no room for the stolen", "n", n);
    for (std::uint32_t i = 0; i + 1 < n; i++) push(thief, got[i]);
    return got[n - 1];
  }

  // Any thread: the tray under its lock.
  static void globrunqput(tray& s, G* gp) {
    held l(s.mu);
    s.q.pushBack(gp);
  }
  static G* globrunqget(tray& s) {
    held l(s.mu);
    return s.q.empty() ? nullptr : s.q.pop();
  }
  static std::int32_t globrunqsize(tray& s) {
    held l(s.mu);
    return s.q.size();
  }

  // The owner, on an empty ring: min(Cap/2, size, size/gomaxprocs + 1) off
  // the tray, the first returned, the rest into pp's ring.
  static G* findRunnable_globrunq(perch& pp) {
    runqcheck::gQueue<B> batch;
    {
      held l(pp.sched->mu);
      std::int32_t size = pp.sched->q.size();
      std::int32_t n = size / pp.sched->gomaxprocs.load() + 1;
      if (n > size) n = size;
      if (n > static_cast<std::int32_t>(Cap / 2)) n = Cap / 2;
      for (; n > 0; n--) batch.pushBack(pp.sched->q.pop());
    }
    if (batch.empty()) return nullptr;
    G* gp = batch.pop();
    runqputbatch(pp, batch);
    RQ_CHECK(B, batch.empty(), "kite: the tray's batch did not fit", "left", batch.size());
    return gp;
  }

  // procresize, world stopped: runnext, then the ring in order, at the tray's head.
  static void destroy(perch& pp) {
    held t(pp.sched->mu);
    held l(pp.mu);
    while (pp.count.load() != 0) {
      std::uint32_t last = pp.first.load() + pp.count.load() - 1;
      pp.sched->q.push(pp.ring[last % Cap].load());
      pp.count.store(pp.count.load() - 1);
    }
    if (G* n = pp.runnext.load(); n != nullptr) pp.sched->q.push(n);
    pp.runnext.store(nullptr);
  }

  // Optional hook (subject.hpp): what procresize does to gomaxprocs.
  static void set_gomaxprocs(tray& s, std::int32_t n) {
    held l(s.mu);
    s.gomaxprocs.store(n);
  }
};

}  // namespace kite
