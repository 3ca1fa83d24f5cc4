// models/scenarios/text.hpp — a scenario as one line of text, and back: how
// a generated program is printed, replayed from the command line and saved
// as a regression file (models/generate). The operations are written as the
// catalog writes them in C++ (scenario.hpp's constructors), threads apart by
// '|', thread i first owning P i:
//
//   cap=4 procs=3 P0=0,1,2/3 global=6 | put(0,4) get(0) | steal_next(1,0) get(1) | empty(0)
//
//   cap=C            the ring capacity (default 4)
//   procs=N          gomaxprocs, the Ps (default: one per thread, at least 2)
//   P<i>=a,b/r       P i's initial ring a, b (in put order), then runnext r;
//                    "P0=/3" is runnext alone
//   global=a,b       the initial global queue, head first
//   counter=V        the ring counters' start (2^32 - k: 2^W - k; 2^31 - k:
//                    2^(W-1) - k; counters.hpp's start_at_width)
// Gs are numbered from 0; the scenario's G count is one past the largest.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "ops.hpp"
#include "scenario.hpp"

namespace runqcheck::model {

namespace text_detail {
// The arguments each operation is written with: p (its P), v (victim),
// g (a G), t (a thread), n (a batch's Gs: g .. g+n-1).
constexpr std::string_view args_of(op_kind k) {
  switch (k) {
    case op_kind::put:
    case op_kind::put_next: return "pg";
    case op_kind::put_batch: return "pgn";
    case op_kind::get:
    case op_kind::drain:
    case op_kind::glob_batch:
    case op_kind::destroy:
    case op_kind::reput:
    case op_kind::reput_next: return "p";
    case op_kind::steal:
    case op_kind::steal_next:
    case op_kind::steal_next_must: return "pv";
    case op_kind::glob_put: return "g";
    case op_kind::glob_get: return "";
    case op_kind::empty:
    case op_kind::expect_nonempty: return "v";
    case op_kind::wait_done: return "t";
    default: return "?";  // scheduler events: not in a scenario
  }
}

inline std::string join(const std::vector<int>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); i++) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

inline bool parse_ints(std::string_view s, std::vector<int>& out) {
  out.clear();
  while (!s.empty()) {
    std::size_t c = s.find(',');
    std::string tok(s.substr(0, c));
    char* end = nullptr;
    long v = std::strtol(tok.c_str(), &end, 10);
    if (tok.empty() || *end != '\0' || v < 0 || v > 255) return false;
    out.push_back(static_cast<int>(v));
    s = c == std::string_view::npos ? std::string_view() : s.substr(c + 1);
  }
  return true;
}
}  // namespace text_detail

// One operation as text ("steal_next(1,0)").
inline std::string op_text(const op& o) {
  std::string s(name(o.kind));
  s += '(';
  std::string_view a = text_detail::args_of(o.kind);
  for (std::size_t i = 0; i < a.size(); i++) {
    if (i > 0) s += ',';
    int v = a[i] == 'p' ? o.p : a[i] == 'g' ? o.g : a[i] == 'n' ? o.n : o.victim;
    s += std::to_string(v);
  }
  return s + ')';
}

// The scenario as one line (see above).
inline std::string spec_text(const scenario& sc) {
  std::string s = "cap=" + std::to_string(sc.cap) + " procs=" + std::to_string(sc.nprocs);
  for (std::size_t i = 0; i < sc.initial.size(); i++) {
    const initial_p& ip = sc.initial[i];
    if (ip.ring.empty() && ip.runnext < 0) continue;
    s += " P" + std::to_string(i) + "=" + text_detail::join(ip.ring);
    if (ip.runnext >= 0) s += "/" + std::to_string(ip.runnext);
  }
  if (!sc.global.empty()) s += " global=" + text_detail::join(sc.global);
  if (sc.start_counter != 0) s += " counter=" + std::to_string(sc.start_counter);
  for (const auto& th : sc.threads) {
    s += " |";
    for (const op& o : th) s += " " + op_text(o);
  }
  return s;
}

