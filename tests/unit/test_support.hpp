// tests/unit/test_support.hpp — shared helpers for the runqcheck unit tests.
//
// Every test file is compiled once per subject (runqcheck_subject.hpp, made by
// the build), on the native backend. This header gives a pool of Gs, turns core's fatal checks
// (Go's throw) into C++ exceptions while a test wants to see them, scales the
// threaded tests by $RUNQCHECK_SCALE, and bounds every spin-wait.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "runqcheck/backend/native.hpp"
#include "runqcheck/check.hpp"
#include "runqcheck/g.hpp"
#include "runqcheck/gqueue.hpp"

#include "repro_listener.hpp"

namespace rqtest {

using B = runqcheck::native;
using G = runqcheck::g<B>;
using gqueue = runqcheck::gQueue<B>;
using glist = runqcheck::gList<B>;

// The subject as the tests drive it: every operation watched, so a port that
// hangs fails within $RUNQCHECK_WATCHDOG_SECONDS with a state dump
// (models/watchdog); S itself under RUNQCHECK_NO_WATCHDOG.
#ifdef RUNQCHECK_NO_WATCHDOG
template <class S>
using watched = S;
#else
template <class S>
using watched = runqcheck::watched<S>;
#endif

// Ring capacities for typed tests: cap<4>, cap<8>, cap<256>.
template <std::uint32_t C>
using cap = std::integral_constant<std::uint32_t, C>;

// ---------------------------------------------------------------------------
// Fatal checks (RQ_CHECK → B::fatal → runqcheck::fatal_handler()).

// What a fatal check becomes while a fatal_throws guard is alive. A
// std::exception, so that one no test expects shows its text in GoogleTest's
// failure ("fatal error: <msg> <values> at file:line"), not "Unknown C++ exception".
struct fatal_exception : std::runtime_error {
  std::string msg;     // Go's throw text, e.g. "runqsteal: runq overflow"
  std::string values;  // "h=… t=…"
  runqcheck::fatal_kind kind;  // the port's, an invariant's or the harness's
  fatal_exception(std::string m, std::string v, const std::string& where,
                  runqcheck::fatal_kind k)
      : std::runtime_error(std::string(runqcheck::fatal_label(k)) + ": " + m +
                           (v.empty() ? "" : " ") + v + " at " + where),
        msg(std::move(m)), values(std::move(v)), kind(k) {}
};

inline void throwing_fatal_handler(const runqcheck::fatal_info& f) {
  throw fatal_exception{f.msg, f.values,
                        std::string(f.where.file_name()) + ":" + std::to_string(f.where.line()),
                        f.kind};
}

// RAII: fatal checks throw fatal_exception instead of aborting; the previous
// handler is restored on scope exit. Install it on the main thread before
// starting threads; a thread body must catch fatal_exception itself.
class fatal_throws {
 public:
  fatal_throws() : prev_(runqcheck::fatal_handler()) {
    runqcheck::fatal_handler() = &throwing_fatal_handler;
  }
  ~fatal_throws() { runqcheck::fatal_handler() = prev_; }
  fatal_throws(const fatal_throws&) = delete;
  fatal_throws& operator=(const fatal_throws&) = delete;

 private:
  runqcheck::fatal_handler_fn prev_;
};

// Base fixture: an unexpected fatal check fails the current test (GoogleTest
// reports the uncaught exception) instead of aborting the whole binary.
class fatal_guarded : public ::testing::Test {
 private:
  fatal_throws guard_;
};

// EXPECT_FATAL(stmt, "go throw text"): stmt must hit exactly that fatal check.
#define EXPECT_FATAL(stmt, text)                                                        \
  do {                                                                                  \
    ::rqtest::fatal_throws rqtest_guard_;                                               \
    bool rqtest_thrown_ = false;                                                        \
    try {                                                                               \
      stmt;                                                                             \
    } catch (const ::rqtest::fatal_exception& rqtest_e_) {                              \
      rqtest_thrown_ = true;                                                            \
      EXPECT_EQ(rqtest_e_.msg, std::string(text)) << "values: " << rqtest_e_.values;    \
    }                                                                                   \
    EXPECT_TRUE(rqtest_thrown_) << "expected fatal \"" << (text) << "\" from: " #stmt;  \
  } while (0)

// ---------------------------------------------------------------------------
// Gs.

// A fixed pool of Gs with goids first_id, first_id+1, … (Gs never move).
class gpool {
 public:
  explicit gpool(std::size_t n, std::uint64_t first_id = 1000) : gs_(new G[n]), n_(n) {
    for (std::size_t i = 0; i < n; i++) gs_[i].goid = first_id + i;
  }
  G* operator[](std::size_t i) const {
    EXPECT_LT(i, n_);
    return &gs_[i];
  }
  std::size_t size() const { return n_; }
  // Index of gp in the pool, or SIZE_MAX if gp is not one of ours.
  std::size_t index(const G* gp) const {
    if (gp < gs_.get() || gp >= gs_.get() + n_) return SIZE_MAX;
    return static_cast<std::size_t>(gp - gs_.get());
  }
  // Pool indices [from, to) as a vector, for expected orders.
  static std::vector<std::size_t> range(std::size_t from, std::size_t to) {
    std::vector<std::size_t> v;
    for (std::size_t i = from; i < to; i++) v.push_back(i);
    return v;
  }
  // A gQueue of pool[from..to) in order.
  gqueue queue(std::size_t from, std::size_t to) const {
    gqueue q;
    for (std::size_t i = from; i < to; i++) q.pushBack(&gs_[i]);
    return q;
  }

