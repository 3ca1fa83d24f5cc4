// lwq_c::runq — the adapter that names lwq's C functions (lwq/runq.h, plain
// C11) as runqcheck's subject operations. The C header is compiled inside
// lwq_c::c_port<B, Cap> on the checker's backend through runqcheck/c11.hpp;
// this file is the only C++ the port needs.
#pragma once

#include <stdio.h>
#include <stdlib.h>

#include <cstdint>
#include <string>

#include <runqcheck/c11.hpp>
#include <runqcheck/subject.hpp>

namespace lwq_c {

// lwq/runq.h and lwq/inspect.h on backend B at capacity Cap: their structs and
// functions as members (static inline functions become static member functions),
// with lwq's configuration macros (capacity, task type and link, both fatal
// macros, the "mutex held" query) set to runqcheck's; and the C header
// LWQ_C_VARIANT names, if any (lwq/variants.hpp).
template <class B, std::uint32_t Cap>
struct c_port {
  RUNQCHECK_C11_PORT(B)
  using G = runqcheck::g<B>;
#define LWQ_CAP Cap
#define LWQ_TASK G
#define LWQ_TASK_NEXT(t) ((t)->schedlink.load())
#define LWQ_TASK_SET_NEXT(t, n) ((t)->schedlink.store(n))
#define LWQ_FATAL(msg) RQ_CHECK(B, false, msg)
#define LWQ_CHECK(cond, msg) RQ_CHECK(B, cond, msg)
#define LWQ_MTX_HELD(m) ((m)->held_by_me())  // B::mutex knows its holder
#include <runqcheck/c11/on.h>
#include "lwq/runq.h"
#include "lwq/inspect.h"
#ifdef LWQ_C_VARIANT
#include LWQ_C_VARIANT
#endif
#include <runqcheck/c11/off.h>
#undef LWQ_CAP
#undef LWQ_TASK
#undef LWQ_TASK_NEXT
#undef LWQ_TASK_SET_NEXT
#undef LWQ_FATAL
#undef LWQ_CHECK
#undef LWQ_MTX_HELD
};

// The subject: runqcheck's operations on lwq's.
template <class B, std::uint32_t Cap>
struct runq {
  using S = c_port<B, Cap>;
  using G = runqcheck::g<B>;
  static constexpr const char* name = "lwq-c";
  struct schedt : S::lwq_global {
    explicit schedt(std::int32_t n) { S::lwq_global_init(this, n); }
  };
  struct p : S::lwq_p {
    p(schedt& s, std::int32_t) { S::lwq_p_init(this, &s); }
  };
  struct got {
    G* gp;
    bool inheritTime;
  };

  static bool runqempty(p& pp) { return S::lwq_empty(&pp); }
  static void runqput(p& pp, G* gp, bool next) { S::lwq_put(&pp, gp, next); }
  static void runqputbatch(p& pp, runqcheck::gQueue<B>& q) {
    G* ts[Cap];
    std::uint32_t n = 0;
    while (n < Cap && !q.empty()) ts[n++] = q.pop();
    std::uint32_t k = S::lwq_put_batch(&pp, ts, n);
    while (n > k) q.push(ts[--n]);  // the rest back at q's head, in order
  }
  static got runqget(p& pp) {
    bool inherit = false;
    G* gp = S::lwq_get(&pp, &inherit);
    return {gp, inherit};
  }
  static runqcheck::gQueue<B> runqdrain(p& pp) {
    G* all[Cap + 1];
    std::uint32_t n = S::lwq_drain(&pp, all);
    runqcheck::gQueue<B> q;
    for (std::uint32_t i = 0; i < n; i++) q.pushBack(all[i]);
    return q;
  }
  static G* runqsteal(p& pp, p& p2, bool stealRunNextG) {
    return S::lwq_steal(&pp, &p2, stealRunNextG);
  }
  static void globrunqput(schedt& s, G* gp) { S::lwq_global_put(&s, gp); }
  static G* globrunqget(schedt& s) { return S::lwq_global_get(&s); }
  static std::int32_t globrunqsize(schedt& s) { return S::lwq_global_len(&s); }
  static G* findRunnable_globrunq(p& pp) { return S::lwq_take_global(&pp); }
  static void destroy(p& pp) { S::lwq_release(&pp); }

  // Hooks (runqcheck/subject.hpp): lwq's fields, relaxed.
  static constexpr auto relaxed = std::memory_order::relaxed;
  static runqcheck::runq_counters runq_counters(p& pp) {
    return {pp.head.load(relaxed), pp.tail.load(relaxed)};
  }
  static void set_runq_counters(p& pp, std::uint32_t v) {
    pp.head.store(v, relaxed);
    pp.tail.store(v, relaxed);
  }
  static void set_gomaxprocs(schedt& s, std::int32_t n) { S::lwq_global_set_workers(&s, n); }
  static std::string describe_p(p& pp) {
    std::uint32_t h = pp.head.load(relaxed), t = pp.tail.load(relaxed);
    std::string out = "head=" + std::to_string(h) + " tail=" + std::to_string(t) +
                      " next=" + gname(pp.next.load(relaxed)) + " ring=[";
    for (std::uint32_t i = h; i != t && i - h < Cap; i++)
      out += (i == h ? "" : " ") + gname(pp.ring[i % Cap].load(relaxed));
    return out + "]";
  }
  static std::string describe_sched(schedt& s) {  // without mu (lwq_global_peek)
    return "global len=" + std::to_string(S::lwq_global_peek(&s));
  }
  static std::string gname(G* gp) { return gp == nullptr ? "nil" : "G" + std::to_string(gp->goid); }
};

}  // namespace lwq_c
