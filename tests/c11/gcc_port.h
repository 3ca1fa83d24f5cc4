/* A C port's header in GCC's builtin style (as DPDK's rings or liburcu are written):
 * plain fields reached with the __atomic and __sync builtins, marked RUNQCHECK_ATOMIC(T)
 * (plain T in C), and a plain payload marked RUNQCHECK_PLAIN(T). Message passing:
 * gp_publish writes the payload, then releases `ready`; gp_consume acquires `ready`,
 * then reads the payload. GP_PUBLISH_ORDER and GP_CONSUME_ORDER are the two orders (a
 * test sets them relaxed: the teeth). gp_set_flag sets a bit of a flag word (a bitwise
 * RMW); gp_exercise calls every mapped builtin once. */
#ifndef GCC_PORT_H
#define GCC_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifndef RUNQCHECK_ATOMIC
#define RUNQCHECK_ATOMIC(T) T
#endif
#ifndef RUNQCHECK_PLAIN
#define RUNQCHECK_PLAIN(T) T
#endif
#ifndef RUNQCHECK_ATOMIC_PARAM
#define RUNQCHECK_ATOMIC_PARAM(T) T
#endif
/* The kernel's and liburcu's spelling of a racy (relaxed) access. */
#define GP_READ_ONCE(x) (*(volatile __typeof__(x) *)&(x))
#define GP_WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
#ifndef GP_PUBLISH_ORDER
#define GP_PUBLISH_ORDER __ATOMIC_RELEASE
#endif
#ifndef GP_CONSUME_ORDER
#define GP_CONSUME_ORDER __ATOMIC_ACQUIRE
#endif

struct gp_box {
  RUNQCHECK_PLAIN(uint32_t) payload; /* published by ready */
  RUNQCHECK_ATOMIC(uint32_t) ready;
  RUNQCHECK_ATOMIC(uint32_t) n;
  RUNQCHECK_ATOMIC(struct gp_box *) link;
  RUNQCHECK_ATOMIC(volatile uint32_t) vol; /* DPDK's rings declare head and tail so */
};

