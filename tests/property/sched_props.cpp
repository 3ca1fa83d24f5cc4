// tests/property/sched_props.cpp — rapidcheck stateful property tests: the
// subject under test (native backend, one thread, ring capacity 256 and 8)
// and the reference model (models/reference) driven side by side with
// scheduler-level operations, findRunnable/stealWork taken from
// runqcheck/sched_policy.hpp. After every command the subject's whole queue
// state is observed and compared with the model's: conservation, one
// location per G, FIFO order, batch bounds all follow from that equality and
// are also checked one by one for readable failures.
//
// Plus the fairness property: a G on the global queue is scheduled within 61
// schedtick advances while the local queue stays busy with Gs respawning
// each other. Built with RUNQCHECK_SKIP_FAIRNESS=1 (the policy's
// skip_fairness_check), only the fairness property runs and the program
// succeeds iff rapidcheck finds a counterexample (an inverted test).
//
// Usage: sched_props [--expect-failure] [--sequences N] | --replay FILE
//   --sequences N sets rapidcheck's max_success for every property (x
//   $RUNQCHECK_SCALE) unless RC_PARAMS sets it; the gate passes 5000.
//   RC_PARAMS="seed=S" / "reproduce=…" as usual.
//   A failure writes the shrunk operation list to
//   $RUNQCHECK_ARTIFACT_DIR/<property>__<subject>.ops (default: the build
//   directory's counterexamples/) and prints the path; --replay FILE runs
//   such a file step by step without rapidcheck.
//   --expect-failure (a build on the mutant backend, RUNQCHECK_MUTANT set):
//   succeed only if a stateful property fails.
#include <rapidcheck.h>
#include <rapidcheck/state.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "runqcheck_subject.hpp"
#include "runqcheck/check.hpp"
#include "runqcheck/sched_policy.hpp"
#include "runqcheck/steal_order.hpp"
#include "runqcheck_ref/reference.hpp"

#ifndef RUNQCHECK_SKIP_FAIRNESS
#define RUNQCHECK_SKIP_FAIRNESS 0
#endif
#ifndef RUNQCHECK_BUILD_DIR
#define RUNQCHECK_BUILD_DIR "."
#endif

#ifndef RUNQCHECK_TEST_BACKEND
#define RUNQCHECK_TEST_BACKEND runqcheck::native
#endif

