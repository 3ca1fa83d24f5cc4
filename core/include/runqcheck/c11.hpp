// runqcheck/c11.hpp — a port written in C11 (<stdatomic.h>, <threads.h>'s
// mtx_t) compiled as C++ on the backend seam, so that every checker sees its
// atomics with their orders. docs/porting.md, "Ports written in C".
//
// The C port's header is included inside the adapter's class template
// S<B, Cap>, between c11/on.h and c11/off.h:
//
//   template <class B, std::uint32_t Cap> struct my_c_port {
//     RUNQCHECK_C11_PORT(B)        // the names below, on backend B
//   #include <runqcheck/c11/on.h>
//   #include "my/runq.h"           // static (inline) functions: static members
//   #include <runqcheck/c11/off.h>
//   };
//
// on.h maps, by macro, `_Atomic(T)` to B::atomic<T>, the atomic_* generic
// functions (explicit and seq_cst forms) to this file's functions, which
// call the seam with the port's order and the caller's source line,
// `mtx_t`/`mtx_lock`/`mtx_unlock` (and pthread_mutex_t's) to B::mutex, C11's keywords
// that C++ lacks to C++'s, and RUNQCHECK_PLAIN(T) (a
// plain field that threads share: ring slots read racily, fields guarded by
// a lock) to B::var<T>, RUNQCHECK_ATOMIC(T) (a plain field reached with GCC's
// __atomic/__sync builtins, which on.h maps too) to B::atomic<T> with C's
// syntax as relaxed accesses, RUNQCHECK_C_ONLY(...) (a same-name typedef, a
// prototype) to nothing and RUNQCHECK_PLAIN_PARAM(T) (a parameter receiving a
// marked array) to auto; off.h removes every macro again. A weak CAS is
// the backend's compare_exchange_weak (Relacy fails it spuriously; explore: strong).
#pragma once

// backend.hpp (<atomic>) before <stdatomic.h>: clang's defines C11's generic functions
// (kill_dependency, atomic_load, ...) as macros in C++20, which would break <atomic>.
#include "backend.hpp"
#include <stdatomic.h>  // first here: the port's include is then a no-op (clang: macros, below)
#if __has_include(<threads.h>)
#include <threads.h>  // mtx_plain, thrd_success; the port's include is then a no-op
#endif
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
// C's library headers a port may include: included here, at file scope, their guards make
// the port's #include inside the class a no-op (their extern "C" declarations cannot be
// members). assert.h has no guard, but glibc's declares its function once.
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if __has_include(<sched.h>)
#include <sched.h>  // sched_yield
#endif
#if __has_include(<pthread.h>)
#include <pthread.h>
#endif
#if __has_include(<unistd.h>)
#include <unistd.h>
#endif

#include <string>
#include <type_traits>
#include <utility>

// clang's <stdatomic.h> defines C11's generic functions as macros in C++20
// too; they would rewrite the functions of those names in headers included
// after this one (<memory>'s atomic_is_lock_free, Relacy's
// atomic_thread_fence). Removed here; on.h maps those the seam has, the
// others stay unmapped (docs/porting.md, section 8).
#include "c11/off.h"
#undef atomic_is_lock_free
#undef atomic_signal_fence
#undef kill_dependency
#undef atomic_fetch_or
#undef atomic_fetch_or_explicit
#undef atomic_fetch_and
#undef atomic_fetch_and_explicit
#undef atomic_fetch_xor
#undef atomic_fetch_xor_explicit
#undef atomic_flag_test_and_set
#undef atomic_flag_test_and_set_explicit
#undef atomic_flag_clear
#undef atomic_flag_clear_explicit

// relacy.hpp's memory_order_* macros (when it came first) would turn the
// port's orders into two arguments; the names below are the class's.
#undef memory_order_relaxed
#undef memory_order_consume
#undef memory_order_acquire
#undef memory_order_release
#undef memory_order_acq_rel
#undef memory_order_seq_cst

