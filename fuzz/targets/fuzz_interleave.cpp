// fuzz/targets/fuzz_interleave.cpp — libFuzzer target: the input is a
// scenario and its interleaving under the C++ memory model (format:
// fuzz/include/runqcheck_fuzz/input.hpp), run once under Relacy with the
// input-driven scheduler; any failed invariant, port check, Relacy finding
// or non-linearizable history aborts, and libFuzzer writes the crash file,
// which `runqcheck replay` re-runs step by step. Before it aborts, the
// failing input runs once more traced (the same execution: the input is the
// schedule), for the reason in the port's terms (a data race's hand-over) and
// its picture, written beside the crash file (`picture:`). A target built for one subject
// (RUNQCHECK_FUZZ_ONE_SUBJECT: a port's fuzz_interleave__<subject>, whose seeds'
// subject index means that port) names itself as the reproducer instead: the
// command line is built with the bundled subjects only.
#include <malloc.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "runqcheck_fuzz/asan_options.hpp"
#include "runqcheck_fuzz/report.hpp"

namespace fz = runqcheck::fuzz;

namespace {
const char* self = "";  // argv[0]: a one-subject target's reproducer
std::string artifacts;  // libFuzzer's -artifact_prefix=: where the crash file goes

// The failing input's picture, beside its crash file: "picture: PATH" or
// "picture: none (why)". Named by a hash of the input (libFuzzer names the
// crash file by its SHA-1, which it does not pass to the target).
void take_picture(const fz::decoded& d, const fz::outcome& o, const std::uint8_t* data,
                  std::size_t size, const std::string& command, const char* mutant) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (std::size_t i = 0; i < size; i++) h = (h ^ data[i]) * 1099511628211ull;
  char name[40];
  std::snprintf(name, sizeof name, "picture-%016llx.html", static_cast<unsigned long long>(h));
  std::string html = artifacts + name;
  std::string json =
      fz::trace_json(d, o, fz::the_recorder(), "the crash file named below", command, mutant);
  if (std::string err = fz::write_page(html, json); !err.empty())
    std::fprintf(stderr, "picture: none (%s)\n", err.c_str());
  else std::fprintf(stderr, "picture: %s\n", html.c_str());
}

// Seeds that start the counters near 2^32 (byte 10) and the steal-size
// invariant need optional hooks: say which subject lacks them.
template <int... I>
void report_hooks(std::integer_sequence<int, I...>) {
  auto one = [](auto h, const char* name) {
    using S = typename decltype(h)::template type<runqcheck::relacy, 4>;
    if (!runqcheck::has_set_runq_counters<S>)
      std::printf("runqcheck: not applied: fuzz seeds with counters near 2^32 (run from 0): needs "
                  "S::set_runq_counters (subject %s)\n", name);
    if (!runqcheck::has_runq_counters<S>)
      std::printf("runqcheck: not applied: steal-size invariant (a lone steal takes ceil(n/2)): "
                  "needs S::runq_counters (subject %s)\n", name);
  };
  (one(runqcheck_subject_at<I>{}, runqcheck_subject_names[I]), ...);
}
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char*** argv) {
  if (argv != nullptr && *argv != nullptr && **argv != nullptr) self = **argv;
  for (char** a = argv != nullptr ? *argv : nullptr; a != nullptr && *a != nullptr; a++)
    if (std::strncmp(*a, "-artifact_prefix=", 17) == 0) artifacts = *a + 17;
  // Each input builds a Relacy context and a test suite of a few MB (a
  // world's Gs and rings as Relacy atomics, fiber stacks) and frees them.
  // Above glibc's mmap threshold every one was a fresh mmap, zeroed page by
  // page: 17% of the time in page faults. Keep such blocks in the heap
  // and keep freed memory (a no-op under ASan, whose allocator is its own).
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
  report_hooks(std::make_integer_sequence<int, fz::kSubjects>{});
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fz::decoded d;
  if (fz::parse({data, size}, fz::kSubjects, d) != fz::parse_error::none)
    return -1;  // not a seed: not kept
  fz::outcome o = fz::run(d, false);
  if (o.failed) {
    const char* m = std::getenv("RUNQCHECK_MUTANT");
#ifdef RUNQCHECK_FUZZ_ONE_SUBJECT
    const char* cmd = self;  // run on one file, the target replays it
#else
    const char* cmd = "runqcheck replay";
#endif
    std::string repro = std::string(m ? "RUNQCHECK_MUTANT=" : "") + (m ? m : "") +
                        (m ? " " : "") + cmd + " <the crash file named below>";
    // Traced: the recorder sees every access, so a data race names its hand-over.
    fz::outcome t = fz::run(d, true);
    const fz::outcome& why = t.failed ? t : o;
    std::fprintf(stderr, "\nrunqcheck: %s\n", why.message.c_str());
    take_picture(d, why, data, size, repro, m);
    std::fprintf(stderr, "runqcheck: reproduce with: %s\n", repro.c_str());
    std::abort();
  }
  return 0;
}
