// explore/observe.hpp — deferred loads: relaxed loads a harness makes only to
// judge an execution (never to choose what the program does next) need not
// be events. Each is kept as a place in a thread (before its event `pos`);
// once the execution is complete, the writes such a load may read there are
// a co-interval of its location, by coherence alone (RC11's hb; C11 and LB
// the same): at least what every access that happens before it wrote or
// read, at most what every access that happens after it read, and before
// every write that happens after it. A relaxed read synchronises with
// nothing, so adding it changes no other event's hb (under RC11 and SC it
// must not close a po ∪ rf cycle either); the one judgment over
// every value in the interval stands for the executions that a load made as
// an event would have been explored in, one per value (Lahav, Vafeiadis,
// Kang, Hur, Dreyer, "Repairing sequential consistency in C/C++11", PLDI
// 2017, coherence: hb;eco irreflexive). Psc is not applied, so with SC
// fences the interval may be wider than RC11 allows: a judgment that needs
// only coherence (exec.hpp's steal-size rule) stays sound over it.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "consistency.hpp"
#include "graph.hpp"

namespace runqcheck::explore {

// Per event of g, per thread the last po index that reaches it along
// po ∪ rf (itself included), in out[t][i]; false if po ∪ rf has a cycle.
inline bool porf_clocks(const graph& g, std::vector<std::vector<clock>>& out) {
  const std::size_t nt = g.th.size();
  out.resize(nt);
  std::size_t left = 0;
  std::array<std::size_t, kMaxThreads> pos{};
  for (std::size_t t = 0; t < nt; t++) out[t].resize(g.th[t].size()), left += g.th[t].size();
  while (left > 0) {
    bool progress = false;
    for (std::size_t t = 0; t < nt; t++)
      for (; pos[t] < g.th[t].size(); pos[t]++, left--, progress = true) {
        const std::size_t i = pos[t];
        const event& e = g.th[t][i];
        const bool from = e.reads() && !e.rf.init();
        if (from && static_cast<std::size_t>(e.rf.i) >= pos[static_cast<std::size_t>(e.rf.t)])
          break;  // its write not reached yet
        clock c;
        if (i > 0) c = out[t][i - 1];
        else c.fill(-1);
        if (from) {
          const clock& w = out[static_cast<std::size_t>(e.rf.t)][static_cast<std::size_t>(e.rf.i)];
          for (std::size_t u = 0; u < nt; u++) c[u] = std::max(c[u], w[u]);
        }
        c[t] = static_cast<std::int32_t>(i);
        out[t][i] = c;
      }
    if (!progress) return false;
  }
  return true;
}

// The co indices (0: the initial value, k: the k-th write of loc in co)
// that a relaxed load of graph location loc, placed in thread t before its
// event pos, may read in g by coherence: the interval [lo, hi]. c holds g's
// hb clocks (checker::has_clocks(g, m)). Under RC11 and SC a value of it is
// read only if its write is not porf_after the place (reading it would
// close a po ∪ rf cycle); lo never is (it is hb-before the place, or read
// by what is).
struct co_interval {
  int lo = 0, hi = 0;
};

inline co_interval readable(const graph& g, const checker& c, int t, std::int32_t pos,
                            std::uint32_t loc) {
  co_interval r{0, static_cast<int>(g.writes(loc).size())};
  const auto& mine = g.th[static_cast<std::size_t>(t)];
  const bool has_prev = pos > 0;
  const bool has_next = static_cast<std::size_t>(pos) < mine.size();
  const eid prev{static_cast<std::int16_t>(t), pos - 1};
  const eid next{static_cast<std::int16_t>(t), pos};
  auto co_of = [&](eid w) { return g.co_index(loc, w); };
  for (eid x : g.acc.of(loc)) {
    const event& e = g.at(x);
    // hb-before the load: x is, or happens before, the thread's last event before it.
    if (has_prev && (x == prev || c.hb(x, prev))) {
      if (e.writes()) r.lo = std::max(r.lo, co_of(x));
      if (e.reads()) r.lo = std::max(r.lo, co_of(e.rf));  // CoRR
    }
    // hb-after: the thread's next event is, or happens before, x.
    if (has_next && (x == next || c.hb(next, x))) {
      if (e.reads()) r.hi = std::min(r.hi, co_of(e.rf));  // CoRR
      if (e.writes()) r.hi = std::min(r.hi, co_of(x) - 1);  // CoRW
    }
  }
  return r;
}

// Does the place before event pos of thread t reach write w along po ∪ rf?
// porf: porf_clocks(g).
inline bool porf_after(const std::vector<std::vector<clock>>& porf, eid w, int t,
                       std::int32_t pos) {
  return porf[static_cast<std::size_t>(w.t)][static_cast<std::size_t>(w.i)][t] >= pos;
}

}  // namespace runqcheck::explore
