/* A C11 port's header using C's library as C code does: <assert.h>, <string.h>,
 * <stdio.h>, <stdlib.h>, <stdalign.h> and <stdnoreturn.h> included by the header itself,
 * assert() for an invariant, C11's keywords that C++ lacks, an atomic typedef (atomic_uint)
 * and a POSIX mutex. */
#ifndef LIBC_PORT_H
#define LIBC_PORT_H

#include <assert.h>
#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>

_Static_assert(sizeof(uint32_t) == 4, "uint32_t");

struct lp_counter {
  _Alignas(64) _Atomic(uint32_t) n;
  char name[16];
  _Bool named;
  atomic_uint calls; /* C11's typedef form */
  pthread_mutex_t mu; /* guards total */
  uint32_t total;
};

static _Noreturn void lp_die(const char *why) {
  fprintf(stderr, "lp: %s\n", why);
  abort();
}

static noreturn void lp_die_again(void) { lp_die("again"); }

static inline void lp_init(struct lp_counter *c, const char *name) {
  memset(c->name, 0, sizeof c->name);
  strncpy(c->name, name, sizeof c->name - 1);
  atomic_init(&c->n, 0);
  c->named = name[0] != 0;
  atomic_init(&c->calls, 0);
  pthread_mutex_init(&c->mu, NULL);
  c->total = 0;
  if (_Alignof(struct lp_counter) < 64) lp_die("not aligned");
}

/* Adds d; at most 10 in all (an invariant, asserted). */
static inline uint32_t lp_add(struct lp_counter *c, uint32_t d) {
  uint32_t v = atomic_fetch_add_explicit(&c->n, d, memory_order_relaxed) + d;
  atomic_fetch_add(&c->calls, 1);
  assert(v <= 10);
  pthread_mutex_lock(&c->mu);
  c->total += d;
  pthread_mutex_unlock(&c->mu);
  return v;
}

#endif
