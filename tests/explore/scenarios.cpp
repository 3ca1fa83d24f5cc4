// The scenario catalog (models/scenarios) under the exploring engine
// (engine/): every scenario, every consistent execution graph, under
// SC and RC11, for the subject under test; the invariants of exec.hpp after
// each complete execution, data races and the port's checks during it.
//
// Usage: explore_scenarios [sc|rc11|lb|c11|both|all|M,M] [--budget N] [--seconds S] [--hash]
//          [--crosscheck] [--no-ipr] [--shard I/N] [--estimate] [--advise]
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
//   --advise: after the runs, order advice (advice: FILE:LINE: ...). A
//   failure: each site of the failing executions made stronger alone, the
//   weakest order that makes every run pass. None: each site seen made one
//   step weaker alone, printed if every run still passes (advise()).
// Output per scenario and model: complete and blocked executions, time,
// "exhausted". A failure prints a `replay:` line that re-runs exactly it and
// a `picture:` line: the swimlane page of that execution (picture.hpp).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <set>
#include <source_location>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runqcheck/backend/explore.hpp"
#include "explore/search.hpp"
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

// One scenario explored under o (its capacity dispatched).
ex::stats explore_one(const model::scenario& sc, const ex::options& o) {
  return model::with_cap<8, 4>(sc.cap, [&](auto c) {
    prog<decltype(c)::value> p(sc);
    return ex::explore(p, o);
  });
}

// True if run s of scenario sc passed: no failure, or the fatal error
// the scenario expects from the port.
bool passed(const model::scenario& sc, const ex::stats& s) {
  if (sc.expect_fatal.empty()) return !s.failed;
  return s.failed && s.failure.rfind("fatal error: ", 0) == 0 &&
         s.failure.rfind("fatal error: invariant:", 0) != 0;
}

// --- order advice (--advise) ---------------------------------------------
// An atomic access site of the port: its line and column, its kind, the
// order it was made with.
struct site {
  const char* file;
  std::uint32_t line, column;
  ex::op what;
  std::uint8_t mo;
};
struct advice_sites {
  std::vector<site> seen;     // every run's (the weakening's candidates)
  std::vector<site> failing;  // the failing executions' (the strengthening's)
};
using runs = std::vector<std::pair<const model::scenario*, ex::model>>;

// True if file is the harness's (under models/ beside this file's tests/:
// the executor's own accesses), not the port's.
bool harness_file(const char* file) {
  static const std::string models = [] {
    std::string self = __FILE__;
    return self.substr(0, self.rfind("tests/explore/")) + "models/";
  }();
  return std::strncmp(file, models.c_str(), models.size()) == 0;
}

void note(std::vector<site>& v, const ex::event& e, const ex::request& q) {
  if (q.plain || e.kind == ex::ek::fence || q.what == ex::op::lock) return;
  const std::source_location& w = q.where;
  if (harness_file(w.file_name())) return;
  for (const site& x : v)
    if (x.line == w.line() && x.column == w.column() && x.what == q.what &&
        std::strcmp(x.file, w.file_name()) == 0)
      return;
  v.push_back({w.file_name(), w.line(), w.column(), q.what, q.mo});
}

constexpr std::uint8_t mo_of(std::memory_order m) { return static_cast<std::uint8_t>(m); }
const char* order_name(std::uint8_t mo) {
  static const char* names[] = {"relaxed", "consume", "acquire", "release", "acq_rel", "seq_cst"};
  return names[mo];
}
const char* op_name(ex::op w) {
  static const char* names[] = {"load", "store", "cas", "fadd", "lock", "fence", "xchg"};
  return names[static_cast<int>(w)];
}

// The orders a site of kind w may take, in levels from the weakest
// (relaxed) up; an RMW's acquire and release are one level (neither is
// weaker). consume counts as acquire.
std::vector<std::vector<std::uint8_t>> levels(ex::op w) {
  using std::memory_order;
  const std::uint8_t rlx = mo_of(memory_order::relaxed), acq = mo_of(memory_order::acquire),
                     rel = mo_of(memory_order::release), ar = mo_of(memory_order::acq_rel),
                     sc = mo_of(memory_order::seq_cst);
  if (w == ex::op::load) return {{rlx}, {acq}, {sc}};
  if (w == ex::op::store) return {{rlx}, {rel}, {sc}};
  return {{rlx}, {acq, rel}, {ar}, {sc}};
}
int level_of(ex::op w, std::uint8_t mo) {
  if (mo == mo_of(std::memory_order::consume)) mo = mo_of(std::memory_order::acquire);
  auto l = levels(w);
  for (std::size_t i = 0; i < l.size(); i++)
    if (std::find(l[i].begin(), l[i].end(), mo) != l[i].end()) return static_cast<int>(i);
  return 0;
}

