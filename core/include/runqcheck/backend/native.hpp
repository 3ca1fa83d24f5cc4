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
#include <type_traits>
#include <unistd.h>

#include "../backend.hpp"

#if defined(__SANITIZE_THREAD__)
#define RUNQCHECK_TSAN_FENCES 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RUNQCHECK_TSAN_FENCES 1
#endif
#endif
#ifdef RUNQCHECK_TSAN_FENCES
#include <sanitizer/tsan_interface.h>

#include <vector>
#endif

namespace runqcheck {

#ifdef RUNQCHECK_TSAN_FENCES
// TSan does not model std::atomic_thread_fence (GCC: -Wtsan), so a port that
// orders relaxed accesses with fences had its hand-offs reported as races.
// Once any fence has run, each thread keeps the atomics it read relaxed since
// its last acquire fence, which acquires them (__tsan_acquire); after its
// first release fence, each relaxed store or RMW releases (__tsan_release).
// Both are stronger than the fences: TSan stays a smoke check of plain data,
// and ports without fences are untouched.
namespace tsan_fences {
inline std::atomic<bool> used{false};
inline thread_local std::vector<const void*> read;
inline thread_local bool released = false;
inline bool weak(std::memory_order mo) {
  return mo == std::memory_order::relaxed || mo == std::memory_order::consume;
}
inline void on_read(const void* a, std::memory_order mo) {
  if (!weak(mo) || !used.load(std::memory_order::relaxed)) return;
  if (read.empty() || read.back() != a) read.push_back(a);
  if (read.size() > 4096) read.erase(read.begin(), read.begin() + 2048);
}
inline void on_write(const void* a, std::memory_order mo) {
  if (released && weak(mo)) __tsan_release(const_cast<void*>(a));
}
inline void fence(std::memory_order mo) {
  if (mo == std::memory_order::relaxed) return;
  used.store(true, std::memory_order::relaxed);
  if (mo != std::memory_order::release) {
    for (const void* a : read) __tsan_acquire(const_cast<void*>(a));
    read.clear();
  }
  if (mo != std::memory_order::acquire && mo != std::memory_order::consume) released = true;
}
}  // namespace tsan_fences
#define RQ_TSAN_READ(mo) tsan_fences::on_read(&v_, mo)
#define RQ_TSAN_WRITE(mo) tsan_fences::on_write(&v_, mo)
#else
#define RQ_TSAN_READ(mo) (void)0
#define RQ_TSAN_WRITE(mo) (void)0
#endif

struct native {
  static constexpr const char* name = "native";

  template <class T>
  class atomic {
   public:
    atomic() noexcept : v_(T{}) {}
    explicit atomic(T v) noexcept : v_(v) {}
    atomic(const atomic&) = delete;
    atomic& operator=(const atomic&) = delete;
    T load(std::memory_order mo, loc = loc::current()) const noexcept {
      RQ_TSAN_READ(mo);
      return v_.load(mo);
    }
    void store(T v, std::memory_order mo, loc = loc::current()) noexcept {
      RQ_TSAN_WRITE(mo);
      v_.store(v, mo);
    }
    bool compare_exchange_strong(T& expected, T desired, std::memory_order success,
                                 std::memory_order failure, loc = loc::current()) noexcept {
      RQ_TSAN_READ(success), RQ_TSAN_WRITE(success);
      return v_.compare_exchange_strong(expected, desired, success, failure);
    }
    // May fail although the value equals expected (LL/SC on ARM): a port's loop retries.
    bool compare_exchange_weak(T& expected, T desired, std::memory_order success,
                               std::memory_order failure, loc = loc::current()) noexcept {
      RQ_TSAN_READ(success), RQ_TSAN_WRITE(success);
      return v_.compare_exchange_weak(expected, desired, success, failure);
    }
    T fetch_add(T d, std::memory_order mo, loc = loc::current()) noexcept {
      RQ_TSAN_READ(mo), RQ_TSAN_WRITE(mo);
      return v_.fetch_add(d, mo);
    }
    T fetch_sub(T d, std::memory_order mo, loc = loc::current()) noexcept {
      RQ_TSAN_READ(mo), RQ_TSAN_WRITE(mo);
      return v_.fetch_sub(d, mo);
    }
    T exchange(T v, std::memory_order mo, loc = loc::current()) noexcept {
      RQ_TSAN_READ(mo), RQ_TSAN_WRITE(mo);
      return v_.exchange(v, mo);
    }
    // Bitwise RMWs, on integers (flags packed in a word).
    T fetch_or(T d, std::memory_order mo, loc = loc::current()) noexcept
      requires std::is_integral_v<T>
    {
      RQ_TSAN_READ(mo), RQ_TSAN_WRITE(mo);
      return v_.fetch_or(d, mo);
    }
    T fetch_and(T d, std::memory_order mo, loc = loc::current()) noexcept
      requires std::is_integral_v<T>
    {
      RQ_TSAN_READ(mo), RQ_TSAN_WRITE(mo);
      return v_.fetch_and(d, mo);
    }
    T fetch_xor(T d, std::memory_order mo, loc = loc::current()) noexcept
      requires std::is_integral_v<T>
    {
      RQ_TSAN_READ(mo), RQ_TSAN_WRITE(mo);
      return v_.fetch_xor(d, mo);
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

  static void fence(std::memory_order mo, loc = loc::current()) {
#ifdef RUNQCHECK_TSAN_FENCES
    tsan_fences::fence(mo);
#endif
    std::atomic_thread_fence(mo);
  }

  // Go's runqgrab: usleep(3) before stealing runnext from a running P.
  static void runqgrab_backoff() { ::usleep(3); }
  static void spin_pause() { std::this_thread::yield(); }
  [[noreturn]] static void fatal(const fatal_info& f) {
    fatal_handler()(f);
    std::abort();  // a handler that returns is treated as abort
  }
};

static_assert(backend<native>);

#undef RQ_TSAN_READ
#undef RQ_TSAN_WRITE

}  // namespace runqcheck
