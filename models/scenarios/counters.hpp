// models/scenarios/counters.hpp — a port's ring counters found by what the
// port does with them, for the wrap scenarios of a port without the optional
// hook S::set_runq_counters (subject.hpp), on a backend that records the
// set-up's accesses (explore and relacy: B::setup_recorder,
// B::set_setup_value).
//
// As the weak-memory column tells roles apart (proofs/weak/port_orders.py),
// never by a member name: on a fresh P, one runqput of a G with next=false,
// then one runqget that must return it. The tail is the one location of an
// unsigned integer type that the runqput advances by one (its value after
// the operation is one more than before) and the head the one that the
// runqget advances by one, from the tail's value before the put (equal
// values: a fresh P is empty), both of the same width W (their sizeof). Any
// other shape (no such location, two of them, other widths: a queue under a
// lock, counters kept elsewhere, a size field) is "not found", with why. A
// head that packs counters of the tail's width into one wider word (tokio's
// pack(steal, real): a u64 of two u32s) is found too: the runqget advances
// each W-bit lane of it by one from the tail's value. The harness then sets
// both (each lane of a packed head) to the scenario's start at W bits (2^W -
// k for a scenario written 2^32 - k), as set_runq_counters would; the G used
// to find them stays behind in a slot the ring treats as free.
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <vector>

#include "runqcheck/g.hpp"

namespace runqcheck::model {

// A backend that can record the set-up's accesses (each a B::setup_access:
// key, the location's identity; bytes; counter_type; writes; before, after)
// and set a location then; B::setup_finds_counters: whether the scenario
// world (exec.hpp) uses it.
template <class B>
concept finds_counters = requires(const typename B::setup_access& a) {
  typename B::setup_recorder;
  a.key;
  B::set_setup_value(a, std::uint64_t{0});
  { B::setup_finds_counters } -> std::convertible_to<bool>;
};

template <class B>
struct found_counters {
  typename B::setup_access head, tail;  // their last accesses
  std::uint8_t bytes = 0;               // W / 8
  std::uint8_t head_lanes = 1;          // counters packed in the head (head.bytes / bytes)
  std::string why;                      // empty: found
  // What the head is set to for counters at v: v in each lane.
  std::uint64_t head_value(std::uint64_t v) const {
    std::uint64_t out = 0;
    for (int i = 0; i < head_lanes; i++) out |= v << (8 * bytes * i);
    return out;
  }
};

namespace detail {
inline std::uint64_t width_mask(std::uint8_t bytes) {
  return bytes >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << 8 * bytes) - 1;
}

// Whether a, a location of counter type written by the operation, holds
// counters of `lane` bytes each advanced by one from `from` (one lane: any
// value before).
template <class A>
bool lanes_advanced(const A& a, std::uint8_t lane, const std::uint64_t* from) {
  if (!a.writes || !a.counter_type || lane == 0 || a.bytes % lane != 0) return false;
  std::uint64_t m = width_mask(lane);
  for (int i = 0; i < a.bytes / lane; i++) {
    std::uint64_t b = a.before >> (8 * lane * i) & m, e = a.after >> (8 * lane * i) & m;
    if (((b + 1) & m) != e || (from != nullptr && b != *from)) return false;
  }
  return true;
}

// Each location an operation accessed, once: its first value (before its
// first access) and last (after its last).
template <class A>
std::vector<A> net(const std::vector<A>& acc) {
  std::vector<A> net;
  for (const A& a : acc) {
    A* n = nullptr;
    for (A& x : net)
      if (x.key == a.key) n = &x;
    if (n == nullptr) {
      net.push_back(a);
      continue;
    }
    n->after = a.after;
    n->writes |= a.writes;
    n->counter_type &= a.counter_type;
  }
  return net;
}

// What an operation wrote to unsigned atomics, for a "not found": "4-byte 0 -> 1, ...".
template <class A>
std::string wrote(const std::vector<A>& acc) {
  std::string s;
  for (const A& a : net(acc))
    if (a.writes && a.counter_type)
      s += (s.empty() ? "" : ", ") + std::to_string(a.bytes) + "-byte " +
           std::to_string(a.before) + " -> " + std::to_string(a.after);
  return s.empty() ? "nothing" : s;
}

// The locations an operation advanced by one, of counter type.
// With `lane` and `from`: also a wider location whose every lane of that
// many bytes advanced by one from `from` (a packed head).
template <class A>
std::vector<A> advanced(const std::vector<A>& acc, std::uint8_t lane = 0,
                        const std::uint64_t* from = nullptr) {
  std::vector<A> out;
  for (const A& a : net(acc))
    if (lanes_advanced(a, a.bytes, nullptr) ||
        (lane != 0 && a.bytes > lane && lanes_advanced(a, lane, from)))
      out.push_back(a);
  return out;
}
}  // namespace detail

