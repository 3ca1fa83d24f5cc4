// tests/unit/core_wrap.cpp — the bundled port's free-running uint32
// runqhead/runqtail counters across 2^32. Each test sets both counters
// directly (near the wrap) before any operation, then checks FIFO order,
// counts and the raw counter values. Core internals: bundled port only.
#include "test_support.hpp"

#include <cstdio>
#include <string>
#include <vector>

#include "runqcheck/go125.hpp"

namespace {

using rqtest::B;
using rqtest::G;
using rqtest::gpool;
using rqtest::gqueue;
using idx = std::vector<std::size_t>;
using std::memory_order::relaxed;  // a using-declaration: may repeat in a unity build

template <class C>
class CoreWrap : public rqtest::fatal_guarded {
 protected:
  static constexpr std::uint32_t Cap = C::value;
  using P = runqcheck::p<B, Cap>;
  using Sched = runqcheck::schedt<B>;

  // Counter values just before (and at) the uint32 wrap, and the int32 sign boundary.
  static std::vector<std::uint32_t> starts() {
    return {0xFFFFFFF0u,  0xFFFFFFFFu,           0u - Cap, 0u - Cap / 2,
            0u - Cap + 1, 0x7FFFFFFFu - Cap / 2, 0u};
  }
  static void set_counters(P& pp, std::uint32_t v) {
    pp.runqhead.store(v, relaxed);
    pp.runqtail.store(v, relaxed);
  }
  static std::uint32_t head(const P& pp) { return pp.runqhead.load(relaxed); }
  static std::uint32_t tail(const P& pp) { return pp.runqtail.load(relaxed); }
  static idx get_all(const gpool& gs, P& pp) { return rqtest::runqget_all(gs, pp); }
  static idx glob_all(const gpool& gs, Sched& sched) {
    auto l = runqcheck::lock(sched);
    return rqtest::pop_all(gs, l.runq());
  }
  static void put_range(const gpool& gs, P& pp, std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; i++) runqcheck::runqput(pp, gs[i], false);
  }
  static std::string hex(std::uint32_t v) {
    char b[16];
    std::snprintf(b, sizeof b, "0x%08X", v);
    return b;
  }
};

using Caps = ::testing::Types<rqtest::cap<4>, rqtest::cap<8>, rqtest::cap<256>>;
TYPED_TEST_SUITE(CoreWrap, Caps);

TYPED_TEST(CoreWrap, PutGet_FifoAndCountersAcrossWrap) {
  constexpr std::uint32_t Cap = TestFixture::Cap;
  for (std::uint32_t s : TestFixture::starts()) {
    SCOPED_TRACE("start " + TestFixture::hex(s));
    typename TestFixture::Sched sched(1);
    typename TestFixture::P pp(sched, 0);
    TestFixture::set_counters(pp, s);
    ASSERT_TRUE(runqcheck::runqempty(pp));
    gpool gs(3 * Cap);
    // Three full rounds: whatever the start, one of them crosses 2^32.
    for (std::uint32_t round = 0; round < 3; round++) {
      TestFixture::put_range(gs, pp, round * Cap, (round + 1) * Cap);
      EXPECT_EQ(TestFixture::tail(pp) - TestFixture::head(pp), Cap)
          << "length under modular arithmetic";
      EXPECT_EQ(TestFixture::tail(pp), static_cast<std::uint32_t>(s + (round + 1) * Cap));
      EXPECT_FALSE(runqcheck::runqempty(pp));
      EXPECT_EQ(TestFixture::get_all(gs, pp), gpool::range(round * Cap, (round + 1) * Cap))
          << "round " << round;
      EXPECT_EQ(TestFixture::head(pp), TestFixture::tail(pp));
      EXPECT_TRUE(runqcheck::runqempty(pp));
    }
    // One at a time, the queue length oscillating between 1 and 2.
    TestFixture::set_counters(pp, s);
    runqcheck::runqput(pp, gs[0], false);
    for (std::size_t i = 1; i < 3 * Cap; i++) {
      runqcheck::runqput(pp, gs[i], false);
      auto r = runqcheck::runqget(pp);
      ASSERT_EQ(gs.index(r.gp), i - 1) << "interleaved put/get across the wrap";
    }
    EXPECT_EQ(TestFixture::get_all(gs, pp), idx{3 * Cap - 1});
    EXPECT_EQ(TestFixture::head(pp), static_cast<std::uint32_t>(s + 3 * Cap));
    auto l = runqcheck::lock(sched);
    EXPECT_EQ(l.runq().size(), 0) << "nothing may overflow";
  }
}

TYPED_TEST(CoreWrap, Runqputslow_MovesOldestHalfAcrossWrap) {
  constexpr std::uint32_t Cap = TestFixture::Cap;
  for (std::uint32_t s : TestFixture::starts()) {
    SCOPED_TRACE("start " + TestFixture::hex(s));
    typename TestFixture::Sched sched(1);
    typename TestFixture::P pp(sched, 0);
    TestFixture::set_counters(pp, s);
    gpool gs(Cap + 1);
    TestFixture::put_range(gs, pp, 0, Cap + 1);  // the last put overflows
    EXPECT_EQ(TestFixture::head(pp), static_cast<std::uint32_t>(s + Cap / 2))
        << "head advanced by Cap/2";
    EXPECT_EQ(TestFixture::tail(pp), static_cast<std::uint32_t>(s + Cap))
        << "tail unchanged by runqputslow";
    EXPECT_EQ(TestFixture::glob_all(gs, sched), rqtest::concat(gpool::range(0, Cap / 2), idx{Cap}));
    EXPECT_EQ(TestFixture::get_all(gs, pp), gpool::range(Cap / 2, Cap));
  }
}

