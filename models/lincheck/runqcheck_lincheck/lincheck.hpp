// models/lincheck/runqcheck_lincheck/lincheck.hpp — a linearizability
// checker for concurrent histories of run-queue operations against the
// reference model (models/reference).
//
// Input: a history, i.e. operations with the thread that ran them, their
// arguments, their observed result and two timestamps (invocation,
// response; a pending operation has no response). Output: whether some
// order of the operations' effects, each inside its own interval, makes
// every observed result one the reference model allows; if not, the
// shortest non-linearizable prefix of the history, printed event by event.
//
// Algorithm: Wing & Gong's search with memoization (Lowe's "just in time"
// form): walk the events in time order; at a response, the responding
// operation must have taken effect, so try every order of effects of the
// operations invoked so far until it has; memoize (event index, state of
// every operation, model state) so that a state is explored once.
//
// Two-step operations. Go performs some operations in two visible steps
// with other threads running between them, and real executions show the
// intermediate state (a thief can see runqput's new runnext before the
// kicked old one reaches the ring). The checker therefore lets an
// operation take effect in up to three steps, each its own linearization
// point, with the Gs in between held by the operation ("in flight", on no
// queue):
//   runqput(next)      swap runnext | the old runnext to the ring tail
//   runqput (full)     cap/2 oldest + g leave the ring | go to the global tail
//                      (runqputslow: the CAS on runqhead, then sched.lock)
//   runqsteal          grab from the victim | publish to the thief's ring;
//                      with stealRunNext and an empty ring: see the ring
//                      empty | take runnext (runqgrab reads runnext after h/t)
//   runqdrain          take runnext | take the ring
//   global batch       globrunqgetbatch under the lock | runqputbatch
//   runqputbatch       the ring takes what fits | each leftover to the
//   (put_batch)        global tail, one step each (the harness's globrunqput)
// Every other operation takes effect at one point.
//
// Precedence form. Where the operations' order is not one clock's (an
// execution graph's: tests/explore/generated.cpp), check(h, before) takes a
// strict partial order instead of the timestamps: before[a][b], a must have
// taken every step before b takes its first. The intervals are the case
// a.ret < b.call (precedence_of()); both forms share the steps above.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <unordered_set>
#include <vector>

#include "ops.hpp"
#include "runqcheck_ref/reference.hpp"

