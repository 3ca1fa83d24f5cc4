// tests/relacy/driver.hpp — the command line shared by the Relacy scenarios:
//
//   <scenario> [random N | bound K | full] [--shard i/N]
//                                                search (default: random 20000);
//                                                --shard: part i of N (shard.hpp)
//   <scenario> replay MODE STATE                 re-run one execution (MODE:
//                                                random, bound:K or full), printing
//                                                its full history
//   <scenario> explain MODE STATE --html OUT [--json OUT]
//                                                draw one execution (the
//                                                swimlane page of runqcheck
//                                                explain)
//
// On failure Relacy prints the execution history; the driver adds the one
// line that replays exactly that execution and, built with RUNQCHECK_PICTURES
// (fuzz/explain/explain.cmake), re-runs that execution once more with the
// trace recorder and writes its picture (picture.hpp). Include after std
// headers, exec.hpp and runqcheck_subject.hpp, as the last include (it pulls
// in relacy.hpp).
#pragma once

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

#ifdef RUNQCHECK_PICTURES
#include "picture.hpp"
#endif
#include "runqcheck/backend/relacy.hpp"
#include "shard.hpp"

namespace rqtest {

// Output captured without allocating: Relacy writes the failing history
// while its allocator is active, so a growing std::string would be freed by
// the wrong heap. Text past the buffer's end is dropped.
class fixed_buffer : public std::streambuf {
 public:
  fixed_buffer() { reset(); }
  void reset() { setp(buf_, buf_ + sizeof buf_ - 1); }
  std::string_view view() const { return {pbase(), static_cast<std::size_t>(pptr() - pbase())}; }

 protected:
  int_type overflow(int_type c) override { return c; }  // full: drop

