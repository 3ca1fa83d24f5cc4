// tests/unit/subject_edges.cpp — the edges of every run-queue function,
// through the subject API only (S::runqput, S::runqget, …), at ring
// capacities 4, 8 and 256. Expected values are Go's (proc.go, go1.25 line).
#include "test_support.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runqcheck_subject.hpp"

namespace {

using rqtest::B;
using rqtest::G;
using rqtest::gpool;
using rqtest::gqueue;
using idx = std::vector<std::size_t>;

// The line the verdict collects for a check that did not apply.
void not_applied(const char* check, const char* why, const char* subject) {
  std::printf("runqcheck: not applied: %s: %s (subject %s)\n", check, why, subject);
}

template <class C>
class SubjectEdges : public rqtest::fatal_guarded {
 protected:
  static constexpr std::uint32_t Cap = C::value;
  using Subj = rqtest::watched<subject_under_test<B, Cap>>;
  using P = typename Subj::p;
  using Sched = typename Subj::schedt;

  // Pops pp's local queue with runqget until empty; pool indices in order.
  // If inherit is given, it receives each result's inheritTime.
  static idx get_all(const gpool& gs, P& pp, std::vector<bool>* inherit = nullptr) {
    idx out;
    for (std::size_t guard = 0; guard < 4 * Cap + 8; guard++) {
      auto r = Subj::runqget(pp);
      if (r.gp == nullptr) return out;
      out.push_back(gs.index(r.gp));
      if (inherit != nullptr) inherit->push_back(r.inheritTime);
    }
    ADD_FAILURE() << "runqget never returned nil";
    return out;
  }
  // Pops the global queue with globrunqget until empty.
  static idx glob_all(const gpool& gs, Sched& sched) {
    idx out;
    for (std::size_t guard = 0; guard < 100000; guard++) {
      G* gp = Subj::globrunqget(sched);
      if (gp == nullptr) return out;
      out.push_back(gs.index(gp));
    }
    ADD_FAILURE() << "globrunqget never returned nil";
    return out;
  }
  static void put_range(const gpool& gs, P& pp, std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; i++) Subj::runqput(pp, gs[i], false);
  }
  // Moves pp's head and tail forward by n (put then get n scratch Gs), so a
  // test starts with its ring not aligned at slot 0.
  static void rotate(P& pp, std::uint32_t n) {
    gpool scratch(1, 1);
    for (std::uint32_t i = 0; i < n; i++) {
      Subj::runqput(pp, scratch[0], false);
      G* gp = Subj::runqget(pp).gp;
      EXPECT_EQ(gp, scratch[0]) << "rotate: runqget lost the scratch G";
    }
  }
};

using EdgeCaps = ::testing::Types<rqtest::cap<4>, rqtest::cap<8>, rqtest::cap<256>>;
TYPED_TEST_SUITE(SubjectEdges, EdgeCaps);

// ---------------------------------------------------------------------------
// runqget / runqput(next)

TYPED_TEST(SubjectEdges, Runqget_ReturnsRunnextFirstWithInheritTimeThenRingWithout) {
  using Subj = typename TestFixture::Subj;
  typename TestFixture::Sched sched(1);
  typename TestFixture::P pp(sched, 0);
  gpool gs(3);
  Subj::runqput(pp, gs[0], false);
  Subj::runqput(pp, gs[1], false);
  Subj::runqput(pp, gs[2], true);
  auto r = Subj::runqget(pp);
  EXPECT_EQ(gs.index(r.gp), 2u) << "runnext must be taken before the ring";
  EXPECT_TRUE(r.inheritTime) << "a G from runnext inherits the time slice";
  r = Subj::runqget(pp);
  EXPECT_EQ(gs.index(r.gp), 0u);
  EXPECT_FALSE(r.inheritTime) << "a ring G starts a new time slice";
  r = Subj::runqget(pp);
  EXPECT_EQ(gs.index(r.gp), 1u);
  EXPECT_FALSE(r.inheritTime);
  r = Subj::runqget(pp);
  EXPECT_EQ(r.gp, nullptr);
  EXPECT_FALSE(r.inheritTime) << "an empty runqget returns {nil, false}";
}