namespace runqcheck::lincheck {

using ref::gid;
using ref::nil;

// Operation kinds are the shared vocabulary (models/scenarios/ops.hpp);
// a history holds queue operations only, never a control.
using model::op_kind;

inline constexpr std::uint64_t pending = std::numeric_limits<std::uint64_t>::max();

struct operation {
  int thread = 0;
  op_kind kind{};
  int p = 0;
  int victim = 0;
  gid g = nil;
  int n = 0;  // put_batch: the batch is g .. g+n-1
  // observed result (put_batch: its leftovers, in list)
  gid res = nil;
  bool inheritTime = false;
  bool flag = false;  // empty: runqempty's answer
  std::vector<gid> list;
  // timestamps: invocation and response (pending: no response)
  std::uint64_t call = 0;
  std::uint64_t ret = pending;
};

struct history {
  ref::queues initial;
  std::vector<operation> ops;
};

// before[a][b]: operation a precedes b (a strict partial order).
using precedence = std::vector<std::vector<bool>>;

// The intervals' precedence: a returned before b was called.
inline precedence precedence_of(const history& h) {
  std::size_t n = h.ops.size();
  precedence before(n, std::vector<bool>(n, false));
  for (std::size_t a = 0; a < n; a++)
    for (std::size_t b = 0; b < n; b++)
      before[a][b] = h.ops[a].ret != pending && h.ops[a].ret < h.ops[b].call;
  return before;
}

inline std::string describe_call(const operation& o) {
  char b[96];
  model::describe_op({o.kind, static_cast<std::uint8_t>(o.p), static_cast<std::uint8_t>(o.victim),
                      static_cast<std::int16_t>(o.g), static_cast<std::uint8_t>(o.n)},
                     b, sizeof b);
  return b;
}

inline std::string describe_result(const operation& o) {
  auto g = [](gid x) { return x == nil ? std::string("nil") : "G" + std::to_string(x); };
  switch (o.kind) {
    case op_kind::get: return g(o.res) + (o.inheritTime ? " (runnext, inheritTime)" : "");
    case op_kind::steal:
    case op_kind::steal_next:
    case op_kind::glob_batch:
    case op_kind::glob_get: return g(o.res);
    case op_kind::drain: return ref::show(o.list);
    case op_kind::empty: return o.flag ? "true" : "false";
    case op_kind::put_batch:
      return o.list.empty() ? "all in the ring" : "left " + ref::show(o.list);
    default: return "ok";
  }
}

struct result {
  bool linearizable = true;
  std::size_t prefix_events = 0;  // length of the shortest failing prefix
  std::string report;             // the prefix, readably
  std::size_t states = 0;         // explored (for the full history)
};

namespace detail {

// An operation's progress: not invoked, in progress at step k, done.
struct opstate {
  std::int8_t phase = -1;  // -1 not invoked; 0.. steps taken; 100 done
  std::vector<gid> inflight;
  bool operator==(const opstate&) const = default;
};
inline constexpr std::int8_t done = 100;

struct state {
  ref::queues q;
  std::vector<opstate> ops;
};

inline void key_of(const state& s, std::size_t ev, std::string& k) {
  k.clear();
  auto put = [&](std::int64_t v) {
    k += std::to_string(v);
    k += ',';
  };
  put(static_cast<std::int64_t>(ev));
  for (const auto& o : s.ops) {
    put(o.phase);
    for (gid g : o.inflight) put(g);
    k += ';';
  }
  for (const auto& l : s.q.ps) {
    put(l.runnext);
    for (gid g : l.ring) put(g);
    k += '|';
  }
  for (gid g : s.q.global) put(g);
}

// runqput's ring part, as steps: returns false when the ring was full and
// the spill is now in flight (a second step appends it to the global queue).
inline bool ring_put_or_spill(ref::queues& q, int p, gid g, std::vector<gid>& inflight) {
  ref::local& l = q.ps[p];
  if (l.ring.size() < q.cap) {
    l.ring.push_back(g);
    return true;
  }
  inflight.assign(l.ring.begin(), l.ring.begin() + q.cap / 2);
  l.ring.erase(l.ring.begin(), l.ring.begin() + q.cap / 2);
  inflight.push_back(g);
  return false;
}

// Take one step of operation o (observed result checked when complete).
// Returns false if the step is not allowed in this state.
inline bool step(state& s, const operation& o, std::size_t i) {
  opstate& st = s.ops[i];
  ref::queues& q = s.q;
  const bool check = o.ret != pending;
  switch (o.kind) {
    case op_kind::put:
      // step 0: ring or spill; step 1: spill to the global tail
      if (st.phase == 0) {
        if (ring_put_or_spill(q, o.p, o.g, st.inflight)) st.phase = done;
        else st.phase = 1;
      } else {
        q.global.insert(q.global.end(), st.inflight.begin(), st.inflight.end());
        st.inflight.clear();
        st.phase = done;
      }
      return true;
    case op_kind::put_next:
      // step 0: swap runnext; step 1: old runnext to the ring (or spill);
      // step 2: spill to the global tail
      if (st.phase == 0) {
        gid old = q.ps[o.p].runnext;
        q.ps[o.p].runnext = o.g;
        if (old == nil) st.phase = done;
        else {
          st.inflight = {old};
          st.phase = 1;
        }
      } else if (st.phase == 1) {
        gid old = st.inflight[0];
        st.inflight.clear();
        st.phase = ring_put_or_spill(q, o.p, old, st.inflight) ? done : 2;
      } else {
        q.global.insert(q.global.end(), st.inflight.begin(), st.inflight.end());
        st.inflight.clear();
        st.phase = done;
      }
      return true;
    case op_kind::get: {
      ref::runqget_outcome r = q.allowed_runqget(o.p).front();
      if (check && (r.gp != o.res || r.inheritTime != o.inheritTime)) return false;
      q.runqget(o.p);
      st.phase = done;
      return true;
    }
    case op_kind::steal:
    case op_kind::steal_next: {
      bool next = o.kind == op_kind::steal_next;
      if (st.phase == 0) {
        ref::local& v = q.ps[o.victim];
        if (!v.ring.empty()) {
          ref::steal_outcome r = q.allowed_steal(o.victim, false).front();
          if (check && r.gp() != o.res) return false;
          v.ring.erase(v.ring.begin(),
                       v.ring.begin() + static_cast<std::ptrdiff_t>(r.taken.size()));
          st.inflight = r.taken;
          st.phase = 1;
          if (r.taken.size() == 1) st.phase = done;
          return true;
        }
        if (!next) {  // saw nothing to steal
          if (check && o.res != nil) return false;
          st.phase = done;
          return true;
        }
        st.phase = 2;  // saw an empty ring; runnext next
        return true;
      }
      if (st.phase == 2) {  // runqgrab: runnext after h/t
        gid rn = q.ps[o.victim].runnext;
        if (check && rn != o.res) return false;
        q.ps[o.victim].runnext = nil;
        st.phase = done;
        return true;
      }
      // phase 1: publish all but the returned one to the thief's ring
      for (std::size_t k = 0; k + 1 < st.inflight.size(); k++)
        q.ps[o.p].ring.push_back(st.inflight[k]);
      st.inflight.clear();
      st.phase = done;
      return true;
    }
    case op_kind::drain:
      if (st.phase == 0) {
        if (q.ps[o.p].runnext != nil) st.inflight = {q.ps[o.p].runnext};
        q.ps[o.p].runnext = nil;
        st.phase = 1;
        return true;
      } else {
        std::vector<gid> all = st.inflight;
        all.insert(all.end(), q.ps[o.p].ring.begin(), q.ps[o.p].ring.end());
        if (check && all != o.list) return false;
        q.ps[o.p].ring.clear();
        st.inflight.clear();
        st.phase = done;
        return true;
      }
    case op_kind::glob_batch:
      if (st.phase == 0) {
        ref::batch_outcome b = q.globrunqgetbatch(static_cast<std::int32_t>(q.cap / 2));
        if (check && b.gp != o.res) return false;
        st.inflight = b.rest;
        st.phase = b.rest.empty() ? done : 1;
        return true;
      } else {
        std::vector<gid> left = q.runqputbatch(o.p, st.inflight);
        if (!left.empty()) return false;  // Go throws: "Couldn't put Gs into empty local runq"
        st.inflight.clear();
        st.phase = done;
        return true;
      }
    case op_kind::put_batch:
      // step 0: the ring takes the first k; steps 1..: each leftover to the
      // global tail. k is at most the room here; fewer is allowed (a stale
      // runqhead shows less room than there is: Go's runqputbatch reads it
      // once), the leftovers being the batch's last n - k, in order.
      if (st.phase == 0) {
        std::vector<gid> batch;
        for (int i = 0; i < o.n; i++) batch.push_back(o.g + i);
        ref::local& l = q.ps[o.p];
        std::size_t k = batch.size();
        if (check) {
          if (o.list.size() > batch.size()) return false;
          k = batch.size() - o.list.size();
          if (!std::equal(o.list.begin(), o.list.end(), batch.begin() + k)) return false;
          if (l.ring.size() + k > q.cap) return false;
        } else {
          k = std::min(k, q.cap - l.ring.size());  // pending: as many as fit
        }
        l.ring.insert(l.ring.end(), batch.begin(), batch.begin() + k);
        st.inflight.assign(batch.begin() + k, batch.end());
        st.phase = st.inflight.empty() ? done : 1;
      } else {
        q.global.push_back(st.inflight.front());
        st.inflight.erase(st.inflight.begin());
        st.phase = st.inflight.empty() ? done : static_cast<std::int8_t>(st.phase + 1);
      }
      return true;
    case op_kind::glob_put:
      q.globrunqput(o.g);
      st.phase = done;
      return true;
    case op_kind::glob_get: {
      gid want = q.global.empty() ? nil : q.global.front();
      if (check && want != o.res) return false;
      q.globrunqget();
      st.phase = done;
      return true;
    }
    case op_kind::empty:
      if (check && q.runqempty(o.victim) != o.flag) return false;
      st.phase = done;
      return true;
    case op_kind::destroy:
      q.destroy(o.p);
      st.phase = done;
      return true;
    case op_kind::steal_next_must:
    case op_kind::expect_nonempty:
    case op_kind::wait_done: return false;  // controls: recorded as what they run (recorded_as)
    default: return false;                  // scheduler events: not in a history
  }
  return false;
}

struct event {
  std::uint64_t t;
  std::size_t op;
  bool call;
};

class search {
 public:
  search(const history& h, std::size_t nevents, std::vector<event> evs)
      : h_(h), evs_(std::move(evs)), n_(nevents) {}

