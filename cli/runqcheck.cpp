// runqcheck — the command line.
//
//   runqcheck replay FILE            re-run a seed, print every step; exit 1 if
//                                    it fails (the failure reproduces), 0 if not
//   runqcheck explain FILE --html OUT   the same execution as a swimlane page
//     (FILE may also be the .replay file a failing Relacy scenario run wrote,
//     tests/relacy/picture.hpp: the scenario binary it names re-runs it)
//   runqcheck corpus DIR|FILE... [--expect pass|fail]   replay many seeds
//   runqcheck corpus --from-catalog DIR   write the scenario catalog as seeds
//                                    (fuzz_interleave's checked-in corpus)
//   runqcheck pct FILE [--depth D] [--runs N]           PCT search on a seed's
//                                    scenario, with its probabilistic guarantee
//   runqcheck stress ...             the M:N scheduler (stress/), when built
//
// A bad file (garbage, truncated, another version) is one line on stderr and
// exit 2, as are bad flags. RUNQCHECK_MUTANT=<name> injects a bug
// (models/mutants), as for every checker.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#ifdef RUNQCHECK_WITH_STRESS
#include "runqcheck/stress/command.hpp"
#endif
#include "catalog.hpp"
#include "runqcheck_fuzz/asan_options.hpp"  // the fuzz preset builds this under ASan too
#include "runqcheck_fuzz/encode.hpp"
#include "runqcheck_fuzz/report.hpp"

namespace fz = runqcheck::fuzz;
namespace fs = std::filesystem;

namespace {

constexpr int kBad = 2;

// Reads and decodes a seed; prints one line and returns nullopt if it is not one.
struct seed {
  std::vector<std::uint8_t> bytes;
  fz::decoded d;
};

std::optional<seed> load(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    std::fprintf(stderr, "runqcheck: %s: is a directory, not a seed file\n", path.c_str());
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "runqcheck: %s: cannot open\n", path.c_str());
    return std::nullopt;
  }
  seed s;
  s.bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  fz::parse_error e = fz::parse(s.bytes, fz::kSubjects, s.d);
  // A program the generated column saved (.scn, text): its own line says what runs it.
  std::string text(s.bytes.begin(), s.bytes.end());
  const std::string run_it = "\n# run it: ";
  std::size_t at = text.find(run_it);
  if (e == fz::parse_error::bad_magic && text.starts_with("# ") && at != std::string::npos) {
    at += run_it.size();
    std::string how = text.substr(at, text.find('\n', at) - at);
    std::fprintf(stderr, "runqcheck: %s: a program the generated column saved, not a seed: "
                 "run it with %s\n", path.c_str(), how.c_str());
    return std::nullopt;
  }
  if (e != fz::parse_error::none) {
    std::fprintf(stderr, "runqcheck: %s: %s\n", path.c_str(), fz::describe(e));
    return std::nullopt;
  }
  return s;
}

// Output files may name folders that do not exist yet.
void make_parent(const std::string& file) {
  std::error_code ec;
  fs::path parent = fs::path(file).parent_path();
  if (!parent.empty()) fs::create_directories(parent, ec);
}

const char* mutant_env() {
  const char* m = std::getenv("RUNQCHECK_MUTANT");
  return m != nullptr && *m != '\0' ? m : nullptr;
}

std::string replay_command(const std::string& path) {
  const char* m = mutant_env();
  return (m != nullptr ? "RUNQCHECK_MUTANT=" + std::string(m) + " " : std::string()) +
         "runqcheck replay " + path;
}

// A Relacy counterexample's .replay file: `key value` lines after the line
// "runqcheck-replay 1" (written by tests/relacy/picture.hpp).
struct replay_file {
  std::string binary, kase, mode, state, mutant, command;
};

bool is_replay_file(const std::string& path) {
  if (path.size() > 7 && path.compare(path.size() - 7, 7, ".replay") == 0) return true;
  std::ifstream in(path, std::ios::binary);
  char head[17] = {};
  in.read(head, sizeof head);
  return in.gcount() == sizeof head && std::string(head, sizeof head) == "runqcheck-replay ";
}

