// tests/relacy/weak_cas.cpp — the Relacy backend's compare_exchange_weak fails
// spuriously (as LL/SC may), its compare_exchange_strong never does: a port's
// single weak CAS without a retry loop (runnext taken by one weak CAS, say) is
// then seen failing with the expected value in place. Two threads each CAS a
// counter 0 -> 1 once. In every execution (RL_ASSERT in after(), a failed
// simulate): a strong CAS pair leaves exactly one winner; a weak pair at most
// one, and a loser that read 0 only by a spurious failure. Across the random
// executions the weak CAS must fail spuriously at least once. And a failed
// strong CAS with a C++17 order pair Relacy lacks ((release, acquire),
// (relaxed, acquire), (acquire, seq_cst), (relaxed, seq_cst): the backend's
// rl_cas) reads the value written and synchronizes with its release store:
// the plain data before it is then no race. Exit 0 only then.
#include <atomic>
#include <cstdio>
#include <utility>

#include "runqcheck/backend.hpp"  // std headers before Relacy's macros
#include "runqcheck/backend/relacy.hpp"

namespace {

using B = runqcheck::relacy;
int spurious = 0;  // executions with a CAS that failed although it read 0
bool use_weak = false;

struct one_cas : rl::test_suite<one_cas, 2> {
  B::atomic<int> x;
  int wins = 0, spurious_here = 0;
  void before() {
    x.store(0, std::memory_order::relaxed);
    wins = spurious_here = 0;
  }
  void thread(unsigned) {
    int want = 0;
    constexpr auto s = std::memory_order::acq_rel, f = std::memory_order::acquire;
    bool ok = use_weak ? x.compare_exchange_weak(want, 1, s, f)
                       : x.compare_exchange_strong(want, 1, s, f);
    if (ok) wins++;
    else if (want == 0) spurious_here++;
  }
  void after() {
    RL_ASSERT(wins <= 1);                               // never two winners
    RL_ASSERT(use_weak ? wins + spurious_here >= 1      // a weak loser read 0 or lost
                       : wins == 1 && spurious_here == 0);
    RL_ASSERT(x.load(std::memory_order::relaxed) == wins);
    if (spurious_here > 0) spurious++;
  }
};

// Thread 0 writes data, then publishes flag = 1 (release); thread 1's strong
// CAS of flag 0 -> 2 with the pair (fs, ff): when it fails it read 1, and
// its failure order (acquire or seq_cst) makes data visible: no race.
std::memory_order fs, ff;
struct failure_syncs : rl::test_suite<failure_syncs, 2> {
  B::atomic<int> flag;
  B::var<int> data;
  void before() {
    flag.store(0, std::memory_order::relaxed);
    data.store(0);
  }
  void thread(unsigned t) {
    if (t == 0) {
      data.store(1);
      flag.store(1, std::memory_order::release);
      return;
    }
    int want = 0;
    if (flag.compare_exchange_strong(want, 2, fs, ff)) return;
    RL_ASSERT(want == 1);         // a strong CAS fails only on the value written
    RL_ASSERT(data.load() == 1);  // a race, were the failure relaxed
  }
};

// Each pair above: true when no execution of the random search broke it.
bool failure_orders() {
  using mo = std::memory_order;
  const std::pair<mo, mo> pairs[] = {{mo::release, mo::acquire},
                                     {mo::relaxed, mo::acquire},
                                     {mo::acquire, mo::seq_cst},
                                     {mo::relaxed, mo::seq_cst}};
  bool ok = true;
  for (auto [s, f] : pairs) {
    fs = s;
    ff = f;
    rl::test_params p;
    p.iteration_count = 2000;
    p.search_type = rl::random_scheduler_type;
    if (!rl::simulate<failure_syncs>(p)) {
      std::printf("weak_cas: FAILED: a failed CAS with the pair (%d, %d) did not synchronize\n",
                  static_cast<int>(s), static_cast<int>(f));
      ok = false;
    }
  }
  return ok;
}

// The executions with a spurious failure, or -1 when an execution broke an
// assertion above (Relacy prints its history).
int run(bool weak) {
  use_weak = weak;
  spurious = 0;
  rl::test_params p;
  p.iteration_count = 2000;
  p.search_type = rl::random_scheduler_type;
  return rl::simulate<one_cas>(p) ? spurious : -1;
}

}  // namespace

int main() {
  int weak = run(true), strong = run(false);
  std::printf("weak_cas: executions with a spurious failure of 2000: weak %d, strong %d\n",
              weak, strong);
  if (weak < 0 || strong < 0) std::printf("weak_cas: FAILED: an execution broke an assertion\n");
  if (weak == 0) std::printf("weak_cas: FAILED: the weak CAS never failed spuriously\n");
  if (strong != 0) std::printf("weak_cas: FAILED: the strong CAS failed spuriously\n");
  bool orders = failure_orders();
  return weak > 0 && strong == 0 && orders ? 0 : 1;
}
