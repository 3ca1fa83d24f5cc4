// stress/src/watchdog.cpp — the watchdog thread, the state dump and the
// fatal handler (see watchdog.hpp).
#include "runqcheck/stress/watchdog.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "runqcheck/stress/proc.hpp"

namespace runqcheck::stress {
namespace {

constexpr auto relaxed = std::memory_order_relaxed;

std::string repro;
std::thread wd_thread;
std::atomic<bool> wd_stop{
    false};  // driver -> watchdog: release store, acquire load (then the thread is joined)
std::atomic<bool> wd_round{false};  // a round is in flight; relaxed: a hint next to the counters
std::atomic<bool> wd_shutdown{false};  // the driver joins the Ms; relaxed, as wd_round
std::atomic<bool> dying{
    false};  // the first failure wins (exchange; seq_cst default); later ones just exit

const char* pstatus_name(std::uint32_t s) {
  static const char* n[] = {"idle", "running", "syscall", "gcstop", "dead"};
  return s < 5 ? n[s] : "?";
}
const char* gstatus_name(std::uint32_t s) {
  switch (s & ~runqcheck::gscan) {  // a scanned G (setBlockOnExitSyscall) by its status
    case 0: return "idle";
    case 1: return "runnable";
    case 2: return "running";
    case 3: return "syscall";
    case 4: return "waiting";
    case 6: return "dead";
    default: return "?";
  }
}
const char* mstate_name(mstate s) {
  static const char* n[] = {"idle",   "running", "findrunnable", "spinning",
                            "parked", "syscall", "stw",          "exited"};
  return n[static_cast<int>(s)];
}

void print_g(const core_g* g) {
  const G* gp = static_cast<const G*>(g);
  std::fprintf(stderr, " g%" PRIu64 "(%s)", gp->goid, gstatus_name(gp->atomicstatus.load(relaxed)));
}

// The rest of a P's dump line: go125's ring and runnext, or a queue of its
// own through its describe_p hook (relaxed reads, no lock), if it has one.
template <class PP, class Q = S>
void print_local(PP* pp) {
  if constexpr (own_queue) {
    if constexpr (runqcheck::has_describe<Q>)
      std::fprintf(stderr, " %s\n", Q::describe_p(*pp).c_str());
    else
      std::fprintf(stderr, " (queue %s: no describe_p hook)\n", S::name);
  } else {
    std::uint32_t h = pp->runqhead.load(relaxed), t = pp->runqtail.load(relaxed);
    std::fprintf(stderr, " runqhead=%u runqtail=%u len=%u runnext=", h, t, t - h);
    each_local_g(pp, [](core_g* g, bool next) {
      if (g != nullptr) print_g(g);
      else std::fprintf(stderr, " -");  // runnext empty
      if (next) std::fprintf(stderr, " runq=[");
    });
    std::fprintf(stderr, " ]\n");
  }
}

// The global queue's dump line: go125's under sched.lock (l), or a queue of
// its own through its describe_sched hook, if it has one.
template <class Sched, class L, class Q = S>
void print_global(Sched& s, L& l) {
  if constexpr (own_queue) {
    if constexpr (runqcheck::has_describe<Q>)
      std::fprintf(stderr, "global runq: %s\n", Q::describe_sched(s.queues()).c_str());
    else
      std::fprintf(stderr, "global runq: (queue %s: no describe_sched hook)\n", S::name);
  } else {
    std::fprintf(stderr, "global runq: size=%d [", l.runq().size());
    each_global_g(l, [](core_g* g) { print_g(g); });
    std::fprintf(stderr, "%s ]\n", l.runq().size() > 64 ? " ..." : "");
  }
}

// A backstop: if the dump blocks (sched.lock held by a stuck thread), exit anyway.
void arm_alarm(int code) {
  std::thread([code] {
    std::this_thread::sleep_for(std::chrono::seconds(5));
    std::fprintf(stderr, "(dump did not finish in 5 s; sched.lock held?)\nreproduce: %s\n",
                 repro.c_str());
    std::fflush(stderr);
    std::_Exit(code);
  }).detach();
}

[[noreturn]] void die(int code) {
  std::fprintf(stderr, "reproduce: %s\n", repro.c_str());
  std::fflush(stderr);
  std::fflush(stdout);
  std::_Exit(code);
}

void stress_fatal(const runqcheck::fatal_info& f) {
  if (dying.exchange(true)) {
    std::this_thread::sleep_for(std::chrono::seconds(10));  // the first reporter exits the process
    std::_Exit(exit_invariant);
  }
  std::fprintf(stderr, "fatal error: %s%s%s at %s:%u\n", f.msg, f.values.empty() ? "" : " ",
               f.values.c_str(), f.where.file_name(), static_cast<unsigned>(f.where.line()));
  arm_alarm(exit_invariant);
  dump_sched(f.msg);
  die(exit_invariant);
}

}  // namespace

void fail_run(const std::string& what) {
  if (dying.exchange(true)) {
    std::this_thread::sleep_for(std::chrono::seconds(10));  // the first reporter exits the process
    std::_Exit(exit_invariant);
  }
  std::fprintf(stderr, "fatal error: %s\n", what.c_str());
  arm_alarm(exit_invariant);
  dump_sched("end state");
  die(exit_invariant);
}

namespace {

// Progress: a G created, readied or finished. Executes alone are not
// progress: a G that polls with Gosched (chaos's main G, a hog) is executed
// forever while the G it waits for is lost.
std::uint64_t progress(const schedt& s) {
  return s.ngcreated.load(relaxed) + s.nready.load(relaxed) + s.ngdone.load(relaxed);
}

// Idle time counts only the watchdog's own regular ticks (each at most two
// tick lengths): if the whole process or machine stalls (a VM paused, a
// starved watchdog thread), that gap is not blamed on the scheduler.
void watchdog_loop(int ms) {
  auto& s = sched();
  auto tick = std::chrono::milliseconds(std::max(1, std::min(50, ms / 10)));
  std::uint64_t last = progress(s);
  auto prev = std::chrono::steady_clock::now();
  std::chrono::steady_clock::duration idle{};
  while (!wd_stop.load(std::memory_order_acquire)) {
    std::this_thread::sleep_for(tick);
    auto now = std::chrono::steady_clock::now();
    auto step = std::min<std::chrono::steady_clock::duration>(now - prev, 2 * tick);
    prev = now;
    std::uint64_t cur = progress(s);
    std::uint64_t alive = s.ngcreated.load(relaxed) - s.ngdone.load(relaxed);
    if (cur != last || (!wd_round.load(relaxed) && alive == 0)) {
      last = cur;
      idle = {};
      continue;
    }
    idle += step;
    auto idle_ms = std::chrono::duration_cast<std::chrono::milliseconds>(idle).count();
    if (idle_ms < ms) continue;
    if (dying.exchange(true)) return;
    if (wd_shutdown.load(relaxed))  // stop_threads woke every M on the idle list
      std::fprintf(stderr,
                   "fatal error: watchdog: shutdown: for %lld ms not every M exited after each"
                   " one on the idle M list was woken (an M parked where no wakeup reaches it:"
                   " off the idle M list, a lost M)\n",
                   static_cast<long long>(idle_ms));
    else if (alive == 0)  // judge_round_end waits for every M to park
      std::fprintf(stderr,
                   "fatal error: watchdog: the round's Gs are done but for %lld ms not every M"
                   " parked (an M spinning or stuck: quiescence never reached)\n",
                   static_cast<long long>(idle_ms));
    else
      std::fprintf(stderr,
                   "fatal error: watchdog: no G was created, readied or finished for %lld ms"
                   " while %" PRIu64 " Gs are alive, %lld of them parked (work not conserved:"
                   " a lost wakeup, a lost G, or a deadlock)\n",
                   static_cast<long long>(idle_ms), alive,
                   static_cast<long long>(s.nwaiting.load(relaxed)));
    arm_alarm(exit_watchdog);
    dump_sched("watchdog");
    die(exit_watchdog);
  }
}

}  // namespace

void set_reproducer(std::string cmd) { repro = std::move(cmd); }

// A sanitizer's report (TSan's data race, ASan's error) is a failure of the
// run too: the runtime calls this weak hook of sanitizer_common with each
// report's SUMMARY line; it prints that line and the reproducer.
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
extern "C" void __sanitizer_report_error_summary(const char* summary) {
  std::fprintf(stderr, "%s\nreproduce: %s\n", summary, repro.c_str());
}
#endif
const std::string& reproducer() { return repro; }
void install_fatal_handler() { runqcheck::fatal_handler() = &stress_fatal; }

void watchdog_start(int ms) {
  wd_stop.store(false, relaxed);
  wd_round.store(false, relaxed);
  wd_shutdown.store(false, relaxed);
  wd_thread = std::thread(watchdog_loop, ms);
}
void watchdog_round(bool active) { wd_round.store(active, relaxed); }
void watchdog_shutdown() {
  wd_shutdown.store(true, relaxed);
  wd_round.store(true, relaxed);
}
void watchdog_stop() {
  wd_stop.store(true, std::memory_order_release);
  if (wd_thread.joinable()) wd_thread.join();
}

void dump_sched(const char* why) {
  auto& s = sched();
  std::fprintf(stderr, "=== scheduler state (%s) ===\n", why);
  std::fprintf(stderr,
               "sched: gomaxprocs=%d gcwaiting=%d mcount=%d created=%" PRIu64
               " finished=%" PRIu64 " executes=%" PRIu64 "\n",
               s.gomaxprocs.load(relaxed), s.gcwaiting.load(relaxed) ? 1 : 0,
               s.mcount.load(relaxed),
               s.ngcreated.load(relaxed), s.ngdone.load(relaxed), s.nexecute.load(relaxed));
  for (int i = 0; i < max_procs; i++) {
    P* pp = s.allp[i].load(std::memory_order_acquire);
    if (pp == nullptr) break;
    M* m = pp->owner();
    std::fprintf(stderr, "P%d: status=%s m=%lld idle=%d schedtick=%u", i,
                 pstatus_name(pp->status.load(relaxed)), m ? static_cast<long long>(m->id) : -1LL,
                 pp->idle.load(relaxed) ? 1 : 0, pp->schedtick);
    print_local(pp);
  }
  if (s.core.lock.held_by_me()) {
    std::fprintf(stderr,
                 "(sched.lock held by the failing thread: Ms and the global runq not printed)\n");
  } else {
    auto l = runqcheck::lock(s.core);
    // The protocol's own counts, through its observe() (sched.lock held; a
    // protocol's own lock is not taken here: the failing thread may hold it,
    // so such a protocol's counts are read racily, for the report only).
    protocol_counts c = s.observe();
    std::fprintf(stderr, "protocol %s: spinning=%d idle_ps=%d idle_ms=%d\n", s.protocol_name,
                 c.spinning, c.idle_ps, c.idle_ms);
    std::fprintf(stderr, "M: %zu Ms\n", s.allm.size());
    for (M* mp : s.allm) {
      P* p = mp->p.load(relaxed);
      P* np = mp->nextp.load(relaxed);
      G* g = mp->curG();
      std::fprintf(stderr, "M%lld: state=%s p=%d nextp=%d spinning=%d curg=",
                   static_cast<long long>(mp->id), mstate_name(mp->state.load(relaxed)),
                   p ? p->id : -1, np ? np->id : -1, mp->spinning.load(relaxed) ? 1 : 0);
      if (g) print_g(g);
      else std::fprintf(stderr, " -");
      std::fprintf(stderr, "\n");
    }
    print_global(s, l);
    // Where the alive Gs that can be found sit (the others wait: parked).
    std::string at = where_gs(&l);
    std::uint64_t alive = s.ngcreated.load(relaxed) - s.ngdone.load(relaxed);
    std::fprintf(stderr, "stranded: %s (%" PRIu64 " Gs alive)\n",
                 at.empty() ? "no G queued or in a syscall" : at.c_str(), alive);
  }
  std::fprintf(stderr, "%s\n", stats_line().c_str());
  std::fflush(stderr);
}

}  // namespace runqcheck::stress
