// tests/stall/stall.cpp — the stall checker: one thread held between two of
// its shared accesses while the others run long operation sequences (index
// reuse, ABA on counters narrower than 32 bits), for every stall point k of
// the held operation. Runs on the stall backend (stall_backend.hpp): one
// thread at a time, every hand-off bounded, each case replayable with
//   RUNQCHECK_STALL=<scenario>:<k> <this binary>
// (RUNQCHECK_STOP_ON_FAIL=1: the run ends at the first failing scenario.)
// Checks: each G delivered exactly once (leftovers drained at the end), no G
// delivered that is not queued, FIFO of each owner's plain puts, runqget's
// inheritTime (true exactly for the G its P's owner last put with next=true,
// while no Gs are brought into that P), and a held runqget's nil (no G
// left on its P afterwards that was queued there throughout the call).
#include <algorithm>
#include <chrono>
#include <climits>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "runqcheck_subject.hpp"
#include "stall_backend.hpp"
#include "stall_scenarios.hpp"

namespace {

using namespace runqcheck::stall;
using B = runqcheck::stall::backend;
using G = runqcheck::g<B>;
using runqcheck::stall::model::load_kind;
using runqcheck::model::op_kind;
using runqcheck::stall::model::scenario;

constexpr std::uint32_t none = UINT32_MAX;

// Who holds which G, and the first thing that went wrong.
struct ledger {
  std::unique_ptr<G[]> gs;
  std::size_t n = 0, next = 0;
  std::vector<std::uint8_t> state;  // 0 never queued, 1 queued, 2 delivered
  std::vector<std::uint32_t> seq;   // order of its plain put on its P (none: not a plain put)
  std::vector<std::uint32_t> last;  // per P: seq of the last G its owner got from the ring
  std::vector<std::uint32_t> puts;  // per P: plain puts so far
  // per P: the G its owner last put with next=true (none: none since it was
  // got): the only G its runnext can hold. A P whose ring Gs are brought
  // into (a steal by its owner) is not judged on inheritTime.
  std::vector<std::uint32_t> next_g;
  std::vector<std::uint8_t> brought;
  std::vector<std::uint8_t> by;     // per G: index in hows of who delivered it
  std::vector<std::string> hows;    // the distinct deliverers
  std::string error;

  ledger(std::size_t count, int nps)
      : gs(new G[count]),
        n(count),
        state(count),
        seq(count, none),
        last(nps, 0),
        puts(nps, 0),
        next_g(nps, none),
        brought(nps, 0),
        by(count) {
    for (std::size_t i = 0; i < n; i++) gs[i].goid = i;
  }
  void fail(std::string s) {
    if (error.empty()) error = std::move(s);
  }
  G* fresh(int p, bool plain) {
    if (next == n) throw std::runtime_error("harness: out of Gs");
    std::size_t i = next++;
    state[i] = 1;  // queued from the start of the put that publishes it
    if (plain) seq[i] = ++puts[p];
    return &gs[i];
  }
  // A fresh G for runqput(p, gp, true).
  G* fresh_next(int p) {
    G* gp = fresh(p, false);
    next_g[p] = static_cast<std::uint32_t>(gp - &gs[0]);
    return gp;
  }
  // runqget(p) answered {gp, inheritTime}: judged by where the harness put gp.
  void got(G* gp, bool inheritTime, const std::string& how, int p) {
    if (gp != nullptr && gp >= &gs[0] && gp < &gs[0] + n && brought[p] == 0) {
      auto i = static_cast<std::uint32_t>(gp - &gs[0]);
      if (inheritTime != (i == next_g[p])) {
        fail(how + ": inheritTime " + (inheritTime ? "true" : "false") + " for G" +
             std::to_string(i) +
             (i == next_g[p] ? ", the G put to runnext" : ", not the G in runnext"));
      }
      if (i == next_g[p]) next_g[p] = none;
    }
    delivered(gp, how, inheritTime ? -1 : p);
  }
  // gp came out of the queues through `how`; owner_p >= 0 for an owner's ring get.
  void delivered(G* gp, const std::string& how, int owner_p = -1) {
    if (gp == nullptr) return fail(how + " delivered a null G");
    if (gp < &gs[0] || gp >= &gs[0] + n) return fail(how + " delivered a pointer that is not a G");
    std::size_t i = gp - &gs[0];
    if (state[i] != 1) {
      return fail(how + " delivered G" + std::to_string(i) +
                  (state[i] == 2 ? ", already delivered by " + hows[by[i]] + " (duplicated G)"
                                 : ", never queued"));
    }
    state[i] = 2;
    std::size_t w = 0;
    while (w < hows.size() && hows[w] != how) w++;
    if (w == hows.size() && w < 255) hows.push_back(how);
    by[i] = static_cast<std::uint8_t>(std::min<std::size_t>(w, 254));
    if (owner_p >= 0 && seq[i] != none) {
      if (seq[i] < last[owner_p]) {
        fail(how + ": FIFO: G" + std::to_string(i) + " (put #" + std::to_string(seq[i]) +
             ") after put #" + std::to_string(last[owner_p]));
      }
      last[owner_p] = seq[i];
    }
  }
  std::string lost() const {
    std::string s;
    int count = 0;
    for (std::size_t i = 0; i < next; i++) {
      if (state[i] == 1 && count++ < 4) s += " G" + std::to_string(i);
    }
    return count == 0 ? "" : std::to_string(count) + " G(s) queued but never delivered (lost):" + s;
  }
};

std::string op_name(const scenario& sc) {
  auto pn = [](int p) { return "P" + std::to_string(p); };
  switch (sc.op) {
    case op_kind::steal:
      return "runqsteal(" + pn(sc.p) + ", " + pn(sc.victim) + ", false)";
    case op_kind::steal_next:
      return "runqsteal(" + pn(sc.p) + ", " + pn(sc.victim) + ", true)";
    case op_kind::put:
      return "runqput(" + pn(sc.p) + ", g, false)";
    case op_kind::put_next:
      return "runqput(" + pn(sc.p) + ", g, true)";
    case op_kind::get:
      return "runqget(" + pn(sc.p) + ")";
    default: break;  // the catalog holds only the five above
  }
  return "?";
}

template <std::uint32_t Cap>
struct runner {
  using S = subject_under_test<B, Cap>;
  using P = typename S::p;