 private:
  std::unique_ptr<G[]> gs_;
  std::size_t n_;
};

// Pops every G of q (head first) and returns their pool indices; q ends empty.
// A chain longer than the pool (a cycle: a G linked twice) stops one past the
// pool's size, so that the comparison fails instead of the walk spinning.
template <class L>
inline std::vector<std::size_t> pop_all(const gpool& pool, L& l) {
  std::vector<std::size_t> out;
  while (G* gp = l.pop()) {
    out.push_back(pool.index(gp));
    if (out.size() > pool.size()) break;
  }
  return out;
}

// Walks q without changing it (head to tail through schedlink).
inline std::vector<std::size_t> walk(const gpool& pool, const gqueue& q) {
  std::vector<std::size_t> out;
  for (G* gp = q.head(); gp != nullptr; gp = gp->schedlink.load()) {
    out.push_back(pool.index(gp));
    if (out.size() > 100000) break;  // a cycle: stop, the comparison fails
  }
  return out;
}

inline std::vector<std::size_t> concat(std::vector<std::size_t> a,
                                       const std::vector<std::size_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// ---------------------------------------------------------------------------
// Threaded tests: scaling and bounded waits.

// $RUNQCHECK_SCALE (default 1): multiplies the iteration counts of threaded
// tests; qemu and TSan runs set e.g. 0.1.
inline double scale() {
  static const double s = [] {
    const char* e = std::getenv("RUNQCHECK_SCALE");
    if (e == nullptr || *e == '\0') return 1.0;
    char* end = nullptr;
    double v = std::strtod(e, &end);
    return (end != e && v > 0 && std::isfinite(v)) ? v : 1.0;
  }();
  return s;
}

inline std::int64_t scaled(std::int64_t n) {
  return std::max<std::int64_t>(1, std::llround(static_cast<double>(n) * scale()));
}

// The longest any spin-wait in a test may take before the test fails.
inline constexpr std::chrono::seconds spin_limit{60};

// Spins until pred() holds; false if spin_limit passed first (or *abort
// became true: the other side failed and will never answer).
template <class Pred>
bool spin_until(Pred pred, const std::atomic<bool>* abort = nullptr) {
  auto deadline = std::chrono::steady_clock::now() + spin_limit;
  for (std::uint32_t i = 0;; i++) {
    if (pred()) return true;
    if (abort != nullptr && abort->load(std::memory_order_relaxed)) return false;
    if ((i & 255) == 255 && std::chrono::steady_clock::now() > deadline) return false;
    if ((i & 15) == 15) B::spin_pause();
  }
}

// $RUNQCHECK_WATCHDOG_S (default 300): how long a threaded test may run.
inline std::chrono::seconds watchdog_limit() {
  const char* e = std::getenv("RUNQCHECK_WATCHDOG_S");
  long v = (e != nullptr) ? std::strtol(e, nullptr, 10) : 0;
  return std::chrono::seconds(v > 0 ? v : 300);
}

// RAII: aborts the process with a message if the scope is still running
// after watchdog_limit(). A threaded test's own waits are bounded, but a
// broken queue can spin forever inside the code under test (e.g. a head
// moved backwards makes runqgrab/runqdrain retry without end); this turns
// that hang into a prompt failure. A plain std::thread: test infrastructure,
// not the code under test.
class watchdog {
 public:
  explicit watchdog(const char* what, std::chrono::seconds limit = watchdog_limit())
      : t_([this, what, limit] {
          std::unique_lock<std::mutex> lk(m_);
          if (!cv_.wait_for(lk, limit, [this] { return done_; })) {
            std::fprintf(stderr,
                         "watchdog: %s still running after %llds: stuck in the queue code "
                         "(livelock on a corrupted "
                         "queue?); aborting\n",
                         what, static_cast<long long>(limit.count()));
            std::fflush(stderr);
            std::abort();
          }
        }) {}
  ~watchdog() {
    {
      std::lock_guard<std::mutex> lk(m_);
      done_ = true;
    }
    cv_.notify_all();
    t_.join();
  }
  watchdog(const watchdog&) = delete;
  watchdog& operator=(const watchdog&) = delete;

 private:
  std::mutex m_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread t_;  // last: starts once the members above exist
};

// The bundled port's runqget until nil, as pool indices; fails the test if
// the queue never empties (a corrupted ring can loop).
template <class P>
std::vector<std::size_t> runqget_all(const gpool& pool, P& pp) {
  std::vector<std::size_t> out;
  for (std::size_t guard = 0; guard < 4 * P::capacity + 8; guard++) {
    auto r = runqget(pp);  // found by ADL: the core's runqget for runqcheck::p
    if (r.gp == nullptr) return out;
    out.push_back(pool.index(r.gp));
  }
  ADD_FAILURE() << "runqget never returned nil";
  return out;
}

}  // namespace rqtest