TYPED_TEST(SubjectEdges, Runqput_NextKicksOldRunnextToRingTail) {
  using Subj = typename TestFixture::Subj;
  typename TestFixture::Sched sched(1);
  typename TestFixture::P pp(sched, 0);
  gpool gs(4);
  Subj::runqput(pp, gs[0], false);  // ring: 0
  Subj::runqput(pp, gs[1], true);   // runnext: 1
  Subj::runqput(pp, gs[2], true);   // runnext: 2, ring: 0 1
  Subj::runqput(pp, gs[3], true);   // runnext: 3, ring: 0 1 2  (Cap 4: exactly full)
  std::vector<bool> inherit;
  EXPECT_EQ(TestFixture::get_all(gs, pp, &inherit), (idx{3, 0, 1, 2}));
  EXPECT_EQ(inherit, (std::vector<bool>{true, false, false, false}));
  EXPECT_EQ(Subj::globrunqsize(sched), 0) << "a ring with room must not overflow";
}

TYPED_TEST(SubjectEdges, Runqput_NextOnFullRingKicksOldRunnextThroughRunqputslow) {
  using Subj = typename TestFixture::Subj;
  constexpr std::uint32_t Cap = TestFixture::Cap;
  typename TestFixture::Sched sched(1);
  typename TestFixture::P pp(sched, 0);
  gpool gs(Cap + 2);
  TestFixture::put_range(gs, pp, 0, Cap);     // ring full: 0..Cap-1
  Subj::runqput(pp, gs[Cap], true);           // runnext: Cap
  Subj::runqput(pp, gs[Cap + 1],
                true);  // runnext: Cap+1; Cap kicked into the full ring → runqputslow
  EXPECT_EQ(Subj::globrunqsize(sched), static_cast<std::int32_t>(Cap / 2 + 1));
  EXPECT_EQ(TestFixture::glob_all(gs, sched), rqtest::concat(gpool::range(0, Cap / 2), idx{Cap}))
      << "global queue: the Cap/2 oldest ring Gs, then the kicked runnext";
  std::vector<bool> inherit;
  EXPECT_EQ(TestFixture::get_all(gs, pp, &inherit),
            rqtest::concat(idx{Cap + 1}, gpool::range(Cap / 2, Cap)));
  ASSERT_FALSE(inherit.empty());
  EXPECT_TRUE(inherit[0]);
}

// ---------------------------------------------------------------------------
// runqputslow (reached through runqput on a full ring)