  const scenario& sc;
  long k;
  std::string full;  // scenario name with the capacity
  std::unique_ptr<typename S::schedt> sched;
  std::vector<std::unique_ptr<P>> ps;
  ledger lg;
  long stalled_accesses = 0;  // accesses the held op made in all
  bool held_nil = false;      // the held op was a runqget that found nothing

  runner(const scenario& s, long kk, std::string name)
      : sc(s), k(kk), full(std::move(name)), lg(gs_needed(s), s.nps) {}
  // The port's destructors (members') are no operation of the scenario.
  ~runner() { tls.op_accesses = 0; }

  static std::size_t gs_needed(const scenario& s) {
    std::size_t n = Cap + 2 + 1;
    for (const auto& t : s.threads)
      for (const auto& l : t) n += std::size_t(l.reps) * (l.kind == load_kind::owner_churn ? 2 : 1);
    return n;
  }

  std::string dump() {
    tls.op_accesses = 0;  // the dump's reads are not an operation of the scenario
    std::string s;
    try {
      dump_into(s);
    } catch (const std::exception& e) {
      s += std::string("\n  (state dump cut short: ") + e.what() + ")";
    }
    return s;
  }
  void dump_into(std::string& s) {
    if (sched == nullptr || ps.size() != std::size_t(sc.nps)) {
      s += "\n  (no state dump: the Ps were not all constructed)";
      return;
    }
    for (int i = 0; i < sc.nps; i++) {
      if constexpr (runqcheck::has_describe<S>) {
        std::string d = S::describe_p(*ps[i]);
        if (d.size() > 240) d = d.substr(0, 240) + " ...";
        s += "\n  P" + std::to_string(i) + ": " + d;
      } else if constexpr (runqcheck::has_runq_counters<S>) {
        auto c = S::runq_counters(*ps[i]);
        s += "\n  P" + std::to_string(i) + ": head=" + std::to_string(c.head) +
             " tail=" + std::to_string(c.tail);
      }
    }
    if constexpr (runqcheck::has_describe<S>) {
      s += "\n  sched: " + std::string(S::describe_sched(*sched));
    } else if constexpr (!runqcheck::has_runq_counters<S>) {
      s += "\n  (no state dump: the subject has neither runq_counters nor "
           "describe_p/describe_sched)";
    }
  }

