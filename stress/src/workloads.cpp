// stress/src/workloads.cpp — the rounds of stress/WORKLOADS.md, each written
// after the Go function it mirrors (Go 1.19 src/runtime/proc_test.go,
// chan_test.go; skynet after github.com/atemerev/skynet) and after the Go
// peer in stress/go, so that both sides do the same work.
#include "runqcheck/stress/workloads.hpp"

#include <time.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <vector>

#include "runqcheck/stress/chan.hpp"
#include "runqcheck/stress/proc.hpp"
#include "runqcheck/stress/watchdog.hpp"

namespace runqcheck::stress {
namespace {

using clk = std::chrono::steady_clock;
std::int64_t since_ns(clk::time_point t0) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(clk::now() - t0).count();
}

std::uint64_t splitmix(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// CreateGoroutines / CreateGoroutinesParallel. Go: benchmarkCreateGoroutines:
// procs chains; f(n) spawns f(n-1) and exits, f(0) signals the main G.
void create_goroutines(int procs, std::int64_t k) {
  chan<bool> c;
  std::function<void(std::int64_t)> f = [&](std::int64_t n) {
    if (n == 0) {
      c.send(true);
      return;
    }
    newproc([&f, n] { f(n - 1); });
  };
  for (int i = 0; i < procs; i++) newproc([&f, k, procs] { f(k / procs); });
  for (int i = 0; i < procs; i++) c.recv();
}

// Go: BenchmarkCreateGoroutinesSingle: k Gs, each wg.Done(); main waits.
void create_goroutines_single(std::int64_t k) {
  waitgroup wg;
  wg.add(k);
  for (std::int64_t i = 0; i < k; i++) newproc([&wg] { wg.done(); });
  wg.wait();
}

// Go: BenchmarkPingPongHog under GOMAXPROCS(1); the hog yields each
// iteration (no preemption here; the Go peer yields too). Timed from the
// first ping to <-stop, as Go times it.
std::int64_t ping_pong_hog(std::int64_t k) {
  std::atomic<bool> stopped{false};  // pinger -> hog: release store, acquire load
  chan<bool> stop, done, ping, pong;
  newproc([&] {  // the CPU hog: Go's select { case <-stop: ... default: }
    while (!stopped.load(std::memory_order_acquire))
      gosched();  // acquire: pairs with the pinger's release
    done.send(true);
  });
  newproc([&] {
    for (std::int64_t j = 0; j < k; j++) pong.send(ping.recv());
    stopped.store(true, std::memory_order_release);
    stop.close();
    done.send(true);
  });
  newproc([&] {
    for (std::int64_t i = 0; i < k; i++) ping.send(pong.recv());
    done.send(true);
  });
  auto t0 = clk::now();
  ping.send(true);  // Start ping-pong
  stop.recv();
  std::int64_t d = since_ns(t0);
  ping.recv();  // Let last ponger exit
  done.recv();  // Make sure goroutines exit
  done.recv();
  done.recv();
  return d;
}

// Go: benchmarkWakeupParallel, delay 0 (its first sub-benchmark), wakeDelay
// 5µs: two Gs alternate as sender and receiver over unbuffered channels.
void wakeup_parallel(std::int64_t k, bool syscall) {
  constexpr std::int64_t delay = 0, wakeDelay = 5000;
  auto spin = [syscall](std::int64_t ns) {
    if (syscall) sys_nanosleep_ns(ns);
    else spin_for_ns(ns);
  };
  chan<bool> ping, pong, start, done;
  newproc([&] {
    start.recv();
    for (std::int64_t i = 0; i < k; i++) {
      spin(delay + wakeDelay);  // sender
      ping.send(true);
      spin(delay);  // receiver
      pong.recv();
    }
    done.send(true);
  });
  newproc([&] {
    for (std::int64_t i = 0; i < k; i++) {
      spin(delay);  // receiver
      ping.recv();
      spin(delay + wakeDelay);  // sender
      pong.send(true);
    }
    done.send(true);
  });
  start.send(true);
  done.recv();
  done.recv();
}

// Go: matmult (proc_test.go), threshold 8: recursive fork/join.
using matrix = std::vector<std::vector<double>>;
matrix make_matrix(int n) {
  matrix m(n, std::vector<double>(n));
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) m[i][j] = static_cast<double>(i * n + j);
  return m;
}
void matmult(chan<bool>* done, const matrix& A, const matrix& Bm, matrix& C, int i0, int i1, int j0,
             int j1, int k0, int k1, int threshold) {
  int di = i1 - i0, dj = j1 - j0, dk = k1 - k0;
  if (di >= dj && di >= dk && di >= threshold) {
    // divide in two by y axis
    int mi = i0 + di / 2;
    chan<bool> done1(1);
    newproc([&, mi] { matmult(&done1, A, Bm, C, i0, mi, j0, j1, k0, k1, threshold); });
    matmult(nullptr, A, Bm, C, mi, i1, j0, j1, k0, k1, threshold);
    done1.recv();
  } else if (dj >= dk && dj >= threshold) {
    // divide in two by x axis
    int mj = j0 + dj / 2;
    chan<bool> done1(1);
    newproc([&, mj] { matmult(&done1, A, Bm, C, i0, i1, j0, mj, k0, k1, threshold); });
    matmult(nullptr, A, Bm, C, i0, i1, mj, j1, k0, k1, threshold);
    done1.recv();
  } else if (dk >= threshold) {
    // divide in two by "k" axis; deliberately not parallel because of data races
    int mk = k0 + dk / 2;
    matmult(nullptr, A, Bm, C, i0, i1, j0, j1, k0, mk, threshold);
    matmult(nullptr, A, Bm, C, i0, i1, j0, j1, mk, k1, threshold);
  } else {
    // the matrices are small enough, compute directly
    for (int i = i0; i < i1; i++)
      for (int j = j0; j < j1; j++)
        for (int k = k0; k < k1; k++) C[i][j] += A[i][k] * Bm[k][j];
  }
  if (done != nullptr) done->send(true);
}
std::int64_t matmult_round(std::int64_t k) {
  int n = static_cast<int>(k);
  matrix A = make_matrix(n), Bm = make_matrix(n), C(n, std::vector<double>(n));
  auto t0 = clk::now();
  matmult(nullptr, A, Bm, C, 0, n, 0, n, 0, n, 8);
  std::int64_t d = since_ns(t0);
  // Check one entry against the closed form: sum_k (i*n+k)*(k*n+j).
  double want = 0;
  for (int q = 0; q < n; q++) want += static_cast<double>(q) * (q * n + n - 1);
  RQ_CHECK(B, C[0][n - 1] == want, "matmult: wrong product", "n", n);
  return d;
}

// Go: benchmarkChanProdCons(chanSize=10, localWork=100) with b.N = k items.
void chan_prod_cons(int procs, std::int64_t k, std::size_t chanSize, int localWork) {
  constexpr int CallsPerSched = 1000;
  std::atomic<std::int32_t> N{
      static_cast<std::int32_t>(k / CallsPerSched)};  // batches left; relaxed (Go: AddInt32)
  chan<bool> c(2 * static_cast<std::size_t>(procs));
  chan<int> myc(chanSize);
  for (int p = 0; p < procs; p++) {
    newproc([&] {
      volatile int foo = 0;
      while (N.fetch_sub(1, std::memory_order_relaxed) - 1 >= 0) {  // relaxed: a work counter
        for (int g = 0; g < CallsPerSched; g++) {
          for (int i = 0; i < localWork; i++) {
            foo = foo * 2;
            foo = foo / 2;
          }
          myc.send(1);
        }
      }
      myc.send(0);
      c.send(foo == 42);
    });
    newproc([&] {
      volatile int foo = 0;
      for (;;) {
        int v = myc.recv();
        if (v == 0) break;
        for (int i = 0; i < localWork; i++) {
          foo = foo * 2;
          foo = foo / 2;
        }
      }
      c.send(foo == 42);
    });
  }
  for (int p = 0; p < procs; p++) {
    c.recv();
    c.recv();
  }
}

// skynet: a 10-ary tree of Gs with k leaves; leaf i sends i, each inner node
// sums its children over an unbuffered channel (as the Go peer).
void skynet(chan<std::int64_t>* c, std::int64_t num, std::int64_t size) {
  if (size == 1) {
    c->send(num);
    return;
  }
  std::int64_t div = size < 10 ? size : 10;
  chan<std::int64_t> rc;
  for (std::int64_t i = 0; i < div; i++) {
    std::int64_t lo = i * size / div, hi = (i + 1) * size / div;
    newproc([&rc, num, lo, hi] { skynet(&rc, num + lo, hi - lo); });
  }
  std::int64_t sum = 0;
  for (std::int64_t i = 0; i < div; i++) sum += rc.recv();
  c->send(sum);
}
void skynet_round(std::int64_t k) {
  chan<std::int64_t> c;
  newproc([&c, k] { skynet(&c, 0, k); });
  std::int64_t got = c.recv(), want = k * (k - 1) / 2;
  RQ_CHECK(B, got == want, "skynet: wrong sum", "got", got, "want", want);
}

// Go: testGoroutineParallelism2(load=true, netpoll=false) with P = procs and
// k tries: Gs that spin (never yield) until all P of them run at once. A lost
// wakeup leaves one queued while the others spin: the watchdog fires.
void goroutine_parallelism2(int P, std::int64_t k) {
  for (std::int64_t t = 0; t < k; t++) {
    {
      // load: create P goroutines and wait until they all run. The main G
      // waits for one of them only, so the others may still be spinning on
      // x after this block: x lives on the heap, owned by those Gs (in Go it
      // escapes to the heap).
      chan<bool> done;
      auto x = std::make_shared<std::atomic<std::uint32_t>>(0);  // seq_cst, as Go's sync/atomic
      for (int p = 0; p < P; p++) {
        newproc([&done, x, P] {
          if (x->fetch_add(1, std::memory_order_seq_cst) + 1 == static_cast<std::uint32_t>(P)) {
            done.send(true);
            return;
          }
          while (x->load(std::memory_order_seq_cst) != static_cast<std::uint32_t>(P)) {
          }
        });
      }
      done.recv();
    }
    chan<bool> done;
    std::atomic<std::uint32_t> x{0};  // the baton; seq_cst, as Go's sync/atomic
    // Spawn P goroutines in a nested fashion just to differ from TestGoroutineParallelism.
    for (int p = 0; p < P / 2; p++) {
      newproc([&done, &x, P, p] {
        for (int p2 = 0; p2 < 2; p2++) {
          newproc([&done, &x, P, p, p2] {
            for (int i = 0; i < 3; i++) {
              std::uint32_t expected = static_cast<std::uint32_t>(P / 2 * 2 * i + p * 2 + p2);
              while (x.load(std::memory_order_seq_cst) != expected) {
              }
              x.store(expected + 1, std::memory_order_seq_cst);
            }
            done.send(true);
          });
        }
      });
    }
    for (int p = 0; p < P / 2 * 2; p++) done.recv();
  }
}

// The main G spins, never yielding, until ran reaches want; every 1024
// looks it asks whether every other M sits idle meanwhile
// (quiescent_others: a G queued then fails the run at once, naming it; none
// queued and ran still short: the G is lost). A count, not a time.
void spin_until_ran(const std::atomic<int>& ran, int want) {
  for (std::uint32_t i = 1; ran.load(std::memory_order_acquire) < want; i++) {  // acquire: the G's
    if (i % 1024 == 0 && quiescent_others() && ran.load(std::memory_order_acquire) < want)
      fail_run("quiescence: every other M is idle and no G is queued, yet a G spawned here"
               " never ran (a lost G)");
  }
}

// WakeupFromIdle (no Go peer): k times, the main G waits until every other
// M is on the protocol's idle list and none spins (others_idle), spawns one
// G and spins, never yielding, until that G has run. Only the submission's
// wakeup can start an M then, so a protocol that loses it leaves the G
// queued with every other M idle: the run fails at once (quiescent_others),
// and a correct one always has the G stolen. Needs 2 Ps.
void wakeup_from_idle(std::int64_t k) {
  for (std::int64_t t = 0; t < k; t++) {
    while (!others_idle()) spin_for_ns(20000);  // the other Ms finish and park
    std::atomic<int> ran{0};  // release store by the G, acquire load here
    newproc([&ran] { ran.store(1, std::memory_order_release); });
    spin_until_ran(ran, 1);
  }
}

// SubmitVsSpinnerDrop (no Go peer): k times, with every other M idle, the
// main G spawns a G (the first submission wakes a searcher), holds the next
// searcher whose steal finds nothing (hold_next_searcher: it has looked at
// every queue and not yet given up), spawns a second G while it is held
// (the submitter sees a searcher and wakes nobody: Go's step 3), lets it
// go, and spins until both ran. The searcher must recheck after dropping
// its count (the Delicate dance); one that gives up without it parks with
// the G queued and a P idle, and quiescent_others fails the run at once.
// The window is made, not waited for: the same every run. Needs 2 Ps.
void submit_vs_spinner_drop(std::int64_t k) {
  for (std::int64_t t = 0; t < k; t++) {
    while (!others_idle()) spin_for_ns(20000);  // the other Ms finish and park
    std::atomic<int> ran{0};  // release increments by the Gs, acquire loads here
    auto g = [&ran] { ran.fetch_add(1, std::memory_order_release); };
    hold_next_searcher();
    newproc(g);
    // A searcher reaches the hold, or every other M goes idle again (the
    // first G ran and no M searched after it: nothing held this time).
    for (std::uint32_t i = 1; !searcher_held(); i++)
      if (i % 1024 == 0 && quiescent_others()) break;
    bool held = searcher_held();
    if (!held) cancel_hold();
    newproc(g);
    if (held) release_searcher();
    spin_until_ran(ran, 2);
  }
}

// chaos: seeded random work (seed, round), as the Go peer: procs root tasks;
// until k tasks have been spawned, each task does 8 random steps: spawn a
// child task, Gosched, a syscall (nanosleep 1µs, one in 64 2.5 ms so that
// sysmon's retake takes its P; half of them hand the P off at once, Go's
// entersyscallblock), or park/ready through a channel and a
// helper G. Each step starts with a preemption point (checkpreempt: a
// stop-the-world's request). The main G changes GOMAXPROCS to a random value in [1, procs]
// every 64 yields (procresize at run time) and restores procs at the end.
void chaos(int procs, std::int64_t k, std::uint64_t seed, int round) {
  waitgroup wg;
  std::atomic<std::int64_t> left{k - procs};  // spawn budget after the roots
  std::function<void(std::int64_t)> task = [&](std::int64_t id) {
    std::uint64_t r = seed * 1000003u + static_cast<std::uint64_t>(round) * 7919u +
                      static_cast<std::uint64_t>(id);
    for (int step = 0; step < 8; step++) {
      checkpreempt();  // a function prologue: Go preempts here for a stop-the-world
      std::uint64_t x = splitmix(r);
      switch (x % 4) {
        case 0:
          if (std::int64_t n = left.fetch_sub(1, std::memory_order_relaxed) - 1; n >= 0) {
            wg.add(1);
            newproc([&task, k, n] { task(k - n); });
          }
          break;
        case 1:
          gosched();
          break;
        case 2:  // one in 64 outlasts two of sysmon's 1 ms ticks: --sysmon retakes its P
          sys_nanosleep_ns(((x >> 9) & 63) == 0 ? 2500000 : 1000, (x >> 8) & 1);
          break;
        case 3: {
          chan<bool> ch;
          newproc([&ch] { ch.send(true); });
          ch.recv();
          break;
        }
      }
    }
    // Spend what is left of the budget so that every round spawns k tasks.
    if (std::int64_t n = left.fetch_sub(1, std::memory_order_relaxed) - 1; n >= 0) {
      wg.add(1);
      newproc([&task, k, n] { task(k - n); });
    }
    wg.done();
  };
  std::int64_t roots = procs;
  if (roots > k) {
    roots = k;
    left.store(0, std::memory_order_relaxed);
  }
  wg.add(roots);
  for (std::int64_t i = 0; i < roots; i++) newproc([&task, i] { task(i); });
  std::atomic<bool> finished{false};  // waiter G -> main G: release store, acquire load
  chan<bool> exited;
  newproc([&] {
    wg.wait();
    finished.store(true, std::memory_order_release);  // release: pairs with the main loop's acquire
    exited.send(true);
  });
  std::uint64_t r = seed + static_cast<std::uint64_t>(round);
  for (int i = 1;; i++) {
    if (finished.load(std::memory_order_acquire)) {
      gomaxprocs(procs);
      exited.recv();
      return;
    }
    if (i % 64 == 0)
      gomaxprocs(1 + static_cast<int>(splitmix(r) % static_cast<std::uint64_t>(procs)));
    gosched();
  }
}

const workload table[] = {
    {"CreateGoroutines", 100000, false,
     [](const round_ctx& c) -> std::int64_t {
       create_goroutines(1, c.size);
       return 0;
     },
     "one chain of K Gs, each spawning the next (Go: BenchmarkCreateGoroutines)"},
    {"CreateGoroutinesParallel", 100000, false,
     [](const round_ctx& c) -> std::int64_t {
       create_goroutines(c.procs, c.size);
       return 0;
     },
     "procs chains of K/procs Gs (Go: BenchmarkCreateGoroutinesParallel)"},
    {"CreateGoroutinesSingle", 100000, false,
     [](const round_ctx& c) -> std::int64_t {
       create_goroutines_single(c.size);
       return 0;
     },
     "the main G spawns K Gs that each wg.Done() (Go: BenchmarkCreateGoroutinesSingle)"},
    {"PingPongHog", 100000, true,
     [](const round_ctx& c) -> std::int64_t { return ping_pong_hog(c.size); },
     "GOMAXPROCS 1: a yielding hog and K ping-pongs over unbuffered channels (Go: "
     "BenchmarkPingPongHog)"},
    {"WakeupParallelSpinning", 10000, false,
     [](const round_ctx& c) -> std::int64_t {
       wakeup_parallel(c.size, false);
       return 0;
     },
     "two Gs alternate send/receive with 5us spins, K iterations (Go: "
     "BenchmarkWakeupParallelSpinning)"},
    {"WakeupParallelSyscall", 10000, false,
     [](const round_ctx& c) -> std::int64_t {
       wakeup_parallel(c.size, true);
       return 0;
     },
     "the same with 5us nanosleep syscalls (Go: BenchmarkWakeupParallelSyscall)", true},
    {"Matmult", 256, false,
     [](const round_ctx& c) -> std::int64_t { return matmult_round(c.size); },
     "recursive fork/join matmult of KxK matrices, threshold 8 (Go: BenchmarkMatmult)"},
    {"ChanProdCons", 100000, false,
     [](const round_ctx& c) -> std::int64_t {
       chan_prod_cons(c.procs, c.size, 10, 100);
       return 0;
     },
     "procs producer/consumer pairs, channel of 10, localWork 100, K items (Go: "
     "benchmarkChanProdCons)"},
    {"skynet", 1000000, false,
     [](const round_ctx& c) -> std::int64_t {
       skynet_round(c.size);
       return 0;
     },
     "a 10-ary tree of Gs with K leaves summing their ids"},
    {"GoroutineParallelism2", 10, false,
     [](const round_ctx& c) -> std::int64_t {
       goroutine_parallelism2(c.procs, c.size);
       return 0;
     },
     "Go's lost-wakeup detector (TestGoroutineParallelism2, load=true), K tries"},
    {"chaos", 2000, false,
     [](const round_ctx& c) -> std::int64_t {
       chaos(c.procs, c.size, c.seed, c.round);
       return 0;
     },
     "seeded random spawns, yields, syscalls, park/ready and procresize; K tasks", true, true},
    {"WakeupFromIdle", 100, false,
     [](const round_ctx& c) -> std::int64_t {
       wakeup_from_idle(c.size);
       return 0;
     },
     "K times: with every other M idle, spawn a G and spin until it runs (a lost wakeup hangs)",
     false, false, 2},
    {"SubmitVsSpinnerDrop", 100, false,
     [](const round_ctx& c) -> std::int64_t {
       submit_vs_spinner_drop(c.size);
       return 0;
     },
     "K times: submit while a searcher, its steal failed, is held; it must recheck as it drops",
     false, false, 2},
};

}  // namespace

std::span<const workload> workloads() { return table; }

const workload* find_workload(std::string_view name) {
  for (const auto& w : table)
    if (name == w.name) return &w;
  return nullptr;
}

void spin_for_ns(std::int64_t ns) {
  auto end = clk::now() + std::chrono::nanoseconds(ns);
  while (clk::now() < end) {
    // do nothing
  }
}

void sys_nanosleep_ns(std::int64_t ns, bool block) {
  if (block) entersyscallblock();
  else entersyscall();
  timespec ts{static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
  while (::nanosleep(&ts, &ts) != 0) {
  }
  exitsyscall();
}

}  // namespace runqcheck::stress
