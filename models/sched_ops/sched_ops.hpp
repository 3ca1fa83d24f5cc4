// models/sched_ops/sched_ops.hpp — the scheduler-level operations of the
// stateful tests, without rapidcheck: the op vocabulary, when an op is valid
// in the reference model (`valid`), running it on the model (`model_do`) and
// on the subject (`sut<Cap>::apply`), and comparing the two states
// (`sut<Cap>::compare`). Used by tests/property/sched_props.cpp (rapidcheck
// draws and shrinks the ops) and fuzz/targets/fuzz_sequential.cpp (libFuzzer
// bytes pick them).
//
// Its kinds are the scheduler level of models/scenarios/ops.hpp's one
// vocabulary (kSchedOps below): scheduler events (spawn, park, ready,
// schedule, syscalls, procresize) that run the queue operations through
// sched_policy.hpp; drain is the queue's runqdrain plus the global append,
// glob_batch findRunnable's global step and steal_work stealWork, each of
// the last two followed by execute.
//
// Include after "runqcheck_subject.hpp" (the per-subject generated header:
// subject_under_test<B, Cap>, subject_name). Macro read here:
//   RQ_SCHED_ASSERT(cond)    an internal check of the subject-side harness
//                            (sched_props: RC_ASSERT); by default a failed
//                            check throws std::logic_error.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "runqcheck/check.hpp"
#include "runqcheck/sched_policy.hpp"
#include "runqcheck/subject.hpp"
#include "runqcheck/steal_order.hpp"
#include "runqcheck_ref/reference.hpp"
#include "../scenarios/ops.hpp"
#include "../watchdog/watchdog.hpp"

