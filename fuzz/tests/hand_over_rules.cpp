// fuzz/tests/hand_over_rules.cpp — which access a data race's cause names
// (runqcheck_fuzz/hand_over.hpp), on recordings written by hand: each rule
// where it applies, the order between them, and the early publication (a
// stamp released before its slot's write) named before a relaxed tail that a
// stamp design reads relaxed on purpose (round 7's held-out report).
#include <gtest/gtest.h>

#include <span>
#include <string>
#include <vector>

#include "runqcheck_fuzz/hand_over.hpp"

namespace {

using runqcheck::fuzz::hand_over_kind;
using runqcheck::fuzz::pick_hand_over;

enum class mo { relaxed, acquire, release, fence_acq, fence_rel };

struct ev {
  int thread;
  std::string obj;
  bool read;
  int rf = -1;  // the write it read
  mo order = mo::relaxed;
  int op = 0;
};

// The recording as pick_hand_over reads one.
struct view {
  const std::vector<ev>& e;
  const ev& at(int i) const { return e[static_cast<std::size_t>(i)]; }
  int rf(int i) const { return at(i).rf; }
  int thread(int i) const { return at(i).thread; }
  int op(int i) const { return at(i).op; }
  bool reads(int i) const { return at(i).read; }
  bool rel(int i) const { return at(i).order == mo::release || at(i).order == mo::fence_rel; }
  bool acq(int i) const { return at(i).order == mo::acquire || at(i).order == mo::fence_acq; }
  bool fence(int i) const {
    return at(i).order == mo::fence_acq || at(i).order == mo::fence_rel;
  }
  bool same_obj(int i, int j) const { return at(i).obj == at(j).obj; }
  template <class F>
  int find_before(int t, int limit, F&& pred) const {
    for (int j = 0; j < limit; j++)
      if (at(j).thread == t && pred(j)) return j;
    return -1;
  }
  template <class F>
  int find_after(int t, int from, F&& pred) const {
    for (int j = from + 1; j < static_cast<int>(e.size()); j++)
      if (at(j).thread == t && pred(j)) return j;
    return -1;
  }
};

constexpr int W = 1, R = 2;

// A stamp design whose owner releases the slot's stamp before it writes the slot
// (#1, the racing write); the reader's tail load is relaxed, as the design means it.
std::vector<ev> stamp_released_early() {
  return {
      {W, "stamp", false, -1, mo::release},  // #0: the publication, too early
      {W, "slot", false},                    // #1: the racing write
      {W, "back", false},                    // #2: the tail, relaxed
      {R, "back", true, 2},                  // #3: relaxed, by design
      {R, "stamp", true, 0, mo::acquire},    // #4: acquires #0
  };
}

TEST(HandOver, EarlyReleaseIsNamedBeforeARelaxedPairTheDesignMeans) {
  auto e = stamp_released_early();
  std::vector<int> reads{3}, early{4};
  auto h = pick_hand_over(view{e}, reads, R, early, 1);
  EXPECT_EQ(h.kind, hand_over_kind::early_release);
  EXPECT_EQ(h.read, 4);
  // Without the reads of stores made before the write: the relaxed tail, as before.
  auto old = pick_hand_over(view{e}, reads, R);
  EXPECT_EQ(old.kind, hand_over_kind::unordered);
  EXPECT_EQ(old.read, 3);
}

TEST(HandOver, EarlyReleaseNeedsAnAcquireOfARelease) {
  auto e = stamp_released_early();
  e[4].order = mo::relaxed;  // the stamp read relaxed: no publication was read
  std::vector<int> reads{3}, early{4};
  EXPECT_EQ(pick_hand_over(view{e}, reads, R, early, 1).kind, hand_over_kind::unordered);
  e[4].order = mo::acquire;
  e[0].order = mo::relaxed;  // the stamp stored relaxed
  EXPECT_EQ(pick_hand_over(view{e}, reads, R, early, 1).kind, hand_over_kind::unordered);
  EXPECT_EQ(pick_hand_over(view{e}, {}, R, early, 1).kind, hand_over_kind::none);
}

TEST(HandOver, TheLastEarlyPublicationIsNamed) {
  std::vector<ev> e = {
      {W, "tail", false, -1, mo::release},  // #0
      {W, "stamp", false, -1, mo::release},  // #1
      {W, "slot", false},                    // #2: the racing write
      {R, "tail", true, 0, mo::acquire},     // #3
      {R, "stamp", true, 1, mo::acquire},    // #4: closest to the race
  };
  std::vector<int> early{3, 4};
  auto h = pick_hand_over(view{e}, {}, R, early, 2);
  EXPECT_EQ(h.kind, hand_over_kind::early_release);
  EXPECT_EQ(h.read, 4);
}

TEST(HandOver, AnEarlierOperationsReleaseIsNoEarlyPublication) {
  // The tail released by the put before (operation 1); the racing write is a later
  // put's reuse of the slot (operation 2): that release published its own put.
  std::vector<ev> e = {
      {W, "slot", false, -1, mo::relaxed, 1},  // #0
      {W, "tail", false, -1, mo::release, 1},  // #1
      {W, "slot", false, -1, mo::relaxed, 2},  // #2: the racing write
      {R, "tail", true, 1, mo::acquire},       // #3
  };
  std::vector<int> early{3};
  EXPECT_EQ(pick_hand_over(view{e}, {}, R, early, 2).kind, hand_over_kind::none);
  e[2].op = 1;  // the same put: released before its write
  EXPECT_EQ(pick_hand_over(view{e}, {}, R, early, 2).kind, hand_over_kind::early_release);
  EXPECT_EQ(pick_hand_over(view{e}, {}, R, early).kind, hand_over_kind::none);  // no write
}

TEST(HandOver, AStoreWithoutReleaseComesFirst) {
  // The tail stored relaxed after the write and acquired: that store (rule 2), though
  // an early publication was read too.
  std::vector<ev> e = {
      {W, "stamp", false, -1, mo::release},  // #0
      {W, "slot", false},                    // #1: the racing write
      {W, "tail", false},                    // #2: relaxed
      {R, "stamp", true, 0, mo::acquire},    // #3
      {R, "tail", true, 2, mo::acquire},     // #4
  };
  std::vector<int> reads{4}, early{3};
  auto h = pick_hand_over(view{e}, reads, R, early, 1);
  EXPECT_EQ(h.kind, hand_over_kind::store);
  EXPECT_EQ(h.read, 4);
}

TEST(HandOver, ALoadWithoutAcquireComesFirst) {
  // The tail released after the write but read relaxed: that load (rule 3).
  std::vector<ev> e = {
      {W, "stamp", false, -1, mo::release},  // #0
      {W, "slot", false},                    // #1: the racing write
      {W, "tail", false, -1, mo::release},   // #2
      {R, "stamp", true, 0, mo::acquire},    // #3
      {R, "tail", true, 2},                  // #4: relaxed
  };
  std::vector<int> reads{4}, early{3};
  auto h = pick_hand_over(view{e}, reads, R, early, 1);
  EXPECT_EQ(h.kind, hand_over_kind::load);
  EXPECT_EQ(h.read, 4);
}

TEST(HandOver, AFenceMakesTheAccessItsOrder) {
  // A release fence before the stamp's relaxed store in its operation: still a release.
  std::vector<ev> e = {
      {W, "", false, -1, mo::fence_rel, 1},  // #0
      {W, "stamp", false, -1, mo::relaxed, 1},  // #1
      {W, "slot", false, -1, mo::relaxed, 1},  // #2: the racing write
      {R, "stamp", true, 1, mo::acquire},  // #3
  };
  std::vector<int> early{3};
  EXPECT_EQ(pick_hand_over(view{e}, {}, R, early, 2).kind, hand_over_kind::early_release);
}

}  // namespace