  // Runs one load of a non-held thread.
  void run_load(const model::load& l) {
    auto pn = [](int p) { return "P" + std::to_string(p); };
    // The deliverers' names, built once (a sequence is 2^17 operations).
    const std::string get = "runqget(" + pn(l.p) + ")";
    const std::string steal = "runqsteal(" + pn(l.p) + ", " + pn(l.victim) + ")";
    const std::string steal_next = "runqsteal(" + pn(l.p) + ", " + pn(l.victim) + ", true)";
    const std::string glob = "globrunqget";
    switch (l.kind) {
      case load_kind::owner_churn: {
        auto& pp = *ps[l.p];
        for (long i = 0; i < l.reps + l.reps / 8 && lg.error.empty(); i++) {
          tls.op_accesses = 0;
          bool next = i >= l.reps;  // then an eighth more through runnext
          S::runqput(pp, next ? lg.fresh_next(l.p) : lg.fresh(l.p, true), next);
          auto r = S::runqget(pp);
          if (r.gp == nullptr) return lg.fail(get + " found nothing after a put");
          lg.got(r.gp, r.inheritTime, get, l.p);
        }
        return;
      }
      case load_kind::steal_from:
        lg.brought[l.p] = 1;
        for (long i = 0; i < l.reps; i++) {
          tls.op_accesses = 0;
          G* gp = S::runqsteal(*ps[l.p], *ps[l.victim], true);
          if (gp != nullptr) lg.delivered(gp, steal_next);
        }
        return;
      case load_kind::steal_pairs:
        lg.brought[l.p] = 1;
        for (long i = 0; i < l.reps && lg.error.empty(); i++) {
          tls.op_accesses = 0;
          S::runqput(*ps[l.victim], lg.fresh(l.victim, true), false);
          G* gp = S::runqsteal(*ps[l.p], *ps[l.victim], false);
          if (gp == nullptr) return lg.fail(steal + " found nothing");
          lg.delivered(gp, steal);
        }
        return;
      case load_kind::glob_pairs:
        for (long i = 0; i < l.reps && lg.error.empty(); i++) {
          tls.op_accesses = 0;
          S::globrunqput(*sched, lg.fresh(0, false));
          G* gp = S::globrunqget(*sched);
          if (gp == nullptr) return lg.fail("globrunqget found nothing after a globrunqput");
          lg.delivered(gp, glob);
        }
        return;
    }
  }

  void held_op() {
    auto& pp = *ps[sc.p];
    std::string name = op_name(sc);
    tls.designated = true;
    tls.count = 0;
    tls.op_accesses = 0;
    tls.counting = true;
    G* gp = nullptr;
    int owner = -1;  // sc.p when gp came from the owner's ring
    switch (sc.op) {
      case op_kind::steal:
        gp = S::runqsteal(pp, *ps[sc.victim], false);
        break;
      case op_kind::steal_next:
        gp = S::runqsteal(pp, *ps[sc.victim], true);
        break;
      case op_kind::put:
        S::runqput(pp, lg.fresh(sc.p, true), false);
        break;
      case op_kind::put_next:
        S::runqput(pp, lg.fresh_next(sc.p), true);
        break;
      case op_kind::get: {
        auto r = S::runqget(pp);
        tls.counting = false;
        stalled_accesses = tls.count;
        held_nil = r.gp == nullptr;
        if (r.gp != nullptr) lg.got(r.gp, r.inheritTime, name, sc.p);
        return;
      }
      default: std::abort();  // not a held operation (stall_scenarios.hpp)
    }
    tls.counting = false;
    stalled_accesses = tls.count;
    if (gp != nullptr) lg.delivered(gp, name, owner);
  }

  // Only the held owner adds to its P (no other thread puts to it or steals
  // into it): then a G on that P after the held get was there all along.
  bool sole_adder() const {
    for (const auto& t : sc.threads)
      for (const auto& l : t) {
        if (l.kind == load_kind::glob_pairs) continue;
        if (l.p == sc.p || (l.kind == load_kind::steal_pairs && l.victim == sc.p)) return false;
      }
    return true;
  }

