/* lwq — a worker's local run queue in plain C11, after Go's runtime
 * (proc.go, go1.25: runqput, runqputslow, runqputbatch, runqget,
 * runqdrain, runqgrab, runqsteal, runqempty, globrunqput*, (*p).destroy).
 *
 *   - A ring of LWQ_CAP task pointers with free-running 32-bit counters
 *     `head` (consumers advance it by CAS) and `tail` (the owner only);
 *     a slot is counter % LWQ_CAP, tail - head <= LWQ_CAP.
 *   - `next`: the task to run next (Go's runnext); the owner sets it, anyone
 *     may take it by exchange/CAS to NULL.
 *   - A shared list (`struct lwq_global`) under a mutex takes the overflow.
 *
 * The task type is the caller's (LWQ_TASK, linked through LWQ_TASK_NEXT /
 * LWQ_TASK_SET_NEXT for the shared list). Every function is static inline:
 * the header is the whole library. Fields that threads share without
 * _Atomic are marked RUNQCHECK_PLAIN(T): plain T here, a checked variable
 * when runqcheck compiles this header (docs/porting.md, "Ports written in C").
 */
#ifndef LWQ_RUNQ_H
#define LWQ_RUNQ_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <threads.h>

#ifndef LWQ_CAP
#define LWQ_CAP 256u /* a power of two >= 4 */
#endif

#ifndef LWQ_TASK
struct lwq_task {
  struct lwq_task *link; /* the shared list's link; owned by whoever holds the task */
  uint64_t id;
};
#define LWQ_TASK struct lwq_task
#define LWQ_TASK_NEXT(t) ((t)->link)
#define LWQ_TASK_SET_NEXT(t, n) ((t)->link = (n))
#endif

#ifndef LWQ_FATAL
#include <stdio.h>
#include <stdlib.h>
#define LWQ_FATAL(msg) (fprintf(stderr, "lwq: fatal: %s\n", msg), abort())
#endif

#ifndef RUNQCHECK_PLAIN
#define RUNQCHECK_PLAIN(T) T
#endif

struct lwq_global {
  mtx_t mu;
  RUNQCHECK_PLAIN(LWQ_TASK *) first; /* guarded by mu */
  RUNQCHECK_PLAIN(LWQ_TASK *) last;  /* guarded by mu */
  RUNQCHECK_PLAIN(int32_t) nworkers; /* guarded by mu */
  _Atomic(int32_t) len; /* written under mu; lwq_global_peek reads it without */
};

struct lwq_p {
  struct lwq_global *global;
  _Atomic(uint32_t) head;
  _Atomic(uint32_t) tail;
  _Atomic(LWQ_TASK *) ring[LWQ_CAP];
  _Atomic(LWQ_TASK *) next;
};

static inline void lwq_global_init(struct lwq_global *g, int32_t nworkers) {
  mtx_init(&g->mu, mtx_plain);
  g->first = NULL;
  g->last = NULL;
  g->nworkers = nworkers;
  atomic_init(&g->len, 0);
}

static inline void lwq_p_init(struct lwq_p *p, struct lwq_global *g) {
  p->global = g;
  atomic_init(&p->head, 0);
  atomic_init(&p->tail, 0);
  for (uint32_t i = 0; i < LWQ_CAP; i++) atomic_init(&p->ring[i], NULL);
  atomic_init(&p->next, NULL);
}

/* mu held: n tasks linked from `first` to `last` to the list's tail
 * (Go: globrunqputbatch) or head (Go: globrunqputhead, n == 1). */
static inline void lwq_global_push_locked(struct lwq_global *g, LWQ_TASK *first,
                                          LWQ_TASK *last, int32_t n, bool at_head) {
  if (at_head) {
    LWQ_TASK_SET_NEXT(last, g->first);
    g->first = first;
    if (g->last == NULL) g->last = last;
  } else {
    LWQ_TASK_SET_NEXT(last, NULL);
    if (g->last != NULL) LWQ_TASK_SET_NEXT(g->last, first);
    else g->first = first;
    g->last = last;
  }
  /* relaxed: mu orders it; the peek is a hint */
  atomic_fetch_add_explicit(&g->len, n, memory_order_relaxed);
}

