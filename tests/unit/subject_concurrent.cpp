// tests/unit/subject_concurrent.cpp — bounded stress with real threads
// through the subject API only: one owner P doing random runqput (ring and
// runnext), runqputbatch, runqget, runqdrain, findRunnable's global step and
// overflows through runqputslow, while thieves runqsteal from it. Ring
// capacity 8 so the slow path and the counter wrap of the ring are hit often.
// The check is conservation (tokio loom queue tests, stdexec rrd seen[]):
// every G created is delivered exactly once, none twice, none lost.
// Iteration counts scale with $RUNQCHECK_SCALE.
#include "test_support.hpp"

#include <random>
#include <string>
#include <vector>

#include "runqcheck_subject.hpp"

namespace {

using rqtest::B;
using rqtest::G;
using rqtest::gpool;
using rqtest::gqueue;

constexpr std::uint32_t Cap = 8;
using Subj = rqtest::watched<subject_under_test<B, Cap>>;
using P = typename Subj::p;
using Sched = typename Subj::schedt;

// Delivery counters per G, plus what the threads report.
struct ledger {
  explicit ledger(const gpool& gs) : pool(gs), count(new std::atomic<std::uint32_t>[gs.size()]) {
    for (std::size_t i = 0; i < gs.size(); i++) count[i].store(0, std::memory_order_relaxed);
  }
  void deliver(G* gp) {
    std::size_t i = pool.index(gp);
    if (i == SIZE_MAX) {
      foreign.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    count[i].fetch_add(1, std::memory_order_relaxed);
  }
  // A list with more Gs than the pool holds has a cycle in its schedlink chain
  // (a G handed out twice): counted, and the walk stops there instead of
  // spinning in test code, where no watchdog of the queue's operations looks.
  void deliver_all(gqueue& q) {
    for (std::size_t n = 0; G* gp = q.pop(); n++) {
      if (n == pool.size()) {
        cycles.fetch_add(1, std::memory_order_relaxed);
        return;
      }
      deliver(gp);
    }
  }
  // Delivers runqget's Gs until it says empty; more in a row than the pool
  // holds is the same failure (a G coming back without end).
  template <class Get>
  void deliver_gets(Get get) {
    for (std::size_t n = 0; G* gp = get(); n++) {
      if (n == pool.size()) {
        cycles.fetch_add(1, std::memory_order_relaxed);
        return;
      }
      deliver(gp);
    }
  }
  // Checks every G in [0, created) was delivered once and the rest never.
  void expect_conserved(std::size_t created) const {
    std::size_t lost = 0, dup = 0, phantom = 0;
    std::size_t first_lost = SIZE_MAX, first_dup = SIZE_MAX;
    for (std::size_t i = 0; i < pool.size(); i++) {
      std::uint32_t c = count[i].load(std::memory_order_relaxed);
      if (i < created && c == 0 && lost++ == 0) first_lost = i;
      if (c > 1 && dup++ == 0) first_dup = i;
      if (i >= created && c != 0) phantom++;
    }
    EXPECT_EQ(lost, 0u) << "Gs never delivered (lost), first: G#" << first_lost << " of "
                        << created;
    EXPECT_EQ(dup, 0u) << "Gs delivered more than once, first: G#" << first_dup;
    EXPECT_EQ(phantom, 0u) << "Gs delivered that were never queued";
    EXPECT_EQ(foreign.load(), 0u) << "pointers delivered that are not Gs of the pool";
    EXPECT_EQ(cycles.load(), 0u) << "a gQueue or a run of runqget handed out more Gs than exist "
                                    "(a cycle in schedlink: a G handed out twice)";
  }
  const gpool& pool;
  std::unique_ptr<std::atomic<std::uint32_t>[]> count;
  std::atomic<std::size_t> foreign{0};
  std::atomic<std::size_t> cycles{0};
};

// A thief's loop: steal from the victim into its own P, run (deliver) what it
// got, empty its own ring so the next steal meets runqsteal's precondition;
// now and then take one G from the global queue.
struct thief_loop {
  P& mine;
  P& victim;
  Sched& sched;
  ledger& led;
  std::atomic<bool>& stop;
  std::atomic<bool>& failed;
  std::string& error;
  std::uint32_t seed;
  std::uint32_t
      runnext_mask;  // steal runnext when (rng() & mask) == 0: 0 = always, 1 = half the time
  bool link;         // also runqdrain own ring and re-queue Gs globally (schedlink writers)
  std::atomic<std::uint64_t>& stolen;
  std::atomic<int>& started;

