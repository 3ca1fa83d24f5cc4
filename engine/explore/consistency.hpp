// explore/consistency.hpp — is an execution graph consistent under a memory
// model? Kept apart from the search (explore/engine.hpp), as GenMC keeps its
// checkers apart from its driver. One class per model (sc_model, rc11_model,
// lb_model: at the end) names its axioms; the checker computes the relations.
//
//   sc    po ∪ rf ∪ co ∪ fr acyclic (Lamport; the one-total-order view).
//   rc11  Lahav, Vafeiadis, Kang, Hur, Dreyer, "Repairing sequential
//         consistency in C/C++11", PLDI 2017, section 3: coherence
//         (hb ; eco? irreflexive), atomicity (rmw ∩ (fr ; co) empty), SC
//         (psc acyclic) and no-thin-air (po ∪ rf acyclic). Release
//         sequences are RC11's rs = [W] ; (po|loc)? ; [W] ; (rf ; rmw)*.
//   lb    RC11 without no-thin-air: hb acyclic instead of po ∪ rf (C11's
//         load buffering). The engine admits a po ∪ rf cycle only through
//         a certified promise (engine.hpp, lb_revisit(); docs/explore.md).
//   c11   lb's axioms, its promises uncertified: C11 as written, whose
//         dependency cycles no compiled code shows (engine.hpp).
//
// hb is kept as one vector clock per event (vc[t]: the last po index of
// thread t that happens before or is the event), computed along po ∪ rf,
// stored in the events: an event added at the end of its thread (nothing
// reads from it yet) gets its own from those before it; a revisit, which
// changes a read's rf, recomputes them all.
// Non-atomic accesses count as relaxed here; their races are reported by
// race() on a consistent graph, as RC11 defines undefined behaviour.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "graph.hpp"

namespace runqcheck::explore {

enum class model : std::uint8_t { sc, rc11, lb, c11 };
inline const char* model_name(model m) {
  return m == model::sc ? "SC" : m == model::rc11 ? "RC11" : m == model::lb ? "LB" : "C11";
}
// A model with load buffering (po ∪ rf cycles through promises).
inline bool has_lb(model m) { return m == model::lb || m == model::c11; }


inline bool is_acq(std::uint8_t mo) {
  auto m = static_cast<std::memory_order>(mo);
  return m == std::memory_order::acquire || m == std::memory_order::acq_rel ||
         m == std::memory_order::seq_cst || m == std::memory_order::consume;
}
inline bool is_rel(std::uint8_t mo) {
  auto m = static_cast<std::memory_order>(mo);
  return m == std::memory_order::release || m == std::memory_order::acq_rel ||
         m == std::memory_order::seq_cst;
}
inline bool is_sc(std::uint8_t mo) {
  return static_cast<std::memory_order>(mo) == std::memory_order::seq_cst;
}
// The order a read-like event reads with (a failed CAS: its failure order).
inline std::uint8_t read_mo(const event& e) {
  return e.kind == ek::read && e.what == op::cas ? e.mo_fail : e.mo;
}

class checker {
 public:
  static constexpr std::uint32_t kNoLoc = UINT32_MAX;

  // Is g consistent under m? Sets the clocks of g's events (for hb() and
  // race()). With fresh: g less event fresh, the last of its thread, is
  // known consistent and its clocks are set, so only fresh's own clock is
  // computed and coherence and atomicity are checked only where fresh is.
  // hb_of: g was judged last, with the same po and rf (only co changed
  // since, at location hb_of: a revisit's places for its write), so its
  // clocks stand; that location's coherence is checked first.
  // Each model's axioms are its class's (sc_model ... c11_model, below).
  bool consistent(graph& g, model m, eid fresh = {}, std::uint32_t hb_of = kNoLoc);

  // SC: g's reachability (po ∪ rf ∪ co ∪ fr, g consistent), for the
  // consistent() calls on g plus one new event (the candidates of the
  // engine's next event), until unprepare(). g less the new event is g as
  // prepared (co and fr taken whole: a write placed between two keeps them
  // ordered), so a cycle is a path from a successor of the new event to a
  // predecessor of it: one lookup per pair, not a walk per candidate.
  void prepare_sc(const graph& g) {
    g_ = &g;
    sc_edges();
    flat n = off_.back();
    // Kahn's order; each event's clock: per thread, the last po index
    // that reaches it (itself included).
    auto& indeg = indeg_;
    indeg.assign(static_cast<std::size_t>(n), 0);
    for (flat c : adj_) indeg[c]++;
    for (flat v = 0; v < n; v++)
      if (rfrom_[v] >= 0) indeg[v]++;
    reach_.resize(static_cast<std::size_t>(n));
    auto& order = order_;
    order.clear();
    for (flat v = 0; v < n; v++) {
      reach_[v].fill(-1);
      reach_[v][ids_[v].t] = ids_[v].i;
      if (indeg[v] == 0) order.push_back(v);
    }
    std::size_t nt = g.th.size();
    for (std::size_t k = 0; k < order.size(); k++) {
      flat v = order[k];
      auto push = [&](flat c) {
        join(reach_[c], reach_[v], nt);
        if (--indeg[c] == 0) order.push_back(c);
      };
      for (flat j = head_[v]; j < head_[v + 1]; j++) push(adj_[j]);
      for (flat j = rhead_[v]; j < rhead_[v + 1]; j++) push(radj_[j]);
    }
    prep_off_ = off_;
    prep_ = &g;
    prep_n_ = static_cast<std::size_t>(n);
  }
  void unprepare() { prep_ = nullptr; }

