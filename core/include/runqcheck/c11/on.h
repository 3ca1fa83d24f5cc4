// runqcheck/c11/on.h — C11's atomics and mutex as macros onto the seam, for
// a C port's header included inside a class template that opens with
// RUNQCHECK_C11_PORT(B) (runqcheck/c11.hpp). No include guard: on.h, the
// port, off.h, as often as needed. A compiler's own C macros of these names
// (clang's <stdatomic.h> defines them in C++ too) are replaced.
#include "off.h"  // no earlier definition of these names stays
#define _Atomic(T) runqcheck_c11_atomic<T>
// A marked field's declaration line, a static member beside it (one marked
// field per line; not in an anonymous struct or union), names its reads.
#define RUNQCHECK_PLAIN(T)                                                              \
  static constexpr ::runqcheck::loc RUNQCHECK_C11_CAT(runqcheck_c11_decl_, __LINE__) = \
      ::runqcheck::loc::current();                                                      \
  runqcheck_c11_plain<T, &RUNQCHECK_C11_CAT(runqcheck_c11_decl_, __LINE__)>
// A field the port reaches with GCC's builtins (and C's syntax, as relaxed accesses);
// `volatile T` (DPDK's ring fields) is T.
#define RUNQCHECK_ATOMIC(T)                                                             \
  static constexpr ::runqcheck::loc RUNQCHECK_C11_CAT(runqcheck_c11_decl_, __LINE__) = \
      ::runqcheck::loc::current();                                                      \
  runqcheck_c11_shared<std::remove_cv_t<T>, &RUNQCHECK_C11_CAT(runqcheck_c11_decl_, __LINE__)>
// A helper's pointer parameter that receives a RUNQCHECK_ATOMIC field's address
// (`static inline uint32_t ld(RUNQCHECK_ATOMIC_PARAM(uint32_t) *p)`): any (a template).
#define RUNQCHECK_ATOMIC_PARAM(T) auto
// Lines for C only (a same-name typedef `typedef struct P P;`, a prototype): a class needs
// none and rejects both (a typedef that changes what P means, a member declared twice).
#define RUNQCHECK_C_ONLY(...)
// A parameter that receives a marked array (RUNQCHECK_PLAIN(T) ring[N] passed as T *ring):
// any marked field's type (the function becomes a template).
#define RUNQCHECK_PLAIN_PARAM(T) auto
// C11's keywords that C++ lacks (g++ or clang++): their C++ spellings.
#define _Static_assert static_assert
#define _Alignas(x) alignas(x)
#define _Alignof(x) alignof(x)
#define _Noreturn __attribute__((__noreturn__))  // anywhere among the specifiers, as in C
#define _Bool bool
#define noreturn _Noreturn  // <stdnoreturn.h>'s spelling (g++'s defines it for C only)
// C11's atomic typedefs, as _Atomic(T).
#define atomic_bool runqcheck_c11_atomic<bool>
#define atomic_char runqcheck_c11_atomic<char>
#define atomic_schar runqcheck_c11_atomic<signed char>
#define atomic_uchar runqcheck_c11_atomic<unsigned char>
#define atomic_short runqcheck_c11_atomic<short>
#define atomic_ushort runqcheck_c11_atomic<unsigned short>
#define atomic_int runqcheck_c11_atomic<int>
#define atomic_uint runqcheck_c11_atomic<unsigned int>
#define atomic_long runqcheck_c11_atomic<long>
#define atomic_ulong runqcheck_c11_atomic<unsigned long>
#define atomic_llong runqcheck_c11_atomic<long long>
#define atomic_ullong runqcheck_c11_atomic<unsigned long long>
#define atomic_intptr_t runqcheck_c11_atomic<intptr_t>
#define atomic_uintptr_t runqcheck_c11_atomic<uintptr_t>
#define atomic_size_t runqcheck_c11_atomic<size_t>
#define atomic_ptrdiff_t runqcheck_c11_atomic<ptrdiff_t>
#define atomic_intmax_t runqcheck_c11_atomic<intmax_t>
#define atomic_uintmax_t runqcheck_c11_atomic<uintmax_t>
#define atomic_int_least8_t runqcheck_c11_atomic<int_least8_t>
#define atomic_uint_least8_t runqcheck_c11_atomic<uint_least8_t>
#define atomic_int_fast8_t runqcheck_c11_atomic<int_fast8_t>
#define atomic_uint_fast8_t runqcheck_c11_atomic<uint_fast8_t>
#define atomic_int_least16_t runqcheck_c11_atomic<int_least16_t>
#define atomic_uint_least16_t runqcheck_c11_atomic<uint_least16_t>
#define atomic_int_fast16_t runqcheck_c11_atomic<int_fast16_t>
#define atomic_uint_fast16_t runqcheck_c11_atomic<uint_fast16_t>
#define atomic_int_least32_t runqcheck_c11_atomic<int_least32_t>
#define atomic_uint_least32_t runqcheck_c11_atomic<uint_least32_t>
#define atomic_int_fast32_t runqcheck_c11_atomic<int_fast32_t>
#define atomic_uint_fast32_t runqcheck_c11_atomic<uint_fast32_t>
#define atomic_int_least64_t runqcheck_c11_atomic<int_least64_t>
#define atomic_uint_least64_t runqcheck_c11_atomic<uint_least64_t>
#define atomic_int_fast64_t runqcheck_c11_atomic<int_fast64_t>
#define atomic_uint_fast64_t runqcheck_c11_atomic<uint_fast64_t>
#define atomic_init(obj, v) ::runqcheck::c11::store((obj), (v), memory_order_relaxed)
#define atomic_load_explicit(obj, mo) ::runqcheck::c11::load((obj), (mo))
#define atomic_load(obj) ::runqcheck::c11::load((obj), ::runqcheck::c11::sc)
#define atomic_store_explicit(obj, v, mo) ::runqcheck::c11::store((obj), (v), (mo))
#define atomic_store(obj, v) ::runqcheck::c11::store((obj), (v), ::runqcheck::c11::sc)
#define atomic_exchange_explicit(obj, v, mo) ::runqcheck::c11::exchange((obj), (v), (mo))
#define atomic_exchange(obj, v) ::runqcheck::c11::exchange((obj), (v), ::runqcheck::c11::sc)
#define atomic_compare_exchange_strong_explicit(obj, exp, v, s, f) \
  ::runqcheck::c11::cas((obj), (exp), (v), (s), (f))