  void operator()() {
    try {
      started.fetch_add(1, std::memory_order_acq_rel);
      std::mt19937 rng(seed);
      std::uint64_t got = 0;  // Gs stolen
      while (!stop.load(std::memory_order_acquire)) {
        bool any = false;
        if (G* gp = Subj::runqsteal(mine, victim, (rng() & runnext_mask) == 0)) {
          got++;
          any = true;
          if (link && (rng() & 7) == 0) {
            Subj::globrunqput(sched, gp);  // not run here: re-queued, linked through schedlink
          } else {
            led.deliver(gp);
          }
        }
        if (!link || (rng() & 1)) {
          led.deliver_gets([&] { return Subj::runqget(mine).gp; });
        } else {
          gqueue q = Subj::runqdrain(
              mine);  // links the stolen Gs: races with a victim that links too early
          led.deliver_all(q);
        }
        if (link && (rng() & 3) == 0) {
          if (G* gp = Subj::globrunqget(sched)) {
            led.deliver(gp);
            any = true;
          }
        }
        (void)Subj::runqempty(victim);  // any P may ask; must not disturb anything
        if (!any && (rng() & 3) == 0) B::spin_pause();
      }
      stolen.fetch_add(got, std::memory_order_relaxed);
    } catch (const rqtest::fatal_exception& e) {
      error = "fatal: " + e.msg + " " + e.values;
      failed.store(true);
      stop.store(true);
    }
  }
};

// Single-threaded cleanup after the threads joined: everything still queued
// anywhere is delivered.
void drain_everything(ledger& led, Sched& sched, P& owner,
                      std::vector<std::unique_ptr<P>>& thieves) {
  gqueue rest = Subj::runqdrain(owner);
  led.deliver_all(rest);
  EXPECT_TRUE(Subj::runqempty(owner)) << "owner not empty after runqdrain";
  for (auto& t : thieves) {
    led.deliver_gets([&] { return Subj::runqget(*t).gp; });
  }
  for (std::int32_t guard = 0; guard < 10000000; guard++) {
    G* gp = Subj::globrunqget(sched);
    if (gp == nullptr) break;
    led.deliver(gp);
  }
  EXPECT_EQ(Subj::globrunqsize(sched), 0);
}

class SubjectConcurrent : public rqtest::fatal_guarded {};

TEST_F(SubjectConcurrent, OwnerRandomOpsVsThieves_EveryGDeliveredExactlyOnce) {
  rqtest::watchdog dog("OwnerRandomOpsVsThieves_EveryGDeliveredExactlyOnce");
  constexpr int nthieves = 3;
  const std::int64_t ops = rqtest::scaled(200000);
  const std::uint32_t seed = 0x5eed1234u;
  Sched sched(nthieves + 1);
  P owner(sched, 0);
  std::vector<std::unique_ptr<P>> thieves;
  for (int i = 0; i < nthieves; i++) thieves.push_back(std::make_unique<P>(sched, i + 1));
  gpool gs(static_cast<std::size_t>(ops) + Cap + 2);
  ledger led(gs);
  std::atomic<bool> stop{false}, failed{false};
  std::atomic<std::uint64_t> stolen{0};
  std::atomic<int> started{0};
  std::vector<std::string> errors(nthieves);
  std::vector<std::unique_ptr<B::thread>> threads;
  for (int i = 0; i < nthieves; i++) {
    threads.push_back(
        std::make_unique<B::thread>(thief_loop{*thieves[i], owner, sched, led, stop, failed,
                                               errors[i], seed + 1 + i, 1, true, stolen, started}));
  }
  // Start only when every thief runs, so that the steals overlap the owner.
  EXPECT_TRUE(rqtest::spin_until([&] {
    return started.load(std::memory_order_acquire) == nthieves;
  })) << "thieves did not start";

  std::size_t created = 0;
  std::uint64_t overflow_puts = 0;
  std::string owner_error;
  try {
    std::mt19937 rng(seed);
    auto fresh = [&] { return gs[created++]; };
    for (std::int64_t op = 0; op < ops && !failed.load(std::memory_order_relaxed); op++) {
      if ((op & 63) == 0) B::spin_pause();  // let thieves in on machines with few cores
      const std::uint32_t r = rng() % 32;
      const bool room = created + Cap + 2 <= gs.size();
      if (r < 12 && room) {
        Subj::runqput(owner, fresh(), false);
      } else if (r < 15 && room) {
        Subj::runqput(owner, fresh(), true);
      } else if (r < 16 && room) {
        // A burst that overflows a full ring: runqputslow moves Cap/2+1 Gs.
        const std::int32_t before = Subj::globrunqsize(sched);
        for (std::uint32_t i = 0; i < Cap + 1 && created < gs.size(); i++)
          Subj::runqput(owner, fresh(), false);
        if (Subj::globrunqsize(sched) > before) overflow_puts++;
      } else if (r < 18 && room) {
        const std::uint32_t m = 1 + rng() % (Cap + 1);
        gqueue q = gs.queue(created, created + m);
        created += m;
        Subj::runqputbatch(owner, q);
        for (std::size_t n = 0; G* gp = q.pop(); n++) {  // leftovers
          if (n == gs.size()) {  // a cycle in what runqputbatch left
            led.cycles.fetch_add(1, std::memory_order_relaxed);
            break;
          }
          Subj::runqput(owner, gp, false);
        }
      } else if (r < 28) {
        auto g1 = Subj::runqget(owner);
        if (g1.gp != nullptr) {
          led.deliver(g1.gp);
        } else if (G* gp = Subj::findRunnable_globrunq(
                       owner)) {  // local queue empty: findRunnable's next step
          led.deliver(gp);
        }
      } else if (r < 29) {
        gqueue q = Subj::runqdrain(owner);
        led.deliver_all(q);
      } else if (r < 30) {
        if (G* gp = Subj::globrunqget(sched)) led.deliver(gp);
      } else if (r < 31 && created < gs.size()) {
        Subj::globrunqput(sched, fresh());
      } else {
        (void)Subj::runqempty(owner);
      }
    }
  } catch (const rqtest::fatal_exception& e) {
    owner_error = "owner: fatal " + e.msg + " " + e.values;
  }
  stop.store(true, std::memory_order_release);
  for (auto& t : threads) t->join();
  for (auto& e : errors) EXPECT_TRUE(e.empty()) << "thief: " << e;
  EXPECT_TRUE(owner_error.empty()) << owner_error;
  drain_everything(led, sched, owner, thieves);
  led.expect_conserved(created);
  EXPECT_GT(created, 0u);
  RecordProperty("created", static_cast<int>(created));
  RecordProperty("stolen", static_cast<int>(stolen.load()));
  RecordProperty("overflow_bursts", static_cast<int>(overflow_puts));
}

// The runnext race: the owner keeps a G in runnext (put next twice, kicking
// the first into the ring, then get twice), while thieves always try to CAS
// runnext away (stealRunNextG=true) or steal the ring. Targets runqput's
// retry of its runnext CAS and runqget's CAS of runnext against a thief's.
// Each G must be run exactly once.
TEST_F(SubjectConcurrent, RunnextOwnerVsThieves_EveryGDeliveredExactlyOnce) {
  rqtest::watchdog dog("RunnextOwnerVsThieves_EveryGDeliveredExactlyOnce");
  constexpr int nthieves = 2;
  const std::int64_t ops = rqtest::scaled(1000000);
  Sched sched(nthieves + 1);
  P owner(sched, 0);
  std::vector<std::unique_ptr<P>> thieves;
  for (int i = 0; i < nthieves; i++) thieves.push_back(std::make_unique<P>(sched, i + 1));
  gpool gs(static_cast<std::size_t>(ops));
  ledger led(gs);
  std::atomic<bool> stop{false}, failed{false};
  std::atomic<std::uint64_t> stolen{0};
  std::atomic<int> started{0};
  std::vector<std::string> errors(nthieves);
  std::vector<std::unique_ptr<B::thread>> threads;
  for (int i = 0; i < nthieves; i++) {
    threads.push_back(
        std::make_unique<B::thread>(thief_loop{*thieves[i], owner, sched, led, stop, failed,
                                               errors[i], 77u + i, 0, false, stolen, started}));
  }
  EXPECT_TRUE(rqtest::spin_until([&] {
    return started.load(std::memory_order_acquire) == nthieves;
  })) << "thieves did not start";
  std::size_t created = 0;
  std::string owner_error;
  try {
    for (std::int64_t op = 0; op < ops && !failed.load(std::memory_order_relaxed); op++) {
      // Let thieves in on busy or few cores, at each phase of the cycle in turn.
      if ((op & 255) == ((op >> 8) & 3)) B::spin_pause();
      // put next, put next (kicks the first into the ring), get, get: runnext
      // is mostly set and the ring mostly empty, so thieves go for runnext.
      if ((op & 3) < 2) {
        Subj::runqput(owner, gs[created++], true);
      } else {
        auto r = Subj::runqget(owner);
        if (r.gp != nullptr) led.deliver(r.gp);
      }
    }
  } catch (const rqtest::fatal_exception& e) {
    owner_error = "owner: fatal " + e.msg + " " + e.values;
  }
  stop.store(true, std::memory_order_release);
  for (auto& t : threads) t->join();
  for (auto& e : errors) EXPECT_TRUE(e.empty()) << "thief: " << e;
  EXPECT_TRUE(owner_error.empty()) << owner_error;
  drain_everything(led, sched, owner, thieves);
  led.expect_conserved(created);
  RecordProperty("stolen", static_cast<int>(stolen.load()));
}

}  // namespace

namespace {

// A denser variant of Go's RunSchedLocalQueueEmptyTest without its per-
// iteration handshake: the observer calls runqempty back to back, and a true
// result counts as spurious only if the owner's window was open (seq odd) and
// unchanged around the whole call. In the window the queue always holds a G:
// it opens after runqput(gs[0]) and closes before the final runqget, and in
// between the owner kicks runnext into the ring (runqput next) and pops it.
// Sound because runqempty's loads are acquire and the owner closes the window
// (release) before the get that empties the queue.
TEST(SubjectConcurrentEmpty, RunqemptyHammeredDuringRunnextKick_NeverSpuriouslyTrue) {
  rqtest::watchdog dog("RunqemptyHammeredDuringRunnextKick_NeverSpuriouslyTrue");
  using S256 = rqtest::watched<subject_under_test<B, 256>>;
  if (std::thread::hardware_concurrency() == 1) {
    std::printf(
        "runqcheck: not applied: unit RunqemptyHammeredDuringRunnextKick: one CPU (subject %s)\n",
        subject_name);
    GTEST_SKIP() << "needs two cores to overlap";
  }
  rqtest::fatal_throws guard;
  const std::int64_t cycles = rqtest::scaled(200000);
  typename S256::schedt sched(2);
  typename S256::p pp(sched, 0);
  gpool gs(2);
  std::atomic<std::uint64_t> seq{0};
  std::atomic<bool> stop{false}, started{false};
  std::atomic<std::uint64_t> spurious{0}, in_window_calls{0};
  std::string observer_error;
  B::thread observer([&] {
    try {
      started.store(true);
      std::uint64_t n = 0;
      while (!stop.load(std::memory_order_acquire)) {
        const std::uint64_t s1 = seq.load(std::memory_order_acquire);
        const bool empty = S256::runqempty(pp);
        const std::uint64_t s2 = seq.load(std::memory_order_acquire);
        if ((s1 & 1) == 1 && s1 == s2) {
          n++;
          if (empty) spurious.fetch_add(1, std::memory_order_relaxed);
        }
      }
      in_window_calls.store(n);
    } catch (const rqtest::fatal_exception& e) {
      observer_error = "observer: fatal " + e.msg + " " + e.values;
    }
  });
  EXPECT_TRUE(rqtest::spin_until([&] { return started.load(); })) << "observer did not start";
  std::string owner_error;
  try {
    for (std::int64_t i = 0; i < cycles; i++) {
      const bool next0 = (i & 1) == 0;
      const bool next1 = (i & 2) == 0;
      S256::runqput(pp, gs[0], next0);
      seq.store(2 * static_cast<std::uint64_t>(i) + 1, std::memory_order_release);  // window open
      S256::runqput(pp, gs[1], next1);
      (void)S256::runqget(pp);
      seq.store(2 * static_cast<std::uint64_t>(i) + 2, std::memory_order_release);  // window closed
      (void)S256::runqget(pp);
    }
  } catch (const rqtest::fatal_exception& e) {
    owner_error = "owner: fatal " + e.msg + " " + e.values;
  }
  stop.store(true, std::memory_order_release);
  observer.join();
  EXPECT_TRUE(observer_error.empty()) << observer_error;
  EXPECT_TRUE(owner_error.empty()) << owner_error;
  EXPECT_EQ(spurious.load(), 0u) << "runqempty was true while the queue held a G ("
                                 << in_window_calls.load() << " calls inside windows)";
  EXPECT_TRUE(S256::runqempty(pp));
  RecordProperty("in_window_calls", static_cast<int>(in_window_calls.load()));
}

}  // namespace