  // Is g SC-consistent (po ∪ rf ∪ co ∪ fr acyclic, RMWs atomic)? As a
  // schedule, Kahn's order on the threads' next events: a read goes when
  // memory holds what it reads, a write when it is co-next and the readers
  // of the value it overwrites have gone (fr), an RMW both at once. g is
  // acyclic iff every event goes. Sets no clocks; consistent(g, sc) judges
  // the same (the engine's options::also_sc, at an execution's end). With
  // `steps`, each event's place in that order is kept: sc_step().
  bool sc_order(const graph& g, bool steps = false) {
    std::size_t nt = g.th.size();
    auto& off = sco_off_;  // flat numbering: thread t's events from off[t]
    off.assign(nt + 1, 0);
    std::uint32_t nloc = static_cast<std::uint32_t>(g.co.size_hint());
    for (std::size_t t = 0; t < nt; t++) {
      off[t + 1] = off[t] + static_cast<flat>(g.th[t].size());
      for (const event& e : g.th[t]) nloc = std::max(nloc, e.loc + 1);
    }
    auto fl = [&](eid e) { return off[e.t] + e.i; };
    auto& co = sco_idx_;     // per write: its co index (1, 2, ...; the initial value 0)
    auto& base = sco_base_;  // per location: where its co indices' reader counts begin
    co.assign(static_cast<std::size_t>(off[nt]), -1);
    base.assign(nloc + 1, 0);
    for (std::uint32_t l = 0; l < nloc; l++) {
      auto ws = g.co.of(l);
      for (std::size_t k = 0; k < ws.size(); k++) co[fl(ws[k])] = static_cast<flat>(k + 1);
      base[l + 1] = base[l] + static_cast<flat>(ws.size() + 1);
    }
    auto read_idx = [&](const event& e) { return e.rf.init() ? 0 : co[fl(e.rf)]; };
    auto& readers = sco_readers_;  // per location and co index: the reads not gone yet
    readers.assign(static_cast<std::size_t>(base[nloc]), 0);
    for (const auto& tv : g.th)
      for (const event& e : tv)
        if (e.reads()) readers[base[e.loc] + read_idx(e)]++;
    auto& mem = sco_mem_;  // per location: the co index memory holds
    mem.assign(nloc, 0);
    if (steps) sco_step_.resize(static_cast<std::size_t>(off[nt]));
    std::uint32_t k = 0;
    std::array<std::size_t, kMaxThreads> pos{};
    for (std::size_t left = static_cast<std::size_t>(off[nt]); left > 0;) {
      bool progress = false;
      for (std::size_t t = 0; t < nt; t++) {
        for (; pos[t] < g.th[t].size(); pos[t]++, left--, progress = true) {
          const event& e = g.th[t][pos[t]];
          if (e.kind != ek::fence) {
            flat cur = mem[e.loc];
            flat& waiting = readers[base[e.loc] + cur];
            if (e.reads() && read_idx(e) != cur) break;
            if (e.writes() && (co[off[t] + static_cast<flat>(pos[t])] != cur + 1 ||
                               waiting != (e.reads() ? 1 : 0)))
              break;
            if (e.reads()) waiting--;
            if (e.writes()) mem[e.loc] = cur + 1;
          }
          if (steps) sco_step_[static_cast<std::size_t>(off[t]) + pos[t]] = k++;
        }
      }
      if (!progress) return false;
    }
    return true;
  }

  // e's place in the order the last sc_order(g, true) found (it returned true).
  std::uint32_t sc_step(eid e) const {
    return sco_step_[static_cast<std::size_t>(sco_off_[static_cast<std::size_t>(e.t)] + e.i)];
  }

  // Sets g's clocks (for a consistent() with hb_of); false: po ∪ rf has a
  // cycle, so g is inconsistent whatever its co.
  bool has_clocks(graph& g, model m = model::rc11) {
    g_ = &g;
    lb_ = has_lb(m);
    return clocks(g);
  }

  // a happens before b (strict), in the graph last judged.
  bool hb(eid a, eid b) const {
    if (a.init()) return true;
    if (b.init() || a == b) return false;
    return g_->at(b).vc[a.t] >= a.i;
  }

  // A data race with event e: another thread's access to the same location,
  // one of the two a write and one of the two plain, unordered by hb.
  // Returns the other access, or an init eid when there is none.
  eid race(eid e) const {
    const graph& g = *g_;
    const event& x = g.at(e);
    for (eid o : g.acc.of(x.loc)) {  // by thread, then po
      // Thread o.t's events up to x.vc[o.t] happen before e: no race with them.
      if (o.t == e.t || o.i <= x.vc[o.t]) continue;
      const event& y = g.at(o);
      if (!x.plain && !y.plain) continue;
      if (!x.writes() && !y.writes()) continue;
      if (!hb(o, e) && !hb(e, o)) return o;
    }
    return {};
  }

 private:
  friend struct sc_model;
  friend struct rc11_model;
  friend struct lb_model;

  // The axioms the models' classes take, each on the graph of the call
  // (fresh and hb_of as in consistent()).
  // hb as clocks along po ∪ rf (false: a cycle, so no-thin-air fails) or,
  // with lb_, hb alone acyclic (clocks_lb()).
  bool clocked(graph& g, bool lb, eid fresh, std::uint32_t hb_of) {
    g_ = &g;
    lb_ = lb;
    if (!fresh.init()) {
      clock_of(g, fresh);
      return true;
    }
    return hb_of != kNoLoc || clocks(g);
  }
  // rmw ∩ (fr ; co) empty.
  bool atomic_rmws(eid fresh) const { return atomicity(fresh.init() ? nullptr : &g_->at(fresh)); }
  // po ∪ rf ∪ co ∪ fr acyclic (with prepare_sc(): one lookup per pair).
  bool sc_acyclic_at(eid fresh) {
    if (fresh.init()) return sc_acyclic();
    if (prep_ == g_ && g_->size() == prep_n_ + 1) return !sc_cycle_prepared(fresh);
    return !sc_reaches_itself(fresh);
  }
  // hb ; eco? irreflexive.
  bool coherent(eid fresh, std::uint32_t hb_of) {
    return fresh.init() ? coherence(hb_of) : coherence_of(fresh);
  }
  // psc acyclic (nothing to check without SC accesses or fences).
  bool psc_at(eid fresh) {
    if (!has_sc_) return true;
    if (!fresh.init() && !adds_psc(fresh)) return true;  // psc as it was: acyclic
    return psc_acyclic();
  }
  using flat = std::int32_t;

