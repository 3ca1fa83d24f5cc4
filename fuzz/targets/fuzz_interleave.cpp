// fuzz/targets/fuzz_interleave.cpp — libFuzzer target: the input is a
// scenario and its interleaving under the C++ memory model (format:
// fuzz/include/runqcheck_fuzz/input.hpp), run once under Relacy with the
// input-driven scheduler; any failed invariant, port check, Relacy finding
// or non-linearizable history aborts, and libFuzzer writes the crash file,
// which `runqcheck replay` re-runs step by step.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "runqcheck_fuzz/asan_options.hpp"
#include "runqcheck_fuzz/runner.hpp"

namespace fz = runqcheck::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fz::decoded d;
  if (fz::parse({data, size}, fz::kSubjects, d) != fz::parse_error::none) return -1;  // not a seed: not kept
  fz::outcome o = fz::run(d, fz::sched_kind::input, false);
  if (o.failed) {
    const char* m = std::getenv("RUNQCHECK_MUTANT");
    std::fprintf(stderr, "\nrunqcheck: %s\nrunqcheck: reproduce with: %s%s%srunqcheck replay <the crash file named below>\n",
                 o.message.c_str(), m ? "RUNQCHECK_MUTANT=" : "", m ? m : "", m ? " " : "");
    std::abort();
  }
  return 0;
}