TYPED_TEST(SubjectEdges, Runqputslow_MovesOldestHalfThenNewGToGlobalInOrder) {
  using Subj = typename TestFixture::Subj;
  constexpr std::uint32_t Cap = TestFixture::Cap;
  constexpr std::size_t H = Cap / 2;
  for (std::uint32_t offset : {0u, 1u, Cap - 1}) {
    SCOPED_TRACE("ring rotated by " + std::to_string(offset));
    typename TestFixture::Sched sched(1);
    typename TestFixture::P pp(sched, 0);
    TestFixture::rotate(pp, offset);
    gpool gs(2 * Cap + 2);
    const std::size_t X = Cap, Y = Cap + H + 1;
    TestFixture::put_range(gs, pp, 0, Cap);  // full
    EXPECT_EQ(Subj::globrunqsize(sched), 0) << "a full ring (Cap Gs) must not overflow yet";
    Subj::runqput(pp, gs[X], false);  // overflow: 0..H-1 and X go global
    EXPECT_EQ(Subj::globrunqsize(sched), static_cast<std::int32_t>(H + 1))
        << "runqputslow moves Cap/2 + 1 Gs";
    // The ring goes on: H more Gs fill it again, the next put overflows again.
    TestFixture::put_range(gs, pp, Cap + 1, Cap + 1 + H);
    EXPECT_EQ(Subj::globrunqsize(sched), static_cast<std::int32_t>(H + 1))
        << "refilling to Cap must not overflow";
    Subj::runqput(pp, gs[Y], false);  // overflow: H..Cap-1 and Y go global
    EXPECT_EQ(Subj::globrunqsize(sched), static_cast<std::int32_t>(2 * (H + 1)));
    idx want_global = rqtest::concat(gpool::range(0, H), idx{X});
    want_global = rqtest::concat(want_global, gpool::range(H, Cap));
    want_global.push_back(Y);
    EXPECT_EQ(TestFixture::glob_all(gs, sched), want_global)
        << "global queue: the oldest half of the ring in order, then the new G, per overflow";
    EXPECT_EQ(TestFixture::get_all(gs, pp), gpool::range(Cap + 1, Cap + 1 + H))
        << "the local ring keeps the newer half in FIFO order";
    EXPECT_TRUE(Subj::runqempty(pp));
  }
}

// ---------------------------------------------------------------------------
// runqputbatch

TYPED_TEST(SubjectEdges, Runqputbatch_MovesExactlyRoomGsInOrderAndLeavesRestInQueue) {
  using Subj = typename TestFixture::Subj;
  constexpr std::uint32_t Cap = TestFixture::Cap;
  for (std::uint32_t offset : {0u, 3u}) {
    for (std::uint32_t k : {0u, 1u, Cap / 2, Cap - 1, Cap}) {
      const std::uint32_t room = Cap - k;
      for (std::uint32_t m : {1u, room, room + 1, Cap + 3}) {
        if (m == 0) continue;
        SCOPED_TRACE("offset " + std::to_string(offset) + ", ring holds " + std::to_string(k) +
                     ", batch of " + std::to_string(m));
        typename TestFixture::Sched sched(1);
        typename TestFixture::P pp(sched, 0);
        TestFixture::rotate(pp, offset);
        gpool gs(k + m);
        TestFixture::put_range(gs, pp, 0, k);
        gqueue q = gs.queue(k, k + m);
        Subj::runqputbatch(pp, q);
        const std::uint32_t moved = std::min(m, room);
        EXPECT_EQ(q.size(), static_cast<std::int32_t>(m - moved)) << "leftover count";
        EXPECT_EQ(rqtest::walk(gs, q), gpool::range(k + moved, k + m))
            << "leftovers stay in q, in order";
        EXPECT_EQ(q.empty(), moved == m);
        EXPECT_EQ(Subj::globrunqsize(sched), 0)
            << "runqputbatch never overflows to the global queue";
        EXPECT_EQ(TestFixture::get_all(gs, pp), gpool::range(0, k + moved))
            << "ring: the old Gs, then the moved batch head, in order";
        (void)rqtest::pop_all(gs, q);
      }
    }
  }
}

TYPED_TEST(SubjectEdges, Runqputbatch_EmptyBatchLeavesQueueUnchanged) {
  using Subj = typename TestFixture::Subj;
  typename TestFixture::Sched sched(1);
  typename TestFixture::P pp(sched, 0);
  gpool gs(1);
  gqueue q;
  Subj::runqputbatch(pp, q);
  EXPECT_TRUE(Subj::runqempty(pp));
  Subj::runqput(pp, gs[0], false);
  Subj::runqputbatch(pp, q);
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(TestFixture::get_all(gs, pp), idx{0});
}

// ---------------------------------------------------------------------------
// runqdrain