#define atomic_compare_exchange_weak_explicit(obj, exp, v, s, f) \
  ::runqcheck::c11::cas_weak((obj), (exp), (v), (s), (f))
#define atomic_compare_exchange_strong(obj, exp, v) \
  ::runqcheck::c11::cas((obj), (exp), (v), ::runqcheck::c11::sc, ::runqcheck::c11::sc)
#define atomic_compare_exchange_weak(obj, exp, v) \
  ::runqcheck::c11::cas_weak((obj), (exp), (v), ::runqcheck::c11::sc, ::runqcheck::c11::sc)
#define atomic_fetch_add_explicit(obj, d, mo) ::runqcheck::c11::fetch_add((obj), (d), (mo))
#define atomic_fetch_add(obj, d) ::runqcheck::c11::fetch_add((obj), (d), ::runqcheck::c11::sc)
#define atomic_fetch_sub_explicit(obj, d, mo) ::runqcheck::c11::fetch_sub((obj), (d), (mo))
#define atomic_fetch_sub(obj, d) ::runqcheck::c11::fetch_sub((obj), (d), ::runqcheck::c11::sc)
#define atomic_fetch_or_explicit(obj, d, mo) ::runqcheck::c11::fetch_or((obj), (d), (mo))
#define atomic_fetch_or(obj, d) ::runqcheck::c11::fetch_or((obj), (d), ::runqcheck::c11::sc)
#define atomic_fetch_and_explicit(obj, d, mo) ::runqcheck::c11::fetch_and((obj), (d), (mo))
#define atomic_fetch_and(obj, d) ::runqcheck::c11::fetch_and((obj), (d), ::runqcheck::c11::sc)
#define atomic_fetch_xor_explicit(obj, d, mo) ::runqcheck::c11::fetch_xor((obj), (d), (mo))
#define atomic_fetch_xor(obj, d) ::runqcheck::c11::fetch_xor((obj), (d), ::runqcheck::c11::sc)
#define atomic_thread_fence(mo) runqcheck_c11_fence(mo)
#define mtx_t runqcheck_c11_mtx
#define mtx_init(m, type) ::runqcheck::c11::init((m), (type))
#define mtx_destroy(m) ::runqcheck::c11::destroy(m)
#define mtx_lock(m) ::runqcheck::c11::lock(m)
#define mtx_unlock(m) ::runqcheck::c11::unlock(m)
// POSIX's mutex as C11's: onto B::mutex (the attributes are ignored; trylock is not mapped).
#define pthread_mutex_t runqcheck_c11_mtx
#define pthread_mutex_init(m, attr) ::runqcheck::c11::init((m), 0)
#define pthread_mutex_destroy(m) ::runqcheck::c11::destroy_posix(m)
#define pthread_mutex_lock(m) ::runqcheck::c11::lock(m)
#define pthread_mutex_unlock(m) ::runqcheck::c11::unlock(m)
// GCC's builtins (__atomic_*, __sync_*) on a RUNQCHECK_ATOMIC or _Atomic field: the seam's
// operations with the builtin's order (__sync_*: seq_cst; lock_test_and_set: acquire,
// lock_release: release).
#define __atomic_load_n(p, mo) ::runqcheck::c11::load((p), ::runqcheck::c11::gcc_order(mo))
#define __atomic_store_n(p, v, mo) \
  ::runqcheck::c11::store((p), (v), ::runqcheck::c11::gcc_order(mo))
#define __atomic_exchange_n(p, v, mo) \
  ::runqcheck::c11::exchange((p), (v), ::runqcheck::c11::gcc_order(mo))
#define __atomic_compare_exchange_n(p, exp, v, weak, s, f) \
  ::runqcheck::c11::gcc_cas((p), (exp), (v), (weak), (s), (f))
