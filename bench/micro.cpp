// bench/micro.cpp — Google Benchmark micro-operations on the core port
// (go125 on the native backend, Cap 256), one thread, uncontended.
//
// Each benchmark times one operation plus the cheapest reset that brings the
// state back for the next iteration: a ring's head moved back over slots that
// still hold the same Gs (runqsteal, runqputslow and runqdrain read slots, they
// never clear them), the global queue's head and size restored (gQueue::pop
// leaves the links). bench/go/runqcheck_bench_export_test.go does exactly the
// same on go1.27's runtime (BM_X here ↔ BenchmarkRunqcheckX there), so that
// ci/bench can print C++/Go ratios. Rejected: PauseTiming/ResumeTiming around
// the refill (its overhead is of the order of the operations timed, and Go's
// b.StopTimer reads MemStats, far worse), and refilling with runqput (that
// would time 128 puts, not the operation).
//
// The head/tail resets write the ring indices directly, as only the owner may
// (no other thread exists here).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <deque>

#include <runqcheck/backend/native.hpp>
#include <runqcheck/go125.hpp>

namespace {

using B = runqcheck::native;
constexpr std::uint32_t Cap = 256;
using P = runqcheck::p<B, Cap>;
using G = runqcheck::g<B>;
using subject = runqcheck::go125<B, Cap>;

constexpr auto relaxed = std::memory_order::relaxed;

// n Gs with goids 1..n (a deque: Gs are neither copyable nor movable).
std::deque<G> make_gs(std::size_t n) {
  std::deque<G> gs;
  for (std::size_t i = 0; i < n; i++) gs.emplace_back(i + 1);
  return gs;
}

void fail(benchmark::State& state, const char* what) {
  state.SkipWithError(what);
}

// Owner-only index resets (single-threaded benchmark).
void move_head(P& pp, std::int32_t by) {
  pp.runqhead.store(pp.runqhead.load(relaxed) + by, relaxed);
}
void empty_ring(P& pp) { pp.runqhead.store(pp.runqtail.load(relaxed), relaxed); }
std::uint32_t ring_len(P& pp) { return pp.runqtail.load(relaxed) - pp.runqhead.load(relaxed); }

// runqput(pp, gp, false) + runqget(pp) on an empty P.
void BM_PutGet(benchmark::State& state) {
  runqcheck::schedt<B> sched(1);
  P pp(sched);
  G gp(1);
  for (auto _ : state) {
    runqcheck::runqput(pp, &gp, false);
    auto r = runqcheck::runqget(pp);
    if (r.gp != &gp) return fail(state, "PutGet: lost G");
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_PutGet);

// runqput(pp, gp, true) + runqget(pp): through runnext.
void BM_PutNextGet(benchmark::State& state) {
  runqcheck::schedt<B> sched(1);
  P pp(sched);
  G gp(1);
  for (auto _ : state) {
    runqcheck::runqput(pp, &gp, true);
    auto r = runqcheck::runqget(pp);
    if (r.gp != &gp || !r.inheritTime) return fail(state, "PutNextGet: lost G");
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_PutNextGet);

// runqsteal from a victim with 256 queued: moves 128 (returns one, 127 land
// in the thief's ring). Reset: victim's head back 128, thief's ring emptied.
void BM_Steal128(benchmark::State& state) {
  runqcheck::schedt<B> sched(2);
  P victim(sched, 0), thief(sched, 1);
  auto gs = make_gs(256);
  for (G& gp : gs) runqcheck::runqput(victim, &gp, false);
  for (auto _ : state) {
    G* gp = runqcheck::runqsteal(thief, victim, false);
    if (gp == nullptr || ring_len(thief) != 127) return fail(state, "Steal128: wrong steal");
    benchmark::DoNotOptimize(gp);
    move_head(victim, -128);
    empty_ring(thief);
  }
}
BENCHMARK(BM_Steal128);

// runqput on a full ring: runqputslow moves half the ring (128) and the new G
// to the global queue under sched.lock. Reset: head back 128, the global
// queue emptied under the lock.
void BM_PutSlow(benchmark::State& state) {
  runqcheck::schedt<B> sched(1);
  P pp(sched);
  auto gs = make_gs(257);
  for (std::size_t i = 0; i < 256; i++) runqcheck::runqput(pp, &gs[i], false);
  for (auto _ : state) {
    runqcheck::runqput(pp, &gs[256], false);
    {
      auto s = runqcheck::lock(sched);
      if (s.runq().size() != 129 || s.runq().tail() != &gs[256])
        return fail(state, "PutSlow: not the spilled batch");
      s.runq() = runqcheck::gQueue<B>{};
    }
    move_head(pp, -128);
  }
}
BENCHMARK(BM_PutSlow);

// 256 Gs on the global queue (gomaxprocs 1), an empty P. Reset: the global
// queue's head and size restored, the ring emptied.
template <class Take>
void glob_batch(benchmark::State& state, Take take, bool relink) {
  runqcheck::schedt<B> sched(1);
  P pp(sched);
  auto gs = make_gs(256);
  {
    auto s = runqcheck::lock(sched);
    for (G& gp : gs) runqcheck::globrunqput(s, &gp);
  }
  for (auto _ : state) {
    G* gp = take(pp);
    if (gp != &gs[0] || ring_len(pp) != 127) return fail(state, "GlobBatch: wrong batch");
    {
      auto s = runqcheck::lock(sched);
      if (s.runq().size() != 128) return fail(state, "GlobBatch: wrong global size");
      // runqputbatch's gQueue cut the link after the batch's last G.
      if (relink) gs[127].schedlink.store(&gs[128]);
      s.runq() = runqcheck::gQueue<B>(&gs[0], &gs[255], 256);
    }
    empty_ring(pp);
  }
}

// findRunnable's global step, go1.25: globrunqgetbatch(128) under the lock,
// then runqputbatch of 127 outside it.
void BM_GlobBatch(benchmark::State& state) {
  glob_batch(state, [](P& pp) { return subject::findRunnable_globrunq(pp); }, true);
}
BENCHMARK(BM_GlobBatch);

// The same step before go1.25: globrunqget(pp, 0), which runqputs the 127
// under sched.lock. No Go peer: Go 1.25+ has no globrunqget(pp, max).
void BM_GlobGetPre125(benchmark::State& state) {
  glob_batch(
      state, [](P& pp) { return runqcheck::go124<B, Cap>::findRunnable_globrunq(pp); }, false);
}
BENCHMARK(BM_GlobGetPre125);

// runqdrain of a P with 256 queued and a runnext (257 Gs). Reset: head back
// 256, runnext set again.
void BM_Drain(benchmark::State& state) {
  runqcheck::schedt<B> sched(1);
  P pp(sched);
  auto gs = make_gs(257);
  for (std::size_t i = 0; i < 256; i++) runqcheck::runqput(pp, &gs[i], false);
  pp.runnext.store(&gs[256], relaxed);
  for (auto _ : state) {
    auto q = runqcheck::runqdrain(pp);
    if (q.size() != 257) return fail(state, "Drain: wrong count");
    benchmark::DoNotOptimize(q.head());
    move_head(pp, -256);
    pp.runnext.store(&gs[256], relaxed);
  }
}
BENCHMARK(BM_Drain);

}  // namespace

BENCHMARK_MAIN();