TYPED_TEST(SubjectEdges, Runqdrain_ReturnsRunnextFirstThenRingOrderAndEmptiesQueue) {
  using Subj = typename TestFixture::Subj;
  constexpr std::uint32_t Cap = TestFixture::Cap;
  for (bool with_next : {false, true}) {
    for (std::uint32_t k : {0u, 1u, Cap - 1, Cap}) {
      SCOPED_TRACE(std::string(with_next ? "runnext + " : "") + std::to_string(k) + " ring Gs");
      typename TestFixture::Sched sched(1);
      typename TestFixture::P pp(sched, 0);
      TestFixture::rotate(pp, 5);
      gpool gs(k + 1);
      TestFixture::put_range(gs, pp, 0, k);
      if (with_next) Subj::runqput(pp, gs[k], true);
      gqueue q = Subj::runqdrain(pp);
      idx want = with_next ? idx{k} : idx{};
      want = rqtest::concat(want, gpool::range(0, k));
      EXPECT_EQ(q.size(), static_cast<std::int32_t>(want.size())) << "gQueue size";
      EXPECT_EQ(rqtest::walk(gs, q), want) << "drained order: runnext, then the ring head to tail";
      if (!want.empty()) {
        // A drain that returned nothing (runnext left behind) fails here, not by SIGSEGV.
        ASSERT_NE(q.tail(), nullptr) << "gQueue tail: the drain returned no G";
        EXPECT_EQ(gs.index(q.tail()), want.back()) << "gQueue tail";
        EXPECT_EQ(q.tail()->schedlink.load(), nullptr) << "tail's schedlink must end the list";
      } else {
        EXPECT_TRUE(q.empty());
      }
      EXPECT_TRUE(Subj::runqempty(pp)) << "queue empty after runqdrain";
      EXPECT_EQ(Subj::runqget(pp).gp, nullptr);
      gqueue again = Subj::runqdrain(pp);
      EXPECT_TRUE(again.empty()) << "a second drain finds nothing";
      EXPECT_EQ(again.size(), 0);
      // The P is still usable and FIFO afterwards.
      Subj::runqput(pp, gs[0], false);
      EXPECT_EQ(TestFixture::get_all(gs, pp), idx{0});
      EXPECT_EQ(Subj::globrunqsize(sched), 0);
      (void)rqtest::pop_all(gs, q);
    }
  }
}

// ---------------------------------------------------------------------------
// runqsteal

TYPED_TEST(SubjectEdges, Runqsteal_TakesCeilHalfReturnsLastGrabbedRestInThiefRingInOrder) {
  using Subj = typename TestFixture::Subj;
  constexpr std::uint32_t Cap = TestFixture::Cap;
  for (std::uint32_t offset : {0u, Cap - 1}) {
    for (std::uint32_t k = 1; k <= Cap; k++) {
      for (bool stealRunNextG : {false, true}) {
        SCOPED_TRACE("victim holds " + std::to_string(k) + ", rotated " + std::to_string(offset) +
                     ", stealRunNextG=" + std::to_string(stealRunNextG));
        typename TestFixture::Sched sched(2);
        typename TestFixture::P victim(sched, 0);
        typename TestFixture::P thief(sched, 1);
        TestFixture::rotate(victim, offset);
        TestFixture::rotate(thief, offset / 2 + 1);
        gpool gs(k);
        TestFixture::put_range(gs, victim, 0, k);
        const std::uint32_t n = k - k / 2;  // Go's runqgrab: n - n/2
        G* gp = Subj::runqsteal(thief, victim, stealRunNextG);
        ASSERT_NE(gp, nullptr) << "a non-empty victim must yield a G";
        EXPECT_EQ(gs.index(gp), n - 1) << "runqsteal returns the last grabbed G";
        EXPECT_EQ(TestFixture::get_all(gs, thief), gpool::range(0, n - 1))
            << "thief's ring: the other grabbed Gs, oldest first";
        EXPECT_EQ(TestFixture::get_all(gs, victim), gpool::range(n, k))
            << "victim keeps the newer half in order";
        EXPECT_EQ(Subj::globrunqsize(sched), 0);
      }
    }
  }
}