#ifndef RQ_SCHED_ASSERT
#define RQ_SCHED_ASSERT(cond) \
  ((cond) ? void(0) : throw std::logic_error("sched_ops: check failed: " #cond " (" __FILE__ ")"))
#endif

namespace runqcheck::schedops {

using B = runqcheck::native;
using runqcheck::ref::gid;
using runqcheck::ref::nil;
namespace ref = runqcheck::ref;

inline constexpr int kMaxP = 4;
inline constexpr int kMaxG = 2048;

// ---------------------------------------------------------------------------
// Operations, as data: what rapidcheck generates, shrinks, prints and what a
// counterexample file holds (one op a line: "<kind> a b seed [list...]").

using model::op_kind;

// The scheduler-level kinds, in the order of the fuzz_sequential byte format
// (a kind byte b names kSchedOps[b % 16]).
inline constexpr op_kind kSchedOps[] = {
    op_kind::spawn,      op_kind::spawn_many, op_kind::park,         op_kind::ready,
    op_kind::gosched,    op_kind::goexit,     op_kind::schedule,     op_kind::steal_work,
    op_kind::glob_batch, op_kind::entersyscall, op_kind::exitsyscall, op_kind::procresize,
    op_kind::drain,      op_kind::inject};

// k's index in kSchedOps, -1 if it is not a scheduler-level kind.
constexpr int sched_index(op_kind k) {
  for (int i = 0; i < static_cast<int>(std::size(kSchedOps)); i++)
    if (kSchedOps[i] == k) return i;
  return -1;
}

struct op {
  op_kind k = op_kind::spawn;
  int a = 0;
  int b = 0;
  std::uint32_t seed = 0;
  std::vector<int> list;
};

inline std::string show_op(const op& o) {
  std::ostringstream os;
  os << model::name(o.k) << ' ' << o.a << ' ' << o.b << ' ' << o.seed;
  for (int g : o.list) os << ' ' << g;
  return os.str();
}

inline std::optional<op> parse_op(const std::string& line) {
  std::istringstream is(line);
  std::string name;
  op o;
  if (!(is >> name >> o.a >> o.b >> o.seed)) return std::nullopt;
  std::optional<op_kind> k = model::parse_op_kind(name);
  if (!k || sched_index(*k) < 0) return std::nullopt;
  o.k = *k;
  for (int g; is >> g;) o.list.push_back(g);
  return o;
}

// cheaprand(), replayable: the same sequence on the model and the subject.
struct splitmix {
  std::uint64_t s;
  std::uint32_t operator()() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return static_cast<std::uint32_t>(z ^ (z >> 31));
  }
};

// What an operation returned (compared between model and subject).
struct outcome {
  gid gp = nil;
  bool inheritTime = false;
  int where = -1;  // exitsyscall: the P; schedule: the source
  std::vector<gid> list;
  bool operator==(const outcome&) const = default;
};

inline std::string show_outcome(const outcome& r) {
  std::ostringstream os;
  os << "gp=" << r.gp << " inheritTime=" << r.inheritTime << " where=" << r.where
     << " list=" << ref::show(r.list);
  return os.str();
}

// ---------------------------------------------------------------------------
// The model side.

// Whether o is valid in m (rapidcheck discards it otherwise; shrinking can
// make an op invalid).
inline bool valid(const ref::world& m, const op& o) {
  auto isP = [&](int p) { return p >= 0 && p < m.nprocs(); };
  auto isG = [&](int g) { return g >= 0 && static_cast<std::size_t>(g) < m.gs.size(); };
  auto running = [&](int p) { return isP(p) && m.current[p] != nil; };
  auto idle_empty = [&](int p) { return isP(p) && m.current[p] == nil && m.q.runqempty(p); };
  switch (o.k) {
    case op_kind::spawn: return running(o.a) && m.gs.size() < kMaxG;
    case op_kind::spawn_many:
      return running(o.a) && o.b >= 1 && m.gs.size() + static_cast<std::size_t>(o.b) <= kMaxG;
    case op_kind::park:
    case op_kind::gosched:
    case op_kind::goexit:
    case op_kind::entersyscall: return running(o.a);
    case op_kind::ready: return running(o.a) && isG(o.b) && m.gs[o.b] == ref::gstate::waiting;
    case op_kind::schedule: return isP(o.a) && m.current[o.a] == nil;
    case op_kind::steal_work: return idle_empty(o.a);
    case op_kind::glob_batch: return idle_empty(o.a) && !m.q.global.empty();
    case op_kind::exitsyscall: return isG(o.b) && m.gs[o.b] == ref::gstate::syscall;
    case op_kind::procresize: return o.a >= 1 && o.a <= m.maxprocs && o.a != m.nprocs();
    case op_kind::drain: return isP(o.a);
    case op_kind::inject: {
      if (!isP(o.a) || o.list.empty()) return false;
      std::vector<bool> seen(m.gs.size(), false);
      for (int g : o.list) {
        if (!isG(g) || m.gs[g] != ref::gstate::waiting || seen[g]) return false;
        seen[g] = true;
      }
      return true;
    }
    default: return false;  // a queue operation or control: not a scheduler event
  }
}

inline outcome model_do(ref::world& m, const op& o) {
  outcome r;
  switch (o.k) {
    case op_kind::spawn: r.gp = m.spawn(o.a); break;
    case op_kind::spawn_many:
      for (int i = 0; i < o.b; i++) r.gp = m.spawn(o.a);
      break;
    case op_kind::park: m.park(o.a); break;
    case op_kind::ready: m.ready(o.a, o.b); break;
    case op_kind::gosched: m.gosched(o.a); break;
    case op_kind::goexit: m.goexit(o.a); break;
    case op_kind::schedule: {
      ref::found f = m.findRunnable(o.a, splitmix{o.seed});
      m.execute(o.a, f);
      r = {f.gp, f.inheritTime, static_cast<int>(f.from), {}};
      break;
    }
    case op_kind::steal_work: {
      ref::found f = m.stealWork(o.a, splitmix{o.seed});
      m.execute(o.a, f);
      r = {f.gp, f.inheritTime, static_cast<int>(f.from), {}};
      break;
    }
    case op_kind::glob_batch: {
      ref::found f{m.q.findRunnable_globrunq(o.a), false, ref::source::global};
      m.execute(o.a, f);
      r = {f.gp, false, static_cast<int>(f.from), {}};
      r.list = std::vector<gid>(m.q.ps[o.a].ring.begin(), m.q.ps[o.a].ring.end());
      break;
    }
    case op_kind::entersyscall: m.entersyscall(o.a); break;
    case op_kind::exitsyscall: r.where = m.exitsyscall(o.b); break;
    case op_kind::procresize: m.procresize(o.a); break;
    case op_kind::drain: r.list = m.drain_to_global(o.a); break;
    case op_kind::inject: m.inject(o.a, o.list); break;
    default: break;  // not a scheduler event (valid() refuses it)
  }
  return r;
}

// ---------------------------------------------------------------------------
// The subject side: the subject's queues plus the scheduler's bookkeeping
// (who runs where, schedtick), kept independently of the model.

template <std::uint32_t Cap>
struct sut {
  using S = runqcheck::watched<subject_under_test<B, Cap>>;  // a hang fails with a dump
  using G = runqcheck::g<B>;
  // procresize needs the set_gomaxprocs hook (subject.hpp); without it the
  // op is never drawn and the checker prints a "not applied" line.
  static constexpr bool can_resize = runqcheck::has_set_gomaxprocs<S>;

  typename S::schedt sched;
  std::unique_ptr<typename S::p> ps[kMaxP];
  typename S::p* allp[kMaxP];
  std::unique_ptr<G[]> gs;
  int ngs = 0;
  int nprocs;
  runqcheck::randomOrder stealOrder;
  std::vector<gid> current;
  std::vector<std::uint32_t> schedtick;
  std::vector<ref::gstate> state;  // waiting/syscall/dead bookkeeping (not queue state)
  std::vector<int> syscall_from;
  std::vector<op> log;             // the ops run so far (a counterexample)
  // Coverage, reported by rapidcheck's classification after each property.
  struct {
    bool putslow = false, fairness = false, global_batch = false, steal = false,
         steal_runnext = false, resize_down = false, exitsyscall_global = false,
         inject_leftover = false;
  } seen;
  bool track_seen = true;  // false: apply() skips `seen` (two globrunqsize calls an op)

  explicit sut(int n)
      : sched(n), gs(new G[kMaxG]), nprocs(n), current(kMaxP, nil), schedtick(kMaxP, 0) {
    for (int i = 0; i < kMaxP; i++) {
      ps[i] = std::make_unique<typename S::p>(sched, i);
      allp[i] = ps[i].get();
    }
    for (int i = 0; i < kMaxG; i++) gs[i].goid = static_cast<std::uint64_t>(i);
    stealOrder.reset(static_cast<std::uint32_t>(n));
  }

  G* g(gid id) { return id == nil ? nullptr : &gs[id]; }
  static gid id(const G* gp) { return gp == nullptr ? nil : static_cast<gid>(gp->goid); }
  gid newg() {
    state.push_back(ref::gstate::runnable);
    syscall_from.push_back(-1);
    return ngs++;
  }
  void run_on(int p, gid g, bool inheritTime) {
    if (g == nil) return;
    current[p] = g;
    state[g] = ref::gstate::running;
    if (!inheritTime) schedtick[p]++;  // Go: execute
  }
  std::span<typename S::p* const> allps() { return {allp, static_cast<std::size_t>(nprocs)}; }

  outcome apply(const op& o) {
    log.push_back(o);
    if (!track_seen) return apply_(o);
    std::int32_t glob_before = S::globrunqsize(sched);
    outcome r = apply_(o);
    std::int32_t glob_after = S::globrunqsize(sched);
    bool puts = o.k == op_kind::spawn || o.k == op_kind::spawn_many || o.k == op_kind::ready;
    if (puts && glob_after > glob_before) seen.putslow = true;
    if (o.k == op_kind::inject && glob_after > glob_before) seen.inject_leftover = true;
    if (o.k == op_kind::schedule || o.k == op_kind::steal_work) {
      if (r.where == static_cast<int>(runqcheck::found_in::fairness)) seen.fairness = true;
      if (r.where == static_cast<int>(runqcheck::found_in::global)) seen.global_batch = true;
      if (r.where == static_cast<int>(runqcheck::found_in::steal)) seen.steal = true;
    }
    if (o.k == op_kind::exitsyscall && r.where < 0) seen.exitsyscall_global = true;
    if (o.k == op_kind::procresize && o.a < nprocs_before_) seen.resize_down = true;
    nprocs_before_ = nprocs;
    return r;
  }
  int nprocs_before_ = 0;

  outcome apply_(const op& o) {
    nprocs_before_ = nprocs;
    outcome r;
    auto& pp = *ps[o.a < kMaxP ? o.a : 0];
    switch (o.k) {
      case op_kind::spawn: {
        r.gp = newg();
        S::runqput(pp, g(r.gp), true);
        break;
      }
      case op_kind::spawn_many:
        for (int i = 0; i < o.b; i++) {
          r.gp = newg();
          S::runqput(pp, g(r.gp), true);
        }
        break;
      case op_kind::park:
        state[current[o.a]] = ref::gstate::waiting;
        current[o.a] = nil;
        break;
      case op_kind::ready:
        state[o.b] = ref::gstate::runnable;
        S::runqput(pp, g(o.b), true);
        break;
      case op_kind::gosched:
        state[current[o.a]] = ref::gstate::runnable;
        S::globrunqput(sched, g(current[o.a]));
        current[o.a] = nil;
        break;
      case op_kind::goexit:
        state[current[o.a]] = ref::gstate::dead;
        current[o.a] = nil;
        break;
      case op_kind::schedule: {
        auto f = runqcheck::findRunnable<S>(sched, pp, schedtick[o.a], allps(), stealOrder,
                                                           splitmix{o.seed});
        run_on(o.a, id(f.gp), f.inheritTime);
        r = {id(f.gp), f.inheritTime, static_cast<int>(f.from), {}};
        break;
      }
      case op_kind::steal_work: {
        auto f = runqcheck::stealWork<S>(pp, allps(), stealOrder, splitmix{o.seed});
        run_on(o.a, id(f.gp), f.inheritTime);
        r = {id(f.gp), f.inheritTime, static_cast<int>(f.from), {}};
        break;
      }
      case op_kind::glob_batch: {
        std::int32_t before = S::globrunqsize(sched);
        gid gp = id(S::findRunnable_globrunq(pp));
        run_on(o.a, gp, false);
        r = {gp, false, static_cast<int>(runqcheck::found_in::global), {}};
        observe_local(o.a, r.list);
        // Batch bounds: 1 + the ring ≤ min(cap/2, size, size/gomaxprocs + 1).
        std::int32_t n = 1 + static_cast<std::int32_t>(r.list.size());
        std::int32_t bound =
            std::min({static_cast<std::int32_t>(Cap / 2), before, before / nprocs + 1});
        RQ_SCHED_ASSERT(n <= bound);
        RQ_SCHED_ASSERT(S::globrunqsize(sched) == before - n);
        break;
      }
      case op_kind::entersyscall:
        state[current[o.a]] = ref::gstate::syscall;
        syscall_from[current[o.a]] = o.a;
        current[o.a] = nil;
        break;
      case op_kind::exitsyscall: {
        int from = syscall_from[o.b], to = -1;
        syscall_from[o.b] = -1;
        if (from >= 0 && from < nprocs && current[from] == nil) to = from;
        for (int p = 0; to < 0 && p < nprocs; p++)
          if (current[p] == nil) to = p;
        if (to < 0) {
          state[o.b] = ref::gstate::runnable;
          S::globrunqput(sched, g(o.b));  // Go: exitsyscall0 with no idle P
        } else {
          current[to] = o.b;
          state[o.b] = ref::gstate::running;
        }
        r.where = to;
        break;
      }
      case op_kind::procresize: {
        if constexpr (can_resize) {
          int old = nprocs;
          for (int p = o.a; p < old; p++)
            if (current[p] != nil) {  // preempted by the world stop
              state[current[p]] = ref::gstate::runnable;
              S::globrunqput(sched, g(current[p]));
              current[p] = nil;
            }
          for (int p = o.a; p < old; p++) S::destroy(*ps[p]);  // Go: allp[i].destroy()
          for (int p = o.a; p < kMaxP; p++) schedtick[p] = 0;
          S::set_gomaxprocs(sched, o.a);
          nprocs = o.a;
          stealOrder.reset(static_cast<std::uint32_t>(nprocs));
        }
        break;
      }
      case op_kind::drain: {
        runqcheck::gQueue<B> q = S::runqdrain(pp);
        for (G* gp = q.head(); gp != nullptr; gp = gp->schedlink.load()) r.list.push_back(id(gp));
        while (G* gp = q.pop()) S::globrunqput(sched, gp);
        break;
      }
      case op_kind::inject: {
        runqcheck::gQueue<B> q;
        for (int gi : o.list) {
          state[gi] = ref::gstate::runnable;
          q.pushBack(g(gi));
        }
        S::runqputbatch(pp, q);
        while (G* gp = q.pop()) S::globrunqput(sched, gp);  // Go: injectglist's leftovers
        break;
      }
      default: break;  // not a scheduler event (valid() refuses it)
    }
    return r;
  }

  // The ring of P p, observed without changing what it holds: runqget tells
  // runnext apart (inheritTime), runqdrain gives the ring; both are put back
  // (runqputbatch, runqput next=true) unless restore is false.
  gid observe_local(int p, std::vector<gid>& ring, bool restore = true) {
    auto& pp = *ps[p];
    auto first = S::runqget(pp);
    gid runnext = nil;
    runqcheck::gQueue<B> rest = S::runqdrain(pp);
    runqcheck::gQueue<B> back;
    ring.clear();
    if (first.gp != nullptr && first.inheritTime) runnext = id(first.gp);
    else if (first.gp != nullptr) {
      ring.push_back(id(first.gp));
      back.pushBack(first.gp);
    }
    while (G* gp = rest.pop()) {
      ring.push_back(id(gp));
      back.pushBack(gp);
    }
    if (!restore) return runnext;
    S::runqputbatch(pp, back);
    RQ_SCHED_ASSERT(back.empty());
    if (runnext != nil) S::runqput(pp, g(runnext), true);
    return runnext;
  }

  std::vector<gid> observe_global(bool restore = true) {
    std::vector<gid> out;
    std::int32_t size = S::globrunqsize(sched);
    while (G* gp = S::globrunqget(sched)) out.push_back(id(gp));
    for (gid x : out)
      if (restore) S::globrunqput(sched, g(x));
    RQ_SCHED_ASSERT(static_cast<std::size_t>(size) == out.size());
    return out;
  }

  // The O(Ps) part of compare(), for callers that run compare() only now
  // and then (fuzz_sequential): gomaxprocs, who runs where, schedtick, which
  // rings are empty, the global queue's size. "" if they agree.
  std::string quick_compare(const ref::world& m) {
    bool same = m.nprocs() == nprocs &&
                static_cast<std::size_t>(S::globrunqsize(sched)) == m.q.global.size();
    for (int p = 0; same && p < nprocs; p++)
      same = S::runqempty(*ps[p]) == m.q.runqempty(p) && current[p] == m.current[p] &&
             schedtick[p] == m.schedtick[p];
    if (same) return {};
    std::ostringstream err;  // only on a difference: a stream costs more than the checks
    if (m.nprocs() != nprocs) err << "gomaxprocs " << nprocs << " vs model " << m.nprocs() << "; ";
    for (int p = 0; p < std::min(nprocs, m.nprocs()); p++) {
      bool empty = m.q.runqempty(p);
      if (S::runqempty(*ps[p]) != empty)
        err << "P" << p << " runqempty " << !empty << " vs model " << empty << "; ";
      if (current[p] != m.current[p])
        err << "P" << p << " runs " << current[p] << " vs model " << m.current[p] << "; ";
      if (schedtick[p] != m.schedtick[p])
        err << "P" << p << " schedtick " << schedtick[p] << " vs model " << m.schedtick[p] << "; ";
    }
    if (static_cast<std::size_t>(S::globrunqsize(sched)) != m.q.global.size())
      err << "global size " << S::globrunqsize(sched) << " vs model " << m.q.global.size() << "; ";
    return err.str();
  }

  // "" if the subject's state equals the model's, else what differs.
  // restore=false: the queues are left empty (for a last compare, when the
  // state is thrown away next: half the queue operations).
  std::string compare(const ref::world& m, bool restore = true) {
    std::ostringstream err;
    if (m.nprocs() != nprocs) err << "gomaxprocs " << nprocs << " vs model " << m.nprocs() << "; ";
    std::vector<int> where(static_cast<std::size_t>(ngs), 0);
    for (int p = 0; p < m.nprocs(); p++) {
      std::vector<gid> ring;
      gid rn = observe_local(p, ring, restore);
      for (gid x : ring) where[x]++;
      if (rn != nil) where[rn]++;
      const ref::local& l = m.q.ps[p];
      if (rn != l.runnext)
        err << "P" << p << " runnext " << rn << " vs model " << l.runnext << "; ";
      if (ring != std::vector<gid>(l.ring.begin(), l.ring.end()))
        err << "P" << p << " ring " << ref::show(ring) << " vs model " << ref::show(l.ring)
            << " (FIFO); ";
      if (current[p] != m.current[p])
        err << "P" << p << " runs " << current[p] << " vs model " << m.current[p] << "; ";
      if (schedtick[p] != m.schedtick[p])
        err << "P" << p << " schedtick " << schedtick[p] << " vs model " << m.schedtick[p] << "; ";
      if (current[p] != nil) where[current[p]]++;
    }
    std::vector<gid> glob = observe_global(restore);
    for (gid x : glob) where[x]++;
    if (glob != std::vector<gid>(m.q.global.begin(), m.q.global.end()))
      err << "global " << ref::show(glob) << " vs model " << ref::show(m.q.global) << "; ";
    // Conservation and one location per G: runnable and running Gs are in
    // exactly one place, the others in none.
    for (int x = 0; x < ngs; x++) {
      int want = (state[x] == ref::gstate::runnable || state[x] == ref::gstate::running) ? 1 : 0;
      if (where[x] != want)
        err << "conservation: G" << x << " (" << ref::to_string(state[x]) << ") found in "
            << where[x] << " places; ";
    }
    if (ngs != static_cast<int>(m.gs.size())) err << ngs << " Gs vs model " << m.gs.size() << "; ";
    if (std::string e = m.check(); !e.empty()) err << "model invariant: " << e << "; ";
    return err.str();
  }
};
// The initial state: nprocs Ps, G0 running on P0.
inline ref::world initial_world(std::uint32_t cap, int nprocs) {
  ref::world m(cap, nprocs, kMaxP);
  m.spawn(0);
  m.execute(0, m.findRunnable(0, splitmix{0}));
  return m;
}
template <std::uint32_t Cap>
void initial_sut(sut<Cap>& s) {
  s.apply(op{op_kind::spawn, 0, 0, 0, {}});
  s.apply(op{op_kind::schedule, 0, 0, 0, {}});
  s.log.clear();
}

// The op kinds valid in m, with the weights gen_op draws them by (the fuzz
// target picks by byte among the same menu), and the candidates for their
// arguments.
struct menu_t {
  std::vector<int> running, free, waiting, insys;
  std::vector<std::pair<int, op_kind>> menu;  // weight, kind
  int total = 0;
};

// Which Ps of m run a G (running) and which are free.
inline void procs_of(const ref::world& m, menu_t& c) {
  c.running.clear();
  c.free.clear();
  for (int p = 0; p < m.nprocs(); p++) (m.current[p] != nil ? c.running : c.free).push_back(p);
}

// The menu (kinds and weights) for c's candidate lists: which are empty.
inline void menu_of(menu_t& c) {
  auto& [running, free, waiting, insys, menu, total] = c;
  menu.clear();
  total = 0;
  if (!running.empty()) {
    menu.insert(menu.end(), {{12, op_kind::spawn}, {2, op_kind::spawn_many}, {4, op_kind::park},
                             {2, op_kind::gosched}, {2, op_kind::goexit},
                             {2, op_kind::entersyscall}});
    if (!waiting.empty()) menu.push_back({5, op_kind::ready});
  }
  if (!free.empty())
    menu.insert(menu.end(),
                {{10, op_kind::schedule}, {2, op_kind::steal_work}, {2, op_kind::glob_batch}});
  if (!insys.empty()) menu.push_back({3, op_kind::exitsyscall});
  if (!waiting.empty()) menu.push_back({2, op_kind::inject});
  menu.push_back({1, op_kind::drain});
  if (sut<8>::can_resize) menu.push_back({1, op_kind::procresize});
  for (auto& [w, k] : menu) total += w;
}

inline menu_t menu_for(const ref::world& m) {
  menu_t c;
  for (std::size_t g = 0; g < m.gs.size(); g++) {
    if (m.gs[g] == ref::gstate::waiting) c.waiting.push_back(static_cast<int>(g));
    if (m.gs[g] == ref::gstate::syscall) c.insys.push_back(static_cast<int>(g));
  }
  procs_of(m, c);
  menu_of(c);
  return c;
}

// menu_for, kept up to date from one call to the next (who calls it: one
// caller stepping one model, as fuzz_sequential does): only the Gs whose
// state changed since the last call are looked at, so a call costs O(Ps +
// changed Gs) plus a compare of the state bytes, not O(Gs) list building.
class menu_cache {
 public:
  const menu_t& update(const ref::world& m) {
    const std::size_t n = m.gs.size();
    for (std::size_t i = next_change(m, 0); i < n; i = next_change(m, i + 1)) {
      if (i < seen_.size()) seen_[i] = m.gs[i];
      else seen_.push_back(m.gs[i]);
      set(c_.waiting, static_cast<int>(i), m.gs[i] == ref::gstate::waiting);
      set(c_.insys, static_cast<int>(i), m.gs[i] == ref::gstate::syscall);
    }
    procs_of(m, c_);
    // The menu depends only on which lists are empty: rebuilt when that changes.
    unsigned key = 16u | (c_.running.empty() ? 1u : 0u) | (c_.free.empty() ? 2u : 0u) |
                   (c_.waiting.empty() ? 4u : 0u) | (c_.insys.empty() ? 8u : 0u);
    if (key != key_) menu_of(c_);
    key_ = key;
    return c_;
  }

 private:
  // Puts g in (or takes it out of) the sorted list v.
  static void set(std::vector<int>& v, int g, bool in) {
    auto it = std::lower_bound(v.begin(), v.end(), g);
    bool there = it != v.end() && *it == g;
    if (in && !there) v.insert(it, g);
    if (!in && there) v.erase(it);
  }
  // The first G from i on whose state differs from seen_ (a new G differs);
  // whole blocks that are equal are skipped with memcmp.
  std::size_t next_change(const ref::world& m, std::size_t i) const {
    const std::size_t common = std::min(m.gs.size(), seen_.size());
    constexpr std::size_t kBlock = 64;
    while (i + kBlock <= common && same_block(&m.gs[i], &seen_[i])) i += kBlock;
    while (i < common && m.gs[i] == seen_[i]) i++;
    return i;
  }
  // 64 state bytes equal? (Words, not memcmp: libFuzzer intercepts memcmp
  // and records each call.)
  static bool same_block(const ref::gstate* a, const ref::gstate* b) {
    static_assert(sizeof(ref::gstate) == 1);
    std::uint64_t x = 0;
    for (std::size_t k = 0; k < 64; k += 8) {
      std::uint64_t u, v;
      std::memcpy(&u, a + k, 8);
      std::memcpy(&v, b + k, 8);
      x |= u ^ v;
    }
    return x == 0;
  }
  std::vector<ref::gstate> seen_;
  menu_t c_;
  unsigned key_ = 0;  // the emptiness key c_.menu was built for (0: none yet)
};

}  // namespace runqcheck::schedops