/* mu held: the list's head task, or NULL (Go: globrunqget's pop). */
static inline LWQ_TASK *lwq_global_pop_locked(struct lwq_global *g) {
  LWQ_TASK *t = g->first;
  if (t == NULL) return NULL;
  g->first = LWQ_TASK_NEXT(t);
  if (g->first == NULL) g->last = NULL;
  LWQ_TASK_SET_NEXT(t, NULL);
  atomic_fetch_sub_explicit(&g->len, 1, memory_order_relaxed); /* relaxed: as in push */
  return t;
}

static inline void lwq_global_put(struct lwq_global *g, LWQ_TASK *t) {
  mtx_lock(&g->mu);
  lwq_global_push_locked(g, t, t, 1, false);
  mtx_unlock(&g->mu);
}

static inline LWQ_TASK *lwq_global_get(struct lwq_global *g) {
  mtx_lock(&g->mu);
  LWQ_TASK *t = lwq_global_pop_locked(g);
  mtx_unlock(&g->mu);
  return t;
}

static inline int32_t lwq_global_len(struct lwq_global *g) {
  mtx_lock(&g->mu);
  int32_t n = atomic_load_explicit(&g->len, memory_order_relaxed); /* relaxed: under mu */
  mtx_unlock(&g->mu);
  return n;
}

/* Without mu: a length that was true at some recent moment (for reports). */
static inline int32_t lwq_global_peek(struct lwq_global *g) {
  return atomic_load_explicit(&g->len, memory_order_relaxed); /* relaxed: a hint */
}

static inline void lwq_global_set_workers(struct lwq_global *g, int32_t n) {
  mtx_lock(&g->mu);
  g->nworkers = n;
  mtx_unlock(&g->mu);
}

/* Any thread: true only if p had no task at some moment of the call. The
 * tail is read again: a `next` kicked into the ring between the reads of
 * tail and next would otherwise be missed (Go: runqempty). */
static inline bool lwq_empty(struct lwq_p *p) {
  for (;;) {
    uint32_t h = atomic_load_explicit(&p->head, memory_order_acquire); /* acquire: consumers' CAS */
    uint32_t t = atomic_load_explicit(&p->tail, memory_order_acquire); /* acquire: owner's tail */
    LWQ_TASK *n = atomic_load_explicit(&p->next, memory_order_acquire); /* acquire: next's RMWs */
    if (t == atomic_load_explicit(&p->tail, memory_order_acquire)) /* acquire: as above */
      return h == t && n == NULL;
  }
}

/* Owner: the oldest half of a full ring and t to the shared list; false if
 * a consumer moved head meanwhile (Go: runqputslow). */
static inline bool lwq_put_slow(struct lwq_p *p, LWQ_TASK *t, uint32_t h, uint32_t tl) {
  LWQ_TASK *batch[LWQ_CAP / 2 + 1];
  uint32_t n = (tl - h) / 2;
  if (n != LWQ_CAP / 2) LWQ_FATAL("lwq_put_slow: ring is not full");
  for (uint32_t i = 0; i < n; i++)
    batch[i] = atomic_load_explicit(&p->ring[(h + i) % LWQ_CAP], memory_order_relaxed);
  /* release: our slot reads happen before the owner reuses the slots */
  if (!atomic_compare_exchange_strong_explicit(&p->head, &h, h + n, memory_order_release,
                                               memory_order_relaxed))
    return false;
  batch[n] = t;
  for (uint32_t i = 0; i < n; i++) LWQ_TASK_SET_NEXT(batch[i], batch[i + 1]);
  mtx_lock(&p->global->mu);
  lwq_global_push_locked(p->global, batch[0], batch[n], (int32_t)n + 1, false);
  mtx_unlock(&p->global->mu);
  return true;
}

/* Owner: t at the ring's tail, or with as_next as the next task, the old
 * next going to the tail (Go: runqput). */
static inline void lwq_put(struct lwq_p *p, LWQ_TASK *t, bool as_next) {
  if (as_next) {
    /* acq_rel: release publishes t to a thief's acquire; acquire: a thief's NULL */
    LWQ_TASK *old = atomic_exchange_explicit(&p->next, t, memory_order_acq_rel);
    if (old == NULL) return;
    t = old;
  }
  for (;;) {
    /* acquire: consumers' slot reads happen before our overwrite */
    uint32_t h = atomic_load_explicit(&p->head, memory_order_acquire);
    uint32_t tl = atomic_load_explicit(&p->tail, memory_order_relaxed); /* relaxed: ours */
    if (tl - h < LWQ_CAP) {
      atomic_store_explicit(&p->ring[tl % LWQ_CAP], t, memory_order_relaxed); /* published below */
      atomic_store_explicit(&p->tail, tl + 1, memory_order_release); /* release: the slot */
      return;
    }
    if (lwq_put_slow(p, t, h, tl)) return;
  }
}