TYPED_TEST(SubjectEdges, Runqsteal_TakesRunnextOnlyIfAllowedAndRingEmpty) {
  using Subj = typename TestFixture::Subj;
  constexpr std::uint32_t Cap = TestFixture::Cap;
  typename TestFixture::Sched sched(2);
  typename TestFixture::P victim(sched, 0);
  typename TestFixture::P thief(sched, 1);
  gpool gs(Cap + 1);
  const std::size_t R = Cap;

  // Only runnext, stealRunNextG=false: nothing is stolen.
  Subj::runqput(victim, gs[R], true);
  EXPECT_EQ(Subj::runqsteal(thief, victim, false), nullptr)
      << "runnext stolen though stealRunNextG=false";
  EXPECT_FALSE(Subj::runqempty(victim));
  EXPECT_TRUE(Subj::runqempty(thief));
  // Only runnext, stealRunNextG=true: the runnext G is returned; no ring G appears.
  G* gp = Subj::runqsteal(thief, victim, true);
  EXPECT_EQ(gp, gs[R])
      << "runqsteal(stealRunNextG=true) must take runnext from a victim with an empty ring";
  EXPECT_TRUE(Subj::runqempty(victim)) << "victim's runnext must be cleared";
  EXPECT_TRUE(Subj::runqempty(thief)) << "the stolen runnext is returned, not queued";
  EXPECT_EQ(Subj::runqget(victim).gp, nullptr);

  // Ring and runnext, stealRunNextG=true: only ring Gs are taken.
  for (std::uint32_t k : {1u, 2u, Cap}) {
    SCOPED_TRACE("ring holds " + std::to_string(k));
    TestFixture::put_range(gs, victim, 0, k);
    Subj::runqput(victim, gs[R], true);
    const std::uint32_t n = k - k / 2;
    gp = Subj::runqsteal(thief, victim, true);
    EXPECT_EQ(gs.index(gp), n - 1) << "with a non-empty ring the steal takes ring Gs, not runnext";
    EXPECT_EQ(TestFixture::get_all(gs, thief), gpool::range(0, n - 1));
    std::vector<bool> inherit;
    EXPECT_EQ(TestFixture::get_all(gs, victim, &inherit),
              rqtest::concat(idx{R}, gpool::range(n, k)))
        << "victim keeps its runnext first";
    ASSERT_FALSE(inherit.empty());
    EXPECT_TRUE(inherit[0]);
  }
}

TYPED_TEST(SubjectEdges, Runqsteal_EmptyVictimYieldsNilAndLeavesThiefUnchanged) {
  using Subj = typename TestFixture::Subj;
  typename TestFixture::Sched sched(2);
  typename TestFixture::P victim(sched, 0);
  typename TestFixture::P thief(sched, 1);
  gpool gs(1);
  EXPECT_EQ(Subj::runqsteal(thief, victim, false), nullptr);
  EXPECT_EQ(Subj::runqsteal(thief, victim, true), nullptr);
  EXPECT_TRUE(Subj::runqempty(thief));
  EXPECT_TRUE(Subj::runqempty(victim));
  // After a victim's Gs are all taken, a steal finds nothing either.
  Subj::runqput(victim, gs[0], false);
  EXPECT_EQ(Subj::runqget(victim).gp, gs[0]);
  EXPECT_EQ(Subj::runqsteal(thief, victim, true), nullptr);
  EXPECT_EQ(Subj::runqget(thief).gp, nullptr);
}

// ---------------------------------------------------------------------------
// runqempty

