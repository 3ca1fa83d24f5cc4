// tests/unit/core_runq.cpp — the bundled port's local-queue functions called
// directly where the subject API cannot reach: runqputslow with given h/t
// (its "queue is not full" throw and its CAS-failure return), runqgrab into a
// ring at a given batchHead, and runqsteal's "runq overflow" throw when its
// precondition (room in the thief's ring) is broken, runqgrab's go1.26 backoff
// predicate. Bundled port only.
#include "test_support.hpp"

#include <string>
#include <vector>

#include "runqcheck/go125.hpp"

namespace {

using rqtest::B;
using rqtest::G;
using rqtest::gpool;
using idx = std::vector<std::size_t>;
using std::memory_order::relaxed;  // a using-declaration: may repeat in a unity build

template <class C>
class CoreRunq : public rqtest::fatal_guarded {
 protected:
  static constexpr std::uint32_t Cap = C::value;
  using P = runqcheck::p<B, Cap>;
  using Sched = runqcheck::schedt<B>;
  static idx get_all(const gpool& gs, P& pp) { return rqtest::runqget_all(gs, pp); }
  static idx glob_all(const gpool& gs, Sched& sched) {
    auto l = runqcheck::lock(sched);
    return rqtest::pop_all(gs, l.runq());
  }
  static void put_range(const gpool& gs, P& pp, std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; i++) runqcheck::runqput(pp, gs[i], false);
  }
  static std::uint32_t head(const P& pp) { return pp.runqhead.load(relaxed); }
  static std::uint32_t tail(const P& pp) { return pp.runqtail.load(relaxed); }
};
using Caps = ::testing::Types<rqtest::cap<4>, rqtest::cap<8>, rqtest::cap<256>>;
TYPED_TEST_SUITE(CoreRunq, Caps);

TYPED_TEST(CoreRunq, Runqputslow_OnFullQueueMovesOldestHalfPlusGAndReturnsTrue) {
  constexpr std::uint32_t Cap = TestFixture::Cap;
  typename TestFixture::Sched sched(1);
  typename TestFixture::P pp(sched, 0);
  gpool gs(Cap + 1);
  TestFixture::put_range(gs, pp, 0, Cap);
  const std::uint32_t h = TestFixture::head(pp), t = TestFixture::tail(pp);
  EXPECT_TRUE(runqcheck::runqputslow(pp, gs[Cap], h, t));
  EXPECT_EQ(TestFixture::head(pp), h + Cap / 2);
  EXPECT_EQ(TestFixture::tail(pp), t);
  EXPECT_EQ(TestFixture::glob_all(gs, sched), rqtest::concat(gpool::range(0, Cap / 2), idx{Cap}));
  EXPECT_EQ(TestFixture::get_all(gs, pp), gpool::range(Cap / 2, Cap));
}

// A consumer moved head since runqput read it: the CAS fails, runqputslow
// returns false and changes nothing (runqput then retries its fast path).
TYPED_TEST(CoreRunq, Runqputslow_ReturnsFalseAndMovesNothingWhenHeadMoved) {
  constexpr std::uint32_t Cap = TestFixture::Cap;
  typename TestFixture::Sched sched(1);
  typename TestFixture::P pp(sched, 0);
  gpool gs(Cap + 1);
  TestFixture::put_range(gs, pp, 0, Cap);
  const std::uint32_t h = TestFixture::head(pp), t = TestFixture::tail(pp);
  EXPECT_EQ(runqcheck::runqget(pp).gp, gs[0]);  // head moves: h is stale
  EXPECT_FALSE(runqcheck::runqputslow(pp, gs[Cap], h, t));
  EXPECT_EQ(TestFixture::head(pp), h + 1);
  {
    auto l = runqcheck::lock(sched);
    EXPECT_EQ(l.runq().size(), 0) << "a failed runqputslow must not touch the global queue";
  }
  runqcheck::runqput(pp, gs[Cap], false);  // now fits
  EXPECT_EQ(TestFixture::get_all(gs, pp), gpool::range(1, Cap + 1));
}