// Parses one operation ("put(0,4)"); false if it is not one.
inline bool parse_op_text(std::string_view w, op& o) {
  std::size_t lp = w.find('(');
  if (lp == std::string_view::npos || w.back() != ')') return false;
  auto k = parse_op_kind(w.substr(0, lp));
  if (!k) return false;
  std::string_view a = text_detail::args_of(*k);
  if (a == "?") return false;
  std::vector<int> v;
  if (!text_detail::parse_ints(w.substr(lp + 1, w.size() - lp - 2), v) || v.size() != a.size())
    return false;
  o = {*k};
  for (std::size_t i = 0; i < a.size(); i++) {
    if (a[i] == 'p') o.p = static_cast<std::uint8_t>(v[i]);
    if (a[i] == 'v' || a[i] == 't') o.victim = static_cast<std::uint8_t>(v[i]);
    if (a[i] == 'g') o.g = static_cast<std::int16_t>(v[i]);
    if (a[i] == 'n') o.n = static_cast<std::uint8_t>(v[i]);
  }
  if (*k == op_kind::put_batch && (o.n == 0 || o.g + o.n > 256)) return false;
  return true;
}

// Each P has one owner: the one thread whose operations name it as their
// own (args_of's p: runqput, runqget, runqdrain, a steal's thief, ...), as
// in Go, where only the M holding a P runs them. "" if so, else the first P
// two threads name.
inline std::string second_owner(const scenario& sc) {
  std::vector<int> owner(256, -1);  // per P (op::p is 8 bits): its owner thread
  for (std::size_t t = 0; t < sc.threads.size(); t++) {
    for (const op& o : sc.threads[t]) {
      if (text_detail::args_of(o.kind).find('p') == std::string_view::npos) continue;
      int& w = owner[o.p];
      if (w >= 0 && w != static_cast<int>(t))
        return "P" + std::to_string(o.p) + " has two owners: threads " + std::to_string(w) +
               " and " + std::to_string(t) + " (" + op_text(o) + ")";
      w = static_cast<int>(t);
    }
  }
  return "";
}