// Reads a .replay file; prints one line and returns nullopt if it is not a good one.
std::optional<replay_file> load_replay(const std::string& path) {
  auto bad = [&](const std::string& why) {
    std::fprintf(stderr, "runqcheck: %s: %s\n", path.c_str(), why.c_str());
    return std::nullopt;
  };
  std::ifstream in(path);
  if (!in) return bad("cannot open");
  std::string line;
  if (!std::getline(in, line) || line.rfind("runqcheck-replay ", 0) != 0)
    return bad("not a runqcheck replay file (want a first line 'runqcheck-replay 1')");
  if (line != "runqcheck-replay 1")
    return bad("unsupported replay file version '" + line.substr(17) + "' (want 1)");
  replay_file r;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::size_t sp = line.find(' ');
    std::string key = line.substr(0, sp),
                value = sp == std::string::npos ? "" : line.substr(sp + 1);
    std::string* field = key == "binary"    ? &r.binary
                         : key == "case"    ? &r.kase
                         : key == "mode"    ? &r.mode
                         : key == "state"   ? &r.state
                         : key == "mutant"  ? &r.mutant
                         : key == "command" ? &r.command
                                            : nullptr;
    if (field == nullptr) return bad("unknown line '" + line.substr(0, 40) + "'");
    *field = value;
  }
  if (r.binary.empty() || r.kase.empty() || r.mode.empty() || r.state.empty())
    return bad("incomplete replay file (needs binary, case, mode and state lines)");
  bool bound =
      r.mode == "bound" || (r.mode.rfind("bound:", 0) == 0 && r.mode.size() > 6 &&
                            r.mode.find_first_not_of("0123456789", 6) == std::string::npos);
  if (r.mode != "random" && r.mode != "full" && !bound)
    return bad("bad mode '" + r.mode + "' (random, bound:K or full)");
  if (r.state.find_first_not_of("0123456789 ") != std::string::npos)
    return bad("bad state '" + r.state + "' (numbers separated by spaces)");
  if (r.binary[0] != '/' || ::access(r.binary.c_str(), X_OK) != 0)
    return bad("the scenario binary " + r.binary +
               " is gone (rebuild it, or re-run the failing checker)");
  return r;
}

