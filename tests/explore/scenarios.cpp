// The scenario catalog (models/scenarios) under the exploring engine
// (models/explore): every scenario, every consistent execution graph, under
// SC and RC11, for the subject under test; the invariants of exec.hpp after
// each complete execution, data races and the port's checks during it.
//
// Usage: explore_scenarios [sc|rc11|both] [--budget N] [--seconds S] [--hash]
//          [--crosscheck] [--shard I/N] [--estimate]
//        explore_scenarios replay SCENARIO sc|rc11 PATH
//        explore_scenarios list
//   RUNQCHECK_CASE=<scenario>[,...] runs those only.
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
//   reduction's completeness and optimality, on scenarios small enough.
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

namespace {

using B = runqcheck::explore_backend;
namespace ex = runqcheck::explore;
namespace model = runqcheck::model;

// Tells the engine where each operation begins (its spin windows reset),
// and the picture being taken, if any, where each begins and ends.
#ifdef RUNQCHECK_PICTURES
using picture = ex::picture;
#else
using picture = model::op_observer;  // built without fuzz/explain: no pictures
#endif
struct boundaries final : model::op_observer {
  picture* pic = nullptr;
  void op_begin(int t, int i, const model::op& o) override {
    if (ex::current != nullptr) ex::current->op_boundary();
    if (pic != nullptr) pic->op_begin(t, i, o);
  }
  void op_end(int t, int i, const model::op& o, const std::uint64_t* gs, int n, bool inherit,
              bool empty) override {
    if (pic != nullptr) pic->op_end(t, i, o, gs, n, inherit, empty);
  }
};
boundaries obs;

template <std::uint32_t Cap>
struct prog final : ex::program {
  using W = model::world<subject_under_test<B, Cap>, B>;
  const model::scenario& sc;
  std::optional<W> w;
  picture* pic = nullptr;  // the picture being taken (each run starts it afresh)
  bool finishing = false;  // in the final check (a failure there is no thread's)
  explicit prog(const model::scenario& s) : sc(s) {}
  int threads() const override { return static_cast<int>(sc.threads.size()); }
  void setup() override {
    w.emplace(sc);
#ifdef RUNQCHECK_PICTURES
    if (pic != nullptr) pic->reset(*w, sc.nprocs, sc.ngs, threads());
#endif
    finishing = false;
    w->init();
  }
  void run(int t) override { w->run(t); }
  void finish() override {
    finishing = true;
    w->check();
  }
  void teardown() override { w.reset(); }
};

struct args {
  std::vector<ex::model> models{ex::model::sc, ex::model::rc11};
  std::uint64_t budget = 0;
  double seconds = 0;
  unsigned shard = 0, shards = 1;
  bool estimate = false;
  bool hash = false;
  bool crosscheck = false;
  std::string replay;  // a path: replay mode
};

bool selected(const std::string& name) {
  const char* v = std::getenv("RUNQCHECK_CASE");
  if (v == nullptr) return true;
  std::string list = std::string(",") + v + ",";
  return list.find("," + name + ",") != std::string::npos;
}

std::string fmt(std::uint64_t n) {
  std::string s = std::to_string(n);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3)
    s.insert(static_cast<std::size_t>(i), ",");
  return s;
}

