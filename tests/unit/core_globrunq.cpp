// tests/unit/core_globrunq.cpp — the global run queue of the bundled port
// (globrunq.hpp): globrunqput/puthead/putbatch/get, go1.25's
// globrunqgetbatch(n) and the pre-1.25 globrunqget(pp, max), each called
// directly with sched.lock held (runqcheck::lock). Core internals: bundled
// port only.
#include "test_support.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "runqcheck/go125.hpp"

namespace {

using rqtest::B;
using rqtest::G;
using rqtest::gpool;
using rqtest::gqueue;
using idx = std::vector<std::size_t>;
using Sched = runqcheck::schedt<B>;

class CoreGlobrunq : public rqtest::fatal_guarded {};

void fill_global(Sched& sched, const gpool& gs, std::size_t from, std::size_t to) {
  auto l = runqcheck::lock(sched);
  for (std::size_t i = from; i < to; i++) runqcheck::globrunqput(l, gs[i]);
}

idx global_contents(const gpool& gs, Sched& sched) {
  auto l = runqcheck::lock(sched);
  return rqtest::walk(gs, l.runq());
}

TEST_F(CoreGlobrunq, PutPutheadPutbatch_OrderSizeAndBatchCleared) {
  Sched sched(1);
  gpool gs(6);
  auto l = runqcheck::lock(sched);
  runqcheck::globrunqput(l, gs[1]);
  gqueue batch = gs.queue(2, 5);
  runqcheck::globrunqputbatch(l, batch);
  EXPECT_TRUE(batch.empty()) << "globrunqputbatch clears *batch";
  EXPECT_EQ(batch.size(), 0);
  EXPECT_EQ(batch.tail(), nullptr);
  runqcheck::globrunqputhead(l, gs[0]);
  gqueue none;
  runqcheck::globrunqputbatch(l, none);  // an empty batch changes nothing
  runqcheck::globrunqput(l, gs[5]);
  EXPECT_EQ(l.runq().size(), 6);
  EXPECT_EQ(rqtest::walk(gs, l.runq()), (idx{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(gs.index(l.runq().tail()), 5u);
  for (std::size_t i = 0; i < 6; i++) EXPECT_EQ(gs.index(runqcheck::globrunqget(l)), i);
  EXPECT_EQ(runqcheck::globrunqget(l), nullptr) << "globrunqget on an empty queue";
  EXPECT_EQ(l.runq().size(), 0);
}

// go1.25 globrunqgetbatch(n): n = min(n, size, size/gomaxprocs+1); one G is
// returned, n-1 come back in the batch in order, the rest stay global.
TEST_F(CoreGlobrunq, Globrunqgetbatch_NIsMinOfRequestSizeAndFairShare) {
  struct row {
    std::int32_t size, gomaxprocs, n;
  };
  const row table[] = {
      {0, 1, 128},     {0, 4, 1},         {1, 1, 128},    {1, 1000, 128},
      {2, 1, 128},     {2, 2, 128},       {2, 3, 128},    {5, 1, 128},
      {5, 2, 128},     {5, 4, 128},       {5, 5, 128},    {5, 6, 128},
      {5, 1, 3},       {5, 1, 1},         {10, 3, 128},   {100, 1, 128},
      {100, 4, 128},   {100, 4, 10},      {100, 99, 128}, {100, 100, 128},
      {100, 101, 128}, {300, 1, 128},     {300, 2, 128},  {300, 3, 128},
      {1000, 1, 2},    {1000, 1000, 128}, {1000, 7, 200}, {2, 0x7FFFFFFF, 128},
  };
  for (const row& r : table) {
    SCOPED_TRACE("size " + std::to_string(r.size) + ", gomaxprocs " + std::to_string(r.gomaxprocs) +
                 ", n " + std::to_string(r.n));
    Sched sched(r.gomaxprocs);
    gpool gs(static_cast<std::size_t>(r.size));
    fill_global(sched, gs, 0, r.size);
    runqcheck::globrunq_batch<B> b;
    {
      auto l = runqcheck::lock(sched);
      b = runqcheck::globrunqgetbatch(l, r.n);
    }
    if (r.size == 0) {
      EXPECT_EQ(b.gp, nullptr);
      EXPECT_TRUE(b.q.empty());
      continue;
    }
    const std::int32_t want = std::min({r.n, r.size, r.size / r.gomaxprocs + 1});
    EXPECT_EQ(gs.index(b.gp), 0u) << "the global head is returned";
    EXPECT_EQ(b.q.size(), want - 1) << "batch size, n=" << want;
    EXPECT_EQ(rqtest::walk(gs, b.q), gpool::range(1, want)) << "batch in global order";
    EXPECT_EQ(global_contents(gs, sched), gpool::range(want, r.size))
        << "the remainder stays global in order";
    auto l = runqcheck::lock(sched);
    EXPECT_EQ(l.runq().size(), r.size - want);
    (void)rqtest::pop_all(gs, b.q);
  }
}

// Go's globrunqgetbatch pops one G before it looks at n, so n=0 still returns
// one G and an empty batch (no Go caller passes 0: they pass len(runq)/2).
TEST_F(CoreGlobrunq, Globrunqgetbatch_RequestZeroStillReturnsOneG) {
  Sched sched(1);
  gpool gs(3);
  fill_global(sched, gs, 0, 3);
  auto l = runqcheck::lock(sched);
  auto b = runqcheck::globrunqgetbatch(l, 0);
  EXPECT_EQ(b.gp, gs[0]);
  EXPECT_TRUE(b.q.empty());
  EXPECT_EQ(l.runq().size(), 2);
}

template <class C>
class CorePre125 : public rqtest::fatal_guarded {
 protected:
  static constexpr std::uint32_t Cap = C::value;
  using P = runqcheck::p<B, Cap>;
  static idx get_all(const gpool& gs, P& pp) { return rqtest::runqget_all(gs, pp); }
};
using Caps = ::testing::Types<rqtest::cap<4>, rqtest::cap<8>, rqtest::cap<256>>;
TYPED_TEST_SUITE(CorePre125, Caps);

// go1.3 … go1.24 globrunqget(pp, max): n = size/gomaxprocs+1, capped by size,
// by max if max > 0, and by len(runq)/2; the head is returned, n-1 are
// runqput into pp's ring in order.
TYPED_TEST(CorePre125, Globrunqget_NIsFairShareCappedBySizeMaxAndHalfRing) {
  constexpr std::int32_t Cap = static_cast<std::int32_t>(TestFixture::Cap);
  for (std::int32_t gomaxprocs : {1, 2, 3, 8, 1000}) {
    for (std::int32_t size : {0, 1, 2, 3, Cap / 2, Cap / 2 + 1, Cap, 3 * Cap + 1, 1000}) {
      for (std::int32_t max : {0, 1, 2, Cap / 2 - 1, Cap, 1000, -1}) {
        SCOPED_TRACE("gomaxprocs " + std::to_string(gomaxprocs) + ", size " + std::to_string(size) +
                     ", max " + std::to_string(max));
        Sched sched(gomaxprocs);
        typename TestFixture::P pp(sched, 0);
        gpool gs(static_cast<std::size_t>(size));
        fill_global(sched, gs, 0, size);
        G* gp;
        {
          auto l = runqcheck::lock(sched);
          gp = runqcheck::pre125::globrunqget(l, pp, max);
        }
        if (size == 0) {
          EXPECT_EQ(gp, nullptr);
          EXPECT_TRUE(runqcheck::runqempty(pp));
          continue;
        }
        std::int32_t n = std::min(size / gomaxprocs + 1, size);
        if (max > 0) n = std::min(n, max);
        n = std::min(n, Cap / 2);
        EXPECT_EQ(gs.index(gp), 0u);
        EXPECT_EQ(TestFixture::get_all(gs, pp), gpool::range(1, n))
            << "local ring receives exactly n-1, n=" << n;
        EXPECT_EQ(global_contents(gs, sched), gpool::range(n, size));
      }
    }
  }
}

// The batch is runqput after what the ring already holds.
TYPED_TEST(CorePre125, Globrunqget_AppendsBehindExistingLocalGs) {
  constexpr std::uint32_t Cap = TestFixture::Cap;
  Sched sched(1);
  typename TestFixture::P pp(sched, 0);
  const std::uint32_t k = Cap / 2;  // room for exactly Cap/2 more
  gpool gs(k + Cap);
  for (std::uint32_t i = 0; i < k; i++) runqcheck::runqput(pp, gs[i], false);
  fill_global(sched, gs, k, k + Cap);
  G* gp;
  {
    auto l = runqcheck::lock(sched);
    gp = runqcheck::pre125::globrunqget(l, pp, 0);
  }
  EXPECT_EQ(gs.index(gp), k);
  EXPECT_EQ(TestFixture::get_all(gs, pp),
            rqtest::concat(gpool::range(0, k), gpool::range(k + 1, k + Cap / 2)))
      << "the ring's own Gs, then the n-1 = Cap/2-1 Gs after the returned global head";
  EXPECT_EQ(global_contents(gs, sched), gpool::range(k + Cap / 2, k + Cap));
}

// The latent self-deadlock that go1.25 removed (a42e337ede): with a full
// ring, runqput under sched.lock reaches runqputslow, which locks it again.
TYPED_TEST(CorePre125, Globrunqget_FullLocalRingReachesRunqputslowUnderLock) {
  constexpr std::uint32_t Cap = TestFixture::Cap;
  if constexpr (!requires(typename B::mutex& m) { m.held_by_me(); }) {
    GTEST_SKIP() << "backend mutex cannot report a self-deadlock";
  } else {
    Sched sched(1);
    typename TestFixture::P pp(sched, 0);
    gpool gs(2 * Cap);
    for (std::uint32_t i = 0; i < Cap; i++) runqcheck::runqput(pp, gs[i], false);
    fill_global(sched, gs, Cap, 2 * Cap);
    EXPECT_FATAL(
        {
          auto l = runqcheck::lock(sched);
          (void)runqcheck::pre125::globrunqget(l, pp, 0);
        },
        "self deadlock: sched.lock already held by this thread");
    EXPECT_FALSE(sched.lock.held_by_me()) << "sched.lock released while unwinding";
  }
}

}  // namespace