/* Owner: ts[0..n) in order while they fit; returns how many (Go:
 * runqputbatch). */
static inline uint32_t lwq_put_batch(struct lwq_p *p, LWQ_TASK *const *ts, uint32_t n) {
  uint32_t h = atomic_load_explicit(&p->head, memory_order_acquire); /* acquire: as in lwq_put */
  uint32_t tl = atomic_load_explicit(&p->tail, memory_order_relaxed); /* relaxed: ours */
  uint32_t k = 0;
  for (; k < n && tl - h < LWQ_CAP; k++, tl++)
    atomic_store_explicit(&p->ring[tl % LWQ_CAP], ts[k], memory_order_relaxed); /* below */
  atomic_store_explicit(&p->tail, tl, memory_order_release); /* release: the slots */
  return k;
}

/* Owner: the next task (*inherit = true), else the ring's head (Go:
 * runqget). */
static inline LWQ_TASK *lwq_get(struct lwq_p *p, bool *inherit) {
  /* relaxed: only the owner sets a task there; the exchange below decides */
  if (atomic_load_explicit(&p->next, memory_order_relaxed) != NULL) {
    /* acq_rel: as in lwq_put; NULL if a thief took it first */
    LWQ_TASK *n = atomic_exchange_explicit(&p->next, NULL, memory_order_acq_rel);
    if (n != NULL) {
      *inherit = true;
      return n;
    }
  }
  *inherit = false;
  for (;;) {
    uint32_t h = atomic_load_explicit(&p->head, memory_order_acquire); /* acquire: consumers */
    uint32_t tl = atomic_load_explicit(&p->tail, memory_order_relaxed); /* relaxed: ours */
    if (tl == h) return NULL;
    LWQ_TASK *t = atomic_load_explicit(&p->ring[h % LWQ_CAP], memory_order_relaxed);
    /* release: our slot read happens before the slot is reused */
    if (atomic_compare_exchange_strong_explicit(&p->head, &h, h + 1, memory_order_release,
                                                memory_order_relaxed))
      return t;
  }
}

/* Owner: every task into out[] (LWQ_CAP + 1 room), next first, then the
 * ring in order; returns how many (Go: runqdrain). */
static inline uint32_t lwq_drain(struct lwq_p *p, LWQ_TASK **out) {
  uint32_t k = 0;
  /* acq_rel: as in lwq_get */
  LWQ_TASK *n = atomic_exchange_explicit(&p->next, NULL, memory_order_acq_rel);
  if (n != NULL) out[k++] = n;
  for (;;) {
    uint32_t h = atomic_load_explicit(&p->head, memory_order_acquire); /* acquire: consumers */
    uint32_t tl = atomic_load_explicit(&p->tail, memory_order_relaxed); /* relaxed: ours */
    uint32_t qn = tl - h;
    if (qn == 0) return k;
    if (qn > LWQ_CAP) continue; /* head moved past a stale read */
    /* release: as in lwq_get; the slots are read after, only we write them */
    if (!atomic_compare_exchange_strong_explicit(&p->head, &h, h + qn, memory_order_release,
                                                 memory_order_relaxed))
      continue;
    for (uint32_t i = 0; i < qn; i++)
      out[k++] = atomic_load_explicit(&p->ring[(h + i) % LWQ_CAP], memory_order_relaxed);
    return k;
  }
}

/* Any thread: half of v's ring (rounded up) copied into to's free slots
 * from to's tail, or v's next alone when the ring is empty and take_next;
 * returns how many (Go: runqgrab, without its usleep: lwq has no status). */
