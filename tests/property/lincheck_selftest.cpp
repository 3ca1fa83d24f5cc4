// tests/property/lincheck_selftest.cpp — the linearizability checker's own
// tests: hand-written histories, linearizable ones that must pass and
// non-linearizable ones that must fail (a checker that accepts everything
// fails here). Prints the report of every rejected history.
#include <cstdio>
#include <string>
#include <vector>

#include "runqcheck_lincheck/lincheck.hpp"

namespace {

using namespace runqcheck::lincheck;
using runqcheck::ref::nil;
using runqcheck::ref::queues;

// op(thread, kind, call, ret) with arguments and results set by the helpers.
operation mk(int t, op_kind k, std::uint64_t call, std::uint64_t ret) {
  operation o;
  o.thread = t;
  o.kind = k;
  o.call = call;
  o.ret = ret;
  return o;
}
operation put(int t, int p, int g, std::uint64_t c, std::uint64_t r, bool next = false) {
  auto o = mk(t, next ? op_kind::put_next : op_kind::put, c, r);
  o.p = p;
  o.g = g;
  return o;
}
operation get(int t, int p, int res, bool inherit, std::uint64_t c, std::uint64_t r) {
  auto o = mk(t, op_kind::get, c, r);
  o.p = p;
  o.res = res;
  o.inheritTime = inherit;
  return o;
}
operation steal(int t, int p, int victim, bool next, int res, std::uint64_t c, std::uint64_t r) {
  auto o = mk(t, next ? op_kind::steal_next : op_kind::steal, c, r);
  o.p = p;
  o.victim = victim;
  o.res = res;
  return o;
}
operation drain(int t, int p, std::vector<int> res, std::uint64_t c, std::uint64_t r) {
  auto o = mk(t, op_kind::drain, c, r);
  o.p = p;
  o.list = std::move(res);
  return o;
}
operation empty(int t, int victim, bool res, std::uint64_t c, std::uint64_t r) {
  auto o = mk(t, op_kind::empty, c, r);
  o.victim = victim;
  o.flag = res;
  return o;
}

// runqputbatch(P p, G g .. g+n-1): left, what it left for the global queue.
operation batch(int t, int p, int g, int n, std::vector<int> left, std::uint64_t c,
                std::uint64_t r) {
  auto o = mk(t, op_kind::put_batch, c, r);
  o.p = p;
  o.g = g;
  o.n = n;
  o.list = std::move(left);
  return o;
}
operation glob_get(int t, int res, std::uint64_t c, std::uint64_t r) {
  auto o = mk(t, op_kind::glob_get, c, r);
  o.res = res;
  return o;
}

queues init(std::vector<int> ring, int runnext = nil, std::uint32_t cap = 4) {
  queues q(cap, 2);
  for (int g : ring) q.runqput(0, g, false);
  if (runnext != nil) q.runqput(0, runnext, true);
  return q;
}

struct tcase {
  const char* name;
  bool linearizable;
  history h;
};

}  // namespace

