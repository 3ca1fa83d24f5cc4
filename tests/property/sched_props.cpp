// tests/property/sched_props.cpp — rapidcheck stateful property tests: the
// subject under test (native backend, one thread, ring capacity 256 and 8)
// and the reference model (models/reference) driven side by side with
// scheduler-level operations, findRunnable/stealWork taken from
// runqcheck/sched_policy.hpp. After every command the subject's whole queue
// state is observed and compared with the model's: conservation, one
// location per G, FIFO order, batch bounds all follow from that equality and
// are also checked one by one for readable failures.
//
// Plus the fairness property: a G on the global queue is scheduled within 61
// schedtick advances while the local queue stays busy with Gs respawning
// each other. With --expect-failure --fairness-only (the mutant subject,
// RUNQCHECK_MUTANT=findRunnable_no_fairness) only the fairness property runs
// and the program succeeds iff rapidcheck finds a counterexample.
//
// Usage: sched_props [--expect-failure [--fairness-only]] [--sequences N]
//        | --replay FILE
//   --sequences N sets rapidcheck's max_success for every property (x
//   $RUNQCHECK_SCALE) unless RC_PARAMS sets it; the gate passes 5000.
//   RC_PARAMS="seed=S" / "reproduce=…" as usual.
//   A failure writes the shrunk operation list to
//   $RUNQCHECK_ARTIFACT_DIR/<property>__<subject>.ops (default: the build
//   directory's counterexamples/) and prints the path; --replay FILE runs
//   such a file step by step without rapidcheck.
//   --expect-failure (a build on the mutant backend, RUNQCHECK_MUTANT set):
//   succeed only if a stateful property fails.
#include <rapidcheck.h>
#include <rapidcheck/state.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "runqcheck_subject.hpp"
#include "../../models/watchdog/watchdog.hpp"

#ifndef RUNQCHECK_BUILD_DIR
#define RUNQCHECK_BUILD_DIR "."
#endif

// The harness's own checks fail the property (and are shrunk).
#define RQ_SCHED_ASSERT(cond) RC_ASSERT(cond)
#include "../../models/sched_ops/sched_ops.hpp"
#include "../../models/scenarios/caps.hpp"

