// tests/unit/core_gqueue.cpp — gQueue and gList (gqueue.hpp): Go's
// push/pushBack/pushBackAll/pop/popList and gList push/pushAll/pop, sizes,
// schedlink termination, and the port's change from Go: move-only values
// whose moved-from source is empty. Core internals: bundled port only.
#include "test_support.hpp"

#include <utility>
#include <vector>

#include "runqcheck/gqueue.hpp"

namespace {

using rqtest::G;
using rqtest::glist;
using rqtest::gpool;
using rqtest::gqueue;
using idx = std::vector<std::size_t>;

class CoreGQueue : public rqtest::fatal_guarded {};

void expect_empty(const gqueue& q, const char* what) {
  EXPECT_TRUE(q.empty()) << what;
  EXPECT_EQ(q.size(), 0) << what;
  EXPECT_EQ(q.head(), nullptr) << what;
  EXPECT_EQ(q.tail(), nullptr) << what;
}

TEST_F(CoreGQueue, GQueue_PushAddsAtHeadPushBackAtTail) {
  gpool gs(4);
  gqueue q;
  expect_empty(q, "a new gQueue");
  EXPECT_EQ(q.pop(), nullptr);
  q.push(gs[1]);  // 1
  EXPECT_EQ(q.head(), gs[1]);
  EXPECT_EQ(q.tail(), gs[1]) << "push on an empty queue sets the tail";
  q.pushBack(gs[2]);  // 1 2
  q.push(gs[0]);      // 0 1 2
  q.pushBack(gs[3]);  // 0 1 2 3
  EXPECT_EQ(q.size(), 4);
  EXPECT_EQ(rqtest::walk(gs, q), (idx{0, 1, 2, 3}));
  EXPECT_EQ(q.tail(), gs[3]);
  EXPECT_EQ(gs[3]->schedlink.load(), nullptr) << "pushBack terminates the list";
}

TEST_F(CoreGQueue, GQueue_PopReturnsHeadUntilEmptyAndClearsTail) {
  gpool gs(3);
  gqueue q = gs.queue(0, 3);
  EXPECT_EQ(q.pop(), gs[0]);
  EXPECT_EQ(q.size(), 2);
  EXPECT_EQ(q.pop(), gs[1]);
  EXPECT_EQ(q.head(), gs[2]);
  EXPECT_EQ(q.tail(), gs[2]);
  EXPECT_EQ(q.pop(), gs[2]);
  expect_empty(q, "after popping the last G");
  EXPECT_EQ(q.pop(), nullptr);
  EXPECT_EQ(q.size(), 0) << "pop on empty must not change the size";
  q.pushBack(gs[1]);  // usable again; a stale schedlink (gs[1] → gs[2]) is overwritten
  EXPECT_EQ(rqtest::walk(gs, q), (idx{1}));
}

TEST_F(CoreGQueue, GQueue_PushBackAllAppendsAndEmptiesSource) {
  struct tc {
    std::size_t a, b;  // sizes of q and q2
  };
  for (tc c : {tc{0, 0}, tc{0, 3}, tc{3, 0}, tc{2, 3}, tc{1, 1}}) {
    SCOPED_TRACE("q has " + std::to_string(c.a) + ", q2 has " + std::to_string(c.b));
    gpool gs(c.a + c.b);
    gqueue q = gs.queue(0, c.a);
    gqueue q2 = gs.queue(c.a, c.a + c.b);
    q.pushBackAll(std::move(q2));
    EXPECT_EQ(q.size(), static_cast<std::int32_t>(c.a + c.b));
    EXPECT_EQ(rqtest::walk(gs, q), gpool::range(0, c.a + c.b));
    if (c.a + c.b > 0) {
      EXPECT_EQ(gs.index(q.tail()), c.a + c.b - 1);
    } else {
      expect_empty(q, "empty + empty");
    }
    if (c.b > 0) expect_empty(q2, "q2 after pushBackAll");
    EXPECT_EQ(rqtest::pop_all(gs, q), gpool::range(0, c.a + c.b))
        << "pop order agrees with the links";
  }
}

TEST_F(CoreGQueue, GQueue_PopListTakesAllHeadFirst) {
  gpool gs(3);
  gqueue q = gs.queue(0, 3);
  glist l = q.popList();
  expect_empty(q, "after popList");
  EXPECT_EQ(l.size(), 3);
  EXPECT_EQ(rqtest::pop_all(gs, l), (idx{0, 1, 2}));
  EXPECT_TRUE(l.empty());
  EXPECT_EQ(l.size(), 0);
  gqueue e;
  glist le = e.popList();
  EXPECT_TRUE(le.empty());
  EXPECT_EQ(le.size(), 0);
}

TEST_F(CoreGQueue, GQueue_ConstructFromHeadTailSizeAndMoveEmptiesSource) {
  gpool gs(4);
  gs[0]->schedlink.store(gs[1]);
  gs[1]->schedlink.store(nullptr);
  gqueue q(gs[0], gs[1], 2);
  EXPECT_EQ(rqtest::walk(gs, q), (idx{0, 1}));
  EXPECT_EQ(q.size(), 2);
  gqueue m(std::move(q));
  expect_empty(
      q, "moved-from (construct)");  // NOLINT(bugprone-use-after-move): the port guarantees it
  EXPECT_EQ(m.size(), 2);
  EXPECT_EQ(rqtest::walk(gs, m), (idx{0, 1}));
  gqueue t = gs.queue(2, 4);
  t = std::move(m);
  expect_empty(m, "moved-from (assign)");  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(t.size(), 2);
  EXPECT_EQ(rqtest::walk(gs, t), (idx{0, 1})) << "move-assign replaces the target's contents";
}

TEST_F(CoreGQueue, GList_PushAndPopAreLifoWithSize) {
  gpool gs(3);
  glist l;
  EXPECT_TRUE(l.empty());
  EXPECT_EQ(l.pop(), nullptr);
  for (std::size_t i = 0; i < 3; i++) {
    l.push(gs[i]);
    EXPECT_EQ(l.size(), static_cast<std::int32_t>(i + 1));
  }
  EXPECT_EQ(l.pop(), gs[2]);
  EXPECT_EQ(l.size(), 2);
  EXPECT_EQ(rqtest::pop_all(gs, l), (idx{1, 0}));
  EXPECT_EQ(l.size(), 0);
  EXPECT_EQ(l.pop(), nullptr);
}

TEST_F(CoreGQueue, GList_PushAllPrependsQueueInOrderAndEmptiesIt) {
  gpool gs(5);
  glist l;
  l.push(gs[4]);
  l.push(gs[3]);  // l: 3 4
  gqueue q = gs.queue(0, 3);
  l.pushAll(std::move(q));
  expect_empty(q, "q after pushAll");  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(l.size(), 5);
  gqueue none;
  l.pushAll(std::move(none));
  EXPECT_EQ(l.size(), 5) << "pushAll of an empty queue is a no-op";
  EXPECT_EQ(rqtest::pop_all(gs, l), (idx{0, 1, 2, 3, 4}));
  // Onto an empty list.
  glist l2;
  gqueue q2 = gs.queue(1, 3);
  l2.pushAll(std::move(q2));
  EXPECT_EQ(l2.size(), 2);
  EXPECT_EQ(rqtest::pop_all(gs, l2), (idx{1, 2}));
}

TEST_F(CoreGQueue, GList_MoveEmptiesSource) {
  gpool gs(2);
  glist l;
  l.push(gs[1]);
  l.push(gs[0]);
  glist m(std::move(l));
  EXPECT_TRUE(l.empty());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(l.size(), 0);
  EXPECT_EQ(m.size(), 2);
  glist t;
  t = std::move(m);
  EXPECT_TRUE(m.empty());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(m.size(), 0);
  EXPECT_EQ(rqtest::pop_all(gs, t), (idx{0, 1}));
}

}  // namespace
