// runqcheck_fuzz/page.hpp — a recorded execution as trace JSON (format
// runqcheck-trace, version 1; page_base.hpp) and as the swimlane page
// (fuzz/explain/swimlane.html). Shared by `runqcheck explain` (fuzz seeds) and the Relacy
// scenario binaries (their own counterexamples: tests/relacy/driver.hpp).
// Deterministic: no addresses, no times. Include after std headers (pulls in
// Relacy through trace.hpp).
#pragma once

#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "page_base.hpp"
#include "trace.hpp"

namespace runqcheck::fuzz {

inline std::string trace_json(const trace_info& in, const recorder& r) {
  int at = -1;
  for (int i = r.nevents() - 1; i >= 0 && at < 0 && in.failed; i--)
    if (r.at(i).kind == ev::check) at = i;
  trace_info x = in;
  if (x.culprit < 0) x.culprit = r.culprit();
  std::string j = trace_head(x, at);
  for (int i = 0; i < r.nevents(); i++) {
    const event& e = r.at(i);
    trace_row w;
    w.thread = e.thread;
    w.op = e.op;
    w.kind = name_of(e.kind);
    w.func = e.func;
    w.obj = r.object_name(e.obj);
    w.order = e.ordered ? name_of(e.mo) : "";
    w.value = e.value;
    w.old = e.old;
    w.reads =
        e.kind == ev::load || e.kind == ev::rmw || e.kind == ev::cas_fail || e.kind == ev::read;
    w.rf = e.rf;
    w.stale = e.stale;
    w.loc = e.line ? std::string(e.file) + ":" + std::to_string(e.line) : std::string();
    w.text = r.text(e.text);
    trace_event(j, i, w);
  }
  trace_end(j);
  return j;
}

}  // namespace runqcheck::fuzz
