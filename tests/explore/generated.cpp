// Every small queue program (models/generate), each explored exhaustively
// under SC and RC11 for the subject under test: the invariants of exec.hpp
// after every complete execution, data races and the port's checks during
// it, and every complete execution's history checked linearizable against
// the reference model (models/lincheck) under a precedence taken from its
// graph (history::precedence). The first failing program is shrunk to the
// smallest that still fails the same way and printed as a scenario to read,
// replay and keep (docs/generated.md).
//
// Usage: generated [sc|rc11|both] [--ops K] [--threads N] [--total T] [--caps C,...]
//                  [--budget N] [--seconds S] [--jobs J] [--keep-going] [--count]
//        generated run 'SPEC'|FILE [sc|rc11|both] [--budget N]
//        generated replay 'SPEC'|FILE sc|rc11 PATH
//   --ops K: operations per thread (default 2); --threads N: 2 or 3 (3);
//   --total T: operations in all threads at most (default: no bound but K's);
//   --caps: ring capacities (default 4; 8; 2 in a build for ports that take it);
//   --budget N: executions per program and model (default 1,000,000): a
//   program cut by it is named, with what it covered (never a silent pass);
//   --seconds S: stop starting programs after S seconds and say how many of
//   how many were explored (smallest first);
//   --jobs J: J worker processes (default 1); the failure reported is the
//   least failing program's whatever J (the workers agree on it, see work());
//   --keep-going: every program, not only up to the first failure;
//   --count: print the programs of each shape and stop;
//   --crosscheck-ipr: each program explored with and without await in-place
//   revisits, the same complete graphs required (the engine's test);
//   --crosscheck-models: each program's SC executions found by SC's own
//   search and by the RC11 tree (what `both` runs), the same complete graphs
//   required;
//   --crosscheck-deferred: exec.hpp's steal-size loads deferred (judged at
//   each execution's end, no events) and made as events: per execution, the
//   same readings of each steal required (crosscheck_deferred());
//   --crosscheck-retry: each program explored with the retry reduction and
//   without: the same outcomes and access lines, and the same verdict,
//   required (retry_check(), which every enumeration runs first at 3
//   operations to decide whether the port takes the reduction);
//   --wrap: every program starts its ring counters at 2^32 - 2 (2^W - 2 at
//   the port's width; `counter=` in its SPEC), so each runs across the wrap
//   (the hook S::set_runq_counters, else the counters found by behaviour);
//   --sign: at 2^31 - 2 (2^(W-1) - 2), so each runs across the sign
//   boundary, where a port that compares its counters as signed goes wrong.
//   SPEC: a scenario as one line (models/scenarios/text.hpp), FILE a file
//   holding one (lines starting '#' are comments): what a failure saves.
//   RUNQCHECK_STOP_ON_FAIL is honoured as always (it stops at the first);
//   RUNQCHECK_NO_LINCHECK=1 leaves lincheck out (to measure what it costs);
//   RUNQCHECK_PRECEDENCE_BROKEN=drop|invert breaks the precedence on purpose
//   (its teeth: generated_precedence_teeth);
//   RUNQCHECK_NO_RETRY_ASSUME=1: the enumeration without the retry
//   reduction (options::retry_assume) and without its check;
//   RUNQCHECK_NO_IPR=1 explores with plain TruSt (engine.hpp's options::ipr
//   off, to measure what await in-place revisits save; replays alike);
//   RUNQCHECK_SEPARATE_MODELS=1 explores `both` as two trees, SC's and
//   RC11's (to measure what the one tree saves; explore_models()).
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <unordered_set>
#include <vector>

#include "runqcheck_subject.hpp"
#include "scenario_prog.hpp"

#include "generate.hpp"
#include "runqcheck_lincheck/lincheck.hpp"
#include "text.hpp"

namespace {

namespace ex = runqcheck::explore;
namespace cli = runqcheck::explore::cli;
namespace model = runqcheck::model;
namespace gen = runqcheck::generate;
namespace lin = runqcheck::lincheck;
using runqcheck::explore::scenario_run::B;
using runqcheck::explore::scenario_run::obs;
using runqcheck::explore::scenario_run::prog;
using cli::fmt;

constexpr std::uint64_t kDefaultBudget = 1'000'000;
// The capacities built: 4 (the contract's least) and 8; 2 too where the build
// says the ports take it (RUNQCHECK_GENERATED_CAP2, cmake/explore.cmake: the
// contract lets a port refuse Cap 2 at compile time).
#ifdef RUNQCHECK_GENERATED_CAP2
#define RQ_GEN_CAPS 4, 2, 8
constexpr bool kCap2 = true;
#else
#define RQ_GEN_CAPS 4, 8
constexpr bool kCap2 = false;
#endif
constexpr unsigned kMaxJobs = 16;
std::uint32_t wrap_start = 0;  // --wrap: 2^32 - 2; --sign: 2^31 - 2

// Program n's name in its failure's files: genN, genN_wrap, genN_sign (the gate runs the
// three on one binary; one name would leave the last run's picture under each).
std::string program_name(std::uint64_t n) {
  const char* tail = wrap_start == 0 ? "" : wrap_start >= 0x80000000u ? "_wrap" : "_sign";
  return "gen" + std::to_string(n) + tail;
}

struct settings {
  std::vector<ex::model> models{ex::model::sc, ex::model::rc11};
  gen::bounds b;
  std::uint64_t budget = kDefaultBudget;
  double seconds = 0;
  bool keep_going = false, count = false, check_pruning = false, crosscheck_ipr = false,
       crosscheck_models = false, crosscheck_deferred = false, crosscheck_retry = false;
  bool reduce = false;  // the retry reduction, once retry_check() passed
  // Where retry_check() stopped at the first program the full search fails (a stop-on-fail
  // run): that program's number in this enumeration; later ones are explored in full.
  std::uint64_t reduce_until = 0;
  unsigned jobs = 1;
  std::string spec, replay;  // run / replay modes
  bool run = false;
};

// RUNQCHECK_PRECEDENCE_BROKEN (the teeth of the precedence, generated_precedence_teeth):
// "drop" leaves operations of different threads unordered, "invert" orders each
// pair the other way round (1, 2; 0 unset; -1 anything else, refused by main).
int broken_precedence() {
  static const int v = [] {
    const char* e = std::getenv("RUNQCHECK_PRECEDENCE_BROKEN");
    if (e == nullptr || *e == '\0') return 0;
    return std::strcmp(e, "drop") == 0 ? 1 : std::strcmp(e, "invert") == 0 ? 2 : -1;
  }();
  return v;
}

// What one execution's operations did, for lincheck: each operation with
// its thread's events [first, end) in po (none for the final check's, which
// runs after the threads: thread -1), and, at the execution's end, their
// precedence from its graph (precedence()).
struct history final : model::op_observer {
  struct rec {
    int thread = 0;
    model::op o{};
    std::vector<std::uint64_t> gs;
    bool inherit = false, empty = false, done = false;
    std::int32_t first = 0, end = 0;
  };
  // This execution's operations: ops[0, used) (the recs past it are kept,
  // with their buffers, for the next execution's).
  std::vector<rec> ops;
  std::size_t used = 0;
  std::array<std::int32_t, ex::kMaxThreads> events{};  // per thread: its events so far
  lin::precedence before;
  bool sc = false;  // the precedence is one interleaving's (sc_order), not hb's
  std::string key_;               // key()'s text (its buffer kept)
  std::vector<const rec*> judged_;  // precedence()'s operations (its buffer kept)

