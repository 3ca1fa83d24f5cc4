// runqcheck/go125.hpp — the bundled subjects: the go1.25 port, and the same
// port with the pre-1.25 global-queue batch (globrunqget(pp, max) under
// sched.lock), the two production versions of findRunnable's global step.
#pragma once

#include <string>

#include "globrunq.hpp"
#include "runq.hpp"
#include "steal_order.hpp"
#include "subject.hpp"

namespace runqcheck {

template <class B, std::uint32_t Cap = 256>
struct go125 {
  using p = runqcheck::p<B, Cap>;
  using schedt = runqcheck::schedt<B>;
  using G = g<B>;
  static constexpr const char* name = "go1.25";
  static constexpr std::uint32_t capacity = Cap;

  static bool runqempty(p& pp) { return runqcheck::runqempty(pp); }
  static void runqput(p& pp, G* gp, bool next) { runqcheck::runqput(pp, gp, next); }
  static void runqputbatch(p& pp, gQueue<B>& q) { runqcheck::runqputbatch(pp, q); }
  static runqget_result<B> runqget(p& pp) { return runqcheck::runqget(pp); }
  static gQueue<B> runqdrain(p& pp) { return runqcheck::runqdrain(pp); }
  static G* runqsteal(p& pp, p& p2, bool stealRunNextG) {
    return runqcheck::runqsteal(pp, p2, stealRunNextG);
  }

  static void globrunqput(schedt& s, G* gp) {
    auto sched = lock(s);
    runqcheck::globrunqput(sched, gp);
  }
  static G* globrunqget(schedt& s) {
    auto sched = lock(s);
    return runqcheck::globrunqget(sched);
  }
  static std::int32_t globrunqsize(schedt& s) {
    auto sched = lock(s);
    return sched.runq().size();
  }

  static G* findRunnable_globrunq(p& pp) { return runqcheck::findRunnable_globrunq(pp); }

  static void destroy(p& pp) {
    auto sched = lock(*pp.sched);
    runqcheck::destroy(sched, pp);
  }

  // Optional hooks (subject.hpp). Relaxed reads: they order nothing.
  static runqcheck::runq_counters runq_counters(p& pp) {
    constexpr auto rlx = std::memory_order::relaxed;
    return {pp.runqhead.load(rlx), pp.runqtail.load(rlx)};
  }
  static void set_runq_counters(p& pp, std::uint32_t v) {
    pp.runqhead.store(v, std::memory_order::relaxed);
    pp.runqtail.store(v, std::memory_order::relaxed);
  }
  static void set_gomaxprocs(schedt& s, std::int32_t n) { lock(s).set_gomaxprocs(n); }

  // Like Go's schedtrace: one line per P, racy reads (for a hung run's dump).
  static std::string describe_p(p& pp) {
    auto [h, t] = runq_counters(pp);
    std::string s = "runqhead=" + std::to_string(h) + " runqtail=" + std::to_string(t) +
                    " runnext=" + gname(pp.runnext.load(std::memory_order::relaxed)) + " runq=[";
    for (std::uint32_t i = h; i != t && i - h < Cap; i++)
      s += (i == h ? "" : " ") + gname(peek(pp.runq[i % Cap]));
    return s + "]";
  }
  template <class Slot>
  static G* peek(const Slot& slot) {
    if constexpr (requires { slot.load(std::memory_order::relaxed); })
      return slot.load(std::memory_order::relaxed);
    else
      return slot.load();  // a plain slot (test backends only)
  }
  // The global queue read without sched.lock: a thread may be stuck holding it.
  static std::string describe_sched(schedt& s) {
    std::string out = "runq.size=" + std::to_string(s.runq.size()) + " runq=[";
    int n = 0;
    for (G* gp = s.runq.head(); gp != nullptr && n < 64; gp = gp->schedlink.load(), n++)
      out += (n == 0 ? "" : " ") + gname(gp);
    return out + (n == 64 ? " ...]" : "]");
  }
  static std::string gname(G* gp) { return gp == nullptr ? "nil" : "G" + std::to_string(gp->goid); }
};

// go1.3 … go1.24: findRunnable's global step is globrunqget(pp, 0), which
// runqput()s the batch while holding sched.lock.
template <class B, std::uint32_t Cap = 256>
struct go124 : go125<B, Cap> {
  using base = go125<B, Cap>;
  static constexpr const char* name = "go1.24";
  static typename base::G* findRunnable_globrunq(typename base::p& pp) {
    // Not in Go: on a ring without room for the batch, globrunqget's runqput
    // reaches runqputslow, which locks sched.lock again (the latent
    // self-deadlock go1.25 removed, a42e337ede). The port throws instead.
    // Owner reads: only thieves move the head, and only down to the tail.
    std::uint32_t h = pp.runqhead.load(std::memory_order::relaxed);
    std::uint32_t t = pp.runqtail.load(std::memory_order::relaxed);
    RQ_CHECK(B, t - h <= Cap / 2, "globrunqget: no room in local runq for a batch", "h", h, "t", t);
    auto sched = lock(*pp.sched);
    return runqcheck::pre125::globrunqget(sched, pp, 0);
  }
};


}  // namespace runqcheck
