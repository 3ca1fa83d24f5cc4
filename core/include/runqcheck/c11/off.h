// runqcheck/c11/off.h — removes on.h's macros (the harness's own code, and
// relacy.hpp, use these names). No include guard: on.h includes it too.
#undef _Atomic
#undef RUNQCHECK_PLAIN
#undef RUNQCHECK_PLAIN_PARAM
#undef RUNQCHECK_C_ONLY
#undef _Static_assert
#undef _Alignas
#undef _Alignof
#undef _Noreturn
#undef _Bool
#undef noreturn  // clang's <stdnoreturn.h> defines it in C++ too (it would rewrite [[noreturn]])
#undef atomic_init
#undef atomic_load_explicit
#undef atomic_load
#undef atomic_store_explicit
#undef atomic_store
#undef atomic_exchange_explicit
#undef atomic_exchange
#undef atomic_compare_exchange_strong_explicit
#undef atomic_compare_exchange_weak_explicit
#undef atomic_compare_exchange_strong
#undef atomic_compare_exchange_weak
#undef atomic_fetch_add_explicit
#undef atomic_fetch_add
#undef atomic_fetch_sub_explicit
#undef atomic_fetch_sub
#undef atomic_thread_fence
#undef mtx_t
#undef mtx_init
#undef mtx_destroy
#undef mtx_lock
#undef mtx_unlock
#undef pthread_mutex_t
#undef pthread_mutex_init
#undef pthread_mutex_destroy
#undef pthread_mutex_lock
#undef pthread_mutex_unlock