  // Runs f on a thread of its own; false if it did not finish within the bound.
  template <class F>
  bool on_thread(F f, std::string& err) {
    bool done = false;
    std::thread t([&] {
      try {
        f();
      } catch (const std::exception& e) {
        std::lock_guard l(ctl.m);
        if (err.empty()) err = e.what();
      }
      std::lock_guard l(ctl.m);
      done = true;
      ctl.cv.notify_all();
    });
    std::unique_lock l(ctl.m);
    if (!ctl.cv.wait_for(l, wait_bound, [&] { return done; })) {
      t.detach();
      return false;
    }
    l.unlock();
    t.join();
    return true;
  }

  [[noreturn]] void hang(const std::string& who) {
    std::printf(
        "stall/%s: FAILED %s:%ld: %s did not finish within %lld s (held: %s at access %ld)%s\n",
        subject_name, full.c_str(), k, who.c_str(), static_cast<long long>(wait_bound.count()),
        op_name(sc).c_str(), k, dump().c_str());
    std::printf("reproduce: RUNQCHECK_STALL=%s:%ld %s\n", full.c_str(), k, self().c_str());
    std::fflush(stdout);
    std::_Exit(1);
  }

  static std::string self() {
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    return n > 0 ? std::string(buf, n) : std::string("<stall binary>");
  }

  enum class outcome { passed, failed, beyond, in_lock };

  // One case; `trace` prints the schedule as it goes.
  outcome run(bool trace) {
    // Each call into the port below is in a try: a throw (livelock, fatal) fails the case.
    tls.op_accesses = 0;
    try {
      sched = std::make_unique<typename S::schedt>(sc.nps);
      for (int i = 0; i < sc.nps; i++) {
        tls.op_accesses = 0;
        ps.push_back(std::make_unique<P>(*sched, i));
      }
    } catch (const std::exception& e) {
      lg.fail(std::string("constructing the schedt and Ps: ") + e.what());
      return report(dump(), false);
    }
    try {
      for (int i = 0; i < (sc.ring0 < 0 ? int(Cap) : sc.ring0); i++) {
        tls.op_accesses = 0;
        S::runqput(*ps[0], lg.fresh(0, true), false);
      }
      tls.op_accesses = 0;
      if (sc.runnext0) S::runqput(*ps[0], lg.fresh_next(0), true);
    } catch (const std::exception& e) {
      lg.fail(std::string("P0's initial puts: ") + e.what());
    }
    {
      std::lock_guard l(ctl.m);
      ctl.k = k;
      ctl.parked = ctl.resume = ctl.skipped_in_lock = false;
    }
    if (trace)
      std::printf("trace: %s:%ld: held thread runs %s up to access %ld\n", full.c_str(), k,
                  op_name(sc).c_str(), k);

    // The held thread: runs until it parks or finishes.
    std::string herr;
    bool hdone = false;
    std::thread held([&] {
      try {
        held_op();
      } catch (const std::exception& e) {
        std::lock_guard l(ctl.m);
        herr = e.what();
      }
      std::lock_guard l(ctl.m);
      hdone = true;
      ctl.cv.notify_all();
    });
    bool parked;
    {
      std::unique_lock l(ctl.m);
      if (!ctl.cv.wait_for(l, wait_bound, [&] { return ctl.parked || hdone; })) {
        held.detach();
        l.unlock();
        hang("the held thread (before access k)");
      }
      parked = ctl.parked;
    }
    if (trace)
      std::printf("trace: held thread %s\n", parked ? "parked" : "finished without reaching k");

    // The others, one at a time, each to the end of its sequence.
    std::string oerr;
    for (std::size_t t = 0; parked && t < sc.threads.size(); t++) {
      if (trace) {
        for (const auto& l : sc.threads[t])
          std::printf("trace: thread %zu: %s\n", t + 1, model::describe(l).c_str());
      }
      if (!on_thread(
              [&] {
                for (const auto& l : sc.threads[t]) run_load(l);
              },
              oerr)) {
        held.detach();
        hang("thread " + std::to_string(t + 1));
      }
      if (!oerr.empty()) lg.fail("thread " + std::to_string(t + 1) + ": " + oerr);
    }

    // Resume the held thread and wait for it.
    {
      std::unique_lock l(ctl.m);
      ctl.resume = true;
      ctl.cv.notify_all();
      if (!ctl.cv.wait_for(l, wait_bound, [&] { return hdone; })) {
        held.detach();
        l.unlock();
        hang("the held thread (after its resume)");
      }
    }
    held.join();
    if (!herr.empty()) lg.fail("held thread " + op_name(sc) + ": " + herr);
    if (trace)
      std::printf("trace: held thread resumed and finished after %ld accesses\n", stalled_accesses);

    // Leftovers: every P's queue, then the global queue.
    tls.designated = false;
    std::string state = dump();
    try {
      tls.op_accesses = 0;
      for (int i = 0; i < sc.nps; i++) {
        auto q = S::runqdrain(*ps[i]);
        if (i == sc.p && held_nil && !q.empty() && sole_adder()) {
          lg.fail(op_name(sc) + " found nothing, though G" +
                  std::to_string(q.head()->goid) + " was on P" + std::to_string(i) +
                  " throughout the call (found by the leftovers' runqdrain)");
        }
        while (!q.empty()) lg.delivered(q.pop(), "runqdrain(P" + std::to_string(i) + ")");
      }
      while (G* gp = S::globrunqget(*sched)) lg.delivered(gp, "globrunqget (leftovers)");
    } catch (const std::exception& e) {
      lg.fail(std::string("draining the leftovers: ") + e.what());
    }
    if (lg.error.empty()) lg.fail(lg.lost());
    if (!lg.error.empty()) return report(state, true);
    if (ctl.skipped_in_lock) return outcome::in_lock;
    return parked ? outcome::passed : outcome::beyond;
  }