TYPED_TEST(CoreWrap, Runqsteal_VictimAndThiefCountersAcrossWrap) {
  constexpr std::uint32_t Cap = TestFixture::Cap;
  for (std::uint32_t s : TestFixture::starts()) {
    for (std::uint32_t k : {1u, 2u, 3u, Cap - 1, Cap}) {
      SCOPED_TRACE("start " + TestFixture::hex(s) + ", victim holds " + std::to_string(k));
      typename TestFixture::Sched sched(2);
      typename TestFixture::P victim(sched, 0);
      typename TestFixture::P thief(sched, 1);
      const std::uint32_t ts = s + Cap / 2 + 1;  // a different spot near the wrap
      TestFixture::set_counters(victim, s);
      TestFixture::set_counters(thief, ts);
      gpool gs(k);
      TestFixture::put_range(gs, victim, 0, k);
      const std::uint32_t n = k - k / 2;
      G* gp = runqcheck::runqsteal(thief, victim, false);
      EXPECT_EQ(gs.index(gp), n - 1);
      EXPECT_EQ(TestFixture::head(victim), static_cast<std::uint32_t>(s + n)) << "victim head += n";
      EXPECT_EQ(TestFixture::tail(victim), static_cast<std::uint32_t>(s + k));
      EXPECT_EQ(TestFixture::head(thief), ts);
      EXPECT_EQ(TestFixture::tail(thief), static_cast<std::uint32_t>(ts + n - 1))
          << "thief tail += n-1";
      EXPECT_EQ(TestFixture::get_all(gs, thief), gpool::range(0, n - 1));
      EXPECT_EQ(TestFixture::get_all(gs, victim), gpool::range(n, k));
    }
  }
}

TYPED_TEST(CoreWrap, RunqdrainAndRunqputbatch_AcrossWrap) {
  constexpr std::uint32_t Cap = TestFixture::Cap;
  for (std::uint32_t s : TestFixture::starts()) {
    SCOPED_TRACE("start " + TestFixture::hex(s));
    typename TestFixture::Sched sched(1);
    typename TestFixture::P pp(sched, 0);
    TestFixture::set_counters(pp, s);
    gpool gs(2 * Cap + 1);
    gqueue q = gs.queue(0, Cap + 2);
    runqcheck::runqputbatch(pp, q);
    EXPECT_EQ(TestFixture::tail(pp), static_cast<std::uint32_t>(s + Cap))
        << "runqputbatch fills exactly Cap";
    EXPECT_EQ(rqtest::walk(gs, q), gpool::range(Cap, Cap + 2)) << "leftovers";
    runqcheck::runqput(pp, gs[2 * Cap], true);
    gqueue d = runqcheck::runqdrain(pp);
    EXPECT_EQ(d.size(), static_cast<std::int32_t>(Cap + 1));
    EXPECT_EQ(rqtest::walk(gs, d), rqtest::concat(idx{2 * Cap}, gpool::range(0, Cap)));
    EXPECT_EQ(TestFixture::head(pp), static_cast<std::uint32_t>(s + Cap));
    EXPECT_EQ(TestFixture::tail(pp), static_cast<std::uint32_t>(s + Cap));
    EXPECT_TRUE(runqcheck::runqempty(pp));
    (void)rqtest::pop_all(gs, q);
    (void)rqtest::pop_all(gs, d);
  }
}

TYPED_TEST(CoreWrap, Runqempty_AcrossWrap) {
  for (std::uint32_t s : {0xFFFFFFFFu, 0xFFFFFFFEu}) {
    SCOPED_TRACE("start " + TestFixture::hex(s));
    typename TestFixture::Sched sched(1);
    typename TestFixture::P pp(sched, 0);
    TestFixture::set_counters(pp, s);
    gpool gs(3);
    EXPECT_TRUE(runqcheck::runqempty(pp));
    runqcheck::runqput(pp, gs[0], false);
    runqcheck::runqput(pp, gs[1], false);  // tail crosses 2^32 on one of the two puts
    EXPECT_EQ(TestFixture::tail(pp), static_cast<std::uint32_t>(s + 2));
    EXPECT_FALSE(runqcheck::runqempty(pp)) << "tail < head numerically, yet two Gs queued";
    EXPECT_EQ(runqcheck::runqget(pp).gp, gs[0]);
    EXPECT_EQ(runqcheck::runqget(pp).gp, gs[1]);
    EXPECT_TRUE(runqcheck::runqempty(pp));
  }
}

TYPED_TEST(CoreWrap, Destroy_RingAcrossWrap) {
  constexpr std::uint32_t Cap = TestFixture::Cap;
  for (std::uint32_t s : TestFixture::starts()) {
    SCOPED_TRACE("start " + TestFixture::hex(s));
    typename TestFixture::Sched sched(1);
    typename TestFixture::P pp(sched, 0);
    TestFixture::set_counters(pp, s);
    gpool gs(Cap + 1);
    TestFixture::put_range(gs, pp, 0, Cap);
    runqcheck::runqput(pp, gs[Cap], true);
    {
      auto l = runqcheck::lock(sched);
      runqcheck::destroy(l, pp);
    }
    EXPECT_EQ(TestFixture::head(pp), TestFixture::tail(pp));
    EXPECT_EQ(TestFixture::tail(pp), s) << "destroy pops the ring from the tail back to head";
    EXPECT_EQ(pp.runnext.load(relaxed), nullptr);
    EXPECT_EQ(TestFixture::glob_all(gs, sched), rqtest::concat(idx{Cap}, gpool::range(0, Cap)));
  }
}

}  // namespace
