// tests/property/lincheck_threads.cpp — the scenario catalog
// (models/scenarios/catalog.hpp) on real threads, many times each; every
// execution's history (one global atomic clock stamps each invocation and
// response) must be linearizable w.r.t. the reference model
// (models/lincheck). After the threads join, one more thread empties every
// P and the global queue, so a lost or duplicated G shows up in the history
// too.
//
// Usage: lincheck_threads [iterations per scenario] (default 300, scaled by
// $RUNQCHECK_SCALE); RUNQCHECK_CASE=a,b picks scenarios. A scenario stops at
// its first non-linearizable history (printing its shortest failing prefix
// and a reproduce: line); every scenario runs (unless
// $RUNQCHECK_STOP_ON_FAIL), then exit 1 if any failed. A hang exits 3 with a
// state dump (models/watchdog).
// Scenarios that provoke a fatal check on purpose (expect_fatal) are skipped.
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "runqcheck_subject.hpp"
#include "../../models/watchdog/watchdog.hpp"
#include "runqcheck/check.hpp"
#include "runqcheck_lincheck/lincheck.hpp"
#include "caps.hpp"
#include "catalog.hpp"
#include "hooks.hpp"

namespace {

using B = runqcheck::native;
namespace lc = runqcheck::lincheck;
namespace sc = runqcheck::model;
using runqcheck::ref::nil;

constexpr int kMaxG = 32;
constexpr int kMaxThreads = 4;

void throwing_fatal(const runqcheck::fatal_info& f) {
  throw std::runtime_error(std::string("fatal error: ") + f.msg + " " + f.values);
}

template <std::uint32_t Cap>
struct run {
  using S = runqcheck::watched<subject_under_test<B, Cap>>;  // a hang fails with a dump
  using G = runqcheck::g<B>;

  const sc::scenario& s;
  typename S::schedt sched;
  std::vector<std::unique_ptr<typename S::p>> ps;
  G gs[kMaxG];
  std::atomic<int> done[kMaxThreads] = {};
  std::atomic<int> arrived{0};
  std::string error;
  std::atomic<bool> failed{false};
  bool overlapped = false;  // did two threads' operations overlap in time?

  explicit run(const sc::scenario& x) : s(x), sched(x.nprocs) {
    for (int i = 0; i < s.nprocs; i++) ps.push_back(std::make_unique<typename S::p>(sched, i));
    for (int i = 0; i < kMaxG; i++) gs[i].goid = static_cast<std::uint64_t>(i);
  }

  static int id(const G* gp) { return gp == nullptr ? nil : static_cast<int>(gp->goid); }

  runqcheck::ref::queues init() {
    runqcheck::ref::queues q(Cap, s.nprocs);
    if (s.start_counter != 0) {
      if constexpr (runqcheck::has_set_runq_counters<S>) {
        for (auto& pp : ps) S::set_runq_counters(*pp, sc::start_counter<S>(s));
      }
    }
    for (std::size_t i = 0; i < s.initial.size(); i++) {
      for (int g : s.initial[i].ring) {
        S::runqput(*ps[i], &gs[g], false);
        q.runqput(static_cast<int>(i), g, false);
      }
      if (s.initial[i].runnext >= 0) {
        S::runqput(*ps[i], &gs[s.initial[i].runnext], true);
        q.runqput(static_cast<int>(i), s.initial[i].runnext, true);
      }
    }
    for (int g : s.global) {
      S::globrunqput(sched, &gs[g]);
      q.globrunqput(g);
    }
    return q;
  }