// Finds head and tail of pp, which must be fresh (no G ever put); leaves
// it empty, its counters one past where they were. `probe` must outlive pp.
template <class S, class B>
found_counters<B> find_counters(typename S::p& pp, g<B>& probe) {
  using A = typename B::setup_access;
  found_counters<B> f;
  std::vector<A> put, got;
  {
    typename B::setup_recorder r(put);
    S::runqput(pp, &probe, false);
  }
  g<B>* gp = nullptr;
  {
    typename B::setup_recorder r(got);
    gp = S::runqget(pp).gp;
  }
  if (gp != &probe) {
    f.why = "runqget on a fresh P after one runqput did not return that G";
    return f;
  }
  std::vector<A> t = detail::advanced(put);
  std::vector<A> h = t.size() == 1 ? detail::advanced(got, t[0].bytes, &t[0].before)
                                   : detail::advanced(got);
  if (t.empty() && h.empty()) {
    f.why = "no atomic of an unsigned integer type that runqput or runqget advances by one on a "
            "fresh P (a queue under a lock, or counters outside the backend's atomics)";
    return f;
  }
  if (t.size() != 1 || h.size() != 1) {
    f.why = std::to_string(t.size()) +
            " atomic unsigned locations advanced by one by runqput and " +
            std::to_string(h.size()) +
            " by runqget on a fresh P (the ring's tail and head: one each; runqput wrote " +
            detail::wrote(put) + ", runqget wrote " + detail::wrote(got) + ")";
    return f;
  }
  // A packed head: every lane advanced (not the wider word as one counter).
  bool packed = h[0].bytes > t[0].bytes && detail::lanes_advanced(h[0], t[0].bytes, &t[0].before);
  if (t[0].key == h[0].key || (!packed && (t[0].bytes != h[0].bytes ||
                                           t[0].before != h[0].before))) {
    f.why = "the locations runqput and runqget advance by one are not two counters of one width "
            "starting equal (runqput wrote " + detail::wrote(put) + ", runqget wrote " +
            detail::wrote(got) + ")";
    return f;
  }
  f.tail = t[0];
  f.head = h[0];
  f.bytes = t[0].bytes;
  f.head_lanes = static_cast<std::uint8_t>(h[0].bytes / t[0].bytes);
  return f;
}

// A scenario's start_counter at a W-bit counter's width (W = 8 * bytes): written
// 2^32 - k (k < 2^31: the wrap), it is 2^W - k; written 2^31 - k (the sign
// boundary, where a port that compares its counters as signed goes wrong), 2^(W-1) - k.
inline std::uint64_t start_at_width(std::uint32_t start_counter, std::uint8_t bytes) {
  const std::uint64_t mask = detail::width_mask(bytes);
  if (start_counter >= 0x80000000u) {
    std::uint64_t k = std::uint64_t{0x100000000ull} - start_counter;
    return (std::uint64_t{0} - k) & mask;
  }
  std::uint64_t k = std::uint64_t{0x80000000u} - start_counter;
  return ((mask >> 1) + 1 - k) & mask;
}

}  // namespace runqcheck::model
