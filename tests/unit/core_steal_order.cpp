// tests/unit/core_steal_order.cpp — stealWork's random coprime walk
// (steal_order.hpp: randomOrder, randomEnum, gcd), after Go's
// RunStealOrderTest (runtime/proc_runtime_test.go, TestStealOrder).
#include "test_support.hpp"

#include <string>
#include <vector>

#include "runqcheck/steal_order.hpp"

namespace {

using runqcheck::randomEnum;
using runqcheck::randomOrder;

TEST(CoreStealOrder, Gcd_KnownValues) {
  EXPECT_EQ(runqcheck::gcd(12, 18), 6u);
  EXPECT_EQ(runqcheck::gcd(18, 12), 6u);
  EXPECT_EQ(runqcheck::gcd(7, 64), 1u);
  EXPECT_EQ(runqcheck::gcd(64, 64), 64u);
  EXPECT_EQ(runqcheck::gcd(1, 1), 1u);
  EXPECT_EQ(runqcheck::gcd(5, 0), 5u);
  EXPECT_EQ(runqcheck::gcd(0, 5), 5u);
}

TEST(CoreStealOrder, Reset_CoprimesAreExactlyThoseOfCount) {
  randomOrder ord;
  ord.reset(12);
  EXPECT_EQ(ord.count, 12u);
  EXPECT_EQ(ord.coprimes, (std::vector<std::uint32_t>{1, 5, 7, 11}));
  ord.reset(1);
  EXPECT_EQ(ord.coprimes, (std::vector<std::uint32_t>{1}));
  ord.reset(2);
  EXPECT_EQ(ord.coprimes, (std::vector<std::uint32_t>{1})) << "reset must clear the old coprimes";
}

// Go: RunStealOrderTest, first half: for 1..64 Ps, every start's walk visits
// each P exactly once and is then done; procs >= 3 has >= 2 coprimes.
TEST(CoreStealOrder, RunStealOrderTest_EveryEnumerationVisitsEachPOnce) {
  randomOrder ord;
  for (std::uint32_t procs = 1; procs <= 64; procs++) {
    ord.reset(procs);
    if (procs >= 3) {
      ASSERT_GE(ord.coprimes.size(), 2u) << "too few coprimes, procs " << procs;
    }
    for (std::uint32_t co = 0; co < ord.coprimes.size(); co++) {
      randomEnum e = ord.start(co);
      std::vector<bool> checked(procs, false);
      for (std::uint32_t p = 0; p < procs; p++) {
        ASSERT_FALSE(e.done()) << "done too early, procs " << procs << " step " << p;
        std::uint32_t x = e.position();
        ASSERT_LT(x, procs);
        ASSERT_FALSE(checked[x]) << "duplicate during enumeration, procs " << procs << " inc "
                                 << e.inc;
        checked[x] = true;
        e.next();
      }
      ASSERT_TRUE(e.done()) << "not done, procs " << procs;
    }
  }
}

// Go: RunStealOrderTest, second half: the first procs*len(coprimes) start
// values give distinct (pos, inc) pairs.
TEST(CoreStealOrder, RunStealOrderTest_DistinctPosIncForEachStart) {
  randomOrder ord;
  for (std::uint32_t procs = 2; procs <= 64; procs++) {
    ord.reset(procs);
    std::vector<bool> checked(procs * procs, false);
    for (std::uint32_t i = 0; i < procs * ord.coprimes.size(); i++) {
      randomEnum e = ord.start(i);
      std::uint32_t j = e.pos * procs + e.inc;
      ASSERT_LT(j, checked.size());
      ASSERT_FALSE(checked[j]) << "duplicate pos+inc during enumeration, procs " << procs << " pos "
                               << e.pos << " inc " << e.inc;
      checked[j] = true;
    }
  }
}

// start(i) = {pos: i % count, inc: coprimes[i / count % len(coprimes)]}.
TEST(CoreStealOrder, Start_PosAndIncFromStartValue) {
  randomOrder ord;
  ord.reset(6);  // coprimes 1, 5
  randomEnum e = ord.start(7);  // pos 7 % 6 = 1, inc coprimes[7 / 6 % 2] = coprimes[1] = 5
  EXPECT_EQ(e.pos, 1u);
  EXPECT_EQ(e.inc, 5u);
  EXPECT_EQ(e.count, 6u);
  EXPECT_EQ(e.i, 0u);
  e = ord.start(13);  // pos 1, inc coprimes[13 / 6 % 2] = coprimes[0] = 1
  EXPECT_EQ(e.pos, 1u);
  EXPECT_EQ(e.inc, 1u);
  e.next();
  EXPECT_EQ(e.position(), 2u);
  e = ord.start(11);  // pos 5, inc 5: the walk wraps 5 → 4
  e.next();
  EXPECT_EQ(e.position(), 4u);
}

}  // namespace
