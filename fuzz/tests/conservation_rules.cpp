// fuzz/tests/conservation_rules.cpp — where a conservation failure's G went
// (runqcheck_fuzz/conservation.hpp), on recordings written by hand: a G lost (read
// and kept, an older value read after its store, overwritten before any read, put
// by an operation that never stored it), a G delivered twice (a value read though
// replaced, a read made after its own operation gave the slot up) and a lost update
// (a CAS written as a load and a store).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runqcheck_fuzz/conservation.hpp"

namespace {

namespace rf = runqcheck::fuzz;

struct ev {
  int thread;
  std::string obj;  // "" with text: an operation's mark
  bool read = false, write = false;
  int rf = -1;        // the write a read read
  std::string value;  // what a write wrote, what a read read
  int op = 0;
  std::string text;  // a mark's operation ("runqput(P0, G2, next=true)")
};

// The recording as conservation.hpp reads one.
struct view {
  const std::vector<ev>& e;
  const ev& at(int i) const { return e[static_cast<std::size_t>(i)]; }
  int size() const { return static_cast<int>(e.size()); }
  int rf(int i) const { return at(i).rf; }
  int thread(int i) const { return at(i).thread; }
  int op(int i) const { return at(i).op; }
  bool reads(int i) const { return at(i).read; }
  bool writes(int i) const { return at(i).write; }
  bool port(int i) const { return at(i).thread >= 0 && !at(i).obj.empty(); }
  bool same_obj(int i, int j) const { return at(i).obj == at(j).obj; }
  bool wrote(int i, const std::string& g) const { return at(i).write && at(i).value == g; }
  bool got(int i, const std::string& g) const { return at(i).read && at(i).value == g; }
  bool names(int i, const std::string& g) const {
    return at(i).obj.empty() && at(i).text.find(g + ",") != std::string::npos;
  }
};

ev put(int t, const std::string& obj, const std::string& g, int op = 0) {
  return {t, obj, false, true, -1, g, op};
}
ev get(int t, const std::string& obj, int rf, const std::string& g, int op = 0) {
  return {t, obj, true, false, rf, g, op};
}

TEST(Conservation, LostGReadAndKept) {
  std::vector<ev> e{put(0, "slot", "G1"), get(1, "slot", 0, "G1", 1)};
  auto p = rf::pick_lost(view{e}, std::string("G1"));
  EXPECT_EQ(p.kind, rf::lost_kind::kept);
  EXPECT_EQ(p.store, 0);
  EXPECT_EQ(p.read, 1);
}

TEST(Conservation, LostGAnOlderValueReadAfterItsStore) {
  std::vector<ev> e{put(-1, "slot", "nil"), put(0, "slot", "G1"), get(1, "slot", -1, "nil", 1)};
  auto p = rf::pick_lost(view{e}, std::string("G1"));
  EXPECT_EQ(p.kind, rf::lost_kind::read_older);  // (the set-up's store is no port's)
  EXPECT_EQ(p.read, 2);
}

TEST(Conservation, LostGOverwrittenThenReadAfterItsOperationGaveTheSlotUp) {
  // T1 claims (head := 1) before it reads the slot; T0 read the claim, refilled the slot
  // with G2 over G1, and T1's late read took G2: G1 lost, the late read blamed.
  std::vector<ev> e{
      put(0, "slot", "G1"),                  // #0
      {1, "head", false, true, -1, "1", 1},  // #1: T1's claim
      get(0, "head", 1, "1", 2),             // #2: T0 reads it
      put(0, "slot", "G2", 2),               // #3: and reuses the slot
      get(1, "slot", 3, "G2", 1),            // #4: T1's read, after its claim
  };
  auto p = rf::pick_lost(view{e}, std::string("G1"));
  EXPECT_EQ(p.kind, rf::lost_kind::overwritten);
  EXPECT_EQ(p.over, 3);
  EXPECT_EQ(p.gave, 1);
  EXPECT_EQ(p.read, 4);
}

TEST(Conservation, LostGOverwrittenUnreadAndUnread) {
  std::vector<ev> e{put(0, "slot", "G1"), put(0, "slot", "G2", 1)};
  auto p = rf::pick_lost(view{e}, std::string("G1"));
  EXPECT_EQ(p.kind, rf::lost_kind::overwritten_unread);
  EXPECT_EQ(p.over, 1);
  e.pop_back();
  EXPECT_EQ(rf::pick_lost(view{e}, std::string("G1")).kind, rf::lost_kind::unread);
}

TEST(Conservation, LostGNoStoreHeldItItsOperationsLastAccessIsNamed) {
  std::vector<ev> e{
      {0, "", false, false, -1, "", 0, "runqput(P0, G2, next=true)"},  // #0: the mark
      get(0, "runnext", -1, "nil"),                                    // #1
      get(0, "runnext", -1, "nil"),                                    // #2: its CAS failed
  };
  auto p = rf::pick_lost(view{e}, std::string("G2"));
  EXPECT_EQ(p.kind, rf::lost_kind::dropped);
  EXPECT_EQ(p.mark, 0);
  EXPECT_EQ(p.last, 2);
  EXPECT_EQ(rf::pick_lost(view{e}, std::string("G7")).kind, rf::lost_kind::none);
}

TEST(Conservation, TwiceAValueReadThoughReplaced) {
  std::vector<ev> e{
      put(0, "slot", "G1"),            // #0
      get(1, "slot", 0, "G1", 1),      // #1: T1 takes G1
      put(0, "slot", "G2", 2),         // #2: the slot reused
      get(2, "slot", 0, "G1", 1),      // #3: T2 reads G1 though #2 replaced it
      get(2, "slot", 0, "G1", 1),      // #4: (its operation's second read: one take)
  };
  auto p = rf::pick_twice(view{e}, std::string("G1"));
  EXPECT_EQ(p.kind, rf::twice_kind::replaced);
  ASSERT_EQ(p.ntakes, 2);
  EXPECT_EQ(p.takes[0], 1);
  EXPECT_EQ(p.takes[1], 3);
  EXPECT_EQ(p.read, 3);
  EXPECT_EQ(p.over, 2);
}

TEST(Conservation, TwiceAReadMadeAfterItsOperationGaveTheSlotUp) {
  std::vector<ev> e{
      put(0, "slot", "G1"),                  // #0
      {1, "head", false, true, -1, "1", 1},  // #1: T1's claim
      get(0, "head", 1, "1", 2),             // #2: T0 reads it
      put(0, "slot", "G1", 2),               // #3: and puts G1 again (reused)
      get(1, "slot", 3, "G1", 1),            // #4: T1's late read
      get(0, "slot", 3, "G1", 3),            // #5: T0's own get
  };
  auto p = rf::pick_twice(view{e}, std::string("G1"));
  EXPECT_EQ(p.kind, rf::twice_kind::read_late);
  EXPECT_EQ(p.read, 4);
  EXPECT_EQ(p.gave, 1);
  EXPECT_EQ(p.over, 3);
}

TEST(Conservation, ALostUpdateIsAPlainStoreOverAnotherThreadsWrite) {
  std::vector<ev> e{
      get(1, "head", -1, "0", 1),            // #0: T1 loads head
      {2, "head", true, true, -1, "1", 1},   // #1: T2's CAS 0 -> 1
      {1, "head", false, true, -1, "1", 1},  // #2: T1 stores 1 over it
  };
  EXPECT_EQ(rf::lost_update(view{e}), 2);
  EXPECT_EQ(rf::last_read(view{e}, 2), 0);
  EXPECT_EQ(rf::written_between(view{e}, 0, 2), 1);
  e.erase(e.begin() + 1);  // no write between: a store after its own load is fine
  EXPECT_EQ(rf::lost_update(view{e}), -1);
}

}  // namespace
