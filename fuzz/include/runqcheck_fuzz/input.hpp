// runqcheck_fuzz/input.hpp — the seed format: one byte string that is both a
// scenario (models/scenarios) and the interleaving to run it under. It is
// what libFuzzer mutates, what a crash file holds, and what `runqcheck
// replay` reads. Version 1:
//
//   0..3   "RQF" 0x01                      magic and version
//   4      subject      index into the build's subject list (mod its length)
//   5      cap          4 << (b % 7): ring capacity 4 .. 256
//   6      threads      2 + b % 2; thread t owns P t (nprocs = threads)
//   7, 8   fill P0, P1  b % (cap + 1) Gs in the ring before the threads start
//   9      extras       bit 0/1: P0/P1 runnext set; bits 2-4: Gs on the global queue
//   10     counters     0: runqhead = runqtail = 0; else 2^32 - b (wrap; core only)
//   then per thread: a length byte (b % 9 ops), then one byte per op:
//          kind = b % 8 (put, put_next, get, steal, steal_next, drain,
//          glob_batch, glob_put/glob_get/wait_done), argument = b / 8
//          (kByteKinds below; encode.hpp writes the bytes back)
//   the rest: scheduling choices, one byte per choice (input_scheduler.hpp);
//          when they run out, choices fall back deterministically.
//
// Ops the harness must not issue are dropped at decode time, so every input
// is a legal scenario: a steal or a global batch into a ring that may hold
// too much to take it (Go steals only into an empty ring; runqsteal throws
// "runq overflow" otherwise), a wait on a thread that could wait back.
// G ids are assigned in order: fills, global, then each put.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "scenario.hpp"

