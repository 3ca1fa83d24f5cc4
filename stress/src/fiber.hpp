// stress/src/fiber.hpp — G stacks and the switches between a G and its M's
// g0, the only code that touches Boost.Context. Internal to the scheduler.
//
// Stacks: fixed-size, carved from large mmap'd chunks (MAP_NORESERVE, so an
// untouched page costs nothing), recycled through a per-thread cache and a
// global free list (Go: the stack pools of stack.go, much simplified). No
// guard pages: one mprotect'd page per stack would split the mapping into a
// VMA per stack and hit vm.max_map_count at ~65k live Gs; instead a canary at
// the low end of each stack is checked when the stack is returned, so an
// overflow is reported (late) rather than silently corrupting a neighbour.
//
// ThreadSanitizer: every switch is announced first with TSan's fiber API
// (__tsan_switch_to_fiber), so TSan keeps a shadow stack and a vector clock
// per G. fiber.cpp is compiled without TSan instrumentation (cmake/stress.cmake):
// an instrumented frame that spans a switch (Boost's resume(), its fiber
// entry and exit) would push its entry on one fiber's shadow stack and pop
// its exit from another's, and the G's last frames would unbalance g0's. The
// TSan functions are weak symbols, non-null only in a TSan build.
#pragma once

#include <cstddef>

#include <boost/context/stack_context.hpp>

#include "runqcheck/stress/proc.hpp"  // getm

namespace runqcheck::stress {

// Boost.Context StackAllocator over the pool. Any thread may allocate and
// deallocate (Boost deallocates on the g0 that the exiting G resumes).
struct pooled_stack {
  boost::context::stack_context allocate();
  void deallocate(boost::context::stack_context& sc) noexcept;
};

// Bytes of stack memory ever mapped (for the stats line).
std::size_t stack_bytes_mapped();

// g0 of mp: switch to gp (its first run creates its fiber and stack) until
// gp switches back (switch_to_g0, or its function returned). On return,
// gp->ctx holds gp's suspended context, empty if gp's function returned.
void gogo(M* mp, G* gp);
// The running G: switch to its M's g0; returns when some M's gogo resumes
// this G (then getm() is that M).
void switch_to_g0();
// Defined in proc.cpp (instrumented): the G's function and Go's goexit1.
// Runs on the G's stack, from the fiber's entry.
void gentry(G* gp);
// The thread's own TSan fiber (g0), null without TSan.
void* tsan_current_fiber();
// Gives a finished G's TSan fiber back to the pool (kept for the next G:
// creating one maps memory, and TSan allows 8128 at once).
void tsan_fiber_put(void* f);

}  // namespace runqcheck::stress
