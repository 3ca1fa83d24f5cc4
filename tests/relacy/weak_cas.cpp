// tests/relacy/weak_cas.cpp — the Relacy backend's compare_exchange_weak fails
// spuriously (as LL/SC may), its compare_exchange_strong never does: a port's
// single weak CAS without a retry loop (runnext taken by one weak CAS, say) is
// then seen failing with the expected value in place. Two threads each CAS a
// counter 0 -> 1 once, the other thread's CAS aside; with `weak`, some of the
// random executions must see a CAS fail while the counter still read 0.
// Exit 0 when the weak CAS failed spuriously at least once and the strong one
// never did; 1 otherwise.
#include <atomic>
#include <cstdio>
#include <sstream>

#include "runqcheck/backend.hpp"  // std headers before Relacy's macros
#include "runqcheck/backend/relacy.hpp"

namespace {

using B = runqcheck::relacy;
int spurious = 0;  // executions with a CAS that failed although it read 0
bool use_weak = false;

struct one_cas : rl::test_suite<one_cas, 1> {
  B::atomic<int> x;
  void before() { x.store(0, std::memory_order::relaxed); }
  void thread(unsigned) {
    int want = 0;
    bool ok = use_weak ? x.compare_exchange_weak(want, 1, std::memory_order::acq_rel,
                                                 std::memory_order::acquire)
                       : x.compare_exchange_strong(want, 1, std::memory_order::acq_rel,
                                                   std::memory_order::acquire);
    if (!ok && want == 0) spurious++;
  }
};

int run(bool weak) {
  use_weak = weak;
  spurious = 0;
  rl::test_params p;
  p.iteration_count = 2000;
  p.search_type = rl::random_scheduler_type;
  std::ostringstream sink;
  p.output_stream = &sink;
  rl::simulate<one_cas>(p);
  return spurious;
}

}  // namespace

int main() {
  int weak = run(true), strong = run(false);
  std::printf("weak_cas: spurious failures in 2000 executions: weak %d, strong %d\n", weak,
              strong);
  if (weak == 0) std::printf("weak_cas: FAILED: the weak CAS never failed spuriously\n");
  if (strong != 0) std::printf("weak_cas: FAILED: the strong CAS failed spuriously\n");
  return weak > 0 && strong == 0 ? 0 : 1;
}
