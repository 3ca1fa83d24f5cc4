// lwq_c's buggy variants, for runqcheck's teeth: lwq/bugs.h (plain C11)
// compiled into lwq_c::c_port beside lwq/runq.h, each bug named in place of
// the correct function.
#pragma once

#define LWQ_C_VARIANT "lwq/bugs.h"
#include "lwq/subject.hpp"
#undef LWQ_C_VARIANT

namespace lwq_c {

// runqempty without the tail re-read: rejected by Relacy's check that
// runqempty is never true while the P held a G (ci/test).
template <class B, std::uint32_t Cap>
struct empty_bug : runq<B, Cap> {
  static bool runqempty(typename runq<B, Cap>::p& pp) {
    return c_port<B, Cap>::lwq_empty_once(&pp);
  }
};

// globrunqput reading the list's tail without its lock: a data race on a
// RUNQCHECK_PLAIN field, rejected by Relacy (ci/test).
template <class B, std::uint32_t Cap>
struct race_bug : runq<B, Cap> {
  static void globrunqput(typename runq<B, Cap>::schedt& s, runqcheck::g<B>* gp) {
    c_port<B, Cap>::lwq_global_put_early(&s, gp);
  }
};

}  // namespace lwq_c