#define __atomic_load(p, ret, mo) ::runqcheck::c11::gcc_load((p), (ret), (mo))
#define __atomic_store(p, v, mo) ::runqcheck::c11::gcc_store((p), (v), (mo))
#define __atomic_exchange(p, v, ret, mo) ::runqcheck::c11::gcc_exchange((p), (v), (ret), (mo))
#define __atomic_compare_exchange(p, exp, v, weak, s, f) \
  ::runqcheck::c11::gcc_cas_ptr((p), (exp), (v), (weak), (s), (f))
#define __atomic_fetch_add(p, d, mo) \
  ::runqcheck::c11::fetch_add((p), (d), ::runqcheck::c11::gcc_order(mo))
#define __atomic_fetch_sub(p, d, mo) \
  ::runqcheck::c11::fetch_sub((p), (d), ::runqcheck::c11::gcc_order(mo))
#define __atomic_add_fetch(p, d, mo) \
  ::runqcheck::c11::add_fetch((p), (d), ::runqcheck::c11::gcc_order(mo))
#define __atomic_sub_fetch(p, d, mo) \
  ::runqcheck::c11::sub_fetch((p), (d), ::runqcheck::c11::gcc_order(mo))
#define __atomic_thread_fence(mo) runqcheck_c11_fence(::runqcheck::c11::gcc_order(mo))
#define __sync_synchronize() runqcheck_c11_fence(::runqcheck::c11::sc)
#define __sync_fetch_and_add(p, d) ::runqcheck::c11::fetch_add((p), (d), ::runqcheck::c11::sc)
#define __sync_fetch_and_sub(p, d) ::runqcheck::c11::fetch_sub((p), (d), ::runqcheck::c11::sc)
#define __sync_add_and_fetch(p, d) ::runqcheck::c11::add_fetch((p), (d), ::runqcheck::c11::sc)
#define __sync_sub_and_fetch(p, d) ::runqcheck::c11::sub_fetch((p), (d), ::runqcheck::c11::sc)
#define __sync_val_compare_and_swap(p, old, v) ::runqcheck::c11::sync_val_cas((p), (old), (v))
#define __sync_bool_compare_and_swap(p, old, v) ::runqcheck::c11::sync_bool_cas((p), (old), (v))
#define __sync_lock_test_and_set(p, v) \
  ::runqcheck::c11::exchange((p), (v), std::memory_order::acquire)
#define __sync_lock_release(p) ::runqcheck::c11::store((p), 0, std::memory_order::release)
#define __atomic_fetch_or(p, d, mo) \
  ::runqcheck::c11::fetch_or((p), (d), ::runqcheck::c11::gcc_order(mo))
#define __atomic_fetch_and(p, d, mo) \
  ::runqcheck::c11::fetch_and((p), (d), ::runqcheck::c11::gcc_order(mo))
#define __atomic_fetch_xor(p, d, mo) \
  ::runqcheck::c11::fetch_xor((p), (d), ::runqcheck::c11::gcc_order(mo))
#define __atomic_or_fetch(p, d, mo) \
  ::runqcheck::c11::or_fetch((p), (d), ::runqcheck::c11::gcc_order(mo))
#define __atomic_and_fetch(p, d, mo) \
  ::runqcheck::c11::and_fetch((p), (d), ::runqcheck::c11::gcc_order(mo))
#define __atomic_xor_fetch(p, d, mo) \
  ::runqcheck::c11::xor_fetch((p), (d), ::runqcheck::c11::gcc_order(mo))
#define __sync_fetch_and_or(p, d) ::runqcheck::c11::fetch_or((p), (d), ::runqcheck::c11::sc)
#define __sync_fetch_and_and(p, d) ::runqcheck::c11::fetch_and((p), (d), ::runqcheck::c11::sc)
#define __sync_fetch_and_xor(p, d) ::runqcheck::c11::fetch_xor((p), (d), ::runqcheck::c11::sc)
#define __sync_or_and_fetch(p, d) ::runqcheck::c11::or_fetch((p), (d), ::runqcheck::c11::sc)
#define __sync_and_and_fetch(p, d) ::runqcheck::c11::and_fetch((p), (d), ::runqcheck::c11::sc)
#define __sync_xor_and_fetch(p, d) ::runqcheck::c11::xor_fetch((p), (d), ::runqcheck::c11::sc)
// Not on the seam: a compile error that names the builtin (c11.hpp, unmapped()).
#define __atomic_fetch_nand(p, ...) ::runqcheck::c11::unmapped("__atomic_fetch_nand", (p))
#define __atomic_nand_fetch(p, ...) ::runqcheck::c11::unmapped("__atomic_nand_fetch", (p))
#define __atomic_test_and_set(p, ...) ::runqcheck::c11::unmapped("__atomic_test_and_set", (p))
#define __atomic_clear(p, ...) ::runqcheck::c11::unmapped("__atomic_clear", (p))
#define __sync_fetch_and_nand(p, ...) ::runqcheck::c11::unmapped("__sync_fetch_and_nand", (p))
#define __sync_nand_and_fetch(p, ...) ::runqcheck::c11::unmapped("__sync_nand_and_fetch", (p))