/* A DPDK-style helper on a field's address. */
static inline uint32_t gp_load_acquire(RUNQCHECK_ATOMIC_PARAM(volatile uint32_t) *p) {
  return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline void gp_init(struct gp_box *b) {
  b->payload = 0;
  b->ready = 0; /* C's syntax: a relaxed store under the harness */
  __atomic_store_n(&b->n, 0, __ATOMIC_RELAXED);
  b->link = NULL;
  b->vol = 0;
}

static inline void gp_publish(struct gp_box *b, uint32_t v) {
  b->payload = v;
  __atomic_store_n(&b->ready, 1, GP_PUBLISH_ORDER);
}

static inline bool gp_consume(struct gp_box *b, uint32_t *out) {
  if (__atomic_load_n(&b->ready, GP_CONSUME_ORDER) == 0) return false;
  *out = b->payload;
  return true;
}

/* Sets `bit` in n (a flag word several threads set bits of); the word before. */
static inline uint32_t gp_set_flag(struct gp_box *b, uint32_t bit) {
  return __atomic_fetch_or(&b->n, bit, __ATOMIC_RELAXED);
}

/* Every mapped builtin once, on one thread; the values each returned, in order (at most
 * 64). */
static inline int gp_exercise(struct gp_box *b, uint32_t *got) {
  int k = 0;
  uint32_t e, v, r;
  struct gp_box *p;
  got[k++] = __atomic_fetch_add(&b->n, 5, __ATOMIC_ACQ_REL);      /* 0 */
  got[k++] = __atomic_add_fetch(&b->n, 2, __ATOMIC_SEQ_CST);      /* 7 */
  got[k++] = __atomic_fetch_sub(&b->n, 1, __ATOMIC_RELEASE);      /* 7 */
  got[k++] = __atomic_sub_fetch(&b->n, 1, __ATOMIC_RELAXED);      /* 5 */
  got[k++] = __atomic_exchange_n(&b->n, 9, __ATOMIC_ACQUIRE);     /* 5 */
  e = 8;
  got[k++] = __atomic_compare_exchange_n(&b->n, &e, 1, false, __ATOMIC_SEQ_CST,
                                         __ATOMIC_RELAXED);       /* 0 */
  got[k++] = e;                                                   /* 9 */
  got[k++] = __atomic_compare_exchange_n(&b->n, &e, 1, false, __ATOMIC_ACQ_REL,
                                         __ATOMIC_ACQUIRE);       /* 1 */
  __atomic_load(&b->n, &r, __ATOMIC_ACQUIRE);
  got[k++] = r;                                                   /* 1 */
  v = 4;
  __atomic_store(&b->n, &v, __ATOMIC_RELEASE);
  v = 6;
  __atomic_exchange(&b->n, &v, &r, __ATOMIC_ACQ_REL);
  got[k++] = r;                                                   /* 4 */
  e = 6;
  v = 3;
  got[k++] = __atomic_compare_exchange(&b->n, &e, &v, true, __ATOMIC_SEQ_CST,
                                       __ATOMIC_SEQ_CST) || e == 6; /* 1 */
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  __atomic_store_n(&b->n, 10, __ATOMIC_SEQ_CST);
  got[k++] = __sync_fetch_and_add(&b->n, 1);                      /* 10 */
  got[k++] = __sync_add_and_fetch(&b->n, 1);                      /* 12 */
  got[k++] = __sync_fetch_and_sub(&b->n, 2);                      /* 12 */
  got[k++] = __sync_sub_and_fetch(&b->n, 2);                      /* 8 */
  got[k++] = __sync_val_compare_and_swap(&b->n, 7, 1);            /* 8 */
  got[k++] = __sync_bool_compare_and_swap(&b->n, 8, 2);           /* 1 */
  __sync_synchronize();
  got[k++] = __sync_lock_test_and_set(&b->n, 1);                  /* 2 */
  __sync_lock_release(&b->n);
  got[k++] = b->n;                                                /* 0: C's syntax */
  b->n += 3;
  b->n++;
  got[k++] = __atomic_load_n(&b->n, __ATOMIC_RELAXED);            /* 4 */
  got[k++] = __atomic_fetch_or(&b->n, 8, __ATOMIC_RELAXED);       /* 4 */
  got[k++] = __atomic_and_fetch(&b->n, 6, __ATOMIC_ACQ_REL);      /* 4 */
  got[k++] = __atomic_fetch_xor(&b->n, 5, __ATOMIC_SEQ_CST);      /* 4 */
  got[k++] = __atomic_or_fetch(&b->n, 6, __ATOMIC_RELEASE);       /* 7 */
  got[k++] = __atomic_fetch_and(&b->n, 3, __ATOMIC_ACQUIRE);      /* 7 */
  got[k++] = __atomic_xor_fetch(&b->n, 1, __ATOMIC_RELAXED);      /* 2 */
  got[k++] = __sync_fetch_and_or(&b->n, 1);                       /* 2 */
  got[k++] = __sync_and_and_fetch(&b->n, 2);                      /* 2 */
  got[k++] = __sync_fetch_and_xor(&b->n, 7);                      /* 2 */
  got[k++] = __sync_or_and_fetch(&b->n, 8);                       /* 13 */
  got[k++] = __sync_fetch_and_and(&b->n, 12);                     /* 13 */
  got[k++] = __sync_xor_and_fetch(&b->n, 15);                     /* 3 */
  GP_WRITE_ONCE(b->vol, 5);
  got[k++] = GP_READ_ONCE(b->vol);                                /* 5 */
  __atomic_store_n(&b->vol, 6, __ATOMIC_RELEASE);
  got[k++] = gp_load_acquire(&b->vol);                            /* 6 */
  got[k++] = gp_load_acquire(&b->n);                              /* 3 */
  __atomic_store_n(&b->link, b, __ATOMIC_RELEASE);
  p = __atomic_load_n(&b->link, __ATOMIC_ACQUIRE);
  got[k++] = p == b;                                              /* 1 */
  return k;
}

#endif
