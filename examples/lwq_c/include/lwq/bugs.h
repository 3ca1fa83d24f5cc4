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

/* lwq_global_get with a peek at the list before taking mu, as Go's
 * findRunnable peeks at sched.runq: in C a data race on `first` with a
 * push under mu (RUNQCHECK_PLAIN makes it one the checkers see). */
static inline LWQ_TASK *lwq_global_get_peek(struct lwq_global *g) {
  if (g->first == NULL) return NULL; /* THE BUG: read without mu */
  return lwq_global_get(g);
}

#endif /* LWQ_BUGS_H */