TYPED_TEST(SubjectEdges, Runqempty_TrueOnlyWithEmptyRingAndNoRunnext) {
  using Subj = typename TestFixture::Subj;
  constexpr std::uint32_t Cap = TestFixture::Cap;
  typename TestFixture::Sched sched(1);
  typename TestFixture::P pp(sched, 0);
  gpool gs(Cap + 1);
  EXPECT_TRUE(Subj::runqempty(pp)) << "a new P";
  Subj::runqput(pp, gs[0], true);
  EXPECT_FALSE(Subj::runqempty(pp)) << "only runnext";
  EXPECT_EQ(Subj::runqget(pp).gp, gs[0]);
  EXPECT_TRUE(Subj::runqempty(pp)) << "runnext taken";
  Subj::runqput(pp, gs[0], false);
  EXPECT_FALSE(Subj::runqempty(pp)) << "one ring G";
  Subj::runqput(pp, gs[1], true);
  EXPECT_FALSE(Subj::runqempty(pp)) << "ring and runnext";
  EXPECT_EQ(Subj::runqget(pp).gp, gs[1]);
  EXPECT_FALSE(Subj::runqempty(pp)) << "ring only, runnext just taken";
  EXPECT_EQ(Subj::runqget(pp).gp, gs[0]);
  EXPECT_TRUE(Subj::runqempty(pp)) << "all taken";
  TestFixture::put_range(gs, pp, 0, Cap);
  EXPECT_FALSE(Subj::runqempty(pp)) << "full ring";
  EXPECT_EQ(TestFixture::get_all(gs, pp).size(), Cap);
  EXPECT_TRUE(Subj::runqempty(pp)) << "full ring drained by runqget";
}

// ---------------------------------------------------------------------------
// Global queue

TYPED_TEST(SubjectEdges, Globrunq_PutGetIsFifoWithExactSize) {
  using Subj = typename TestFixture::Subj;
  typename TestFixture::Sched sched(1);
  gpool gs(5);
  EXPECT_EQ(Subj::globrunqget(sched), nullptr);
  EXPECT_EQ(Subj::globrunqsize(sched), 0);
  for (std::size_t i = 0; i < 5; i++) {
    Subj::globrunqput(sched, gs[i]);
    EXPECT_EQ(Subj::globrunqsize(sched), static_cast<std::int32_t>(i + 1));
  }
  EXPECT_EQ(Subj::globrunqget(sched), gs[0]);
  EXPECT_EQ(Subj::globrunqsize(sched), 4);
  EXPECT_EQ(TestFixture::glob_all(gs, sched), (idx{1, 2, 3, 4}));
  EXPECT_EQ(Subj::globrunqsize(sched), 0);
}

// findRunnable's global step, both Go lines: with an empty local ring both
// go1.25 (globrunqgetbatch(len(runq)/2) + runqputbatch) and go1.3…go1.24
// (globrunqget(pp, 0)) take n = min(Cap/2, size, size/gomaxprocs + 1): the
// global head is returned, the next n-1 go to the ring in order, the rest
// stay global in order.
TYPED_TEST(SubjectEdges, FindRunnableGlobrunq_TakesMinOfHalfRingSizeAndFairShare) {
  using Subj = typename TestFixture::Subj;
  constexpr std::int32_t Cap = static_cast<std::int32_t>(TestFixture::Cap);
  for (std::int32_t gomaxprocs : {1, 2, 3, 4, 7, 64, 1000}) {
    for (std::int32_t size :
         {0, 1, 2, 3, Cap / 2 - 1, Cap / 2, Cap / 2 + 1, Cap, 2 * Cap + 3, 1000}) {
      SCOPED_TRACE("gomaxprocs " + std::to_string(gomaxprocs) + ", global size " +
                   std::to_string(size));
      typename TestFixture::Sched sched(gomaxprocs);
      typename TestFixture::P pp(sched, 0);
      gpool gs(static_cast<std::size_t>(size) + 1);
      for (std::int32_t i = 0; i < size; i++) Subj::globrunqput(sched, gs[i]);
      G* gp = Subj::findRunnable_globrunq(pp);
      if (size == 0) {
        EXPECT_EQ(gp, nullptr);
        EXPECT_TRUE(Subj::runqempty(pp));
        continue;
      }
      const std::int32_t n = std::min({Cap / 2, size, size / gomaxprocs + 1});
      EXPECT_EQ(gs.index(gp), 0u) << "the global head is returned";
      EXPECT_EQ(TestFixture::get_all(gs, pp), gpool::range(1, n))
          << "n-1 Gs go to the local ring, n=" << n;
      EXPECT_EQ(Subj::globrunqsize(sched), size - n);
      EXPECT_EQ(TestFixture::glob_all(gs, sched), gpool::range(n, size))
          << "the rest stays global in order";
    }
  }
}

