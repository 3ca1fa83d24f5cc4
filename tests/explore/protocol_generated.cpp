// Every small program of the wakeup protocol (models/generate/protocol.hpp),
// each explored under SC and RC11 in the world of explore_protocol
// (models/protocol/protocol_world.hpp: its invariants at quiescence, its
// checks during the run) for the protocol subject under test. The first
// failing program (the least, in enumeration order: every smaller one
// passed) is shrunk to the smallest that still fails the same way and
// printed as a program to read and replay (docs/generated.md).
//
// Usage: generated_protocol [sc|rc11|both] [--ms N] [--gs G] [--gs3 G] [--procs P]
//                           [--budget N] [--keep-going] [--count]
//        generated_protocol run 'SPEC'|FILE [sc|rc11|both] [--budget N]
//        generated_protocol replay 'SPEC'|FILE sc|rc11 PATH
//   --ms N: Ms 2..N (default 3); --gs G: Gs in all (default 2); --gs3 G:
//   Gs in all in programs of 3 Ms (default 1); --procs P: Ps 1..P (3; P+1 with a
//   resizer: its dying P);
//   --budget N: executions per program and model (default 2,000): a program
//   it cuts is named with what it covered (never a silent pass);
//   --keep-going: every program, not only up to the first failure;
//   --count: the number of programs, and stop.
//   SPEC: a program as one line (protocol.hpp's spec_text); FILE a file
//   holding one (lines starting '#' are comments): what a failure saves.
//   A program outside the generated space (protocol.hpp's in_space) runs
//   after one `runqcheck: note:` line; a shrink stays inside the space.
// A program whose roles need a hook the subject lacks is never generated:
// the roles left out are named in a `runqcheck: not applied:` line.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "protocol.hpp"
#include "protocol_prog.hpp"
#include "text.hpp"