  static bool sc_event(const event& e) {
    return is_sc(e.mo) || (e.kind == ek::read && e.what == op::cas && is_sc(e.mo_fail));
  }
  static void join(clock& into, const clock& c, std::size_t nt) {
    for (std::size_t k = 0; k < nt; k++) into[k] = std::max(into[k], c[k]);
  }

  // The clocks of event id, the last of its thread, from those of the
  // events before it (as clocks() computes them in one pass).
  void clock_of(graph& g, eid id) {
    std::size_t nt = g.th.size();
    auto& evs = g.th[id.t];
    auto i = static_cast<std::size_t>(id.i);
    event& e = evs[i];
    has_sc_ = g.any_sc;
    // Built in place, and read entry by entry: a clock copied whole right
    // after a store to one entry waits for that store (no forwarding).
    clock& c = e.vc;
    if (i > 0) {
      c = evs[i - 1].vc;
    } else {
      c.fill(-1);
    }
    c[id.t] = id.i;
    if (e.reads() && !e.rf.init() && is_acq(read_mo(e))) join(c, g.at(e.rf).msg, nt);
    if (e.kind == ek::fence && is_acq(e.mo))  // what the thread's relaxed reads saw
      for (std::size_t j = 0; j < i; j++)
        if (evs[j].reads() && !evs[j].rf.init() && !is_acq(read_mo(evs[j])))
          join(c, g.at(evs[j].rf).msg, nt);
    e.msg.fill(-1);
    if (!e.writes()) return;
    if (is_rel(e.mo)) {
      join(e.msg, c, nt);  // msg = c (entries from nt on are -1 in both)
    } else {
      for (std::size_t j = i; j-- > 0;)  // the thread's last release fence
        if (evs[j].kind == ek::fence && is_rel(evs[j].mo)) {
          e.msg = evs[j].vc;
          break;
        }
    }
    release_sequence(g, id.t, i);
  }

  // Event i of thread t, a write: its msg joins RC11's release sequence
  // (an earlier release write of the thread to the location; rf ; rmw).
  void release_sequence(graph& g, int t, std::size_t i) {
    std::size_t nt = g.th.size();
    event& e = g.th[t][i];
    for (std::size_t j = i; j-- > 0;) {
      const event& p = g.th[t][j];
      if (p.writes() && p.loc == e.loc && is_rel(p.mo)) {
        join(e.msg, p.vc, nt);
        break;
      }
    }
    if (e.kind == ek::rmw && !e.rf.init()) join(e.msg, g.at(e.rf).msg, nt);
  }

  // Clocks along a topological order of po ∪ rf (false: a cycle). Per
  // thread: the clock so far, the clock of its last release fence, and the
  // join of what its relaxed reads saw (taken by a later acquire fence).
  bool clocks(graph& g) {
    if (lb_) return clocks_lb(g);
    std::size_t nt = g.th.size();
    has_sc_ = false;
    clock none;
    none.fill(-1);
    std::array<clock, kMaxThreads> cur, relf, acqp;
    std::array<bool, kMaxThreads> has_relf{};
    std::array<std::size_t, kMaxThreads> pos{};
    std::size_t left = 0;
    for (std::size_t t = 0; t < nt; t++) {
      cur[t] = relf[t] = acqp[t] = none;
      left += g.th[t].size();
    }
    while (left > 0) {
      bool progress = false;
      for (std::size_t t = 0; t < nt; t++) {
        for (; pos[t] < g.th[t].size(); pos[t]++) {
          std::size_t i = pos[t];
          event& e = g.th[t][i];
          if (e.reads() && !e.rf.init() && static_cast<std::size_t>(e.rf.i) >= pos[e.rf.t]) break;
          progress = true;
          left--;
          has_sc_ |= sc_event(e);
          clock& c = cur[t];
          c[t] = static_cast<std::int32_t>(i);
          if (e.reads() && !e.rf.init())
            join(is_acq(read_mo(e)) ? c : acqp[t], g.at(e.rf).msg, nt);
          if (e.kind == ek::fence) {
            if (is_acq(e.mo)) join(c, acqp[t], nt);
            if (is_rel(e.mo)) relf[t] = c, has_relf[t] = true;
          }
          e.vc = c;
          e.msg = none;
          if (e.writes()) {
            if (is_rel(e.mo))
              e.msg = c;
            else if (has_relf[t])
              e.msg = relf[t];
            release_sequence(g, static_cast<int>(t), i);
          }
        }
      }
      if (!progress) return false;
    }
    return true;
  }

