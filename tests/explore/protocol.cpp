// The wakeup protocol's scenarios (models/protocol: the catalog, the world
// of Ps, Ms and sched around the go125 queues, the checks at quiescence)
// under the exploring engine (engine/): every
// consistent execution graph under SC and RC11, for the protocol subject
// under test (the bundled runqcheck::protocol, or a port's:
// runqcheck_add_protocol_subject builds explore_protocol__<name>).
//
// Usage: explore_protocol [sc|rc11|both] [--budget N] [--seconds S] [--hash]
//                         [--crosscheck] [--no-ipr] [--windows]
//        explore_protocol replay SCENARIO sc|rc11 PATH
//        explore_protocol list
//   RUNQCHECK_CASE=<scenario>[,...] runs those only (and the scenarios that
//   run only by name: Go's own windows, Go's lockless peek, then judged as
//   the others).
//   Go's own windows (by_name_only: Go 1.27 loses the wakeup too), in a run
//   that names no scenario: explored after the catalog, if it passed, within
//   the budget (without one, kWindowBudget executions a model), and
//   reported, never failed:
//   reached (as in Go; its replay and picture), closed (exhausted, never
//   reached) or not reached within the budget. --windows: those only (with
//   RUNQCHECK_CASE, those it names, still reported).
//   --budget N / --seconds S: per scenario and model; a scenario cut by it
//   says what it covered (no estimate of the whole), and passes as a sample
//   (never as exhausted); without a budget every scenario must exhaust.
//   --hash: no graph met twice; --crosscheck: the complete graphs are those
//   of plain TruSt (--no-ipr: without await in-place revisits).
//   --lock-classes: also counts the complete graphs' classes up to the
//   order of critical sections (what LAPOR would explore; a measure).
// Each M is one of the engine's threads. Only B::spin_pause blocks one (a
// parked M's note, a wait on a G's scan bit: spin-assume until a wakeup
// writes what it reads) and a taken lock: the engine's repeated-read rule
// is off (options::read_spins), as the protocol's straight-line code reads
// one line twice on purpose; a loop spinning without spin_pause is cut at
// the event bound (counted, not judged). A run whose Ms all wait for good
// ends there (options::waits_end): the world's quiescence, judged by its
// checks; an M that waits for good outside its park is a deadlock.
// A failure prints `replay:` (the same execution again) and `picture:`.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "protocol_prog.hpp"

