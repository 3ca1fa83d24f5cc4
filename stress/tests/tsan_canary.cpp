// stress/tests/tsan_canary.cpp — proof that TSan sees through the fibers:
// after many Gs have come and gone (fibers and TSan fibers reused), two Gs
// that wait until both run (on two Ms) increment a plain counter. Under TSan this must be reported
// (exit 66 with halt_on_error=1; the ctest expects that); the report names
// each G's own stack (fiber entry, gentry, the workload), which shows the
// shadow stacks stay balanced across switches, and is followed by the
// reproducer (watchdog.cpp's sanitizer hook; the ctest requires both).
// Natively it just exits 0.
#include <atomic>

#include <runqcheck/stress/chan.hpp>
#include <runqcheck/stress/proc.hpp>
#include <runqcheck/stress/watchdog.hpp>

using namespace runqcheck::stress;

namespace {
long plain = 0;  // the deliberate data race
}

int main() {
  runtime_config c;
  c.procs = 4;
  install_fatal_handler();
  set_reproducer("runqcheck_stress_tsan_canary");
  runtime_start(c);
  for (int r = 0; r < 20; r++) {
    run_main([] {
      waitgroup wg;
      wg.add(1000);
      for (int i = 0; i < 1000; i++) newproc([&wg] { wg.done(); });
      wg.wait();
    });
  }
  run_main([] {
    chan<bool> done(2);
    std::atomic<int> started{0};
    for (int k = 0; k < 2; k++) {
      newproc([&done, &started] {
        // Both Gs run at once, on two Ms, before either touches `plain`.
        started.fetch_add(1);
        while (started.load() != 2) {
        }
        for (int i = 0; i < 100000; i++) plain = plain + 1;
        done.send(true);
      });
    }
    done.recv();
    done.recv();
  });
  return runtime_stop() ? 0 : 1;
}
