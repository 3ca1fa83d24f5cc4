// The wakeup protocol's scenarios (tests/relacy/protocol_world.hpp: the
// catalog, the world of Ps, Ms and sched around the go125 queues, the checks
// at quiescence) under the exploring engine (models/explore): every
// consistent execution graph under SC and RC11, for the protocol subject
// under test (the bundled runqcheck::protocol, or a port's:
// runqcheck_add_protocol_subject builds explore_protocol__<name>).
//
// Usage: explore_protocol [sc|rc11|both] [--budget N] [--seconds S] [--hash]
//                         [--crosscheck] [--no-ipr]
//        explore_protocol replay SCENARIO sc|rc11 PATH
//        explore_protocol list
//   RUNQCHECK_CASE=<scenario>[,...] runs those only (and the scenarios that
//   run only by name: Go's own windows, Go's lockless peek).
//   --budget N / --seconds S: per scenario and model; a scenario cut by it
//   says what it covered (no estimate of the whole), and passes as a sample
//   (never as exhausted); without a budget every scenario must exhaust.
//   --hash: no graph met twice; --crosscheck: the complete graphs are those
//   of plain TruSt (--no-ipr: without await in-place revisits).
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

#include "runqcheck/backend/explore.hpp"
#include "explore/engine.hpp"
#ifdef RUNQCHECK_PICTURES
#include "picture.hpp"
#endif

#define RQPROTO_BACKEND runqcheck::explore_backend
#include "protocol_world.hpp"
#if __has_include(<runqcheck_protocol_subject.hpp>)
#include <runqcheck_protocol_subject.hpp>  // protocol_under_test, RUNQCHECK_PROTOCOL_SUBJECT
#else
template <class Env>
using protocol_under_test = runqcheck::protocol<Env>;
#define RUNQCHECK_PROTOCOL_SUBJECT "protocol"
#endif

#include "cli.hpp"