  // model::lb: po ∪ rf may have cycles, hb (po ∪ sw) may not. The clocks
  // are the least fixpoint of clocks()' rules, from none, a pass over every
  // thread at a time (each pass joins what the last one found: monotone,
  // bounded by the threads' sizes). False: an event happens after a
  // po-later event of its own thread (an hb cycle).
  bool clocks_lb(graph& g) {
    std::size_t nt = g.th.size();
    has_sc_ = false;
    clock none;
    none.fill(-1);
    for (auto& t : g.th)
      for (event& e : t) {
        e.vc = e.msg = none;
        has_sc_ |= sc_event(e);
      }
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t t = 0; t < nt; t++) {
        clock c = none, relf = none, acqp = none;
        bool has_relf = false;
        for (std::size_t i = 0; i < g.th[t].size(); i++) {
          event& e = g.th[t][i];
          c[t] = std::max(c[t], static_cast<std::int32_t>(i));
          if (e.reads() && !e.rf.init())
            join(is_acq(read_mo(e)) ? c : acqp, g.at(e.rf).msg, nt);
          if (e.kind == ek::fence) {
            if (is_acq(e.mo)) join(c, acqp, nt);
            if (is_rel(e.mo)) relf = c, has_relf = true;
          }
          clock old_vc = e.vc, old_msg = e.msg;
          e.vc = c;
          e.msg = none;
          if (e.writes()) {
            if (is_rel(e.mo))
              e.msg = c;
            else if (has_relf)
              e.msg = relf;
            release_sequence(g, static_cast<int>(t), i);
            join(e.msg, old_msg, nt);
          }
          changed |= e.vc != old_vc || e.msg != old_msg;
        }
      }
    }
    for (std::size_t t = 0; t < nt; t++)
      for (std::size_t i = 0; i < g.th[t].size(); i++)
        if (g.th[t][i].vc[t] > static_cast<std::int32_t>(i)) return false;
    return true;
  }

  // An RMW is co-immediately after the write it reads (only at fresh's
  // location, if given).
  bool atomicity(const event* fresh) const {
    const graph& g = *g_;
    auto check = [&](std::span<const eid> ws) {
      for (std::size_t k = 0; k < ws.size(); k++) {
        const event& e = g.at(ws[k]);
        if (e.kind != ek::rmw) continue;
        eid pred = k == 0 ? eid{} : ws[k - 1];
        if (!(pred == e.rf)) return false;
      }
      return true;
    };
    if (fresh != nullptr) return fresh->kind == ek::fence || check(g.writes(fresh->loc));
    bool ok = true;
    g.co.each([&](std::uint32_t, std::span<const eid> ws) { ok = ok && check(ws); });
    return ok;
  }

  // hb ; eco? irreflexive, as four cases per pair of accesses to a location
  // ordered by hb (write-write, write-read, read-write, read-read).
  // (first: a location to check before the others.) Co indices come from
  // one pass over co, by event (flatten()), not a search per access.
  bool coherence(std::uint32_t first = kNoLoc) {
    const graph& g = *g_;
    flatten();
    coidx_.assign(static_cast<std::size_t>(off_.back()), 0);
    g.co.each([&](std::uint32_t, std::span<const eid> ws) {
      for (std::size_t k = 0; k < ws.size(); k++) coidx_[fl(ws[k])] = static_cast<int>(k) + 1;
    });
    auto loc_ok = [&](std::span<const eid> evs) {
      cw_.resize(evs.size());
      cr_.resize(evs.size());
      for (std::size_t k = 0; k < evs.size(); k++) {
        const event& e = g.at(evs[k]);
        cw_[k] = e.writes() ? coidx_[fl(evs[k])] : -1;
        cr_[k] = !e.reads() ? -1 : e.rf.init() ? 0 : coidx_[fl(e.rf)];
      }
      for (std::size_t a = 0; a < evs.size(); a++)
        for (std::size_t b = 0; b < evs.size(); b++)
          if (a != b && hb(evs[a], evs[b]) && !ordered(cw_[a], cr_[a], cw_[b], cr_[b]))
            return false;
      return true;
    };
    if (first != kNoLoc && !loc_ok(g.acc.of(first))) return false;
    bool ok = true;
    g.acc.each([&](std::uint32_t loc, std::span<const eid> evs) {
      ok = ok && (loc == first || loc_ok(evs));
    });
    return ok;
  }

  // coherence() for the pairs that include event e only: e is the last of
  // its thread and read by none, so only events before it in hb pair with it.
  bool coherence_of(eid e) {
    const graph& g = *g_;
    const event& x = g.at(e);
    if (x.kind == ek::fence) return true;
    auto ws = g.writes(x.loc);
    auto idx = [&](eid w) {
      if (w.init()) return 0;
      return static_cast<int>(std::find(ws.begin(), ws.end(), w) - ws.begin()) + 1;
    };
    int ew = x.writes() ? idx(e) : -1, er = x.reads() ? idx(x.rf) : -1;
    // ordered() fails iff an event before e writes, or reads from, a write
    // of co index k or more (every write of acc, and every write read, is
    // in co): e's write on, or the writes co-after the one e reads (mostly
    // none).
    std::size_t k = ws.size() + 1;
    if (ew >= 0) k = std::min(k, static_cast<std::size_t>(ew));
    if (er >= 0) k = std::min(k, static_cast<std::size_t>(er) + 1);
    auto late = ws.subspan(std::min(k - 1, ws.size()));
    if (late.empty()) return true;
    auto in_late = [&](eid w) { return std::find(late.begin(), late.end(), w) != late.end(); };
    for (eid o : g.acc.of(x.loc)) {
      if (o.i > x.vc[o.t] || o == e) continue;  // not before e in hb
      const event& y = g.at(o);
      if ((y.writes() && in_late(o)) || (y.reads() && in_late(y.rf))) return false;
    }
    return true;
  }
  // a hb b allowed, given their co indices as a write (aw, bw) and of the
  // write each reads (ar, br); -1: not that kind.
  static bool ordered(int aw, int ar, int bw, int br) {
    if (aw >= 0 && bw >= 0 && aw >= bw) return false;
    if (aw >= 0 && br >= 0 && aw > br) return false;
    if (ar >= 0 && bw >= 0 && ar >= bw) return false;
    if (ar >= 0 && br >= 0 && ar > br) return false;
    return true;
  }

  void flatten() {
    const graph& g = *g_;
    off_.assign(g.th.size() + 1, 0);
    for (std::size_t t = 0; t < g.th.size(); t++)
      off_[t + 1] = off_[t] + static_cast<flat>(g.th[t].size());
    ids_.clear();
    for (std::size_t t = 0; t < g.th.size(); t++)
      for (std::size_t i = 0; i < g.th[t].size(); i++)
        ids_.push_back({static_cast<std::int16_t>(t), static_cast<std::int32_t>(i)});
  }
  flat fl(eid e) const { return off_[e.t] + e.i; }

  // flatten(), then the po, co and fr successors of every event (immediate
  // ones: co is a chain) as head_/adj_, and its rf successors as
  // rhead_/radj_ (readers()). Each write's co successor comes from one pass
  // over co, not a search per event.
  void sc_edges() {
    const graph& g = *g_;
    flatten();
    flat n = off_.back();
    auto& conext = conext_;
    conext.assign(static_cast<std::size_t>(n), -1);
    auto& cofirst = cofirst_;
    cofirst.assign(g.co.size_hint(), -1);
    g.co.each([&](std::uint32_t loc, std::span<const eid> ws) {
      if (!ws.empty()) cofirst[loc] = fl(ws[0]);
      for (std::size_t k = 0; k + 1 < ws.size(); k++) conext[fl(ws[k])] = fl(ws[k + 1]);
    });
    auto co_after = [&](std::uint32_t loc, eid w) -> flat {  // init: the co-first
      if (w.init()) return loc < cofirst.size() ? cofirst[loc] : -1;
      return conext[fl(w)];
    };
    head_.assign(static_cast<std::size_t>(n) + 1, 0);
    adj_.clear();
    for (flat v = 0; v < n; v++) {
      head_[v] = static_cast<flat>(adj_.size());
      eid id = ids_[v];
      const event& e = g.at(id);
      if (static_cast<std::size_t>(id.i) + 1 < g.th[id.t].size()) adj_.push_back(v + 1);
      if (e.kind == ek::fence) continue;
      if (e.writes() && conext[v] >= 0) adj_.push_back(conext[v]);
      if (e.reads()) {
        flat c = co_after(e.loc, e.rf);
        if (c == v) c = conext[v];  // an RMW's fr skips itself
        if (c >= 0) adj_.push_back(c);
      }
    }
    head_[n] = static_cast<flat>(adj_.size());
    readers();
  }

  // po ∪ rf ∪ co ∪ fr acyclic, by depth-first search (successors kept
  // in one array per check, the buffers reused: no allocation once warm).
  bool sc_acyclic() {
    sc_edges();
    flat n = off_.back();
    auto deg = [&](flat v) { return head_[v + 1] - head_[v] + rhead_[v + 1] - rhead_[v]; };
    auto nth = [&](flat v, flat k) {
      flat a = head_[v + 1] - head_[v];
      return k < a ? adj_[head_[v] + k] : radj_[rhead_[v] + k - a];
    };
    color_.assign(static_cast<std::size_t>(n), 0);
    stack_.clear();
    for (flat s0 = 0; s0 < n; s0++) {
      if (color_[s0] != 0) continue;
      stack_.push_back({s0, 0});
      color_[s0] = 1;
      while (!stack_.empty()) {
        auto [v, k] = stack_.back();
        if (k < deg(v)) {
          stack_.back().second++;
          flat w = nth(v, k);
          if (color_[w] == 1) return false;
          if (color_[w] == 0) color_[w] = 1, stack_.push_back({w, 0});
        } else {
          color_[v] = 2;
          stack_.pop_back();
        }
      }
    }
    return true;
  }

  // The graph less e (the last event of its thread, read by none) is
  // acyclic; every edge of g between two other events was one of it, so a
  // cycle of po ∪ rf ∪ co ∪ fr passes through e: is e reachable from e?
  // Walks eids, not flatten()'s numbering: the rf edges into a write are
  // found through g.acc (every event but, maybe, e: e's own is added).
  // What is reached of a thread is a po suffix, kept as where it begins;
  // reaching e's thread reaches e (its last event).
  bool sc_reaches_itself(eid e) {
    const graph& g = *g_;
    std::size_t nt = g.th.size();
    auto& from = from_;  // per thread: the first event reached (its size: none)
    from.resize(nt);
    for (std::size_t t = 0; t < nt; t++) from[t] = static_cast<std::int32_t>(g.th[t].size());
    const event& x = g.at(e);
    auto& todo = walk_;
    todo.clear();
    // v's co, fr (immediate: co is a chain) and rf successors (po: see
    // above).
    auto successors = [&](eid v) {
      const event& y = g.at(v);
      if (y.kind == ek::fence) return;
      auto ws = g.writes(y.loc);
      auto next = [&](eid w) {  // w's co successor (init: the co-first), or an init eid
        std::size_t k = w.init() ? 0 : static_cast<std::size_t>(g.co_index(y.loc, w));
        return k < ws.size() ? ws[k] : eid{};
      };
      if (y.writes()) {
        if (eid c = next(v); !c.init()) todo.push_back(c);
        for (eid r : g.acc.of(y.loc))
          if (g.at(r).reads() && g.at(r).rf == v) todo.push_back(r);
        if (x.reads() && x.rf == v) todo.push_back(e);
      }
      if (y.reads()) {
        eid c = next(y.rf);
        if (c == v) c = next(v);  // an RMW's fr skips itself
        if (!c.init()) todo.push_back(c);
      }
    };
    successors(e);
    while (!todo.empty()) {
      eid v = todo.back();
      todo.pop_back();
      if (v.t == e.t) return true;
      if (v.i >= from[v.t]) continue;
      for (std::int32_t i = v.i; i < from[v.t]; i++) successors({v.t, i});
      from[v.t] = v.i;
    }
    return false;
  }

  // Does e (new, the last of its thread, read by none) close a cycle of
  // po ∪ rf ∪ co ∪ fr, by prepare_sc()'s clocks? Its successors: the
  // write co-next to it, and (a read) the write co-next to the one it
  // reads. Its predecessors: po, rf, the write co-before it and that
  // write's readers (fr); earlier ones reach these along co.
  bool sc_cycle_prepared(eid e) const {
    const graph& g = *g_;
    const event& x = g.at(e);
    if (x.kind == ek::fence) return false;
    auto ws = g.writes(x.loc);
    auto after = [&](eid w) -> std::size_t {  // the index in ws after w (init: 0)
      if (w.init()) return 0;
      return static_cast<std::size_t>(std::find(ws.begin(), ws.end(), w) - ws.begin()) + 1;
    };
    std::array<eid, 2> succ;
    int ns = 0;
    std::size_t at = x.writes() ? after(e) - 1 : 0;  // e's index in ws
    if (x.writes() && at + 1 < ws.size()) succ[ns++] = ws[at + 1];
    if (x.reads()) {
      std::size_t k = after(x.rf);
      if (k < ws.size() && !(ws[k] == e)) succ[ns++] = ws[k];
    }
    if (ns == 0) return false;
    auto reaches = [&](eid p) {  // a successor reaches p (in g less e)
      const clock& c = reach_[prep_off_[p.t] + p.i];
      for (int k = 0; k < ns; k++)
        if (c[succ[k].t] >= succ[k].i) return true;
      return false;
    };
    if (e.i > 0 && reaches({e.t, e.i - 1})) return true;
    if (x.reads() && !x.rf.init() && reaches(x.rf)) return true;
    if (x.writes()) {
      eid prev = at > 0 ? ws[at - 1] : eid{};
      if (!prev.init() && reaches(prev)) return true;
      for (eid r : g.acc.of(x.loc))
        if (!(r == e) && g.at(r).reads() && g.at(r).rf == prev && reaches(r)) return true;
    }
    return false;
  }

  // The rf edges reversed (w -> the reads of w), as rhead_/radj_; needs
  // flatten().
  void readers() {
    const graph& g = *g_;
    flat n = off_.back();
    rfrom_.assign(static_cast<std::size_t>(n), -1);
    for (flat v = 0; v < n; v++) {
      const event& e = g.at(ids_[v]);
      if (e.reads() && !e.rf.init()) rfrom_[v] = fl(e.rf);
    }
    rhead_.assign(static_cast<std::size_t>(n) + 1, 0);
    for (flat v = 0; v < n; v++)
      if (rfrom_[v] >= 0) rhead_[rfrom_[v] + 1]++;
    for (flat v = 0; v < n; v++) rhead_[v + 1] += rhead_[v];
    radj_.assign(static_cast<std::size_t>(rhead_[n]), 0);
    fill_ = rhead_;
    for (flat v = 0; v < n; v++)
      if (rfrom_[v] >= 0) radj_[fill_[rfrom_[v]]++] = v;
  }

  // Can fresh (the last of its thread, read by none) close a psc cycle?
  // Nothing follows it in po or hb, so its only psc successors are through
  // what is co or fr after it: with none (a co-last write, a read of the
  // co-last write, a fence) it is a sink in psc, and no edge between other
  // events passes through it. A non-SC event with such successors adds
  // edges only between SC fences that happen before it (psc_base's
  // [Fsc];hb;scb and psc_F's hb;eco;hb); nor does fresh change another
  // event's hb.
  bool adds_psc(eid fresh) const {
    const graph& g = *g_;
    const event& x = g.at(fresh);
    if (x.kind == ek::fence) return false;
    auto ws = g.writes(x.loc);
    eid last = ws.empty() ? eid{} : ws.back();
    if (x.writes() ? last == fresh : x.rf == last) return false;  // no co ∪ fr successor
    if (sc_event(x)) return true;
    for (std::size_t t = 0; t < g.th.size(); t++) {
      const auto& evs = g.th[t];
      std::int32_t upto = static_cast<int>(t) == fresh.t ? fresh.i - 1 : x.vc[t];
      for (std::int32_t i = 0; i <= upto && i < static_cast<std::int32_t>(evs.size()); i++)
        if (evs[i].kind == ek::fence && is_sc(evs[i].mo)) return true;
    }
    return false;
  }

  // psc acyclic (RC11 section 3): used only when the graph has an SC
  // access or fence (litmus tests, the protocol's seq_cst counters and
  // #StoreLoad fences). psc is built between the SC events only, from
  //   scb = po ∪ po|≠loc;hb;po|≠loc ∪ hb|loc ∪ co ∪ fr
  //   psc_base = ([Esc] ∪ [Fsc];hb?);scb;([Esc] ∪ hb?;[Fsc])
  //   psc_F = [Fsc];(hb ∪ hb;eco;hb);[Fsc]
  // without joining relations over all events:
  // - hb is transitive and holds po, so what an SC fence f reaches by
  //   [f] ∪ hb then scb is hb(f) and the co ∪ fr successors of f's
  //   hb-successors (po, hb|loc and po|≠loc;hb;po|≠loc from an
  //   hb-successor stay in hb(f));
  // - from an SC access a, po|≠loc;hb;po|≠loc reaches b iff the
  //   hb-successors of x0, a's first po-successor at another location,
  //   hold an event before b in b's thread at another location than b's:
  //   those successors are a suffix of each thread (clocks grow along po).
  // - the co ∪ fr successors of a set of accesses to one location are the
  //   writes co-after a threshold (the least co index among them: a write's
  //   own, a read's write's), their eco successors those writes and the
  //   reads of a write at or after another threshold: one pass over the
  //   location's accesses, not one per access.
  // Rows are bits over the events flattened (thread by thread, in po); the
  // psc relation is bits over the SC events, closed by Warshall's algorithm.
  // Buffers are members, reused: no allocation once warm.
  bool psc_acyclic() {
    const graph& g = *g_;
    flatten();
    const flat n = off_.back();
    const std::size_t nt = g.th.size();
    const std::size_t w = (static_cast<std::size_t>(n) + 63) / 64;
    const auto un = static_cast<std::size_t>(n);
    cw_.assign(un, -1);
    cr_.assign(un, -1);
    lastdiff_.assign(un, -1);
    scs_.clear();
    g.co.each([&](std::uint32_t, std::span<const eid> ws) {
      for (std::size_t k = 0; k < ws.size(); k++) cw_[fl(ws[k])] = static_cast<int>(k) + 1;
    });
    for (flat a = 0; a < n; a++) {
      const event& e = g.at(ids_[a]);
      if (e.reads()) cr_[a] = e.rf.init() ? 0 : cw_[fl(e.rf)];
      if (sc_event(e)) scs_.push_back(a);
    }
    auto is_fence = [&](flat a) { return g.at(ids_[a]).kind == ek::fence; };
    auto loc_of = [&](flat a) { return g.at(ids_[a]).loc; };
    auto sameloc = [&](flat a, flat b) {
      return !is_fence(a) && !is_fence(b) && loc_of(a) == loc_of(b);
    };
    // lastdiff_[b]: the last event before b in its thread at another
    // location than b's (a fence is at none), as an in-thread index, or -1;
    // same-location neighbours share it, so it never decreases along po.
    for (std::size_t t = 0; t < nt; t++)
      for (flat b = off_[t] + 1; b < off_[t + 1]; b++)
        lastdiff_[b] = !sameloc(b - 1, b) ? b - 1 - off_[t] : lastdiff_[b - 1];
    auto has = [](const std::uint64_t* r, flat b) {
      return (r[static_cast<std::size_t>(b) / 64] >> (b % 64)) & 1;
    };
    auto put = [](std::uint64_t* r, flat b) {
      r[static_cast<std::size_t>(b) / 64] |= std::uint64_t{1} << (b % 64);
    };
    auto put_range = [&](std::uint64_t* r, flat lo, flat hi) {  // [lo, hi)
      for (; lo < hi && lo % 64 != 0; lo++) put(r, lo);
      for (; lo + 64 <= hi; lo += 64) r[static_cast<std::size_t>(lo) / 64] = ~std::uint64_t{0};
      for (; lo < hi; lo++) put(r, lo);
    };
    auto meets = [&](const std::uint64_t* a, const std::uint64_t* b) {
      for (std::size_t k = 0; k < w; k++)
        if ((a[k] & b[k]) != 0) return true;
      return false;
    };
    // first_hb(x, t): the in-thread index where x's hb-successors in thread
    // t begin (the thread's size if none).
    auto first_hb = [&](flat x, std::size_t t) {
      eid id = ids_[x];
      const auto& evs = g.th[t];
      std::size_t lo = static_cast<std::size_t>(id.t) == t ? static_cast<std::size_t>(id.i) + 1
                                                           : 0;
      std::size_t hi = evs.size();
      while (lo < hi) {  // the first whose clock has seen x
        std::size_t mid = (lo + hi) / 2;
        if (evs[mid].vc[static_cast<std::size_t>(id.t)] >= id.i) hi = mid;
        else lo = mid + 1;
      }
      return static_cast<flat>(lo);
    };
    // The thresholds of access x: writes with a co index above wth(x) are
    // its co ∪ fr successors, reads of a write of index rth(x) on its eco
    // ones beyond those (an RMW, atomic, is co-next to what it reads).
    auto wth = [&](flat x) { return cw_[x] >= 0 ? cw_[x] : cr_[x]; };
    auto rth = [&](flat x) { return cw_[x] >= 0 ? cw_[x] : cr_[x] + 1; };
    const std::size_t m = scs_.size();
    rows_.assign(m * w, 0);     // per SC event a: ([a] ∪ [Fsc];hb);scb
    before_.assign(m * w, 0);   // per SC fence: its hb-predecessors
    hba_.assign(w, 0);
    eco_.assign(w, 0);
    for (std::size_t j = 0; j < m; j++) {
      flat b = scs_[j];
      if (!is_fence(b)) continue;
      eid id = ids_[b];
      const event& e = g.at(id);
      for (std::size_t t = 0; t < nt; t++) {
        flat upto = static_cast<std::size_t>(id.t) == t ? id.i - 1 : e.vc[t];
        put_range(&before_[j * w], off_[t], off_[t] + upto + 1);
      }
    }
    const std::size_t mw = (m + 63) / 64;
    psc_.assign(m * mw, 0);
    std::size_t nloc = 0;  // fresh (consistent()) may be its location's first access
    for (flat a = 0; a < n; a++)
      if (!is_fence(a)) nloc = std::max<std::size_t>(nloc, loc_of(a) + std::size_t{1});
    lw_.assign(nloc, INT32_MAX);
    lr_.assign(nloc, INT32_MAX);
    for (std::size_t i = 0; i < m; i++) {
      flat a = scs_[i];
      std::uint64_t* u = &rows_[i * w];
      const bool fa = is_fence(a);
      if (fa) {  // hb(a), its co ∪ fr successors (u) and eco ones (eco_)
        std::fill(hba_.begin(), hba_.end(), 0);
        std::fill(eco_.begin(), eco_.end(), 0);
        touched_.clear();
        for (std::size_t t = 0; t < nt; t++) {
          flat lo = off_[t] + first_hb(a, t);
          put_range(hba_.data(), lo, off_[t + 1]);
          for (flat x = lo; x < off_[t + 1]; x++) {
            if (is_fence(x)) continue;
            std::uint32_t l = loc_of(x);
            if (lw_[l] == INT32_MAX && lr_[l] == INT32_MAX) touched_.push_back(l);
            lw_[l] = std::min(lw_[l], wth(x));
            lr_[l] = std::min(lr_[l], rth(x));
          }
        }
        std::copy(hba_.begin(), hba_.end(), u);
        for (std::uint32_t l : touched_) {
          for (eid oy : g.acc.of(l)) {
            flat y = fl(oy);
            if (cw_[y] > lw_[l]) put(u, y), put(eco_.data(), y);
            if (cr_[y] >= 0 && cr_[y] >= lr_[l]) put(eco_.data(), y);
          }
          lw_[l] = lr_[l] = INT32_MAX;
        }
      } else {
        std::size_t ta = static_cast<std::size_t>(ids_[a].t);
        put_range(u, a + 1, off_[ta + 1]);  // po
        flat x0 = a + 1;
        while (x0 < off_[ta + 1] && sameloc(a, x0)) x0++;
        if (x0 < off_[ta + 1]) {  // po|≠loc;hb;po|≠loc: a suffix of each thread
          for (std::size_t t = 0; t < nt; t++) {
            flat from = first_hb(x0, t);
            auto first = lastdiff_.begin() + off_[t], last = lastdiff_.begin() + off_[t + 1];
            auto b = std::partition_point(first, last, [&](flat d) { return d < from; });
            put_range(u, static_cast<flat>(b - lastdiff_.begin()), off_[t + 1]);
          }
        }
        const int wa = wth(a);
        for (eid oy : g.acc.of(loc_of(a))) {  // co, fr; hb|loc
          flat y = fl(oy);
          if (cw_[y] > wa || (y != a && hb(ids_[a], oy))) put(u, y);
        }
      }
      std::uint64_t* row = &psc_[i * mw];
      for (std::size_t j = 0; j < m; j++) {
        flat b = scs_[j];
        bool e = has(u, b);
        if (!e && is_fence(b)) {
          e = meets(u, &before_[j * w]);
          if (!e && fa) e = meets(eco_.data(), &before_[j * w]);
        }
        if (e) row[j / 64] |= std::uint64_t{1} << (j % 64);
      }
    }
    for (std::size_t k = 0; k < m; k++)  // Warshall, a row at a time
      for (std::size_t i = 0; i < m; i++)
        if ((psc_[i * mw + k / 64] >> (k % 64)) & 1)
          for (std::size_t q = 0; q < mw; q++) psc_[i * mw + q] |= psc_[k * mw + q];
    for (std::size_t i = 0; i < m; i++)
      if ((psc_[i * mw + i / 64] >> (i % 64)) & 1) return false;
    return true;
  }

  const graph* g_ = nullptr;
  // prepare_sc()'s graph (its size, its threads' offsets) and clocks.
  const graph* prep_ = nullptr;
  std::size_t prep_n_ = 0;
  std::vector<flat> prep_off_;
  std::vector<clock> reach_;
  // sc_edges()' per event co successor and per location co-first write
  // (-1: none); prepare_sc()'s in-degrees and Kahn's order.
  std::vector<flat> conext_, cofirst_, indeg_, order_;
  bool has_sc_ = false;
  bool lb_ = false;  // the model judged is model::lb (clocks_lb())
  std::vector<int> cw_, cr_, coidx_;
  std::vector<flat> off_;
  std::vector<eid> ids_;
  std::vector<flat> head_, adj_, rfrom_, rhead_, radj_, fill_;
  std::vector<eid> walk_;
  std::vector<std::int32_t> from_;
  std::vector<std::pair<flat, flat>> stack_;
  std::vector<char> color_;
  std::vector<flat> lastdiff_, scs_;
  std::vector<std::uint64_t> rows_, before_, hba_, eco_, psc_;
  std::vector<std::int32_t> lw_, lr_;
  std::vector<std::uint32_t> touched_;
  std::vector<flat> sco_off_, sco_idx_, sco_base_, sco_readers_, sco_mem_;  // sc_order()'s
  std::vector<std::uint32_t> sco_step_;  // sc_order(g, true)'s places
};

