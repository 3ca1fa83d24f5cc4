// runqcheck_fuzz/encode.hpp — the inverse of input.hpp's parser: a scenario
// (and optional scheduling choices) as the bytes of a version-1 seed. The
// checked-in fuzz_interleave corpus is the catalog written by this encoder
// (`runqcheck corpus --from-catalog DIR`).
//
// The format numbers Gs itself (P0's ring, P0's runnext, P1's ring, P1's
// runnext, the global queue, then each put in thread order), so a scenario
// is encoded up to a renaming of its G ids: `renamed` gives the scenario the
// seed decodes to. A scenario the format cannot express gets a one-line
// reason instead of bytes.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "input.hpp"

namespace runqcheck::fuzz {

// Same Ps, queues, counters and scripts (names and texts aside).
inline bool same_scenario(const model::scenario& a, const model::scenario& b) {
  auto ps = [](const model::scenario& s, std::size_t p) {
    return p < s.initial.size() ? s.initial[p] : model::initial_p{};
  };
  if (a.cap != b.cap || a.nprocs != b.nprocs || a.ngs != b.ngs || a.global != b.global ||
      a.start_counter != b.start_counter || a.threads.size() != b.threads.size() ||
      a.expect_fatal != b.expect_fatal)
    return false;
  for (std::size_t p = 0; p < static_cast<std::size_t>(a.nprocs); p++)
    if (ps(a, p).ring != ps(b, p).ring || ps(a, p).runnext != ps(b, p).runnext) return false;
  for (std::size_t t = 0; t < a.threads.size(); t++) {
    if (a.threads[t].size() != b.threads[t].size()) return false;
    for (std::size_t i = 0; i < a.threads[t].size(); i++) {
      const model::op &x = a.threads[t][i], &y = b.threads[t][i];
      if (x.kind != y.kind || x.p != y.p || x.victim != y.victim || x.g != y.g) return false;
    }
  }
  return true;
}

namespace detail {
inline bool puts_g(model::op_kind k) {
  return k == model::op_kind::put || k == model::op_kind::put_next || k == model::op_kind::glob_put;
}
// Ops whose `p` is the thread's own P (the others carry p = 0).
inline bool owns_p(model::op_kind k) {
  return k != model::op_kind::glob_put && k != model::op_kind::glob_get &&
         k != model::op_kind::wait_done;
}
}  // namespace detail

// `sc` as seed bytes into `out` (schedule appended), its G ids renumbered the
// format's way into `renamed`. Returns "" or why the format cannot express it.
inline std::string encode(const model::scenario& sc, std::span<const std::uint8_t> schedule,
                          std::vector<std::uint8_t>& out, model::scenario& renamed) {
  using k = model::op_kind;
  if (!sc.expect_fatal.empty())
    return "provokes a fatal error on purpose; the decoder drops ops that break a precondition";
  int cap_index = -1;
  for (int i = 0; i < 7; i++)
    if (kCaps[i] == sc.cap) cap_index = i;
  if (cap_index < 0)
    return "ring capacity " + std::to_string(sc.cap) + " (the format has 4 .. 256)";
  int n = static_cast<int>(sc.threads.size());
  if (n < 2 || n > 3 || sc.nprocs != n)
    return std::to_string(n) + " threads on " + std::to_string(sc.nprocs) +
           " Ps (the format has 2 or 3 threads, one P each)";
  for (std::size_t p = 2; p < sc.initial.size(); p++)
    if (!sc.initial[p].ring.empty() || sc.initial[p].runnext >= 0)
      return "P" + std::to_string(p) + " starts non-empty (the format fills P0 and P1 only)";
  if (sc.global.size() > 7) return "more than 7 Gs on the global queue at start";
  std::uint8_t counters = 0;
  if (sc.start_counter != 0) {
    std::uint64_t b = 0x100000000ull - sc.start_counter;
    if (b > 255)
      return "start counter " + std::to_string(sc.start_counter) + " (not 0 or 2^32 - 1..255)";
    counters = static_cast<std::uint8_t>(b);
  }
  // The format's G numbering.
  std::map<int, int> ren;
  bool dup = false;
  auto name_g = [&](int g) {
    dup |= !ren.emplace(g, static_cast<int>(ren.size())).second;
    return ren[g];
  };
  renamed = sc;
  renamed.initial.resize(2);
  for (auto& ip : renamed.initial) {
    for (int& g : ip.ring) g = name_g(g);
    if (ip.runnext >= 0) ip.runnext = name_g(ip.runnext);
  }
  for (int& g : renamed.global) g = name_g(g);
  std::vector<std::uint8_t> ops;
  for (int t = 0; t < n; t++) {
    auto& script = renamed.threads[static_cast<std::size_t>(t)];
    if (script.size() > static_cast<std::size_t>(kMaxOpsPerThread))
      return "thread " + std::to_string(t) + " has more than 8 ops";
    ops.push_back(static_cast<std::uint8_t>(script.size()));
    for (model::op& o : script) {
      std::string what = std::string(model::name(o.kind));
      if (detail::puts_g(o.kind)) o.g = static_cast<std::int16_t>(name_g(o.g));
      int index = -1, arg = -1;
      for (int i = 0; i < 7; i++)
        if (kByteKinds[i] == o.kind) index = i, arg = 0;
      for (int j = 0; j < 3; j++)
        if (kByteKinds7[j] == o.kind) index = 7;
      if (index < 0) return "uses " + what + " (not in the format's byte table)";
      if (detail::owns_p(o.kind) && o.p != t)
        return "thread " + std::to_string(t) + " runs " + what + " as the owner of P" +
               std::to_string(o.p) + " (the format: thread t owns P t)";
      if (o.kind == k::steal || o.kind == k::steal_next) {
        arg = -1;
        for (int a = 0; a < n - 1; a++)
          if ((t + 1 + a) % n == o.victim) arg = a;
      } else if (o.kind == k::glob_put || o.kind == k::glob_get) {
        arg = o.kind == k::glob_put ? 0 : 1;
      } else if (o.kind == k::wait_done) {
        arg = -1;
        for (int a = 31; a >= 0; a--)
          if (t > 0 && a % 3 == 2 && a % t == o.victim) arg = a;
      }
      if (arg < 0)
        return what + " on thread " + std::to_string(t) + " has no byte (victim or target)";
      ops.push_back(static_cast<std::uint8_t>(index + 8 * arg));
    }
  }
  bool range = ren.empty() || (ren.begin()->first >= 0 && ren.rbegin()->first < sc.ngs);
  if (dup || !range || static_cast<int>(ren.size()) != sc.ngs)
    return "its G ids are not each introduced once (0 .. ngs-1)";
  out.assign(std::begin(kMagic), std::end(kMagic));
  auto fill = [&](std::size_t p) { return p < sc.initial.size() ? sc.initial[p].ring.size() : 0; };
  auto next = [&](std::size_t p) { return p < sc.initial.size() && sc.initial[p].runnext >= 0; };
  out.push_back(0);  // subject 0: the build's first
  out.push_back(static_cast<std::uint8_t>(cap_index));
  out.push_back(static_cast<std::uint8_t>(n - 2));
  out.push_back(static_cast<std::uint8_t>(fill(0)));
  out.push_back(static_cast<std::uint8_t>(fill(1)));
  std::size_t extras = (next(0) ? 1 : 0) | (next(1) ? 2 : 0) | sc.global.size() << 2;
  out.push_back(static_cast<std::uint8_t>(extras));
  out.push_back(counters);
  out.insert(out.end(), ops.begin(), ops.end());
  out.insert(out.end(), schedule.begin(), schedule.end());
  // The decoder drops ops that could break a precondition: check none was.
  decoded d;
  if (parse(out, 1, d) != parse_error::none || !same_scenario(d.sc, renamed))
    return "the decoder would drop an op (a steal or batch into a ring that may be too full)";
  renamed.name = sc.name;
  return "";
}

}  // namespace runqcheck::fuzz
