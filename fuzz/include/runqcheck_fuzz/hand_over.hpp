// runqcheck_fuzz/hand_over.hpp — which access a data race's hand-over names:
// one rule for the two recorders that say it, Relacy's (trace.hpp, over its
// events) and the exploring engine's picture (tests/explore/picture.hpp, over
// its rows). Thread R's racing read of what thread W wrote: `reads` are R's
// later reads of stores W made after that write, in order. The first that
// applies:
//  1. handed_back: a read of a store W made after W read a write R had made
//     earlier in the same operation as the read. R gave the location back
//     (its CAS on a head, say) and read it again, refilled: the read is what
//     is misplaced, not the store, whatever the write's order (a relaxed claim
//     gives the slot back as surely; held-out round 8 was told the store);
//  2. store: an acquire that read a store without release: that store;
//  3. load: the last read of a release that no later acquire of the same
//     object follows: that load;
//  4. early_release: an acquire of R's before its racing read (`early`: R's
//     reads, in order, of stores W made before its racing write `write`) that
//     read a release made in the write's operation: a publication made before the write it
//     was to publish (a tail or a slot's stamp stored before the slot), the
//     last such. (An earlier operation's release published that operation's
//     writes: a later write, a slot reused say, is no early publication.)
//     Before 5: a design that publishes through a stamp reads its tail relaxed
//     on purpose;
//  5. unordered: a read of a store without release (neither side orders it):
//     the store, and the load beside it.
// A fence counts as the access's own order (C++'s fence synchronization): a
// store after a release fence of its operation is a release, a load before
// an acquire fence of its operation an acquire; so a port that orders with
// fences is told the side whose fence is missing (round 6's held-out queue
// was told its store "is relaxed" though a release fence preceded it).
// Each recorder says its pick in its own words (and the picture adds load
// buffering, which Relacy does not make).
#pragma once

#include <cstddef>
#include <span>

namespace runqcheck::fuzz {

enum class hand_over_kind { none, handed_back, store, load, early_release, unordered };

struct hand_over_pick {
  hand_over_kind kind = hand_over_kind::none;
  int read = -1;  // the read of `reads` it names
  int via = -1;   // handed_back: W's read of R's release
};

// V, a recording by index: rf(i) (the write i read, -1: the initial value),
// thread(i), op(i) (its operation, -1: none), reads(i) (a load, RMW or failed
// CAS), rel(i), acq(i) (an atomic or fence of such an order), fence(i),
// same_obj(i, j), find_before(t, i, pred): thread t's first access j before i
// in its program order with pred(j), else -1; and find_after(t, i, pred): the
// first after i.

// Store s is a release, or a release fence of its operation precedes it.
template <class V>
bool releases(const V& v, int s) {
  if (s < 0) return false;
  if (v.rel(s)) return true;
  return v.op(s) >= 0 && v.find_before(v.thread(s), s, [&](int x) {
    return v.fence(x) && v.rel(x) && v.op(x) == v.op(s);
  }) >= 0;
}
// Read k is an acquire, or an acquire fence of its operation follows it.
template <class V>
bool acquires(const V& v, int k) {
  if (v.acq(k)) return true;
  return v.op(k) >= 0 && v.find_after(v.thread(k), k, [&](int x) {
    return v.fence(x) && v.acq(x) && v.op(x) == v.op(k);
  }) >= 0;
}

template <class V>
hand_over_pick pick_hand_over(const V& v, std::span<const int> reads, int reader,
                              std::span<const int> early = {}, int write = -1) {
  for (int k : reads) {
    int j = v.find_before(v.thread(v.rf(k)), v.rf(k), [&](int x) {
      int c = v.rf(x);
      return v.reads(x) && c >= 0 && c < k && v.thread(c) == reader && v.op(c) >= 0 &&
             v.op(c) == v.op(k);
    });
    if (j >= 0) return {hand_over_kind::handed_back, k, j};
  }
  for (int k : reads)
    if (acquires(v, k) && !releases(v, v.rf(k))) return {hand_over_kind::store, k};
  for (std::size_t i = reads.size(); i-- > 0;) {  // the last: the read closest to the race
    bool later = false;
    for (std::size_t j = i + 1; j < reads.size(); j++)
      later |= v.same_obj(reads[j], reads[i]) && acquires(v, reads[j]);
    if (releases(v, v.rf(reads[i])) && !acquires(v, reads[i]) && !later)
      return {hand_over_kind::load, reads[i]};
  }
  for (std::size_t i = early.size(); write >= 0 && v.op(write) >= 0 && i-- > 0;)
    if (v.op(v.rf(early[i])) == v.op(write) && acquires(v, early[i]) &&
        releases(v, v.rf(early[i])))
      return {hand_over_kind::early_release, early[i]};
  for (int k : reads)
    if (!releases(v, v.rf(k))) return {hand_over_kind::unordered, k};
  return {};
}

}  // namespace runqcheck::fuzz