namespace {

// One scenario under one model; prints its lines. True if it passed.
bool lock_classes = false;  // --lock-classes

// The classes line of run s (options::lock_classes): its complete graphs,
// the distinct ones up to the order of critical sections.
void print_lock_classes(const std::string& name, ex::model m, const ex::stats& s) {
  std::printf("lock classes %s %s %s: %s complete graphs, %s classes up to the order of "
              "critical sections%s\n",
              subject, name.c_str(), ex::model_name(m), cli::fmt(s.complete).c_str(),
              cli::fmt(s.hashes.size()).c_str(), s.exhausted ? "" : " (NOT exhausted)");
}

// Go's own window sc under m (main's top comment): a report line, never a
// failure. Its budget: the run's, kWindowBudget if it has none (the bundled
// protocol reaches go125_window_go_peek's after 17,213 SC and 29,529 RC11).
constexpr std::uint64_t kWindowBudget = 50000;

void run_window(const char* argv0, const proto_scenario& sc, ex::model m, const cli::args& a) {
  std::string name(sc.name);
  ex::options o = protocol_options(cli::options_of(a, m));
  if (a.budget == 0 && a.seconds <= 0) o.budget = kWindowBudget;
  cli::args shown = a;
  shown.budget = o.budget;
  world_t::unjudged_executions = 0;
  prog p(sc);
  ex::stats s = ex::explore(p, o);
  const char* mn = ex::model_name(m);
  cli::result r{argv0, "explore_protocol", subject, name, m, s, 0, 0};
  cli::report(r, shown, s.failed      ? "Go's window reached"
                        : s.exhausted ? "exhausted"
                                      : "NOT exhausted");
  if (s.failed) {
    std::string why = s.failure;  // its invariant, without the words a failure's line has
    for (const char* head : {"fatal error: ", "invariant: "})
      if (why.rfind(head, 0) == 0) why.erase(0, std::strlen(head));
    std::string line = cli::replay_line(argv0, name, m, s.path), err;
    std::string html =
        take_picture("explore_protocol", sc, m, s.path, cli::absolute(line, argv0), err);
    std::printf("runqcheck: report: Go's own window %s (%s): reached, as in Go 1.27 "
                "(docs/proofs.md), after %s execution%s: %s; replay: %s; picture: %s\n",
                name.c_str(), mn, cli::fmt(s.executions()).c_str(),
                s.executions() == 1 ? "" : "s", why.c_str(), line.c_str(),
                html.empty() ? ("none (" + err + ")").c_str() : html.c_str());
  } else if (s.exhausted) {
    std::uint64_t unjudged = world_t::unjudged_executions;
    std::printf("runqcheck: report: Go's own window %s (%s): closed: all %s complete "
                "executions explored, none reaches it%s (Go 1.27's protocol does: "
                "docs/proofs.md)\n",
                name.c_str(), mn, cli::fmt(s.complete).c_str(),
                unjudged == 0 ? ""
                              : (" (" + cli::fmt(unjudged) + " reached newm: not judged)").c_str());
  } else {
    std::printf("runqcheck: report: Go's own window %s (%s): not reached within %s "
                "executions (not exhausted: open, as far as this search went)\n",
                name.c_str(), mn, cli::fmt(s.executions()).c_str());
  }
  std::fflush(stdout);
}

// The runs a budget cut (scenario and model): the summary's report.
std::vector<std::string> cut_runs;
// Complete executions explored, and those of them that reached newm (not
// judged): the summary's report of what the model columns did not check.
std::uint64_t complete_total = 0, unjudged_total = 0;

bool run_one(const char* argv0, const proto_scenario& sc, ex::model m, const cli::args& a) {
  std::string name(sc.name);
  if (report_missing<world_t>("explore_protocol", sc)) return true;
  ex::options o = protocol_options(cli::options_of(a, m));
  if (a.crosscheck) o.hash_graphs = true;
  if (lock_classes) o.hash_graphs = o.lock_classes = true;
  world_t::unjudged_executions = 0;
  auto explore = [&](const ex::options& with) {
    prog p(sc);
    return ex::explore(p, with);
  };
  ex::stats s = explore(o);
  // No estimate of a cut tree: random probes of these trees (most paths end
  // early, a few run long) gave 6,033 for a tree a 1,000-probe estimate put
  // at 276,105, and under RC11 less than the executions already explored.
  cli::result r{argv0, "explore_protocol", subject, name, m, s, 0, 0};
  bool ok = cli::report(r, a);
  if (lock_classes) print_lock_classes(name, m, s);
  // A budget given is the gate's bound: a scenario it cut passes with the
  // coverage line above (a sample, as Relacy's random search), not as
  // "exhausted"; without one, only an exhausted scenario passes.
  bool cut = !s.failed && !s.exhausted && a.replay.empty() && (a.budget != 0 || a.seconds > 0);
  ok = ok || cut;
  if (cut) cut_runs.push_back(name + " " + ex::model_name(m));
  complete_total += s.complete;
  unjudged_total += world_t::unjudged_executions;
  if (sc.newm_unjudged || world_t::unjudged_executions > 0)
    std::printf("explore_protocol %s %s %s: %llu complete executions reached newm (no spare M): "
                "not judged%s\n",
                subject, name.c_str(), ex::model_name(m),
                static_cast<unsigned long long>(world_t::unjudged_executions),
                sc.newm_unjudged ? "" : " (the protocol starts an M more than the scenario has)");
  if (s.complete > 0 && world_t::unjudged_executions == s.complete)
    std::printf("runqcheck: report: explore_protocol %s (%s): none of its %s complete "
                "executions was judged: every one started an M the scenario has none for "
                "(newm)\n",
                name.c_str(), ex::model_name(m), cli::fmt(s.complete).c_str());
  if (s.failed) {
    std::string line = cli::replay_line(argv0, name, m, s.path);
    std::printf("replay: %s\n", line.c_str());
    std::fflush(stdout);
    std::string err, cause;
    std::vector<std::string> at;
    std::string html = take_picture("explore_protocol", sc, m, s.path,
                                    cli::absolute(line, argv0), err, &cause, &at);
    cli::print_picture(html, err);
    if (!cause.empty())  // named as the run's own lines name it
      cause = std::string("explore_protocol ") + subject + " " + name + " " +
              ex::model_name(m) + ": " + cause;
    cli::print_cause(cause, at);
  }
  if (a.crosscheck && !s.failed && o.ipr) {
    ex::options q = o;
    q.ipr = false;
    ex::stats c = explore(q);
    ok &= cli::same_as_plain("explore_protocol", subject, name, m, s, c);
  }
  if (a.hash && s.duplicates > 0) ok = false;
  std::fflush(stdout);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  // Line by line: a run a timeout kills (ctest's) still shows the lines it printed.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  if (argc == 2 && std::strcmp(argv[1], "list") == 0) {
    for (const auto& sc : catalog)
      std::printf("%-28s %zu Ms, %d Ps%s\n", std::string(sc.name).c_str(), sc.ms.size(),
                  sc.nprocs, by_name_only(sc) ? " (by name only)" : "");
    return 0;
  }
  cli::args a;
  std::string only;
  bool windows_only = false;
  for (int i = 1; i < argc; i++) {  // ours, taken out before cli::parse
    bool* flag = std::strcmp(argv[i], "--lock-classes") == 0 ? &lock_classes
                 : std::strcmp(argv[i], "--windows") == 0    ? &windows_only
                                                              : nullptr;
    if (flag == nullptr) continue;
    *flag = true;
    std::copy(argv + i + 1, argv + argc, argv + i);
    argc--, i--;
  }
  if (int rc = cli::parse(argc, argv, a, only, false, " [--windows] [--lock-classes]"); rc >= 0)
    return rc;
  if (lock_classes && (a.hash || a.crosscheck)) {
    std::fprintf(stderr, "%s: --lock-classes counts graphs met per class: not with --hash or "
                 "--crosscheck\n", argv[0]);
    return 2;
  }
  bool ok = true;
  int ran = 0, not_applied = 0, skipped = 0;  // ran: selected, of which the others
  const bool named = std::getenv("RUNQCHECK_CASE") != nullptr;
  const bool stop_on_fail = std::getenv("RUNQCHECK_STOP_ON_FAIL") != nullptr;
  if (windows_only && !a.replay.empty()) {
    std::fprintf(stderr, "%s: --windows reports Go's own windows: not with replay\n", argv[0]);
    return 2;
  }
  std::vector<const proto_scenario*> windows;  // Go's own, reported after the catalog
  for (const auto& sc : catalog) {
    std::string name(sc.name);
    if (!only.empty() ? name != only : !cli::selected(name)) continue;
    if (by_name_only(sc) && ((!named && only.empty()) || windows_only)) {
      windows.push_back(&sc);
      continue;
    }
    if (windows_only) continue;
    ran++;
    if (report_missing<world_t>("explore_protocol", sc)) {  // once, not once per model
      not_applied++;
      continue;
    }
    for (ex::model m : a.models) {
      ok &= run_one(argv[0], sc, m, a);
      if (!ok && stop_on_fail) break;
    }
    if (!ok && stop_on_fail) break;
  }
  int reported = 0;
  for (const proto_scenario* sc : windows) {
    std::string name(sc->name);
    if (!ok) {
      std::printf("explore_protocol %s %s: not run (Go's own window: reported on a protocol "
                  "that passes the rest)\n", subject, name.c_str());
      skipped++;
    } else if (report_missing<world_t>("explore_protocol", *sc)) {
      not_applied++;
    } else {
      for (ex::model m : a.models) run_window(argv[0], *sc, m, a);
      reported++;
    }
    ran++;
  }
  if (ran == 0) {
    std::fprintf(stderr, "%s: no scenario named '%s' (see: %s list)\n", argv[0],
                 !only.empty() ? only.c_str() : std::getenv("RUNQCHECK_CASE"), argv[0]);
    return 2;
  }
  // Only the scenarios explored pass or fail: say how many the others were.
  std::printf("%s: %d scenarios explored (%d not applied, %d skipped), %s", argv[0],
              ran - not_applied - skipped, not_applied, skipped, ok ? "all passed" : "FAILED");
  if (reported > 0) std::printf("; %d of them Go's own windows, reported", reported);
  std::printf("\n");
  if (ok && !cut_runs.empty()) {  // the verdict's reports: what was a sample
    std::string runs;
    for (const std::string& r : cut_runs) runs += (runs.empty() ? "" : ", ") + r;
    std::printf("runqcheck: report: exhaustive protocol: %zu scenario runs not exhausted within "
                "the budget (passed where explored): %s\n",
                cut_runs.size(), runs.c_str());
  }
  if (ok && unjudged_total > 0) print_unjudged("exhaustive protocol", unjudged_total,
                                               complete_total);
  return ok ? 0 : 1;
}