namespace {

using namespace runqcheck::schedops;

// ---------------------------------------------------------------------------
// rapidcheck glue.

template <std::uint32_t Cap>
struct cmd final : rc::state::Command<ref::world, sut<Cap>> {
  op o;
  explicit cmd(op x) : o(std::move(x)) {}
  void checkPreconditions(const ref::world& m) const override { RC_PRE(valid(m, o)); }
  void apply(ref::world& m) const override { model_do(m, o); }
  void run(const ref::world& m0, sut<Cap>& s) const override {
    ref::world m = m0;
    outcome want = model_do(m, o);
    outcome got = s.apply(o);
    if (!(want == got))
      RC_FAIL(show_op(o) + ": subject returned " + show_outcome(got) + ", model " +
              show_outcome(want));
    if (std::string e = s.compare(m); !e.empty()) RC_FAIL(show_op(o) + ": " + e);
  }
  void show(std::ostream& os) const override { os << show_op(o); }
};

// A uniform draw from [lo, hi). rapidcheck's inRange scales the range with
// the test size (small sizes draw near lo), which made early choices in the
// menu and P 0 / gomaxprocs 1 far more likely than the weights say.
template <class T>
T uniform(T lo, T hi) {
  return *rc::gen::resize(rc::kNominalSize, rc::gen::inRange<T>(lo, hi));
}

// A valid op for m, drawn with weights that keep the queues busy.
rc::Gen<op> gen_op(const ref::world& m, std::uint32_t cap) {
  return rc::gen::exec([m, cap] {
    const auto [running, free, waiting, insys, menu, total] = menu_for(m);
    int roll = uniform(0, total);
    op o;
    for (auto& [w, k] : menu) {
      if (roll < w) {
        o.k = k;
        break;
      }
      roll -= w;
    }
    auto pick = [](const std::vector<int>& v) { return v[uniform<std::size_t>(0, v.size())]; };
    switch (o.k) {
      case op_kind::spawn:
      case op_kind::park:
      case op_kind::gosched:
      case op_kind::goexit:
      case op_kind::entersyscall: o.a = pick(running); break;
      case op_kind::spawn_many:
        o.a = pick(running);
        o.b = uniform<int>(1, static_cast<int>(cap) + 20);
        break;
      case op_kind::ready:
        o.a = pick(running);
        o.b = pick(waiting);
        break;
      case op_kind::schedule:
      case op_kind::steal_work:
      case op_kind::glob_batch:
        o.a = pick(free);
        o.seed = *rc::gen::arbitrary<std::uint32_t>();
        break;
      case op_kind::exitsyscall: o.b = pick(insys); break;
      case op_kind::procresize: o.a = uniform(1, kMaxP + 1); break;
      case op_kind::drain: o.a = uniform(0, m.nprocs()); break;
      case op_kind::inject: {
        o.a = uniform(0, m.nprocs());
        std::vector<int> w = waiting;
        std::size_t k = uniform<std::size_t>(1, w.size() + 1);
        o.list.assign(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(k));
        break;
      }
      default: break;  // the queue-only kinds: never drawn above
    }
    return o;
  });
}

std::string artifact_path(const std::string& prop) {
  const char* d = std::getenv("RUNQCHECK_ARTIFACT_DIR");
  std::filesystem::path dir = (d != nullptr && *d != '\0')
                                  ? std::filesystem::path(d)
                                  : std::filesystem::path(RUNQCHECK_BUILD_DIR) / "counterexamples";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  return (dir / (prop + "__" + subject_name + ".ops")).string();
}

std::string g_last_artifact;

void save_ops(const std::string& prop, std::uint32_t cap, int nprocs, const std::vector<op>& log) {
  std::string path = artifact_path(prop);
  std::ofstream f(path);
  f << "# runqcheck counterexample: property " << prop << ", subject " << subject_name << "\n";
  f << "cap " << cap << " nprocs " << nprocs << "\n";
  for (const op& o : log) f << show_op(o) << "\n";
  g_last_artifact = path;
}

void throwing_fatal(const runqcheck::fatal_info& f) {
  throw std::runtime_error(std::string("fatal error: ") + f.msg + " " + f.values);
}

// Coverage of the passing runs of one property: in how many sequences each
// interesting path was taken, and how many ops ran.
struct coverage {
  long sequences = 0, ops = 0;
  long putslow = 0, fairness = 0, global_batch = 0, steal = 0, resize_down = 0,
       exitsyscall_global = 0, inject_leftover = 0;
  long kinds[std::size(kSchedOps)] = {};
  template <class Sut>
  void add(const Sut& s) {
    sequences++;
    ops += static_cast<long>(s.log.size());
    for (const op& o : s.log) kinds[sched_index(o.k)]++;
    putslow += s.seen.putslow;
    fairness += s.seen.fairness;
    global_batch += s.seen.global_batch;
    steal += s.seen.steal;
    resize_down += s.seen.resize_down;
    exitsyscall_global += s.seen.exitsyscall_global;
    inject_leftover += s.seen.inject_leftover;
  }
  void print() const {
    auto pc = [&](long n) {
      return sequences ? 100.0 * static_cast<double>(n) / static_cast<double>(sequences) : 0.0;
    };
    std::printf(
        "coverage: %ld sequences, %ld ops; sequences with: runqputslow %.0f%%, %%61 check hit "
        "%.0f%%, "
        "global batch %.0f%%, steal %.0f%%, procresize down %.0f%%, exitsyscall to global %.0f%%, "
        "runqputbatch leftovers %.0f%%\n",
        sequences, ops, pc(putslow), pc(fairness), pc(global_batch), pc(steal), pc(resize_down),
        pc(exitsyscall_global), pc(inject_leftover));
    std::printf("ops:");
    for (std::size_t k = 0; k < std::size(kSchedOps); k++)
      std::printf(" %s %ld", runqcheck::model::name(kSchedOps[k]).data(), kinds[k]);
    std::printf("\n");
  }
};

// The program's path (argv[0]), for reproducer lines.
std::string g_self = "sched_props";

// rc::check, plus on failure a command line that replays exactly that
// counterexample: "reproduce: RC_PARAMS=\"…reproduce=…\" <binary>". The
// watchdog prints the same property's command if it hangs (no seed to give
// yet: it names the property).
template <class Testable>
bool rc_check(const std::string& prop, Testable&& t) {
  // The same seed replays the same cases: the command for a hang.
  rc::detail::Configuration now = rc::detail::configuration();
  now.reproduce.clear();
  runqcheck::wd::set_reproducer("RC_PARAMS=\"" + rc::detail::configToString(now) + "\" " + g_self +
                                "   (hung in property '" + prop + "')");
  rc::detail::TestMetadata md;
  md.id = prop;
  md.description = prop;
  std::cerr << "\n- " << prop << "\n";
  const auto result = rc::detail::checkTestable(std::forward<Testable>(t), md);
  rc::detail::printResultMessage(result, std::cerr);
  std::cerr << std::endl;
  if (result.template is<rc::detail::FailureResult>()) {
    rc::detail::Configuration c = rc::detail::configuration();
    c.reproduce.clear();
    c.reproduce[prop] = result.template get<rc::detail::FailureResult>().reproduce;
    std::printf("reproduce: RC_PARAMS=\"%s\" %s\n", rc::detail::configToString(c).c_str(),
                g_self.c_str());
    std::fflush(stdout);
  }
  return result.template is<rc::detail::SuccessResult>();
}

template <std::uint32_t Cap>
bool stateful_property(const std::string& prop) {
  static coverage tally;
  tally = coverage{};
  std::fflush(stdout);
  bool ok = rc_check(prop, [prop] {
    int nprocs = uniform(1, kMaxP + 1);
    ref::world m0 = initial_world(Cap, nprocs);
    sut<Cap> s(nprocs);
    initial_sut(s);
    try {
      rc::state::check(m0, s, [](const ref::world& m) {
        return rc::gen::map(gen_op(m, Cap), [](op o) {
          return std::shared_ptr<const rc::state::Command<ref::world, sut<Cap>>>(
              std::make_shared<cmd<Cap>>(std::move(o)));
        });
      });
      tally.add(s);
    } catch (const rc::detail::CaseResult& r) {
      if (r.type == rc::detail::CaseResult::Type::Failure) save_ops(prop, Cap, nprocs, s.log);
      throw;
    } catch (const std::exception&) {
      save_ops(prop, Cap, nprocs, s.log);
      throw;
    }
  });
  if (ok) tally.print();
  std::fflush(stdout);
  return ok;
}

// ---------------------------------------------------------------------------
// Fairness: gomaxprocs 1; the running G respawns (runnext, ring, or both)
// and exits, so the local queue never empties; runnext chains are cut after
// kSlice inheriting schedules (sysmon's time slice: the chain's next G comes
// from the ring). G_x waits on the global queue: it must run before
// schedtick advances 62 times.
constexpr int kSlice = 10;

template <std::uint32_t Cap>
bool fairness_property() {
  const char* what =
      "fairness: a global G runs within 61 schedticks while two Gs respawn each other";
  return rc_check(what, [] {
    using S = runqcheck::watched<subject_under_test<B, Cap>>;
    sut<Cap> s(1);
    auto& pp = *s.ps[0];
    std::uint32_t tick0 = uniform<std::uint32_t>(0, 200);
    s.schedtick[0] = tick0;
    // How each run readies the other G, cycled: 0 runnext, 1 the ring.
    const auto actions = *rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 2));
    const int budget = 4 * 62 * (kSlice + 1);
    // Two Gs respawning each other: A readies B, B readies A.
    gid a = s.newg(), b = s.newg(), x = s.newg();
    S::runqput(pp, s.g(b), false);
    s.run_on(0, a, false);
    S::globrunqput(s.sched, s.g(x));  // G_x waits at the global head
    std::uint32_t ticks_at_enqueue = s.schedtick[0];
    int chain = 0;
    for (int step = 0; step < budget; step++) {
      gid cur = s.current[0];
      gid other = cur == a ? b : a;
      if (cur == x) return;  // G_x ran: fair
      // The running G makes the other one runnable again (it is waiting
      // for it) and blocks: next=true shares the time slice, next=false
      // does not; after kSlice inheriting runs the time slice is over.
      int act = chain >= kSlice || actions.empty()
                    ? 1
                    : actions[static_cast<std::size_t>(step) % actions.size()];
      s.state[cur] = ref::gstate::waiting;
      s.current[0] = nil;
      s.state[other] = ref::gstate::runnable;
      S::runqput(pp, s.g(other), act == 0);  // ready(other): runnext (act 0) or the ring (act 1)
      auto f = runqcheck::findRunnable<S>(s.sched, pp, s.schedtick[0], s.allps(), s.stealOrder,
                                          splitmix{static_cast<std::uint64_t>(step)});
      RC_ASSERT(f.gp != nullptr);
      s.run_on(0, s.id(f.gp), f.inheritTime);
      chain = f.inheritTime ? chain + 1 : 0;
      if (s.id(f.gp) == x) return;
      if (s.schedtick[0] - ticks_at_enqueue > 62) {
        RC_FAIL(
            "G" + std::to_string(x) + " waited on the global queue for " +
            std::to_string(s.schedtick[0] - ticks_at_enqueue) +
            " schedticks while the local queue stayed busy (no %61 fairness check?); start tick " +
            std::to_string(tick0));
      }
    }
    RC_FAIL("G_x never ran within the step budget");
  });
}