TYPED_TEST(CoreRunq, Runqputslow_ThrowsQueueIsNotFullOnNonFullQueue) {
  constexpr std::uint32_t Cap = TestFixture::Cap;
  for (std::uint32_t k : {0u, 1u, Cap / 2, Cap - 1}) {
    SCOPED_TRACE("queue holds " + std::to_string(k));
    typename TestFixture::Sched sched(1);
    typename TestFixture::P pp(sched, 0);
    gpool gs(Cap + 1);
    TestFixture::put_range(gs, pp, 0, k);
    const std::uint32_t h = TestFixture::head(pp), t = TestFixture::tail(pp);
    EXPECT_FATAL((void)runqcheck::runqputslow(pp, gs[Cap], h, t), "runqputslow: queue is not full");
    EXPECT_EQ(TestFixture::head(pp), h) << "the throw comes before any change";
  }
}

// runqgrab copies ceil(n/2) victim Gs into a ring starting at batchHead,
// wrapping around its end, and advances the victim's head by as many.
TYPED_TEST(CoreRunq, Runqgrab_CopiesCeilHalfIntoBatchRingFromBatchHeadWrapping) {
  constexpr std::uint32_t Cap = TestFixture::Cap;
  for (std::uint32_t k : {1u, 2u, 3u, Cap}) {
    SCOPED_TRACE("victim holds " + std::to_string(k));
    typename TestFixture::Sched sched(1);
    typename TestFixture::P victim(sched, 0);
    typename TestFixture::P::ring batch;
    for (auto& slot : batch) slot.store(nullptr, relaxed);
    gpool gs(k);
    TestFixture::put_range(gs, victim, 0, k);
    const std::uint32_t batchHead = 0xFFFFFFFFu;  // slot Cap-1, then wraps to 0
    const std::uint32_t n = runqcheck::runqgrab(victim, batch, batchHead, false);
    EXPECT_EQ(n, k - k / 2);
    for (std::uint32_t i = 0; i < n; i++) {
      EXPECT_EQ(gs.index(batch[(batchHead + i) % Cap].load(relaxed)), i)
          << "batch slot for grabbed G " << i;
    }
    EXPECT_EQ(TestFixture::head(victim), n);
    EXPECT_EQ(TestFixture::get_all(gs, victim), gpool::range(n, k));
  }
}

// runqgrab with an empty ring and stealRunNextG takes runnext, even from a
// running P (after the backoff hook), and puts it at batchHead.
TYPED_TEST(CoreRunq, Runqgrab_TakesRunnextOfRunningPAfterBackoff) {
  constexpr std::uint32_t Cap = TestFixture::Cap;
  typename TestFixture::Sched sched(1);
  typename TestFixture::P victim(sched, 0);
  victim.status.store(static_cast<std::uint32_t>(runqcheck::pstatus::running), relaxed);
  typename TestFixture::P::ring batch;
  gpool gs(1);
  runqcheck::runqput(victim, gs[0], true);
  EXPECT_EQ(runqcheck::runqgrab(victim, batch, 3, false), 0u);
  EXPECT_EQ(runqcheck::runqgrab(victim, batch, 3, true), 1u);
  EXPECT_EQ(batch[3 % Cap].load(relaxed), gs[0]);
  EXPECT_EQ(victim.runnext.load(relaxed), nullptr);
  EXPECT_EQ(TestFixture::head(victim), 0u) << "a runnext steal leaves the ring counters alone";
}

// go1.26 (d55ecea9e5): before stealing runnext, runqgrab backs off only if
// the victim P is running, has an M, and that M's current G is nil or not in
// a syscall. A backend that counts the backoffs shows each case; the steal
// itself happens in every case.
struct counting_backend : runqcheck::native {
  static inline int backoffs = 0;
  static void runqgrab_backoff() { backoffs++; }
};