 private:
  static inline char buf_[1 << 20];
};

struct search {
  rl::test_params params;
  std::string mode = "random";
  std::string state;               // replay, explain: the execution ('...' or @FILE's)
  std::string html_out, json_out;  // explain
};

// The search as the replay line names it: random, full, or bound:K (a
// bounded search's state means something only under its bound K).
inline std::string mode_name(const rl::test_params& p) {
  if (p.search_type == rl::random_scheduler_type) return "random";
  if (p.search_type == rl::fair_full_search_scheduler_type) return "full";
  return "bound:" + std::to_string(p.context_bound);
}

// A Relacy state: random, the iteration; bound and full, the iteration and
// the search tree "size (count index type)*size" (Relacy reads it unchecked).
inline bool state_ok(const std::string& state, bool tree) {
  if (state.find_first_not_of("0123456789 ") != std::string::npos) return false;
  std::vector<unsigned long long> v;
  std::size_t i = 0;
  while ((i = state.find_first_not_of(' ', i)) != std::string::npos) {
    std::size_t j = state.find(' ', i);
    if (j == std::string::npos) j = state.size();
    if (j - i > 18) return false;
    v.push_back(std::stoull(state.substr(i, j - i)));
    i = j;
  }
  if (!tree) return v.size() == 1;
  if (v.size() < 2 || v.size() != 2 + 3 * v[1]) return false;
  for (std::size_t k = 2; k < v.size(); k += 3)
    if (v[k] == 0 || v[k + 1] >= v[k]) return false;  // index < count
  return true;
}

// A state as the replay line names it: inline while short; a longer one (a
// bound-3 state runs to thousands of characters) saved in the failures folder
// as FILE and named @FILE, as loom's LOOM_CHECKPOINT_FILE (inline where built
// without the failures folder's code: an install without fuzz/explain; and
// where it cannot be saved, err then saying why).
// dir: the folder (default: the failures folder; explain: its page's).
inline std::string saved_state([[maybe_unused]] const std::string& prog,
                               [[maybe_unused]] std::string_view scenario,
                               [[maybe_unused]] const std::string& mode, const std::string& state,
                               [[maybe_unused]] std::string& err,
                               [[maybe_unused]] std::string dir = "") {
#ifndef RUNQCHECK_PICTURES
  return "'" + state + "'";
#else
  if (state.size() <= 120) return "'" + state + "'";
  if (dir.empty()) dir = runqcheck::fuzz::failure_dir(err);
  if (dir.empty()) return "'" + state + "'";
  std::string base = prog.substr(prog.rfind('/') + 1), m = mode;
  std::replace(m.begin(), m.end(), ':', '_');
  std::string path = dir + "/" + base + "__" + std::string(scenario) + "__" + m;
  if (const shard_spec& sh = current_shard(); sh.on())
    path += "__shard" + std::to_string(sh.i) + "of" + std::to_string(sh.n);
  path += ".state";
  std::ofstream f(path);
  f << state << "\n";
  f.close();
  if (!f) {
    err = "cannot write " + path;
    return "'" + state + "'";
  }
  return "@" + path;
#endif
}

// The state an argument names: itself, or @FILE's contents. false: no such file.
inline bool load_state(const char* arg, std::string& state) {
  if (arg[0] != '@') {
    state = arg;
    return true;
  }
  std::ifstream f(arg + 1);
  if (!f) return false;
  std::getline(f, state);
  return true;
}

// Parses argv into relacy parameters; returns false (after printing usage)
// on bad arguments.
inline bool parse(int argc, char** argv, search& s) {
  auto usage = [&] {
    std::fprintf(stderr,
                 "usage: %s [random N | bound K | full [--shard i/N] | replay random|bound:K|full"
                 " STATE | explain random|bound:K|full STATE --html OUT [--json OUT]]\n",
                 argv[0]);
    return false;
  };
  // --shard i/N, last, after a search.
  if (argc >= 3 && std::strcmp(argv[argc - 2], "--shard") == 0) {
    std::string m = argv[1];
    if (m != "random" && m != "bound" && m != "full") {
      std::fprintf(stderr, "%s: --shard: only for random, bound and full searches\n", argv[0]);
      return false;
    }
    if (!parse_shard(argv[argc - 1], current_shard())) {
      std::fprintf(stderr, "%s: --shard: '%s' is not i/N with 0 <= i < N\n", argv[0],
                   argv[argc - 1]);
      return false;
    }
    argc -= 2;
  }
  s.params.search_type = rl::random_scheduler_type;
  s.params.iteration_count = 20000;
  s.mode = argc > 1 ? argv[1] : "random";
  if (s.mode == "random" || s.mode == "bound") {
    if (argc > 3) return usage();
    if (s.mode == "bound") {
      s.params.search_type = rl::fair_context_bound_scheduler_type;
      s.params.context_bound = 3;
    }
    if (argc == 3) {
      char* end = nullptr;
      long v = std::strtol(argv[2], &end, 10);
      if (*end != '\0' || v <= 0) return usage();
      if (s.mode == "random") s.params.iteration_count = static_cast<rl::iteration_t>(v);
      else s.params.context_bound = static_cast<unsigned>(v);
    }
  } else if (s.mode == "full") {
    if (argc != 2) return usage();
    s.params.search_type = rl::fair_full_search_scheduler_type;
  } else if (s.mode == "replay" || s.mode == "explain") {
    if (s.mode == "replay" && argc != 4) return usage();
    if (s.mode == "explain") {
      if (argc < 4) return usage();
      for (int i = 4; i < argc; i += 2) {
        std::string_view f = argv[i];
        if (i + 1 >= argc || (f != "--html" && f != "--json")) return usage();
        (f == "--html" ? s.html_out : s.json_out) = argv[i + 1];
      }
      if (s.html_out.empty()) return usage();
      const char* c = std::getenv("RUNQCHECK_CASE");
      if (c == nullptr || *c == '\0' || std::strchr(c, ',') != nullptr) {
        std::fprintf(stderr, "%s: explain: set RUNQCHECK_CASE to the one scenario to draw\n",
                     argv[0]);
        return false;
      }
#ifndef RUNQCHECK_PICTURES
      std::fprintf(stderr, "%s: explain: built without the picture recorder (fuzz/explain)\n",
                   argv[0]);
      return false;
#endif
    }
    std::string m = argv[2];
    if (m == "random") {
      s.params.search_type = rl::random_scheduler_type;
    } else if (m == "bound" || m.starts_with("bound:")) {  // bound alone: the search's default, 3
      s.params.search_type = rl::fair_context_bound_scheduler_type;
      s.params.context_bound = 3;
      if (m != "bound") {
        char* end = nullptr;
        long k = std::strtol(m.c_str() + 6, &end, 10);
        if (*end != '\0' || k <= 0 || m.size() == 6) return usage();
        s.params.context_bound = static_cast<unsigned>(k);
      }
    } else if (m == "full") {
      s.params.search_type = rl::fair_full_search_scheduler_type;
    } else {
      return usage();
    }
    if (!load_state(argv[3], s.state)) {
      std::fprintf(stderr, "%s: %s: cannot read the state file %s\n", argv[0], s.mode.c_str(),
                   argv[3] + 1);
      return false;
    }
    s.params.initial_state = s.state;
    if (!state_ok(s.state, s.params.search_type != rl::random_scheduler_type)) {
      std::fprintf(stderr, "%s: %s: '%.200s' is not a Relacy state of this search\n", argv[0],
                   s.mode.c_str(), argv[3]);
      return false;
    }
    // The random scheduler's state is the iteration to run; it stops when
    // the iteration count is reached, so stop right after that one (a state
    // that no longer fails must not start an endless search). Bounded and
    // full searches resume from the state and end with the search.
    s.params.iteration_count = std::strtoull(s.state.c_str(), nullptr, 10) + 1;
  } else {
    return usage();
  }
  return true;
}

inline unsigned long long& total_executions() {
  static unsigned long long n = 0;
  return n;
}

// Is name in the comma-separated list of environment variable var? (Any
// caller; false if var is unset or empty.)
inline bool in_env_list(const char* var, std::string_view name) {
  const char* v = std::getenv(var);
  if (v == nullptr) return false;
  std::string_view list(v);
  for (std::size_t pos = 0; pos < list.size();) {
    std::size_t end = list.find(',', pos);
    if (end == std::string_view::npos) end = list.size();
    if (list.substr(pos, end - pos) == name) return true;
    pos = end + 1;
  }
  return false;
}

// A scenario binary may hold several cases; RUNQCHECK_CASE=<name>[,<name>…]
// runs those, RUNQCHECK_SKIP_CASE=<name>[,<name>…] all but those (the gate
// runs bound 3 but on the one scenario it costs minutes; cmake/checkers.cmake).
inline bool selected(const char* name) {
  if (in_env_list("RUNQCHECK_SKIP_CASE", name)) return false;
  const char* only = std::getenv("RUNQCHECK_CASE");
  if (only == nullptr || *only == '\0') return true;
  return in_env_list("RUNQCHECK_CASE", name);
}

#ifdef RUNQCHECK_PICTURES
// explain: draws the execution s.state of suite T; exits 2 on an error.
template <class T>
void explain(const char* prog, const runqcheck::model::scenario& sc, const char* subject,
             const search& s) {
  const char* mut = std::getenv("RUNQCHECK_MUTANT");
  fz::trace_info info;
  info.sc = &sc;
  info.subject = subject;
  // The state named as the failing run named it (a long one saved as @FILE, beside the
  // page: where the failing run saved it when its page is there too).
  std::string page_dir = s.html_out.substr(0, s.html_out.rfind('/') + 1);
  char abs[PATH_MAX];
  page_dir = ::realpath(page_dir.empty() ? "." : page_dir.c_str(), abs) ? abs : ".";
  std::string state_err,
      arg = saved_state(prog, sc.name, mode_name(s.params), s.state, state_err, page_dir);
  info.seed = mode_name(s.params) + " " + arg;
  info.command = "RUNQCHECK_CASE=" + std::string(sc.name) + " " +
                 (mut ? "RUNQCHECK_MUTANT=" + std::string(mut) + " " : "") + self_path() +
                 " replay " + mode_name(s.params) + " " + arg;
  info.mutant = mut != nullptr ? mut : "";
  info.checker = checker_name(prog, s.params);
  info.scenario = std::string(sc.name);
  suite_lanes<T>(info);
  traced_run t = trace_execution<T>(s.params, info);
  std::string err = fz::write_page(s.html_out, t.json);
  if (err.empty() && !s.json_out.empty()) {
    std::ofstream j(s.json_out);
    j << t.json;
    j.close();
    if (!j) err = "cannot write " + s.json_out;
  }
  if (!err.empty()) {
    std::fprintf(stderr, "%s: explain: %s\n", prog, err.c_str());
    std::exit(2);
  }
  std::printf("%s: %d steps, %s%s -> %s\n", std::string(sc.name).c_str(), the_recorder().nevents(),
              t.failed ? "FAILED: " : "passed", t.message.c_str(), s.html_out.c_str());
}
#endif

// Runs scenario sc as test suite T under the search; prints the verdict, the
// executions explored, executions/s and, on failure, the replay command and
// (with RUNQCHECK_PICTURES) the picture of the failing execution. Returns
// true if it passed (or was not selected). A scenario with expect_fatal set
// (Go's text) passes only if it fails with a fatal error of the port's (any
// text). In explain mode, draws s.state instead.
template <class T>
bool run(const char* prog, const runqcheck::model::scenario& sc,
         [[maybe_unused]] const char* subject, const char* what, search& s) {
  std::string name_s(sc.name);
  const char* name = name_s.c_str();
  std::string_view expect_fatal = sc.expect_fatal;
  if (!selected(name)) return true;
#ifdef RUNQCHECK_PICTURES
  if (s.mode == "explain") {
    explain<T>(prog, sc, subject, s);
    return true;
  }
#endif
  rl::test_params p = s.params;  // each suite starts from the same settings
  static fixed_buffer captured_buf;
  static std::ostream captured(&captured_buf);
  captured_buf.reset();
  if (!expect_fatal.empty()) p.output_stream = p.progress_stream = &captured;
  std::printf("%s: %s [%s], mode %s\n", prog, name, what, s.mode.c_str());
  std::fflush(stdout);
  runqcheck::relacy::fatal_text[0] = '\0';
  const shard_spec& sh = current_shard();
  // Relacy numbers iterations from 1 (context.hpp), or from the state's.
  // Random: this shard's iterations first..end-1 of 1..iteration_count.
  unsigned long long first = 1;
  if (sh.on() && p.search_type == rl::random_scheduler_type) {
    unsigned long long total = p.iteration_count;
    first = 1 + total * sh.i / sh.n;
    unsigned long long end = 1 + total * (sh.i + 1) / sh.n;
    if (end == first) {
      std::printf("%s: %s: passed after 0 executions (shard %u/%u is empty)\n", prog, name, sh.i,
                  sh.n);
      return true;
    }
    p.initial_state = std::to_string(first);
    p.iteration_count = static_cast<rl::iteration_t>(end - 1);
  } else if (!s.state.empty()) {  // replay: from the state's iteration
    first = std::strtoull(s.state.c_str(), nullptr, 10);
  }
  foreign_executions() = 0;
  auto t0 = std::chrono::steady_clock::now();
  bool ok = sh.on() && p.search_type != rl::random_scheduler_type ? simulate_shard<T>(p)
                                                                  : rl::simulate<T>(p);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // Executions run: iterations first..stop_iteration, less another shard's.
  auto execs = static_cast<unsigned long long>(p.stop_iteration) + 1 - first -
               foreign_executions();
  total_executions() += execs;
  if (!expect_fatal.empty()) {
    // A port's fatal error, recognised by its kind: a B::fatal of the port's,
    // not the harness's (an invariant, a backend's own check) nor Relacy's own
    // failures (deadlock, data race), which leave no fatal text. Go's text is
    // only shown as the example.
    std::string_view text(runqcheck::relacy::fatal_text);
    bool seen =
        !ok && !text.empty() && runqcheck::relacy::fatal_seen == runqcheck::fatal_kind::port;
    // Another failure came first (an invariant, a data race): its replay and
    // picture follow, as any failure's.
    bool other = !seen && !ok;
    std::string said = seen ? "seen " + std::string(text)
                       : !other     ? std::string("NOT seen")
                       : text.empty() ? std::string("NOT seen; instead: Relacy's report above")
                                      : "NOT seen; instead: " + std::string(text);
    std::printf("%s: %s: %s (expected a fatal error from the port, as Go's \"%.*s\": %s) after "
                "%llu executions\n",
                prog, name, seen ? "passed" : "FAILED", static_cast<int>(expect_fatal.size()),
                expect_fatal.data(), said.c_str(), execs);
    if (!seen) std::fwrite(captured_buf.view().data(), 1, captured_buf.view().size(), stdout);
    std::fflush(stdout);
    if (!other) return seen;
  } else {
    std::printf("%s: %s: %s after %llu executions, %.2fs, %.0f executions/s\n", prog, name,
                ok ? "passed" : "FAILED", execs, secs,
                secs > 0 ? static_cast<double>(execs) / secs : 0.0);
    if (foreign_executions() > 0)
      std::printf("%s: %s: shard %u/%u also ran %llu short executions of other shards\n", prog,
                  name, sh.i, sh.n, foreign_executions());
  }
  if (!ok) {
    const char* mut = std::getenv("RUNQCHECK_MUTANT");
    // A string, not a buffer: a bound-3 state runs to thousands of characters
    // (saved to a file then, named @FILE).
    std::string state_err;
    std::string state =
        saved_state(prog, name_s, mode_name(p), p.final_state.c_str(), state_err);
    std::string line = std::string("RUNQCHECK_CASE=") + name + " " +
                       (mut ? std::string("RUNQCHECK_MUTANT=") + mut + " " : std::string()) +
                       prog + " replay " + mode_name(p) + " " + state;
    if (state[0] == '@') std::printf("  saved: %s\n", state.c_str() + 1);  // an artifact
    std::printf("replay: %s\n", line.c_str());
    if (!state_err.empty()) std::printf("replay: the state inline (%s)\n", state_err.c_str());
#ifdef RUNQCHECK_PICTURES
    // `replay` re-runs a failure whose files were written then: it writes
    // none, but traces the execution again for its cause.
    const bool write = s.mode != "replay";
    std::fflush(stdout);
    std::string err, cause, culprit;
    std::string html =
        take_picture<T>(prog, sc, subject, mode_name(p), p, line, err, cause, write, &culprit);
    if (write && html.empty())
      std::printf("picture: none (%s)\n", err.c_str());
    else if (write)
      std::printf("picture: %s%s%s\n", html.c_str(), err.empty() ? "" : "  ", err.c_str());
    // The reason ci/verdict.py shows (Relacy's own line says only "DATA RACE").
    if (!cause.empty()) std::printf("runqcheck: cause: %s: %s\n", name, cause.c_str());
    if (!cause.empty() && !culprit.empty()) std::printf("at: %s\n", culprit.c_str());
#endif
  }
  std::fflush(stdout);
  return ok;
}

}  // namespace rqtest