// ---------------------------------------------------------------------------
// --replay FILE: run a saved op list on a fresh model and subject, printing
// each step; exit 1 at the first difference.

template <std::uint32_t Cap>
int replay(std::istream& in, int nprocs) {
  ref::world m = initial_world(Cap, nprocs);
  sut<Cap> s(nprocs);
  initial_sut(s);
  std::string line;
  int n = 0;
  runqcheck::fatal_handler() = &throwing_fatal;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    auto o = parse_op(line);
    if (!o) {
      std::fprintf(stderr, "replay: bad line: %s\n", line.c_str());
      return 2;
    }
    n++;
    if (!valid(m, *o)) {
      std::printf("%3d %-40s  (invalid in this state: skipped, as rapidcheck would)\n", n,
                  line.c_str());
      continue;
    }
    try {
      outcome want = model_do(m, *o);
      outcome got = s.apply(*o);
      std::string e =
          want == got ? s.compare(m)
                      : "subject returned " + show_outcome(got) + ", model " + show_outcome(want);
      std::printf("%3d %-40s  -> %s\n     model: %s\n", n, line.c_str(), show_outcome(got).c_str(),
                  m.q.describe().c_str());
      if (!e.empty()) {
        std::printf("MISMATCH at step %d: %s\n", n, e.c_str());
        return 1;
      }
    } catch (const std::exception& ex) {
      std::printf("MISMATCH at step %d: %s\n", n, ex.what());
      return 1;
    }
  }
  std::printf("replay: %d ops, subject and model agree\n", n);
  return 0;
}

