// fuzz/targets/fuzz_protocol.cpp — libFuzzer target: the wakeup protocol
// (core/include/runqcheck/protocol.hpp) under the input-driven
// scheduler. The input's first byte picks a scenario of
// models/protocol/protocol_catalog.hpp (modulo its size); the rest are
// the Relacy scheduler's choices (runqcheck_fuzz/schedulers.hpp: next
// thread, which store a load reads, spurious CAS failure; fallbacks when the
// bytes run out). One execution per input; a failed invariant at
// quiescence, an RQ_CHECK or a Relacy finding (deadlock, livelock, race)
// aborts with the message and a `reproduce with:` line. Same input, same
// execution.
//
// Built as fuzz_protocol_mutant (on the mutant schemata, models/mutants) it
// reads RUNQCHECK_MUTANT; a name that is no protocol mutant exits 2. Built as
// fuzz_protocol__<name> for a protocol subject (runqcheck_add_protocol_subject)
// it runs the generated runqcheck_protocol_subject.hpp's protocol_under_test;
// a scenario needing a hook the subject lacks is not applied (said at start).
// RUNQCHECK_PROTOCOL_SEEDS=DIR writes the seed corpus (seed-<scenario>: the
// scenario byte alone) into DIR and exits.
#include <malloc.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <runqcheck/go125.hpp>
#include <runqcheck/sched_policy.hpp>
#include <runqcheck/protocol.hpp>
#ifdef RUNQCHECK_PROTOCOL_MUTANTS
#include <runqcheck/schemata.hpp>  // the mutant schemata's selection
#endif

#include "runqcheck_fuzz/asan_options.hpp"
#include "runqcheck_fuzz/schedulers.hpp"
#include "protocol_catalog.hpp"
#include "protocol_suite.hpp"  // relacy_world: protocol_under_test on Relacy's backend

namespace fz = runqcheck::fuzz;

namespace {

const char* self = "fuzz_protocol";  // argv[0], for the reproduce line
#ifdef RUNQCHECK_PROTOCOL_MUTANTS
constexpr bool reads_mutant = true;
#else
constexpr bool reads_mutant = false;  // RUNQCHECK_MUTANT means nothing here
#endif

// One execution of suite<N> with the choices set in current_choices().
// Returns "" on success, else the failure in one line.
template <unsigned N>
std::string run_suite() {
  rl::test_params p = fz::one_execution(20000);  // a bounded findRunnable: far below this
  runqcheck::relacy::fatal_text[0] = '\0';
  std::ostringstream state;  // Relacy's replay state: unused, the input is the state
  using suite = rqproto::suite<N, rqproto::relacy_world>;
  rl::test_result_e r = rl::run_test<suite, fz::input_scheduler<N>>(p, state, false);
  if (r == rl::test_result_success) return {};
  if (r == rl::test_result_user_assert_failed && runqcheck::relacy::fatal_text[0] != '\0')
    return runqcheck::relacy::fatal_text;
  return std::string("relacy: ") + rl::test_result_str(r);
}

// Runs scenario sc once; "" or the failure.
std::string run_scenario(const rqproto::proto_scenario& sc) {
  rqproto::current = &sc;
  switch (rqproto::threads_of(sc)) {
    case 2: return run_suite<2>();
    case 3: return run_suite<3>();
    case 4: return run_suite<4>();
  }
  return "scenario " + std::string(sc.name) + ": " + std::to_string(rqproto::threads_of(sc)) +
         " Ms not supported";
}

// RUNQCHECK_PROTOCOL_SEEDS=DIR: one seed per scenario; false if a write failed.
bool write_seeds(const std::string& dir) {
  for (std::size_t i = 0; i < rqproto::catalog.size(); i++) {
    if (rqproto::by_name_only(rqproto::catalog[i])) continue;  // not judged as the port's
    std::string f = dir + "/seed-" + std::string(rqproto::catalog[i].name);
    std::ofstream out(f, std::ios::binary);
    out.put(static_cast<char>(i));
    if (!out) {
      std::fprintf(stderr, "fuzz_protocol: cannot write %s\n", f.c_str());
      return false;
    }
  }
  std::printf("fuzz_protocol: seeds written to %s\n", dir.c_str());
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  if (*argc > 0) self = (*argv)[0];
  // As fuzz_interleave: keep Relacy's per-input blocks in the heap.
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
  if (const char* d = std::getenv("RUNQCHECK_PROTOCOL_SEEDS")) std::exit(write_seeds(d) ? 0 : 1);
#ifdef RUNQCHECK_PROTOCOL_MUTANTS
  const char* m = std::getenv("RUNQCHECK_MUTANT");
  if (m != nullptr && !runqcheck::mutant_select::protocol_selected()) {
    std::fprintf(stderr, "fuzz_protocol: RUNQCHECK_MUTANT=%s is no protocol mutant "
                 "(models/mutants/protocol)\n", m);
    std::exit(2);
  }
#endif
  for (const auto& sc : rqproto::catalog)
    rqproto::report_missing<rqproto::relacy_world>("fuzz_protocol", sc);
  return 0;
}

// Called by libFuzzer only, once per input.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return -1;  // no scenario byte: not kept
  const auto& sc = rqproto::catalog[data[0] % rqproto::catalog.size()];
  if (rqproto::by_name_only(sc)) return -1;  // Go's peek or Go's own window: not kept
  if (rqproto::relacy_world::missing_hook(sc) != nullptr) return -1;  // not applied (said at start)
  fz::current_choices().reset(data + 1, size - 1);
  std::string e = run_scenario(sc);
  if (e.empty()) return 0;
  const char* m = reads_mutant ? std::getenv("RUNQCHECK_MUTANT") : nullptr;
  std::fprintf(stderr, "\nrunqcheck: protocol scenario %s: %s\n"
               "runqcheck: reproduce with: %s%s%s%s <the crash file named below>\n",
               std::string(sc.name).c_str(), e.c_str(), m ? "RUNQCHECK_MUTANT=" : "",
               m ? m : "", m ? " " : "", self);
  std::abort();
}
