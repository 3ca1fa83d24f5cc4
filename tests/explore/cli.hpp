// tests/explore/cli.hpp — what the exploring checkers' commands share
// (explore_scenarios: tests/explore/scenarios.cpp; explore_protocol:
// tests/explore/protocol.cpp): their arguments, the line each scenario and
// model prints, the budget's coverage line, the progress failure of a
// scenario no execution completes, the replay line and the picture's file.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "explore/search.hpp"
#ifdef RUNQCHECK_PICTURES
#include "runqcheck_fuzz/page_base.hpp"
#endif

namespace runqcheck::explore::cli {

// A replay prints its execution's trace as text (write_failure_page), not
// only the picture; set by parse and parse_run in replay mode.
inline bool print_trace = false;

struct args {
  std::vector<model> models{model::sc, model::rc11};
  std::uint64_t budget = 0;
  double seconds = 0;
  unsigned shard = 0, shards = 1;
  bool estimate = false;
  bool hash = false;
  bool crosscheck = false;
  bool ipr = true;     // --no-ipr: plain TruSt (engine.hpp's options::ipr)
  bool advise = false;  // --advise: a failure's order advice (scenarios.cpp)
  std::string replay;  // a path: replay mode
};

constexpr unsigned probes = 1000;  // random probes of an estimate

inline const char* arg_of(model m) {
  return m == model::sc ? "sc" : m == model::rc11 ? "rc11" : m == model::lb ? "lb" : "c11";
}

inline bool selected(const std::string& name) {
  const char* v = std::getenv("RUNQCHECK_CASE");
  if (v == nullptr) return true;
  std::string list = std::string(",") + v + ",";
  return list.find("," + name + ",") != std::string::npos;
}

inline std::string fmt(std::uint64_t n) {
  // Built by appending: GCC 12 warns (-Wrestrict) on string::insert here.
  std::string d = std::to_string(n), s;
  for (std::size_t i = 0; i < d.size(); i++) {
    if (i > 0 && (d.size() - i) % 3 == 0) s += ',';
    s += d[i];
  }
  return s;
}

// Executions per model, indexed by the model's value (sc, rc11, lb, c11).
using model_counts = std::uint64_t[4];

// "N SC + M RC11" for the models a run explored, in their order.
inline std::string per_model(const model_counts& n, const std::vector<model>& models) {
  std::string s;
  for (model m : models)
    s += (s.empty() ? "" : " + ") + fmt(n[static_cast<int>(m)]) + " " + model_name(m);
  return s;
}

// sc, rc11, lb, c11, both (SC and RC11), all (the four), or a list of the
// four joined by ',' (lb,c11: the explore_lb column).
inline bool parse_model(const char* s, std::vector<model>& v) {
  if (std::strcmp(s, "both") == 0) {
    v = {model::sc, model::rc11};
    return true;
  }
  if (std::strcmp(s, "all") == 0) {
    v = {model::sc, model::rc11, model::lb, model::c11};
    return true;
  }
  std::vector<model> out;
  std::string_view rest(s);
  while (true) {
    auto comma = rest.find(',');
    std::string_view one = rest.substr(0, comma);
    bool found = false;
    for (model m : {model::sc, model::rc11, model::lb, model::c11})
      if (one == arg_of(m) && std::find(out.begin(), out.end(), m) == out.end()) {
        out.push_back(m);
        found = true;
      }
    if (!found) return false;
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  v = out;
  return true;
}

// A replay PATH as replay_line writes it (`<model>/<path>`) into the bare
// path. -1 to go on; 2, with one line on stderr, if it was found under
// another model than m (its choices are that model's).
inline int strip_path_model(const char* argv0, const std::string& scenario, model m,
                            std::string& path) {
  const std::string given = path;
  for (model pm : {model::sc, model::rc11, model::lb, model::c11}) {
    std::string pre = std::string(arg_of(pm)) + "/";
    if (path.rfind(pre, 0) != 0) continue;
    if (m != pm) {
      std::fprintf(stderr, "%s: replay: this path was found under %s, not %s: run it as "
                   "`replay %s %s %s`\n", argv0, model_name(pm), model_name(m),
                   scenario.c_str(), arg_of(pm), given.c_str());
      return 2;
    }
    path.erase(0, pre.size());
  }
  // STEP:CHILD[,STEP:CHILD...], or "-" (the first execution).
  bool ok = path == "-" || (!path.empty() && path.find_first_not_of("0123456789:,") ==
                                                    std::string::npos);
  for (std::size_t i = 0; ok && i < path.size() && path != "-";) {
    unsigned a = 0, b = 0;
    int n = 0;
    ok = std::sscanf(path.c_str() + i, "%u:%u%n", &a, &b, &n) == 2;
    i += static_cast<std::size_t>(n);
    if (ok && i < path.size()) ok = path[i++] == ',' && i < path.size();
  }
  if (!ok) {
    std::fprintf(stderr, "%s: replay: '%s' is not a path (MODEL/STEP:CHILD,...: the last word "
                 "of a `replay:` line)\n", argv0, given.c_str());
    return 2;
  }
  return -1;
}

// A whole decimal number lo..hi (a flag's value).
inline bool parse_u64(const char* s, std::uint64_t& v, std::uint64_t lo, std::uint64_t hi) {
  char* end = nullptr;
  if (*s < '0' || *s > '9') return false;
  v = std::strtoull(s, &end, 10);
  return *end == '\0' && v >= lo && v <= hi;
}

// The generated programs' runners: `run SPEC ...` and `replay SPEC sc|rc11
// PATH` set spec, run (run mode) and, for replay, models and the bare path;
// next: the first argument left. -1 to go on, else the exit code (usage()'s).
inline int parse_program_mode(int argc, char** argv, std::string& spec, bool& run,
                              std::string& replay, std::vector<model>& models, int& next,
                              int (*usage)(const char*)) {
  next = 1;
  if (argc < 2 || (std::strcmp(argv[1], "run") != 0 && std::strcmp(argv[1], "replay") != 0))
    return -1;
  bool rep = argv[1][2] == 'p';
  if (argc < 3) return usage(argv[0]);
  spec = argv[2];
  run = !rep;
  next = 3;
  if (!rep) return -1;
  if (argc != 5 || !parse_model(argv[3], models) || models.size() != 1) return usage(argv[0]);
  replay = argv[4];
  print_trace = true;
  next = argc;
  return strip_path_model(argv[0], "'" + spec + "'", models[0], replay);
}

// argv into a: [sc|rc11|lb|c11|both|all|M,M] [--budget N] [--seconds S] [--hash]
// [--crosscheck] [--no-ipr], and with search_flags [--shard I/N]
// [--estimate]; or
// `replay SCENARIO sc|rc11 PATH` (only: the scenario; PATH as replay_line
// writes it, `<model>/<path>`: under another model, one line and exit 2).
// own: the caller's own flags, for the usage line (" [--windows]").
// -1 to go on, else the exit code (a one-line message on stderr).
inline int parse(int argc, char** argv, args& a, std::string& only, bool search_flags,
                 const char* own = "") {
  std::string usage = std::string("usage: ") + argv[0] + " [sc|rc11|lb|c11|both|all|M,M] " +
                      "[--budget N] " +
                      "[--seconds S] [--hash] [--crosscheck] [--no-ipr] [--advise]" +
                      (search_flags ? " [--shard I/N] [--estimate]" : "") + own +
                      " | replay SCENARIO sc|rc11|lb|c11 PATH | list\n";
  int i = 1;
  if (argc >= 2 && std::strcmp(argv[1], "replay") == 0) {
    if (argc != 5 || !parse_model(argv[3], a.models)) {
      std::fputs(usage.c_str(), stderr);
      return 2;
    }
    only = argv[2];
    a.replay = argv[4];
    print_trace = true;
    i = argc;
    if (int rc = strip_path_model(argv[0], argv[2], a.models[0], a.replay); rc >= 0) return rc;
  }
  for (; i < argc; i++) {
    if (parse_model(argv[i], a.models)) continue;
    bool more = i + 1 < argc;
    if (std::strcmp(argv[i], "--hash") == 0) {
      a.hash = true;
    } else if (std::strcmp(argv[i], "--crosscheck") == 0) {
      a.crosscheck = true;
    } else if (std::strcmp(argv[i], "--advise") == 0) {
      a.advise = true;
    } else if (std::strcmp(argv[i], "--no-ipr") == 0) {
      a.ipr = false;
    } else if (search_flags && std::strcmp(argv[i], "--estimate") == 0) {
      a.estimate = true;
    } else if (std::strcmp(argv[i], "--seconds") == 0 && more) {
      char* end = nullptr;
      a.seconds = std::strtod(argv[++i], &end);
      if (*end != '\0' || !(a.seconds > 0)) {
        std::fprintf(stderr, "%s: --seconds: '%s' is not a positive number\n", argv[0], argv[i]);
        return 2;
      }
    } else if (search_flags && std::strcmp(argv[i], "--shard") == 0 && more) {
      int n = 0;
      if (std::sscanf(argv[++i], "%u/%u%n", &a.shard, &a.shards, &n) != 2 ||
          argv[i][n] != '\0' || a.shards == 0 || a.shard >= a.shards) {
        std::fprintf(stderr, "%s: --shard: '%s' is not I/N with 0 <= I < N\n", argv[0], argv[i]);
        return 2;
      }
    } else if (std::strcmp(argv[i], "--budget") == 0 && more) {
      if (!parse_u64(argv[++i], a.budget, 1, ~0ull)) {
        std::fprintf(stderr, "%s: --budget: '%s' is not a positive number\n", argv[0], argv[i]);
        return 2;
      }
    } else {
      std::fputs(usage.c_str(), stderr);
      return 2;
    }
  }
  return -1;
}

// The engine's options for one model (EXPLORE_TRACE=1: every graph printed).
inline options options_of(const args& a, model m) {
  options o;
  o.m = m;
  o.budget = a.budget;
  o.seconds = a.seconds;
  o.shard = a.shard;
  o.shards = a.shards;
  o.hash_graphs = a.hash;
  o.replay = a.replay;
  o.ipr = a.ipr;
  if (std::getenv("EXPLORE_TRACE") != nullptr) o.trace = stdout;
  return o;
}

// The crosscheck of in-place revisits: the complete graphs of run s (with
// them) and of run c (plain TruSt, --no-ipr) are the same sets, neither
// meeting a graph twice. Prints its line; true if they are.
inline bool same_as_plain(const char* checker, const char* subject, const std::string& name,
                          model m, stats& s, stats& c) {
  std::sort(s.hashes.begin(), s.hashes.end());
  std::sort(c.hashes.begin(), c.hashes.end());
  bool same = s.exhausted && c.exhausted && s.hashes == c.hashes && s.duplicates == 0 &&
              c.duplicates == 0;
  std::printf("crosscheck %s %s %s %s: %s (%s complete graphs; without in-place revisits: %s "
              "complete, %s blocked%s; %s revisited in place)\n",
              checker, subject, name.c_str(), model_name(m),
              same ? "same graphs as plain TruSt" : "DIFFERENT from plain TruSt",
              fmt(s.hashes.size()).c_str(), fmt(c.complete).c_str(), fmt(c.blocked).c_str(),
              c.exhausted ? "" : ", NOT exhausted", fmt(s.in_place).c_str());
  return same;
}

// One scenario's outcome under one model. est: the estimated execution
// count (for a run its budget cut; 0 otherwise).
struct result {
  const char* argv0;
  const char* checker;  // the lines' first word
  const char* subject;
  std::string scenario;
  model m;
  const stats& s;
  double est = 0;
  unsigned probes = cli::probes;  // behind est; 0: no estimate
};

// Its line: complete and blocked counts, time, rate and verdict; the
// coverage line of a run its budget cut; the failure. True if it passed:
// not failed and exhausted (a replay: not failed). An exhausted scenario
// with no complete execution fails (its end checks never ran) with a
// `reproduce:` line.
inline bool report(const result& r, const args& a, const char* verdict = nullptr) {
  const stats& s = r.s;
  const char* mn = model_name(r.m);
  const char* name = r.scenario.c_str();
  double rate = s.seconds > 0 ? static_cast<double>(s.executions()) / s.seconds : 0;
  if (!a.replay.empty()) {  // one execution, its path's: no counts or rate to speak of
    std::printf("%s %s %-32s %-4s replay of one execution: %s\n", r.checker, r.subject, name, mn,
                verdict != nullptr ? verdict : s.failed ? "FAILED" : "passed");
    if (s.failed && verdict == nullptr)
      std::printf("%s %s %s %s: %s\n", r.checker, r.subject, name, mn, s.failure.c_str());
    std::fflush(stdout);
    return !s.failed;
  }
  std::printf("%s %s %-32s %-4s %s complete, %s blocked, %.3f s, %.0f executions/s, %s",
              r.checker, r.subject, name, mn, fmt(s.complete).c_str(), fmt(s.blocked).c_str(),
              s.seconds, rate,
              verdict != nullptr ? verdict
              : s.failed         ? "FAILED"
              : s.exhausted      ? "exhausted"
                                 : "NOT exhausted");
  if (s.cut > 0) std::printf(" (%s cut at the event bound)", fmt(s.cut).c_str());
  if (s.cut > 0 && !s.failed && !s.exhausted)  // what usually makes the cuts
    std::printf("\n%s %s %s %s: executions cut at the event bound are a loop the search can "
                "run forever: a compare_exchange_weak retry loop (each spurious failure a "
                "branch of its own: use compare_exchange_strong) or a spin without the "
                "backend's spin_pause",
                r.checker, r.subject, name, mn);
  if (a.shards > 1)
    std::printf(" (shard %u/%u%s)", a.shard, a.shards, s.split ? "" : ", tree not split");
  if (a.hash || a.crosscheck) std::printf(", %s graphs met twice", fmt(s.duplicates).c_str());
  std::printf("\n");
  if (!s.failed && !s.exhausted) {
    std::string limit = a.budget != 0 ? fmt(a.budget) + " executions" : "";
    char secs[32];
    std::snprintf(secs, sizeof secs, "%g s", a.seconds);
    if (a.seconds > 0) limit += (limit.empty() ? "" : ", ") + std::string(secs);
    std::printf("%s %s %s %s: budget of %s reached: %s explored, %s subtrees not explored; ",
                r.checker, r.subject, name, mn, limit.c_str(), fmt(s.executions()).c_str(),
                fmt(s.left).c_str());
    auto done = static_cast<double>(s.executions());
    if (r.probes == 0)
      std::printf("not estimated\n");
    else if (r.est > done)
      std::printf("estimated %.0f in all (%u random probes): about %.1f%% covered\n", r.est,
                  r.probes, 100.0 * done / r.est);
    else  // the probes' estimate is biased low where most paths end early
      std::printf("coverage unknown (the estimate of %u random probes, %.0f, is below what was "
                  "explored)\n",
                  r.probes, r.est);
  }
  if (s.failed && verdict == nullptr)
    std::printf("%s %s %s %s: %s\n", r.checker, r.subject, name, mn, s.failure.c_str());
  bool none_complete =
      verdict == nullptr && !s.failed && s.exhausted && s.complete == 0 && a.shards <= 1;
  if (none_complete) {
    const char* mut = std::getenv("RUNQCHECK_MUTANT");
    std::string env = mut != nullptr ? std::string("RUNQCHECK_MUTANT=") + mut + " " : "";
    std::printf("%s %s %s %s: FAILED: no execution completes (all %s blocked: the "
                "scenario cannot end, so its end checks never ran)\n",
                r.checker, r.subject, name, mn, fmt(s.blocked).c_str());
    std::printf("reproduce: %sRUNQCHECK_CASE=%s %s %s\n", env.c_str(), name, r.argv0,
                arg_of(r.m));
  }
  std::fflush(stdout);
  return !s.failed && !none_complete && s.exhausted;
}

// The command that re-runs exactly the execution at path (with the mutant
// selected, if any); the path carries its model (`rc11/<path>`), which parse
// checks.
inline std::string replay_line(const char* argv0, const std::string& scenario, model m,
                               const std::string& path) {
  const char* mut = std::getenv("RUNQCHECK_MUTANT");
  std::string env = mut != nullptr ? std::string("RUNQCHECK_MUTANT=") + mut + " " : "";
  return env + argv0 + " replay " + scenario + " " + arg_of(m) + " " + arg_of(m) + "/" + path;
}

// line with argv0 replaced by the binary's absolute path (the page's).
inline std::string absolute(std::string line, const char* argv0) {
#ifdef RUNQCHECK_PICTURES
  if (std::size_t at = line.find(argv0); at != std::string::npos)
    line.replace(at, std::strlen(argv0), fuzz::self_path());
#else
  (void)argv0;
#endif
  return line;
}

// "__<mutant>" under RUNQCHECK_MUTANT (':' and '/' as '-'), else "": a
// failure's files named apart per mutant.
inline std::string mutant_suffix() {
  const char* mut = std::getenv("RUNQCHECK_MUTANT");
  if (mut == nullptr || *mut == '\0') return "";
  std::string x = mut;
  for (char& c : x)
    if (c == ':' || c == '/') c = '-';
  return "__" + x;
}

// Where a runner saves a failing program: name in the failure directory (the
// pictures'), or name itself in a build without pictures; "" with err set if
// there is no failure directory.
inline std::string failure_file(const std::string& name, std::string& err) {
#ifdef RUNQCHECK_PICTURES
  std::string dir = fuzz::failure_dir(err);
  if (dir.empty()) return "";
  return dir + "/" + name;
#else
  err.clear();
  return name;
#endif
}

// Saves a failing program's line in failure_file(name), after the comment
// lines header ('#' each), and prints `  saved: FILE` or why none.
inline void save_program(const std::string& name, const std::string& header,
                         const std::string& spec) {
  std::string err;
  std::string file = failure_file(name, err);
  if (!file.empty()) {
    std::ofstream out(file);
    out << header << "\n" << spec << "\n";
    if (!out) err = "cannot write " + file;
  }
  if (err.empty())
    std::printf("  saved: %s\n", file.c_str());
  else
    std::printf("  saved: none (%s)\n", err.c_str());
}

// A data race in the port's terms (the verdict's reason: ci/verdict.py's CAUSE)
// and the FILE:LINE of each access it names; nothing if cause is "".
inline void print_cause(const std::string& cause, const std::vector<std::string>& at) {
  if (!cause.empty()) std::printf("runqcheck: cause: %s\n", cause.c_str());
  for (const std::string& x : at) std::printf("at: %s\n", x.c_str());
}

inline void print_picture(const std::string& html, const std::string& err) {
  if (html.empty())
    std::printf("picture: none (%s)\n", err.c_str());
  else
    std::printf("picture: %s%s%s\n", html.c_str(), err.empty() ? "" : "  ", err.c_str());
}

#ifdef RUNQCHECK_PICTURES
// Writes the page of a failing execution re-run with pic recording: its
// failure as the last row (on the thread that failed; -1 in the final
// check), info (the caller's sc, subject, checker, scenario, lanes) with the
// run's seed, command, mutant and outcome. Returns the path, or "" with err.
template <class Picture>
std::string write_failure_page(Picture& pic, const stats& r, bool finishing,
                               fuzz::trace_info info, model m, const std::string& path,
                               const std::string& replay_line, const std::string& base,
                               std::string& err) {
  int t = finishing ? -1 : pic.last_thread();
  if (r.failure.rfind("data race: thread ", 0) == 0) t = std::atoi(r.failure.c_str() + 18);
  if (r.failed) pic.fail(t, r.failure);
  info.seed = std::string(arg_of(m)) + " " + path;
  info.command = replay_line;
  const char* mut = std::getenv("RUNQCHECK_MUTANT");
  info.mutant = mut != nullptr ? mut : "";
  info.failed = r.failed;
  info.message = r.failure;
  if (print_trace) std::printf("trace of %s (the picture's rows):\n%s", info.scenario.c_str(),
                               pic.text().c_str());
  if (err = fuzz::write_page(base + ".html", pic.json(info)); !err.empty()) return "";
  if (!r.failed) err = "WARNING: the re-run of this execution passed";
  return base + ".html";
}

// The picture's path without its extension:
// <failure dir>/<prefix>__<subject>__<scenario>__<sc|rc11>[__<mutant>];
// "" with err set if there is no failure directory.
inline std::string page_base(const char* prefix, const char* subject,
                             std::string_view scenario, model m, std::string& err) {
  std::string dir = fuzz::failure_dir(err);
  if (dir.empty()) return "";
  std::string base = dir + "/" + prefix + "__" + subject + "__" + std::string(scenario) + "__" +
                     arg_of(m);
  return base + mutant_suffix();
}
#endif

}  // namespace runqcheck::explore::cli