// Breaking findRunnable's precondition (an empty local ring) must never lose
// a G (subject.hpp). Go raises a fatal error, each line its own: go1.25
// throws "Couldn't put Gs into empty local runq"; go1.24's runqput under
// sched.lock reaches runqputslow, which locks sched.lock again — the latent
// self-deadlock go1.25 removed (a42e337ede), which the port go124 refuses
// with a throw of its own. A port may raise its own fatal error (any text:
// it is recognised by its kind) or keep every G: the returned one, its ring
// and the global queue together hold each G exactly once. A fatal error of
// the harness's (the native mutex's self-deadlock) is a failure: the port
// would hang there.
TYPED_TEST(SubjectEdges, FindRunnableGlobrunq_FullLocalRingFailsOrKeepsEveryG) {
  using Subj = typename TestFixture::Subj;
  constexpr std::uint32_t Cap = TestFixture::Cap;
  const std::string_view name = Subj::name;
  typename TestFixture::Sched sched(1);
  typename TestFixture::P pp(sched, 0);
  gpool gs(3 * Cap);
  TestFixture::put_range(gs, pp, 0, Cap);
  for (std::size_t i = Cap; i < 3 * Cap; i++) Subj::globrunqput(sched, gs[i]);
  std::optional<rqtest::fatal_exception> fatal;
  G* gp = nullptr;
  {
    rqtest::fatal_throws guard;
    try {
      gp = Subj::findRunnable_globrunq(pp);
    } catch (const rqtest::fatal_exception& e) {
      fatal = e;
    }
  }
  if (fatal) {
    EXPECT_EQ(fatal->kind, runqcheck::fatal_kind::port)
        << "harness fatal error, not the port's: " << fatal->msg << " " << fatal->values;
    if (name == "go1.25") {
      EXPECT_EQ(fatal->msg, "Couldn't put Gs into empty local runq");
    }
    return;  // the port stopped mid-operation, as Go's throw would
  }
  EXPECT_NE(name, "go1.25") << "go1.25 throws here";
  idx all = gp != nullptr ? idx{gs.index(gp)} : idx{};
  all = rqtest::concat(all, TestFixture::get_all(gs, pp));
  all = rqtest::concat(all, TestFixture::glob_all(gs, sched));
  std::sort(all.begin(), all.end());
  EXPECT_EQ(all, gpool::range(0, 3 * Cap))
      << "no fatal error, so every G must still be queued exactly once";
}