// Parses spec_text's line into sc (its name and targets left as they are).
// False with err set on anything else, or on a scenario no world can run
// (more than max_procs Ps or max_threads threads, a G id of max_gs or more,
// a P index out of range, a G twice in the initial state, a P two threads
// own: second_owner).
inline bool parse_spec(std::string_view line, scenario& sc, std::string& err, int max_procs,
                       int max_threads, int max_gs) {
  sc.cap = 4;
  sc.nprocs = 0;
  sc.initial.clear();
  sc.global.clear();
  sc.threads.clear();
  sc.start_counter = 0;
  int maxg = -1;
  std::vector<int> seen;
  auto g_ok = [&](int g, bool initial) {
    if (g >= max_gs) return false;
    if (initial) {
      if (std::find(seen.begin(), seen.end(), g) != seen.end()) return false;
      seen.push_back(g);
    }
    maxg = std::max(maxg, g);
    return true;
  };
  std::size_t i = 0;
  auto word = [&]() -> std::string_view {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) i++;
    std::size_t b = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') i++;
    return line.substr(b, i - b);
  };
  for (std::string_view w = word(); !w.empty(); w = word()) {
    if (w == "|") {
      if (static_cast<int>(sc.threads.size()) >= max_threads) {
        err = "more than " + std::to_string(max_threads) + " threads";
        return false;
      }
      sc.threads.emplace_back();
      continue;
    }
    if (!sc.threads.empty()) {
      op o;
      if (!parse_op_text(w, o)) {
        err = "not an operation: '" + std::string(w) + "'";
        return false;
      }
      int last = o.kind == op_kind::put_batch ? o.g + o.n - 1 : o.g;  // a batch's last G
      if (o.g >= 0 && !(g_ok(o.g, false) && g_ok(last, false))) {
        err = "G" + std::to_string(last) + " out of range in '" + std::string(w) + "'";
        return false;
      }
      sc.threads.back().push_back(o);
      continue;
    }
    std::size_t eq = w.find('=');
    std::string_view key = w.substr(0, eq), val = eq == w.npos ? "" : w.substr(eq + 1);
    std::vector<int> v;
    bool ok = eq != w.npos;
    if (!ok) {
    } else if (key == "cap" || key == "procs" || key == "counter") {
      char* end = nullptr;
      std::string t(val);
      unsigned long long n = std::strtoull(t.c_str(), &end, 10);
      ok = !t.empty() && *end == '\0' && n <= 0xffffffffull;
      if (key == "cap") sc.cap = static_cast<std::uint32_t>(n);
      if (key == "procs") sc.nprocs = static_cast<int>(n);
      if (key == "counter") sc.start_counter = static_cast<std::uint32_t>(n);
    } else if (key == "global") {
      ok = text_detail::parse_ints(val, v);
      for (int g : v) ok = ok && g_ok(g, true);
      sc.global = v;
    } else if (key.size() == 2 && key[0] == 'P' && key[1] >= '0' && key[1] < '0' + max_procs) {
      std::size_t p = static_cast<std::size_t>(key[1] - '0');
      if (sc.initial.size() <= p) sc.initial.resize(p + 1);
      std::size_t sl = val.find('/');
      ok = text_detail::parse_ints(val.substr(0, sl), v);
      for (int g : v) ok = ok && g_ok(g, true);
      sc.initial[p].ring = v;
      if (ok && sl != val.npos) {
        std::vector<int> r;
        ok = text_detail::parse_ints(val.substr(sl + 1), r) && r.size() == 1 && g_ok(r[0], true);
        if (ok) sc.initial[p].runnext = r[0];
      }
    } else {
      ok = false;
    }
    if (!ok) {
      err = "not a setting: '" + std::string(w) + "'";
      return false;
    }
  }
  if (sc.threads.empty()) {
    err = "no thread ('| op op ...')";
    return false;
  }
  if (sc.nprocs == 0) sc.nprocs = std::max(2, static_cast<int>(sc.threads.size()));
  if (sc.nprocs > max_procs || static_cast<int>(sc.initial.size()) > sc.nprocs) {
    err = "procs must be 1.." + std::to_string(max_procs) + " and cover every P named";
    return false;
  }
  if (sc.cap < 2 || (sc.cap & (sc.cap - 1)) != 0) {
    err = "cap must be a power of two >= 2";
    return false;
  }
  for (const auto& th : sc.threads) {
    for (const op& o : th) {
      std::string_view a = text_detail::args_of(o.kind);
      bool bad_p = a.find('p') != a.npos && o.p >= sc.nprocs;
      bool bad_v = a.find('v') != a.npos && o.victim >= sc.nprocs;
      bool bad_t = a.find('t') != a.npos && o.victim >= sc.threads.size();
      if (bad_p || bad_v || bad_t) {
        err = "'" + op_text(o) + "' names a P or thread that is not there";
        return false;
      }
    }
  }
  if (std::string why = second_owner(sc); !why.empty()) {
    err = why;
    return false;
  }
  sc.ngs = maxg + 1;
  return true;
}

// The program line of a file a failure saved (lines starting '#' are
// comments); false with err set if there is none.
inline bool read_spec_file(const std::string& path, std::string& line, std::string& err) {
  std::ifstream in(path);
  if (!in) {
    err = "cannot read '" + path + "'";
    return false;
  }
  for (std::string l; std::getline(in, l);) {
    if (!l.empty() && l[0] != '#') {
      line = l;
      return true;
    }
  }
  err = "'" + path + "' holds no program line";
  return false;
}

// A program's line: arg itself where it reads as one (it holds '|', its
// threads, or '=', a setting), else the program line of the file arg names.
// For the generated runners' `run` and `replay` (a saved failure).
inline bool spec_or_file(const std::string& arg, std::string& line, std::string& err) {
  line = arg;
  if (arg.find('|') != std::string::npos || arg.find('=') != std::string::npos) return true;
  return read_spec_file(arg, line, err);
}

}  // namespace runqcheck::model
