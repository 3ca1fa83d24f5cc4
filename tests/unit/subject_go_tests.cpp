// tests/unit/subject_go_tests.cpp — Go's own run-queue tests, ported to C++
// against the subject API only (runtime/export_test.go:
// RunSchedLocalQueueTest, RunSchedLocalQueueStealTest,
// RunSchedLocalQueueEmptyTest; proc_test.go runs them). Go uses a 256-slot
// ring; the first two also run at the model-checking capacities 4 and 8.
#include "test_support.hpp"

#include <string>
#include <vector>

#include "runqcheck/subject.hpp"
#include "runqcheck_subject.hpp"

namespace {

using rqtest::B;
using rqtest::G;
using rqtest::gpool;

template <std::uint32_t Cap>
using S = rqtest::watched<subject_under_test<B, Cap>>;

static_assert(runqcheck::subject<S<256>, B>, "the subject must satisfy runqcheck::subject");
static_assert(runqcheck::subject<S<4>, B>, "the subject must satisfy runqcheck::subject at Cap=4");

template <class C>
class GoLocalQueue : public rqtest::fatal_guarded {
 protected:
  static constexpr std::uint32_t Cap = C::value;
  using Subj = S<Cap>;
};
using GoCaps = ::testing::Types<rqtest::cap<256>, rqtest::cap<4>, rqtest::cap<8>>;
TYPED_TEST_SUITE(GoLocalQueue, GoCaps);

// Go: RunSchedLocalQueueTest, faithfully: for i in 0..len(runq)-1, put the
// same G (gs[i]) i times and get it back i times; the queue is empty before
// and after.
TYPED_TEST(GoLocalQueue, RunSchedLocalQueueTest_SameGPutITimesComesBackITimes) {
  using Subj = typename TestFixture::Subj;
  constexpr std::uint32_t Cap = TestFixture::Cap;
  SCOPED_TRACE("one G put i times: the ring must hold a G more than once, as Go's does (a "
               "list through g.schedlink cannot; subject.hpp, runqput)");
  typename Subj::schedt sched(1);
  typename Subj::p pp(sched, 0);
  gpool gs(Cap);
  for (std::uint32_t i = 0; i < Cap; i++) {
    ASSERT_EQ(Subj::runqget(pp).gp, nullptr) << "runq is not empty initially, iter " << i;
    for (std::uint32_t j = 0; j < i; j++) Subj::runqput(pp, gs[i], false);
    for (std::uint32_t j = 0; j < i; j++) {
      G* gp = Subj::runqget(pp).gp;
      ASSERT_EQ(gp, gs[i]) << "bad element at iter " << i << "/" << j;
    }
    ASSERT_EQ(Subj::runqget(pp).gp, nullptr) << "runq is not empty afterwards, iter " << i;
  }
  EXPECT_EQ(Subj::globrunqsize(sched), 0) << "nothing may overflow to the global queue";
}

// The distinct-G variant: i distinct Gs (0..Cap, a full ring included) come
// back in FIFO order, never with inheritTime, and runqempty follows the fill.
TYPED_TEST(GoLocalQueue, RunSchedLocalQueueTest_DistinctGsComeBackInFifoOrder) {
  using Subj = typename TestFixture::Subj;
  constexpr std::uint32_t Cap = TestFixture::Cap;
  typename Subj::schedt sched(1);
  typename Subj::p pp(sched, 0);
  gpool gs(Cap);
  for (std::uint32_t i = 0; i <= Cap; i++) {
    ASSERT_TRUE(Subj::runqempty(pp)) << "iter " << i;
    for (std::uint32_t j = 0; j < i; j++) {
      Subj::runqput(pp, gs[j], false);
      ASSERT_FALSE(Subj::runqempty(pp)) << "iter " << i << " after put " << j;
    }
    for (std::uint32_t j = 0; j < i; j++) {
      auto r = Subj::runqget(pp);
      ASSERT_EQ(gs.index(r.gp), j) << "FIFO order broken at iter " << i;
      ASSERT_FALSE(r.inheritTime) << "a ring G must start a new time slice, iter " << i << "/" << j;
    }
    auto r = Subj::runqget(pp);
    ASSERT_EQ(r.gp, nullptr) << "runq is not empty afterwards, iter " << i;
    ASSERT_TRUE(Subj::runqempty(pp)) << "iter " << i;
  }
  EXPECT_EQ(Subj::globrunqsize(sched), 0) << "a full ring must not overflow";
}

// Go: RunSchedLocalQueueStealTest: for i in 0..len(runq)-1, p2 steals from a
// p1 holding i Gs (stealRunNextG=true); every G is seen exactly once across
// the steal's result, p2's ring and p1's ring, and the steal took i/2 or i/2+1.
TYPED_TEST(GoLocalQueue, RunSchedLocalQueueStealTest_EachGSeenOnceStealTakesHalf) {
  using Subj = typename TestFixture::Subj;
  constexpr std::uint32_t Cap = TestFixture::Cap;
  typename Subj::schedt sched(2);
  typename Subj::p p1(sched, 0);
  typename Subj::p p2(sched, 1);
  gpool gs(Cap);
  for (std::uint32_t i = 0; i < Cap; i++) {
    std::vector<int> sig(Cap, 0);
    for (std::uint32_t j = 0; j < i; j++) Subj::runqput(p1, gs[j], false);
    G* gp = Subj::runqsteal(p2, p1, true);
    std::uint32_t s = 0;
    if (gp != nullptr) {
      s++;
      ASSERT_LT(gs.index(gp), i) << "runqsteal returned a G that was never queued, iter " << i;
      sig[gs.index(gp)]++;
    }
    while ((gp = Subj::runqget(p2).gp) != nullptr) {
      s++;
      ASSERT_LT(gs.index(gp), i) << "thief's ring holds a foreign G, iter " << i;
      sig[gs.index(gp)]++;
    }
    while ((gp = Subj::runqget(p1).gp) != nullptr) {
      ASSERT_LT(gs.index(gp), i) << "victim's ring holds a foreign G, iter " << i;
      sig[gs.index(gp)]++;
    }
    for (std::uint32_t j = 0; j < i; j++) {
      ASSERT_EQ(sig[j], 1) << "bad element " << j << " at iter " << i;
    }
    ASSERT_TRUE(s == i / 2 || s == i / 2 + 1)
        << "bad steal " << s << ", want " << i / 2 << " or " << i / 2 + 1 << ", iter " << i;
  }
  EXPECT_EQ(Subj::globrunqsize(sched), 0);
}

// Go: RunSchedLocalQueueEmptyTest (TestSchedLocalQueueEmpty: 1e5 iterations).
// runqempty must never be true while the queue holds a G, even while the owner
// kicks runnext into the ring and pops it: each iteration puts gs[0]
// (next0 = !(i&1)), meets the observer at a spin handshake, then puts gs[1]
// (next1 = !(i&2)) and gets one G while the observer asks runqempty; after
// the observer is done the owner gets the other G.
// Go starts a goroutine per iteration; here one observer thread serves all
// iterations through a counter of arrivals (2 per iteration).
TEST(GoLocalQueueEmpty, RunSchedLocalQueueEmptyTest_RunqemptyNeverSpuriouslyTrue) {
  rqtest::watchdog dog("RunSchedLocalQueueEmptyTest_RunqemptyNeverSpuriouslyTrue");
  using Subj = S<256>;
  if (std::thread::hardware_concurrency() == 1) {
    std::printf("runqcheck: not applied: unit RunSchedLocalQueueEmptyTest: one CPU (subject %s)\n",
                subject_name);
    GTEST_SKIP() << "Go skips it on uniprocessors too";
  }
  rqtest::fatal_throws guard;
  const std::int64_t iters = rqtest::scaled(100000);
  typename Subj::schedt sched(4);
  typename Subj::p pp(sched, 0);
  gpool gs(2);

  std::atomic<std::int64_t> arrivals{0};  // 2*i+1 and 2*i+2 for iteration i
  std::atomic<std::int64_t> done{0};      // i+1 once the observer finished iteration i
  std::atomic<bool> abort{false};
  std::atomic<std::int64_t> spurious{0};
  std::atomic<std::int64_t> first_spurious_iter{-1};
  std::string observer_error;

  B::thread observer([&] {
    try {
      for (std::int64_t i = 0; i < iters; i++) {
        arrivals.fetch_add(1, std::memory_order_acq_rel);
        if (!rqtest::spin_until(
                [&] { return arrivals.load(std::memory_order_acquire) >= 2 * i + 2; }, &abort)) {
          observer_error = "observer: handshake timed out at iteration " + std::to_string(i);
          abort.store(true);
          return;
        }
        if (Subj::runqempty(pp)) {
          if (spurious.fetch_add(1) == 0) first_spurious_iter.store(i);
        }
        done.store(i + 1, std::memory_order_release);
      }
    } catch (const rqtest::fatal_exception& e) {
      observer_error = "observer: fatal " + e.msg + " " + e.values;
      abort.store(true);
    }
  });

  for (std::int64_t i = 0; i < iters && !abort.load(); i++) {
    const bool next0 = (i & 1) == 0;
    const bool next1 = (i & 2) == 0;
    Subj::runqput(pp, gs[0], next0);
    arrivals.fetch_add(1, std::memory_order_acq_rel);
    if (!rqtest::spin_until([&] { return arrivals.load(std::memory_order_acquire) >= 2 * i + 2; },
                            &abort)) {
      ADD_FAILURE() << "owner: handshake timed out at iteration " << i;
      abort.store(true);
      break;
    }
    Subj::runqput(pp, gs[1], next1);
    (void)Subj::runqget(pp);
    if (!rqtest::spin_until([&] { return done.load(std::memory_order_acquire) >= i + 1; },
                            &abort)) {
      ADD_FAILURE() << "owner: observer did not finish iteration " << i;
      abort.store(true);
      break;
    }
    (void)Subj::runqget(pp);
    if (!Subj::runqempty(pp)) {  // no ASSERT here: the observer thread must be joined
      ADD_FAILURE() << "runqempty is false after both Gs were taken, iteration " << i;
      abort.store(true);
      break;
    }
  }
  observer.join();
  EXPECT_TRUE(observer_error.empty()) << observer_error;
  const std::int64_t first = first_spurious_iter.load();
  EXPECT_EQ(spurious.load(), 0)
      << "runqempty reported an empty queue that held a G; first at iteration " << first
      << " (next0=" << ((first & 1) == 0) << " next1=" << ((first & 2) == 0) << ")";
  EXPECT_EQ(Subj::globrunqsize(sched), 0);
}

}  // namespace
