// models/scenarios/scenario.hpp — a scenario, written once as data: Ps and
// their initial queues, one operation script per thread, the ring capacity.
// Every checker runs the same catalog: the Relacy harness (tests/relacy),
// and later the fuzzer and the stress scheduler. Nothing here names a
// backend or a subject.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <vector>

#include "ops.hpp"

namespace runqcheck::model {

constexpr op put(int p, int g) { return {op_kind::put, std::uint8_t(p), 0, std::int16_t(g)}; }
constexpr op put_next(int p, int g) {
  return {op_kind::put_next, std::uint8_t(p), 0, std::int16_t(g)};
}
constexpr op get(int p) { return {op_kind::get, std::uint8_t(p)}; }
constexpr op steal(int p, int victim) {
  return {op_kind::steal, std::uint8_t(p), std::uint8_t(victim)};
}
constexpr op steal_next(int p, int victim) {
  return {op_kind::steal_next, std::uint8_t(p), std::uint8_t(victim)};
}
constexpr op steal_next_must(int p, int victim) {
  return {op_kind::steal_next_must, std::uint8_t(p), std::uint8_t(victim)};
}
constexpr op drain(int p) { return {op_kind::drain, std::uint8_t(p)}; }
constexpr op glob_batch(int p) { return {op_kind::glob_batch, std::uint8_t(p)}; }
constexpr op glob_put(int g) { return {op_kind::glob_put, 0, 0, std::int16_t(g)}; }
constexpr op glob_get() { return {op_kind::glob_get}; }
constexpr op expect_nonempty(int victim) {
  return {op_kind::expect_nonempty, 0, std::uint8_t(victim)};
}
constexpr op wait_done(int thread) { return {op_kind::wait_done, 0, std::uint8_t(thread)}; }
constexpr op destroy(int p) { return {op_kind::destroy, std::uint8_t(p)}; }
constexpr op empty(int victim) { return {op_kind::empty, 0, std::uint8_t(victim)}; }
constexpr op reput(int p) { return {op_kind::reput, std::uint8_t(p)}; }
constexpr op reput_next(int p) { return {op_kind::reput_next, std::uint8_t(p)}; }
constexpr op put_batch(int p, int g, int n) {
  return {op_kind::put_batch, std::uint8_t(p), 0, std::int16_t(g), std::uint8_t(n)};
}

// Initial contents of one P (put by its owner before the threads start).
struct initial_p {
  std::vector<int> ring = {};  // put in this order with next=false
  int runnext = -1;       // then put with next=true (-1: none)
};

struct scenario {
  std::string_view name = {};
  std::string_view targets = {};  // the race or rule it exists for
  std::uint32_t cap = 4;     // 4 or 8
  int nprocs = 2;
  int ngs = 0;               // Gs are ids 0 .. ngs-1
  std::vector<initial_p> initial = {};  // per P (may be shorter than nprocs)
  std::vector<int> global = {};         // initial global queue, in order
  // runqhead = runqtail = this (S::set_runq_counters); 2^32 - k means 2^W - k
  // for a port with W-bit counters, 2^31 - k 2^(W-1) - k (counters.hpp's
  // start_at_width)
  std::uint32_t start_counter = 0;
  std::vector<std::vector<op>> threads = {};
  // The failure a scenario provokes on purpose (a broken precondition): it
  // passes only if the port raises a fatal error (B::fatal of kind
  // fatal_kind::port, any text); this is Go's text, shown as the example.
  std::string_view expect_fatal = {};
};

}  // namespace runqcheck::model