namespace runqcheck::fuzz {

inline constexpr std::uint8_t kMagic[4] = {'R', 'Q', 'F', 1};
inline constexpr std::size_t kHeaderSize = 11;
inline constexpr int kMaxOpsPerThread = 8;
inline constexpr std::uint32_t kCaps[] = {4, 8, 16, 32, 64, 128, 256};

// Gs a decoded scenario may use for ring capacity cap: two full rings, the
// global queue's 7, and every thread's puts.
constexpr int max_gs(std::uint32_t cap) { return static_cast<int>(2 * cap) + 40; }

struct decoded {
  int subject = 0;  // index, already reduced mod the subject count
  model::scenario sc;
  std::span<const std::uint8_t> schedule;  // the choice bytes
  std::size_t header_bytes = 0;            // bytes before the schedule
};

enum class parse_error { none, too_short, bad_magic, bad_version, truncated };

inline const char* describe(parse_error e) {
  switch (e) {
    case parse_error::none: return "ok";
    case parse_error::too_short: return "not a runqcheck seed (shorter than its 11-byte header)";
    case parse_error::bad_magic: return "not a runqcheck seed (no RQF magic)";
    case parse_error::bad_version: return "unsupported seed version (this build reads version 1)";
    case parse_error::truncated: return "truncated seed (ends inside its thread scripts)";
  }
  return "?";
}

// The op byte: kind = kByteKinds[b % 8], argument = b / 8; the last entry is
// three kinds, chosen by argument % 3 (kByteKinds7). The encoder inverts both.
using k = model::op_kind;
inline constexpr k kByteKinds[7] = {k::put,        k::put_next, k::get,       k::steal,
                                    k::steal_next, k::drain,    k::glob_batch};
inline constexpr k kByteKinds7[3] = {k::glob_put, k::glob_get, k::wait_done};

constexpr k byte_kind(std::uint8_t b) {
  return b % 8 < 7 ? kByteKinds[b % 8] : kByteKinds7[(b / 8) % 3];
}

namespace detail {
inline model::op decode_op(std::uint8_t b, int t, int nthreads, int& next_g) {
  int arg = b / 8;
  int victim = (t + 1 + arg % (nthreads - 1)) % nthreads;
  auto p = static_cast<std::uint8_t>(t);
  model::op o{byte_kind(b), p};
  switch (o.kind) {
    case model::op_kind::put:
    case model::op_kind::put_next: o.g = static_cast<std::int16_t>(next_g++); break;
    case model::op_kind::steal:
    case model::op_kind::steal_next: o.victim = static_cast<std::uint8_t>(victim); break;
    case model::op_kind::glob_put: o = model::glob_put(next_g++); break;
    case model::op_kind::glob_get: o = model::glob_get(); break;
    // thread 0 never waits (below)
    case model::op_kind::wait_done: o = model::wait_done(t == 0 ? 0 : arg % t); break;
    default: break;
  }
  return o;
}
}  // namespace detail

// Decodes `in`; `nsubjects` is how many subjects the build has.
inline parse_error parse(std::span<const std::uint8_t> in, int nsubjects, decoded& out) {
  if (in.size() < kHeaderSize) return parse_error::too_short;
  if (in[0] != kMagic[0] || in[1] != kMagic[1] || in[2] != kMagic[2]) return parse_error::bad_magic;
  if (in[3] != kMagic[3]) return parse_error::bad_version;
  out = decoded{};
  out.subject = nsubjects > 0 ? in[4] % nsubjects : 0;
  model::scenario& sc = out.sc;
  sc.name = "fuzz";
  sc.targets = "a fuzz input";
  sc.cap = kCaps[in[5] % 7];
  int nthreads = 2 + in[6] % 2;
  sc.nprocs = nthreads;
  int next_g = 0;
  sc.initial.resize(2);
  // How full each thread's own ring may be (an upper bound: only the owner
  // adds to its ring; thieves only take away).
  std::uint32_t bound[3] = {0, 0, 0};
  for (int p = 0; p < 2; p++) {
    std::uint32_t fill = in[7 + p] % (sc.cap + 1);
    for (std::uint32_t i = 0; i < fill; i++) sc.initial[p].ring.push_back(next_g++);
    if (in[9] & (1u << p)) sc.initial[p].runnext = next_g++;
    bound[p] = fill;
  }
  for (int i = 0, n = (in[9] >> 2) & 7; i < n; i++) sc.global.push_back(next_g++);
  sc.start_counter = in[10] == 0 ? 0u : static_cast<std::uint32_t>(0x100000000ull - in[10]);
  std::size_t pos = kHeaderSize;
  sc.threads.resize(static_cast<std::size_t>(nthreads));
  for (int t = 0; t < nthreads; t++) {
    if (pos >= in.size()) return parse_error::truncated;
    int len = in[pos++] % (kMaxOpsPerThread + 1);
    for (int i = 0; i < len; i++) {
      if (pos >= in.size()) return parse_error::truncated;
      int g_before = next_g;
      model::op o = detail::decode_op(in[pos++], t, nthreads, next_g);
      bool keep = true;
      std::uint32_t& b = bound[t];
      switch (o.kind) {
        case model::op_kind::put:
        case model::op_kind::put_next: b = b + 1 > sc.cap ? sc.cap : b + 1; break;
        case model::op_kind::steal:
        case model::op_kind::steal_next:
          keep = b < sc.cap / 2;  // runqsteal's overflow check: t-h+n < cap, n <= cap/2
          if (keep) b += sc.cap / 2;
          break;
        case model::op_kind::drain: b = 0; break;
        case model::op_kind::glob_batch:
          keep = b == 0;  // findRunnable batches into an empty ring
          if (keep) b = sc.cap / 2;
          break;
        case model::op_kind::wait_done: keep = t > 0; break;
        default: break;
      }
      if (keep) sc.threads[static_cast<std::size_t>(t)].push_back(o);
      else next_g = g_before;
    }
  }
  sc.ngs = next_g;
  out.header_bytes = pos;
  out.schedule = in.subspan(pos);
  return parse_error::none;
}

}  // namespace runqcheck::fuzz