// Runs the recorded binary on the recorded execution (does not return unless it cannot).
int exec_replay(const std::string& path, const replay_file& r,
                const std::vector<std::string>& extra) {
  std::vector<std::string> args = {r.binary, extra[0], r.mode, r.state};
  args.insert(args.end(), extra.begin() + 1, extra.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  ::setenv("RUNQCHECK_CASE", r.kase.c_str(), 1);
  if (r.mutant.empty())
    ::unsetenv("RUNQCHECK_MUTANT");
  else
    ::setenv("RUNQCHECK_MUTANT", r.mutant.c_str(), 1);
  std::fflush(stdout);
  ::execv(r.binary.c_str(), argv.data());
  std::fprintf(stderr, "runqcheck: %s: cannot run %s: %s\n", path.c_str(), r.binary.c_str(),
               std::strerror(errno));
  return kBad;
}

int do_replay(const std::string& path, bool quiet, const std::string& json_out) {
  if (is_replay_file(path)) {
    if (quiet || !json_out.empty()) {
      std::fprintf(
          stderr,
          "runqcheck: %s: --quiet and --json are for seeds (explain FILE --json takes a .replay)\n",
          path.c_str());
      return kBad;
    }
    auto r = load_replay(path);
    return r ? exec_replay(path, *r, {"replay"}) : kBad;
  }
  auto s = load(path);
  if (!s) return kBad;
  fz::outcome o = fz::run(s->d, true);
  const fz::recorder& r = fz::the_recorder();
  if (!quiet) {
    std::printf("seed: %s (%zu bytes: %zu of scenario, %zu of choices, %zu used)\n", path.c_str(),
                s->bytes.size(), s->d.header_bytes, s->d.schedule.size(), o.choices_used);
    if (const char* m = mutant_env()) std::printf("mutant: %s\n", m);
    fz::print_trace(stdout, s->d, r);
  }
  if (!json_out.empty()) {
    make_parent(json_out);
    std::ofstream j(json_out);
    j << fz::trace_json(s->d, o, r, path, replay_command(path), mutant_env());
    if (!j) {
      std::fprintf(stderr, "runqcheck: cannot write %s\n", json_out.c_str());
      return kBad;
    }
  }
  if (o.failed)
    std::printf("FAILED: %s\nreproduce: %s\n", o.message.c_str(), replay_command(path).c_str());
  else if (o.stale_loads > 0)
    std::printf(
        "passed: every invariant held (%zu stale reads: a weak-memory execution, no real-time "
        "linearizability check)\n",
        o.stale_loads);
  else std::printf("passed: every invariant held and the history is linearizable\n");
  return o.failed ? 1 : 0;
}

int do_explain(const std::string& path, const std::string& html_out, const std::string& json_out) {
  if (is_replay_file(path)) {
    auto r = load_replay(path);
    if (!r) return kBad;
    make_parent(html_out);
    std::vector<std::string> extra = {"explain", "--html", html_out};
    if (!json_out.empty()) {
      make_parent(json_out);
      extra.insert(extra.end(), {"--json", json_out});
    }
    return exec_replay(path, *r, extra);
  }
  auto s = load(path);
  if (!s) return kBad;
  fz::outcome o = fz::run(s->d, true);
  std::string json =
      fz::trace_json(s->d, o, fz::the_recorder(), path, replay_command(path), mutant_env());
  if (!json_out.empty()) {
    make_parent(json_out);
    std::ofstream j(json_out);
    j << json;
  }
  make_parent(html_out);
  if (std::string err = fz::write_page(html_out, json); !err.empty()) {
    std::fprintf(stderr, "runqcheck: %s\n", err.c_str());
    return kBad;
  }
  std::printf("%s: %d steps, %s%s -> %s\n", path.c_str(), fz::the_recorder().nevents(),
              o.failed ? "FAILED: " : "passed", o.failed ? o.message.c_str() : "",
              html_out.c_str());
  return 0;
}

// Every seed under the given files/directories, replayed without a trace.
int do_corpus(const std::vector<std::string>& paths, const std::string& expect) {
  std::vector<std::string> files;
  for (const auto& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      for (const auto& e : fs::recursive_directory_iterator(p))
        if (e.is_regular_file() && e.path().filename().string()[0] != '.' &&
            e.path().extension() != ".md")
          files.push_back(e.path().string());
    } else if (fs::exists(p, ec)) {
      files.push_back(p);
    } else {
      std::fprintf(stderr, "runqcheck: %s: no such file or directory\n", p.c_str());
      return kBad;
    }
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::fprintf(stderr, "runqcheck: no seeds found\n");
    return kBad;
  }
  int wrong = 0;
  for (const auto& f : files) {
    auto s = load(f);
    if (!s) return kBad;
    fz::outcome o = fz::run(s->d, false);
    bool ok = (expect == "pass") != o.failed;
    if (!ok) wrong++;
    std::printf("%-6s %s%s%s\n", o.failed ? "FAIL" : "pass", f.c_str(), o.failed ? ": " : "",
                o.failed ? o.message.c_str() : "");
    if (!ok)
      std::printf("       expected %s; reproduce: %s\n", expect.c_str(), replay_command(f).c_str());
  }
  std::printf("corpus: %zu seeds, %d not as expected (%s)\n", files.size(), wrong, expect.c_str());
  return wrong == 0 ? 0 : 1;
}

// The catalog as seeds in `dir`: seed-<name>.rqf (no choices: threads run
// one after the other) and seed-<name>-alternating.rqf (a switch at every
// point); one line per scenario, written or why the format cannot hold it.
// One seed file; false (after a message) when it cannot be written.
bool write_seed(const fs::path& f, const std::vector<std::uint8_t>& bytes) {
  std::ofstream os(f, std::ios::binary);
  os.write(reinterpret_cast<const char*>(bytes.data()),
           static_cast<std::streamsize>(bytes.size()));
  if (!os) std::fprintf(stderr, "runqcheck: %s: cannot write\n", f.c_str());
  return static_cast<bool>(os);
}