int replay_file(const char* path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "replay: cannot open %s\n", path);
    return 2;
  }
  std::string line;
  std::uint32_t cap = 0;
  int nprocs = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream is(line);
    std::string w1, w2;
    is >> w1 >> cap >> w2 >> nprocs;
    break;
  }
  std::printf("replay of %s: subject %s, cap %u, nprocs %d\n", path, subject_name, cap, nprocs);
  if (cap != 8 && cap != 256) {
    std::fprintf(stderr, "replay: cap %u not built (8, 256)\n", cap);
    return 2;
  }
  return runqcheck::model::with_cap<8, 256>(
      cap, [&](auto c) { return replay<decltype(c)::value>(in, nprocs); });
}

}  // namespace

// --sequences N: rapidcheck's max_success for every property (scaled by
// $RUNQCHECK_SCALE) unless RC_PARAMS already sets it. Must run before the
// first rapidcheck call, which reads RC_PARAMS once.
void set_sequences(long n) {
  const char* sc = std::getenv("RUNQCHECK_SCALE");
  double scale = sc != nullptr ? std::strtod(sc, nullptr) : 1.0;
  if (!(scale > 0)) scale = 1.0;
  n = std::max(1L, static_cast<long>(static_cast<double>(n) * scale));
  std::string params = std::getenv("RC_PARAMS") != nullptr ? std::getenv("RC_PARAMS") : "";
  if (params.find("max_success") == std::string::npos) {
    params += (params.empty() ? "" : " ") + std::string("max_success=") + std::to_string(n);
    ::setenv("RC_PARAMS", params.c_str(), 1);
  }
}