// True if every run of all passes, explored to its end, with site x at
// order mo (the catalog's checks, as run_one judges them); the run that
// failed moves to the front, so that the next try meets it first. In a
// child process: a weakened order may crash the port (a nil G from a
// stale slot), which is then a failure, not the advice's end.
bool all_pass(runs& all, const args& a, const site& x, std::uint8_t mo) {
#ifdef ADVISE_CHECK_ONE  // the teeth (cmake/explore.cmake): broken on purpose, one run only
  const std::uint32_t n = 1;
#else
  const auto n = static_cast<std::uint32_t>(all.size());
#endif
  std::fflush(stdout);
  int fd[2];
  if (pipe(fd) != 0) {
    std::perror("advice: pipe");
    std::exit(2);
  }
  pid_t pid = fork();
  if (pid < 0) {
    std::perror("advice: fork");
    std::exit(2);
  }
  if (pid == 0) {  // the child: the runs, then the index of the one that failed
    close(fd[0]);
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    ex::order_overrides = {{x.file, x.line, x.column, x.what, mo}};
    std::uint32_t failed = 0;
    for (; failed < n; failed++) {
      ex::options o = cli::options_of(a, all[failed].second);
      o.shard = 0;  // the whole tree
      o.shards = 1;
      ex::stats s = explore_one(*all[failed].first, o);
      if (!passed(*all[failed].first, s) || !(s.exhausted || s.failed)) break;
    }
    if (write(fd[1], &failed, sizeof failed) != sizeof failed) _exit(3);
    _exit(0);
  }
  close(fd[1]);
  std::uint32_t failed = 0;
  bool told = read(fd[0], &failed, sizeof failed) == sizeof failed;  // not: it crashed
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (told && failed == n) return true;
  if (!told) failed = 0;  // which run crashed is not known: the order stays
  std::rotate(all.begin(), all.begin() + failed, all.begin() + failed + 1);
  return false;
}

std::string models_of(const std::vector<ex::model>& ms) {
  std::string s;
  for (ex::model m : ms) s += (s.empty() ? "" : ", ") + std::string(ex::model_name(m));
  return s;
}

// --advise after the runs. A failure: each site of the failing executions
// alone, from its order one level stronger up, until every run passes; the
// weakest such order is printed (both, where an RMW's acquire and release
// each do). No failure: each site seen alone, one level weaker; printed if
// every run still passes. Either is checked on all the runs made (the
// scenarios run under the models asked), not beyond them.
void advise(runs all, const args& a, bool failed, const advice_sites& at) {
  if (a.budget != 0 || a.seconds > 0) {  // a cut run shows no order needed or not
    std::printf("advice: none: --budget and --seconds cut runs, and order advice needs every "
                "run explored to its end\n");
    return;
  }
  const std::string ms = models_of(a.models);
  std::set<const model::scenario*> scs;
  for (auto& r : all) scs.insert(r.first);
  const std::string n = std::to_string(scs.size()) + " scenario" + (scs.size() == 1 ? "" : "s");
  int found = 0;
  if (failed) {
    std::printf("advice: each site of the failing executions (%zu) made stronger alone, the "
                "weakest order first, checked on all %s under %s\n",
                at.failing.size(), n.c_str(), ms.c_str());
    for (const site& x : at.failing) {
      auto l = levels(x.what);
      bool done = false;
      for (std::size_t i = level_of(x.what, x.mo) + 1; i < l.size() && !done; i++)
        for (std::uint8_t mo : l[i])
          if (all_pass(all, a, x, mo)) {
            done = true;
            found++;
            std::printf("advice: %s:%u: %s %s -> %s makes all %s pass under %s\n", x.file,
                        x.line, op_name(x.what), order_name(x.mo), order_name(mo), n.c_str(),
                        ms.c_str());
          }
    }
    if (found == 0)
      std::printf("advice: no one site made stronger makes all %s pass under %s\n", n.c_str(),
                  ms.c_str());
    return;
  }
  std::printf("advice: each site of the port (%zu) made one step weaker alone, checked on all "
              "%s under %s\n",
              at.seen.size(), n.c_str(), ms.c_str());
  for (const site& x : at.seen) {
    int lv = level_of(x.what, x.mo);
    if (lv == 0) continue;
    const auto l = levels(x.what);
    for (std::uint8_t mo : l[lv - 1])
      if (all_pass(all, a, x, mo)) {
        found++;
        std::printf("advice: stronger than needed: %s:%u: %s %s -> %s still passes all %s "
                    "under %s\n",
                    x.file, x.line, op_name(x.what), order_name(x.mo), order_name(mo),
                    n.c_str(), ms.c_str());
      }
  }
  if (found == 0)
    std::printf("advice: no site is stronger than needed by these %s\n", n.c_str());
  std::printf("advice: each weakening was checked alone; two together are not checked, and a "
              "program outside these %s may need the order\n",
              n.c_str());
}

