// runqcheck_fuzz/report.hpp — a seed's execution, as text (runqcheck replay)
// and as trace JSON (runqcheck explain; page.hpp). Both
// are deterministic: no addresses, no times, so two replays of one seed give
// byte-identical output.
#pragma once

#include <cstdio>
#include <fstream>
#include <string>

#include "runner.hpp"
// clang-format off: after runner.hpp (lincheck's std headers come before Relacy)
#include "page.hpp"

namespace runqcheck::fuzz {

inline std::string describe_scenario(const decoded& d) {
  const model::scenario& sc = d.sc;
  std::string s = "subject " + std::string(subject_name(d.subject)) + ", ring capacity " +
                  std::to_string(sc.cap) + ", " + std::to_string(sc.threads.size()) + " threads";
  for (std::size_t p = 0; p < sc.initial.size(); p++) {
    if (sc.initial[p].ring.empty() && sc.initial[p].runnext < 0) continue;
    s += ", P" + std::to_string(p) + " starts with " + std::to_string(sc.initial[p].ring.size()) +
         " Gs";
    if (sc.initial[p].runnext >= 0) s += " + runnext G" + std::to_string(sc.initial[p].runnext);
  }
  if (!sc.global.empty()) s += ", " + std::to_string(sc.global.size()) + " on the global queue";
  if (sc.start_counter != 0) s += ", counters start at " + std::to_string(sc.start_counter);
  return s;
}

inline std::string op_text(const model::op& o) {
  char b[96];
  describe_op(o, b, sizeof b);
  return b;
}

// The step-by-step listing: one line per event.
inline void print_trace(std::FILE* f, const decoded& d, const recorder& r) {
  std::fprintf(f, "scenario: %s\n", describe_scenario(d).c_str());
  for (std::size_t t = 0; t < d.sc.threads.size(); t++) {
    std::fprintf(f, "  T%zu:", t);
    if (d.sc.threads[t].empty()) std::fprintf(f, " (nothing)");
    for (const auto& o : d.sc.threads[t]) std::fprintf(f, " %s;", op_text(o).c_str());
    std::fprintf(f, "\n");
  }
  std::fprintf(f,
               "execution (%d steps; 'reads #n' = the store it read from, 'stale' = newer stores "
               "it did not see):\n",
               r.nevents());
  for (int i = 0; i < r.nevents(); i++) {
    const event& e = r.at(i);
    char who[16];
    if (e.thread < 0) std::snprintf(who, sizeof who, "--");
    else std::snprintf(who, sizeof who, "T%d", e.thread);
    switch (e.kind) {
      case ev::op_begin: std::fprintf(f, "#%-5d %-3s >> %s\n", i, who, r.text(e.text)); break;
      case ev::op_end:
        std::fprintf(f, "#%-5d %-3s << %s = %s\n", i, who, e.func, r.text(e.text));
        break;
      case ev::check: std::fprintf(f, "#%-5d %-3s !! %s\n", i, who, r.text(e.text)); break;
      default: {
        std::string extra;
        if (e.kind == ev::load || e.kind == ev::rmw || e.kind == ev::cas_fail ||
            e.kind == ev::read) {
          extra = e.rf < 0 ? "  reads initial" : "  reads #" + std::to_string(e.rf);
          if (e.stale > 0) extra += "  STALE by " + std::to_string(e.stale);
        }
        if (e.kind == ev::cas_fail) extra += std::string("  (expected ") + e.old + ")";
        if (e.kind == ev::rmw && e.old[0] != '\0') extra += std::string("  (was ") + e.old + ")";
        std::fprintf(f, "#%-5d %-3s    %-16s %-8s %-18s %-8s %-7s%s  %s:%u\n", i, who, e.func,
                     name_of(e.kind), r.object_name(e.obj), e.value, e.ordered ? name_of(e.mo) : "",
                     extra.c_str(), e.file, e.line);
      }
    }
  }
  if (r.truncated()) std::fprintf(f, "(trace truncated at %d events)\n", r.nevents());
}

// The trace JSON of a seed's run (page.hpp): what `explain` embeds in its page.
inline std::string trace_json(const decoded& d, const outcome& o, const recorder& r,
                              const std::string& seed, const std::string& command,
                              const char* mutant) {
  trace_info in;
  in.sc = &d.sc;
  in.subject = subject_name(d.subject);
  in.seed = seed;
  in.command = command;
  in.mutant = mutant != nullptr ? mutant : "";
  in.failed = o.failed;
  in.message = o.message;
  return trace_json(in, r);
}

}  // namespace runqcheck::fuzz
