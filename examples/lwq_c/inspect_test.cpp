// examples/lwq_c/inspect_test.cpp — lwq/inspect.h's C idioms compiled as C++ inside the
// adapter's class on the native backend, and run: the same-name typedef and the prototype
// (RUNQCHECK_C_ONLY), the parameter that receives a marked array (RUNQCHECK_PLAIN_PARAM:
// lwq_view_fill, a template here), the "mutex held" query (LWQ_MTX_HELD, B::mutex's
// holder) and the second fatal macro (LWQ_CHECK, which must fire without the lock).
// Exit 0: each held.
#include <runqcheck/backend/native.hpp>

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "lwq/subject.hpp"

namespace {
using B = runqcheck::native;
using Q = lwq_c::runq<B, 8>;
using S = Q::S;
struct fatal : std::runtime_error {
  using std::runtime_error::runtime_error;
};
int bad = 0;
void expect(bool ok, const std::string& what) {
  std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
  bad += !ok;
}
}  // namespace

int main() {
  runqcheck::fatal_handler() = [](const runqcheck::fatal_info& f) { throw fatal(f.msg); };
  Q::schedt s(2);
  Q::p p(s, 0);
  std::vector<std::unique_ptr<runqcheck::g<B>>> gs;
  for (int i = 0; i < 5; i++) {
    gs.push_back(std::make_unique<runqcheck::g<B>>());
    gs.back()->goid = static_cast<std::uint64_t>(i + 1);
    Q::runqput(p, gs.back().get(), false);
  }
  S::lwq_view v;  // marked fields (B::var), the C struct behind the typedef
  std::uint32_t n = S::lwq_view_take(&v, &p);
  expect(n == 5 && static_cast<runqcheck::g<B>*>(v.tasks[0]) == gs[0].get() &&
             static_cast<runqcheck::g<B>*>(v.tasks[4]) == gs[4].get(),
         "lwq_view_take: the ring's 5 Gs in order, through a marked-array parameter");
  s.mu.lock();
  std::int32_t len = -1;
  try {
    len = S::lwq_global_len_locked(&s);
  } catch (const fatal& e) {
    std::printf("unexpected fatal error: %s\n", e.what());
  }
  s.mu.unlock();
  expect(len == 0, "lwq_global_len_locked with g->mu held (LWQ_MTX_HELD true)");
  std::string why;
  try {
    S::lwq_global_len_locked(&s);
  } catch (const fatal& e) {
    why = e.what();
  }
  expect(why == "lwq_global_len_locked: g->mu not held",
         "without g->mu: LWQ_CHECK's fatal error (" + why + ")");
  std::printf("lwq inspect_test: %s\n", bad ? "FAILED" : "passed");
  return bad ? 1 : 0;
}
