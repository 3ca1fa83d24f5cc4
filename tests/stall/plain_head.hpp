// tests/stall/plain_head.hpp — a BUGGY port for the stall checker's teeth:
// go1.25 whose runqsteal advances the victim's runqhead with a plain store,
// not a CAS. A thief held before that store while the owner turns its ring
// over stores a stale head, so tail - head exceeds Cap and the leftovers'
// runqdrain retries forever: a livelock on the checker's main thread, which
// must be reported (state dump, reproducer) like any other failure. Its P is
// set up by stores, as a C port's init function does: the next case's first
// accesses on that thread, outside any operation.
// Registered only by cmake/stall.cmake (stall_teeth/plain_head).
#pragma once

#include <cstdint>
#include <runqcheck/go125.hpp>

namespace stall_teeth {

template <class B, std::uint32_t Cap = 256>
struct plain_head : runqcheck::go125<B, Cap> {
  using G = runqcheck::g<B>;
  static constexpr const char* name = "plain_head";
  static constexpr auto relaxed = std::memory_order::relaxed;
  static constexpr auto acquire = std::memory_order::acquire;
  static constexpr auto release = std::memory_order::release;

  struct p : runqcheck::p<B, Cap> {
    p(runqcheck::schedt<B>& s, std::int32_t id) : runqcheck::p<B, Cap>(s, id) {
      this->runqhead.store(0, relaxed);
      this->runqtail.store(0, relaxed);
    }
  };

  // Go's runqgrab, without its runnext backoff, with the bug.
  static std::uint32_t runqgrab(p& pp, typename p::ring& batch, std::uint32_t bh,
                                bool stealRunNextG) {
    for (;;) {
      std::uint32_t h = pp.runqhead.load(acquire);
      std::uint32_t t = pp.runqtail.load(acquire);
      std::uint32_t n = t - h;
      n = n - n / 2;
      if (n == 0) {
        if (!stealRunNextG) return 0;
        G* next = pp.runnext.load(relaxed);
        if (next == nullptr) return 0;
        if (!pp.runnext.compare_exchange_strong(next, nullptr, acquire, relaxed)) continue;
        batch[bh % Cap].store(next, relaxed);
        return 1;
      }
      if (n > Cap / 2) continue;  // inconsistent h and t
      for (std::uint32_t i = 0; i < n; i++)
        batch[(bh + i) % Cap].store(pp.runq[(h + i) % Cap].load(relaxed), relaxed);
      pp.runqhead.store(h + n, release);  // THE BUG: a plain store, not a CAS
      return n;
    }
  }

  static G* runqsteal(p& pp, p& p2, bool stealRunNextG) {
    std::uint32_t t = pp.runqtail.load(relaxed);
    std::uint32_t n = runqgrab(p2, pp.runq, t, stealRunNextG);
    if (n == 0) return nullptr;
    n--;
    G* gp = pp.runq[(t + n) % Cap].load(relaxed);
    if (n == 0) return gp;
    std::uint32_t h = pp.runqhead.load(acquire);
    RQ_CHECK(B, t - h + n < Cap, "runqsteal: runq overflow", "h", h, "t", t, "n", n);
    pp.runqtail.store(t + n, release);
    return gp;
  }
};

}  // namespace stall_teeth
