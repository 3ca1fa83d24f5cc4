// stress/src/fiber.hpp — G stacks and the sanitizer's view of fiber switches.
//
// Stacks: fixed-size, carved from large mmap'd chunks (MAP_NORESERVE, so an
// untouched page costs nothing), recycled through a per-thread cache and a
// global free list (Go: the stack pools of stack.go, much simplified). No
// guard pages: one mprotect'd page per stack would split the mapping into a
// VMA per stack and hit vm.max_map_count at ~65k live Gs; instead a canary at
// the low end of each stack is checked when the stack is returned, so an
// overflow is reported (late) rather than silently corrupting a neighbour.
// Internal to the stress scheduler (proc.cpp).
#pragma once

#include <cstddef>

#include <boost/context/stack_context.hpp>

#if defined(__SANITIZE_THREAD__)
#define RUNQCHECK_STRESS_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RUNQCHECK_STRESS_TSAN 1
#endif
#endif

#ifdef RUNQCHECK_STRESS_TSAN
#include <sanitizer/tsan_interface.h>
#endif

namespace runqcheck::stress {

// Size of one G stack: 32 KiB natively; sanitizers need more (TSan's frames
// and its runtime calls made on the G's stack).
#ifdef RUNQCHECK_STRESS_TSAN
inline constexpr std::size_t g_stack_size = 256 * 1024;
#else
inline constexpr std::size_t g_stack_size = 32 * 1024;
#endif

// Boost.Context StackAllocator over the pool. Any thread may allocate and
// deallocate (Boost deallocates on the thread that resumes the exiting G's
// g0, which is the G's last M).
struct pooled_stack {
  boost::context::stack_context allocate();
  void deallocate(boost::context::stack_context& sc) noexcept;
};

// Bytes of stack memory ever mapped (for the stats line).
std::size_t stack_bytes_mapped();

// TSan's fiber API (no-ops in other builds). Every switch between a G and
// its M's g0 is announced first, so TSan keeps one shadow stack and one
// vector clock per G instead of seeing a thread's stack jump around.
inline void* tsan_current_fiber() {
#ifdef RUNQCHECK_STRESS_TSAN
  return __tsan_get_current_fiber();
#else
  return nullptr;
#endif
}
inline void* tsan_create_fiber() {
#ifdef RUNQCHECK_STRESS_TSAN
  return __tsan_create_fiber(0);
#else
  return nullptr;
#endif
}
inline void tsan_destroy_fiber(void* f) {
#ifdef RUNQCHECK_STRESS_TSAN
  if (f != nullptr) __tsan_destroy_fiber(f);
#else
  (void)f;
#endif
}
// flags 0: the switch synchronizes (the G continues where the g0 left off).
inline void tsan_switch_to(void* f) {
#ifdef RUNQCHECK_STRESS_TSAN
  __tsan_switch_to_fiber(f, 0);
#else
  (void)f;
#endif
}

}  // namespace runqcheck::stress
