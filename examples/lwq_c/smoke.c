/* lwq on its own, as a C11 program (no runqcheck): one thread's puts past a
 * full ring (the spill), a view of the ring and the list's length
 * (lwq/inspect.h), a steal, gets, the shared list and a release; every task
 * must come back exactly once, and the queues end empty. */
#include <stdio.h>
#include <stdlib.h>

#include "lwq/bugs.h"
#include "lwq/inspect.h"
#include "lwq/runq.h"

#define N 600

static struct lwq_task tasks[N];
static int seen[N];
static int got;

static void see(struct lwq_task *t) {
  if (t == NULL) return;
  if (t->id >= N || seen[t->id]++) {
    fprintf(stderr, "lwq smoke: task %llu delivered twice\n", (unsigned long long)t->id);
    exit(1);
  }
  got++;
}

static void get_all(struct lwq_p *p) {
  bool inherit;
  struct lwq_task *t;
  while ((t = lwq_get(p, &inherit)) != NULL) see(t);
}

int main(void) {
  struct lwq_global g;
  static struct lwq_p p0, p1;
  lwq_global_init(&g, 2);
  lwq_p_init(&p0, &g);
  lwq_p_init(&p1, &g);
  for (int i = 0; i < N; i++) {
    tasks[i].id = (uint64_t)i;
    lwq_put(&p0, &tasks[i], i % 7 == 0);
  }
  static lwq_view v; /* lwq/inspect.h: p0's ring, in order */
  uint32_t in_ring = atomic_load(&p0.tail) - atomic_load(&p0.head);
  if (lwq_view_take(&v, &p0) != in_ring || in_ring == 0 || v.tasks[in_ring - 1] == NULL) {
    fprintf(stderr, "lwq smoke: a view of %u tasks, the ring holds %u\n", (unsigned)v.n,
            (unsigned)in_ring);
    return 1;
  }
  mtx_lock(&g.mu);
  int32_t spilled = lwq_global_len_locked(&g);
  mtx_unlock(&g.mu);
  if (spilled <= 0) {
    fprintf(stderr, "lwq smoke: %d tasks in the list after a spill\n", (int)spilled);
    return 1;
  }
  see(lwq_steal(&p1, &p0, true));
  lwq_release(&p1); /* p1's stolen half to the list's head */
  get_all(&p0);
  for (struct lwq_task *t; (t = lwq_take_global(&p0)) != NULL;) {
    see(t);
    get_all(&p0);
  }
  lwq_global_put_early(&g, &tasks[0]); /* one thread: no race, no loss */
  bool empty = lwq_empty(&p0) && lwq_empty(&p1) && lwq_empty_once(&p0) &&
               lwq_global_get(&g) == &tasks[0] && lwq_global_get(&g) == NULL;
  if (got != N || !empty || lwq_global_len(&g) != 0) {
    fprintf(stderr, "lwq smoke: %d of %d tasks back, empty=%d, list %d\n", got, N, empty,
            (int)lwq_global_len(&g));
    return 1;
  }
  mtx_destroy(&g.mu);
  printf("lwq smoke: %d tasks back once each\n", got);
  return 0;
}