namespace runqcheck::c11 {

// The value type of a backend atomic A (not deduced from the port's
// argument: NULL must convert to a pointer). An atomic access to a plain
// field (a GCC builtin or atomic_* on a field not marked) stops here, with a
// message that names the edit.
template <class A>
struct value_of {
  using type = decltype(std::declval<const A&>().load(std::memory_order::relaxed));
};
template <class A>
  requires std::is_scalar_v<A>
struct value_of<A> {
  static_assert(!std::is_scalar_v<A>,
                "runqcheck: an atomic access (a GCC __atomic/__sync builtin or atomic_*) "
                "to a plain field: declare it RUNQCHECK_ATOMIC(T) or _Atomic(T); or through "
                "a T* parameter that receives a marked field's address: declare the "
                "parameter RUNQCHECK_ATOMIC_PARAM(T) *p (docs/porting.md, section 8)");
  using type = A;
};
template <class A>
using value_t = typename value_of<A>::type;
template <class V, class T, const loc* Decl>
class plain;
template <class V, class T, const loc* Decl>
struct value_of<plain<V, T, Decl>> {
  static_assert(!std::is_same_v<V, V>,
                "runqcheck: an atomic access (a GCC __atomic/__sync builtin or atomic_*) "
                "to a field marked RUNQCHECK_PLAIN(T): mark it RUNQCHECK_ATOMIC(T) "
                "(docs/porting.md, section 8)");
  using type = T;
};

inline constexpr auto sc = std::memory_order::seq_cst;

template <class A>
value_t<A> load(const A* a, std::memory_order mo, loc l = loc::current()) {
  return a->load(mo, l);
}
template <class A>
void store(A* a, std::type_identity_t<value_t<A>> v, std::memory_order mo,
           loc l = loc::current()) {
  a->store(v, mo, l);
}
template <class A>
value_t<A> exchange(A* a, std::type_identity_t<value_t<A>> v, std::memory_order mo,
                    loc l = loc::current()) {
  return a->exchange(v, mo, l);
}
template <class A>
bool cas(A* a, value_t<A>* expected, std::type_identity_t<value_t<A>> desired,
         std::memory_order s, std::memory_order f, loc l = loc::current()) {
  return a->compare_exchange_strong(*expected, desired, s, f, l);
}
template <class A>
bool cas_weak(A* a, value_t<A>* expected, std::type_identity_t<value_t<A>> desired,
              std::memory_order s, std::memory_order f, loc l = loc::current()) {
  return a->compare_exchange_weak(*expected, desired, s, f, l);
}
template <class A>
value_t<A> fetch_add(A* a, std::type_identity_t<value_t<A>> d, std::memory_order mo,
                     loc l = loc::current()) {
  return a->fetch_add(d, mo, l);
}
template <class A>
value_t<A> fetch_sub(A* a, std::type_identity_t<value_t<A>> d, std::memory_order mo,
                     loc l = loc::current()) {
  return a->fetch_sub(d, mo, l);
}


// GCC's builtins (__atomic_*, __sync_*), on a field marked RUNQCHECK_ATOMIC(T)
// or _Atomic(T): the same seam calls as C11's functions above.

// GCC's order constants (__ATOMIC_RELAXED .. __ATOMIC_SEQ_CST) as C++'s; the
// HLE hint bits above them are ignored.
inline std::memory_order gcc_order(int mo) {
  switch (mo & 0xffff) {
    case __ATOMIC_RELAXED: return std::memory_order::relaxed;
    case __ATOMIC_CONSUME: return std::memory_order::consume;
    case __ATOMIC_ACQUIRE: return std::memory_order::acquire;
    case __ATOMIC_RELEASE: return std::memory_order::release;
    case __ATOMIC_ACQ_REL: return std::memory_order::acq_rel;
    default: return std::memory_order::seq_cst;
  }
}
template <class A>
bool gcc_cas(A* a, value_t<A>* expected, std::type_identity_t<value_t<A>> desired, bool weak,
             int s, int f, loc l = loc::current()) {
  return weak ? a->compare_exchange_weak(*expected, desired, gcc_order(s), gcc_order(f), l)
              : a->compare_exchange_strong(*expected, desired, gcc_order(s), gcc_order(f), l);
}
// __atomic_load, __atomic_store, __atomic_exchange, __atomic_compare_exchange: the
// forms that pass values by pointer.
template <class A>
void gcc_load(const A* a, value_t<A>* ret, int mo, loc l = loc::current()) {
  *ret = a->load(gcc_order(mo), l);
}
template <class A>
void gcc_store(A* a, const value_t<A>* v, int mo, loc l = loc::current()) {
  a->store(*v, gcc_order(mo), l);
}
template <class A>
void gcc_exchange(A* a, const value_t<A>* v, value_t<A>* ret, int mo, loc l = loc::current()) {
  *ret = a->exchange(*v, gcc_order(mo), l);
}
template <class A>
bool gcc_cas_ptr(A* a, value_t<A>* expected, const value_t<A>* desired, bool weak, int s, int f,
                 loc l = loc::current()) {
  return gcc_cas(a, expected, *desired, weak, s, f, l);
}
// __atomic_add_fetch, __atomic_sub_fetch, __sync_add_and_fetch, __sync_sub_and_fetch: the
// new value.
template <class A>
value_t<A> add_fetch(A* a, std::type_identity_t<value_t<A>> d, std::memory_order mo,
                     loc l = loc::current()) {
  return static_cast<value_t<A>>(a->fetch_add(d, mo, l) + d);
}
template <class A>
value_t<A> sub_fetch(A* a, std::type_identity_t<value_t<A>> d, std::memory_order mo,
                     loc l = loc::current()) {
  return static_cast<value_t<A>>(a->fetch_sub(d, mo, l) - d);
}
// __sync_val_compare_and_swap: the value read (old's, if it swapped); seq_cst.
template <class A>
value_t<A> sync_val_cas(A* a, std::type_identity_t<value_t<A>> old,
                        std::type_identity_t<value_t<A>> v, loc l = loc::current()) {
  a->compare_exchange_strong(old, v, sc, sc, l);
  return old;
}
// __sync_bool_compare_and_swap: whether it swapped; seq_cst.
template <class A>
bool sync_bool_cas(A* a, std::type_identity_t<value_t<A>> old,
                   std::type_identity_t<value_t<A>> v, loc l = loc::current()) {
  return a->compare_exchange_strong(old, v, sc, sc, l);
}
// The builtins the seam has no operation for (fetch_nand and nand_fetch, test_and_set,
// clear): a compile error naming the builtin.
template <class A>
constexpr bool no_seam_op = false;
template <class A, class... R>
value_t<A> unmapped(const char*, A*, R&&...) {
  static_assert(no_seam_op<A>,
                "runqcheck: this GCC builtin is not mapped (no nand, test_and_set or "
                "clear on the seam): write it as a compare-exchange loop "
                "(docs/porting.md, section 8)");
  return {};
}

// atomic_fetch_or/_and/_xor and GCC's bitwise builtins (integers): the seam's
// bitwise RMWs; *_fetch: the new value.
template <class A>
value_t<A> fetch_or(A* a, std::type_identity_t<value_t<A>> d, std::memory_order mo,
                    loc l = loc::current()) {
  return a->fetch_or(d, mo, l);
}
template <class A>
value_t<A> fetch_and(A* a, std::type_identity_t<value_t<A>> d, std::memory_order mo,
                     loc l = loc::current()) {
  return a->fetch_and(d, mo, l);
}
template <class A>
value_t<A> fetch_xor(A* a, std::type_identity_t<value_t<A>> d, std::memory_order mo,
                     loc l = loc::current()) {
  return a->fetch_xor(d, mo, l);
}
template <class A>
value_t<A> or_fetch(A* a, std::type_identity_t<value_t<A>> d, std::memory_order mo,
                    loc l = loc::current()) {
  return static_cast<value_t<A>>(a->fetch_or(d, mo, l) | d);
}
template <class A>
value_t<A> and_fetch(A* a, std::type_identity_t<value_t<A>> d, std::memory_order mo,
                     loc l = loc::current()) {
  return static_cast<value_t<A>>(a->fetch_and(d, mo, l) & d);
}
template <class A>
value_t<A> xor_fetch(A* a, std::type_identity_t<value_t<A>> d, std::memory_order mo,
                     loc l = loc::current()) {
  return static_cast<value_t<A>>(a->fetch_xor(d, mo, l) ^ d);
}

// C11 mtx_init/mtx_destroy/mtx_lock/mtx_unlock on B::mutex (constructed
// with the port's struct); thrd_success (0) always.
template <class M>
int init(M*, int) {
  return 0;
}
template <class M>
void destroy(M*) {}
// pthread_mutex_destroy: 0 (success), a value C may ignore without a warning.
template <class M>
int destroy_posix(M*) {
  return 0;
}
template <class M>
int lock(M* m, loc l = loc::current()) {
  m->lock(l);
  return 0;
}
template <class M>
int unlock(M* m, loc l = loc::current()) {
  m->unlock(l);
  return 0;
}

// An operator's right operand with the line of the port's expression: the
// implicit conversion to located<T> evaluates its defaulted argument where
// the port converts, so `x = v` and `x += d` reach the seam with the port's
// line (as Relacy's `$` would).
template <class T>
struct located {
  T v;
  loc l;
  located(T x, loc at = loc::current()) : v(x), l(at) {}  // implicit on purpose
};

// A plain field that threads share (RUNQCHECK_PLAIN(T)): each read and write
// goes to B::var<T> (race-checked under Relacy and explore). The C syntax
// stays: `x = v`, `v = x`, `x->f`, `x += d`, `x++`. A write (`=`, `+=`,
// `-=`) names the port's line of the access; a read, `x++` and `x--` name
// the field's declaration line in the port (*Decl: a static member that
// on.h's RUNQCHECK_PLAIN declares there), as conversion and increment
// operators take no argument to carry the caller's line.
template <class V, class T, const loc* Decl>
class plain {
 public:
  plain() = default;
  plain(const plain&) = delete;
  plain& operator=(const plain&) = delete;
  operator T() const { return v_.load(*Decl); }
  plain& operator=(located<T> x) {
    v_.store(x.v, x.l);
    return *this;
  }
  T operator->() const
    requires std::is_pointer_v<T>
  {
    return v_.load(*Decl);
  }
  plain& operator+=(located<T> d) {
    v_.store(static_cast<T>(v_.load(d.l) + d.v), d.l);
    return *this;
  }
  plain& operator-=(located<T> d) {
    v_.store(static_cast<T>(v_.load(d.l) - d.v), d.l);
    return *this;
  }
  T operator++(int) {
    T old = v_.load(*Decl);
    v_.store(static_cast<T>(old + 1), *Decl);
    return old;
  }
  T operator--(int) {
    T old = v_.load(*Decl);
    v_.store(static_cast<T>(old - 1), *Decl);
    return old;
  }

