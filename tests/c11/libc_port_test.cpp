// tests/c11/libc_port_test.cpp — a C port's header that includes C's library headers
// itself (tests/c11/libc_port.h) compiled inside an adapter's class with runqcheck/c11.hpp
// as the translation unit's first include (clang's <stdatomic.h> then comes before
// <atomic>), C11's keywords (_Static_assert, _Alignas, _Alignof, _Noreturn, _Bool), C++'s
// [[noreturn]] after it (clang's <stdnoreturn.h>), its atomic_uint a B::atomic, its
// pthread_mutex_t a B::mutex (the native one knows its holder), and its assert() and
// abort() raised as the port's fatal error. Exit 0: each held.
#include <runqcheck/c11.hpp>
#include <runqcheck/backend/native.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

namespace {
template <class B>
struct port {
  RUNQCHECK_C11_PORT(B)
#include <runqcheck/c11/on.h>
#include "libc_port.h"
#include <runqcheck/c11/off.h>
};
using S = port<runqcheck::native>;
[[noreturn]] void unreachable() { std::abort(); }  // `noreturn` is no macro here
struct fatal : std::runtime_error {
  runqcheck::fatal_kind kind;
  runqcheck::loc where;
  fatal(const runqcheck::fatal_info& f)
      : std::runtime_error(std::string(f.msg) + " " + f.values), kind(f.kind), where(f.where) {}
};
}  // namespace

int main() {
  runqcheck::fatal_handler() = [](const runqcheck::fatal_info& f) { throw fatal(f); };
  S::lp_counter c;
  S::lp_init(&c, "ok");
  int bad = 0;
  bad += S::lp_add(&c, 4) != 4 || std::strcmp(c.name, "ok") != 0 || !c.named;
  bad += c.calls.load(std::memory_order::relaxed) != 1;  // a B::atomic
  c.mu.lock();
  bad += !c.mu.held_by_me();  // a B::mutex, not POSIX's
  c.mu.unlock();
  if (bad > 100) unreachable();
  try {
    S::lp_add(&c, 7);  // 11 > 10: the port's assert
    std::printf("FAIL the assert did not fire\n");
    bad++;
  } catch (const fatal& e) {
    bool ok = e.kind == runqcheck::fatal_kind::port &&
              std::string(e.what()).find("v <= 10 (assert failed at libc_port.h:") == 0;
    std::printf("%s the assert is the port's fatal error: %s\n", ok ? "ok  " : "FAIL", e.what());
    bad += !ok;
  }
  try {
    S::lp_die("on purpose");  // fprintf, then C's abort()
    std::printf("FAIL abort() returned\n");
    bad++;
  } catch (const fatal& e) {
    bool ok = e.kind == runqcheck::fatal_kind::port &&
              std::string(e.what()).find("abort() called") == 0 &&
              std::string(e.where.file_name()).ends_with("libc_port.h");
    std::printf("%s abort() is the port's fatal error at %s:%u\n", ok ? "ok  " : "FAIL",
                e.where.file_name(), static_cast<unsigned>(e.where.line()));
    bad += !ok;
  }
  return bad ? 1 : 0;
}
