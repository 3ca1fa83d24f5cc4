// runqcheck/backend.hpp — the one seam between the queue code and the world.
//
// Every queue function is a template on a backend B. The backend supplies the
// memory model (atomics, plain shared variables, mutex, fence), threads, the
// scheduling hooks Go hard-wires (runqgrab's usleep(3), spin-wait pauses) and
// the reporting of a failed check. Backends shipped:
//   native  — std::atomic, std::mutex, std::thread        (backend/native.hpp)
//   relacy  — rl::atomic, rl::var, rl::mutex, dyn_thread (a checker's: in
//             models/backend/runqcheck/backend/relacy.hpp)
// Sanitizer and aarch64 builds use native; only the compiler flags differ.
//
// Call sites pass std::memory_order and nothing else: the relacy backend
// converts the order and captures the caller's std::source_location (its `$`)
// through a defaulted argument, so the core never mentions a checker.
#pragma once

#include <atomic>
#include <concepts>
#include <cstdint>
#include <source_location>

#include "check.hpp"

namespace runqcheck {

using loc = std::source_location;

// The orders by name, so that a call reads `store(t + 1, release)`.
inline constexpr auto relaxed = std::memory_order::relaxed;
inline constexpr auto acquire = std::memory_order::acquire;
inline constexpr auto release = std::memory_order::release;
inline constexpr auto acq_rel = std::memory_order::acq_rel;

// What the core needs of B::atomic<T> (fetch_sub, exchange and the bitwise
// RMWs, on integers: for ports, C11's and GCC's included, runqcheck/c11.hpp).
// load_plain() is a plain (non-atomic) read of the same location, for ports
// that read racily as Go does; TSan and Relacy report it as a data race when
// no happens-before orders it.
template <class A, class T>
concept backend_atomic = requires(A& a, const A& ca, T v, T& expected, std::memory_order mo) {
  { ca.load(mo) } -> std::same_as<T>;
  { ca.load_plain() } -> std::same_as<T>;
  a.store(v, mo);
  { a.compare_exchange_strong(expected, v, mo, mo) } -> std::same_as<bool>;
  { a.compare_exchange_weak(expected, v, mo, mo) } -> std::same_as<bool>;  // may fail spuriously
  { a.fetch_add(v, mo) } -> std::same_as<T>;  // each RMW returns the value it replaced
  { a.fetch_sub(v, mo) } -> std::same_as<T>;
  { a.exchange(v, mo) } -> std::same_as<T>;
  { a.fetch_or(v, mo) } -> std::same_as<T>;
  { a.fetch_and(v, mo) } -> std::same_as<T>;
  { a.fetch_xor(v, mo) } -> std::same_as<T>;
};

// What the core needs of B::var<T>: a plain (non-atomic) shared variable.
// Natively a bare T; under relacy every access is race-checked.
template <class V, class T>
concept backend_var = requires(V& x, const V& cx, T v) {
  { cx.load() } -> std::same_as<T>;
  x.store(v);
};

// The backend seam, as a concept. See backend/native.hpp for a complete,
// commented implementation.
template <class B>
concept backend = requires(const fatal_info& f) {
  requires backend_atomic<typename B::template atomic<std::uint32_t>, std::uint32_t>;
  requires backend_var<typename B::template var<std::uint32_t>, std::uint32_t>;
  typename B::mutex;            // lock() / unlock()
  typename B::thread;           // B::thread t(fn); t.join();
  B::fence(std::memory_order::seq_cst);
  B::runqgrab_backoff();        // Go: usleep(3) before stealing a running P's runnext
  B::spin_pause();              // a spin-wait iteration (relacy: yield, else livelock)
  B::fatal(f);                  // a failed RQ_CHECK
};

}  // namespace runqcheck