namespace {

namespace ex = runqcheck::explore;
namespace cli = runqcheck::explore::cli;
using namespace rqproto;
using PS = world<protocol_under_test>::proto;
const char* const subject = RUNQCHECK_PROTOCOL_SUBJECT;

#ifdef RUNQCHECK_PICTURES
using picture = ex::picture;
#else
struct picture {};  // built without fuzz/explain: no pictures
#endif

// One run of a scenario: the world made afresh, an M per thread, the
// quiescence checks after them.
struct prog final : ex::program {
  const proto_scenario& sc;
  std::optional<world<protocol_under_test>> w;
  picture* pic = nullptr;  // the picture being taken (each run starts it afresh)
  bool finishing = false;  // in the final check (a failure there is no M's)
  explicit prog(const proto_scenario& s) : sc(s) {}
  int threads() const override { return static_cast<int>(sc.ms.size()); }
  void setup() override {
    w.emplace(sc);
    W<protocol_under_test> = &*w;
#ifdef RUNQCHECK_PICTURES
    if (pic != nullptr) {
      pic->begin(threads());
      name_objects(*pic, *w);
    }
#endif
    finishing = false;
    w->init();
  }
  void run(int t) override { w->run(t); }
  void finish() override {
    finishing = true;
    w->check();
  }
  void teardown() override {
    w.reset();
    W<protocol_under_test> = nullptr;
  }
};

// The engine's options for the protocol: the repeated-read rule off, as the
// protocol's straight-line code repeats reads (engine.hpp, options::read_spins).
ex::options protocol_options(ex::options o) {
  o.read_spins = false;
  o.waits_end = true;  // parked Ms at quiescence: the run's end (protocol_world's check)
  return o;
}

#ifdef RUNQCHECK_PICTURES
// Re-runs the failing execution at path alone, recording it, and writes its
// page: a lane per M. Returns the page's path, or "" with err set.
std::string take_picture(const proto_scenario& sc, ex::model m, const std::string& path,
                         const std::string& replay_line, std::string& err) {
  std::string base = cli::page_base("explore_protocol", subject, sc.name, m, err);
  if (base.empty()) return "";
  picture pic;
  ex::options o = protocol_options({});
  o.m = m;
  o.replay = path;
  o.on_access = [&](int t, const ex::event& e, const ex::request& q) { pic.access(t, e, q); };
  prog p(sc);
  p.pic = &pic;
  ex::engine<> e(p, o);
  ex::stats r = e.run();
  runqcheck::model::scenario info_sc;  // the page's header: the scenario's shape
  info_sc.name = sc.name;
  info_sc.targets = sc.targets;
  info_sc.cap = cap;
  info_sc.nprocs = sc.nprocs;
  runqcheck::fuzz::trace_info info;
  info.sc = &info_sc;
  info.subject = subject;
  info.checker = "explore_protocol";
  info.scenario = std::string(sc.name);
  for (std::size_t i = 0; i < sc.ms.size(); i++) info.lanes.push_back(m_lane(sc, i));
  return cli::write_failure_page(pic, r, p.finishing, info, m, path, replay_line, base, err);
}
#else
std::string take_picture(const proto_scenario&, ex::model, const std::string&,
                         const std::string&, std::string& err) {
  err = "built without the page template (fuzz/explain)";
  return "";
}
#endif

// One scenario under one model; prints its lines. True if it passed.
bool run_one(const char* argv0, const proto_scenario& sc, ex::model m, const cli::args& a) {
  std::string name(sc.name);
  if (const char* why = missing_hook<PS>(sc)) {
    std::printf("runqcheck: not applied: explore_protocol %s: %s (subject %s)\n", name.c_str(),
                why, subject);
    return true;
  }
  ex::options o = protocol_options(cli::options_of(a, m));
  if (a.crosscheck) o.hash_graphs = true;
  unjudged_executions = 0;
  auto explore = [&](const ex::options& with) {
    prog p(sc);
    ex::engine<> e(p, with);
    return e.run();
  };
  ex::stats s = explore(o);
  // No estimate of a cut tree: random probes of these trees (most paths end
  // early, a few run long) gave 6,033 for a tree a 1,000-probe estimate put
  // at 276,105, and under RC11 less than the executions already explored.
  cli::result r{argv0, "explore_protocol", subject, name, m, s, 0, 0};
  bool ok = cli::report(r, a);
  // A budget given is the gate's bound: a scenario it cut passes with the
  // coverage line above (a sample, as Relacy's random search), not as
  // "exhausted"; without one, only an exhausted scenario passes.
  bool cut = !s.failed && !s.exhausted && a.replay.empty() && (a.budget != 0 || a.seconds > 0);
  ok = ok || cut;
  if (sc.newm_unjudged || unjudged_executions > 0)
    std::printf("explore_protocol %s %s %s: %llu complete executions reached newm (no spare M): "
                "not judged%s\n",
                subject, name.c_str(), ex::model_name(m),
                static_cast<unsigned long long>(unjudged_executions),
                sc.newm_unjudged ? "" : " (the protocol starts an M more than the scenario has)");
  if (s.failed) {
    std::string line = cli::replay_line(argv0, name, m, s.path);
    std::printf("replay: %s\n", line.c_str());
    std::fflush(stdout);
    std::string err;
    std::string html = take_picture(sc, m, s.path, cli::absolute(line, argv0), err);
    cli::print_picture(html, err);
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
  if (argc == 2 && std::strcmp(argv[1], "list") == 0) {
    for (const auto& sc : catalog)
      std::printf("%-28s %zu Ms, %d Ps%s\n", std::string(sc.name).c_str(), sc.ms.size(),
                  sc.nprocs, by_name_only(sc) ? " (by name only)" : "");
    return 0;
  }
  cli::args a;
  std::string only;
  if (int rc = cli::parse(argc, argv, a, only, false); rc >= 0) return rc;
  bool ok = true;
  int ran = 0;
  const bool named = std::getenv("RUNQCHECK_CASE") != nullptr;
  const bool stop_on_fail = std::getenv("RUNQCHECK_STOP_ON_FAIL") != nullptr;
  for (const auto& sc : catalog) {
    std::string name(sc.name);
    if (!only.empty() ? name != only : !cli::selected(name)) continue;
    ran++;
    if (by_name_only(sc) && !named && only.empty()) {
      std::printf("explore_protocol %s %s: skipped (runs only by name)\n", subject, name.c_str());
      continue;
    }
    for (ex::model m : a.models) {
      ok &= run_one(argv[0], sc, m, a);
      if (!ok && stop_on_fail) break;
    }
    if (!ok && stop_on_fail) break;
  }
  if (ran == 0) {
    std::fprintf(stderr, "%s: no scenario named '%s' (see: %s list)\n", argv[0],
                 !only.empty() ? only.c_str() : std::getenv("RUNQCHECK_CASE"), argv[0]);
    return 2;
  }
  std::printf("%s: %d scenarios, %s\n", argv[0], ran, ok ? "all passed" : "FAILED");
  return ok ? 0 : 1;
}