// The catalog as seeds: per scenario, no choices and alternating choices;
// then the same shape on the production ring (cap 256) and on the build's
// second and third subjects (the subject byte, reduced mod the build's count).
int do_from_catalog(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    std::fprintf(stderr, "runqcheck: %s: %s\n", dir.c_str(), ec.message().c_str());
    return kBad;
  }
  std::vector<std::uint8_t> alternating;
  for (int i = 0; i < 48; i++) alternating.insert(alternating.end(), {1, 2});
  int written = 0;
  for (const auto& sc : runqcheck::model::catalog) {
    const std::string name(sc.name);
    runqcheck::model::scenario renamed;
    std::vector<std::uint8_t> bytes;
    if (std::string why = fz::encode(sc, {}, bytes, renamed); !why.empty()) {
      std::printf("skipped %s: %s\n", name.c_str(), why.c_str());
      continue;
    }
    const fs::path base = fs::path(dir) / ("seed-" + name);
    bool ok = write_seed(base.string() + ".rqf", bytes);
    for (std::uint8_t subject : {1, 2}) {
      std::vector<std::uint8_t> other = bytes;
      other[4] = subject;  // input.hpp: byte 4 is the subject index
      ok = ok && write_seed(base.string() + "-subject" + std::to_string(subject) + ".rqf", other);
    }
    runqcheck::model::scenario wide = sc;
    wide.cap = 256;
    std::vector<std::uint8_t> wide_bytes;
    const bool has_wide = wide.cap != sc.cap && fz::encode(wide, {}, wide_bytes, renamed).empty();
    if (has_wide) ok = ok && write_seed(base.string() + "-cap256.rqf", wide_bytes);
    if (!fz::encode(sc, alternating, bytes, renamed).empty()) {
      std::fprintf(stderr, "runqcheck: %s: encodes without choices but not with them\n",
                   name.c_str());
      return kBad;
    }
    ok = ok && write_seed(base.string() + "-alternating.rqf", bytes);
    if (!ok) return kBad;
    written++;
    std::printf("wrote %s (+ -alternating, -subject1, -subject2%s)\n", name.c_str(),
                has_wide ? ", -cap256" : "");
  }
  std::printf("corpus: %d of %zu catalog scenarios written to %s\n", written,
              runqcheck::model::catalog.size(), dir.c_str());
  return 0;
}

