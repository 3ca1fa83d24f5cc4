// tests/unit/core_native_fences.cpp — the native backend's fences hand data
// over as the C++ model says, and TSan (which does not model
// std::atomic_thread_fence) sees the hand-off: a relaxed flag between a
// release fence and an acquire fence publishes a plain variable. Under TSan
// this reported a data race before backend/native.hpp's tsan_fences.
#include <gtest/gtest.h>

#include <cstdint>

#include "runqcheck/backend/native.hpp"

namespace {

using B = runqcheck::native;
using std::memory_order::relaxed;  // a using-declaration: may repeat in a unity build

// 100 rounds: a thread stores `value` into data, then publish(flag) makes flag
// non-zero; this thread waits for it, makes fence `acquire`, reads data.
template <class Publish>
void hand_over(std::uint64_t value, Publish publish, std::memory_order acquire) {
  for (int round = 0; round < 100; round++) {
    B::var<std::uint64_t> data{0};
    B::atomic<std::uint32_t> flag{0};
    B::thread t([&] {
      data.store(value);
      B::fence(std::memory_order::release);
      publish(flag);
    });
    while (flag.load(relaxed) == 0) B::spin_pause();
    B::fence(acquire);
    EXPECT_EQ(data.load(), value);
    t.join();
  }
}

TEST(NativeFences, ReleaseAndAcquireFencesPublishPlainData) {
  hand_over(42, [](B::atomic<std::uint32_t>& f) { f.store(1, relaxed); },
            std::memory_order::acquire);
}

TEST(NativeFences, RelaxedCasAfterReleaseFencePublishes) {
  auto cas = [](B::atomic<std::uint32_t>& f) {
    std::uint32_t e = 0;
    while (!f.compare_exchange_weak(e, 1, relaxed, relaxed)) e = 0;
  };
  hand_over(7, cas, std::memory_order::seq_cst);
}

}  // namespace