  std::span<const rec> live() const { return {ops.data(), used}; }
  void reset() {
    used = 0;
    events.fill(0);
  }
  void access(int t) { events[static_cast<std::size_t>(t)]++; }
  void op_begin(int t, int, const model::op& o) override {
    if (used == ops.size()) ops.emplace_back();
    rec& r = ops[used++];
    r.thread = t;
    r.o = o;
    r.gs.clear();
    r.inherit = r.empty = r.done = false;
    r.first = t >= 0 ? events[static_cast<std::size_t>(t)] : 0;
    r.end = 0;
  }
  void op_end(int t, int, const model::op&, const std::uint64_t* gs, int n, bool inherit,
              bool empty) override {
    for (auto it = ops.rend() - static_cast<std::ptrdiff_t>(used); it != ops.rend(); ++it) {
      if (it->thread != t || it->done) continue;
      it->gs.assign(gs, gs + n);
      it->inherit = inherit;
      it->empty = empty;
      it->done = true;
      if (t >= 0) it->end = events[static_cast<std::size_t>(t)];
      return;
    }
  }
  // The precedence of the queue operations (judged(): those lincheck sees)
  // in g, the complete execution's graph. a precedes b when a's end reaches
  // b's start, ends and starts being events: a's last (an operation without
  // events: the first after it), b's first (without: the last before it).
  //   - an SC-consistent g: a's end comes before b's start in one
  //     interleaving of g (checker::sc_order: a topological order of po ∪
  //     rf ∪ co ∪ fr, each thread taken as far as it goes). Every interleaving
  //     is a run of the program, so a history it refutes is a real
  //     failure; this one orders every pair (po ∪ rf ∪ co ∪ fr)+ orders and
  //     more (a stronger check than that partial order's), and is a
  //     function of the graph, whichever order the engine ran its events.
  //   - otherwise (RC11, LB): hb = (po ∪ sw)+, the engine's clocks (m's);
  //     hb-linearizability (Smith, Winter, Colvin, "Linearizability on
  //     hardware weak memory models", FAoC 2020; CDSChecker's CDSSpec,
  //     Ou and Demsky, OOPSLA 2017, orders by hb alike).
  // The threads start after the set-up and the final check's operations
  // run after every thread (thread -1): those orders hold in both.
  // rt: the engine in its finish(); its SC order and hb of the complete
  // graph answer.
  void precedence(ex::runtime& rt) {
    const ex::graph& g = *rt.finished();
    sc = rt.finished_sc();
    std::vector<const rec*>& q = judged_;
    q.clear();
    for (const rec& r : live())
      if (judged(r)) q.push_back(&r);
    const std::size_t n = q.size();
    before.resize(n);  // its rows' buffers kept
    for (auto& row : before) row.assign(n, false);
    auto size = [&](int t) {
      return static_cast<std::int32_t>(g.th[static_cast<std::size_t>(t)].size());
    };
    for (std::size_t a = 0; a < n; a++)
      for (std::size_t b = 0; b < n; b++) {
        const rec& x = *q[a];
        const rec& y = *q[b];
        if (x.thread == y.thread) {
          before[a][b] = before[a][b] || a < b;  // program order (the final check's too)
        } else if (y.thread < 0) {
          before[a][b] = true;  // the final check after every thread
        } else if (x.thread >= 0) {
          std::int32_t xe = x.first < x.end ? x.end - 1 : x.end;  // x's end: an event
          std::int32_t ys = y.first < y.end ? y.first : y.first - 1;  // y's start
          ex::eid xa{static_cast<std::int16_t>(x.thread), xe};
          ex::eid yb{static_cast<std::int16_t>(y.thread), ys};
          bool p = xe < size(x.thread) && ys >= 0 &&
                   (sc ? rt.sc_step(xa) < rt.sc_step(yb) : rt.finished_hb(xa, yb));
          if (!p || broken_precedence() == 1) continue;
          if (broken_precedence() == 2) before[b][a] = true;
          else before[a][b] = true;
        }
      }
  }
  // The operations lincheck judges: the queue's (not a control), and, on a
  // graph that is not SC-consistent, not a steal that found nothing nor a
  // runqempty that said false. Neither changes the queues (in the model
  // too), Go promises neither exact (a steal may come back empty; runqempty
  // "never returns true spuriously"), and under RC11 their reads, which
  // synchronise with nothing, may see the victim in a state no one order
  // puts with their threads' other operations: Go's relaxed read of
  // runnext newer than the next steal's acquire read of the tail (a steal
  // of nothing after a steal of runnext found it taken), or store buffering
  // (a thief publishes its ring, then sees the owner's ring not empty,
  // while the owner, having taken its last G, steals from the thief's ring
  // as it was before). exec.hpp judges them still (the steal size from the
  // victim's counters; runqempty's true).
  bool judged(const rec& r) const {
    model::op_kind k = model::recorded_as(r.o.kind);
    if (k == model::op_kind::wait_done) return false;
    if (sc) return true;
    bool steal = k == model::op_kind::steal || k == model::op_kind::steal_next;
    return !(steal && r.gs.empty()) && !(k == model::op_kind::empty && !r.empty);
  }
  // The history's text and its precedence: the memo's key (valid until the
  // next call).
  const std::string& key() {
    std::string& k = key_;
    k.clear();
    for (const rec& r : live())
      if (judged(r)) append(k, r);
    for (const auto& row : before)
      for (bool b : row) k += b ? '1' : '0';
    return k;
  }
  // The operations and their results as text, thread by thread in program
  // order (no precedence, not the order they ran): what the retry
  // reduction's check compares (retry_check()).
  std::string results() const {
    std::vector<const rec*> by;
    for (const rec& r : live()) by.push_back(&r);
    std::stable_sort(by.begin(), by.end(),
                     [](const rec* a, const rec* b) { return a->thread < b->thread; });
    std::string k;
    for (const rec* r : by) append(k, *r);
    return k;
  }
  // r as text: its thread, the operation, its flags and the Gs it gave.
  static void append(std::string& k, const rec& r) {
    k += std::to_string(r.thread);
    k += model::op_text(r.o);
    if (r.inherit) k += 'i';
    if (r.empty) k += 'e';
    for (std::uint64_t g : r.gs) k += ',', k += std::to_string(g);
    k += ';';
  }
  // "" if linearizable w.r.t. the reference model from sc's start, under
  // the precedence.
  std::string judge(const model::scenario& sc) const {
    runqcheck::ref::queues q(sc.cap, sc.nprocs);
    for (std::size_t i = 0; i < sc.initial.size(); i++) {
      for (int g : sc.initial[i].ring) q.runqput(static_cast<int>(i), g, false);
      if (sc.initial[i].runnext >= 0) q.runqput(static_cast<int>(i), sc.initial[i].runnext, true);
    }
    for (int g : sc.global) q.globrunqput(g);
    lin::history h{std::move(q), {}};
    for (const rec& r : live()) {
      if (!judged(r)) continue;  // a control: no queue operation
      lin::operation x;
      x.thread = r.thread < 0 ? static_cast<int>(sc.threads.size()) : r.thread;
      x.kind = model::recorded_as(r.o.kind);
      x.p = r.o.p;
      x.victim = r.o.victim;
      x.g = r.o.g;
      x.n = r.o.n;
      if (r.o.kind == model::op_kind::drain || r.o.kind == model::op_kind::put_batch) {
        for (std::uint64_t g : r.gs) x.list.push_back(static_cast<runqcheck::ref::gid>(g));
      } else {
        x.res = r.gs.empty() ? runqcheck::ref::nil : static_cast<runqcheck::ref::gid>(r.gs[0]);
      }
      x.inheritTime = r.inherit;
      x.flag = r.empty;
      x.ret = 0;  // complete (the precedence orders, not the timestamps)
      h.ops.push_back(std::move(x));
    }
    lin::result res = lin::check(h, before);
    return res.linearizable ? std::string() : res.report;
  }
};

// One program under one model: the engine's stats, and the linearizability
// counts. A non-linearizable history fails the execution (through the
// backend's fatal, so it has a replay path like any failure).
struct explored {
  ex::stats s;
  std::uint64_t judged = 0;    // executions whose history lincheck judged
  std::uint64_t distinct = 0;  // of them, those the memo did not know (lincheck ran)
  std::string report;          // lincheck's, of the failing history (if that failed)
};

// What a program's executions reached, for the retry reduction's check
// (retry_check()): each complete execution's operations and results, a
// failure's kind, and the line of every access made.
struct coverage {
  std::set<std::string> outcomes;
  std::map<std::uintptr_t, std::string> sites;  // the engine's site: FILE:LINE
  void access(const ex::request& q) {
    if (sites.find(q.site) != sites.end()) return;
    std::string f = q.where.file_name();
    sites.emplace(q.site, f.substr(f.find_last_of('/') + 1) + ":" + std::to_string(q.where.line()));
  }
};

struct lincheck_state {
  history h;
  coverage* cov = nullptr;  // retry_check()'s record, or none
  std::unordered_set<std::string> own;
  std::unordered_set<std::string>* ok = &own;  // histories judged linearizable (this program)
  std::uint64_t judged = 0, distinct = 0;
  std::string report;  // the last non-linearizable history's report
};

// Await in-place revisits on (the engine's default) unless RUNQCHECK_NO_IPR.
bool use_ipr() {
  static const bool on = std::getenv("RUNQCHECK_NO_IPR") == nullptr;
  return on;
}

// The lincheck of every complete execution, as steps around each.
runqcheck::explore::scenario_run::extras lincheck_steps(lincheck_state& L,
                                                         const model::scenario& sc) {
  runqcheck::explore::scenario_run::extras x;
  x.ipr = use_ipr();  // as explore_one
  x.setup = [&L] { L.h.reset(); };
  x.access = [&L](int t, const ex::event&) { L.h.access(t); };
  x.finish = [&L, &sc] {
    if (ex::current == nullptr || ex::current->finished() == nullptr)
      return;  // not the engine's finish (cannot happen)
    if (L.cov != nullptr) L.cov->outcomes.insert(L.h.results());
    L.h.precedence(*ex::current);
    L.judged++;
    const std::string& k = L.h.key();
    if (L.ok->count(k) != 0) return;
    L.distinct++;
    std::string e = L.h.judge(sc);
    if (e.empty()) {
      L.ok->insert(k);
      return;
    }
    L.report = e + (L.h.sc ? "  (the precedence: one interleaving of the SC-consistent graph)"
                           : "  (the precedence: hb; the graph is not SC-consistent)");
    runqcheck::fatal_info f;
    f.msg = "history not linearizable w.r.t. the reference model (its report below)";
    B::fatal(f);
  };
  return x;
}

template <std::uint32_t Cap>
explored explore_at(const model::scenario& sc, ex::options o, bool lincheck, coverage* cov) {
  // Histories judged linearizable, kept across the models (and runs) of one
  // program: the verdict depends on the program only.
  static std::string memo_of;
  static std::unordered_set<std::string> memo;
  if (std::string t = model::spec_text(sc); t != memo_of) memo_of = std::move(t), memo.clear();
  lincheck_state L;
  L.ok = &memo;
  L.cov = cov;
  auto x = lincheck_steps(L, sc);
  prog<Cap> p(sc);
  if (lincheck || cov != nullptr) {
    obs.history = &L.h;
    p.ext = &x;
    o.on_access = [&x, cov](int t, const ex::event& e, const ex::request& q) {
      x.access(t, e);
      if (cov != nullptr) cov->access(q);
    };
  }
  explored r{ex::explore(p, o), L.judged, L.distinct, L.report};
  obs.history = nullptr;
  return r;
}

template <std::uint32_t... Caps>
explored explore_caps(const model::scenario& sc, const ex::options& o, bool lincheck,
                      coverage* cov = nullptr) {
  return model::with_cap<Caps...>(sc.cap, [&](auto c) {
    return explore_at<decltype(c)::value>(sc, o, lincheck, cov);
  });
}

// How explore_one searches, beyond the model: a replay's path, SC counted
// in the RC11 tree, the retry reduction, a coverage record.
struct how {
  bool also_sc = false;
  bool reduced = false;  // options::retry_assume (SC and RC11 only)
  coverage* cov = nullptr;
  std::string replay{};
};

explored explore_one(const model::scenario& sc, ex::model m, std::uint64_t budget,
                     const how& w = {}) {
  ex::options o;
  o.m = m;
  o.budget = w.replay.empty() ? budget : 0;
  o.replay = w.replay;
  o.ipr = use_ipr();
  o.also_sc = w.also_sc;
  o.retry_assume = w.reduced && (m == ex::model::sc || m == ex::model::rc11);
  static const bool lincheck = std::getenv("RUNQCHECK_NO_LINCHECK") == nullptr;
  return explore_caps<RQ_GEN_CAPS>(sc, o, lincheck, w.cov);
}

// SC's part of a run with options::also_sc, as SC's own search reports it.
explored sc_part(const explored& both) {
  explored r;
  r.s.complete = both.s.sc_complete;
  r.s.blocked = both.s.sc_blocked;
  r.s.cut = both.s.sc_cut;
  r.s.exhausted = both.s.exhausted;
  r.s.failed = both.s.failed;
  r.s.duplicates = both.s.duplicates;
  r.s.hashes = both.s.sc_hashes;
  return r;
}

// Each model of models in turn, up to the first that fails. SC and RC11
// (`both`) are one RC11 tree whose SC-consistent executions are SC's
// (options::also_sc) unless RUNQCHECK_SEPARATE_MODELS=1; a program that
// tree fails or does not exhaust is explored again model by model, so its
// verdict, failure and replay: are the separate searches'. reduced: with
// the retry reduction (options::retry_assume); a failure is the full
// search's (the program explored again without it), so the failure, the
// shrunk program and replay: are too. *refuted: the reduction failed the
// program and the full search did not (a loop that does not restart from
// scratch; retry_check()).
std::vector<std::pair<ex::model, explored>> explore_models(const model::scenario& sc,
                                                           const std::vector<ex::model>& models,
                                                           std::uint64_t budget,
                                                           bool reduced = false,
                                                           bool* refuted = nullptr) {
  static const bool one_tree = std::getenv("RUNQCHECK_SEPARATE_MODELS") == nullptr;
  std::vector<std::pair<ex::model, explored>> out;
  bool failed = false;  // the reduced search failed the program
  if (one_tree && models == std::vector<ex::model>{ex::model::sc, ex::model::rc11}) {
    explored r = explore_one(sc, ex::model::rc11, budget, {.also_sc = true, .reduced = reduced});
    if (!r.s.failed && r.s.exhausted) {
      out.emplace_back(ex::model::sc, sc_part(r));
      out.emplace_back(ex::model::rc11, std::move(r));
      return out;
    }
    failed = reduced && r.s.failed;
  }
  for (ex::model m : models) {
    const bool red = reduced && !failed;  // after its failure, the full search's alone
    explored r = explore_one(sc, m, budget, {.reduced = red});
    if (red && r.s.failed) failed = true, r = explore_one(sc, m, budget);
    out.emplace_back(m, std::move(r));
    if (out.back().second.s.failed) break;
  }
  if (refuted != nullptr) *refuted = failed && !out.back().second.s.failed;
  return out;
}

// A failure's kind: its text up to the first digit (values vary, the broken
// rule does not). Shrinking keeps a smaller program only if it fails so.
std::string kind_of(const std::string& failure) {
  std::size_t d = failure.find_first_of("0123456789");
  return failure.substr(0, d == std::string::npos ? failure.size() : d);
}

bool valid_cap(std::uint32_t c) { return c == 4 || c == 8 || (kCap2 && c == 2); }

// The program as Go calls, one line a thread, for the reader.
void describe(const model::scenario& sc) {
  for (std::size_t i = 0; i < sc.initial.size(); i++) {
    const auto& ip = sc.initial[i];
    if (ip.ring.empty() && ip.runnext < 0) continue;
    std::printf("    P%zu starts with ring [", i);
    for (std::size_t k = 0; k < ip.ring.size(); k++) std::printf("%sG%d", k ? " " : "", ip.ring[k]);
    std::printf("]");
    if (ip.runnext >= 0) std::printf(", runnext G%d", ip.runnext);
    std::printf("\n");
  }
  if (!sc.global.empty()) {
    std::printf("    the global queue starts with [");
    for (std::size_t k = 0; k < sc.global.size(); k++)
      std::printf("%sG%d", k ? " " : "", sc.global[k]);
    std::printf("]\n");
  }
  char b[160];
  for (std::size_t t = 0; t < sc.threads.size(); t++) {
    std::printf("    T%zu:", t);
    for (const model::op& o : sc.threads[t]) {
      model::describe_op(o, b, sizeof b);
      std::printf("  %s;", b);
    }
    std::printf("\n");
  }
}

// Shrinks a failing scenario: the first smaller one (generate::smaller)
// that fails the same way under m replaces it, until none does.
model::scenario shrink(model::scenario sc, ex::model m, const std::string& kind,
                       std::uint64_t budget, explored& last, int& steps, std::uint64_t& tried) {
  std::uint32_t min_cap = sc.cap < 4 ? sc.cap : 4;  // never below the program's own floor
  for (bool smaller_found = true; smaller_found;) {
    smaller_found = false;
    for (model::scenario& c : runqcheck::generate::smaller(sc, min_cap)) {
      c.name = sc.name;
      tried++;
      explored r = explore_one(c, m, budget);
      if (r.s.failed && kind_of(r.s.failure) == kind) {
        sc = std::move(c);
        last = r;
        steps++;
        smaller_found = true;
        break;
      }
    }
  }
  return sc;
}

// The picture of sc's execution at path (replayed under m) and the failure's
// cause in the port's terms, with its accesses' FILE:LINE (`at:` lines): for
// a failure the search found, and for a replay, which prints the same.
void print_picture(const char* argv0, const model::scenario& sc, ex::model m,
                   const std::string& path, const std::string& line) {
  std::string perr;
  lincheck_state L;
  auto x = lincheck_steps(L, sc);
  obs.history = &L.h;
  std::string cause;  // a data race in the port's terms, its accesses' FILE:LINE (at)
  std::vector<std::string> at;
  std::string html = runqcheck::explore::scenario_run::take_picture_at<RQ_GEN_CAPS>(
      "generated", sc, m, path, cli::absolute(line, argv0), perr, &x, &cause, &at);
  obs.history = nullptr;
  cli::print_picture(html, perr);
  cli::print_cause(cause, at);
  std::fflush(stdout);
}

// Reports a failing program: shrinks it, prints it, saves it as a file the
// catalog runners take (explore_scenarios --scenario FILE), and prints the
// replay: and picture: lines of its failing execution.
void report_failure(const char* argv0, model::scenario sc, ex::model m, const explored& first,
                    std::uint64_t budget, const std::string& where = "") {
  const char* mn = ex::model_name(m);
  std::printf("generated %s: FAILED under %s: %s%s\n", subject_name, mn, first.s.failure.c_str(),
              where.c_str());
  std::printf("  the program (as generated):\n");
  describe(sc);
  auto t0 = std::chrono::steady_clock::now();
  explored last = first;
  int steps = 0;
  std::uint64_t tried = 0;
  sc = shrink(sc, m, kind_of(first.s.failure), budget, last, steps, tried);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::string spec = model::spec_text(sc);
  std::printf("  shrunk in %d steps (%s smaller programs tried, %.2f s) to:\n", steps,
              fmt(tried).c_str(), secs);
  describe(sc);
  if (std::uint32_t v = sc.start_counter; v != 0) {  // as written; the port's width differs
    bool wrap = v >= 0x80000000u;  // counters.hpp's start_at_width
    std::uint32_t k = wrap ? 0u - v : 0x80000000u - v;
    std::printf("  counter=%u: the ring counters start at %s - %u, W the port's counter width "
                "(for 64-bit counters %s - %u)\n",
                v, wrap ? "2^W" : "2^(W-1)", k, wrap ? "2^64" : "2^63", k);
  }
  std::printf("  program: %s\n", spec.c_str());
  std::printf("  fails under %s: %s\n", mn, last.s.failure.c_str());
  if (!last.report.empty()) std::printf("%s\n", last.report.c_str());
  // A history not linearizable: only this runner judges it (the catalog's checks invariants).
  // The runners by their names in the build's bin/: this one, generated__X, and the
  // catalog's, explore__X.
  std::string self = argv0, cat;
  self = self.substr(self.find_last_of('/') + 1);
  cat = self.rfind("generated", 0) == 0 ? "explore" + self.substr(9) : "explore";
  const std::string run_it =
      last.report.empty()
          ? "\n# run it: " + cat + " --scenario FILE, or " + self + " run FILE (bin/ of the build)"
          : "\n# run it: " + self + " run FILE (the catalog's runner does not judge"
                                    " linearizability)";
  cli::save_program("generated__" + std::string(subject_name) + "__" + std::string(sc.name) +
                        "__" + cli::arg_of(m) + cli::mutant_suffix() + ".scn",
                    "# a program the generated column found failing (" +
                        std::string(subject_name) + ", " + mn + "): " + last.s.failure + run_it,
                    spec);
  std::string line = cli::replay_line(argv0, "'" + spec + "'", m, last.s.path);
  std::printf("replay: %s\n", line.c_str());
  std::fflush(stdout);
  print_picture(argv0, sc, m, last.s.path, line);
}


int usage(const char* argv0) {
  std::fprintf(
      stderr,
      "usage: %s [sc|rc11|both] [--ops K] [--threads 2|3] [--total T] [--caps C,...] [--budget N]"
      " [--seconds S] [--jobs J] [--keep-going] [--count] [--wrap|--sign]\n"
      "       %s run 'SPEC'|FILE [sc|rc11|both] [--budget N]\n"
      "       %s replay 'SPEC'|FILE sc|rc11 PATH\n",
      argv0, argv0, argv0);
  return 2;
}

// SPEC or FILE (a file holding a SPEC line) into sc; false with err set.
bool load_spec(const std::string& arg, model::scenario& sc, std::string& err) {
  std::string line;
  if (!model::spec_or_file(arg, line, err)) return false;
  if (!model::parse_spec(line, sc, err, model::kMaxP, model::kMaxThreads, model::kMaxG))
    return false;
  if (!valid_cap(sc.cap)) {
    err = "cap " + std::to_string(sc.cap) + ": this runner builds " +
          (kCap2 ? "2, 4 and 8" : "4 and 8 (2: build with RUNQCHECK_GENERATED_CAP2)");
    return false;
  }
  return true;
}

int parse(int argc, char** argv, settings& st) {
  int i = 1;
  if (int rc = cli::parse_program_mode(argc, argv, st.spec, st.run, st.replay, st.models, i, usage);
      rc >= 0 || !st.replay.empty())
    return rc;
  for (; i < argc; i++) {
    bool more = i + 1 < argc;
    std::uint64_t v = 0;
    if (cli::parse_model(argv[i], st.models)) continue;
    if (std::strcmp(argv[i], "--keep-going") == 0 && !st.run) {
      st.keep_going = true;
    } else if ((std::strcmp(argv[i], "--wrap") == 0 || std::strcmp(argv[i], "--sign") == 0) &&
               !st.run) {
      bool sign = argv[i][2] == 's';
      wrap_start = sign ? 0x7FFFFFFEu : 0xFFFFFFFEu;
      if (std::string why = runqcheck::explore::scenario_run::counters_unfound(); !why.empty()) {
        model::not_applied(sign ? "--sign (every program across 2^(W-1), the sign boundary)"
                                : "--wrap (every program across the wrap)",
                           ("needs S::set_runq_counters or counters found by behaviour, not "
                            "found: " + why).c_str(), subject_name);
        return 0;
      }
    } else if (std::strcmp(argv[i], "--count") == 0 && !st.run) {
      st.count = true;
    } else if (std::strcmp(argv[i], "--check-pruning") == 0 && !st.run) {
      st.check_pruning = true;
    } else if (std::strcmp(argv[i], "--crosscheck-ipr") == 0 && !st.run) {
      st.crosscheck_ipr = true;
    } else if (std::strcmp(argv[i], "--crosscheck-models") == 0 && !st.run) {
      st.crosscheck_models = true;
    } else if (std::strcmp(argv[i], "--crosscheck-deferred") == 0 && !st.run) {
      st.crosscheck_deferred = true;
    } else if (std::strcmp(argv[i], "--crosscheck-retry") == 0 && !st.run) {
      st.crosscheck_retry = true;
    } else if (std::strcmp(argv[i], "--ops") == 0 && more && !st.run) {
      if (!cli::parse_u64(argv[++i], v, 1, 4)) {
        std::fprintf(stderr, "%s: --ops: '%s' is not 1..4\n", argv[0], argv[i]);
        return 2;
      }
      st.b.ops = static_cast<int>(v);
    } else if (std::strcmp(argv[i], "--jobs") == 0 && more && !st.run) {
      if (!cli::parse_u64(argv[++i], v, 1, kMaxJobs)) {
        std::fprintf(stderr, "%s: --jobs: '%s' is not 1..%u\n", argv[0], argv[i], kMaxJobs);
        return 2;
      }
      st.jobs = static_cast<unsigned>(v);
    } else if (std::strcmp(argv[i], "--total") == 0 && more && !st.run) {
      if (!cli::parse_u64(argv[++i], v, 1, 12)) {
        std::fprintf(stderr, "%s: --total: '%s' is not 1..12\n", argv[0], argv[i]);
        return 2;
      }
      st.b.total = static_cast<int>(v);
    } else if (std::strcmp(argv[i], "--threads") == 0 && more && !st.run) {
      if (!cli::parse_u64(argv[++i], v, 2, 3)) {
        std::fprintf(stderr, "%s: --threads: '%s' is not 2 or 3\n", argv[0], argv[i]);
        return 2;
      }
      st.b.threads = static_cast<int>(v);
    } else if (std::strcmp(argv[i], "--caps") == 0 && more && !st.run) {
      st.b.caps.clear();
      std::stringstream ss(argv[++i]);
      for (std::string c; std::getline(ss, c, ',');) {
        if (!cli::parse_u64(c.c_str(), v, 2, 8) || !valid_cap(static_cast<std::uint32_t>(v))) {
          std::fprintf(stderr, "%s: --caps: '%s' is not a list of %s\n", argv[0], argv[i],
                       kCap2 ? "2, 4, 8" : "4, 8 (2: build with RUNQCHECK_GENERATED_CAP2)");
          return 2;
        }
        st.b.caps.push_back(static_cast<std::uint32_t>(v));
      }
    } else if (std::strcmp(argv[i], "--budget") == 0 && more) {
      if (!cli::parse_u64(argv[++i], st.budget, 1, ~0ull)) {
        std::fprintf(stderr, "%s: --budget: '%s' is not a positive number\n", argv[0], argv[i]);
        return 2;
      }
    } else if (std::strcmp(argv[i], "--seconds") == 0 && more && !st.run) {
      char* end = nullptr;
      st.seconds = std::strtod(argv[++i], &end);
      if (*end != '\0' || !(st.seconds > 0)) {
        std::fprintf(stderr, "%s: --seconds: '%s' is not a positive number\n", argv[0], argv[i]);
        return 2;
      }
    } else {
      return usage(argv[0]);
    }
  }
  if (std::getenv("RUNQCHECK_STOP_ON_FAIL") != nullptr) st.keep_going = false;
  return -1;
}

// run / replay: one program given as text.
int run_spec(const char* argv0, const settings& st) {
  model::scenario sc;
  std::string err;
  if (!load_spec(st.spec, sc, err)) {
    std::fprintf(stderr, "%s: %s\n", argv0, err.c_str());
    return 2;
  }
  sc.name = "program";
  bool ok = true;
  for (ex::model m : st.models) {
    explored r = explore_one(sc, m, st.budget, {.replay = st.replay});
    const char* mn = ex::model_name(m);
    if (!st.replay.empty()) {
      std::printf("generated %s replay %s: %s%s\n", subject_name, mn,
                  r.s.failed ? "FAILED: " : "passed", r.s.failure.c_str());
      // The failure line promises lincheck's report "below": print it.
      if (r.s.failed && !r.report.empty()) std::printf("%s\n", r.report.c_str());
      // As the search's report: the picture, the cause in the port's terms, its lines.
      if (r.s.failed)
        print_picture(argv0, sc, m, st.replay,
                      cli::replay_line(argv0, "'" + model::spec_text(sc) + "'", m, st.replay));
      ok &= !r.s.failed;
      continue;
    }
    std::printf("generated %s program %s: %s complete, %s blocked, %s judged linearizable, %s\n",
                subject_name, mn, fmt(r.s.complete).c_str(), fmt(r.s.blocked).c_str(),
                fmt(r.judged).c_str(),
                r.s.failed ? "FAILED" : r.s.exhausted ? "exhausted" : "NOT exhausted (budget)");
    if (r.s.failed) {
      report_failure(argv0, sc, m, r, st.budget);
      ok = false;
    }
    ok &= r.s.exhausted || r.s.failed;
  }
  return ok ? 0 : 1;
}

// --check-pruning: every program the unpruned enumeration makes is kept or
// covered by a kept one (generate::uncovered), and, the check's own teeth,
// the same check finds a hole when one kept program is left out.
int check_pruning(const gen::bounds& b) {
  std::unordered_set<std::string> kept;
  std::string victim;
  std::uint64_t n = gen::enumerate(b, [&](const gen::program& p) {
    std::string t = model::spec_text(gen::to_scenario(p));
    if (victim.empty() && p.threads.size() == 3) victim = t;  // the teeth's hole
    kept.insert(t);
  });
  gen::bounds all = b;
  all.prune = false;
  std::uint64_t total = gen::enumerate(all);
  gen::program bad;
  auto in = [&](const gen::program& p) {
    return kept.count(model::spec_text(gen::to_scenario(p))) > 0;
  };
  const char* why = gen::uncovered(b, in, bad);
  std::printf("generated: pruning: %s of %s programs kept; %s\n", fmt(n).c_str(),
              fmt(total).c_str(), why == nullptr ? "every other one covered" : why);
  if (why != nullptr) {
    std::printf("  uncovered: %s\n", model::spec_text(gen::to_scenario(bad)).c_str());
    return 1;
  }
  kept.erase(victim);
  why = gen::uncovered(b, in, bad);
  std::printf("generated: pruning's teeth: without '%s' %s\n", victim.c_str(),
              why != nullptr ? "a hole is found" : "NO hole is found");
  return why != nullptr ? 0 : 1;
}

// A crosscheck over every program within the bounds (lincheck off): per
// program and model, run(sc, m, side) for side 0 (the oracle) and 1 (the
// reduction) must give the same complete graphs (stats::hashes), none met
// twice, no failure (a correct port fails no program). name: the flag's.
int crosscheck(const gen::bounds& b, const std::vector<ex::model>& models, const char* name,
               const std::function<explored(const model::scenario&, ex::model, int)>& run) {
  std::uint64_t n = 0, bad = 0, graphs = 0, in_place = 0;
  std::uint64_t blocked[2] = {0, 0};
  gen::enumerate(b, [&](const gen::program& p) {
    model::scenario sc = gen::to_scenario(p);
    n++;
    for (ex::model m : models) {
      std::vector<std::uint64_t> h[2];
      std::uint64_t twice = 0;
      for (int side = 0; side < 2; side++) {
        explored r = run(sc, m, side);
        h[side] = std::move(r.s.hashes);
        std::sort(h[side].begin(), h[side].end());
        twice += r.s.duplicates + (r.s.failed ? 1 : 0);
        in_place += r.s.in_place;
        blocked[side] += r.s.blocked;
      }
      graphs += h[0].size();
      if (h[0] == h[1] && twice == 0) continue;
      if (bad++ < 5)
        std::printf("generated: %s %s %s: %zu complete graphs, %zu in the oracle's run, %llu met "
                    "twice or failed\n",
                    name, model::spec_text(sc).c_str(), ex::model_name(m), h[1].size(),
                    h[0].size(), static_cast<unsigned long long>(twice));
    }
  });
  std::printf("generated %s: %s: %s programs, %s complete graphs, %s children revisited in "
              "place, %s blocked executions (%s in the oracle's run); %s differ\n",
              subject_name, name, fmt(n).c_str(), fmt(graphs).c_str(), fmt(in_place).c_str(),
              fmt(blocked[1]).c_str(), fmt(blocked[0]).c_str(), fmt(bad).c_str());
  return bad == 0 ? 0 : 1;
}

// One program under m, its complete graphs hashed, lincheck off.
explored hashed(const model::scenario& sc, ex::model m, bool ipr, bool also_sc = false) {
  ex::options o;
  o.m = m;
  o.ipr = ipr;
  o.also_sc = also_sc;
  o.hash_graphs = true;
  return explore_caps<RQ_GEN_CAPS>(sc, o, false);
}

// --crosscheck-ipr: each model explored with await in-place revisits and
// without (plain TruSt, the oracle): the same complete graphs, none met
// twice (docs/explore.md).
int crosscheck_ipr(const gen::bounds& b, const std::vector<ex::model>& models) {
  return crosscheck(b, models, "crosscheck-ipr", [](const model::scenario& sc, ex::model m,
                                                    int side) { return hashed(sc, m, side == 1); });
}

// --crosscheck-models: SC's executions as SC's own search finds them (the
// oracle) and as the RC11 tree's SC-consistent ones (options::also_sc,
// what `both` runs): the same complete graphs, none met twice.
int crosscheck_models(const gen::bounds& b) {
  return crosscheck(b, {ex::model::sc}, "crosscheck-models",
                    [](const model::scenario& sc, ex::model, int side) {
                      return side == 0 ? hashed(sc, ex::model::sc, use_ipr())
                                       : sc_part(hashed(sc, ex::model::rc11, use_ipr(), true));
                    });
}

// A complete graph less the events at `skip`, as text: each thread's other
// events in po (kind, its order, location numbered by first use, value read,
// value written, the write read from as renumbered), then each location's
// co. Equal for the same execution with and without the deferred loads
// made as events.
std::string projected(const ex::graph& g, const std::set<std::pair<int, int>>& skip) {
  std::map<std::pair<int, int>, int> idx;  // (thread, po index) -> index less skipped
  std::map<std::uint32_t, int> locs;       // graph location -> first-use number
  for (std::size_t t = 0; t < g.th.size(); t++)
    for (std::size_t i = 0, k = 0; i < g.th[t].size(); i++)
      if (skip.count({static_cast<int>(t), static_cast<int>(i)}) == 0) {
        idx[{static_cast<int>(t), static_cast<int>(i)}] = static_cast<int>(k++);
        const ex::event& e = g.th[t][i];
        if (e.kind != ex::ek::fence) locs.emplace(e.loc, static_cast<int>(locs.size()));
      }
  auto name = [&](ex::eid w) {
    return w.init() ? std::string("init")
                    : std::to_string(w.t) + "." + std::to_string(idx.at({w.t, w.i}));
  };
  std::string out;
  for (std::size_t t = 0; t < g.th.size(); t++) {
    out += "T" + std::to_string(t) + ":";
    for (std::size_t i = 0; i < g.th[t].size(); i++) {
      if (skip.count({static_cast<int>(t), static_cast<int>(i)}) != 0) continue;
      const ex::event& e = g.th[t][i];
      out += " " + std::to_string(int(e.kind)) + "/" + std::to_string(int(e.what)) + "/" +
             std::to_string(int(e.mo)) + "@" +
             (e.kind == ex::ek::fence ? std::string("-") : std::to_string(locs.at(e.loc)));
      if (e.reads()) out += " r" + std::to_string(e.rval) + "<" + name(e.rf);
      if (e.writes()) out += " w" + std::to_string(e.wval);
    }
    out += "\n";
  }
  std::vector<std::uint32_t> by_use(locs.size());
  for (auto [loc, n] : locs) by_use[static_cast<std::size_t>(n)] = loc;
  for (std::size_t n = 0; n < by_use.size(); n++) {
    out += "co" + std::to_string(n) + ":";
    for (ex::eid w : g.writes(by_use[n])) out += " " + name(w);
    out += "\n";
  }
  return out;
}

// One program under m, lincheck off: for each complete execution (its graph
// less the deferred loads' events, `projected`) and each steal judged at
// the end, every reading exec.hpp's steal-size rule is judged over
// (world::each_reading), as text; `events`: the loads made as events
// (B::loads_as_events), each execution then one reading a steal.
template <std::uint32_t Cap>
std::set<std::string> steal_readings(prog<Cap>& p, ex::model m, bool events, ex::stats& st) {
  using W = typename prog<Cap>::W;
  std::set<std::string> out;
  runqcheck::explore::scenario_run::extras x;
  x.ipr = use_ipr();
  x.finish = [&] {
    const ex::graph* g = ex::current->finished();
    const auto& steals = p.w->deferred_steals();
    std::set<std::pair<int, int>> skip;
    if (events)
      for (const auto& d : steals)
        for (const auto& part : d.loads)
          for (const auto& l : part) skip.insert({l.at.t, l.at.i});
    std::string key = projected(*g, skip);
    std::map<int, int> nth;  // a steal named by its thread and its rank there (po)
    for (std::size_t i = 0; i < steals.size(); i++) {
      int t = steals[i].loads[0].empty() ? -1 : steals[i].loads[0].front().at.t;
      std::string name = std::to_string(t) + "." + std::to_string(nth[t]++);
      W::each_reading(steals[i], [&](const std::vector<std::uint64_t>* vals) {
        std::string r = key + "steal " + name + ":";
        for (int part = 0; part < 4; part++)
          for (std::uint64_t v : vals[part]) r += " " + std::to_string(v);
        out.insert(std::move(r));
      });
    }
  };
  ex::options o;
  o.m = m;
  o.ipr = x.ipr;
  p.ext = &x;
  B::loads_as_events = events;
  st = ex::explore(p, o);
  B::loads_as_events = false;
  p.ext = nullptr;
  return out;
}

// --crosscheck-deferred: exec.hpp's steal-size loads kept as places and
// judged at each execution's end over their co-intervals (explore/
// observe.hpp), against the same loads made as events (the oracle): per
// execution of the port, the same readings of each steal under RC11; none
// lost under SC, LB and C11 (the deferred ones are RC11's coherence there,
// a superset: a rule that needs coherence only stays sound). The port
// needs S::runq_counters.
int crosscheck_deferred(const gen::bounds& b, const std::vector<ex::model>& models) {
  if constexpr (!runqcheck::has_runq_counters<subject_under_test<B, 4>>) {
    model::not_applied("--crosscheck-deferred", "needs S::runq_counters", subject_name);
    return 2;
  } else {
    std::uint64_t n = 0, bad = 0, readings = 0, wider = 0, execs[2] = {0, 0};
    gen::enumerate(b, [&](const gen::program& gp) {
      model::scenario sc = gen::to_scenario(gp);
      n++;
      for (ex::model m : models) {
        model::with_cap<RQ_GEN_CAPS>(sc.cap, [&](auto c) {
          prog<decltype(c)::value> p(sc);  // one world's storage: the Gs' addresses alike
          ex::stats st[2];
          std::set<std::string> ev = steal_readings(p, m, true, st[0]);
          std::set<std::string> de = steal_readings(p, m, false, st[1]);
          execs[0] += st[0].complete, execs[1] += st[1].complete;
          readings += ev.size();
          bool sub = std::includes(de.begin(), de.end(), ev.begin(), ev.end());
          bool same = ev == de;
          if (!same && sub) wider += de.size() - ev.size();
          bool ok = !st[0].failed && !st[1].failed && (m == ex::model::rc11 ? same : sub);
          if (ok) return 0;
          if (bad++ < 5)
            std::printf("generated: crosscheck-deferred %s %s: %zu readings deferred, %zu as "
                        "events%s%s\n",
                        model::spec_text(sc).c_str(), ex::model_name(m), de.size(), ev.size(),
                        sub ? "" : " (some events' readings not among the deferred)",
                        st[0].failed || st[1].failed ? " (failed)" : "");
          return 0;
        });
      }
    });
    std::printf("generated %s: crosscheck-deferred: %s programs, %s complete executions with "
                "the loads as events, %s deferred, %s readings of steals; %s more deferred "
                "than as events; %s differ\n",
                subject_name, fmt(n).c_str(), fmt(execs[0]).c_str(), fmt(execs[1]).c_str(),
                fmt(readings).c_str(), fmt(wider).c_str(), fmt(bad).c_str());
    return bad == 0 ? 0 : 1;
  }
}

// What the workers share (anonymous shared memory, so that forked workers
// write it): the least failing program's index, each worker's counts.
// The retry reduction (options::retry_assume) assumes a retry loop restarts
// from scratch: a try that failed without a write leaves nothing behind.
// Checked on the port under test: each program within b explored with the
// reduction and without (the oracle), under the weakest of models' SC and
// RC11, must reach the same outcomes (each complete execution's operations
// and results) and make accesses at the same lines (a path taken only after
// failed tries, say a fallback after N of them, is one the reduction never
// takes); where the oracle fails a program, the reduction must fail it too.
// Returns what differed on the first program that differs ("" if none);
// `shown` of them are printed; counts what it explored. With stop_at_fail (a
// stop-on-fail run, which ends at its first failing program), it ends at the first
// program that both searches fail (`failed_at`, its spec): the run never explores a
// program of at most 3 operations past that one with the reduction.
struct retry_counts {
  std::uint64_t programs = 0, differ = 0, full = 0, reduced = 0;
  std::string failed_at;  // stop_at_fail: the program both searches failed
};
std::string retry_check(const gen::bounds& b, const std::vector<ex::model>& models,
                        std::uint64_t budget, int shown, retry_counts& n,
                        bool stop_at_fail = false) {
  auto has = [&](ex::model m) {
    return std::find(models.begin(), models.end(), m) != models.end();
  };
  if (!has(ex::model::sc) && !has(ex::model::rc11)) return "";  // not used (LB, C11)
  const ex::model m = has(ex::model::rc11) ? ex::model::rc11 : ex::model::sc;
  std::string first;
  gen::enumerate(b, [&](const gen::program& p) {
    if ((!first.empty() && shown <= 0) || !n.failed_at.empty()) return;
    model::scenario sc = gen::to_scenario(p);
    sc.start_counter = wrap_start;
    n.programs++;
    coverage c[2];
    explored r[2];
    for (int side = 0; side < 2; side++)
      r[side] = explore_one(sc, m, budget, {.reduced = side == 1, .cov = &c[side]});
    n.full += r[0].s.executions();
    n.reduced += r[1].s.executions();
    if (!r[0].s.exhausted && !r[0].s.failed) return;  // cut: nothing to compare
    std::string why;
    if (r[0].s.failed != r[1].s.failed) {
      why = r[0].s.failed ? "the full search fails it (" + r[0].s.failure + "), the reduction not"
                          : "the reduction fails it (" + r[1].s.failure + "), the full search not";
    } else if (!r[0].s.failed && c[0].outcomes != c[1].outcomes) {
      for (const std::string& o : c[0].outcomes)
        if (c[1].outcomes.count(o) == 0) why = "an outcome the reduction misses: " + o;
      if (why.empty()) why = "an outcome only the reduction reaches";
    } else if (!r[0].s.failed) {
      for (const auto& [k, at] : c[0].sites)
        if (c[1].sites.count(k) == 0) why = "an access at " + at + " the reduction never makes";
      for (const auto& [k, at] : c[1].sites)
        if (why.empty() && c[0].sites.count(k) == 0) why = "an access at " + at + " only it makes";
    }
    if (why.empty()) {
      if (stop_at_fail && r[0].s.failed) n.failed_at = model::spec_text(gen::to_scenario(p));
      return;
    }
    n.differ++;
    why = model::spec_text(sc) + " (" + ex::model_name(m) + "): " + why;
    if (first.empty()) first = why;
    if (shown-- > 0) std::printf("generated %s: retry check: %s\n", subject_name, why.c_str());
  });
  return first;
}

// --crosscheck-retry: retry_check() over every program within b, each
// difference shown (at most 5).
int crosscheck_retry(const gen::bounds& b, const std::vector<ex::model>& models,
                     std::uint64_t budget) {
  retry_counts n;
  retry_check(b, models, budget, 5, n);
  std::printf("generated %s: crosscheck-retry: %s programs, %s executions with the retry "
              "reduction, %s without; %s differ\n",
              subject_name, fmt(n.programs).c_str(), fmt(n.reduced).c_str(), fmt(n.full).c_str(),
              fmt(n.differ).c_str());
  return n.differ == 0 ? 0 : 1;
}

// Whether the enumeration uses the retry reduction: unless
// RUNQCHECK_NO_RETRY_ASSUME=1, if the port passes retry_check() on the
// programs of at most 3 operations within the run's bounds (said either way).
bool use_retry_reduction(settings& st) {
  if (std::getenv("RUNQCHECK_NO_RETRY_ASSUME") != nullptr) return false;
  gen::bounds b = st.b;
  b.total = b.total == 0 ? 3 : std::min(b.total, 3);
  retry_counts n;
  std::string why = retry_check(b, st.models, st.budget, 0, n, !st.keep_going);
  if (n.programs == 0) return false;
  if (!why.empty()) {
    std::printf("generated %s: the retry reduction is off (a loop that does not restart from "
                "scratch?): %s\n", subject_name, why.c_str());
    return false;
  }
  if (!n.failed_at.empty()) {
    // Its number in the run's enumeration, which holds the checked programs in the same
    // order (both sort their programs stably by the same key): the run stops there, or
    // before, and explores any later program in full.
    std::uint64_t k = 0;
    gen::enumerate(st.b, [&](const gen::program& p) {
      if (st.reduce_until != 0) return;
      k++;
      if (model::spec_text(gen::to_scenario(p)) == n.failed_at) st.reduce_until = k;
    });
    std::printf("generated %s: the retry reduction is on (checked on %s programs of at most 3 "
                "operations, up to the first that both searches fail, program %s: the same "
                "outcomes and lines as the full search; any later program in full)\n",
                subject_name, fmt(n.programs).c_str(), fmt(st.reduce_until).c_str());
    return st.reduce_until != 0;
  }
  std::printf("generated %s: the retry reduction is on (checked on %s programs of at most 3 "
              "operations: the same outcomes and lines as the full search)\n",
              subject_name, fmt(n.programs).c_str());
  return true;
}

struct tally {
  std::uint64_t done = 0, open = 0, judged = 0, distinct = 0;
  cli::model_counts execs{};
  std::uint64_t first_open = 0;  // the first program a budget cut (its index; 0: none)
  std::uint64_t refuted = 0;     // the first the retry reduction failed alone (0: none)
  bool timed_out = false;
};
struct shared_state {
  std::atomic<std::uint64_t> min_fail{~0ull};
  std::atomic<std::uint64_t> next{1};  // the least program no worker has taken
  std::uint64_t total = 0;             // the programs of the enumeration
  tally w[kMaxJobs];
};

// Seconds between worker 0's progress lines on stderr (RUNQCHECK_PROGRESS_SECONDS,
// default 60; 0: after every program): a long run says how far it is.
double progress_every() {
  static const double v = [] {
    const char* e = std::getenv("RUNQCHECK_PROGRESS_SECONDS");
    return e != nullptr && *e != '\0' ? std::strtod(e, nullptr) : 60.0;
  }();
  return v;
}

// Worker w: takes the next program no worker has taken (numbered from 1 in
// enumeration order, smallest first), explores it, and so on, until one
// fails, or, for the others, until the program taken passes the least
// failing one: every program below that one is then explored by someone
// and passed, so the failure reported is the same whatever the timing.
void work(const settings& st, unsigned w, shared_state& sh) {
  tally& t = sh.w[w];
  auto t0 = std::chrono::steady_clock::now();
  std::uint64_t n = 0, mine = sh.next.fetch_add(1);
  bool stop = false, reduce = st.reduce;
  double said = 0;  // worker 0: when it last printed its progress line
  gen::enumerate(st.b, [&](const gen::program& p) {
    if (stop || ++n != mine) return;
    if (n > sh.min_fail.load()) {
      stop = true;
      return;
    }
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (st.seconds > 0 && s >= st.seconds) {
      t.timed_out = stop = true;
      return;
    }
    if (w == 0 && s - said >= progress_every()) {
      std::fprintf(stderr, "generated %s: progress: %s of %s programs taken, %.0f s\n",
                   subject_name, fmt(std::min(sh.next.load() - 1, sh.total)).c_str(),
                   fmt(sh.total).c_str(), s);
      said = s;
    }
    mine = sh.next.fetch_add(1);  // the next one this worker takes (after n)
    model::scenario sc = gen::to_scenario(p);
    sc.start_counter = wrap_start;
    const std::string name = program_name(n);  // sc.name views it
    sc.name = name;
    t.done++;
    bool refuted = false;
    const bool red = reduce && (st.reduce_until == 0 || n <= st.reduce_until);
    for (auto& [m, r] : explore_models(sc, st.models, st.budget, red, &refuted)) {
      t.execs[static_cast<int>(m)] += r.s.executions();
      t.judged += r.judged;
      t.distinct += r.distinct;
      if (r.s.failed) {
        for (std::uint64_t v = sh.min_fail.load();
             n < v && !sh.min_fail.compare_exchange_weak(v, n);) {
        }
        stop = !st.keep_going;
        return;
      }
      if (!r.s.exhausted && t.open++ == 0) t.first_open = n;
    }
    if (refuted && t.refuted == 0) t.refuted = n;
    reduce = reduce && !refuted;  // its assumption broken: the full search from here
  });
}

// Program number n of the enumeration, as a scenario named "gen<n>" (its
// name views `name`).
model::scenario program_at(const gen::bounds& b, std::uint64_t n, std::string& name) {
  model::scenario sc;
  std::uint64_t k = 0;
  gen::enumerate(b, [&](const gen::program& p) {
    if (++k == n) sc = gen::to_scenario(p);
  });
  sc.start_counter = wrap_start;
  name = program_name(n);
  sc.name = name;
  return sc;
}

}  // namespace

