// The scenario catalog (models/scenarios) under the exploring engine
// (models/explore): every scenario, every consistent execution graph, under
// SC and RC11, for the subject under test; the invariants of exec.hpp after
// each complete execution, data races and the port's checks during it.
//
// Usage: explore_scenarios [sc|rc11|lb|c11|both|all|M,M] [--budget N] [--seconds S] [--hash]
//          [--crosscheck] [--no-ipr] [--shard I/N] [--estimate]
//        explore_scenarios replay SCENARIO sc|rc11|lb|c11 PATH
//        explore_scenarios list
//   RUNQCHECK_CASE=<scenario>[,...] runs those only.
//   --scenario FILE (repeatable): the scenarios of those files (a program
//   the generated column saved), not the catalog.
//   RUNQCHECK_STOP_ON_FAIL=1 (a kill cell) stops at the first failure; the
//   scenarios then run in rounds of 500, then 8,000 executions, then in full.
//   --budget N: at most N executions per scenario and model; a scenario cut
//   by it says so and what it covered (never a silent pass), with an
//   estimate of the whole (random probes of the tree, engine.hpp).
//   --seconds S: the same, a budget in seconds.
//   --shard I/N: explore shard I (0..N-1) of N; the N shards' counts sum
//   to the unsharded count, each graph explored by one of them.
//   --estimate: print each scenario's estimated count before exploring it.
//   --hash: count execution graphs met twice (fails if any was).
//   --crosscheck: also explore without reduction (any thread adds the next
//   event, no revisits) and require the same set of complete graphs: the
//   reduction's completeness and optimality, on scenarios small enough;
//   and, the same, without await in-place revisits (plain TruSt).
//   --no-ipr: plain TruSt, without await in-place revisits (engine.hpp).
//   --advise: after a failure, each of its sites made stronger alone; the
//   ones that make the scenario pass are printed (advice: FILE:LINE: ...).
// Output per scenario and model: complete and blocked executions, time,
// "exhausted". A failure prints a `replay:` line that re-runs exactly it and
// a `picture:` line: the swimlane page of that execution (picture.hpp).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "runqcheck/backend/explore.hpp"
#include "explore/engine.hpp"
#ifdef RUNQCHECK_PICTURES
#include "picture.hpp"
#endif

#include "caps.hpp"
#include "catalog.hpp"
#include "exec.hpp"
#include "hooks.hpp"
#include "runqcheck_subject.hpp"
#include "cli.hpp"
#include "scenario_prog.hpp"
#include "text.hpp"

