// runqcheck_fuzz/report.hpp — an execution, as text (runqcheck replay) and
// as trace JSON (runqcheck explain; format in fuzz/explain/README.md). Both
// are deterministic: no addresses, no times, so two replays of one seed give
// byte-identical output.
#pragma once

#include <cstdio>
#include <string>

#include "runner.hpp"

namespace runqcheck::fuzz {

inline std::string describe_scenario(const decoded& d) {
  const model::scenario& sc = d.sc;
  std::string s = "subject " + std::string(subject_name(d.subject)) + ", ring capacity " + std::to_string(sc.cap) +
                  ", " + std::to_string(sc.threads.size()) + " threads";
  for (std::size_t p = 0; p < sc.initial.size(); p++) {
    if (sc.initial[p].ring.empty() && sc.initial[p].runnext < 0) continue;
    s += ", P" + std::to_string(p) + " starts with " + std::to_string(sc.initial[p].ring.size()) + " Gs";
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
  std::fprintf(f, "execution (%d steps; 'reads #n' = the store it read from, 'stale' = newer stores it did not see):\n",
               r.nevents());
  for (int i = 0; i < r.nevents(); i++) {
    const event& e = r.at(i);
    char who[16];
    if (e.thread < 0) std::snprintf(who, sizeof who, "--");
    else std::snprintf(who, sizeof who, "T%d", e.thread);
    switch (e.kind) {
      case ev::op_begin: std::fprintf(f, "#%-5d %-3s >> %s\n", i, who, r.text(e.text)); break;
      case ev::op_end: std::fprintf(f, "#%-5d %-3s << %s = %s\n", i, who, e.func, r.text(e.text)); break;
      case ev::check: std::fprintf(f, "#%-5d %-3s !! %s\n", i, who, r.text(e.text)); break;
      default: {
        std::string extra;
        if (e.kind == ev::load || e.kind == ev::rmw || e.kind == ev::cas_fail || e.kind == ev::read) {
          extra = e.rf < 0 ? "  reads initial" : "  reads #" + std::to_string(e.rf);
          if (e.stale > 0) extra += "  STALE by " + std::to_string(e.stale);
        }
        if (e.kind == ev::cas_fail) extra += std::string("  (expected ") + e.old + ")";
        if (e.kind == ev::rmw && e.old[0] != '\0') extra += std::string("  (was ") + e.old + ")";
        std::fprintf(f, "#%-5d %-3s    %-16s %-8s %-18s %-8s %-7s%s  %s:%u\n", i, who, e.func, name_of(e.kind),
                     r.object_name(e.obj), e.value, e.ordered ? name_of(e.mo) : "", extra.c_str(), e.file, e.line);
      }
    }
  }
  if (r.truncated()) std::fprintf(f, "(trace truncated at %d events)\n", r.nevents());
}

inline void json_string(std::string& out, const char* s) {
  out += '"';
  for (; *s != '\0'; s++) {
    unsigned char c = static_cast<unsigned char>(*s);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == '<' || c == '>' || c == '&') {
      char b[8];
      std::snprintf(b, sizeof b, "\\u%04x", c);
      out += b;
    } else {
      out += static_cast<char>(c);
    }
  }
  out += '"';
}

// The trace JSON (version 1): what `explain` embeds in its page.
inline std::string trace_json(const decoded& d, const outcome& o, const recorder& r, const std::string& seed,
                              const std::string& command, const char* mutant) {
  std::string j = "{\"format\":\"runqcheck-trace\",\"version\":1,\"seed\":";
  json_string(j, seed.c_str());
  j += ",\"command\":";
  json_string(j, command.c_str());
  j += ",\"subject\":";
  json_string(j, subject_name(d.subject));
  j += ",\"mutant\":";
  if (mutant != nullptr && *mutant != '\0') json_string(j, mutant);
  else j += "null";
  j += ",\"cap\":" + std::to_string(d.sc.cap) + ",\"nprocs\":" + std::to_string(d.sc.nprocs) + ",\"threads\":[";
  for (std::size_t t = 0; t < d.sc.threads.size(); t++) {
    if (t) j += ',';
    j += "{\"id\":" + std::to_string(t) + ",\"label\":";
    json_string(j, ("T" + std::to_string(t) + " (owner of P" + std::to_string(t) + ")").c_str());
    j += ",\"script\":[";
    for (std::size_t i = 0; i < d.sc.threads[t].size(); i++) {
      if (i) j += ',';
      json_string(j, op_text(d.sc.threads[t][i]).c_str());
    }
    j += "]}";
  }
  j += "],\"verdict\":";
  j += o.failed ? "\"fail\"" : "\"pass\"";
  j += ",\"failure\":";
  if (o.failed) {
    int at = -1;
    for (int i = r.nevents() - 1; i >= 0 && at < 0; i--)
      if (r.at(i).kind == ev::check) at = i;
    j += "{\"event\":" + std::to_string(at) + ",\"message\":";
    json_string(j, o.message.c_str());
    j += "}";
  } else {
    j += "null";
  }
  j += ",\"events\":[";
  for (int i = 0; i < r.nevents(); i++) {
    const event& e = r.at(i);
    if (i) j += ",\n";
    j += "{\"id\":" + std::to_string(i) + ",\"thread\":" + std::to_string(e.thread) + ",\"op\":" + std::to_string(e.op) +
         ",\"kind\":\"" + name_of(e.kind) + "\",\"func\":";
    json_string(j, e.func);
    j += ",\"obj\":";
    json_string(j, r.object_name(e.obj));
    j += ",\"order\":";
    json_string(j, e.ordered ? name_of(e.mo) : "");
    j += ",\"value\":";
    json_string(j, e.value);
    j += ",\"old\":";
    json_string(j, e.old);
    bool reads = e.kind == ev::load || e.kind == ev::rmw || e.kind == ev::cas_fail || e.kind == ev::read;
    j += ",\"rf\":" + (reads && e.rf >= 0 ? std::to_string(e.rf) : std::string("null"));
    j += ",\"stale\":" + std::to_string(e.stale) + ",\"loc\":";
    json_string(j, e.line ? (std::string(e.file) + ":" + std::to_string(e.line)).c_str() : "");
    j += ",\"text\":";
    json_string(j, r.text(e.text));
    j += "}";
  }
  j += "]}\n";
  return j;
}

}  // namespace runqcheck::fuzz