  bool run() {
    state s{h_.initial, std::vector<opstate>(h_.ops.size())};
    return dfs(s, 0);
  }
  std::size_t states() const { return seen_.size(); }

 private:
  bool dfs(state& s, std::size_t ev) {
    // Skip invocations; stop at a response that is not yet satisfied.
    while (ev < n_) {
      const event& e = evs_[ev];
      if (e.call) {
        s.ops[e.op].phase = 0;
        ev++;
      } else if (s.ops[e.op].phase == done) {
        ev++;
      } else {
        break;
      }
    }
    if (ev == n_) return true;
    key_of(s, ev, key_);
    if (!seen_.insert(key_).second) return false;
    for (std::size_t i = 0; i < s.ops.size(); i++) {
      if (s.ops[i].phase < 0 || s.ops[i].phase == done) continue;
      state s2 = s;
      if (!step(s2, op_in_prefix(i), i)) continue;
      if (dfs(s2, ev)) return true;
    }
    return false;
  }

  // Within the prefix, an operation whose response lies beyond it is pending.
  const operation& op_in_prefix(std::size_t i) {
    if (!ret_in_prefix_.empty()) return ret_in_prefix_[i] ? h_.ops[i] : pending_copy(i);
    ret_in_prefix_.assign(h_.ops.size(), false);
    for (std::size_t k = 0; k < n_; k++)
      if (!evs_[k].call) ret_in_prefix_[evs_[k].op] = true;
    return op_in_prefix(i);
  }
  const operation& pending_copy(std::size_t i) {
    if (copies_.empty()) copies_ = h_.ops;
    copies_[i].ret = pending;
    return copies_[i];
  }