  // Prints the failure in lg.error with the state dump and the reproducer;
  // ran: the held thread was started (else the case's set-up failed).
  outcome report(const std::string& state, bool ran) {
    // A run never parked (k = LONG_MAX, or past its accesses) is named by the first k past the
    // op's accesses, which replays it the same way.
    const bool alone = k == LONG_MAX || k > stalled_accesses;
    const long shown = alone ? stalled_accesses + 1 : k;
    std::printf("stall/%s: FAILED %s:%ld: %s\n", subject_name, full.c_str(), shown,
                lg.error.c_str());
    if (ran && alone) {
      std::printf("  held: %s, never parked (it fails run alone, before any stall; its %ld "
                  "accesses)%s\n",
                  op_name(sc).c_str(), stalled_accesses, state.c_str());
    } else if (ran) {
      std::printf(
          "  held: %s, parked before its access %ld of %ld, resumed after the others' "
          "sequences%s\n",
          op_name(sc).c_str(), k, stalled_accesses, state.c_str());
    } else {
      std::printf("  held: %s, not started (the case's set-up failed)%s\n", op_name(sc).c_str(),
                  state.c_str());
    }
    std::printf("reproduce: RUNQCHECK_STALL=%s:%ld %s\n", full.c_str(), shown, self().c_str());
    std::fflush(stdout);
    return outcome::failed;
  }
};

struct totals {
  int cases = 0, failed = 0;
};

// --points M: the stall points k to hold when the held op, run alone, makes
// N > M accesses: the first and the last M/4, and M/2 drawn between them
// (seeded by the scenario's name: the same points every run); every k past N
// (a retry's accesses) as well. Index k of the result: k is held. Empty:
// every k.
std::vector<bool> points(long n, const std::string& full, long max_points) {
  if (max_points == 0 || n <= max_points) return {};
  std::vector<bool> pick(n + 1);
  long edge = max_points / 4;
  for (long k = 1; k <= edge; k++) pick[k] = pick[n + 1 - k] = true;
  std::uint64_t seed = 14695981039346656037ull;  // FNV-1a of the name
  for (char c : full) seed = (seed ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  std::mt19937_64 rng(seed);
  for (long drawn = 0; drawn < max_points - 2 * edge;) {
    long k = edge + 1 + static_cast<long>(rng() % (n - 2 * edge));
    if (!pick[k]) pick[k] = true, drawn++;
  }
  return pick;
}

// Every k of one scenario (or the one k asked for; with --points, those of
// points()).
template <std::uint32_t Cap>
void run_scenario(const scenario& sc, std::optional<long> only, long max_points,
                  totals& tot) {
  std::string full = std::string(sc.name) + "_cap" + std::to_string(Cap);
  if (only) {
    runner<Cap> r(sc, *only, full);
    auto o = r.run(true);
    tot.cases++;
    if (o == runner<Cap>::outcome::failed) tot.failed++;
    if (o == runner<Cap>::outcome::beyond)
      std::printf("stall: %s: the op ends before access %ld\n", full.c_str(), *only);
    return;
  }
  int held = 0, in_lock = 0;
  std::vector<bool> pick;
  if (max_points != 0) {  // the op's accesses, run alone (k never reached)
    runner<Cap> alone(sc, LONG_MAX, full);
    if (alone.run(false) == runner<Cap>::outcome::failed) {
      tot.cases++, tot.failed++;
      return;
    }
    pick = points(alone.stalled_accesses, full, max_points);
  }
  for (long k = 1;; k++) {
    if (k < static_cast<long>(pick.size()) && !pick[k]) continue;
    runner<Cap> r(sc, k, full);
    auto o = r.run(false);
    if (o == runner<Cap>::outcome::beyond) break;
    tot.cases++;
    if (o == runner<Cap>::outcome::failed) {
      tot.failed++;
      return;  // the first failing k of a scenario is its reproducer
    }
    (o == runner<Cap>::outcome::in_lock ? in_lock : held)++;
  }
  std::string of = pick.empty() ? ""
                                 : " (--points: " + std::to_string(held + in_lock) +
                                       " of its " + std::to_string(pick.size() - 1) +
                                       " accesses alone tried)";
  if (held == 0) {
    std::printf(
        "runqcheck: not applied: stall %s: every access of %s is made holding a B::mutex, "
        "where no thread can be held (subject %s)\n",
        full.c_str(), op_name(sc).c_str(), subject_name);
  } else {
    std::printf(
        "stall: %s: %d stall points held%s%s\n", full.c_str(), held,
        in_lock ? (", " + std::to_string(in_lock) + " under a B::mutex skipped").c_str() : "",
        of.c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  long max_points = 0;  // every stall point
  if (argc == 3 && std::strcmp(argv[1], "--points") == 0) {
    char* end = nullptr;
    max_points = std::strtol(argv[2], &end, 10);
    if (*argv[2] == '\0' || *end != '\0' || max_points < 4 || max_points > 1000000) {
      std::fprintf(stderr, "stall: --points '%s': expected a number from 4 to 1000000\n",
                   argv[2]);
      return 2;
    }
  } else if (argc != 1) {
    std::fprintf(stderr, "usage: %s [--points M]   (RUNQCHECK_STALL=<scenario>:<k>: one case)\n",
                 argv[0]);
    return 2;
  }
  std::optional<long> only_k;
  std::string only;
  if (const char* e = std::getenv("RUNQCHECK_STALL"); e != nullptr && *e != '\0') {
    std::string s(e);
    auto colon = s.rfind(':');
    char* end = nullptr;
    long k = colon == std::string::npos ? 0 : std::strtol(s.c_str() + colon + 1, &end, 10);
    if (colon == std::string::npos || k < 1 || end == nullptr || *end != '\0') {
      std::fprintf(stderr, "stall: RUNQCHECK_STALL='%s': expected <scenario>:<k>, k >= 1\n", e);
      return 2;
    }
    only = s.substr(0, colon);
    only_k = k;
  }
  totals tot;
  bool found = false;
  // RUNQCHECK_STOP_ON_FAIL (a kill cell, as relacy_scenarios): the first failing scenario
  // ends the run; its reproducer is printed.
  const bool stop_on_fail = std::getenv("RUNQCHECK_STOP_ON_FAIL") != nullptr;
  for (const auto& sc : model::catalog()) {
    if (stop_on_fail && tot.failed) break;
    for (std::uint32_t cap : {256u, 8u}) {
      if (stop_on_fail && tot.failed) break;
      std::string full = std::string(sc.name) + "_cap" + std::to_string(cap);
      if (only_k && full != only) continue;
      found = true;
      if (cap == 256)
        run_scenario<256>(sc, only_k, max_points, tot);
      else
        run_scenario<8>(sc, only_k, max_points, tot);
    }
  }
  if (!found) {
    std::fprintf(stderr, "stall: RUNQCHECK_STALL: no scenario '%s'\n", only.c_str());
    return 2;
  }
  std::printf("stall/%s: %s (%d cases, %d failed%s)\n", subject_name,
              tot.failed ? "FAILED" : "passed", tot.cases, tot.failed,
              max_points ? (", at most " + std::to_string(max_points) +
                            " stall points a scenario: --points").c_str()
                         : "");
  return tot.failed ? 1 : 0;
}
