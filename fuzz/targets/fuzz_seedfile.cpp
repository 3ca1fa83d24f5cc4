// fuzz/targets/fuzz_seedfile.cpp — libFuzzer target for what `runqcheck
// replay` and `explain` do with a file: parse it (any bytes: garbage,
// truncated, other versions must be rejected cleanly), and for a valid seed
// run it with the full trace and render the listing and the trace JSON.
// Failures of the scenario itself are not this target's business (that is
// fuzz_interleave's); crashes, sanitizer reports and malformed JSON are.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "runqcheck_fuzz/asan_options.hpp"
#include "runqcheck_fuzz/report.hpp"

namespace fz = runqcheck::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fz::decoded d;
  fz::parse_error e = fz::parse({data, size}, fz::kSubjects, d);
  if (e != fz::parse_error::none) {
    if (fz::describe(e)[0] == '\0') std::abort();  // every error has a message
    return 0;
  }
  fz::outcome o = fz::run(d, true);
  static std::FILE* devnull = std::fopen("/dev/null", "w");
  fz::print_trace(devnull, d, fz::the_recorder());
  std::string j =
      fz::trace_json(d, o, fz::the_recorder(), "fuzz", "runqcheck replay fuzz", nullptr);
  // Well-formed enough to embed in a page: balanced, and no raw '<'.
  int depth = 0;
  bool in_str = false;
  for (std::size_t i = 0; i < j.size(); i++) {
    char c = j[i];
    if (in_str) {
      if (c == '\\') i++;
      else if (c == '"') in_str = false;
    } else if (c == '"') in_str = true;
    else if (c == '{' || c == '[') depth++;
    else if (c == '}' || c == ']') depth--;
    if (c == '<' || depth < 0) std::abort();
  }
  if (depth != 0 || in_str) std::abort();
  return 0;
}