#ifdef RUNQCHECK_PICTURES
// Re-runs the failing execution at path alone, recording it, and writes its
// page. Returns the page's path, or "" with err set.
std::string take_picture(const model::scenario& sc, ex::model m, const std::string& path,
                         const std::string& replay_line, std::string& err) {
  std::string dir = runqcheck::fuzz::failure_dir(err);
  if (dir.empty()) return "";
  const char* mut = std::getenv("RUNQCHECK_MUTANT");
  std::string mutant = mut != nullptr ? mut : "";
  const char* mn = m == ex::model::sc ? "sc" : "rc11";
  std::string base = dir + "/explore__" + subject_name + "__" + std::string(sc.name) + "__" + mn;
  if (!mutant.empty()) {
    std::string x = mutant;
    std::replace(x.begin(), x.end(), ':', '-');
    std::replace(x.begin(), x.end(), '/', '-');
    base += "__" + x;
  }
  ex::picture pic;
  ex::options o;
  o.m = m;
  o.replay = path;
  o.on_access = [&](int t, const ex::event& e, const ex::request& q) { pic.access(t, e, q); };
  bool finishing = false;
  obs.pic = &pic;
  ex::stats r = model::with_cap<8, 4>(sc.cap, [&](auto c) {
    prog<decltype(c)::value> p(sc);
    p.pic = &pic;
    ex::engine<> e(p, o);
    ex::stats st = e.run();
    finishing = p.finishing;
    return st;
  });
  obs.pic = nullptr;
  int t = finishing ? -1 : pic.last_thread();
  if (r.failure.rfind("data race: thread ", 0) == 0) t = std::atoi(r.failure.c_str() + 18);
  if (r.failed) pic.fail(t, r.failure);
  runqcheck::fuzz::trace_info info;
  info.sc = &sc;
  info.subject = subject_name;
  info.seed = std::string(mn) + " " + path;
  info.command = replay_line;
  info.mutant = mutant;
  info.checker = "explore";
  info.scenario = std::string(sc.name);
  info.failed = r.failed;
  info.message = r.failure;
  if (err = runqcheck::fuzz::write_page(base + ".html", pic.json(info)); !err.empty()) return "";
  if (!r.failed) err = "WARNING: the re-run of this execution passed";
  return base + ".html";
}
#else
std::string take_picture(const model::scenario&, ex::model, const std::string&,
                         const std::string&, std::string& err) {
  err = "built without the page template (fuzz/explain)";
  return "";
}
#endif