namespace {

using B = RUNQCHECK_TEST_BACKEND;
using runqcheck::ref::gid;
using runqcheck::ref::nil;
namespace ref = runqcheck::ref;

constexpr bool kSkipFairness = RUNQCHECK_SKIP_FAIRNESS != 0;
constexpr int kMaxP = 4;
constexpr int kMaxG = 2048;

// ---------------------------------------------------------------------------
// Operations, as data: what rapidcheck generates, shrinks, prints and what a
// counterexample file holds (one op a line: "<kind> a b seed [list...]").

enum class opk : std::uint8_t {
  spawn,        // a: P. The running G does newproc: runqput(next=true)
  spawn_many,   // a: P, b: count. b spawns in a row (fills a 256 ring)
  park,         // a: P. The running G waits (gopark)
  ready,        // a: P, b: G. P's running G readies a waiting G: runqput(next=true)
  gosched,      // a: P. The running G yields to the global tail (goschedImpl)
  goexit,       // a: P. The running G exits
  schedule,     // a: P, seed. findRunnable (fairness, local, global batch, stealWork) + execute
  steal,        // a: P, seed. stealWork only (P's queue empty) + execute
  globbatch,    // a: P. findRunnable's global step (P's queue empty) + execute
  entersyscall, // a: P. The running G enters a syscall; P handed off
  exitsyscall,  // b: G. The G leaves its syscall: old P, any free P, or the global queue
  procresize,   // a: new gomaxprocs
  drain,        // a: P. runqdrain, the Gs appended to the global queue
  inject,       // a: P, list: waiting Gs. injectglist: runqputbatch, leftovers global
};

constexpr const char* kNames[] = {"spawn",     "spawn_many",   "park",        "ready",      "gosched",
                                  "goexit",    "schedule",     "steal",       "globbatch",  "entersyscall",
                                  "exitsyscall", "procresize", "drain",       "inject"};

struct op {
  opk k{};
  int a = 0;
  int b = 0;
  std::uint32_t seed = 0;
  std::vector<int> list;
};

std::string show_op(const op& o) {
  std::ostringstream os;
  os << kNames[static_cast<int>(o.k)] << ' ' << o.a << ' ' << o.b << ' ' << o.seed;
  for (int g : o.list) os << ' ' << g;
  return os.str();
}

std::optional<op> parse_op(const std::string& line) {
  std::istringstream is(line);
  std::string name;
  op o;
  if (!(is >> name >> o.a >> o.b >> o.seed)) return std::nullopt;
  bool found = false;
  for (int i = 0; i < static_cast<int>(std::size(kNames)); i++)
    if (name == kNames[i]) {
      o.k = static_cast<opk>(i);
      found = true;
    }
  if (!found) return std::nullopt;
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

std::string show_outcome(const outcome& r) {
  std::ostringstream os;
  os << "gp=" << r.gp << " inheritTime=" << r.inheritTime << " where=" << r.where << " list=" << ref::show(r.list);
  return os.str();
}

// ---------------------------------------------------------------------------
// The model side.

// Whether o is valid in m (rapidcheck discards it otherwise; shrinking can
// make an op invalid).
bool valid(const ref::world& m, const op& o) {
  auto isP = [&](int p) { return p >= 0 && p < m.nprocs(); };
  auto isG = [&](int g) { return g >= 0 && static_cast<std::size_t>(g) < m.gs.size(); };
  auto running = [&](int p) { return isP(p) && m.current[p] != nil; };
  auto idle_empty = [&](int p) { return isP(p) && m.current[p] == nil && m.q.runqempty(p); };
  switch (o.k) {
    case opk::spawn: return running(o.a) && m.gs.size() < kMaxG;
    case opk::spawn_many: return running(o.a) && o.b >= 1 && m.gs.size() + static_cast<std::size_t>(o.b) <= kMaxG;
    case opk::park:
    case opk::gosched:
    case opk::goexit:
    case opk::entersyscall: return running(o.a);
    case opk::ready: return running(o.a) && isG(o.b) && m.gs[o.b] == ref::gstate::waiting;
    case opk::schedule: return isP(o.a) && m.current[o.a] == nil;
    case opk::steal: return idle_empty(o.a);
    case opk::globbatch: return idle_empty(o.a) && !m.q.global.empty();
    case opk::exitsyscall: return isG(o.b) && m.gs[o.b] == ref::gstate::syscall;
    case opk::procresize: return o.a >= 1 && o.a <= m.maxprocs && o.a != m.nprocs();
    case opk::drain: return isP(o.a);
    case opk::inject: {
      if (!isP(o.a) || o.list.empty()) return false;
      std::vector<bool> seen(m.gs.size(), false);
      for (int g : o.list) {
        if (!isG(g) || m.gs[g] != ref::gstate::waiting || seen[g]) return false;
        seen[g] = true;
      }
      return true;
    }
  }
  return false;
}

outcome model_do(ref::world& m, const op& o) {
  outcome r;
  switch (o.k) {
    case opk::spawn: r.gp = m.spawn(o.a); break;
    case opk::spawn_many:
      for (int i = 0; i < o.b; i++) r.gp = m.spawn(o.a);
      break;
    case opk::park: m.park(o.a); break;
    case opk::ready: m.ready(o.a, o.b); break;
    case opk::gosched: m.gosched(o.a); break;
    case opk::goexit: m.goexit(o.a); break;
    case opk::schedule: {
      ref::found f = m.findRunnable(o.a, splitmix{o.seed}, kSkipFairness);
      m.execute(o.a, f);
      r = {f.gp, f.inheritTime, static_cast<int>(f.from), {}};
      break;
    }
    case opk::steal: {
      ref::found f = m.stealWork(o.a, splitmix{o.seed});
      m.execute(o.a, f);
      r = {f.gp, f.inheritTime, static_cast<int>(f.from), {}};
      break;
    }
    case opk::globbatch: {
      ref::found f{m.q.findRunnable_globrunq(o.a), false, ref::source::global};
      m.execute(o.a, f);
      r = {f.gp, false, static_cast<int>(f.from), {}};
      r.list = std::vector<gid>(m.q.ps[o.a].ring.begin(), m.q.ps[o.a].ring.end());
      break;
    }
    case opk::entersyscall: m.entersyscall(o.a); break;
    case opk::exitsyscall: r.where = m.exitsyscall(o.b); break;
    case opk::procresize: m.procresize(o.a); break;
    case opk::drain: r.list = m.drain_to_global(o.a); break;
    case opk::inject: m.inject(o.a, o.list); break;
  }
  return r;
}

// ---------------------------------------------------------------------------
// The subject side: the subject's queues plus the scheduler's bookkeeping
// (who runs where, schedtick), kept independently of the model.

template <std::uint32_t Cap>
struct sut {
  using S = subject_under_test<B, Cap>;
  using G = runqcheck::g<B>;
  static constexpr bool can_resize =
      requires(typename S::schedt& s) { runqcheck::lock(s).set_gomaxprocs(1); };

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
    bool putslow = false, fairness = false, global_batch = false, steal = false, steal_runnext = false,
         resize_down = false, exitsyscall_global = false, inject_leftover = false;
  } seen;

  explicit sut(int n) : sched(n), gs(new G[kMaxG]), nprocs(n), current(kMaxP, nil), schedtick(kMaxP, 0) {
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
    std::int32_t glob_before = S::globrunqsize(sched);
    outcome r = apply_(o);
    std::int32_t glob_after = S::globrunqsize(sched);
    bool puts = o.k == opk::spawn || o.k == opk::spawn_many || o.k == opk::ready;
    if (puts && glob_after > glob_before) seen.putslow = true;
    if (o.k == opk::inject && glob_after > glob_before) seen.inject_leftover = true;
    if (o.k == opk::schedule || o.k == opk::steal) {
      if (r.where == static_cast<int>(runqcheck::found_in::fairness)) seen.fairness = true;
      if (r.where == static_cast<int>(runqcheck::found_in::global)) seen.global_batch = true;
      if (r.where == static_cast<int>(runqcheck::found_in::steal)) seen.steal = true;
    }
    if (o.k == opk::exitsyscall && r.where < 0) seen.exitsyscall_global = true;
    if (o.k == opk::procresize && o.a < nprocs_before_) seen.resize_down = true;
    nprocs_before_ = nprocs;
    return r;
  }
  int nprocs_before_ = 0;

  outcome apply_(const op& o) {
    nprocs_before_ = nprocs;
    outcome r;
    auto& pp = *ps[o.a < kMaxP ? o.a : 0];
    switch (o.k) {
      case opk::spawn: {
        r.gp = newg();
        S::runqput(pp, g(r.gp), true);
        break;
      }
      case opk::spawn_many:
        for (int i = 0; i < o.b; i++) {
          r.gp = newg();
          S::runqput(pp, g(r.gp), true);
        }
        break;
      case opk::park:
        state[current[o.a]] = ref::gstate::waiting;
        current[o.a] = nil;
        break;
      case opk::ready:
        state[o.b] = ref::gstate::runnable;
        S::runqput(pp, g(o.b), true);
        break;
      case opk::gosched:
        state[current[o.a]] = ref::gstate::runnable;
        S::globrunqput(sched, g(current[o.a]));
        current[o.a] = nil;
        break;
      case opk::goexit:
        state[current[o.a]] = ref::gstate::dead;
        current[o.a] = nil;
        break;
      case opk::schedule: {
        auto f = runqcheck::findRunnable<S, kSkipFairness>(sched, pp, schedtick[o.a], allps(), stealOrder,
                                                           splitmix{o.seed});
        run_on(o.a, id(f.gp), f.inheritTime);
        r = {id(f.gp), f.inheritTime, static_cast<int>(f.from), {}};
        break;
      }
      case opk::steal: {
        auto f = runqcheck::stealWork<S>(pp, allps(), stealOrder, splitmix{o.seed});
        run_on(o.a, id(f.gp), f.inheritTime);
        r = {id(f.gp), f.inheritTime, static_cast<int>(f.from), {}};
        break;
      }
      case opk::globbatch: {
        std::int32_t before = S::globrunqsize(sched);
        gid gp = id(S::findRunnable_globrunq(pp));
        run_on(o.a, gp, false);
        r = {gp, false, static_cast<int>(runqcheck::found_in::global), {}};
        observe_local(o.a, r.list);
        // Batch bounds: 1 + the ring ≤ min(cap/2, size, size/gomaxprocs + 1).
        std::int32_t n = 1 + static_cast<std::int32_t>(r.list.size());
        std::int32_t bound = std::min({static_cast<std::int32_t>(Cap / 2), before, before / nprocs + 1});
        RC_ASSERT(n <= bound);
        RC_ASSERT(S::globrunqsize(sched) == before - n);
        break;
      }
      case opk::entersyscall:
        state[current[o.a]] = ref::gstate::syscall;
        syscall_from[current[o.a]] = o.a;
        current[o.a] = nil;
        break;
      case opk::exitsyscall: {
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
      case opk::procresize: {
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
          runqcheck::lock(sched).set_gomaxprocs(o.a);
          nprocs = o.a;
          stealOrder.reset(static_cast<std::uint32_t>(nprocs));
        }
        break;
      }
      case opk::drain: {
        runqcheck::gQueue<B> q = S::runqdrain(pp);
        for (G* gp = q.head(); gp != nullptr; gp = gp->schedlink.load()) r.list.push_back(id(gp));
        while (G* gp = q.pop()) S::globrunqput(sched, gp);
        break;
      }
      case opk::inject: {
        runqcheck::gQueue<B> q;
        for (int gi : o.list) {
          state[gi] = ref::gstate::runnable;
          q.pushBack(g(gi));
        }
        S::runqputbatch(pp, q);
        while (G* gp = q.pop()) S::globrunqput(sched, gp);  // Go: injectglist's leftovers
        break;
      }
    }
    return r;
  }

  // The ring of P p, observed without changing what it holds: runqget tells
  // runnext apart (inheritTime), runqdrain gives the ring; both are put back
  // (runqputbatch, runqput next=true).
  gid observe_local(int p, std::vector<gid>& ring) {
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
    S::runqputbatch(pp, back);
    RC_ASSERT(back.empty());
    if (runnext != nil) S::runqput(pp, g(runnext), true);
    return runnext;
  }

  std::vector<gid> observe_global() {
    std::vector<gid> out;
    std::int32_t size = S::globrunqsize(sched);
    while (G* gp = S::globrunqget(sched)) out.push_back(id(gp));
    for (gid x : out) S::globrunqput(sched, g(x));
    RC_ASSERT(static_cast<std::size_t>(size) == out.size());
    return out;
  }

  // "" if the subject's state equals the model's, else what differs.
  std::string compare(const ref::world& m) {
    std::ostringstream err;
    if (m.nprocs() != nprocs) err << "gomaxprocs " << nprocs << " vs model " << m.nprocs() << "; ";
    std::vector<int> where(static_cast<std::size_t>(ngs), 0);
    for (int p = 0; p < m.nprocs(); p++) {
      std::vector<gid> ring;
      gid rn = observe_local(p, ring);
      for (gid x : ring) where[x]++;
      if (rn != nil) where[rn]++;
      const ref::local& l = m.q.ps[p];
      if (rn != l.runnext) err << "P" << p << " runnext " << rn << " vs model " << l.runnext << "; ";
      if (ring != std::vector<gid>(l.ring.begin(), l.ring.end()))
        err << "P" << p << " ring " << ref::show(ring) << " vs model " << ref::show(l.ring) << " (FIFO); ";
      if (current[p] != m.current[p]) err << "P" << p << " runs " << current[p] << " vs model " << m.current[p] << "; ";
      if (schedtick[p] != m.schedtick[p]) err << "P" << p << " schedtick " << schedtick[p] << " vs model " << m.schedtick[p] << "; ";
      if (current[p] != nil) where[current[p]]++;
    }
    std::vector<gid> glob = observe_global();
    for (gid x : glob) where[x]++;
    if (glob != std::vector<gid>(m.q.global.begin(), m.q.global.end()))
      err << "global " << ref::show(glob) << " vs model " << ref::show(m.q.global) << "; ";
    // Conservation and one location per G: runnable and running Gs are in
    // exactly one place, the others in none.
    for (int x = 0; x < ngs; x++) {
      int want = (state[x] == ref::gstate::runnable || state[x] == ref::gstate::running) ? 1 : 0;
      if (where[x] != want)
        err << "conservation: G" << x << " (" << ref::to_string(state[x]) << ") found in " << where[x] << " places; ";
    }
    if (ngs != static_cast<int>(m.gs.size())) err << ngs << " Gs vs model " << m.gs.size() << "; ";
    if (std::string e = m.check(); !e.empty()) err << "model invariant: " << e << "; ";
    return err.str();
  }
};

// ---------------------------------------------------------------------------
// rapidcheck glue.

template <std::uint32_t Cap>
struct cmd final : rc::state::Command<ref::world, sut<Cap>> {
  op o;
  explicit cmd(op x) : o(std::move(x)) {}
  void checkPreconditions(const ref::world& m) const override { RC_PRE(valid(m, o)); }
  void apply(ref::world& m) const override { model_do(m, o); }
  void run(const ref::world& m0, sut<Cap>& s) const override {
    ref::world m = m0;
    outcome want = model_do(m, o);
    outcome got = s.apply(o);
    if (!(want == got)) RC_FAIL(show_op(o) + ": subject returned " + show_outcome(got) + ", model " + show_outcome(want));
    if (std::string e = s.compare(m); !e.empty()) RC_FAIL(show_op(o) + ": " + e);
  }
  void show(std::ostream& os) const override { os << show_op(o); }
};

// A uniform draw from [lo, hi). rapidcheck's inRange scales the range with
// the test size (small sizes draw near lo), which made early choices in the
// menu and P 0 / gomaxprocs 1 far more likely than the weights say.
template <class T>
T uniform(T lo, T hi) {
  return *rc::gen::resize(rc::kNominalSize, rc::gen::inRange<T>(lo, hi));
}

// A valid op for m, drawn with weights that keep the queues busy.
rc::Gen<op> gen_op(const ref::world& m, std::uint32_t cap) {
  return rc::gen::exec([m, cap] {
    std::vector<int> running, free;
    for (int p = 0; p < m.nprocs(); p++) (m.current[p] != nil ? running : free).push_back(p);
    std::vector<int> waiting, insys;
    for (std::size_t g = 0; g < m.gs.size(); g++) {
      if (m.gs[g] == ref::gstate::waiting) waiting.push_back(static_cast<int>(g));
      if (m.gs[g] == ref::gstate::syscall) insys.push_back(static_cast<int>(g));
    }
    std::vector<std::pair<int, opk>> menu;  // weight, kind
    if (!running.empty()) {
      menu.insert(menu.end(), {{12, opk::spawn}, {2, opk::spawn_many}, {4, opk::park}, {2, opk::gosched},
                               {2, opk::goexit}, {2, opk::entersyscall}});
      if (!waiting.empty()) menu.push_back({5, opk::ready});
    }
    if (!free.empty()) menu.insert(menu.end(), {{10, opk::schedule}, {2, opk::steal}, {2, opk::globbatch}});
    if (!insys.empty()) menu.push_back({3, opk::exitsyscall});
    if (!waiting.empty()) menu.push_back({2, opk::inject});
    menu.push_back({1, opk::drain});
    if (sut<8>::can_resize) menu.push_back({1, opk::procresize});
    int total = 0;
    for (auto& [w, k] : menu) total += w;
    int roll = uniform(0, total);
    op o;
    for (auto& [w, k] : menu) {
      if (roll < w) {
        o.k = k;
        break;
      }
      roll -= w;
    }
    auto pick = [](const std::vector<int>& v) { return v[uniform<std::size_t>(0, v.size())]; };
    switch (o.k) {
      case opk::spawn:
      case opk::park:
      case opk::gosched:
      case opk::goexit:
      case opk::entersyscall: o.a = pick(running); break;
      case opk::spawn_many:
        o.a = pick(running);
        o.b = uniform<int>(1, static_cast<int>(cap) + 20);
        break;
      case opk::ready:
        o.a = pick(running);
        o.b = pick(waiting);
        break;
      case opk::schedule:
      case opk::steal:
      case opk::globbatch:
        o.a = pick(free);
        o.seed = *rc::gen::arbitrary<std::uint32_t>();
        break;
      case opk::exitsyscall: o.b = pick(insys); break;
      case opk::procresize: o.a = uniform(1, kMaxP + 1); break;
      case opk::drain: o.a = uniform(0, m.nprocs()); break;
      case opk::inject: {
        o.a = uniform(0, m.nprocs());
        std::vector<int> w = waiting;
        std::size_t k = uniform<std::size_t>(1, w.size() + 1);
        o.list.assign(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(k));
        break;
      }
    }
    return o;
  });
}

// The initial state: nprocs Ps, G0 running on P0.
ref::world initial_world(std::uint32_t cap, int nprocs) {
  ref::world m(cap, nprocs, kMaxP);
  m.spawn(0);
  m.execute(0, m.findRunnable(0, splitmix{0}));
  return m;
}
template <std::uint32_t Cap>
void initial_sut(sut<Cap>& s) {
  s.apply(op{opk::spawn, 0, 0, 0, {}});
  s.apply(op{opk::schedule, 0, 0, 0, {}});
  s.log.clear();
}

std::string artifact_path(const std::string& prop) {
  const char* d = std::getenv("RUNQCHECK_ARTIFACT_DIR");
  std::filesystem::path dir = (d != nullptr && *d != '\0') ? std::filesystem::path(d)
                                                            : std::filesystem::path(RUNQCHECK_BUILD_DIR) / "counterexamples";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  return (dir / (prop + "__" + subject_name + ".ops")).string();
}

std::string g_last_artifact;

void save_ops(const std::string& prop, std::uint32_t cap, int nprocs, const std::vector<op>& log) {
  std::string path = artifact_path(prop);
  std::ofstream f(path);
  f << "# runqcheck counterexample: property " << prop << ", subject " << subject_name << "\n";
  f << "cap " << cap << " nprocs " << nprocs << "\n";
  for (const op& o : log) f << show_op(o) << "\n";
  g_last_artifact = path;
}

void throwing_fatal(const runqcheck::fatal_info& f) {
  throw std::runtime_error(std::string("fatal error: ") + f.msg + " " + f.values);
}

// Coverage of the passing runs of one property: in how many sequences each
// interesting path was taken, and how many ops ran.
struct coverage {
  long sequences = 0, ops = 0;
  long putslow = 0, fairness = 0, global_batch = 0, steal = 0, resize_down = 0, exitsyscall_global = 0,
       inject_leftover = 0;
  long kinds[std::size(kNames)] = {};
  template <class Sut>
  void add(const Sut& s) {
    sequences++;
    ops += static_cast<long>(s.log.size());
    for (const op& o : s.log) kinds[static_cast<int>(o.k)]++;
    putslow += s.seen.putslow;
    fairness += s.seen.fairness;
    global_batch += s.seen.global_batch;
    steal += s.seen.steal;
    resize_down += s.seen.resize_down;
    exitsyscall_global += s.seen.exitsyscall_global;
    inject_leftover += s.seen.inject_leftover;
  }
  void print() const {
    auto pc = [&](long n) { return sequences ? 100.0 * static_cast<double>(n) / static_cast<double>(sequences) : 0.0; };
    std::printf("coverage: %ld sequences, %ld ops; sequences with: runqputslow %.0f%%, %%61 check hit %.0f%%, "
                "global batch %.0f%%, steal %.0f%%, procresize down %.0f%%, exitsyscall to global %.0f%%, "
                "runqputbatch leftovers %.0f%%\n",
                sequences, ops, pc(putslow), pc(fairness), pc(global_batch), pc(steal), pc(resize_down),
                pc(exitsyscall_global), pc(inject_leftover));
    std::printf("ops:");
    for (std::size_t k = 0; k < std::size(kNames); k++) std::printf(" %s %ld", kNames[k], kinds[k]);
    std::printf("\n");
  }
};

template <std::uint32_t Cap>
bool stateful_property(const std::string& prop) {
  static coverage tally;
  tally = coverage{};
  std::fflush(stdout);
  bool ok = rc::check(prop, [prop] {
    int nprocs = uniform(1, kMaxP + 1);
    ref::world m0 = initial_world(Cap, nprocs);
    sut<Cap> s(nprocs);
    initial_sut(s);
    try {
      rc::state::check(m0, s, [](const ref::world& m) {
        return rc::gen::map(gen_op(m, Cap), [](op o) {
          return std::shared_ptr<const rc::state::Command<ref::world, sut<Cap>>>(std::make_shared<cmd<Cap>>(std::move(o)));
        });
      });
      tally.add(s);
    } catch (const rc::detail::CaseResult& r) {
      if (r.type == rc::detail::CaseResult::Type::Failure) save_ops(prop, Cap, nprocs, s.log);
      throw;
    } catch (const std::exception&) {
      save_ops(prop, Cap, nprocs, s.log);
      throw;
    }
  });
  if (ok) tally.print();
  std::fflush(stdout);
  return ok;
}

// ---------------------------------------------------------------------------
// Fairness: gomaxprocs 1; the running G respawns (runnext, ring, or both)
// and exits, so the local queue never empties; runnext chains are cut after
// kSlice inheriting schedules (sysmon's time slice: the chain's next G comes
// from the ring). G_x waits on the global queue: it must run before
// schedtick advances 62 times.
constexpr int kSlice = 10;

template <std::uint32_t Cap>
bool fairness_property() {
  return rc::check("fairness: a global G runs within 61 schedticks while two Gs respawn each other", [] {
    using S = subject_under_test<B, Cap>;
    sut<Cap> s(1);
    auto& pp = *s.ps[0];
    std::uint32_t tick0 = uniform<std::uint32_t>(0, 200);
    s.schedtick[0] = tick0;
    // How each run readies the other G, cycled: 0 runnext, 1 the ring.
    const auto actions = *rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 2));
    const int budget = 4 * 62 * (kSlice + 1);
    // Two Gs respawning each other: A readies B, B readies A.
    gid a = s.newg(), b = s.newg(), x = s.newg();
    S::runqput(pp, s.g(b), false);
    s.run_on(0, a, false);
    S::globrunqput(s.sched, s.g(x));  // G_x waits at the global head
    std::uint32_t ticks_at_enqueue = s.schedtick[0];
    int chain = 0;
    for (int step = 0; step < budget; step++) {
      gid cur = s.current[0];
      gid other = cur == a ? b : a;
      if (cur == x) return;  // G_x ran: fair
      // The running G makes the other one runnable again (it is waiting
      // for it) and blocks: next=true shares the time slice, next=false
      // does not; after kSlice inheriting runs the time slice is over.
      int act = chain >= kSlice || actions.empty() ? 1 : actions[static_cast<std::size_t>(step) % actions.size()];
      s.state[cur] = ref::gstate::waiting;
      s.current[0] = nil;
      s.state[other] = ref::gstate::runnable;
      S::runqput(pp, s.g(other), act == 0);  // ready(other): runnext (act 0) or the ring (act 1)
      auto f = runqcheck::findRunnable<S, kSkipFairness>(s.sched, pp, s.schedtick[0], s.allps(), s.stealOrder,
                                                         splitmix{static_cast<std::uint64_t>(step)});
      RC_ASSERT(f.gp != nullptr);
      s.run_on(0, s.id(f.gp), f.inheritTime);
      chain = f.inheritTime ? chain + 1 : 0;
      if (s.id(f.gp) == x) return;
      if (s.schedtick[0] - ticks_at_enqueue > 62) {
        RC_FAIL("G" + std::to_string(x) + " waited on the global queue for " +
                std::to_string(s.schedtick[0] - ticks_at_enqueue) +
                " schedticks while the local queue stayed busy (no %61 fairness check?); start tick " +
                std::to_string(tick0));
      }
    }
    RC_FAIL("G_x never ran within the step budget");
  });
}