  const history& h_;
  std::vector<event> evs_;
  std::size_t n_;
  std::unordered_set<std::string> seen_;
  std::string key_;
  std::vector<bool> ret_in_prefix_;
  std::vector<operation> copies_;
};

inline std::vector<event> events_of(const history& h) {
  std::vector<event> evs;
  for (std::size_t i = 0; i < h.ops.size(); i++) {
    evs.push_back({h.ops[i].call, i, true});
    if (h.ops[i].ret != pending) evs.push_back({h.ops[i].ret, i, false});
  }
  std::sort(evs.begin(), evs.end(), [](const event& a, const event& b) { return a.t < b.t; });
  return evs;
}

inline std::string print_events(const history& h, const std::vector<event>& evs, std::size_t n) {
  std::ostringstream os;
  os << "  initial: " << h.initial.describe() << "\n";
  for (std::size_t k = 0; k < n; k++) {
    const operation& o = h.ops[evs[k].op];
    os << "  " << (k < 10 ? " " : "") << k << "  T" << o.thread
       << (evs[k].call ? "  call " : "  ret  ") << describe_call(o);
    if (!evs[k].call) os << " = " << describe_result(o);
    os << "\n";
  }
  return os.str();
}

// A quick witness before the search: the operations one after another, each
// with all its steps at once, in the order of their responses (then of their
// invocations). Either order puts each operation's effect inside its own
// interval (just before its response, just after its invocation), so if
// every result matches, h is linearizable; if not, the search decides.
// Most histories of a correct port pass here in O(ops). Needs every
// operation complete.
inline bool sequential_witness(const history& h, bool by_response) {
  std::vector<std::size_t> order(h.ops.size());
  for (std::size_t i = 0; i < order.size(); i++) {
    if (h.ops[i].ret == pending) return false;
    order[i] = i;
  }
  auto at = [&](std::size_t i) { return by_response ? h.ops[i].ret : h.ops[i].call; };
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return at(a) < at(b); });
  state s{h.initial, std::vector<opstate>(h.ops.size())};
  for (std::size_t i : order) {
    s.ops[i].phase = 0;
    for (int k = 0; k < 4 && s.ops[i].phase != done; k++)
      if (!step(s, h.ops[i], i)) return false;
    if (s.ops[i].phase != done) return false;
  }
  return true;
}

