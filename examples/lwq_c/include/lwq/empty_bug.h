/* lwq with a real bug: lwq_empty_once is lwq_empty without its second read
 * of tail. The owner's lwq_put(p, t, true) may move the old next to the
 * ring between our reads of tail and of next: we then see an empty ring
 * and a NULL next, and answer "empty" although p held a task throughout
 * (Go's runqempty re-reads runqtail for this reason). Plain C11, like
 * lwq/runq.h. */
#ifndef LWQ_EMPTY_BUG_H
#define LWQ_EMPTY_BUG_H

#include "lwq/runq.h"

static inline bool lwq_empty_once(struct lwq_p *p) {
  uint32_t h = atomic_load_explicit(&p->head, memory_order_acquire); /* acquire: consumers' CAS */
  uint32_t t = atomic_load_explicit(&p->tail, memory_order_acquire); /* acquire: owner's tail */
  LWQ_TASK *n = atomic_load_explicit(&p->next, memory_order_acquire); /* acquire: next's RMWs */
  return h == t && n == NULL; /* THE BUG: tail not read again */
}

#endif /* LWQ_EMPTY_BUG_H */
