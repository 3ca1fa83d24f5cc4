/* lwq/inspect.h — a look at lwq's queues for dumps and checks, in plain C11
 * and in the C idioms a class cannot take as they are: a same-name typedef and
 * a prototype (RUNQCHECK_C_ONLY), a parameter that receives a marked array
 * (RUNQCHECK_PLAIN_PARAM), a "mutex held" query and a second fatal macro
 * (configuration macros the adapter sets). docs/porting.md, section 8.
 * Include after lwq/runq.h.
 */
#ifndef LWQ_INSPECT_H
#define LWQ_INSPECT_H

#ifndef RUNQCHECK_C_ONLY /* runqcheck's markers, for C (runqcheck/c11/on.h's otherwise) */
#define RUNQCHECK_C_ONLY(...) __VA_ARGS__
#define RUNQCHECK_PLAIN_PARAM(T) T
#endif

#ifndef LWQ_MTX_HELD /* C11 cannot ask whether this thread holds a mutex; a build can */
#define LWQ_MTX_HELD(m) ((void)(m), 1)
#endif
#ifndef LWQ_CHECK /* a second fatal macro: a check that stays on */
#define LWQ_CHECK(cond, msg) \
  do {                       \
    if (!(cond)) LWQ_FATAL(msg); \
  } while (0)
#endif

RUNQCHECK_C_ONLY(typedef struct lwq_view lwq_view;)

/* A copy of a P's ring, taken by its owner. */
struct lwq_view {
  RUNQCHECK_PLAIN(LWQ_TASK *) tasks[LWQ_CAP];
  RUNQCHECK_PLAIN(uint32_t) n;
};

RUNQCHECK_C_ONLY(static inline uint32_t lwq_view_fill(RUNQCHECK_PLAIN_PARAM(LWQ_TASK *) *dst,
                                                      struct lwq_p *p);)

/* Owner only. The number of tasks in p's ring, copied to v in order. */
static inline uint32_t lwq_view_take(lwq_view *v, struct lwq_p *p) {
  v->n = lwq_view_fill(v->tasks, p);
  return v->n;
}

static inline uint32_t lwq_view_fill(RUNQCHECK_PLAIN_PARAM(LWQ_TASK *) *dst,
                                     struct lwq_p *p) {
  uint32_t h = atomic_load_explicit(&p->head, memory_order_acquire);
  uint32_t t = atomic_load_explicit(&p->tail, memory_order_relaxed); /* the owner's own */
  uint32_t n = 0;
  LWQ_CHECK(t - h <= LWQ_CAP, "lwq_view: more than LWQ_CAP tasks in the ring");
  for (uint32_t i = h; i != t; i++)
    dst[n++] = atomic_load_explicit(&p->ring[i % LWQ_CAP], memory_order_relaxed);
  return n;
}

/* The shared list's length; the caller holds g->mu. */
static inline int32_t lwq_global_len_locked(struct lwq_global *g) {
  LWQ_CHECK(LWQ_MTX_HELD(&g->mu), "lwq_global_len_locked: g->mu not held");
  return atomic_load_explicit(&g->len, memory_order_relaxed);
}

#endif
