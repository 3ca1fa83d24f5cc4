// Buggy variants of acme::workq, one bug each, for runqcheck's own tests
// (ci/test): each must be rejected by the check named in its comment, a
// check that needs one of the optional subject hooks or that used to run
// only on the bundled port. Not a port to copy.
#pragma once

#include <utility>

#include "workq.hpp"

namespace acme {

// After a claim of n Gs into thief's free slots: publish all but the last,
// return the last (runqsteal's tail).
template <class B, std::uint32_t Cap>
runqcheck::g<B>* publish(typename workq<B, Cap>::p& thief, std::uint32_t n) {
  std::uint32_t tl = thief.last.load_plain();
  runqcheck::g<B>* gp = thief.slots[(tl + n - 1) % Cap].load(std::memory_order::relaxed);
  thief.last.store(tl + n - 1, std::memory_order::release);  // release: publishes the Gs
  return gp;
}

// workq::runqsteal over Q::grab (a variant whose bug is in its grab).
template <class B, std::uint32_t Cap, class Q>
runqcheck::g<B>* steal_by(typename workq<B, Cap>::p& thief, typename workq<B, Cap>::p& victim,
                          bool stealRunNextG) {
  using ctr = typename workq<B, Cap>::ctr;
  constexpr auto relaxed = std::memory_order::relaxed;
  ctr n = Q::grab(victim, thief, stealRunNextG);
  if (n == 0) return nullptr;
  n--;
  ctr l = thief.last.load_plain();
  runqcheck::g<B>* gp = thief.slots[(l + n) % Cap].load(relaxed);
  if (n == 0) return gp;
  ctr f = thief.first.load(std::memory_order::acquire);  // acquire: other consumers
  RQ_CHECK(B, l - f + n < Cap, "acme: thief ring has no room for the stolen Gs", "n", n);
  thief.last.store(l + n, std::memory_order::release);  // release: publishes the stolen Gs
  return gp;
}

// Counters compared as plain numbers: `last < first + Cap` is wrong once
// first + Cap wraps past 2^32. Rejected by the wrap scenarios and tests
// (hook set_runq_counters).
template <class B, std::uint32_t Cap>
struct wrap_bug : workq<B, Cap> {
  using base = workq<B, Cap>;
  using typename base::G;
  using typename base::p;
  static constexpr const char* name = "acme-wrap-bug";
  static void runqput(p& q, G* gp, bool next) {
    if (next) {
      G* old = q.next_up.load(base::relaxed);
      while (!q.next_up.compare_exchange_strong(old, gp, base::release, base::relaxed)) {
      }
      if (old == nullptr) return;
      gp = old;
    }
    for (;;) {
      std::uint32_t f = q.first.load(base::acquire);
      std::uint32_t l = q.last.load_plain();
      if (l < f + Cap) {  // THE BUG: not modular
        q.slots[l % Cap].store(gp, base::relaxed);
        q.last.store(l + 1, base::release);
        return;
      }
      if (base::spill(q, gp, f, l)) return;
    }
  }
};

// A thief leaves the bigger half behind when the victim also has a next-up
// G: floor(n/2) instead of ceil(n/2). Rejected by the steal-size invariant
// (hook runq_counters) and the reference model.
template <class B, std::uint32_t Cap>
struct steal_bug : workq<B, Cap> {
  using base = workq<B, Cap>;
  using typename base::G;
  using typename base::p;
  static constexpr const char* name = "acme-steal-bug";
  static G* runqsteal(p& thief, p& victim, bool stealRunNextG) {
    for (;;) {
      std::uint32_t f = victim.first.load(base::acquire);
      std::uint32_t l = victim.last.load(base::acquire);
      std::uint32_t n = l - f;
      if (n < 2 || victim.next_up.load(base::relaxed) == nullptr) break;
      n /= 2;  // THE BUG: Go takes n - n/2
      if (!base::claim(victim, thief, f, n)) continue;
      return publish<B, Cap>(thief, n);
    }
    return base::runqsteal(thief, victim, stealRunNextG);
  }
};

// procresize puts the dying P's Gs on the global head one at a time, so the
// ring arrives reversed (a real port's bug). Rejected by destroy's order
// (unit) and the procresize property (hook set_gomaxprocs).
template <class B, std::uint32_t Cap>
struct resize_bug : workq<B, Cap> {
  using base = workq<B, Cap>;
  using typename base::G;
  using typename base::p;
  static constexpr const char* name = "acme-resize-bug";
  static void destroy(p& q) {
    runqcheck::gQueue<B> mine = base::runqdrain(q);
    held<B> lk(*q.home);
    while (G* gp = mine.pop()) q.home->q.push(gp);  // THE BUG: reverses the order
  }
};

// findRunnable's global step on a full ring drops what did not fit, with no
// error. Rejected by FindRunnableGlobrunq_FullLocalRingFailsOrKeepsEveryG,
// which used to run on the bundled ports only.
template <class B, std::uint32_t Cap>
struct fullring_bug : workq<B, Cap> {
  using base = workq<B, Cap>;
  using typename base::G;
  using typename base::p;
  static constexpr const char* name = "acme-fullring-bug";
  static G* findRunnable_globrunq(p& q) {
    runqcheck::gQueue<B> batch;
    G* gp = base::take_global(q, batch);
    base::runqputbatch(q, batch);  // THE BUG: leftovers in `batch` are lost
    return gp;
  }
};

// A thief reads the victim's `last` plainly, as the owner may: a data race
// with the owner's store (C++ and Go alike). Rejected by Relacy's race check
// of load_plain (and by TSan when the race happens).
template <class B, std::uint32_t Cap>
struct plain_read_bug : workq<B, Cap> {
  using base = workq<B, Cap>;
  using typename base::G;
  using typename base::p;
  static constexpr const char* name = "acme-plain-read-bug";
  static G* runqsteal(p& thief, p& victim, bool stealRunNextG) {
    for (;;) {
      std::uint32_t f = victim.first.load(base::acquire);
      std::uint32_t l = victim.last.load_plain();  // THE BUG: not the owner's field
      std::uint32_t n = l - f;
      n -= n / 2;
      if (n == 0 || n > Cap / 2) break;
      if (!base::claim(victim, thief, f, n)) continue;
      return publish<B, Cap>(thief, n);
    }
    return base::runqsteal(thief, victim, stealRunNextG);
  }
};

// acme::workq as a port that skips every optional hook (runq_counters,
// set_runq_counters, set_gomaxprocs, describe_p): the checks that stay must
// still reject the bugs below, each once accepted by every column.
template <class B, class W>
struct bare {
  using G = typename W::G;
  using p = typename W::p;
  using schedt = typename W::schedt;
  static constexpr const char* name = W::name;
  static bool runqempty(p& q) { return W::runqempty(q); }
  static void runqput(p& q, G* gp, bool next) { W::runqput(q, gp, next); }
  static void runqputbatch(p& q, runqcheck::gQueue<B>& in) { W::runqputbatch(q, in); }
  static auto runqget(p& q) { return W::runqget(q); }
  static auto runqdrain(p& q) { return W::runqdrain(q); }
  static G* runqsteal(p& t, p& v, bool next) { return W::runqsteal(t, v, next); }
  static void globrunqput(schedt& c, G* gp) { W::globrunqput(c, gp); }
  static G* globrunqget(schedt& c) { return W::globrunqget(c); }
  static std::int32_t globrunqsize(schedt& c) { return W::globrunqsize(c); }
  static G* findRunnable_globrunq(p& q) { return W::findRunnable_globrunq(q); }
  static void destroy(p& q) { W::destroy(q); }
};

// next_up's G taken by CAS, as workq::runqget starts: {the G seen, won}.
template <class B, std::uint32_t Cap>
std::pair<runqcheck::g<B>*, bool> take_next_up(typename workq<B, Cap>::p& q) {
  runqcheck::g<B>* n = q.next_up.load(std::memory_order::relaxed);
  runqcheck::g<B>* want = n;
  // release: pairs with runqempty's acquire of next_up
  return {n, n != nullptr && q.next_up.compare_exchange_strong(want, nullptr,
                                                               std::memory_order::release,
                                                               std::memory_order::relaxed)};
}

// runqget hands out a ring G with inheritTime=true after its next-up CAS
// lost to a thief. Rejected by the scenario world's inheritTime check
// (Relacy: owner_vs_thief).
template <class B, std::uint32_t Cap>
struct inherit_q : workq<B, Cap> {
  using base = workq<B, Cap>;
  static constexpr const char* name = "acme-inherit-bug";
  static typename base::got runqget(typename base::p& q) {
    auto [n, won] = take_next_up<B, Cap>(q);
    if (won) return {n, true};
    typename base::got r = base::runqget(q);
    r.inheritTime = n != nullptr;  // THE BUG: the ring's G, not next-up's
    return r;
  }
};
template <class B, std::uint32_t Cap>
struct inherit_bug : bare<B, inherit_q<B, Cap>> {};

// runqget gives up when its next-up CAS loses to a thief, though the ring
// may hold Gs. Rejected by the scenario world's check of a nil (Relacy:
// owner_vs_thief).
template <class B, std::uint32_t Cap>
struct nil_q : workq<B, Cap> {
  using base = workq<B, Cap>;
  static constexpr const char* name = "acme-nil-bug";
  static typename base::got runqget(typename base::p& q) {
    auto [n, won] = take_next_up<B, Cap>(q);
    if (won) return {n, true};
    if (n != nullptr) return {nullptr, false};  // THE BUG: the ring is not looked at
    return base::runqget(q);
  }
};
template <class B, std::uint32_t Cap>
struct nil_bug : bare<B, nil_q<B, Cap>> {};

// wrap_bug without hooks: rejected by the exhaustive column's wrap_2_32,
// whose counters the harness finds by behaviour (models/scenarios/
// counters.hpp), and by the nightly unit_wrap_native, which drives the
// counters past 2^32 with the port's own operations; Relacy and lincheck
// say "not applied".
template <class B, std::uint32_t Cap>
struct wrapbare_bug : bare<B, wrap_bug<B, Cap>> {};

// A steal's guard against an inconsistent (first, last) compares them as
// plain numbers, `last < first`, besides the size: while the victim's ring
// straddles 2^32 the thief retries until the owner's own gets move `first`
// past it, so a thief beside an owner that stops waits for good. No hooks.
// The catalog's wrap_2_32 passes it (its owner goes on getting); rejected by
// the generated column's programs across the wrap (generated_wrap).
template <class B, std::uint32_t Cap>
struct grabwrap_q : workq<B, Cap> {
  using base = workq<B, Cap>;
  using typename base::G;
  using typename base::p;
  using ctr = typename base::ctr;
  static constexpr const char* name = "acme-grabwrap-bug";
  static ctr grab(p& victim, p& thief, bool take_next) {
    for (;;) {
      ctr f = victim.first.load(base::acquire);
      ctr l = victim.last.load(base::acquire);
      ctr n = l - f;
      if (n == 0) return base::grab(victim, thief, take_next);
      n -= n / 2;
      if (l < f || n > Cap / 2) continue;  // THE BUG: `l < f` is true across the wrap
      if (base::claim(victim, thief, f, n)) return n;
    }
  }
  static G* runqsteal(p& thief, p& victim, bool stealRunNextG) {
    return steal_by<B, Cap, grabwrap_q>(thief, victim, stealRunNextG);
  }
};
template <class B, std::uint32_t Cap>
struct grabwrap_bug : bare<B, grabwrap_q<B, Cap>> {};

// acme::workq without hooks, correct: the exhaustive column runs its wrap
// scenarios through the counters found by behaviour, and passes it.
template <class B, std::uint32_t Cap>
struct bare_workq : bare<B, workq<B, Cap>> {};

// The global batch goes into the ring with runqput while mu is held; on a
// full ring runqput spills, which takes mu again (Go <= 1.24's latent
// self-deadlock). The native backend's mutex reports it, a fatal error of
// the harness's, not the port's: rejected by
// FindRunnableGlobrunq_FullLocalRingFailsOrKeepsEveryG.
template <class B, std::uint32_t Cap>
struct lock_q : workq<B, Cap> {
  using base = workq<B, Cap>;
  using typename base::G;
  using typename base::p;
  static constexpr const char* name = "acme-lock-bug";
  static G* findRunnable_globrunq(p& q) {
    held<B> lk(*q.home);  // THE BUG: held across runqput
    std::int32_t size = q.home->q.size();
    std::int32_t n = std::min({static_cast<std::int32_t>(Cap / 2), size, size / q.home->nproc + 1});
    if (n == 0) return nullptr;
    G* gp = q.home->q.pop();
    for (std::int32_t i = 1; i < n; i++) base::runqput(q, q.home->q.pop(), false);
    return gp;
  }
};
template <class B, std::uint32_t Cap>
struct lock_bug : bare<B, lock_q<B, Cap>> {};

// acme::workq with 64-bit counters, correct: its hooks take and return
// uint64, so the wrap scenarios and tests run its counters near 2^64, and
// every check applies and passes.
template <class B, std::uint32_t Cap>
struct wide : workq<B, Cap, std::uint64_t> {
  static constexpr const char* name = "acme-wide";
};

// acme::wide whose runqget tests emptiness with Empty{}(first, last) in place of
// `first == last`: the counter bugs below.
template <class B, std::uint32_t Cap, class Empty>
struct wide_empty_q : wide<B, Cap> {
  using base = workq<B, Cap, std::uint64_t>;
  static typename base::got runqget(typename base::p& q) {
    if (typename base::G* n = q.next_up.load(base::relaxed); n != nullptr) {
      typename base::G* want = n;
      // release: pairs with runqempty's acquire of next_up
      if (q.next_up.compare_exchange_strong(want, nullptr, base::release, base::relaxed))
        return {n, true};
    }
    for (;;) {
      std::uint64_t f = q.first.load(base::acquire);  // acquire: other consumers
      std::uint64_t l = q.last.load_plain();
      if (Empty{}(f, l)) return {nullptr, false};  // THE BUG (each Empty below)
      typename base::G* gp = q.slots[f % Cap].load(base::relaxed);
      // release: our slot read happens before the slot is reused
      if (q.first.compare_exchange_strong(f, f + 1, base::release, base::relaxed))
        return {gp, false};
    }
  }
};

// 64-bit counters taken never to wrap: runqget tests emptiness with `>=`,
// right below 2^64 only (l wraps to 0 after f). Rejected by the wrap checks
// run at the port's width (unit Wrap_PutGetStealAcross2To32, explore and
// relacy wrap_2_32); run near 2^32, as the hooks once were, it passes.
struct empty_ge {
  bool operator()(std::uint64_t f, std::uint64_t l) const { return f >= l; }
};
template <class B, std::uint32_t Cap>
struct wide_wrap_bug : wide_empty_q<B, Cap, empty_ge> {
  static constexpr const char* name = "acme-wide-wrap-bug";
};

// The 64-bit ports without hooks: the counters are found at their own width
// (8 bytes) and started at 2^64 - k. widebare passes the exhaustive column's
// wrap_2_32; widebare_wrap_bug fails it.
template <class B, std::uint32_t Cap>
struct widebare : bare<B, wide<B, Cap>> {};
template <class B, std::uint32_t Cap>
struct widebare_wrap_bug : bare<B, wide_wrap_bug<B, Cap>> {};

// 64-bit counters compared as signed: runqget's emptiness test is
// `int64(f) >= int64(l)`, right across 2^64 (both wrap together) but not
// across 2^63, where l turns negative first. No hooks. Every catalog wrap
// scenario (at 2^64 - k) passes it; the generated programs across the sign
// boundary (generated_sign: counters at 2^63 - 2) reject it. A held-out
// port's bug that passed every other column.
struct empty_signed_ge {
  bool operator()(std::uint64_t f, std::uint64_t l) const {
    return static_cast<std::int64_t>(f) >= static_cast<std::int64_t>(l);
  }
};
template <class B, std::uint32_t Cap>
struct wide_sign_bug : wide_empty_q<B, Cap, empty_signed_ge> {
  static constexpr const char* name = "acme-wide-sign-bug";
};
template <class B, std::uint32_t Cap>
struct widebare_sign_bug : bare<B, wide_sign_bug<B, Cap>> {};

// A thief that changes course after a failed try: once its CAS of the
// victim's next-up failed, the next try takes next-up with a store, not a
// CAS (THE BUG: the owner's runqget may take the same G meanwhile). The
// failed try wrote nothing, so the generated column's retry reduction, which
// assumes a retry loop restarts from scratch, never takes the second try;
// its check on the port (generated.cpp's retry_check) sees the full search
// fail a program the reduction passes, turns the reduction off, and the full
// search rejects the port (tests generated_retry*/acme_retry_next_bug).
template <class B, std::uint32_t Cap>
struct retry_next_q : workq<B, Cap> {
  using base = workq<B, Cap>;
  using typename base::ctr;
  using typename base::G;
  using typename base::p;
  static constexpr const char* name = "acme-retry-next-bug";
  static ctr grab(p& victim, p& thief, bool take_next) {
    for (bool failed = false;;) {
      ctr f = victim.first.load(base::acquire);  // acquire: other consumers
      ctr l = victim.last.load(base::acquire);   // acquire: the owner's release of last
      ctr n = l - f;
      if (n == 0) {
        if (!take_next) return 0;
        G* nx = victim.next_up.load(base::relaxed);
        if (nx == nullptr) return 0;
        G* want = nx;
        if (failed) {
          victim.next_up.store(nullptr, base::release);  // THE BUG
        } else if (!victim.next_up.compare_exchange_strong(want, nullptr,
                                                           std::memory_order::acq_rel,
                                                           base::relaxed)) {
          failed = true;
          continue;
        }
        thief.slots[thief.last.load_plain() % Cap].store(nx, base::relaxed);
        return 1;
      }
      n -= n / 2;
      if (n > Cap / 2) continue;  // inconsistent f, l
      if (base::claim(victim, thief, f, n)) return n;
    }
  }
  static G* runqsteal(p& thief, p& victim, bool stealRunNextG) {
    return steal_by<B, Cap, retry_next_q>(thief, victim, stealRunNextG);
  }
};
template <class B, std::uint32_t Cap>
struct retry_next_bug : bare<B, retry_next_q<B, Cap>> {};

// Not a bug: runqput's tail store seq_cst where release suffices (a port
// that writes every order as a full fence). The exhaustive column's order
// advice (--advise) reports that line as stronger than needed
// (tests/explore/advice_strict.sh).
template <class B, std::uint32_t Cap>
struct strict : workq<B, Cap, std::uint32_t, std::memory_order::seq_cst> {
  static constexpr const char* name = "acme-strict";
};

}  // namespace acme