// Runs one scenario under one model; prints its line. True if it passed.
// probe > 0: at most that many executions first; a run the probe neither
// exhausted nor failed prints nothing and sets *undecided (run it again).
// sites (--advise): the sites its runs and its failing execution touch.
bool run_one(const char* argv0, const model::scenario& sc, ex::model m, const args& a,
             std::uint64_t probe = 0, bool* undecided = nullptr, advice_sites* sites = nullptr) {
  std::string name(sc.name);
  ex::options o = cli::options_of(a, m);
  o.budget = probe > 0 && (a.budget == 0 || probe < a.budget) ? probe : a.budget;
  if (sites != nullptr)
    o.on_access = [sites](int, const ex::event& e, const ex::request& q) {
      note(sites->seen, e, q);
    };
  auto explore = [&](const ex::options& opts) { return explore_one(sc, opts); };
  const char* mn = ex::model_name(m);
  auto estimate = [&] {
    return model::with_cap<8, 4>(sc.cap, [&](auto c) {
      prog<decltype(c)::value> p(sc);
      return ex::estimate(p, o, cli::probes, 1);
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
  bool fatal_seen = passed(sc, s);
  // A scenario expecting the port's fatal error that failed otherwise (an
  // invariant, a data race): that failure's replay and picture, as any's.
  bool other = !sc.expect_fatal.empty() && s.failed && !fatal_seen;
  if (s.failed && (sc.expect_fatal.empty() || other)) {
    line = cli::replay_line(argv0, name, m, s.path);
    html = take_picture(sc, m, s.path, cli::absolute(line, argv0), err, &cause, &at);
    if (!cause.empty()) s.failure = cause;
  }
  cli::result r{argv0, "explore", subject_name, name, m, s, est};
  bool ok = cli::report(r, a, sc.expect_fatal.empty() ? nullptr : "stopped (see below)");
  if (!sc.expect_fatal.empty()) {
    std::printf(
        "explore %s %s %s: %s (expected a fatal error from the port, as Go's \"%.*s\": %s%s)\n",
        subject_name, name.c_str(), mn, fatal_seen ? "passed" : "FAILED",
        static_cast<int>(sc.expect_fatal.size()), sc.expect_fatal.data(),
        fatal_seen ? "seen " : other ? "NOT seen; instead: " : "NOT seen",
        fatal_seen || other ? s.failure.c_str() : "");
    if (!other) return fatal_seen;
  }
  if (s.failed) {
    for (const std::string& x : at) std::printf("at: %s\n", x.c_str());
    std::printf("replay: %s\n", line.c_str());
    cli::print_picture(html, err);  // the page names the binary by its absolute path
    std::fflush(stdout);
    if (sites != nullptr) {  // the failing execution's sites
      ex::options r = o;
      r.replay = s.path;
      r.on_access = [sites](int, const ex::event& e, const ex::request& q) {
        note(sites->failing, e, q);
      };
      explore(r);
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
  // Line by line: a run a timeout kills (ctest's) still shows the lines it printed.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::string self = argv[0];
  std::vector<std::string> names;
  const std::vector<model::scenario> files = files_of(argc, argv, self, names);
  const std::vector<model::scenario>& catalog = files.empty() ? model::catalog : files;
  if (argc == 2 && std::strcmp(argv[1], "list") == 0) {
    for (const auto& sc : catalog)
      std::printf("%-32s %zu threads, cap %u\n", std::string(sc.name).c_str(), sc.threads.size(),
                  sc.cap);
    if (files.empty())
      for (const auto& sc : model::lb_catalog)
        std::printf("%-32s %zu threads, cap %u (lb, c11 only)\n", std::string(sc.name).c_str(),
                    sc.threads.size(), sc.cap);
    return 0;
  }
  args a;
  std::string only_name;
  if (int rc = cli::parse(argc, argv, a, only_name, true, " [--scenario FILE]"); rc >= 0)
    return rc;
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
  auto take = [&](const model::scenario& sc, bool lb_only) {
    std::string name(sc.name);
    if (only != nullptr ? name != only : !cli::selected(name)) return;
    if (lb_only && std::none_of(a.models.begin(), a.models.end(), ex::has_lb)) return;
    ran++;
    if (!model::runs_as_written<subject_under_test<B, 4>>(sc, &unfound)) return;  // above
    for (ex::model m : a.models)
      if (!lb_only || ex::has_lb(m)) open.emplace_back(&sc, m);
  };
  for (const auto& sc : catalog) take(sc, false);
  if (files.empty())
    for (const auto& sc : model::lb_catalog) take(sc, true);  // under LB and C11 only
  const runs all = open;  // --advise checks its orders on every run
  advice_sites at;
  advice_sites* advising = a.advise && a.replay.empty() ? &at : nullptr;
  bool rounds = stop_on_fail && a.replay.empty() && !a.crosscheck;
  for (std::uint64_t probe = rounds ? 500 : 0; !open.empty() && (ok || !stop_on_fail);
       probe = probe >= 8000 ? 0 : probe * 16) {
    std::vector<std::pair<const model::scenario*, ex::model>> left;
    for (auto [sc, m] : open) {
      bool undecided = false;
      ok &= run_one(self.c_str(), *sc, m, a, probe, &undecided, advising);
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
  if (advising != nullptr) advise(all, a, !ok, at);
  return ok ? 0 : 1;
}
