// tests/relacy/picture.hpp — a Relacy scenario's execution as a picture: the
// swimlane page of `runqcheck explain` (fuzz/explain/swimlane.html), drawn by
// the scenario binary itself, since a user's subject is not compiled into
// the runqcheck command line.
//
// The execution is re-run once from its Relacy state (random: the iteration;
// bound, full: the search-tree path) under Relacy's own scheduler, wrapped
// (traced_scheduler) so that it runs exactly that one execution and reports
// every weak-memory load choice. Relacy decides how many stores back a load
// reads by asking its scheduler rand(2, sched_type_atomic_load) once per step
// back; the wrapper counts the non-zero answers per thread, which is what the
// fuzzer's recorder (runqcheck_fuzz/trace.hpp) needs: reads-from is exact,
// the same recorder and page as for fuzz seeds.
//
// A failing search (driver.hpp) writes, in $RUNQCHECK_FAILURE_DIR or else
// <build>/failures (the binary's bin/ folder's parent):
//   <checker>__<subject>__<scenario>.html   the page
//   <checker>__<subject>__<scenario>.replay the replay command and binary
//                                          (runqcheck replay|explain FILE)
// where <checker> is relacy_scenarios, relacy_scenarios_bound<K> or
// relacy_scenarios_full (the CTest names; relacy_protocol[_mutant][_bound<K>]
// for the wakeup protocol, subject "protocol"), plus __<mutant> on a mutant.
// A suite names its own objects (trace_begin) and may give its lane heads
// (picture_lanes()); the queue scenarios name their world (trace_before).
// Include after std headers and exec.hpp; pulls in relacy.hpp.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "runqcheck_fuzz/page.hpp"

namespace rqtest {

namespace fz = runqcheck::fuzz;

// The recorder while a picture is being taken (the suites' hooks below).
inline fz::recorder* tracing = nullptr;

inline fz::recorder& the_recorder() {
  static fz::recorder r;  // large (static storage); made once, outside any simulation
  return r;
}

// Suite hooks: before() starts a fresh record (every execution: the
// replayed one is the last) and names the suite's objects with
// name_objects(recorder&) (recorder::name, owner, name_p); thread() and
// after() mark the phase. No-ops unless a picture is being taken.
template <class F>
void trace_begin(F&& name_objects) {
  if (tracing == nullptr) return;
  tracing->reset();
  name_objects(*tracing);
  tracing->set_phase(fz::recorder::phase::setup);
}
// The queue scenarios' before(): the world's variables (recorder::name_world).
template <class W>
void trace_before(W& w, int nprocs, int ngs) {
  trace_begin([&](fz::recorder& r) { r.name_world(w, nprocs, ngs); });
}
inline void trace_phase(fz::recorder::phase ph) {
  if (tracing != nullptr) tracing->set_phase(ph);
}
// A suite's own step on the running thread's lane (recorder::step).
inline void trace_step(bool begin, const char* text, const char* func) {
  if (tracing != nullptr) tracing->step(begin, text, func);
}

// The page's lane heads: suite T's own (a static picture_lanes()), else
// the queue scenario's threads.
template <class T>
void suite_lanes(fz::trace_info& info) {
  if constexpr (requires { T::picture_lanes(); }) info.lanes = T::picture_lanes();
}

// Relacy's scheduler S, running one execution and reporting its choices.
// The context calls these members on its scheduler object; they hide S's.
template <class S>
class traced_scheduler : public S {
 public:
  using S::S;
  rl::thread_id_t iteration_begin(rl::iteration_t iter) { return ran(S::iteration_begin(iter)); }
  rl::thread_id_t schedule(rl::unpark_reason& reason, unsigned yield) {
    return ran(S::schedule(reason, yield));
  }
  unsigned rand(unsigned limit, rl::sched_type t) {
    unsigned v = S::rand(limit, t);
    int th = static_cast<int>(rl::thread_index());
    if (t == rl::sched_type_atomic_load && v != 0 && th >= 0 &&
        th < static_cast<int>(fz::kMaxThreads))
      fz::current_choices().stale[th]++;  // one store further back
    return v;
  }
  bool iteration_end() {
    S::iteration_end();
    return true;  // exactly one execution, whatever its verdict
  }

