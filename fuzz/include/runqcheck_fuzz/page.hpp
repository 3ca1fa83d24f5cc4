// runqcheck_fuzz/page.hpp — a recorded execution as trace JSON (format
// runqcheck-trace, version 1) and as the swimlane page (fuzz/explain/
// swimlane.html). Shared by `runqcheck explain` (fuzz seeds) and the Relacy
// scenario binaries (their own counterexamples: tests/relacy/driver.hpp).
// Deterministic: no addresses, no times. Include after std headers (pulls in
// Relacy through trace.hpp).
#pragma once

#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "explain_html.hpp"  // the page template (fuzz/explain/explain.cmake)
#include "trace.hpp"

namespace runqcheck::fuzz {

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

// One thread's lane head: its label and what it was given to do.
struct lane {
  std::string label;
  std::vector<std::string> script;
};

// What the page says about the run besides its events.
struct trace_info {
  const model::scenario* sc = nullptr;
  std::string subject;
  std::string seed;      // the seed file, or the Relacy search state
  std::string command;   // how to reproduce it
  std::string mutant;    // "" for none
  std::string checker;   // "" for runqcheck explain of a seed; else the checker that failed
  std::string scenario;  // "" unless the scenario has a name (the catalog's)
  bool failed = false;
  std::string message;  // the failure, if failed
  // The lanes; empty: sc's threads, "T<i> (owner of P<i>)" with their ops.
  std::vector<lane> lanes;
};

// The lane heads of a queue scenario's threads.
inline std::vector<lane> scenario_lanes(const model::scenario& sc) {
  std::vector<lane> out;
  char b[96];
  for (std::size_t t = 0; t < sc.threads.size(); t++) {
    lane l{"T" + std::to_string(t) + " (owner of P" + std::to_string(t) + ")", {}};
    for (const auto& o : sc.threads[t]) {
      describe_op(o, b, sizeof b);
      l.script.emplace_back(b);
    }
    out.push_back(std::move(l));
  }
  return out;
}

inline std::string trace_json(const trace_info& in, const recorder& r) {
  const model::scenario& sc = *in.sc;
  std::string j = "{\"format\":\"runqcheck-trace\",\"version\":1,\"seed\":";
  json_string(j, in.seed.c_str());
  j += ",\"command\":";
  json_string(j, in.command.c_str());
  j += ",\"subject\":";
  json_string(j, in.subject.c_str());
  if (!in.checker.empty()) {
    j += ",\"checker\":";
    json_string(j, in.checker.c_str());
  }
  if (!in.scenario.empty()) {
    j += ",\"scenario\":";
    json_string(j, in.scenario.c_str());
  }
  j += ",\"mutant\":";
  if (!in.mutant.empty())
    json_string(j, in.mutant.c_str());
  else
    j += "null";
  j += ",\"cap\":" + std::to_string(sc.cap) + ",\"nprocs\":" + std::to_string(sc.nprocs) +
       ",\"threads\":[";
  std::vector<lane> lanes = in.lanes.empty() ? scenario_lanes(sc) : in.lanes;
  for (std::size_t t = 0; t < lanes.size(); t++) {
    if (t) j += ',';
    j += "{\"id\":" + std::to_string(t) + ",\"label\":";
    json_string(j, lanes[t].label.c_str());
    j += ",\"script\":[";
    for (std::size_t i = 0; i < lanes[t].script.size(); i++) {
      if (i) j += ',';
      json_string(j, lanes[t].script[i].c_str());
    }
    j += "]}";
  }
  j += "],\"verdict\":";
  j += in.failed ? "\"fail\"" : "\"pass\"";
  j += ",\"failure\":";
  if (in.failed) {
    int at = -1;
    for (int i = r.nevents() - 1; i >= 0 && at < 0; i--)
      if (r.at(i).kind == ev::check) at = i;
    j += "{\"event\":" + std::to_string(at) + ",\"message\":";
    json_string(j, in.message.c_str());
    j += "}";
  } else {
    j += "null";
  }
  j += ",\"events\":[";
  for (int i = 0; i < r.nevents(); i++) {
    const event& e = r.at(i);
    if (i) j += ",\n";
    j += "{\"id\":" + std::to_string(i) + ",\"thread\":" + std::to_string(e.thread) +
         ",\"op\":" + std::to_string(e.op) + ",\"kind\":\"" + name_of(e.kind) + "\",\"func\":";
    json_string(j, e.func);
    j += ",\"obj\":";
    json_string(j, r.object_name(e.obj));
    j += ",\"order\":";
    json_string(j, e.ordered ? name_of(e.mo) : "");
    j += ",\"value\":";
    json_string(j, e.value);
    j += ",\"old\":";
    json_string(j, e.old);
    bool reads =
        e.kind == ev::load || e.kind == ev::rmw || e.kind == ev::cas_fail || e.kind == ev::read;
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

// Writes the swimlane page for a trace JSON; "" or the one-line reason it could not.
inline std::string write_page(const std::string& path, const std::string& json) {
  std::string page = runqcheck_explain_html;
  const std::string token = "/*@RUNQCHECK_TRACE_JSON@*/null";
  std::size_t at = page.find(token);
  if (at == std::string::npos) return "the built-in page template has no trace placeholder";
  page.replace(at, token.size(), json);
  std::ofstream h(path);
  h << page;
  h.close();
  if (!h) return "cannot write " + path;
  return "";
}

}  // namespace runqcheck::fuzz
