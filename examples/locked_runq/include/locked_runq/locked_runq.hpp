// An example external subject: a run queue that keeps Go's semantics
// (runnext, spill half to the global queue when full, steal half) but guards
// each P's queue with a mutex instead of lock-free counters. It is what a
// user's own port looks like to runqcheck: a class template on the backend
// and the capacity, with the operations of runqcheck/subject.hpp.
//
// It reuses runqcheck's G, gQueue and global queue; only the local queue is
// its own.
#pragma once

#include <cstdint>
#include <deque>

#include <runqcheck/globrunq.hpp>
#include <runqcheck/runq.hpp>  // runqget_result

namespace example {

template <class B, std::uint32_t Cap>
struct locked_runq {
  using G = runqcheck::g<B>;
  using schedt = runqcheck::schedt<B>;
  static constexpr const char* name = "locked_runq";

  struct p {
    p(schedt& s, std::int32_t pid) : sched(&s), id(pid) {}
    schedt* sched;
    std::int32_t id;
    typename B::mutex mu;
    std::deque<G*> ring;  // guarded by mu
    G* runnext = nullptr;  // guarded by mu
  };

  struct guard {
    explicit guard(p& pp) : pp_(pp) { pp_.mu.lock(); }
    ~guard() { pp_.mu.unlock(); }
    p& pp_;
  };

  static bool runqempty(p& pp) {
    guard l(pp);
    return pp.ring.empty() && pp.runnext == nullptr;
  }

  static void runqput(p& pp, G* gp, bool next) {
    runqcheck::gQueue<B> spill;
    {
      guard l(pp);
      if (next) std::swap(gp, pp.runnext);
      if (gp == nullptr) return;
      if (pp.ring.size() < Cap) {
        pp.ring.push_back(gp);
        return;
      }
      for (std::uint32_t i = 0; i < Cap / 2; i++) {  // the oldest half, then gp
        spill.pushBack(pp.ring.front());
        pp.ring.pop_front();
      }
      spill.pushBack(gp);
    }
    auto sched = runqcheck::lock(*pp.sched);
    runqcheck::globrunqputbatch(sched, spill);
  }

  static void runqputbatch(p& pp, runqcheck::gQueue<B>& q) {
    guard l(pp);
    while (!q.empty() && pp.ring.size() < Cap) pp.ring.push_back(q.pop());
  }

  static runqcheck::runqget_result<B> runqget(p& pp) {
    guard l(pp);
    if (G* n = pp.runnext) {
      pp.runnext = nullptr;
      return {n, true};
    }
    if (pp.ring.empty()) return {nullptr, false};
    G* gp = pp.ring.front();
    pp.ring.pop_front();
    return {gp, false};
  }

  static runqcheck::gQueue<B> runqdrain(p& pp) {
    runqcheck::gQueue<B> q;
    guard l(pp);
    if (pp.runnext != nullptr) q.pushBack(pp.runnext);
    pp.runnext = nullptr;
    for (G* gp : pp.ring) q.pushBack(gp);
    pp.ring.clear();
    return q;
  }

  // Steal ceil(n/2) of victim's ring (or its runnext when the ring is empty)
  // into thief's ring; return the last one stolen.
  static G* runqsteal(p& thief, p& victim, bool stealRunNextG) {
    std::deque<G*> got;
    {
      guard l(victim);
      std::size_t n = victim.ring.size() - victim.ring.size() / 2;
      if (n == 0 && stealRunNextG && victim.runnext != nullptr) {
        got.push_back(victim.runnext);
        victim.runnext = nullptr;
      }
      for (std::size_t i = 0; i < n; i++) {
        got.push_back(victim.ring.front());
        victim.ring.pop_front();
      }
    }
    if (got.empty()) return nullptr;
    G* gp = got.back();
    got.pop_back();
    guard l(thief);
    RQ_CHECK(B, thief.ring.size() + got.size() < Cap, "runqsteal: runq overflow", "n", got.size());
    for (G* g : got) thief.ring.push_back(g);
    return gp;
  }

  static void globrunqput(schedt& s, G* gp) {
    auto sched = runqcheck::lock(s);
    runqcheck::globrunqput(sched, gp);
  }
  static G* globrunqget(schedt& s) {
    auto sched = runqcheck::lock(s);
    return runqcheck::globrunqget(sched);
  }
  static std::int32_t globrunqsize(schedt& s) {
    auto sched = runqcheck::lock(s);
    return sched.runq().size();
  }
  static G* findRunnable_globrunq(p& pp) {
    runqcheck::globrunq_batch<B> r;
    {
      auto sched = runqcheck::lock(*pp.sched);
      r = runqcheck::globrunqgetbatch(sched, static_cast<std::int32_t>(Cap) / 2);
    }
    if (r.gp != nullptr) runqputbatch(pp, r.q);
    RQ_CHECK(B, r.q.empty(), "locked_runq: the global batch did not fit", "left", r.q.size());
    return r.gp;
  }
  static void destroy(p& pp) {
    auto sched = runqcheck::lock(*pp.sched);
    guard l(pp);
    while (!pp.ring.empty()) {
      runqcheck::globrunqputhead(sched, pp.ring.back());
      pp.ring.pop_back();
    }
    if (pp.runnext != nullptr) runqcheck::globrunqputhead(sched, pp.runnext);
    pp.runnext = nullptr;
  }

  // Optional hooks (runqcheck/subject.hpp). No runq_counters: a deque has
  // no free-running counters, so the wrap and steal-size checks do not apply
  // and the verdict says so.
  static void set_gomaxprocs(schedt& s, std::int32_t n) { runqcheck::lock(s).set_gomaxprocs(n); }
};

}  // namespace example