 private:
  static rl::thread_id_t ran(rl::thread_id_t th) {
    fz::current_choices().current_thread = static_cast<int>(th);
    return th;
  }
};

struct traced_run {
  bool failed = false;
  std::string message;
  std::string json;
  std::string culprit;  // FILE:LINE of the access the message blames, or ""
};

// Re-runs the execution at p.initial_state of suite T under the search type
// of p, recording it; returns its trace JSON.
template <class T>
traced_run trace_execution(rl::test_params p, fz::trace_info info) {
  constexpr rl::thread_id_t N = T::params::thread_count;
  fz::recorder& rec = the_recorder();
  rec.reset();
  fz::current_choices().reset(nullptr, 0);
  tracing = &rec;
  runqcheck::model::observer = &rec;
  runqcheck::relacy::observer = &rec;  // also the mutant backend's (it derives from relacy)
  static std::ostream sink(nullptr);   // no buffer: Relacy's own report was printed by the search
  p.output_stream = p.progress_stream = &sink;
  p.collect_history = false;
  p.output_history = false;
  // execution_depth_limit stays the failed run's: past it Relacy reports LIVELOCK, so a
  // larger limit would let the re-run of a livelock go on and pass.
  rl::ostringstream oss;  // Relacy writes the state here with its own allocator active
  rl::test_result_e res;
  switch (p.search_type) {
    case rl::random_scheduler_type:
      res = rl::run_test<T, traced_scheduler<rl::random_scheduler<N>>>(p, oss, false);
      break;
    case rl::fair_context_bound_scheduler_type:
      res = rl::run_test<T, traced_scheduler<rl::context_bound_scheduler<N>>>(p, oss, false);
      break;
    default:
      res = rl::run_test<T, traced_scheduler<rl::full_search_scheduler<N>>>(p, oss, false);
  }
  tracing = nullptr;
  runqcheck::model::observer = nullptr;
  runqcheck::relacy::observer = nullptr;
  rec.resolve_fields();  // after the run: it allocates
  traced_run out;
  if (res != rl::test_result_success) {
    out.failed = true;
    out.message = fz::failure_message(rec, res, fz::current_choices().current_thread);
    if (int c = rec.culprit(); c >= 0 && rec.at(c).line > 0)
      out.culprit = std::string(rec.at(c).path) + ":" + std::to_string(rec.at(c).line);
  }
  info.failed = out.failed;
  info.message = out.message;
  out.json = fz::trace_json(info, rec);
  return out;
}

using fz::failure_dir;
using fz::self_path;

// The checker as CTest names it: the binary's name up to "__<subject>", and
// the search (relacy_scenarios, relacy_scenarios_bound2, relacy_scenarios_full).
inline std::string checker_name(const char* prog, const rl::test_params& p) {
  std::string c = prog;
  c = c.substr(c.rfind('/') + 1);
  c = c.substr(0, c.find("__"));
  if (p.search_type == rl::fair_context_bound_scheduler_type)
    c += "_bound" + std::to_string(p.context_bound);
  if (p.search_type == rl::fair_full_search_scheduler_type) c += "_full";
  return c;
}

// After a failing search: the failing execution's page and replay file.
// Returns the page's absolute path, or "" with err set; cause: the failure as
// the traced re-run says it (a data race's accesses and hand-over named); culprit: the
// FILE:LINE of the access it blames.
template <class T>
std::string take_picture(const char* prog, const runqcheck::model::scenario& sc,
                         const char* subject, const std::string& mode,
                         const rl::test_params& failed, const std::string& replay_line,
                         std::string& err, std::string& cause, bool write = true,
                         std::string* culprit = nullptr) {
  std::string dir = write ? failure_dir(err) : std::string(".");
  if (dir.empty()) return "";
  const char* mut = std::getenv("RUNQCHECK_MUTANT");
  std::string mutant = mut != nullptr ? mut : "";
  std::string base =
      dir + "/" + checker_name(prog, failed) + "__" + subject + "__" + std::string(sc.name);
  if (!mutant.empty()) {
    std::string m = mutant;
    std::replace(m.begin(), m.end(), ':', '-');
    std::replace(m.begin(), m.end(), '/', '-');
    base += "__" + m;
  }
  const std::string state = failed.final_state.c_str();  // Relacy's string has its own allocator
  fz::trace_info info;
  info.sc = &sc;
  info.subject = subject;
  // The seed as the replay line names it ('...' or a long state's @FILE, driver.hpp).
  const std::size_t named = replay_line.rfind(" " + mode + " ");
  info.seed = named == std::string::npos ? mode + " '" + state + "'"
                                         : replay_line.substr(named + 1);
  info.command = replay_line;
  if (std::size_t at = replay_line.find(prog);
      at != std::string::npos)  // the binary by its absolute path
    info.command.replace(at, std::strlen(prog), self_path());
  info.mutant = mutant;
  info.checker = checker_name(prog, failed);
  info.scenario = std::string(sc.name);
  suite_lanes<T>(info);
  rl::test_params p = failed;
  p.initial_state = state.c_str();
  traced_run t = trace_execution<T>(p, info);
  cause = t.message;  // a data race with its accesses named (fuzz::recorder::failure)
  if (culprit != nullptr) *culprit = t.culprit;
  if (!write) return "";
  if (err = fz::write_page(base + ".html", t.json); !err.empty()) return "";
  // The replay file: `key value` lines (runqcheck replay|explain FILE.replay).
  std::ofstream r(base + ".replay");
  r << "runqcheck-replay 1\n"
    << "binary " << self_path() << "\n"
    << "case " << sc.name << "\n"
    << "mode " << mode << "\n"
    << "state " << state << "\n";
  if (!mutant.empty()) r << "mutant " << mutant << "\n";
  r << "command " << info.command << "\n";
  r.close();
  if (!r) {
    err = "cannot write " + base + ".replay";
    return "";
  }
  if (!t.failed) err = "WARNING: the traced re-run of this execution passed";
  return base + ".html";
}

}  // namespace rqtest