// Runs one scenario under one model; prints its line. True if it passed.
// probe > 0: at most that many executions first; a run the probe neither
// exhausted nor failed prints nothing and sets *undecided (run it again).
bool run_one(const char* argv0, const model::scenario& sc, ex::model m, const args& a,
             std::uint64_t probe = 0, bool* undecided = nullptr) {
  std::string name(sc.name);
  ex::options o;
  o.m = m;
  o.budget = probe > 0 && (a.budget == 0 || probe < a.budget) ? probe : a.budget;
  o.seconds = a.seconds;
  o.shard = a.shard;
  o.shards = a.shards;
  o.hash_graphs = a.hash;
  o.replay = a.replay;
  if (std::getenv("EXPLORE_TRACE") != nullptr) o.trace = stdout;
  auto explore = [&](const ex::options& opts) {
    return model::with_cap<8, 4>(sc.cap, [&](auto c) {
      prog<decltype(c)::value> p(sc);
      ex::engine<> e(p, opts);
      return e.run();
    });
  };
  const char* mn = ex::model_name(m);
  const char* mut = std::getenv("RUNQCHECK_MUTANT");
  // A reproducer's prefix (the mutant, when one is selected) and its model argument.
  std::string env = mut != nullptr ? std::string("RUNQCHECK_MUTANT=") + mut + " " : "";
  const char* marg = m == ex::model::sc ? "sc" : "rc11";
  constexpr unsigned kProbes = 1000;
  auto estimate = [&] {
    return model::with_cap<8, 4>(sc.cap, [&](auto c) {
      prog<decltype(c)::value> p(sc);
      ex::engine<> e(p, o);
      return e.estimate(kProbes, 1);
    });
  };
  if (a.estimate && a.replay.empty())
    std::printf("explore %s %s %s: estimated %.0f executions (%u random probes)\n", subject_name,
                name.c_str(), mn, estimate(), kProbes);
  if (a.crosscheck) o.hash_graphs = true;
  ex::stats s = explore(o);
  if (o.budget != a.budget && !s.failed && !s.exhausted && sc.expect_fatal.empty()) {
    *undecided = true;  // the probe's executions are the full run's first ones
    return true;
  }
  double rate = s.seconds > 0 ? static_cast<double>(s.executions()) / s.seconds : 0;
  std::printf("explore %s %-32s %-4s %s complete, %s blocked, %.3f s, %.0f executions/s, %s",
              subject_name, name.c_str(), mn, fmt(s.complete).c_str(), fmt(s.blocked).c_str(),
              s.seconds, rate,
              !sc.expect_fatal.empty() ? "stopped (see below)"
              : s.failed               ? "FAILED"
              : s.exhausted            ? "exhausted"
                                       : "NOT exhausted");
  if (s.cut > 0) std::printf(" (%s cut at the event bound)", fmt(s.cut).c_str());
  if (a.shards > 1)
    std::printf(" (shard %u/%u%s)", a.shard, a.shards, s.split ? "" : ", tree not split");
  if (a.hash) std::printf(", %s graphs met twice", fmt(s.duplicates).c_str());
  std::printf("\n");
  if (!s.failed && !s.exhausted && a.replay.empty()) {
    double est = estimate();
    std::string limit = a.budget != 0 ? fmt(a.budget) + " executions" : "";
    char secs[32];
    std::snprintf(secs, sizeof secs, "%g s", a.seconds);
    if (a.seconds > 0) limit += (limit.empty() ? "" : ", ") + std::string(secs);
    std::printf(
        "explore %s %s %s: budget of %s reached: %s explored, %s subtrees not explored; "
        "estimated %.0f in all (%u random probes): about %.1f%% covered\n",
        subject_name, name.c_str(), mn, limit.c_str(), fmt(s.executions()).c_str(),
        fmt(s.left).c_str(), est, kProbes,
        est > 0 ? 100.0 * static_cast<double>(s.executions()) / est : 0.0);
  }
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
    std::printf("explore %s %s %s: %s\n", subject_name, name.c_str(), mn, s.failure.c_str());
    std::string line = env + argv0 + " replay " + name + " " + marg + " " + s.path;
    std::printf("replay: %s\n", line.c_str());
    std::fflush(stdout);
    std::string abs = line;  // the page names the binary by its absolute path
#ifdef RUNQCHECK_PICTURES
    if (std::size_t at = abs.find(argv0); at != std::string::npos)
      abs.replace(at, std::strlen(argv0), runqcheck::fuzz::self_path());
#endif
    std::string err;
    std::string html = take_picture(sc, m, s.path, abs, err);
    if (html.empty())
      std::printf("picture: none (%s)\n", err.c_str());
    else
      std::printf("picture: %s%s%s\n", html.c_str(), err.empty() ? "" : "  ", err.c_str());
  }
  // Exhausted with no complete execution: every execution blocked (a spin that
  // reads nothing new), so the scenario cannot end and its checks never ran.
  bool none_complete = !s.failed && s.exhausted && s.complete == 0 && a.replay.empty() &&
                       a.shards <= 1;
  if (none_complete) {
    std::printf("explore %s %s %s: FAILED: no execution completes (all %s blocked: the "
                "scenario cannot end, so its end checks never ran)\n",
                subject_name, name.c_str(), mn, fmt(s.blocked).c_str());
    std::printf("reproduce: %sRUNQCHECK_CASE=%s %s %s\n", env.c_str(), name.c_str(), argv0,
                marg);
  }
  std::fflush(stdout);
  bool ok = !s.failed && !none_complete && (s.exhausted || !a.replay.empty());
  if (a.crosscheck && ok && sc.expect_fatal.empty()) {
    ex::options n = o;
    n.naive = true;
    n.budget = 2'000'000;
    ex::stats r = explore(n);
    std::sort(s.hashes.begin(), s.hashes.end());
    std::sort(r.hashes.begin(), r.hashes.end());
    bool same = r.exhausted && s.hashes == r.hashes && s.duplicates == 0;
    std::printf("crosscheck %s %s %s: %s (%s graphs without reduction in %s executions%s)\n",
                subject_name, name.c_str(), mn, same ? "same graphs" : "DIFFERENT",
                fmt(r.hashes.size()).c_str(), fmt(r.executions()).c_str(),
                r.exhausted ? "" : ", NOT exhausted");
    ok &= same;
  }
  if (a.hash && s.duplicates > 0) ok = false;
  if (!a.replay.empty()) ok = !s.failed;
  return ok;
}