// ---------------------------------------------------------------------------
// --replay FILE: run a saved op list on a fresh model and subject, printing
// each step; exit 1 at the first difference.

template <std::uint32_t Cap>
int replay(std::istream& in, int nprocs) {
  ref::world m = initial_world(Cap, nprocs);
  sut<Cap> s(nprocs);
  initial_sut(s);
  std::string line;
  int n = 0;
  runqcheck::fatal_handler() = &throwing_fatal;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    auto o = parse_op(line);
    if (!o) {
      std::fprintf(stderr, "replay: bad line: %s\n", line.c_str());
      return 2;
    }
    n++;
    if (!valid(m, *o)) {
      std::printf("%3d %-40s  (invalid in this state: skipped, as rapidcheck would)\n", n, line.c_str());
      continue;
    }
    try {
      outcome want = model_do(m, *o);
      outcome got = s.apply(*o);
      std::string e = want == got ? s.compare(m) : "subject returned " + show_outcome(got) + ", model " + show_outcome(want);
      std::printf("%3d %-40s  -> %s\n     model: %s\n", n, line.c_str(), show_outcome(got).c_str(), m.q.describe().c_str());
      if (!e.empty()) {
        std::printf("MISMATCH at step %d: %s\n", n, e.c_str());
        return 1;
      }
    } catch (const std::exception& ex) {
      std::printf("MISMATCH at step %d: %s\n", n, ex.what());
      return 1;
    }
  }
  std::printf("replay: %d ops, subject and model agree\n", n);
  return 0;
}

