// tests/stall/stall_backend.hpp — a deterministic backend that stalls one
// thread at its k-th shared access. Native atomics underneath; every access
// through B::atomic, B::var and B::mutex first calls stall::on_access(),
// which counts the calling thread's accesses inside the operation the driver
// marked, and parks the designated thread before its k-th one until the
// driver resumes it. The driver runs one thread at a time (explicit
// hand-offs), so a run is a function of (scenario, k). Test machinery: never
// included by core/.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <runqcheck/backend.hpp>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>

namespace runqcheck::stall {

// A fatal error (the port's RQ_CHECK or the harness's), thrown to the driver.
struct port_fatal : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// An operation that made more accesses than any finite one should (a spin on
// state only a stalled thread can change).
struct livelock : std::runtime_error {
  using std::runtime_error::runtime_error;
};

constexpr auto wait_bound = std::chrono::seconds(10);  // every hand-off wait
constexpr long op_access_bound = 4'000'000;            // accesses in one operation

// The hand-off between the driver and the stalled thread.
struct control {
  std::mutex m;
  std::condition_variable cv;
  long k = 0;                    // park before the designated thread's k-th access (0: never)
  bool parked = false;           // the designated thread is parked (guarded by m)
  bool resume = false;           // the driver let it go on (guarded by m)
  bool skipped_in_lock = false;  // its k-th access came while it held a B::mutex
};
inline control ctl;

struct thread_state {
  bool designated = false;  // this thread is the one to stall
  bool counting = false;    // inside the marked operation
  long count = 0;           // accesses counted so far in it
  long op_accesses = 0;     // accesses in the current operation (livelock bound)
  int locks = 0;            // B::mutex held
};
inline thread_local thread_state tls;

// Blocks the designated thread until the driver resumes it (bounded).
inline void park() {
  std::unique_lock l(ctl.m);
  ctl.parked = true;
  ctl.cv.notify_all();
  // The driver resumes or ends the process; the bound only keeps a lost
  // driver from leaving this thread behind forever.
  ctl.cv.wait_for(l, 3 * wait_bound, [] { return ctl.resume; });
}

inline void on_access() {
  if (++tls.op_accesses > op_access_bound) {
    tls.op_accesses = 0;  // the thread's later accesses (the next case's) start afresh
    throw livelock("an operation made " + std::to_string(op_access_bound) + " accesses");
  }
  if (!tls.designated || !tls.counting) return;
  if (++tls.count != ctl.k) return;
  if (tls.locks > 0) {  // parking here would block every thread that needs the lock
    ctl.skipped_in_lock = true;
    return;
  }
  park();
}

struct backend {
  static constexpr const char* name = "stall";

  template <class T>
  class atomic {
   public:
    atomic() noexcept : v_(T{}) {}
    explicit atomic(T v) noexcept : v_(v) {}
    atomic(const atomic&) = delete;
    atomic& operator=(const atomic&) = delete;
    T load(std::memory_order mo, loc = loc::current()) const {
      on_access();
      return v_.load(mo);
    }
    T load_plain(loc = loc::current()) const {
      on_access();
      return v_.load(std::memory_order::relaxed);  // one thread runs at a time
    }
    void store(T v, std::memory_order mo, loc = loc::current()) {
      on_access();
      v_.store(v, mo);
    }
    bool compare_exchange_strong(T& expected, T desired, std::memory_order s, std::memory_order f,
                                 loc = loc::current()) {
      on_access();
      return v_.compare_exchange_strong(expected, desired, s, f);
    }
    bool compare_exchange_weak(T& expected, T desired, std::memory_order s, std::memory_order f,
                               loc = loc::current()) {
      on_access();
      return v_.compare_exchange_weak(expected, desired, s, f);
    }
    T fetch_add(T d, std::memory_order mo, loc = loc::current()) {
      on_access();
      return v_.fetch_add(d, mo);
    }
    T fetch_sub(T d, std::memory_order mo, loc = loc::current()) {
      on_access();
      return v_.fetch_sub(d, mo);
    }
    T exchange(T v, std::memory_order mo, loc = loc::current()) {
      on_access();
      return v_.exchange(v, mo);
    }
    T fetch_or(T d, std::memory_order mo, loc = loc::current())
      requires std::is_integral_v<T>
    {
      on_access();
      return v_.fetch_or(d, mo);
    }
    T fetch_and(T d, std::memory_order mo, loc = loc::current())
      requires std::is_integral_v<T>
    {
      on_access();
      return v_.fetch_and(d, mo);
    }
    T fetch_xor(T d, std::memory_order mo, loc = loc::current())
      requires std::is_integral_v<T>
    {
      on_access();
      return v_.fetch_xor(d, mo);
    }

   private:
    std::atomic<T> v_;  // the hand-offs (mutex + condvar) order every access
  };

  template <class T>
  class var {
   public:
    var() noexcept : v_(T{}) {}
    explicit var(T v) noexcept : v_(v) {}
    var(const var&) = delete;
    var& operator=(const var&) = delete;
    T load(loc = loc::current()) const {
      on_access();
      return v_;
    }
    void store(T v, loc = loc::current()) {
      on_access();
      v_ = v;
    }

   private:
    T v_;
  };

  // sched.lock. Only one thread runs at a time and none parks holding it,
  // so a lock that stays taken is a port bug: reported, never waited on.
  class mutex {
   public:
    void lock(loc = loc::current()) {
      on_access();
      for (long i = 0; !m_.try_lock(); i++) {
        if (i > op_access_bound) throw livelock("sched.lock never became free");
        std::this_thread::yield();
      }
      tls.locks++;
    }
    void unlock(loc = loc::current()) {
      on_access();
      tls.locks--;
      m_.unlock();
    }
    bool held_by_me() const { return tls.locks > 0; }

   private:
    std::mutex m_;
  };

  class thread {
   public:
    template <class F>
    explicit thread(F&& f) : t_(std::forward<F>(f)) {}
    void join() { t_.join(); }

   private:
    std::thread t_;
  };

  static void fence(std::memory_order mo, loc = loc::current()) {
    on_access();
    std::atomic_thread_fence(mo);
  }
  static void runqgrab_backoff() {}  // no time passes: the schedule is the driver's
  static void spin_pause() { on_access(); }
  // Every fatal error fails the case; a harness's one says so.
  [[noreturn]] static void fatal(const fatal_info& f) {
    throw port_fatal(std::string(f.kind == fatal_kind::harness ? "harness fatal error: " : "") +
                     f.msg + (f.values.empty() ? "" : " " + f.values));
  }
};

static_assert(runqcheck::backend<backend>);

}  // namespace runqcheck::stall