 protected:
  V v_;  // shared<> reaches its atomic here
};

// A B::atomic read and written relaxed, as plain<> reads and writes its value:
// the cell of a RUNQCHECK_ATOMIC field.
template <class A, class T>
struct relaxed_cell {
  A a;
  T load(loc l) const { return a.load(std::memory_order::relaxed, l); }
  void store(T v, loc l) { a.store(v, std::memory_order::relaxed, l); }
};

// A field the port accesses with GCC's builtins and with C's own syntax
// (RUNQCHECK_ATOMIC(T)): a B::atomic<T>. A builtin reaches the seam with its
// order. C's syntax (`v = x`, `x = v`, `x += d`, `x++`) is a relaxed atomic
// access, what an aligned plain access is on the hardware: a plain write that
// should have released is caught by what it fails to publish (the slot
// read after it races), not as a race on this field. A write names the port's
// line; a read, `x++` and `x--` the field's declaration line: plain<>'s operators
// over a relaxed_cell.
template <class A, class T, const loc* Decl>
class shared : public plain<relaxed_cell<A, T>, T, Decl> {
 public:
  using plain<relaxed_cell<A, T>, T, Decl>::operator=;
  // The seam's operations, for the builtins (and atomic_*).
  T load(std::memory_order mo, loc l = loc::current()) const { return at().load(mo, l); }
  void store(T v, std::memory_order mo, loc l = loc::current()) { at().store(v, mo, l); }
  T exchange(T v, std::memory_order mo, loc l = loc::current()) {
    return at().exchange(v, mo, l);
  }
  bool compare_exchange_strong(T& e, T v, std::memory_order s, std::memory_order f,
                               loc l = loc::current()) {
    return at().compare_exchange_strong(e, v, s, f, l);
  }
  bool compare_exchange_weak(T& e, T v, std::memory_order s, std::memory_order f,
                             loc l = loc::current()) {
    return at().compare_exchange_weak(e, v, s, f, l);
  }
  T fetch_add(T d, std::memory_order mo, loc l = loc::current()) {
    return at().fetch_add(d, mo, l);
  }
  T fetch_sub(T d, std::memory_order mo, loc l = loc::current()) {
    return at().fetch_sub(d, mo, l);
  }
  T fetch_or(T d, std::memory_order mo, loc l = loc::current()) {
    return at().fetch_or(d, mo, l);
  }
  T fetch_and(T d, std::memory_order mo, loc l = loc::current()) {
    return at().fetch_and(d, mo, l);
  }
  T fetch_xor(T d, std::memory_order mo, loc l = loc::current()) {
    return at().fetch_xor(d, mo, l);
  }
  // A volatile access (the kernel's and liburcu's READ_ONCE / WRITE_ONCE:
  // `*(volatile __typeof__(x) *)&(x)`): relaxed, as those are.
  operator T() const volatile { return const_cast<const shared*>(this)->at().load(rx, *Decl); }
  void operator=(located<T> x) volatile { const_cast<shared*>(this)->at().store(x.v, rx, x.l); }

