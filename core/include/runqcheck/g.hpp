// runqcheck/g.hpp — the G descriptor: what the run queues need of a goroutine.
// Go: type g (runtime2.go); only goid, atomicstatus and schedlink matter here.
#pragma once

#include <cstdint>

#include "backend.hpp"

namespace runqcheck {

// Go's G status values (runtime2.go) that the queues and the schedulers
// built on them use, and the _Gscan bit that readgstatus users mask off.
enum class gstatus : std::uint32_t {
  idle = 0, runnable = 1, running = 2, syscall = 3, waiting = 4, dead = 6
};
inline constexpr std::uint32_t gscan = 0x1000;

template <class B>
struct g {
  std::uint64_t goid = 0;  // set once before the G is shared; read-only afterwards
  // Go: atomicstatus. Written by the scheduler that owns the G (casgstatus);
  // runqgrab reads another P's current G's status racily (readgstatus).
  typename B::template atomic<std::uint32_t> atomicstatus{
      static_cast<std::uint32_t>(gstatus::idle)};
  // Link for gQueue/gList. Written only by the owner of the G: a P after its
  // CAS on runqhead made the G its own (runqdrain, runqputslow), or code
  // holding sched.lock for the global queue. A plain variable on purpose: a
  // write before ownership is a data race that Relacy reports.
  typename B::template var<g*> schedlink{nullptr};

  g() = default;
  explicit g(std::uint64_t id) : goid(id) {}
  g(const g&) = delete;
  g& operator=(const g&) = delete;
};

}  // namespace runqcheck