// The precedence form's search (Wing & Gong over a partial order): an
// operation may step once every operation before it is done; memoized on
// (every operation's state, model state) like search.
class po_search {
 public:
  po_search(const history& h, const precedence& before) : h_(h), before_(before) {}
  bool run() {
    state s{h_.initial, std::vector<opstate>(h_.ops.size())};
    return dfs(s);
  }
  std::size_t states() const { return seen_.size(); }

 private:
  bool ready(const state& s, std::size_t i) const {
    for (std::size_t j = 0; j < h_.ops.size(); j++)
      if (before_[j][i] && s.ops[j].phase != done) return false;
    return true;
  }
  bool dfs(state& s) {
    bool all = true;  // every complete operation done (a pending one may be left)
    for (std::size_t i = 0; i < s.ops.size(); i++)
      all &= h_.ops[i].ret == pending || s.ops[i].phase == done;
    if (all) return true;
    key_of(s, 0, key_);
    if (!seen_.insert(key_).second) return false;
    for (std::size_t i = 0; i < s.ops.size(); i++) {
      if (s.ops[i].phase == done || !ready(s, i)) continue;
      state s2 = s;
      if (s2.ops[i].phase < 0) s2.ops[i].phase = 0;
      if (!step(s2, h_.ops[i], i)) continue;
      if (dfs(s2)) return true;
    }
    return false;
  }

  const history& h_;
  const precedence& before_;
  std::unordered_set<std::string> seen_;
  std::string key_;
};

// The quick witness of the precedence form: the operations one after
// another, each with all its steps at once, in a topological order of
// before (ties to the lowest index, or the highest).
inline bool po_witness(const history& h, const precedence& before, bool lowest) {
  std::size_t n = h.ops.size();
  state s{h.initial, std::vector<opstate>(n)};
  for (std::size_t k = 0; k < n; k++) {
    std::size_t pick = n;
    for (std::size_t x = 0; x < n; x++) {
      std::size_t i = lowest ? x : n - 1 - x;
      bool ok = s.ops[i].phase < 0;
      for (std::size_t j = 0; j < n && ok; j++) ok = !before[j][i] || s.ops[j].phase == done;
      if (ok) {
        pick = i;
        break;
      }
    }
    if (pick == n || h.ops[pick].ret == pending) return false;
    s.ops[pick].phase = 0;
    for (int st = 0; st < 4 && s.ops[pick].phase != done; st++)
      if (!step(s, h.ops[pick], pick)) return false;
    if (s.ops[pick].phase != done) return false;
  }
  return true;
}

}  // namespace detail

