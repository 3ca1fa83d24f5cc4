// runqcheck_fuzz/page_base.hpp — the trace JSON (format runqcheck-trace,
// version 1) and the swimlane page (fuzz/explain/swimlane.html), apart from
// any recorder: no Relacy here. page.hpp writes the Relacy recorder's trace
// with it, tests/explore/picture.hpp the exploring engine's.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "exec.hpp"
#include "explain_html.hpp"  // the page template (fuzz/explain/explain.cmake)

namespace runqcheck::fuzz {

using model::describe_op;

inline const char* name_of(std::memory_order mo) {
  switch (mo) {
    case std::memory_order::relaxed: return "relaxed";
    case std::memory_order::consume: return "consume";
    case std::memory_order::acquire: return "acquire";
    case std::memory_order::release: return "release";
    case std::memory_order::acq_rel: return "acq_rel";
    default: return "seq_cst";
  }
}

// A subject hook's function (runq_counters, describe_p, ...): the harness reads the port
// through it, relaxed by contract, so a race's hand-over never names its accesses.
inline bool hook_function(std::string_view f) {
  return f == "runq_counters" || f == "set_runq_counters" || f == "describe_p" ||
         f == "describe_sched";
}

// The harness's own functions: a hook's, or the world's delivery and hand-over
// of a G. Never where the port took a G (a "delivered twice" cause).
inline bool harness_function(std::string_view f) {
  return hook_function(f) || f == "deliver" || f == "hand_off";
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
  int culprit = -1;     // the event the failure names as its cause (a race's hand-over)
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

// The trace JSON up to its event list (open): failure_event is the index of
// the failing row (-1: none). trace_event() adds each event, trace_end() closes.
inline std::string trace_head(const trace_info& in, int failure_event) {
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
    j += "{\"event\":" + std::to_string(failure_event) + ",\"message\":";
    json_string(j, in.message.c_str());
    if (in.culprit >= 0) j += ",\"culprit\":" + std::to_string(in.culprit);
    j += "}";
  } else {
    j += "null";
  }
  j += ",\"events\":[";
  return j;
}

// One event of the trace (its fields as page.hpp's recorder names them).
struct trace_row {
  int thread = -1, op = -1;
  const char* kind = "";
  const char* func = "";
  const char* obj = "";
  const char* order = "";  // "" unless an atomic access, fence or lock
  const char* value = "";
  const char* old = "";
  int rf = -1;  // a read: the event of the write read; -1: none (the initial value)
  bool reads = false;
  unsigned stale = 0;
  std::string loc;  // "file:line" or ""
  const char* text = "";
};

inline void trace_event(std::string& j, int id, const trace_row& e) {
  if (id) j += ",\n";
  j += "{\"id\":" + std::to_string(id) + ",\"thread\":" + std::to_string(e.thread) +
       ",\"op\":" + std::to_string(e.op) + ",\"kind\":\"" + e.kind + "\",\"func\":";
  json_string(j, e.func);
  j += ",\"obj\":";
  json_string(j, e.obj);
  j += ",\"order\":";
  json_string(j, e.order);
  j += ",\"value\":";
  json_string(j, e.value);
  j += ",\"old\":";
  json_string(j, e.old);
  j += ",\"rf\":" + (e.reads && e.rf >= 0 ? std::to_string(e.rf) : std::string("null"));
  j += ",\"stale\":" + std::to_string(e.stale) + ",\"loc\":";
  json_string(j, e.loc.c_str());
  j += ",\"text\":";
  json_string(j, e.text);
  j += "}";
}

inline void trace_end(std::string& j) { j += "]}\n"; }

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


// What an operation delivered, as its op_end row says it ("G3 (inheritTime)",
// "nil", "[G1 G2]", "done", "true").
inline void result_text(const model::op& o, const std::uint64_t* gs, int n, bool inheritTime,
                        bool empty, char* b, std::size_t size) {
  int len = 0;
  auto add = [&](const char* s, unsigned long long g = ~0ull) {
    if (len >= static_cast<int>(size) - 1) return;
    std::size_t room = size - static_cast<std::size_t>(len);
    len += g == ~0ull ? std::snprintf(b + len, room, "%s", s)
                      : std::snprintf(b + len, room, "%sG%llu", s, g);
  };
  switch (o.kind) {
    case model::op_kind::put:
    case model::op_kind::put_next:
    case model::op_kind::glob_put:
    case model::op_kind::wait_done:
    case model::op_kind::destroy: add("done"); break;
    case model::op_kind::empty:
    case model::op_kind::expect_nonempty: add(empty ? "true" : "false"); break;
    case model::op_kind::drain:
    case model::op_kind::put_batch:  // its leftovers
      add("[");
      for (int i = 0; i < n; i++) add(i ? " " : "", gs[i]);
      add("]");
      break;
    default:
      if (n == 0) add("nil");
      else add("", gs[0]);
      if (n > 0 && inheritTime) add(" (inheritTime)");
  }
}

inline std::string self_path() {
  char b[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", b, sizeof b - 1);
  return n > 0 ? std::string(b, static_cast<std::size_t>(n)) : std::string();
}

// The folder of failure files: $RUNQCHECK_FAILURE_DIR, or <build>/failures
// (the binary lives in <build>/bin), made if missing; absolute.
inline std::string failure_dir(std::string& err) {
  std::string dir;
  if (const char* d = std::getenv("RUNQCHECK_FAILURE_DIR"); d != nullptr && *d != '\0') {
    dir = d;
  } else {
    std::string exe = self_path();
    dir = exe.substr(0, exe.rfind('/'));
    if (dir.size() >= 4 && dir.compare(dir.size() - 4, 4, "/bin") == 0) dir.resize(dir.size() - 4);
    dir += "/failures";
  }
  for (std::size_t i = 1; i <= dir.size(); i++)  // mkdir -p
    if (i == dir.size() || dir[i] == '/') ::mkdir(dir.substr(0, i).c_str(), 0777);
  char abs[PATH_MAX];
  if (::realpath(dir.c_str(), abs) == nullptr) {
    err = "cannot create the folder " + dir;
    return "";
  }
  return abs;
}

}  // namespace runqcheck::fuzz
