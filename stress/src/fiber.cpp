// stress/src/fiber.cpp — the G stack pool and the fiber switches (see
// fiber.hpp; compiled without TSan instrumentation).
#include "fiber.hpp"

#include <sys/mman.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

#include <boost/context/fiber.hpp>

// TSan's fiber API (sanitizer/tsan_interface.h), weak: null unless the TSan
// runtime is linked.
extern "C" {
void* __tsan_get_current_fiber() __attribute__((weak));
void* __tsan_create_fiber(unsigned flags) __attribute__((weak));
void __tsan_switch_to_fiber(void* fiber, unsigned flags) __attribute__((weak));
}

namespace runqcheck::stress {
namespace {

constexpr std::uint64_t canary = 0x5354414b43414e59ull;  // "STAKCANY"
constexpr std::size_t chunk_bytes = 64u << 20;            // 64 MiB per mmap
constexpr std::size_t cache_max = 64;                     // per-thread free stacks

bool tsan() { return __tsan_switch_to_fiber != nullptr; }
// 32 KiB natively; TSan needs more (its runtime runs on the G's stack too).
std::size_t g_stack_size() { return tsan() ? 256 * 1024 : 32 * 1024; }
// flags 0: the switch synchronizes (the target continues where the switcher left off).
void tsan_switch_to(void* f) {
  if (tsan()) __tsan_switch_to_fiber(f, 0);
}

struct pool {
  std::mutex mu;               // guards free and the current chunk
  std::vector<char*> free;
  char* chunk = nullptr;
  std::size_t left = 0;
  std::atomic<std::size_t> mapped{0};  // a statistic: relaxed

  char* get() {
    std::lock_guard l(mu);
    if (!free.empty()) {
      char* b = free.back();
      free.pop_back();
      return b;
    }
    if (left < g_stack_size()) {
      void* p = ::mmap(nullptr, chunk_bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (p == MAP_FAILED) {
        std::fprintf(stderr, "fatal error: stack pool: mmap of %zu bytes failed\n", chunk_bytes);
        std::_Exit(1);
      }
      chunk = static_cast<char*>(p);
      left = chunk_bytes;
      mapped.fetch_add(chunk_bytes, std::memory_order_relaxed);  // relaxed: a statistic
    }
    char* b = chunk;
    chunk += g_stack_size();
    left -= g_stack_size();
    return b;
  }
  void put(std::vector<char*>& batch) {
    std::lock_guard l(mu);
    free.insert(free.end(), batch.begin(), batch.end());
    batch.clear();
  }
};

pool& the_pool() {
  static pool* p = new pool;  // never destroyed: Ms may return stacks during exit
  return *p;
}

thread_local std::vector<char*> cache;

}  // namespace

boost::context::stack_context pooled_stack::allocate() {
  char* base;
  if (!cache.empty()) {
    base = cache.back();
    cache.pop_back();
  } else {
    base = the_pool().get();
  }
  *reinterpret_cast<std::uint64_t*>(base) = canary;
  boost::context::stack_context sc;
  sc.size = g_stack_size();
  sc.sp = base + g_stack_size();  // stacks grow down
  return sc;
}

void pooled_stack::deallocate(boost::context::stack_context& sc) noexcept {
  char* base = static_cast<char*>(sc.sp) - sc.size;
  if (*reinterpret_cast<std::uint64_t*>(base) != canary) {
    std::fprintf(stderr, "fatal error: G stack overflow (canary at %p clobbered; stack size %zu)\n",
                 static_cast<void*>(base), sc.size);
    std::_Exit(1);
  }
  cache.push_back(base);
  if (cache.size() > cache_max) {
    std::vector<char*> half(cache.end() - cache_max / 2, cache.end());
    cache.resize(cache.size() - cache_max / 2);
    the_pool().put(half);
  }
}

std::size_t stack_bytes_mapped() { return the_pool().mapped.load(std::memory_order_relaxed); }

namespace {
std::mutex tsan_pool_mu;
std::vector<void*>* tsan_pool = new std::vector<void*>;  // never destroyed, like the stack pool

void* tsan_fiber_get() {
  if (!tsan()) return nullptr;
  {
    std::lock_guard l(tsan_pool_mu);
    if (!tsan_pool->empty()) {
      void* f = tsan_pool->back();
      tsan_pool->pop_back();
      return f;
    }
  }
  return __tsan_create_fiber(0);
}
}  // namespace

void tsan_fiber_put(void* f) {
  if (f == nullptr) return;
  std::lock_guard l(tsan_pool_mu);
  tsan_pool->push_back(f);
}

void* tsan_current_fiber() { return tsan() ? __tsan_get_current_fiber() : nullptr; }

void gogo(M* mp, G* gp) {
  if (!gp->ctx) {  // first run: the stack comes from the pool now
    gp->ctx =
        boost::context::fiber(std::allocator_arg, pooled_stack{}, [gp](boost::context::fiber&& g0) {
          getm()->g0 = std::move(g0);
          gentry(gp);  // the G's function, then Go's goexit1 (sets mp->fn = goexit0)
          M* m = getm();
          tsan_switch_to(m->tsan_g0);
          return std::move(m->g0);  // the fiber ends; Boost frees its stack on g0
        });
    gp->tsan_fiber = tsan_fiber_get();
  }
  tsan_switch_to(gp->tsan_fiber);
  gp->ctx = std::move(gp->ctx).resume();
  (void)mp;
}

void switch_to_g0() {
  M* mp = getm();
  tsan_switch_to(mp->tsan_g0);
  boost::context::fiber from = std::move(mp->g0).resume();
  getm()->g0 = std::move(from);  // getm(): possibly another M (thread) now
}

}  // namespace runqcheck::stress