int main(int argc, char** argv) {
  g_self = argv[0];
  if (argc == 3 && std::string(argv[1]) == "--replay") return replay_file(argv[2]);
  runqcheck::fatal_handler() =
      &throwing_fatal;  // a failed RQ_CHECK fails the property (and is shrunk)
  // --expect-failure: the inverted run for a mutant build (RUNQCHECK_MUTANT
  // set): succeed only if a stateful property finds a counterexample.
  bool expect_failure = argc > 1 && std::string(argv[1]) == "--expect-failure";
  if (expect_failure) {
    argc--;
    argv++;
  }
  bool fairness_only = expect_failure && argc > 1 && std::string(argv[1]) == "--fairness-only";
  if (fairness_only) {
    argc--;
    argv++;
  }
  if (argc == 3 && std::string(argv[1]) == "--sequences") {
    char* end = nullptr;
    long n = std::strtol(argv[2], &end, 10);
    if (argv[2][0] < '0' || argv[2][0] > '9' || *end != '\0' || n <= 0) {
      std::fprintf(stderr, "%s: --sequences: '%s' is not a positive number\n", g_self.c_str(),
                   argv[2]);
      return 2;
    }
    set_sequences(n);
  } else if (argc != 1) {
    std::fprintf(stderr, "usage: %s [--expect-failure [--fairness-only]] [--sequences N] | "
                 "--replay FILE\n", g_self.c_str());
    return 2;
  }
  if (!sut<8>::can_resize)
    std::printf(
        "runqcheck: not applied: procresize (destroy's order at the global head, the batch after): "
        "needs S::set_gomaxprocs (subject %s)\n",
        subject_name);
  if (fairness_only) {
    std::printf("INVERTED TEST: mutant %s; only the fairness property runs and must FAIL.\n",
                std::getenv("RUNQCHECK_MUTANT") ? std::getenv("RUNQCHECK_MUTANT") : "(none)");
    bool ok = fairness_property<256>();
    if (ok) {
      std::printf("FAIL: the fairness property held without the %%61 check: it has no teeth.\n");
      return 1;
    }
    std::printf(
        "PASS: the fairness property caught the missing %%61 check (the failure above is "
        "expected).\n");
    return 0;
  }
  if (expect_failure) {
    const char* m = std::getenv("RUNQCHECK_MUTANT");
    std::printf("INVERTED TEST: mutant %s injected; succeeds only if a stateful property fails.\n",
                m ? m : "(none)");
    bool ok = stateful_property<256>("sched_ops_cap256") && stateful_property<8>("sched_ops_cap8");
    if (ok) {
      std::printf("FAIL (inverted): the mutant survived both stateful properties.\n");
      return 1;
    }
    std::printf(
        "counterexample op list: %s\nPASS (inverted): the mutant was caught (the failure above is "
        "expected).\n",
        g_last_artifact.c_str());
    return 0;
  }
  std::printf("subject %s: stateful properties against models/reference\n", subject_name);
  // Every property runs (unless $RUNQCHECK_STOP_ON_FAIL); each failure prints
  // its reproducer; exit 1 at the end.
  bool ok = true;
  for (auto [prop, fn] : {std::pair{"sched_ops_cap256", &stateful_property<256>},
                          std::pair{"sched_ops_cap8", &stateful_property<8>}}) {
    if (fn(prop)) continue;
    ok = false;
    std::printf("counterexample op list: %s\nreplay: %s --replay %s\n", g_last_artifact.c_str(),
                argv[0], g_last_artifact.c_str());
    if (std::getenv("RUNQCHECK_STOP_ON_FAIL") != nullptr) return 1;  // as relacy_scenarios
  }
  ok &= fairness_property<256>();
  ok &= fairness_property<8>();
  if (!ok) std::printf("FAILED: see the reproduce: lines above\n");
  return ok ? 0 : 1;
}
