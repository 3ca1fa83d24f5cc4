// tests/weak/record_backend.hpp — a backend that records every atomic access.
//
// Native atomics underneath (the same orders reach the hardware), and every
// B::atomic access — its object's address and size, whether it holds a
// pointer, load / plain load / store / CAS / RMW, the std::memory_order(s)
// used, the value read and the value written, the port's file:line — and
// every B::fence is appended to one log. The driver (record_orders.cpp) runs one thread and
// marks which subject operation is running; it alone reads the log. A bound
// on the accesses of one operation turns a spin into an error. Test
// machinery: never included by core/.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include <runqcheck/backend.hpp>
#include <runqcheck/backend/native.hpp>

namespace runqcheck::record {

enum class kind : char { load = 'L', plain = 'P', store = 'S', cas = 'C', rmw = 'A', fence = 'F' };

struct access {
  const void* addr;
  std::uint32_t size;
  bool ptr;                      // T is a pointer (a g* in a queue)
  kind k;
  std::memory_order mo, mo_fail;  // mo_fail: a CAS's failure order
  std::uint64_t read, written;   // read: a store's old value; written: CAS desired, RMW result
  bool ok;                       // a CAS that succeeded (else true)
  const char* file;               // the port's line that made the access (its site)
  std::uint32_t line;
};

// A spin in a sequential run (a port waiting for itself) ends the run.
struct livelock : std::runtime_error {
  using std::runtime_error::runtime_error;
};
constexpr std::size_t op_access_bound = 100000;

// The log. Called by the backend (append) and by the driver (everything).
struct recording {
  std::vector<access> log;
  std::size_t op_start = 0;  // log size when the current operation began
};
inline recording journal;

inline void append(const access& a) {
  if (journal.log.size() - journal.op_start > op_access_bound)
    throw livelock("an operation made more than 100000 atomic accesses in a sequential run");
  journal.log.push_back(a);
}

template <class T>
std::uint64_t bits(T v) {
  if constexpr (std::is_pointer_v<T>) {
    return reinterpret_cast<std::uintptr_t>(v);
  } else if constexpr (sizeof(T) <= sizeof(std::uint64_t) && std::is_trivially_copyable_v<T>) {
    std::uint64_t b = 0;
    std::memcpy(&b, &v, sizeof v);
    return b;
  } else {
    return 0;
  }
}

struct recorder {
  static constexpr const char* name = "record";

  // native's atomic, each access logged after (a load) or before (a store) it.
  template <class T>
  class atomic : public native::atomic<T> {
    using base = native::atomic<T>;

   public:
    using base::base;
    T load(std::memory_order mo, loc l = loc::current()) const {
      T v = base::load(mo, l);
      note(kind::load, mo, mo, bits(v), 0, true, l);
      return v;
    }
    // READ of a store: the value it overwrites (one thread runs: no race).
    void store(T v, std::memory_order mo, loc l = loc::current()) {
      note(kind::store, mo, mo, bits(base::load(std::memory_order::relaxed, l)), bits(v), true,
           l);
      base::store(v, mo, l);
    }
    bool compare_exchange_strong(T& expected, T desired, std::memory_order success,
                                 std::memory_order failure, loc l = loc::current()) {
      std::uint64_t want = bits(expected);
      bool ok = base::compare_exchange_strong(expected, desired, success, failure, l);
      note(kind::cas, success, failure, ok ? want : bits(expected), bits(desired), ok, l);
      return ok;
    }
    // Recorded as a CAS: the orders are what the audit reads, not the spurious failures.
    bool compare_exchange_weak(T& expected, T desired, std::memory_order success,
                               std::memory_order failure, loc l = loc::current()) {
      return compare_exchange_strong(expected, desired, success, failure, l);
    }
    T fetch_add(T d, std::memory_order mo, loc l = loc::current()) {
      T old = base::fetch_add(d, mo, l);
      note(kind::rmw, mo, mo, bits(old), bits(static_cast<T>(old + d)), true, l);
      return old;
    }
    T fetch_sub(T d, std::memory_order mo, loc l = loc::current()) {
      T old = base::fetch_sub(d, mo, l);
      note(kind::rmw, mo, mo, bits(old), bits(static_cast<T>(old - d)), true, l);
      return old;
    }
    T exchange(T v, std::memory_order mo, loc l = loc::current()) {
      T old = base::exchange(v, mo, l);
      note(kind::rmw, mo, mo, bits(old), bits(v), true, l);
      return old;
    }
    T fetch_or(T d, std::memory_order mo, loc l = loc::current())
      requires std::is_integral_v<T>
    {
      T old = base::fetch_or(d, mo, l);
      note(kind::rmw, mo, mo, bits(old), bits(static_cast<T>(old | d)), true, l);
      return old;
    }
    T fetch_and(T d, std::memory_order mo, loc l = loc::current())
      requires std::is_integral_v<T>
    {
      T old = base::fetch_and(d, mo, l);
      note(kind::rmw, mo, mo, bits(old), bits(static_cast<T>(old & d)), true, l);
      return old;
    }
    T fetch_xor(T d, std::memory_order mo, loc l = loc::current())
      requires std::is_integral_v<T>
    {
      T old = base::fetch_xor(d, mo, l);
      note(kind::rmw, mo, mo, bits(old), bits(static_cast<T>(old ^ d)), true, l);
      return old;
    }
    // A plain read (native's load_plain): logged as kind plain, order relaxed.
    T load_plain(loc l = loc::current()) const {
      T v = base::load_plain(l);
      note(kind::plain, std::memory_order::relaxed, std::memory_order::relaxed, bits(v), 0, true,
           l);
      return v;
    }

   private:
    void note(kind k, std::memory_order mo, std::memory_order mf, std::uint64_t r,
              std::uint64_t w, bool ok, const loc& l) const {
      append({static_cast<const void*>(this), sizeof(T), std::is_pointer_v<T>, k, mo, mf, r, w,
              ok, l.file_name(), l.line()});
    }
  };

  // Plain variables, sched.lock and threads: native's (not recorded; the
  // audit is about the P's atomics).
  template <class T>
  using var = native::var<T>;
  using mutex = native::mutex;
  using thread = native::thread;

  static void fence(std::memory_order mo, loc l = loc::current()) {
    append({nullptr, 0, false, kind::fence, mo, mo, 0, 0, true, l.file_name(), l.line()});
    std::atomic_thread_fence(mo);
  }
  static void runqgrab_backoff() {}
  static void spin_pause() {}
  [[noreturn]] static void fatal(const fatal_info& f) { native::fatal(f); }
};

static_assert(backend<recorder>);

}  // namespace runqcheck::record
