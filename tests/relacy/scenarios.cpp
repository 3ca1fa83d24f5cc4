// Relacy harness for the scenario catalog (models/scenarios): every scenario,
// run against the subject under test with ring capacity 4, its invariants
// checked after each execution (exec.hpp).
//
// Usage: relacy_scenarios [random N | bound K | full [--shard i/N] | replay MODE STATE
//                         | explain MODE STATE --html OUT [--json OUT]]
//        RUNQCHECK_CASE=<scenario>[,...] runs those, RUNQCHECK_SKIP_CASE=<scenario>[,...]
//        all others; `relacy_scenarios list` lists;
//        RUNQCHECK_STOP_ON_FAIL=1 stops at the first failing scenario.
//        A failing search also writes the failing execution's picture
//        (picture.hpp) and prints `picture: <page>`.
#include <chrono>
#include <cstring>
#include <optional>
#include <string>

#include "catalog.hpp"
#include "exec.hpp"
#include "hooks.hpp"
#include "runqcheck_subject.hpp"
#include "driver.hpp"

namespace {

using B = runqcheck::relacy;
namespace model = runqcheck::model;

const model::scenario* current = nullptr;

template <unsigned N, std::uint32_t Cap>
struct suite : rl::test_suite<suite<N, Cap>, N> {
  model::world<subject_under_test<B, Cap>, B> w{*current};
#ifdef RUNQCHECK_PICTURES
  using ph = runqcheck::fuzz::recorder::phase;
  void before() {
    rqtest::trace_before(w, current->nprocs, current->ngs);
    w.init();
  }
  void thread(unsigned idx) {
    rqtest::trace_phase(ph::run);
    w.run(static_cast<int>(idx));
  }
  void after() {
    rqtest::trace_phase(ph::final);
    w.check();
  }
#else
  void before() { w.init(); }
  void thread(unsigned idx) { w.run(static_cast<int>(idx)); }
  void after() { w.check(); }
#endif
};

// For a port without S::set_runq_counters: whether its counters are found
// by behaviour (models/scenarios/counters.hpp), tried once on a fresh P in
// before() of a one-execution simulation: "" found, else why
// not. The wrap scenarios run where it finds them (hooks.hpp).
// (Relacy's heap checks every free of a simulation: no std::string made
// outside it may be reassigned inside.)
using S4 = subject_under_test<B, 4>;
char finder_why[512];
struct finder : rl::test_suite<finder, 2> {  // (Relacy warns of 1 thread)
  std::optional<typename S4::schedt> sched;
  std::optional<runqcheck::g<B>> probe;
  std::optional<typename S4::p> pp;
  void before() {
    sched.emplace(1);
    probe.emplace(1000);
    pp.emplace(*sched, 0);
    std::snprintf(finder_why, sizeof finder_why, "%s",
                  model::find_counters<S4, B>(*pp, *probe).why.c_str());
  }
  void thread(unsigned) {}
};
std::string counters_unfound() {
  if constexpr (runqcheck::has_set_runq_counters<S4>) {
    return "";
  } else {
    std::snprintf(finder_why, sizeof finder_why, "the set-up did not run");
    rl::test_params p;
    p.iteration_count = 1;
    static rqtest::fixed_buffer buf;
    static std::ostream quiet(&buf);
    buf.reset();
    p.output_stream = p.progress_stream = &quiet;
    if (rl::simulate<finder>(p)) return finder_why;
    std::string report(buf.view());  // its first line that says something
    std::size_t b = report.find_first_not_of("\n ");
    b = b == std::string::npos ? report.size() : b;
    return "the port failed on a fresh P: " + report.substr(b, report.find('\n', b) - b);
  }
}

// One scenario under the search. Only the catalog's shapes are built (ring
// capacity 4; 2 or 3 threads): each suite type instantiates Relacy's context
// and schedulers, most of this file's compile time, and the shapes no scenario
// has once doubled it. Another shape is an error, named.
bool run_scenario(const char* prog, const model::scenario& sc, rqtest::search& s) {
  std::string what = std::string(subject_name) + ": " + std::string(sc.targets);
  if (sc.cap == 4) {
    switch (sc.threads.size()) {
      case 2: return rqtest::run<suite<2, 4>>(prog, sc, subject_name, what.c_str(), s);
      case 3: return rqtest::run<suite<3, 4>>(prog, sc, subject_name, what.c_str(), s);
    }
  }
  std::fprintf(stderr, "%s: scenario %s: cap %u, %zu threads: this runner builds cap 4 with 2 or "
               "3 threads\n", prog, std::string(sc.name).c_str(), sc.cap, sc.threads.size());
  return false;
}

// Every name in RUNQCHECK_SKIP_CASE is a scenario of the catalog (a typo
// would run the scenario it meant to skip: one line, exit 2 instead).
bool skip_names_known(const char* prog) {
  const char* v = std::getenv("RUNQCHECK_SKIP_CASE");
  if (v == nullptr) return true;
  std::string_view list(v);
  for (std::size_t pos = 0; pos < list.size();) {
    std::size_t end = list.find(',', pos);
    if (end == std::string_view::npos) end = list.size();
    std::string_view name = list.substr(pos, end - pos);
    bool known = false;
    for (const auto& sc : model::catalog) known |= sc.name == name;
    if (!known) {
      std::fprintf(stderr, "%s: RUNQCHECK_SKIP_CASE: no scenario named '%.*s' (see: %s list)\n",
                   prog, static_cast<int>(name.size()), name.data(), prog);
      return false;
    }
    pos = end + 1;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "list") == 0) {
    for (const auto& sc : model::catalog)
      std::printf("%-32s %zu threads, cap %u: %.*s\n", std::string(sc.name).c_str(),
                  sc.threads.size(), sc.cap, static_cast<int>(sc.targets.size()),
                  sc.targets.data());
    return 0;
  }
  rqtest::search search;
  if (!rqtest::parse(argc, argv, search)) return 2;
  if (!skip_names_known(argv[0])) return 2;
  bool ok = true;
  int ran = 0;
  const std::string unfound = counters_unfound();  // the wrap without the hook
  B::setup_finds_counters = unfound.empty();
  model::report_not_applied<S4>(subject_name, model::catalog, true, &unfound);
  for (const auto& sc : model::catalog) {
    if (!rqtest::selected(std::string(sc.name).c_str())) continue;
    if (!model::runs_as_written<S4>(sc, &unfound)) {
      if (search.mode == "explain") {
        std::fprintf(stderr, "%s: explain: scenario %s does not apply to subject %s (see above)\n",
                     argv[0], std::string(sc.name).c_str(), subject_name);
        return 2;
      }
      ran++;  // reported above as not applied
      continue;
    }
    current = &sc;
    ran++;
    ok &= run_scenario(argv[0], sc, search);
    if (!ok && std::getenv("RUNQCHECK_STOP_ON_FAIL") != nullptr) break;
  }
  if (ran == 0) {
    std::fprintf(stderr, "%s: no scenario named '%s' (see: %s list)\n", argv[0],
                 std::getenv("RUNQCHECK_CASE"), argv[0]);
    return 2;
  }
  if (search.mode == "explain") return 0;
  std::printf("%s: %d scenarios, %llu executions, %s\n", argv[0], ran, rqtest::total_executions(),
              ok ? "all passed" : "FAILED");
  return ok ? 0 : 1;
}