 private:
  static constexpr auto rx = std::memory_order::relaxed;
  A& at() { return this->v_.a; }
  const A& at() const { return this->v_.a; }
};

// A path's last component (an assert's __FILE__).
inline std::string base_name(const char* path) {
  std::string s(path);
  auto k = s.find_last_of('/');
  return k == std::string::npos ? s : s.substr(k + 1);
}

}  // namespace runqcheck::c11

#define RUNQCHECK_C11_CAT2(a, b) a##b
#define RUNQCHECK_C11_CAT(a, b) RUNQCHECK_C11_CAT2(a, b)

// Inside the adapter's class template: the backend's types under the names
// on.h's macros expand to, C's memory_order names, and the fence.
#define RUNQCHECK_C11_PORT(B)                                                               \
  template <class T_>                                                                       \
  using runqcheck_c11_atomic = typename B::template atomic<T_>;                             \
  template <class T_, const ::runqcheck::loc* Decl_>                                       \
  using runqcheck_c11_plain =                                                               \
      ::runqcheck::c11::plain<typename B::template var<T_>, T_, Decl_>;                     \
  template <class T_, const ::runqcheck::loc* Decl_>                                       \
  using runqcheck_c11_shared =                                                              \
      ::runqcheck::c11::shared<typename B::template atomic<T_>, T_, Decl_>;                 \
  using runqcheck_c11_mtx = typename B::mutex;                                              \
  using memory_order = std::memory_order;                                                   \
  static constexpr memory_order memory_order_relaxed = std::memory_order::relaxed;          \
  static constexpr memory_order memory_order_consume = std::memory_order::consume;          \
  static constexpr memory_order memory_order_acquire = std::memory_order::acquire;          \
  static constexpr memory_order memory_order_release = std::memory_order::release;          \
  static constexpr memory_order memory_order_acq_rel = std::memory_order::acq_rel;          \
  static constexpr memory_order memory_order_seq_cst = std::memory_order::seq_cst;          \
  static void runqcheck_c11_fence(memory_order mo,                                          \
                                  ::runqcheck::loc l = ::runqcheck::loc::current()) {       \
    B::fence(mo, l);                                                                        \
  }                                                                                         \
  /* The port's abort() (found here before C's): the port's fatal error at its line. */    \
  /* Noreturn as C's: no backend's fatal returns (Relacy's leaves the execution). */        \
  [[noreturn]] static void abort(::runqcheck::loc l_ = ::runqcheck::loc::current()) {       \
    B::fatal(::runqcheck::fatal_info{"abort() called", {}, l_});                            \
    __builtin_unreachable();                                                                \
  }                                                                                         \
  /* The port's assert() (glibc's and musl's call __assert_fail, found here first): */     \
  /* the port's fatal error, as RQ_CHECK, not an abort with no reproducer. */               \
  [[noreturn]] static void __assert_fail(const char* expr_, const char* file_,              \
                                         unsigned line_, const char*) {                     \
    B::fatal(::runqcheck::fatal_info{                                                       \
        expr_, "(assert failed at " + ::runqcheck::c11::base_name(file_) + ":" +            \
                   std::to_string(line_) + ")",                                            \
        ::runqcheck::loc::current()});                                                      \
    __builtin_unreachable();                                                                \
  }