  void step(lc::recorder& rec, int t, const sc::op& o) {
    auto& pp = *ps[o.p];
    lc::operation x;
    x.p = o.p;
    x.victim = o.victim;
    x.g = o.g;
    switch (o.kind) {
      case sc::op_kind::put:
      case sc::op_kind::put_next: {
        bool next = o.kind == sc::op_kind::put_next;
        x.kind = next ? lc::op_kind::put_next : lc::op_kind::put;
        auto& r = rec.begin(t, x);
        S::runqput(pp, &gs[o.g], next);
        rec.end(r);
        break;
      }
      case sc::op_kind::get: {
        x.kind = lc::op_kind::get;
        auto& r = rec.begin(t, x);
        auto got = S::runqget(pp);
        rec.end(r);
        r.res = id(got.gp);
        r.inheritTime = got.inheritTime;
        break;
      }
      case sc::op_kind::steal:
      case sc::op_kind::steal_next:
      case sc::op_kind::steal_next_must: {  // "must find a G": the model decides what it finds
        bool next = o.kind != sc::op_kind::steal;
        x.kind = next ? lc::op_kind::steal_next : lc::op_kind::steal;
        auto& r = rec.begin(t, x);
        G* gp = S::runqsteal(pp, *ps[o.victim], next);
        rec.end(r);
        r.res = id(gp);
        break;
      }
      case sc::op_kind::drain: {
        x.kind = lc::op_kind::drain;
        auto& r = rec.begin(t, x);
        runqcheck::gQueue<B> q = S::runqdrain(pp);
        rec.end(r);
        while (G* gp = q.pop()) r.list.push_back(id(gp));
        break;
      }
      case sc::op_kind::glob_batch: {
        x.kind = lc::op_kind::glob_batch;
        auto& r = rec.begin(t, x);
        G* gp = S::findRunnable_globrunq(pp);
        rec.end(r);
        r.res = id(gp);
        break;
      }
      case sc::op_kind::glob_put: {
        x.kind = lc::op_kind::glob_put;
        auto& r = rec.begin(t, x);
        S::globrunqput(sched, &gs[o.g]);
        rec.end(r);
        break;
      }
      case sc::op_kind::glob_get: {
        x.kind = lc::op_kind::glob_get;
        auto& r = rec.begin(t, x);
        G* gp = S::globrunqget(sched);
        rec.end(r);
        r.res = id(gp);
        break;
      }
      case sc::op_kind::expect_nonempty: {
        x.kind = lc::op_kind::empty;
        auto& r = rec.begin(t, x);
        bool e = S::runqempty(*ps[o.victim]);
        rec.end(r);
        r.flag = e;
        break;
      }
      case sc::op_kind::wait_done:
        while (done[o.victim].load(std::memory_order::acquire) == 0) std::this_thread::yield();
        break;
      case sc::op_kind::destroy: {
        x.kind = lc::op_kind::destroy;
        auto& r = rec.begin(t, x);
        S::destroy(pp);
        rec.end(r);
        break;
      }
      default:
        throw std::logic_error("op kind not modelled by the lincheck runner");
    }
  }

  // One execution; "" if its history is linearizable. A fatal error of the
  // port outside the threads (set-up, final drain) fails it too.
  std::string once() {
    try {
      return once_unguarded();
    } catch (const std::exception& e) {
      return std::string("outside the threads: ") + e.what();
    }
  }
  std::string once_unguarded() {
    runqcheck::ref::queues q0 = init();
    int nthreads = static_cast<int>(s.threads.size());
    lc::recorder rec(nthreads + 1);
    std::vector<std::thread> ts;
    for (int t = 0; t < nthreads; t++) {
      ts.emplace_back([&, t] {
        // A start barrier among the threads themselves (the main thread
        // only joins): spin, so that the last arrival releases everyone at
        // once and their first operations overlap; yield after a while so
        // that more threads than cores still make progress.
        arrived.fetch_add(1, std::memory_order::acq_rel);
        for (int spins = 0; arrived.load(std::memory_order::acquire) < nthreads; spins++) {
          if (spins > 20000) std::this_thread::yield();
        }
        try {
          for (const sc::op& o : s.threads[static_cast<std::size_t>(t)]) step(rec, t, o);
        } catch (const std::exception& e) {
          if (!failed.exchange(true)) error = e.what();
        }
        done[t].store(1, std::memory_order::release);
      });
    }
    for (auto& th : ts) th.join();
    if (failed.load()) return "thread failed: " + error;
    // Empty everything, as one more thread.
    for (int p = 0; p < s.nprocs; p++) {
      for (;;) {
        lc::operation x;
        x.kind = lc::op_kind::get;
        x.p = p;
        auto& r = rec.begin(nthreads, x);
        auto got = S::runqget(*ps[static_cast<std::size_t>(p)]);
        rec.end(r);
        r.res = id(got.gp);
        r.inheritTime = got.inheritTime;
        if (got.gp == nullptr) break;
      }
    }
    for (;;) {
      lc::operation x;
      x.kind = lc::op_kind::glob_get;
      auto& r = rec.begin(nthreads, x);
      G* gp = S::globrunqget(sched);
      rec.end(r);
      r.res = id(gp);
      if (gp == nullptr) break;
    }
    lc::history h = rec.merge(q0);
    for (const auto& a : h.ops)
      for (const auto& b : h.ops)
        if (a.thread != b.thread && a.call < b.call && b.call < a.ret) overlapped = true;
    lc::result res = lc::check(h);
    return res.linearizable ? std::string() : res.report;
  }
};

// The catalog's op kinds this runner maps onto the reference model; a
// scenario using another kind (added to the catalog later) is skipped with
// a message rather than failed.
bool supported(const sc::scenario& s) {
  for (const auto& th : s.threads)
    for (const sc::op& o : th) switch (o.kind) {
        case sc::op_kind::put:
        case sc::op_kind::put_next:
        case sc::op_kind::get:
        case sc::op_kind::steal:
        case sc::op_kind::steal_next:
        case sc::op_kind::steal_next_must:
        case sc::op_kind::drain:
        case sc::op_kind::glob_batch:
        case sc::op_kind::glob_put:
        case sc::op_kind::glob_get:
        case sc::op_kind::expect_nonempty:
        case sc::op_kind::wait_done:
        case sc::op_kind::destroy: break;
        default: return false;
      }
  return true;
}

bool selected(const sc::scenario& s) {
  const char* e = std::getenv("RUNQCHECK_CASE");
  if (e == nullptr || *e == '\0') return true;
  std::string list = std::string(",") + e + ",";
  return list.find("," + std::string(s.name) + ",") != std::string::npos;
}

}  // namespace