bool parse_model(const char* s, std::vector<ex::model>& v) {
  if (std::strcmp(s, "sc") == 0)
    v = {ex::model::sc};
  else if (std::strcmp(s, "rc11") == 0)
    v = {ex::model::rc11};
  else if (std::strcmp(s, "both") == 0)
    v = {ex::model::sc, ex::model::rc11};
  else
    return false;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const char* usage =
      "usage: %s [sc|rc11|both] [--budget N] [--seconds S] [--hash] [--crosscheck] [--shard I/N] "
      "[--estimate] | replay SCENARIO sc|rc11 PATH | list\n";
  if (argc == 2 && std::strcmp(argv[1], "list") == 0) {
    for (const auto& sc : model::catalog)
      std::printf("%-32s %zu threads, cap %u\n", std::string(sc.name).c_str(), sc.threads.size(),
                  sc.cap);
    return 0;
  }
  args a;
  const char* only = nullptr;
  int i = 1;
  if (argc >= 2 && std::strcmp(argv[1], "replay") == 0) {
    if (argc != 5 || !parse_model(argv[3], a.models)) {
      std::fprintf(stderr, usage, argv[0]);
      return 2;
    }
    only = argv[2];
    a.replay = argv[4];
    i = argc;
  }
  for (; i < argc; i++) {
    if (parse_model(argv[i], a.models)) continue;
    if (std::strcmp(argv[i], "--hash") == 0) {
      a.hash = true;
    } else if (std::strcmp(argv[i], "--crosscheck") == 0) {
      a.crosscheck = true;
    } else if (std::strcmp(argv[i], "--estimate") == 0) {
      a.estimate = true;
    } else if (std::strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
      char* end = nullptr;
      a.seconds = std::strtod(argv[++i], &end);
      if (*end != '\0' || !(a.seconds > 0)) {
        std::fprintf(stderr, "%s: --seconds: '%s' is not a positive number\n", argv[0], argv[i]);
        return 2;
      }
    } else if (std::strcmp(argv[i], "--shard") == 0 && i + 1 < argc) {
      int n = 0;
      if (std::sscanf(argv[++i], "%u/%u%n", &a.shard, &a.shards, &n) != 2 ||
          argv[i][n] != '\0' || a.shards == 0 || a.shard >= a.shards) {
        std::fprintf(stderr, "%s: --shard: '%s' is not I/N with 0 <= I < N\n", argv[0], argv[i]);
        return 2;
      }
    } else if (std::strcmp(argv[i], "--budget") == 0 && i + 1 < argc) {
      char* end = nullptr;
      a.budget = std::strtoull(argv[++i], &end, 10);
      if (*end != '\0' || a.budget == 0) {
        std::fprintf(stderr, "%s: --budget: '%s' is not a positive number\n", argv[0], argv[i]);
        return 2;
      }
    } else {
      std::fprintf(stderr, usage, argv[0]);
      return 2;
    }
  }
  model::observer = &obs;
  model::report_not_applied<subject_under_test<B, 4>>(subject_name, model::catalog, true);
  bool ok = true;
  int ran = 0;
  // RUNQCHECK_STOP_ON_FAIL (a kill cell, as relacy): rounds over the
  // scenarios, 500 executions each, then 8,000, then unbounded,
  // each running only what earlier rounds left open; the
  // search order is fixed, so a failure within a round is the full run's.
  const bool stop_on_fail = std::getenv("RUNQCHECK_STOP_ON_FAIL") != nullptr;
  std::vector<std::pair<const model::scenario*, ex::model>> open;
  for (const auto& sc : model::catalog) {
    std::string name(sc.name);
    if (only != nullptr ? name != only : !selected(name)) continue;
    ran++;
    if (!model::runs_as_written<subject_under_test<B, 4>>(sc)) continue;  // reported above
    for (ex::model m : a.models) open.emplace_back(&sc, m);
  }
  bool rounds = stop_on_fail && a.replay.empty() && !a.crosscheck;
  for (std::uint64_t probe = rounds ? 500 : 0; !open.empty() && (ok || !stop_on_fail);
       probe = probe >= 8000 ? 0 : probe * 16) {
    std::vector<std::pair<const model::scenario*, ex::model>> left;
    for (auto [sc, m] : open) {
      bool undecided = false;
      ok &= run_one(argv[0], *sc, m, a, probe, &undecided);
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