namespace {

namespace gp = runqcheck::generate::protocol;
using cli::fmt;

static_assert(static_cast<int>(gp::kind::spinner_drop) == static_cast<int>(m_role::spinner_drop) &&
                  static_cast<int>(gp::kind::submitter) == static_cast<int>(m_role::submitter),
              "protocol.hpp's kinds are protocol_scenario.hpp's m_role kinds, in order");

constexpr std::uint64_t kDefaultBudget = 2'000;

struct settings {
  std::vector<ex::model> models{ex::model::sc, ex::model::rc11};
  gp::bounds b{3, 2, 1, 3, runqcheck::has_protocol_syscalls<PS>,
               runqcheck::has_protocol_procresize<PS>};
  std::uint64_t budget = kDefaultBudget;
  bool keep_going = false, count = false;
  std::string spec, replay;
  bool run = false;
};

// A generated program as the world's scenario (name: its storage).
proto_scenario to_scenario(const gp::program& p, const std::string& name) {
  proto_scenario sc{name, "a generated program", p.nprocs, {}};
  for (const gp::m_spec& m : p.ms) {
    m_role r{static_cast<m_role::kind>(m.k), m.p, {}};
    for (const gp::submit& s : m.subs) r.submits.push_back({s.g, s.next});
    sc.ms.push_back(std::move(r));
  }
  sc.global = p.global;
  sc.run_on = gp::runs_on(p);
  sc.spare_m = true;  // newm's M: what follows a startm that finds no idle M is judged
  return sc;
}

struct explored {
  ex::stats s;
  std::uint64_t unjudged = 0;  // complete executions that reached newm
};

explored explore_one(const gp::program& p, ex::model m, std::uint64_t budget,
                     const std::string& replay = "") {
  std::string name = "program";
  proto_scenario sc = to_scenario(p, name);
  ex::options o = protocol_options({});
  o.m = m;
  o.budget = replay.empty() ? budget : 0;
  o.replay = replay;
  world_t::unjudged_executions = 0;
  prog pr(sc);
  explored r{ex::explore(pr, o), world_t::unjudged_executions};
  return r;
}

// A failure's kind: its text up to the first digit (values vary).
std::string kind_of(const std::string& failure) {
  std::size_t d = failure.find_first_of("0123456789");
  return failure.substr(0, d == std::string::npos ? failure.size() : d);
}

// The program as the reader wants it: Ps, then one line an M.
void describe(const gp::program& p) {
  std::printf("    %d P%s", p.nprocs, p.nprocs == 1 ? "" : "s");
  if (!p.global.empty()) {
    std::printf(", the global queue starts with [");
    for (std::size_t i = 0; i < p.global.size(); i++)
      std::printf("%sG%d", i ? " " : "", p.global[i]);
    std::printf("]");
  }
  std::printf("\n");
  for (std::size_t i = 0; i < p.ms.size(); i++) {
    const gp::m_spec& m = p.ms[i];
    std::printf("    M%zu: %s", i, std::string(gp::name_of(m.k)).c_str());
    if (m.p >= 0)
      std::printf(m.k == gp::kind::syscall ? " (old P%d)" : " on P%d", m.p);
    for (const gp::submit& s : m.subs) std::printf("  G%d%s", s.g, s.next ? " (next)" : "");
    std::printf("\n");
  }
}

// Shrinks a failing program: the first smaller one (protocol.hpp's smaller,
// each in b's space) that fails the same way under m replaces it, until none
// does. RUNQCHECK_SHRINK_UNCHECKED (the teeth's only) skips the space's rules.
gp::program shrink(gp::program p, const gp::bounds& b, ex::model m, const std::string& kind,
                   std::uint64_t budget, explored& last, int& steps, std::uint64_t& tried) {
  const char* off = std::getenv("RUNQCHECK_SHRINK_UNCHECKED");
  const bool check = off == nullptr || *off == '\0';
  for (bool found = true; found;) {
    found = false;
    for (gp::program& c : gp::smaller(p, b, check)) {
      tried++;
      explored r = explore_one(c, m, budget);
      if (r.s.failed && kind_of(r.s.failure) == kind) {
        p = std::move(c);
        last = r;
        steps++;
        found = true;
        break;
      }
    }
  }
  return p;
}

// Shrinks a failing program, prints it, its replay: and picture: lines.
void report_failure(const char* argv0, gp::program p, const gp::bounds& b, ex::model m,
                    const explored& first, std::uint64_t budget, const std::string& where) {
  const char* mn = ex::model_name(m);
  std::printf("generated_protocol %s: FAILED under %s: %s%s\n", subject, mn,
              first.s.failure.c_str(), where.c_str());
  std::printf("  the program (as generated): %s\n", gp::spec_text(p).c_str());
  auto t0 = std::chrono::steady_clock::now();
  explored last = first;
  int steps = 0;
  std::uint64_t tried = 0;
  p = shrink(p, b, m, kind_of(first.s.failure), budget, last, steps, tried);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::string spec = gp::spec_text(p);
  std::printf("  shrunk in %d steps (%s smaller programs tried, %.2f s) to %d Ms, %d Gs, "
              "%d Ps:\n",
              steps, fmt(tried).c_str(), secs, static_cast<int>(p.ms.size()), p.gs(), p.nprocs);
  describe(p);
  std::printf("  program: %s\n", spec.c_str());
  gp::program canon;
  std::string why;
  std::printf("  in the generated space: %s\n",
              gp::in_space(p, b, canon, why) ? "yes" : ("no: " + why).c_str());
  std::printf("  fails under %s: %s\n", mn, last.s.failure.c_str());
  // The runner by its name in the build's bin/ (a port's: generated_protocol__X).
  std::string self = argv0;
  self = self.substr(self.find_last_of('/') + 1);
  cli::save_program("generated_protocol__" + std::string(subject) + "__" + cli::arg_of(m) +
                        cli::mutant_suffix() + ".pscn",
                    "# a program the generated protocol column found failing (" +
                        std::string(subject) + ", " + mn + "): " + last.s.failure +
                        "\n# run it: " + self + " run FILE (bin/ of the build)",
                    spec);
  std::string line = cli::replay_line(argv0, "'" + spec + "'", m, last.s.path);
  std::printf("replay: %s\n", line.c_str());
  std::fflush(stdout);
  std::string err, name = "program";
  proto_scenario sc = to_scenario(p, name);
  std::string cause;
  std::vector<std::string> at;
  std::string html = take_picture("generated_protocol", sc, m, last.s.path,
                                  cli::absolute(line, argv0), err, &cause, &at);
  cli::print_picture(html, err);
  cli::print_cause(cause, at);
  std::fflush(stdout);
}

// The bounds' note on Ps where a resizer is generated (its dying P).
const char* resizer_ps(const gp::bounds& b) {
  return b.procresize ? ", one more with a resizer" : "";
}

int usage(const char* argv0) {
  std::fprintf(stderr,
               "usage: %s [sc|rc11|both] [--ms N] [--gs G] [--gs3 G] [--procs P] [--budget N] "
               "[--keep-going] [--count]\n"
               "       %s run 'SPEC'|FILE [sc|rc11|both] [--budget N]\n"
               "       %s replay 'SPEC'|FILE sc|rc11 PATH\n",
               argv0, argv0, argv0);
  return 2;
}

int parse(int argc, char** argv, settings& st) {
  int i = 1;
  if (int rc = cli::parse_program_mode(argc, argv, st.spec, st.run, st.replay, st.models, i, usage);
      rc >= 0 || !st.replay.empty())
    return rc;
  struct num {
    const char* flag;
    int* v;
    std::uint64_t lo, hi;
  };
  const num nums[] = {{"--ms", &st.b.max_ms, 2, 3},
                      {"--gs", &st.b.max_gs, 0, max_gs},
                      {"--gs3", &st.b.max_gs_3m, 0, max_gs},
                      {"--procs", &st.b.max_procs, 1, 3}};
  for (; i < argc; i++) {
    bool more = i + 1 < argc;
    if (cli::parse_model(argv[i], st.models)) continue;
    const num* n = nullptr;
    for (const num& x : nums)
      if (std::strcmp(argv[i], x.flag) == 0 && more && !st.run) n = &x;
    std::uint64_t v = 0;
    if (n != nullptr) {
      if (!cli::parse_u64(argv[++i], v, n->lo, n->hi)) {
        std::fprintf(stderr, "%s: %s: '%s' is not %llu..%llu\n", argv[0], n->flag, argv[i],
                     static_cast<unsigned long long>(n->lo),
                     static_cast<unsigned long long>(n->hi));
        return 2;
      }
      *n->v = static_cast<int>(v);
    } else if (std::strcmp(argv[i], "--budget") == 0 && more) {
      if (!cli::parse_u64(argv[++i], st.budget, 1, ~0ull)) {
        std::fprintf(stderr, "%s: --budget: '%s' is not a positive number\n", argv[0], argv[i]);
        return 2;
      }
    } else if (std::strcmp(argv[i], "--keep-going") == 0 && !st.run) {
      st.keep_going = true;
    } else if (std::strcmp(argv[i], "--count") == 0 && !st.run) {
      st.count = true;
    } else {
      return usage(argv[0]);
    }
  }
  if (std::getenv("RUNQCHECK_STOP_ON_FAIL") != nullptr) st.keep_going = false;
  return -1;
}

// run / replay: one program given as text.
int run_spec(const char* argv0, const settings& st) {
  gp::program p;
  std::string err, text;
  if (!runqcheck::model::spec_or_file(st.spec, text, err) ||
      !gp::parse_spec(text, p, err, max_ps, max_ms, max_gs)) {
    std::fprintf(stderr, "%s: %s\n", argv0, err.c_str());
    return 2;
  }
  // A program outside the generated space (its widest bounds) runs, as the
  // catalog's gosched_ring does, but a failure there may be a broken
  // precondition: said in one line.
  gp::bounds wide = st.b;
  wide.max_gs = wide.max_gs_3m = max_gs;
  gp::program canon;
  if (std::string why; !gp::in_space(p, wide, canon, why))
    std::printf("runqcheck: note: %s is outside the generated space: %s; a failure may be a "
                "broken precondition, and it shrinks only to programs inside\n",
                gp::spec_text(p).c_str(), why.c_str());
  std::string name = "program";
  if (report_missing<world_t>("generated_protocol", to_scenario(p, name), gp::spec_text(p)))
    return 0;
  bool ok = true;
  for (ex::model m : st.models) {
    explored r = explore_one(p, m, st.budget, st.replay);
    const char* mn = ex::model_name(m);
    if (!st.replay.empty()) {
      std::printf("generated_protocol %s replay %s: %s%s\n", subject, mn,
                  r.s.failed ? "FAILED: " : "passed", r.s.failure.c_str());
      ok &= !r.s.failed;
      if (r.s.failed) {  // its trace as text, the picture's rows (a CI log keeps it)
        cli::print_trace = true;
        std::string line = cli::replay_line(argv0, "'" + gp::spec_text(p) + "'", m, r.s.path);
        std::string html = take_picture("generated_protocol", to_scenario(p, name), m, r.s.path,
                                        cli::absolute(line, argv0), err);
        cli::print_picture(html, err);
      }
      continue;
    }
    std::printf("generated_protocol %s program %s: %s complete, %s blocked, %s reached newm "
                "(not judged), %s\n",
                subject, mn, fmt(r.s.complete).c_str(), fmt(r.s.blocked).c_str(),
                fmt(r.unjudged).c_str(),
                r.s.failed ? "FAILED" : r.s.exhausted ? "exhausted" : "NOT exhausted (budget)");
    if (r.s.complete > 0 && r.unjudged == r.s.complete)
      std::printf("generated_protocol %s program %s: none of its executions was judged: every "
                  "one started an M the program has none for (newm: add an idle M)\n",
                  subject, mn);
    if (r.s.failed) {
      report_failure(argv0, p, wide, m, r, st.budget, "");
      ok = false;
    }
  }
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  // Line by line: a run a timeout kills (ctest's) still shows the lines it printed.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  settings st;
  if (int rc = parse(argc, argv, st); rc >= 0) return rc;
  if (!st.spec.empty()) return run_spec(argv[0], st);
  // Each program the enumeration makes is in the space, numbered as made
  // (in_space and enumerate share build's rules; --count checks it).
  std::uint64_t outside = 0;
  const std::uint64_t n = gp::enumerate(st.b, [&](const gp::program& p) {
    gp::program canon;
    std::string why;
    if (st.count && (!gp::in_space(p, st.b, canon, why) ||
                     gp::spec_text(canon) != gp::spec_text(p)) && outside++ == 0)
      std::printf("generated_protocol %s: %s: generated but in_space says %s\n", subject,
                  gp::spec_text(p).c_str(), why.empty() ? gp::spec_text(canon).c_str()
                                                        : why.c_str());
  });
  if (outside > 0) return 1;
  if (st.count) {
    std::printf("generated_protocol %s: %s programs (Ms 2..%d, Gs <= %d, <= %d with 3 Ms, Ps "
                "1..%d%s)\n",
                subject, fmt(n).c_str(), st.b.max_ms, st.b.max_gs, st.b.max_gs_3m,
                st.b.max_procs, resizer_ps(st.b));
    return 0;
  }
  if (!st.b.syscalls)
    std::printf("runqcheck: %s: generated_protocol: roles syscall, syscall_keep, "
                "sysmon: need has_protocol_syscalls (subject %s)\n",
                absent_word<world_t::proto>("syscalls"), subject);
  if (!st.b.procresize)
    std::printf("runqcheck: %s: generated_protocol: roles resizer, handback: need "
                "has_protocol_procresize (subject %s)\n",
                absent_word<world_t::proto>("procresize"), subject);
  auto t0 = std::chrono::steady_clock::now();
  std::uint64_t k = 0, done = 0, cut = 0, exh = 0, unjudged = 0, failed_at = 0, complete = 0;
  cli::model_counts execs{};
  bool stop = false;
  gp::enumerate(st.b, [&](const gp::program& p) {
    k++;
    if (stop) return;
    done++;
    for (ex::model m : st.models) {
      explored r = explore_one(p, m, st.budget);
      execs[static_cast<int>(m)] += r.s.executions();
      complete += r.s.complete;
      unjudged += r.unjudged;
      if (r.s.failed) {
        if (failed_at == 0) {
          failed_at = k;
          report_failure(argv[0], p, st.b, m, r, st.budget,
                         " (program " + fmt(k) + " of " + fmt(n) + "; every smaller one passed)");
        } else {  // --keep-going: each further failing program, one line
          std::printf("generated_protocol %s: FAILED under %s: %s: %s\n", subject,
                      ex::model_name(m), gp::spec_text(p).c_str(), r.s.failure.c_str());
        }
        stop = !st.keep_going;
        return;
      }
      if (r.s.exhausted) exh++;
      if (!r.s.exhausted) {  // named, with what it covered
        cut++;
        std::printf("generated_protocol %s: cut by the budget: %s %s: %s executions explored "
                    "(%s complete), %s subtrees not explored\n",
                    subject, ex::model_name(m), gp::spec_text(p).c_str(),
                    fmt(r.s.executions()).c_str(), fmt(r.s.complete).c_str(),
                    fmt(r.s.left).c_str());
      }
    }
  });
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("generated_protocol %s: %s of %s programs (Ms 2..%d, Gs <= %d, <= %d with 3 Ms, "
              "Ps 1..%d%s), %s executions, %s program runs exhausted, "
              "%s cut by the budget of %s, %s executions reached newm (not judged), %.1f s\n",
              subject, fmt(done).c_str(), fmt(n).c_str(), st.b.max_ms, st.b.max_gs,
              st.b.max_gs_3m, st.b.max_procs, resizer_ps(st.b),
              cli::per_model(execs, st.models).c_str(),
              fmt(exh).c_str(),
              fmt(cut).c_str(), fmt(st.budget).c_str(), fmt(unjudged).c_str(), secs);
  bool ok = failed_at == 0;
  if (ok && unjudged > 0) print_unjudged("generated protocol", unjudged, complete);
  if (ok && cut > 0)  // the verdict's reports: what was a sample
    std::printf("runqcheck: report: generated protocol: %s of %s program runs (program x "
                "model) cut by the budget of %s executions: passed where explored, not "
                "exhausted\n",
                fmt(cut).c_str(), fmt(cut + exh).c_str(), fmt(st.budget).c_str());
  std::printf("%s: %s\n", argv[0],
              !ok ? "FAILED" : cut > 0 ? "passed where explored (cuts above)" : "all passed");
  return ok ? 0 : 1;
}