int main() {
  std::vector<tcase> cases = {
      // --- linearizable
      {"sequential FIFO",
       true,
       {init({}),
        {put(0, 0, 0, 0, 1), put(0, 0, 1, 2, 3), get(0, 0, 0, false, 4, 5),
         get(0, 0, 1, false, 6, 7)}}},
      {"runnext first, with inheritTime",
       true,
       {init({0}, 1), {get(0, 0, 1, true, 0, 1), get(0, 0, 0, false, 2, 3)}}},
      {"get and steal race for runnext: one wins",
       true,
       {init({}, 0), {get(0, 0, nil, false, 0, 3), steal(1, 1, 0, true, 0, 1, 2)}}},
      {"steal takes ceil(3/2)=2, returns the 2nd",
       true,
       {init({0, 1, 2}),
        {steal(1, 1, 0, false, 1, 0, 1), get(1, 1, 0, false, 2, 3), get(0, 0, 2, false, 4, 5)}}},
      {"thief sees runqput's new runnext before the kicked G reaches the ring (two-step runqput)",
       true,
       {init({}, 0),
        {put(0, 0, 1, 0, 3, true), steal(1, 1, 0, true, 1, 1, 2), get(0, 0, 0, false, 4, 5)}}},
      {"steal of runnext while the owner fills the ring (runqgrab reads runnext after h/t)",
       true,
       {init({}),
        {put(0, 0, 0, 0, 1), get(0, 0, 0, false, 2, 3), put(0, 0, 1, 4, 5, true),
         steal(1, 1, 0, true, 1, 3, 8), put(0, 0, 2, 6, 7)}}},
      {"drain overlapped by a steal of the ring head",
       true,
       {init({0, 1}, 2), {drain(0, 0, {2, 1}, 0, 3), steal(1, 1, 0, true, 0, 1, 2)}}},
      {"drain takes runnext first: a thief cannot get it while drain returns the whole ring",
       false,
       {init({0, 1}, 2), {drain(0, 0, {0, 1}, 0, 3), steal(1, 1, 0, true, 2, 1, 2)}}},
      {"runqempty false while the owner moves runnext to the ring",
       true,
       {init({}, 0),
        {put(0, 0, 1, 0, 1, true), get(0, 0, 1, true, 2, 3), empty(1, 0, false, 0, 4)}}},
      {"pending operation may or may not have taken effect",
       true,
       {init({}), {put(0, 0, 0, 0, pending), steal(1, 1, 0, false, 0, 1, 2)}}},
      {"runqputbatch onto a ring with room for one: the second to the global queue",
       true,
       {init({0, 1, 2}),
        {batch(0, 0, 3, 2, {4}, 0, 1), glob_get(1, 4, 2, 3), get(0, 0, 0, false, 4, 5)}}},
      {"runqputbatch leaves both while a steal makes room (a stale head: fewer than fit)",
       true,
       {init({0, 1, 2}),
        {batch(0, 0, 3, 2, {3, 4}, 0, 3), steal(1, 1, 0, false, 1, 1, 2),
         glob_get(1, 3, 4, 5), glob_get(1, 4, 6, 7)}}},
      {"a thief sees the batch's ring part before its leftover reaches the global queue",
       true,
       {init({0, 1, 2}),
        {batch(0, 0, 3, 2, {4}, 0, 5), steal(1, 1, 0, false, 1, 1, 2),
         glob_get(1, nil, 3, 4)}}},
      // --- not linearizable
      {"runqputbatch keeps more than the ring has room for",
       false,
       {init({0, 1, 2}), {batch(0, 0, 3, 2, {}, 0, 1)}}},
      {"runqputbatch leaves a G out of order (not the batch's last)",
       false,
       {init({0, 1, 2}), {batch(0, 0, 3, 2, {3}, 0, 1)}}},
      {"runqputbatch loses a G (neither in the ring nor left)",
       false,
       {init({0, 1, 2}),
        {batch(0, 0, 3, 2, {}, 0, 1), get(0, 0, 0, false, 2, 3), get(0, 0, 1, false, 4, 5),
         get(0, 0, 2, false, 6, 7), get(0, 0, 3, false, 8, 9), get(0, 0, nil, false, 10, 11)}}},
      {"a G delivered twice",
       false,
       {init({0}), {get(0, 0, 0, false, 0, 3), steal(1, 1, 0, false, 0, 1, 2)}}},
      {"a steal taking floor(n/2)", false, {init({0, 1, 2}), {steal(1, 1, 0, false, 0, 0, 1)}}},
      {"FIFO violation",
       false,
       {init({}), {put(0, 0, 0, 0, 1), put(0, 0, 1, 2, 3), get(0, 0, 1, false, 4, 5)}}},
      {"steal finds nothing on a non-empty victim",
       false,
       {init({0}), {steal(1, 1, 0, false, nil, 0, 1)}}},
      {"runnext stolen although the ring was never empty",
       false,
       {init({0}, 1), {steal(1, 1, 0, true, 1, 0, 1)}}},
      {"runqempty spuriously true",
       false,
       {init({}, 0), {put(0, 0, 1, 0, 1), empty(1, 0, true, 2, 3)}}},
      {"a G lost by runqdrain", false, {init({}), {put(0, 0, 0, 0, 1), drain(0, 0, {}, 2, 3)}}},
      {"runnext without inheritTime", false, {init({}, 0), {get(0, 0, 0, false, 0, 1)}}},
  };
  int bad = 0;
  for (const auto& c : cases) {
    result r = check(c.h);
    bool ok = r.linearizable == c.linearizable;
    std::printf("%s  %-95s expected %s, got %s (%zu states)\n", ok ? "ok  " : "FAIL", c.name,
                c.linearizable ? "linearizable" : "NOT linearizable",
                r.linearizable ? "linearizable" : "NOT linearizable", r.states);
    if (!r.linearizable) std::printf("%s", r.report.c_str());
    if (!ok) bad++;
  }
  // The report is the shortest failing prefix, not the whole history: a
  // FIFO violation at event 6 followed by more (consistent) operations.
  {
    history h{init({}),
              {put(0, 0, 0, 0, 1), put(0, 0, 1, 2, 3), get(0, 0, 1, false, 4, 5),
               put(0, 0, 2, 6, 7), get(0, 0, 0, false, 8, 9), get(0, 0, 2, false, 10, 11)}};
    result r = check(h);
    bool ok = !r.linearizable && r.prefix_events == 6;
    std::printf("%s  shortest failing prefix is reported (expected 6 of 12 events, got %zu)\n",
                ok ? "ok  " : "FAIL", r.prefix_events);
    if (!ok) bad++;
  }
  // The precedence form (check(h, before)): on every case above, the
  // intervals' precedence gives the intervals' verdict.
  for (const auto& c : cases) {
    bool lin = check(c.h, precedence_of(c.h)).linearizable;
    if (lin == c.linearizable) continue;
    std::printf("FAIL  %s: the intervals' precedence judges it %s\n", c.name,
                lin ? "linearizable" : "NOT linearizable");
    bad++;
  }
  // A precedence decides where the timestamps do not: a steal overlapping
  // a put may find nothing, one the put precedes may not (an execution
  // graph's precedence: tests/explore/generated.cpp); and without the
  // intervals' order, a steal after the put may find nothing.
  {
    history h{init({}), {put(0, 0, 0, 0, 3), steal(1, 1, 0, false, nil, 1, 2)}};
    precedence put_first = {{false, true}, {false, false}};
    precedence none = {{false, false}, {false, false}};
    history h2{init({}), {put(0, 0, 0, 0, 1), steal(1, 1, 0, false, nil, 2, 3)}};
    struct pcase {
      const char* name;
      const history& h;
      const precedence& before;
      bool want;
    } pcs[] = {
        {"overlapping put and empty steal, no precedence", h, none, true},
        {"overlapping put and empty steal, the put before the steal", h, put_first, false},
        {"put returned before the empty steal began, no precedence", h2, none, true},
    };
    for (const pcase& c : pcs) {
      result r = check(c.h, c.before);
      bool ok = r.linearizable == c.want;
      std::printf("%s  precedence: %-80s expected %s\n", ok ? "ok  " : "FAIL", c.name,
                  c.want ? "linearizable" : "NOT linearizable");
      if (!r.linearizable) std::printf("%s", r.report.c_str());
      bad += !ok;
    }
  }
  std::printf("%s: %d of %zu histories judged wrongly\n", bad == 0 ? "PASS" : "FAIL", bad,
              cases.size() * 2 + 4);
  return bad == 0 ? 0 : 1;
}