TEST(CoreRunqgrab, BacksOffOnlyForARunningPWhoseGIsNotInASyscall) {
  using CB = counting_backend;
  using gs = runqcheck::gstatus;
  constexpr auto running = static_cast<std::uint32_t>(runqcheck::pstatus::running);
  constexpr auto idle = static_cast<std::uint32_t>(runqcheck::pstatus::idle);
  struct row {
    const char* what;
    std::uint32_t pstatus;
    bool has_m;
    bool has_curg;
    std::uint32_t gstatus;
    int backoffs;
  };
  const auto s = [](gs x) { return static_cast<std::uint32_t>(x); };
  for (const row& r : {
           row{"idle P", idle, true, true, s(gs::running), 0},
           row{"running P, no M", running, false, false, 0, 0},
           row{"running P, M in the scheduler (curg nil)", running, true, false, 0, 1},
           row{"running P, curg running", running, true, true, s(gs::running), 1},
           row{"running P, curg runnable", running, true, true, s(gs::runnable), 1},
           row{"running P, curg in a syscall", running, true, true, s(gs::syscall), 0},
           row{"running P, curg in a syscall, being scanned", running, true, true,
               s(gs::syscall) | runqcheck::gscan, 0},
       }) {
    SCOPED_TRACE(r.what);
    runqcheck::schedt<CB> sched(1);
    runqcheck::p<CB, 8> victim(sched, 0);
    runqcheck::p<CB, 8>::ring batch;
    runqcheck::m<CB> mp;
    runqcheck::g<CB> next(1), cur(2);
    cur.atomicstatus.store(r.gstatus, relaxed);
    if (r.has_curg) mp.curg.store(&cur, relaxed);
    if (r.has_m) victim.m.store(&mp, relaxed);
    victim.status.store(r.pstatus, relaxed);
    runqcheck::runqput(victim, &next, true);
    CB::backoffs = 0;
    EXPECT_EQ(runqcheck::runqgrab(victim, batch, 0, true), 1u);
    EXPECT_EQ(batch[0].load(relaxed), &next);
    EXPECT_EQ(CB::backoffs, r.backoffs);
  }
}

// Go throws "runqsteal: runq overflow" when t-h+n >= len(runq) after the
// grab (n: the Gs kept in the thief's ring). The thief's ring should be empty
// (stealWork only steals then); with k Gs in it and a full victim (n = Cap/2
// grabbed, Cap/2-1 kept) k = Cap/2 still fits and k = Cap/2+1 throws.
TYPED_TEST(CoreRunq, Runqsteal_OverflowThrowsExactlyWhenThiefRingLacksRoom) {
  constexpr std::uint32_t Cap = TestFixture::Cap;
  for (std::uint32_t k : {Cap / 2, Cap / 2 + 1, Cap - 1}) {
    SCOPED_TRACE("thief already holds " + std::to_string(k));
    typename TestFixture::Sched sched(2);
    typename TestFixture::P victim(sched, 0);
    typename TestFixture::P thief(sched, 1);
    gpool gs(Cap + k);  // victim: 0..Cap-1, thief: Cap..Cap+k-1
    TestFixture::put_range(gs, victim, 0, Cap);
    TestFixture::put_range(gs, thief, Cap, Cap + k);
    const std::uint32_t kept = Cap / 2 - 1;
    if (k + kept < Cap) {
      G* gp = runqcheck::runqsteal(thief, victim, false);
      EXPECT_EQ(gs.index(gp), kept) << "the last grabbed G";
      EXPECT_EQ(TestFixture::get_all(gs, thief),
                rqtest::concat(gpool::range(Cap, Cap + k), gpool::range(0, kept)))
          << "stolen Gs go behind the thief's own";
      EXPECT_EQ(TestFixture::get_all(gs, victim), gpool::range(Cap / 2, Cap));
    } else {
      EXPECT_FATAL((void)runqcheck::runqsteal(thief, victim, false), "runqsteal: runq overflow");
      EXPECT_EQ(TestFixture::tail(thief), static_cast<std::uint32_t>(k))
          << "the thief's tail is not published";
    }
  }
}

// runqput(next) with a full ring: the kicked runnext goes through
// runqputslow; counters after it.
TYPED_TEST(CoreRunq, Runqput_KickedRunnextOnFullRingOverflowsWithCounters) {
  constexpr std::uint32_t Cap = TestFixture::Cap;
  typename TestFixture::Sched sched(1);
  typename TestFixture::P pp(sched, 0);
  gpool gs(Cap + 2);
  TestFixture::put_range(gs, pp, 0, Cap);
  runqcheck::runqput(pp, gs[Cap], true);
  runqcheck::runqput(pp, gs[Cap + 1], true);
  EXPECT_EQ(pp.runnext.load(relaxed), gs[Cap + 1]);
  EXPECT_EQ(TestFixture::head(pp), Cap / 2);
  EXPECT_EQ(TestFixture::tail(pp), Cap);
  EXPECT_EQ(TestFixture::glob_all(gs, sched), rqtest::concat(gpool::range(0, Cap / 2), idx{Cap}));
}

}  // namespace
