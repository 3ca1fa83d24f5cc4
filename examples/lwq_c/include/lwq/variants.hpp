// lwq_c's buggy variant, for runqcheck's teeth: lwq/empty_bug.h (plain C11)
// compiled into lwq_c::c_port beside lwq/runq.h, its lwq_empty_once named as
// runqempty.
#pragma once

#define LWQ_C_VARIANT "lwq/empty_bug.h"
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

}  // namespace lwq_c