// PCT on a seed's scenario (its recorded choices are ignored).
int do_pct(const std::string& path, unsigned depth, long runs, double seconds, std::uint64_t seed0,
           const std::string& out_dir, bool stale) {
  auto s = load(path);
  if (!s) return kBad;
  const std::size_t n = s->d.sc.threads.size();
  // k: the steps of one execution, measured on the default schedule and
  // raised whenever a run takes more (the guarantee uses the largest seen).
  fz::decoded plain = s->d;
  plain.schedule = {};
  fz::outcome o0 = fz::run(plain, false);
  std::size_t k = std::max<std::size_t>(o0.steps, 1);
  std::printf(
      "pct: %s\n  scenario: %s\n  threads n=%zu, depth d=%u, steps k=%zu (default schedule), %s "
      "loads\n",
      path.c_str(), fz::describe_scenario(s->d).c_str(), n, depth, k,
      stale ? "weak-memory" : "latest-store");
  auto t0 = std::chrono::steady_clock::now();
  long done = 0;
  for (; done < runs; done++) {
    if (seconds > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > seconds)
      break;
    fz::current_pct() = {seed0 + static_cast<std::uint64_t>(done), depth, k, stale};
    fz::outcome o = fz::run<fz::sched_kind::pct>(s->d, false);
    k = std::max(k, o.steps);
    if (!o.failed) continue;
    // Save the execution as a seed: the scenario bytes + the choices PCT made.
    const fz::choices& ch = fz::current_choices();
    std::vector<std::uint8_t> bytes(
        s->bytes.begin(), s->bytes.begin() + static_cast<std::ptrdiff_t>(s->d.header_bytes));
    bytes.insert(bytes.end(), ch.out, ch.out + ch.nout);
    std::error_code ec;
    fs::create_directories(out_dir, ec);
    std::string file =
        (fs::path(out_dir) /
         ("pct-" + std::to_string(seed0 + static_cast<std::uint64_t>(done)) + ".rqf"))
            .string();
    std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                static_cast<std::streamsize>(bytes.size()));
    fz::decoded again;
    fz::parse(bytes, fz::kSubjects, again);
    fz::outcome o2 = fz::run(again, false);
    std::printf("FAILED on run %ld (seed %llu): %s\n  saved as %s (%s)\nreproduce: %s\n", done + 1,
                static_cast<unsigned long long>(seed0 + static_cast<std::uint64_t>(done)),
                o.message.c_str(), file.c_str(),
                o2.failed && o2.message == o.message ? "replays exactly" : "DOES NOT REPLAY",
                replay_command(file).c_str());
    return 1;
  }
  double p = 1.0 / (static_cast<double>(n) *
                    std::pow(static_cast<double>(k), static_cast<double>(depth) - 1.0));
  double miss = std::exp(static_cast<double>(done) * std::log1p(-p));
  std::printf(
      "pct: %ld runs, no failure.\n  Guarantee (Burckhardt et al. 2010): one run finds a given bug "
      "of depth <= %u\n"
      "  with probability >= 1/(n k^(d-1)) = %.3g; after %ld runs a bug of depth %u\n"
      "  was missed with probability <= %.3g (k=%zu, the most steps seen).\n"
      "  It covers thread interleavings; weak-memory load choices were drawn at random on top.\n",
      done, depth, p, done, depth, miss, k);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"runqcheck: verification and stress harness for Go-style work-stealing run queues"};
  app.require_subcommand(1);
  int rc = 0;

  std::string file, html, json;
  bool quiet = false;
  auto* replay = app.add_subcommand(
      "replay", "re-run a seed and print the execution step by step (exit 1: it fails)");
  replay
      ->add_option("FILE", file,
                   "seed file (fuzz corpus, crash file, pct output) or a Relacy .replay file")
      ->required();
  replay->add_flag("--quiet,-q", quiet, "only the verdict");
  replay->add_option("--json", json, "also write the trace JSON here");
  replay->callback([&] { rc = do_replay(file, quiet, json); });

  auto* explain = app.add_subcommand("explain", "draw a seed's execution as a swimlane page");
  explain->add_option("FILE", file, "seed file or a Relacy .replay file")->required();
  explain->add_option("--html", html, "output page")->required();
  explain->add_option("--json", json, "also write the trace JSON here");
  explain->callback([&] { rc = do_explain(file, html, json); });

  std::vector<std::string> paths;
  std::string expect = "pass";
  auto* corpus = app.add_subcommand(
      "corpus", "replay every seed of directories/files, check each passes (or fails)");
  std::string from_catalog;
  auto* paths_opt = corpus->add_option("PATHS", paths, "seed files or directories");
  corpus->add_option("--expect", expect, "pass (default) or fail")
      ->check(CLI::IsMember({"pass", "fail"}));
  corpus->add_option("--from-catalog", from_catalog, "write the scenario catalog as seeds into DIR")
      ->excludes(paths_opt);
  corpus->callback([&] {
    if (!from_catalog.empty()) {
      rc = do_from_catalog(from_catalog);
    } else if (paths.empty()) {
      std::fprintf(stderr, "runqcheck: corpus: give seed PATHS or --from-catalog DIR\n");
      rc = kBad;
    } else {
      rc = do_corpus(paths, expect);
    }
  });

  unsigned depth = 3;
  long runs = 10000;
  double seconds = 0;
  std::uint64_t pseed = 1;
  std::string out_dir = "pct-failures";
  bool no_stale = false;
  auto* pct = app.add_subcommand(
      "pct", "PCT search (random priorities, d-1 change points) on a seed's scenario");
  pct->add_option("FILE", file, "seed file giving the scenario (its choices are ignored)")
      ->required();
  pct->add_option("--depth,-d", depth, "bug depth d (>= 1)")->check(CLI::Range(1u, 16u));
  pct->add_option("--runs,-n", runs, "runs")->check(CLI::Range(1L, 1000000000L));
  pct->add_option("--seconds", seconds, "stop after this long (0: no limit)")
      ->check(CLI::NonNegativeNumber);
  pct->add_option("--seed", pseed, "first PRNG seed");
  pct->add_option("--out", out_dir, "where a failing execution is saved as a seed");
  pct->add_flag("--no-stale", no_stale, "loads read the latest store (interleavings only)");
  pct->callback([&] { rc = do_pct(file, depth, runs, seconds, pseed, out_dir, !no_stale); });

#ifdef RUNQCHECK_WITH_STRESS
  runqcheck::stress::add_command(app, rc);
#endif

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    std::fprintf(stderr, "runqcheck: %s (see runqcheck --help)\n", e.what());
    return kBad;
  }
  return rc;
}