static inline uint32_t lwq_grab(struct lwq_p *v, struct lwq_p *to, bool take_next) {
  uint32_t base = atomic_load_explicit(&to->tail, memory_order_relaxed); /* relaxed: ours */
  for (;;) {
    uint32_t h = atomic_load_explicit(&v->head, memory_order_acquire); /* acquire: consumers */
    uint32_t tl = atomic_load_explicit(&v->tail, memory_order_acquire); /* acquire: v's owner */
    uint32_t n = tl - h;
    n = n - n / 2;
    if (n == 0) {
      if (!take_next) return 0;
      /* acquire: the owner's exchange that published it */
      LWQ_TASK *nx = atomic_load_explicit(&v->next, memory_order_acquire);
      if (nx == NULL) return 0;
      /* acq_rel: acquire the task from the owner's release; release for lwq_empty */
      if (!atomic_compare_exchange_strong_explicit(&v->next, &nx, NULL, memory_order_acq_rel,
                                                   memory_order_relaxed))
        continue;
      atomic_store_explicit(&to->ring[base % LWQ_CAP], nx, memory_order_relaxed); /* ours */
      return 1;
    }
    if (n > LWQ_CAP / 2) continue; /* h and tl read at different times */
    for (uint32_t i = 0; i < n; i++) {
      LWQ_TASK *t = atomic_load_explicit(&v->ring[(h + i) % LWQ_CAP], memory_order_relaxed);
      atomic_store_explicit(&to->ring[(base + i) % LWQ_CAP], t, memory_order_relaxed); /* ours */
    }
    /* release: our slot reads happen before v's owner reuses them */
    if (atomic_compare_exchange_strong_explicit(&v->head, &h, h + n, memory_order_release,
                                                memory_order_relaxed))
      return n;
  }
}

/* p's owner: steals from v into p's ring and returns one task, or NULL
 * (Go: runqsteal). */
static inline LWQ_TASK *lwq_steal(struct lwq_p *p, struct lwq_p *v, bool take_next) {
  uint32_t tl = atomic_load_explicit(&p->tail, memory_order_relaxed); /* relaxed: ours */
  uint32_t n = lwq_grab(v, p, take_next);
  if (n == 0) return NULL;
  n--;
  LWQ_TASK *t = atomic_load_explicit(&p->ring[(tl + n) % LWQ_CAP], memory_order_relaxed);
  if (n == 0) return t;
  uint32_t h = atomic_load_explicit(&p->head, memory_order_acquire); /* acquire: consumers */
  if (tl - h + n >= LWQ_CAP) LWQ_FATAL("lwq_steal: ring overflow");
  atomic_store_explicit(&p->tail, tl + n, memory_order_release); /* release: the stolen slots */
  return t;
}

/* Owner, empty ring: n = min(LWQ_CAP/2, len, len/nworkers + 1) tasks off
 * the shared list's head; the first is returned, the rest go to the ring
 * (Go: findRunnable's globrunqgetbatch + runqputbatch). */
static inline LWQ_TASK *lwq_take_global(struct lwq_p *p) {
  LWQ_TASK *batch[LWQ_CAP / 2];
  struct lwq_global *g = p->global;
  mtx_lock(&g->mu);
  int32_t len = atomic_load_explicit(&g->len, memory_order_relaxed); /* relaxed: under mu */
  int32_t n = len / g->nworkers + 1;
  if (n > len) n = len;
  if (n > (int32_t)(LWQ_CAP / 2)) n = (int32_t)(LWQ_CAP / 2);
  for (int32_t i = 0; i < n; i++) batch[i] = lwq_global_pop_locked(g);
  mtx_unlock(&g->mu);
  if (n == 0) return NULL;
  uint32_t put = lwq_put_batch(p, batch + 1, (uint32_t)n - 1);
  if (put != (uint32_t)n - 1) LWQ_FATAL("lwq_take_global: the batch did not fit the ring");
  return batch[0];
}

/* Every other worker stopped: p's tasks to the shared list's head, next
 * first, then the ring oldest first (Go: (*p).destroy). */
static inline void lwq_release(struct lwq_p *p) {
  LWQ_TASK *all[LWQ_CAP + 1];
  uint32_t n = lwq_drain(p, all);
  if (n == 0) return;
  for (uint32_t i = 0; i + 1 < n; i++) LWQ_TASK_SET_NEXT(all[i], all[i + 1]);
  mtx_lock(&p->global->mu);
  lwq_global_push_locked(p->global, all[0], all[n - 1], (int32_t)n, true);
  mtx_unlock(&p->global->mu);
}

#endif /* LWQ_RUNQ_H */