namespace {

namespace ex = runqcheck::explore;
namespace cli = runqcheck::explore::cli;
using cli::args;
using cli::fmt;
namespace model = runqcheck::model;
using runqcheck::explore::scenario_run::B;
using runqcheck::explore::scenario_run::counters_unfound;
using runqcheck::explore::scenario_run::obs;
using runqcheck::explore::scenario_run::prog;
using runqcheck::explore::scenario_run::take_picture;

// --advise, after scenario name failed under m on the execution at path:
// each atomic access site of that execution made one step stronger alone
// (a load acquire, a store release, an RMW acq_rel; explore/runtime.hpp's
// order_floors), the scenario explored again; each site that makes it pass
// is printed as `advice: FILE:LINE: OP OLD -> NEW`. One site at a time: a
// bug that needs two stronger orders gets no advice.
template <class Explore>
void advise(const std::string& name, ex::model m, const ex::options& o, const std::string& path,
            Explore&& explore) {
  static const char* orders[] = {"relaxed", "consume", "acquire", "release", "acq_rel",
                                 "seq_cst"};
  static const char* ops[] = {"load", "store", "cas", "fadd", "lock", "fence", "xchg"};
  struct site {
    const char* file;
    std::uint32_t line;
    ex::op what;
    std::uint8_t mo;
  };
  std::vector<site> sites;
  ex::options r = o;
  r.replay = path;
  r.on_access = [&](int, const ex::event& e, const ex::request& q) {
    if (q.plain || e.kind == ex::ek::fence || q.what == ex::op::lock) return;
    for (const site& x : sites)
      if (x.line == q.where.line() && std::strcmp(x.file, q.where.file_name()) == 0) return;
    sites.push_back({q.where.file_name(), q.where.line(), q.what, q.mo});
  };
  explore(r);
  int found = 0;
  for (const site& x : sites) {
    auto want = x.what == ex::op::load    ? std::memory_order::acquire
                : x.what == ex::op::store ? std::memory_order::release
                                          : std::memory_order::acq_rel;
    auto to = static_cast<std::uint8_t>(want);
    if (x.mo >= to) continue;
    ex::order_floors = {{x.file, x.line, to}};
    ex::stats t = explore(o);
    ex::order_floors.clear();
    if (t.failed || !t.exhausted) continue;
    found++;
    std::printf("advice: %s:%u: %s %s -> %s makes %s pass under %s\n", x.file, x.line,
                ops[static_cast<int>(x.what)], orders[x.mo], orders[to], name.c_str(),
                ex::model_name(m));
  }
  if (found == 0)
    std::printf("advice: no one order made stronger makes %s pass under %s\n", name.c_str(),
                ex::model_name(m));
}

// Runs one scenario under one model; prints its line. True if it passed.
// probe > 0: at most that many executions first; a run the probe neither
// exhausted nor failed prints nothing and sets *undecided (run it again).
bool run_one(const char* argv0, const model::scenario& sc, ex::model m, const args& a,
             std::uint64_t probe = 0, bool* undecided = nullptr) {
  std::string name(sc.name);
  ex::options o = cli::options_of(a, m);
  o.budget = probe > 0 && (a.budget == 0 || probe < a.budget) ? probe : a.budget;
  auto explore = [&](const ex::options& opts) {
    return model::with_cap<8, 4>(sc.cap, [&](auto c) {
      prog<decltype(c)::value> p(sc);
      ex::engine<> e(p, opts);
      return e.run();
    });
  };
  const char* mn = ex::model_name(m);
  auto estimate = [&] {
    return model::with_cap<8, 4>(sc.cap, [&](auto c) {
      prog<decltype(c)::value> p(sc);
      ex::engine<> e(p, o);
      return e.estimate(cli::probes, 1);
    });
  };
  if (a.estimate && a.replay.empty())
    std::printf("explore %s %s %s: estimated %.0f executions (%u random probes)\n", subject_name,
                name.c_str(), mn, estimate(), cli::probes);
  if (a.crosscheck) o.hash_graphs = true;
  ex::stats s = explore(o);
  if (o.budget != a.budget && !s.failed && !s.exhausted && sc.expect_fatal.empty()) {
    *undecided = true;  // the probe's executions are the full run's first ones
    return true;
  }
  double est = !s.failed && !s.exhausted && a.replay.empty() ? estimate() : 0;
  // A failure's picture first: its data race, said in the port's terms, is the failure's line.
  std::string line, html, err, cause;
  std::vector<std::string> at;
  if (s.failed && sc.expect_fatal.empty()) {
    line = cli::replay_line(argv0, name, m, s.path);
    html = take_picture(sc, m, s.path, cli::absolute(line, argv0), err, &cause, &at);
    if (!cause.empty()) s.failure = cause;
  }
  cli::result r{argv0, "explore", subject_name, name, m, s, est};
  bool ok = cli::report(r, a, sc.expect_fatal.empty() ? nullptr : "stopped (see below)");
  bool fatal_seen = s.failed && s.failure.rfind("fatal error: ", 0) == 0 &&
                    s.failure.rfind("fatal error: invariant:", 0) != 0;
  if (!sc.expect_fatal.empty()) {
    std::printf(
        "explore %s %s %s: %s (expected a fatal error from the port, as Go's \"%.*s\": %s%s)\n",
        subject_name, name.c_str(), mn, fatal_seen ? "passed" : "FAILED",
        static_cast<int>(sc.expect_fatal.size()), sc.expect_fatal.data(),
        fatal_seen ? "seen " : "NOT seen", fatal_seen ? s.failure.c_str() : "");
    return fatal_seen;
  }
  if (s.failed) {
    for (const std::string& x : at) std::printf("at: %s\n", x.c_str());
    std::printf("replay: %s\n", line.c_str());
    cli::print_picture(html, err);  // the page names the binary by its absolute path
    std::fflush(stdout);
    if (a.advise) {
      ex::options full = o;  // not a probe's budget: each try runs to its end
      full.budget = a.budget;
      advise(name, m, full, s.path, explore);
    }
  }
  if (a.crosscheck && ok) {
    ex::options n = o;
    n.naive = true;
    n.budget = 2'000'000;
    ex::stats c = explore(n);
    std::sort(s.hashes.begin(), s.hashes.end());
    std::sort(c.hashes.begin(), c.hashes.end());
    bool same = c.exhausted && s.hashes == c.hashes && s.duplicates == 0;
    std::printf("crosscheck %s %s %s: %s (%s graphs without reduction in %s executions%s)\n",
                subject_name, name.c_str(), mn, same ? "same graphs" : "DIFFERENT",
                fmt(c.hashes.size()).c_str(), fmt(c.executions()).c_str(),
                c.exhausted ? "" : ", NOT exhausted");
    ok &= same;
    if (o.ipr) {  // and those of plain TruSt, without in-place revisits
      ex::options q = o;
      q.ipr = false;
      ex::stats c2 = explore(q);
      ok &= cli::same_as_plain("explore", subject_name, name, m, s, c2);
    }
  }
  if (a.hash && s.duplicates > 0) ok = false;
  return ok;
}

// --scenario FILE (any number, anywhere): run the scenarios of those files
// (a program the generated column saved, models/scenarios/text.hpp) instead
// of the catalog; taken out of argv. Exits 2 on a file it cannot take.
std::vector<model::scenario> files_of(int& argc, char** argv, std::string& self,
                                      std::vector<std::string>& names) {
  std::vector<model::scenario> out;
  std::vector<std::string> paths;
  int k = 1;
  for (int i = 1; i < argc; i++) {
    if (std::strcmp(argv[i], "--scenario") == 0 && i + 1 < argc) {
      paths.push_back(argv[++i]);
      continue;
    }
    argv[k++] = argv[i];
  }
  argc = k;
  names.reserve(paths.size());  // the scenarios' names view these strings
  for (const std::string& path : paths) {
    model::scenario sc;
    std::string line, err;
    if (!model::read_spec_file(path, line, err) ||
        !model::parse_spec(line, sc, err, model::kMaxP, model::kMaxThreads, model::kMaxG)) {
      std::fprintf(stderr, "%s: --scenario %s: %s\n", argv[0], path.c_str(), err.c_str());
      std::exit(2);
    }
    if (sc.cap != 4 && sc.cap != 8) {
      std::fprintf(stderr, "%s: --scenario %s: cap %u: this runner builds 4 and 8\n", argv[0],
                   path.c_str(), sc.cap);
      std::exit(2);
    }
    std::string base = path.substr(path.rfind('/') + 1);
    names.push_back(base.substr(0, base.rfind('.')));
    sc.name = names.back();
    out.push_back(std::move(sc));
    self += " --scenario " + path;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::string self = argv[0];
  std::vector<std::string> names;
  const std::vector<model::scenario> files = files_of(argc, argv, self, names);
  const std::vector<model::scenario>& catalog = files.empty() ? model::catalog : files;
  if (argc == 2 && std::strcmp(argv[1], "list") == 0) {
    for (const auto& sc : catalog)
      std::printf("%-32s %zu threads, cap %u\n", std::string(sc.name).c_str(), sc.threads.size(),
                  sc.cap);
    return 0;
  }
  args a;
  std::string only_name;
  if (int rc = cli::parse(argc, argv, a, only_name, true); rc >= 0) return rc;
  const char* only = only_name.empty() ? nullptr : only_name.c_str();
  model::observer = &obs;
  const std::string unfound = counters_unfound();  // the wrap without the hook
  model::report_not_applied<subject_under_test<B, 4>>(subject_name, catalog, true, &unfound);
  bool ok = true;
  int ran = 0;
  // RUNQCHECK_STOP_ON_FAIL (a kill cell, as relacy): rounds over the
  // scenarios, 500 executions each, then 8,000, then unbounded,
  // each running only what earlier rounds left open; the
  // search order is fixed, so a failure within a round is the full run's.
  const bool stop_on_fail = std::getenv("RUNQCHECK_STOP_ON_FAIL") != nullptr;
  std::vector<std::pair<const model::scenario*, ex::model>> open;
  for (const auto& sc : catalog) {
    std::string name(sc.name);
    if (only != nullptr ? name != only : !cli::selected(name)) continue;
    ran++;
    if (!model::runs_as_written<subject_under_test<B, 4>>(sc, &unfound)) continue;  // above
    for (ex::model m : a.models) open.emplace_back(&sc, m);
  }
  bool rounds = stop_on_fail && a.replay.empty() && !a.crosscheck;
  for (std::uint64_t probe = rounds ? 500 : 0; !open.empty() && (ok || !stop_on_fail);
       probe = probe >= 8000 ? 0 : probe * 16) {
    std::vector<std::pair<const model::scenario*, ex::model>> left;
    for (auto [sc, m] : open) {
      bool undecided = false;
      ok &= run_one(self.c_str(), *sc, m, a, probe, &undecided);
      if (undecided) left.emplace_back(sc, m);
      if (!ok && stop_on_fail) break;
    }
    open.swap(left);
  }
  if (ran == 0) {
    std::fprintf(stderr, "%s: no scenario named '%s' (see: %s list)\n", argv[0],
                 only ? only : std::getenv("RUNQCHECK_CASE"), argv[0]);
    return 2;
  }
  std::printf("%s: %d scenarios, %s\n", argv[0], ran, ok ? "all passed" : "FAILED");
  return ok ? 0 : 1;
}