int main(int argc, char** argv) {
  const char* self = argv[0];
  runqcheck::fatal_handler() = &throwing_fatal;
  // --expect-failure: the inverted run for a mutant build (RUNQCHECK_MUTANT
  // set): succeed only if some history is NOT linearizable.
  bool expect_failure = argc > 1 && std::string(argv[1]) == "--expect-failure";
  if (expect_failure) {
    argc--;
    argv++;
    std::printf(
        "INVERTED TEST: mutant %s injected; this run succeeds only if a non-linearizable history "
        "is found.\n",
        std::getenv("RUNQCHECK_MUTANT") ? std::getenv("RUNQCHECK_MUTANT") : "(none)");
  }
  long iters = 300;
  if (argc > 1) {
    char* end = nullptr;
    iters = std::strtol(argv[1], &end, 10);
    if (argc > 2 || argv[1][0] < '0' || argv[1][0] > '9' || *end != '\0' || iters <= 0) {
      std::fprintf(stderr, "usage: %s [--expect-failure] [EXECUTIONS] (a positive number; "
                   "300 by default)\n", self);
      return 2;
    }
  }
  if (const char* sc = std::getenv("RUNQCHECK_SCALE");
      sc != nullptr && std::strtod(sc, nullptr) > 0)
    iters = std::max(1L, std::lround(static_cast<double>(iters) * std::strtod(sc, nullptr)));
  std::printf(
      "subject %s: scenario catalog on native threads, %ld executions each, histories checked for "
      "linearizability against models/reference\n",
      subject_name, iters);
  auto t0 = std::chrono::steady_clock::now();
  long total = 0, overlapping = 0;
  std::vector<std::string> failures;  // every failing scenario, reported at the end
  runqcheck::model::report_not_applied<subject_under_test<B, 4>>(subject_name, sc::catalog, false);
  for (const sc::scenario& s : sc::catalog) {
    if (!s.expect_fatal.empty() || !selected(s)) continue;
    if (!runqcheck::model::runs_as_written<subject_under_test<B, 4>>(s)) continue;
    if (!supported(s)) {
      std::printf("skip %s: uses an op kind the runner does not model yet\n",
                  std::string(s.name).c_str());
      continue;
    }
    long scenario_overlaps = 0;
    // Re-runs this scenario alone; threads' timing is not replayable, so the
    // failing execution's index is reported, not a seed.
    const std::string repro =
        "RUNQCHECK_CASE=" + std::string(s.name) + " " + argv[0] + " " + std::to_string(iters);
    runqcheck::wd::set_reproducer(repro);
    bool scenario_failed = false;
    for (long i = 0; i < iters && !scenario_failed; i++) {
      std::string err;
      bool ov = false;
      runqcheck::model::with_cap<4, 8>(s.cap, [&](auto c) {
        run<decltype(c)::value> r(s);
        err = r.once();
        ov = r.overlapped;
      });
      total++;
      overlapping += ov;
      scenario_overlaps += ov;
      if (!err.empty()) {
        std::printf("FAIL: scenario %s (%.*s), execution %ld:\n%s\n", std::string(s.name).c_str(),
                    static_cast<int>(s.targets.size()), s.targets.data(), i, err.c_str());
        if (expect_failure) {
          std::printf("PASS (inverted): the mutant was caught, as expected.\n");
          return 0;
        }
        std::printf("reproduce: %s   (failed at execution %ld of %ld)\n", repro.c_str(), i, iters);
        failures.push_back(std::string(s.name));
        scenario_failed = true;
      }
    }
    if (scenario_failed && std::getenv("RUNQCHECK_STOP_ON_FAIL") != nullptr) break;  // as relacy
    if (scenario_failed) continue;
    std::printf("ok  %-32s (%ld of %ld executions had operations of two threads overlapping)\n",
                std::string(s.name).c_str(), scenario_overlaps, iters);
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!failures.empty()) {
    std::printf("FAILED: %zu scenario(s) not linearizable:", failures.size());
    for (const std::string& f : failures) std::printf(" %s", f.c_str());
    std::printf("\n");
    return 1;
  }
  std::printf("%s: %ld executions linearizable, %ld with overlapping operations (%.1f s)\n",
              expect_failure ? "FAIL (inverted: the mutant survived)" : "PASS", total, overlapping,
              secs);
  return expect_failure ? 1 : 0;
}
