// runqcheck/backend/native.hpp — the production backend: std::atomic,
// std::mutex, std::thread. Used for unit tests, ASan/UBSan, TSan, aarch64 and
// the stress scheduler. Every member is a thin inline wrapper; with the
// default (non-mutant) configuration the generated code is that of hand-written
// std::atomic code.
#pragma once

#include <atomic>
#include <cstring>
#include <mutex>
#include <thread>
#include <unistd.h>

#include "../backend.hpp"

namespace runqcheck {

struct native {
  static constexpr const char* name = "native";

  template <class T>
  class atomic {
   public:
    atomic() noexcept : v_(T{}) {}
    explicit atomic(T v) noexcept : v_(v) {}
    atomic(const atomic&) = delete;
    atomic& operator=(const atomic&) = delete;
    T load(std::memory_order mo, loc = loc::current()) const noexcept { return v_.load(mo); }
    void store(T v, std::memory_order mo, loc = loc::current()) noexcept { v_.store(v, mo); }
    bool compare_exchange_strong(T& expected, T desired, std::memory_order success,
                                 std::memory_order failure, loc = loc::current()) noexcept {
      return v_.compare_exchange_strong(expected, desired, success, failure);
    }
    // May fail although the value equals expected (LL/SC on ARM): a port's loop retries.
    bool compare_exchange_weak(T& expected, T desired, std::memory_order success,
                               std::memory_order failure, loc = loc::current()) noexcept {
      return v_.compare_exchange_weak(expected, desired, success, failure);
    }
    T fetch_add(T d, std::memory_order mo, loc = loc::current()) noexcept {
      return v_.fetch_add(d, mo);
    }
    T fetch_sub(T d, std::memory_order mo, loc = loc::current()) noexcept {
      return v_.fetch_sub(d, mo);
    }
    T exchange(T v, std::memory_order mo, loc = loc::current()) noexcept {
      return v_.exchange(v, mo);
    }
    // A plain (non-atomic) read of a location written atomically elsewhere,
    // as Go's runtime does (`t := pp.runqtail`): an ordinary load of the
    // object's bytes, which TSan checks like any plain read.
    T load_plain(loc = loc::current()) const noexcept {
      static_assert(sizeof(std::atomic<T>) == sizeof(T) && std::atomic<T>::is_always_lock_free);
      T v;
      std::memcpy(&v, static_cast<const void*>(&v_), sizeof v);
      return v;
    }

   private:
    std::atomic<T> v_;
  };

  // A plain shared variable. Natively just T; the relacy backend checks every
  // access for data races, which is why the core never touches one directly.
  template <class T>
  class var {
   public:
    var() noexcept : v_(T{}) {}
    explicit var(T v) noexcept : v_(v) {}
    var(const var&) = delete;
    var& operator=(const var&) = delete;
    T load(loc = loc::current()) const noexcept { return v_; }
    void store(T v, loc = loc::current()) noexcept { v_ = v; }

   private:
    T v_;
  };

  // sched.lock. Records its holder so that re-locking from the same thread
  // (the latent self-deadlock go1.25 removed from globrunqget, a42e337ede)
  // is reported as a fatal check instead of hanging: the harness's, not the
  // port's (fatal_kind::harness), since a port never raises it on purpose.
  class mutex {
   public:
    void lock(loc l = loc::current()) {
      if (owner_.load(std::memory_order_relaxed) == std::this_thread::get_id())
        fatal(fatal_info{"self deadlock: sched.lock already held by this thread", {}, l,
                         fatal_kind::harness});
      m_.lock();
      owner_.store(std::this_thread::get_id(), std::memory_order_relaxed);
    }
    void unlock(loc = loc::current()) {
      owner_.store(std::thread::id{}, std::memory_order_relaxed);
      m_.unlock();
    }
    // Go: assertLockHeld(&sched.lock).
    bool held_by_me() const {
      return owner_.load(std::memory_order_relaxed) == std::this_thread::get_id();
    }

   private:
    std::mutex m_;
    std::atomic<std::thread::id> owner_{};
  };

  class thread {
   public:
    template <class F>
    explicit thread(F&& f) : t_(std::forward<F>(f)) {}
    void join() { t_.join(); }

   private:
    std::thread t_;
  };

  static void fence(std::memory_order mo, loc = loc::current()) { std::atomic_thread_fence(mo); }

  // Go's runqgrab: usleep(3) before stealing runnext from a running P.
  static void runqgrab_backoff() { ::usleep(3); }
  static void spin_pause() { std::this_thread::yield(); }
  [[noreturn]] static void fatal(const fatal_info& f) {
    fatal_handler()(f);
    std::abort();  // a handler that returns is treated as abort
  }
};

static_assert(backend<native>);

}  // namespace runqcheck
