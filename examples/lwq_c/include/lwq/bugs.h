/* lwq's real bugs, each a function beside lwq/runq.h's (plain C11 too),
 * named in place of the correct one by lwq/variants.hpp. */
#ifndef LWQ_BUGS_H
#define LWQ_BUGS_H

#include "lwq/runq.h"

/* lwq_empty without its second read of tail. The owner's lwq_put(p, t,
 * true) may move the old next to the ring between our reads of tail and of
 * next: we then see an empty ring and a NULL next, and answer "empty"
 * although p held a task throughout (Go's runqempty re-reads runqtail for
 * this reason). */
static inline bool lwq_empty_once(struct lwq_p *p) {
  uint32_t h = atomic_load_explicit(&p->head, memory_order_acquire); /* acquire: consumers' CAS */
  uint32_t t = atomic_load_explicit(&p->tail, memory_order_acquire); /* acquire: owner's tail */
  LWQ_TASK *n = atomic_load_explicit(&p->next, memory_order_acquire); /* acquire: next's RMWs */
  return h == t && n == NULL; /* THE BUG: tail not read again */
}

/* lwq_global_put reading the list's `last` before taking mu: a data race
 * with a push or pop under mu in another thread (RUNQCHECK_PLAIN makes it
 * one the checkers see), and a lost task if `last` changes meanwhile. */
static inline void lwq_global_put_early(struct lwq_global *g, LWQ_TASK *t) {
  LWQ_TASK *last = g->last; /* THE BUG: read without mu */
  mtx_lock(&g->mu);
  LWQ_TASK_SET_NEXT(t, NULL);
  if (last != NULL) LWQ_TASK_SET_NEXT(last, t);
  else g->first = t;
  g->last = t;
  atomic_fetch_add_explicit(&g->len, 1, memory_order_relaxed); /* relaxed: under mu */
  mtx_unlock(&g->mu);
}

#endif /* LWQ_BUGS_H */