// The memory models, one class each: the axioms it takes, in the order
// they are checked (the cheap and the most often failing first).

// sc: po ∪ rf ∪ co ∪ fr acyclic, RMWs atomic (Lamport). The clocks (po ∪
// rf) are kept for hb() and race().
struct sc_model {
  static bool consistent(checker& c, graph& g, eid fresh, std::uint32_t hb_of) {
    return c.clocked(g, false, fresh, hb_of) && c.atomic_rmws(fresh) && c.sc_acyclic_at(fresh);
  }
};
// rc11: no-thin-air (po ∪ rf acyclic: the clocks), atomicity, coherence,
// psc acyclic (Lahav et al., PLDI 2017, section 3).
struct rc11_model {
  static bool consistent(checker& c, graph& g, eid fresh, std::uint32_t hb_of) {
    return c.clocked(g, false, fresh, hb_of) && c.atomic_rmws(fresh) &&
           c.coherent(fresh, hb_of) && c.psc_at(fresh);
  }
};
// lb: RC11 without no-thin-air, hb acyclic instead (C11's load buffering);
// a po ∪ rf cycle enters the graph only through a promise the engine
// certifies (engine.hpp, lb_revisit()). c11 takes the same axioms, its
// promises uncertified: the difference is the engine's, not the graph's.
struct lb_model {
  static bool consistent(checker& c, graph& g, eid fresh, std::uint32_t hb_of) {
    return c.clocked(g, true, fresh, hb_of) && c.atomic_rmws(fresh) &&
           c.coherent(fresh, hb_of) && c.psc_at(fresh);
  }
};

inline bool checker::consistent(graph& g, model m, eid fresh, std::uint32_t hb_of) {
  switch (m) {
    case model::sc:
      return sc_model::consistent(*this, g, fresh, hb_of);
    case model::rc11:
      return rc11_model::consistent(*this, g, fresh, hb_of);
    case model::lb:
    case model::c11:
      return lb_model::consistent(*this, g, fresh, hb_of);
  }
  return false;
}

}  // namespace runqcheck::explore