int replay_file(const char* path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "replay: cannot open %s\n", path);
    return 2;
  }
  std::string line;
  std::uint32_t cap = 0;
  int nprocs = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream is(line);
    std::string w1, w2;
    is >> w1 >> cap >> w2 >> nprocs;
    break;
  }
  std::printf("replay of %s: subject %s, cap %u, nprocs %d\n", path, subject_name, cap, nprocs);
  if (cap == 8) return replay<8>(in, nprocs);
  if (cap == 256) return replay<256>(in, nprocs);
  std::fprintf(stderr, "replay: cap %u not built (8, 256)\n", cap);
  return 2;
}

}  // namespace

// --sequences N: rapidcheck's max_success for every property (scaled by
// $RUNQCHECK_SCALE) unless RC_PARAMS already sets it. Must run before the
// first rapidcheck call, which reads RC_PARAMS once.
void set_sequences(long n) {
  const char* sc = std::getenv("RUNQCHECK_SCALE");
  double scale = sc != nullptr ? std::strtod(sc, nullptr) : 1.0;
  if (!(scale > 0)) scale = 1.0;
  n = std::max(1L, static_cast<long>(static_cast<double>(n) * scale));
  std::string params = std::getenv("RC_PARAMS") != nullptr ? std::getenv("RC_PARAMS") : "";
  if (params.find("max_success") == std::string::npos) {
    params += (params.empty() ? "" : " ") + std::string("max_success=") + std::to_string(n);
    ::setenv("RC_PARAMS", params.c_str(), 1);
  }
}

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "--replay") return replay_file(argv[2]);
  runqcheck::fatal_handler() = &throwing_fatal;  // a failed RQ_CHECK fails the property (and is shrunk)
  // --expect-failure: the inverted run for a mutant build (RUNQCHECK_MUTANT
  // set): succeed only if a stateful property finds a counterexample.
  bool expect_failure = argc > 1 && std::string(argv[1]) == "--expect-failure";
  if (expect_failure) {
    argc--;
    argv++;
  }
  if (argc == 3 && std::string(argv[1]) == "--sequences") set_sequences(std::strtol(argv[2], nullptr, 10));
  if (expect_failure) {
    const char* m = std::getenv("RUNQCHECK_MUTANT");
    std::printf("INVERTED TEST: mutant %s injected; succeeds only if a stateful property fails.\n", m ? m : "(none)");
    bool ok = stateful_property<256>("sched_ops_cap256") && stateful_property<8>("sched_ops_cap8");
    if (ok) {
      std::printf("FAIL (inverted): the mutant survived both stateful properties.\n");
      return 1;
    }
    std::printf("counterexample op list: %s\nPASS (inverted): the mutant was caught (the failure above is expected).\n",
                g_last_artifact.c_str());
    return 0;
  }
  if constexpr (kSkipFairness) {
    std::printf("INVERTED TEST: built without findRunnable's schedtick%%61 global-queue check "
                "(sched_policy skip_fairness_check). The fairness property must FAIL here; this "
                "program succeeds only if rapidcheck finds a counterexample.\n");
    bool ok = fairness_property<256>();
    if (ok) {
      std::printf("FAIL: the fairness property held without the %%61 check: it has no teeth.\n");
      return 1;
    }
    std::printf("PASS: the fairness property caught the missing %%61 check (the failure above is expected).\n");
    return 0;
  }
  std::printf("subject %s: stateful properties against models/reference\n", subject_name);
  bool ok = true;
  ok &= stateful_property<256>("sched_ops_cap256");
  if (!ok) {
    std::printf("counterexample op list: %s\nreplay: %s --replay %s\n", g_last_artifact.c_str(), argv[0],
                g_last_artifact.c_str());
    return 1;
  }
  ok &= stateful_property<8>("sched_ops_cap8");
  if (!ok) {
    std::printf("counterexample op list: %s\nreplay: %s --replay %s\n", g_last_artifact.c_str(), argv[0],
                g_last_artifact.c_str());
    return 1;
  }
  ok &= fairness_property<256>();
  ok &= fairness_property<8>();
  return ok ? 0 : 1;
}