// Counters near the wrap of the port's counter type (S::set_runq_counters;
// 2^32 for Go's uint32, 2^64 for a port's uint64): put, get, steal and spill
// work across it. Without the hook this test does not apply (said).
TYPED_TEST(SubjectEdges, Wrap_PutGetStealAcross2To32) {
  using Subj = typename TestFixture::Subj;
  constexpr std::uint32_t Cap = TestFixture::Cap;
  if constexpr (!runqcheck::has_set_runq_counters<Subj>) {
    not_applied("unit Wrap_PutGetStealAcross2To32", "needs S::set_runq_counters", subject_name);
    GTEST_SKIP() << "needs S::set_runq_counters";
  } else {
    using C = runqcheck::runq_counter_t<Subj>;
    constexpr C last = static_cast<C>(-1);  // 2^W - 1
    for (C start : {C(last - Cap / 2), last, C(last - 2 * Cap)}) {
      SCOPED_TRACE("counters start at " + std::to_string(start));
      typename TestFixture::Sched sched(2);
      typename TestFixture::P victim(sched, 0), thief(sched, 1);
      Subj::set_runq_counters(victim, start);
      Subj::set_runq_counters(thief, C(start + 3));
      gpool gs(2 * Cap + 1);
      TestFixture::put_range(gs, victim, 0, Cap);
      G* got = Subj::runqsteal(thief, victim, false);
      EXPECT_EQ(gs.index(got), Cap / 2 - 1) << "the last of the ceil(n/2) stolen";
      EXPECT_EQ(TestFixture::get_all(gs, thief), gpool::range(0, Cap / 2 - 1));
      TestFixture::put_range(gs, victim, Cap, Cap + Cap / 2 + 1);  // full, then spill
      EXPECT_EQ(Subj::globrunqsize(sched), static_cast<std::int32_t>(Cap / 2 + 1));
      EXPECT_EQ(TestFixture::get_all(gs, victim), gpool::range(Cap, Cap + Cap / 2));
      EXPECT_EQ(TestFixture::glob_all(gs, sched),
                rqtest::concat(gpool::range(Cap / 2, Cap), idx{Cap + Cap / 2}));
      EXPECT_TRUE(Subj::runqempty(victim));
    }
    // The owner's own gets move the head across 2^W (above, steals and spills do): a
    // head kept in a word with the tail must not carry into it (held-out round 9).
    for (C start : {C(last - 1), last}) {
      SCOPED_TRACE("the owner's gets from " + std::to_string(start));
      typename TestFixture::Sched sched(1);
      typename TestFixture::P pp(sched, 0);
      Subj::set_runq_counters(pp, start);
      gpool gs(4);
      TestFixture::put_range(gs, pp, 0, 4);
      EXPECT_EQ(TestFixture::get_all(gs, pp), gpool::range(0, 4));
      EXPECT_TRUE(Subj::runqempty(pp));
    }
  }
}

// ---------------------------------------------------------------------------
// destroy (procresize shrinking)

TYPED_TEST(SubjectEdges, Destroy_GlobalHeadGetsRunnextThenRingInOrderThenOldGlobal) {
  using Subj = typename TestFixture::Subj;
  constexpr std::uint32_t Cap = TestFixture::Cap;
  for (bool with_next : {false, true}) {
    for (std::uint32_t k : {0u, 1u, Cap}) {
      for (std::uint32_t old : {0u, 3u}) {
        SCOPED_TRACE(std::string(with_next ? "runnext + " : "") + std::to_string(k) + " ring Gs, " +
                     std::to_string(old) + " global Gs");
        typename TestFixture::Sched sched(2);
        typename TestFixture::P pp(sched, 0);
        TestFixture::rotate(pp, 3);
        gpool gs(k + 1 + old);
        const std::size_t R = k;
        for (std::size_t i = k + 1; i < k + 1 + old; i++) Subj::globrunqput(sched, gs[i]);
        TestFixture::put_range(gs, pp, 0, k);
        if (with_next) Subj::runqput(pp, gs[R], true);
        Subj::destroy(pp);
        idx want = with_next ? idx{R} : idx{};
        want = rqtest::concat(want, gpool::range(0, k));
        want = rqtest::concat(want, gpool::range(k + 1, k + 1 + old));
        EXPECT_EQ(Subj::globrunqsize(sched), static_cast<std::int32_t>(want.size()));
        EXPECT_EQ(TestFixture::glob_all(gs, sched), want)
            << "global queue: runnext, the ring head to tail, then what was there before";
        EXPECT_TRUE(Subj::runqempty(pp)) << "the destroyed P holds nothing";
        EXPECT_EQ(Subj::runqget(pp).gp, nullptr);
      }
    }
  }
}

}  // namespace