// Is h linearizable w.r.t. the reference model when its operations are
// ordered by before, not by their timestamps? On failure the report shows
// every operation, by thread, and the precedence's pairs across threads
// that no other pair implies.
inline result check(const history& h, const precedence& before) {
  result r;
  if (detail::po_witness(h, before, true) || detail::po_witness(h, before, false)) return r;
  detail::po_search s(h, before);
  r.linearizable = s.run();
  r.states = s.states();
  if (r.linearizable) return r;
  std::size_t n = h.ops.size();
  std::ostringstream os;
  os << "not linearizable w.r.t. the reference model under its precedence (" << n
     << " operations):\n  initial: " << h.initial.describe() << "\n";
  for (std::size_t i = 0; i < n; i++)
    os << "  " << (i < 10 ? " " : "") << i << "  T" << h.ops[i].thread << "  "
       << describe_call(h.ops[i]) << " = " << describe_result(h.ops[i]) << "\n";
  std::string pairs;
  for (std::size_t a = 0; a < n; a++)
    for (std::size_t b = 0; b < n; b++) {
      if (!before[a][b] || h.ops[a].thread == h.ops[b].thread) continue;
      bool implied = false;
      for (std::size_t c = 0; c < n && !implied; c++) implied = before[a][c] && before[c][b];
      if (!implied) pairs += " " + std::to_string(a) + "<" + std::to_string(b);
    }
  os << "  across threads, before:" << (pairs.empty() ? " none" : pairs) << "\n"
     << "  (no order of the effects that keeps this precedence gives these results)\n";
  r.report = os.str();
  return r;
}

// Is h linearizable w.r.t. the reference model? On failure, the report
// shows the shortest prefix of events that is already not linearizable
// (operations that have not returned within it may or may not have taken
// effect).
inline result check(const history& h) {
  result r;
  if (detail::sequential_witness(h, true) || detail::sequential_witness(h, false)) return r;
  std::vector<detail::event> evs = detail::events_of(h);
  {
    detail::search s(h, evs.size(), evs);
    r.linearizable = s.run();
    r.states = s.states();
  }
  if (r.linearizable) return r;
  // Shortest failing prefix: non-linearizability is kept by extension, so
  // the first failing prefix ending in a response is the shortest.
  for (std::size_t n = 1; n <= evs.size(); n++) {
    if (evs[n - 1].call) continue;
    detail::search s(h, n, evs);
    if (!s.run()) {
      r.prefix_events = n;
      break;
    }
  }
  std::ostringstream os;
  os << "not linearizable w.r.t. the reference model; shortest failing prefix (" << r.prefix_events
     << " of " << evs.size() << " events):\n"
     << detail::print_events(h, evs, r.prefix_events)
     << "  (no order of the effects, each within its call/ret interval, gives the results after "
        "'ret')\n";
  r.report = os.str();
  return r;
}

// Records a history on real threads: one global atomic clock stamps every
// invocation and response. Each thread appends to its own log (no sharing);
// merge() after the threads joined.
class recorder {
 public:
  explicit recorder(int nthreads) : logs_(static_cast<std::size_t>(nthreads)) {}
  std::uint64_t tick() { return clock_.fetch_add(1, std::memory_order_seq_cst); }
  // call: returns the index of the new operation in thread t's log.
  operation& begin(int t, operation o) {
    o.thread = t;
    o.call = tick();
    logs_[static_cast<std::size_t>(t)].push_back(std::move(o));
    return logs_[static_cast<std::size_t>(t)].back();
  }
  void end(operation& o) { o.ret = tick(); }
  history merge(ref::queues initial) {
    history h{std::move(initial), {}};
    for (auto& l : logs_)
      for (auto& o : l) h.ops.push_back(o);
    return h;
  }

 private:
  std::atomic<std::uint64_t> clock_{0};
  std::vector<std::vector<operation>> logs_;
};

}  // namespace runqcheck::lincheck
