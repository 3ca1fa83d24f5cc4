// stress/src/fiber.cpp — the G stack pool (see fiber.hpp).
#include "fiber.hpp"

#include <sys/mman.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

namespace runqcheck::stress {
namespace {

constexpr std::uint64_t canary = 0x5354414b43414e59ull;  // "STAKCANY"
constexpr std::size_t chunk_bytes = 64u << 20;            // 64 MiB per mmap
constexpr std::size_t cache_max = 64;                     // per-thread free stacks

struct pool {
  std::mutex mu;               // guards free and the current chunk
  std::vector<char*> free;
  char* chunk = nullptr;
  std::size_t left = 0;
  std::atomic<std::size_t> mapped{0};

  char* get() {
    std::lock_guard l(mu);
    if (!free.empty()) {
      char* b = free.back();
      free.pop_back();
      return b;
    }
    if (left < g_stack_size) {
      void* p = ::mmap(nullptr, chunk_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (p == MAP_FAILED) {
        std::fprintf(stderr, "fatal error: stack pool: mmap of %zu bytes failed\n", chunk_bytes);
        std::_Exit(1);
      }
      chunk = static_cast<char*>(p);
      left = chunk_bytes;
      mapped.fetch_add(chunk_bytes, std::memory_order_relaxed);  // relaxed: a statistic
    }
    char* b = chunk;
    chunk += g_stack_size;
    left -= g_stack_size;
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
  sc.size = g_stack_size;
  sc.sp = base + g_stack_size;  // stacks grow down
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

}  // namespace runqcheck::stress
