// stress/src/command.cpp — the stress command's options and driver loop.
#include "runqcheck/stress/command.hpp"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>

#include "runqcheck/stress/runtime.hpp"  // not proc.hpp: no queue here (cmake/stress.cmake)
#include "runqcheck/stress/watchdog.hpp"
#include "runqcheck/stress/workloads.hpp"

namespace runqcheck::stress {
namespace {

using clk = std::chrono::steady_clock;

long rss_peak_kib() {  // VmHWM of /proc/self/status
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
  }
  return -1;
}

std::string reproduce_line(const options& o, int procs, std::int64_t size) {
  std::ostringstream s;
  if (const char* m = std::getenv("RUNQCHECK_MUTANT"); m != nullptr && *m != '\0')
    s << "RUNQCHECK_MUTANT=" << m << ' ';
  s << o.argv0 << " --workload " << o.workload << " --procs " << procs << " --size " << size
    << " --seed " << o.seed << " --watchdog-ms " << o.watchdog_ms;
  if (o.rounds > 0) s << " --rounds " << o.rounds;
  else s << " --seconds " << o.seconds;
  if (o.sysmon) s << " --sysmon";
  return s.str();
}

int usage_error(const char* msg) {
  std::fprintf(stderr, "runqcheck_stress: error: %s\n", msg);
  return exit_usage;
}

}  // namespace

void add_options(CLI::App& app, options& o) {
  std::vector<std::string> names;
  for (const auto& w : workloads()) names.emplace_back(w.name);
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  app.add_option("--workload,-w", o.workload, "workload: " + list)
      ->required()
      ->check(CLI::IsMember(names));
  app.add_option("--procs,-p", o.procs, "GOMAXPROCS (default: number of CPUs)")
      ->check(CLI::Range(1, max_procs));
  auto* sec =
      app.add_option("--seconds", o.seconds, "run rounds until S seconds have passed (stress mode)")
          ->check(CLI::PositiveNumber);
  auto* rds =
      app.add_option("--rounds", o.rounds, "one warm-up round, then R timed rounds (bench mode)")
          ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40));
  sec->excludes(rds);
  rds->excludes(sec);
  app.add_option("--size", o.size, "K, the size of one round (default: the workload's)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40));
  app.add_option("--seed", o.seed, "seed (chaos's choices, the Ms' steal order)");
  app.add_option(
         "--watchdog-ms", o.watchdog_ms,
         "exit 3 after M ms in which no G was created, readied or finished while Gs are alive")
      ->check(CLI::Range(1, 3600 * 1000));
  app.add_flag("--sysmon", o.sysmon,
               "retake Ps stuck in syscalls (off by default: it masks lost wakeups)");
}

int run(const options& o) {
  const workload* w = find_workload(o.workload);
  if (w == nullptr) return usage_error("unknown --workload");
  if ((o.seconds > 0) == (o.rounds > 0))
    return usage_error("give exactly one of --seconds S or --rounds R");
  int procs =
      o.procs > 0 ? o.procs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  procs = std::min(procs, max_procs);
  if (w->procs1) procs = 1;  // Go: defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
  if (procs < w->min_procs) return usage_error("this --workload needs --procs 2 or more");
  // A workload (or --sysmon) that needs an optional hook the protocol lacks
  // is not run, and says so (protocol_subject.hpp).
  protocol_info pi = protocol_under_test_info();
  // `declared absent` where the registration's WITHOUT names that feature.
  const char* why = nullptr;
  bool declared = false;
  if ((w->syscalls || o.sysmon) && !pi.syscalls) {
    why = "its Gs enter syscalls (or --sysmon retakes): needs has_protocol_syscall_thief"
          " (the syscall hooks and setBlockOnExitSyscall)";
    declared = pi.without_syscalls;
  } else if (w->procresize && !pi.procresize) {
    why = "it changes GOMAXPROCS: needs has_protocol_procresize";
    declared = pi.without_procresize;
  }
  if (why != nullptr) {
    std::printf("runqcheck: %s: stress %s%s: %s (protocol %s)\n",
                declared ? "declared absent" : "not applied", w->name,
                o.sysmon ? " --sysmon" : "", why, pi.name);
    return 0;
  }
  std::int64_t size = o.size > 0 ? o.size : w->default_size;
  set_reproducer(reproduce_line(o, o.procs > 0 ? o.procs : procs, size));
  install_fatal_handler();

  runtime_config cfg;
  cfg.procs = procs;
  cfg.seed = o.seed;
  cfg.sysmon = o.sysmon;
  cfg.watchdog_ms = o.watchdog_ms;
  runtime_start(cfg);

  std::vector<std::int64_t> ns;
  auto t_start = clk::now(), t_progress = t_start;
  for (int r = 0;; r++) {
    if (o.rounds > 0 && r > o.rounds) break;
    if (o.seconds > 0 && r > 0 && clk::now() - t_start >= std::chrono::duration<double>(o.seconds))
      break;
    round_ctx ctx{procs, size, o.seed, r};
    std::int64_t own = 0;
    auto t0 = clk::now();
    run_main([&] { own = w->round(ctx); });
    std::int64_t d =
        own > 0 ? own
                : std::chrono::duration_cast<std::chrono::nanoseconds>(clk::now() - t0).count();
    if (r > 0 || o.seconds > 0) ns.push_back(d);  // round 0 of --rounds is the warm-up
    judge_round_end();  // every G done: every M parks, the end state holds (untimed)
    if (o.seconds > 0 && clk::now() - t_progress >= std::chrono::seconds(1)) {
      t_progress = clk::now();
      double el = std::chrono::duration<double>(t_progress - t_start).count();
      std::fprintf(stderr, "progress: workload=%s procs=%d elapsed=%.1fs rounds=%zu %s\n", w->name,
                   procs, el, ns.size(), stats_line().c_str());
    }
  }
  std::string stats = stats_line();
  if (!runtime_stop()) {
    std::fprintf(stderr, "reproduce: %s\n", reproducer().c_str());
    return exit_invariant;
  }
  std::sort(ns.begin(), ns.end());
  std::int64_t median = ns[ns.size() / 2];
  if (ns.size() % 2 == 0) median = (ns[ns.size() / 2 - 1] + ns[ns.size() / 2]) / 2;
  std::fprintf(stderr, "%s rss_peak_mib=%ld\n", stats.c_str(), rss_peak_kib() / 1024);
  std::printf("bench: workload=%s procs=%d size=%" PRId64 " rounds=%zu median_ns=%" PRId64
              " min_ns=%" PRId64 " max_ns=%" PRId64 "\n",
              w->name, procs, size, ns.size(), median, ns.front(), ns.back());
  std::fflush(stdout);
  return 0;
}

std::string self_path() {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : p.string();
}

CLI::App* add_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<options>();
  std::string self = self_path();
  o->argv0 = (self.empty() ? std::string("runqcheck") : self) + " stress";
  CLI::App* sub = app.add_subcommand(
      "stress", "run the queues in an M:N scheduler on real threads (stress/README.md)");
  add_options(*sub, *o);
  sub->callback([o, &exit_code] { exit_code = run(*o); });
  return sub;
}

}  // namespace runqcheck::stress
