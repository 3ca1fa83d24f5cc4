// runqcheck/backend/relacy.hpp — the model-checking backend: Relacy's
// rl::atomic (C++ memory model, store history), rl::var (race-checked plain
// variables), rl::mutex and rl::dyn_thread.
//
// Include this header after every std/gtest header: relacy.hpp #defines new,
// delete, malloc, free, assert and the memory_order_* names. The core only
// uses std::memory_order::acquire-style scoped names, which those macros do
// not touch. Threads must be created inside a simulation (a test_suite's
// thread() or before()), as Relacy requires of every rl object.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>

#include <relacy/relacy.hpp>

#include "../backend.hpp"

// relacy.hpp turns `delete` into its allocation tracker; `= delete` below
// must stay the C++ keyword.
#pragma push_macro("delete")
#undef delete

namespace runqcheck {

struct relacy {
  static constexpr const char* name = "relacy";

  // Relacy's history names the function of each access. GCC's
  // source_location gives the whole signature; keep the bare name
  // ("runqgrab"), cached in static storage (no allocation inside a run).
  static const char* short_name(const char* pretty) {
    static const char* keys[128];
    static char names[128][40];
    static unsigned n = 0;
    for (unsigned i = 0; i < n; i++)
      if (keys[i] == pretty) return names[i];
    const char* paren = std::strchr(pretty, '(');
    if (paren == nullptr || n == 128) return pretty;
    const char* b = paren;
    while (b > pretty && (std::isalnum(static_cast<unsigned char>(b[-1])) || b[-1] == '_')) b--;
    std::size_t len = std::min<std::size_t>(static_cast<std::size_t>(paren - b), sizeof names[0] - 1);
    std::memcpy(names[n], b, len);
    names[n][len] = '\0';
    keys[n] = pretty;
    return names[n++];
  }
  static rl::debug_info info(const loc& l) {
    return rl::debug_info(short_name(l.function_name()), l.file_name(), l.line());
  }
  static rl::memory_order to_rl(std::memory_order mo) {
    switch (mo) {
      case std::memory_order::relaxed: return rl::mo_relaxed;
      case std::memory_order::consume: return rl::mo_consume;
      case std::memory_order::acquire: return rl::mo_acquire;
      case std::memory_order::release: return rl::mo_release;
      case std::memory_order::acq_rel: return rl::mo_acq_rel;
      default: return rl::mo_seq_cst;
    }
  }

  template <class T>
  class atomic {
   public:
    atomic() : a_(T{}) {}
    explicit atomic(T v) : a_(v) {}
    atomic(const atomic&) = delete;
    atomic& operator=(const atomic&) = delete;
    T load(std::memory_order mo, loc l = loc::current()) const { return a_.load(to_rl(mo), info(l)); }
    void store(T v, std::memory_order mo, loc l = loc::current()) { a_.store(v, to_rl(mo), info(l)); }
    bool compare_exchange_strong(T& expected, T desired, std::memory_order success,
                                 std::memory_order failure, loc l = loc::current()) {
      return a_.compare_exchange_strong(expected, desired, to_rl(success), info(l), to_rl(failure), info(l));
    }
    T fetch_add(T d, std::memory_order mo, loc l = loc::current()) { return a_.fetch_add(d, to_rl(mo), info(l)); }

   private:
    mutable rl::atomic<T> a_;
  };

  template <class T>
  class var {
   public:
    var() : v_(T{}) {}
    explicit var(T v) : v_(v) {}
    var(const var&) = delete;
    var& operator=(const var&) = delete;
    T load(loc l = loc::current()) const { return v_(info(l)); }
    void store(T v, loc l = loc::current()) { v_(info(l)) = v; }

   private:
    rl::var<T> v_;
  };

  class mutex {
   public:
    void lock(loc l = loc::current()) { m_.lock(info(l)); }
    void unlock(loc l = loc::current()) { m_.unlock(info(l)); }
    bool held_by_me() const { return true; }  // relacy reports misuse itself

   private:
    rl::mutex m_;
  };

  // A dynamic relacy thread running a callable. The object must outlive the
  // thread (it lives in the spawning frame until join), so it does not move.
  class thread {
   public:
    template <class F>
    explicit thread(F&& f) : fn_(std::forward<F>(f)) { t_.start(&trampoline, this); }
    thread(const thread&) = delete;
    thread& operator=(const thread&) = delete;
    void join() { t_.join(); }

   private:
    static void* trampoline(void* self) {
      static_cast<thread*>(self)->fn_();
      return nullptr;
    }
    std::function<void()> fn_;
    rl::dyn_thread t_;
  };

  static void fence(std::memory_order mo, loc l = loc::current()) { rl::atomic_thread_fence(to_rl(mo), info(l)); }
  // Under the model checker the 3µs sleep is a scheduling point.
  static void runqgrab_backoff(loc l = loc::current()) { rl::yield(1, info(l)); }
  static void spin_pause(loc l = loc::current()) { rl::yield(1, info(l)); }
  // The last failed check's text (a static buffer, not a std::string:
  // memory allocated inside a simulation belongs to Relacy's heap).
  static inline char fatal_text[512] = {};
  static void fatal(const fatal_info& f) {
    std::snprintf(fatal_text, sizeof fatal_text, "fatal error: %s%s%s", f.msg, f.values.empty() ? "" : " ",
                  f.values.c_str());
    rl::ctx().fail_test(fatal_text, rl::test_result_user_assert_failed, info(f.where));
  }
};

static_assert(backend<relacy>);

}  // namespace runqcheck

#pragma pop_macro("delete")