int main(int argc, char** argv) {
  // Line by line: a run a timeout kills (ctest's) still shows the lines it printed.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  settings st;
  if (int rc = parse(argc, argv, st); rc >= 0) return rc;
  if (broken_precedence() < 0) {
    std::fprintf(stderr, "%s: RUNQCHECK_PRECEDENCE_BROKEN: '%s' is not drop or invert\n", argv[0],
                 std::getenv("RUNQCHECK_PRECEDENCE_BROKEN"));
    return 2;
  }
  model::observer = &obs;
  if (!st.spec.empty()) return run_spec(argv[0], st);
  if (st.check_pruning) return check_pruning(st.b);
  if (st.crosscheck_ipr) return crosscheck_ipr(st.b, st.models);
  if (st.crosscheck_models) return crosscheck_models(st.b);
  if (st.crosscheck_deferred) return crosscheck_deferred(st.b, st.models);
  if (st.crosscheck_retry) return crosscheck_retry(st.b, st.models, st.budget);
  if (st.count) {
    for (int th = 2; th <= st.b.threads; th++) {
      gen::bounds b = st.b;
      b.threads = th;
      std::uint64_t n = gen::enumerate(b);
      std::printf("generated: up to %d threads, k=%d: %s programs\n", th, b.ops, fmt(n).c_str());
    }
    return 0;
  }
  model::report_not_applied<subject_under_test<B, 4>>(subject_name, {}, true);
  auto t0 = std::chrono::steady_clock::now();
  st.reduce = use_retry_reduction(st);
  void* mem = ::mmap(nullptr, sizeof(shared_state), PROT_READ | PROT_WRITE,
                     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) {
    std::fprintf(stderr, "%s: mmap failed\n", argv[0]);
    return 2;
  }
  auto& sh = *new (mem) shared_state;
  sh.total = gen::enumerate(st.b);
  std::fflush(stdout);
  if (st.jobs == 1) {
    work(st, 0, sh);
  } else {
    std::vector<pid_t> kids;
    for (unsigned w = 0; w < st.jobs; w++) {
      pid_t pid = ::fork();
      if (pid == 0) {
        work(st, w, sh);
        std::fflush(stdout);
        ::_exit(0);
      }
      if (pid < 0) {
        std::fprintf(stderr, "%s: fork failed\n", argv[0]);
        return 2;
      }
      kids.push_back(pid);
    }
    for (pid_t k : kids) {
      int ws = 0;
      if (::waitpid(k, &ws, 0) != k || !WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
        std::fprintf(stderr, "%s: a worker died (status %d)\n", argv[0], ws);
        return 2;
      }
    }
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  tally all;
  for (unsigned w = 0; w < st.jobs; w++) {
    const tally& t = sh.w[w];
    all.done += t.done;
    all.open += t.open;
    all.judged += t.judged;
    all.distinct += t.distinct;
    for (int m = 0; m < 4; m++) all.execs[m] += t.execs[m];
    all.timed_out |= t.timed_out;
    if (t.first_open != 0 && (all.first_open == 0 || t.first_open < all.first_open))
      all.first_open = t.first_open;
  }
  const std::uint64_t n = sh.total;
  const std::uint64_t failed_at = sh.min_fail.load();
  bool ok = failed_at == ~0ull;
  std::string name;
  if (!ok) {  // the least failing program, explored again here, shrunk and shown
    model::scenario sc = program_at(st.b, failed_at, name);
    std::string where = " (program " + fmt(failed_at) + " of " + fmt(n) +
                        "; every smaller one passed)";
    for (ex::model m : st.models) {
      explored r = explore_one(sc, m, st.budget);
      if (r.s.failed) {
        report_failure(argv[0], sc, m, r, st.budget, where);
        break;
      }
    }
  }
  std::string caps;
  for (std::uint32_t c : st.b.caps) caps += (caps.empty() ? "" : ",") + std::to_string(c);
  std::printf("generated %s: %s of %s programs (owner + 1..%d others, k=%d, cap %s), "
              "%s executions, %s judged linearizable, %s distinct histories, %.1f s, "
              "%.0f programs/s, %u job%s\n",
              subject_name, fmt(all.done).c_str(), fmt(n).c_str(), st.b.threads - 1, st.b.ops,
              caps.c_str(), cli::per_model(all.execs, st.models).c_str(),
              fmt(all.judged).c_str(), fmt(all.distinct).c_str(), secs,
              secs > 0 ? static_cast<double>(all.done) / secs : 0.0, st.jobs,
              st.jobs == 1 ? "" : "s");
  if (all.timed_out && ok) {
    std::printf("generated %s: budget of %g s reached: %s of %s programs explored (the smallest "
                "first); the rest not covered\n",
                subject_name, st.seconds, fmt(all.done).c_str(), fmt(n).c_str());
  }
  if (all.open > 0) {
    std::printf("generated %s: %s program runs cut by the budget of %s executions (not "
                "exhausted), the first: %s\n",
                subject_name, fmt(all.open).c_str(), fmt(st.budget).c_str(),
                model::spec_text(program_at(st.b, all.first_open, name)).c_str());
  }
  if (ok && (all.timed_out || all.open > 0))  // the verdict's reports: what was a sample
    std::printf("runqcheck: report: generated: %s of %s programs explored, %s runs cut by the "
                "budget of %s executions: passed where explored, not exhausted\n",
                fmt(all.done).c_str(), fmt(n).c_str(), fmt(all.open).c_str(),
                fmt(st.budget).c_str());
  std::printf("%s: %s\n", argv[0],
              !ok ? "FAILED" : all.timed_out || all.open > 0 ? "passed where explored (see above)"
                                                              : "all passed");
  return ok ? 0 : 1;
}
