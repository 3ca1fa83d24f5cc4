// packed::runq — a run queue in the style of tokio's local queue, checked by
// runqcheck like a user's port: the head is one 64-bit word packing two
// 32-bit counters. It has no set_runq_counters: the wrap scenarios find its
// counters by behaviour (models/scenarios/counters.hpp, a packed head).
// Where the design and Go's contract part: a thief stalled between its two
// CASes keeps its slots, so after 2 * Cap puts past it the owner's put goes
// to the global queue though the ring has room (the stall column's
// thief_steal rejects that); a thief waits for another in flight.
//
// Design:
//  - `front` is ONE 64-bit atomic packing two 32-bit counters: the high half
//    `steal` (the oldest slot a thief may still be reading), the low half
//    `real` (the next G to hand out). `back` is a 32-bit atomic (the tail).
//    steal == real unless a thief is between its two CASes.
//  - The ring holds back - real Gs, at most Cap (Go's capacity), in 2 * Cap
//    slots (a slot is counter % (2 * Cap)): the slots a thief in flight still
//    reads, [steal, real), do not shrink the capacity Go's contract promises.
//    The slots are all in use when back - steal == 2 * Cap.
//  - A thief CASes `real` forward (leaving `steal`), copies the Gs, then
//    CASes `steal` up to the current `real` (two-phase steal). While a thief
//    is in flight another waits for it (tokio's returns nil: Go's contract
//    wants ceil(n/2)).
//  - The owner pops by CASing `real` (and `steal` with it when they were
//    equal). Only the owner writes `back`, the slots and a non-nil `hot`.
//  - `hot` is the LIFO slot (Go's runnext).
//  - A put into a ring with room whose slots are all in use (a thief stalled
//    while the owner ran 2 * Cap puts ahead) sends the G alone to the global
//    queue (tokio's overflow choice). A full ring spills Cap/2 as Go's.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include <runqcheck/subject.hpp>

namespace packed {

enum class flaw {
  none,
  wrap,          // room tested as back < real + Cap: wrong once real + Cap wraps
  stale_settle,  // a steal's steal := real writes the real it claimed, not the current one
  pop_lags,      // the owner's pop moves only real, even when steal == real
};

inline std::uint64_t pack(std::uint32_t steal, std::uint32_t real) {
  return (std::uint64_t{steal} << 32) | real;
}

template <class B>
struct hub {  // the global (injection) queue
  explicit hub(std::int32_t n) : workers(n) {}
  typename B::mutex mu;
  runqcheck::gQueue<B> q;  // guarded by mu
  std::int32_t workers;    // guarded by mu
};

template <class B>
struct guard {
  explicit guard(hub<B>& h) : h_(h) { h_.mu.lock(); }
  ~guard() { h_.mu.unlock(); }
  guard(const guard&) = delete;
  guard& operator=(const guard&) = delete;

 private:
  hub<B>& h_;
};

template <class B, std::uint32_t Cap, flaw F = flaw::none>
struct runq {
  using G = runqcheck::g<B>;
  using schedt = hub<B>;
  static constexpr const char* name = "packed-runq";
  static constexpr auto rlx = std::memory_order::relaxed;
  static constexpr auto acq = std::memory_order::acquire;
  static constexpr auto rel = std::memory_order::release;
  static constexpr auto acq_rel = std::memory_order::acq_rel;

  struct p {
    p(hub<B>& h, std::int32_t n) : home(&h), id(n) {}
    hub<B>* home;
    std::int32_t id;
    typename B::template atomic<std::uint64_t> front{0};  // pack(steal, real)
    typename B::template atomic<std::uint32_t> back{0};
    std::array<typename B::template atomic<G*>, 2 * Cap> slots;
    typename B::template atomic<G*> hot{nullptr};
  };
  struct got {
    G* gp;
    bool inheritTime;
  };
  struct halves {
    std::uint32_t steal, real;
  };

  static halves unpack(std::uint64_t v) {
    auto hi = static_cast<std::uint32_t>(v >> 32), lo = static_cast<std::uint32_t>(v);
    return {hi, lo};
  }
  static constexpr std::uint32_t Slots = 2 * Cap;
  // Room for one more G: fewer than Cap queued, a slot not in use.
  static bool room(std::uint32_t back, halves h) {
    if constexpr (F == flaw::wrap) return back < h.real + Cap && back < h.steal + Slots;
    return back - h.real < Cap && back - h.steal < Slots;
  }

  // Any thread.
  static bool runqempty(p& q) {
    for (;;) {
      halves h = unpack(q.front.load(acq));  // acquire: pairs with consumers' CAS
      std::uint32_t b = q.back.load(acq);     // acquire: pairs with the owner's release
      G* hot = q.hot.load(acq);               // acquire: pairs with the CASes on hot
      if (b == q.back.load(rlx)) return h.real == b && hot == nullptr;
    }
  }

  // Owner only.
  static void runqput(p& q, G* gp, bool next) {
    if (next) {
      G* old = q.hot.load(rlx);
      // release: publishes gp to a thief's acquire CAS
      while (!q.hot.compare_exchange_strong(old, gp, rel, rlx)) {
      }
      if (old == nullptr) return;
      gp = old;
    }
    for (;;) {
      std::uint64_t f = q.front.load(acq);  // acquire: consumers' slot reads are done
      halves h = unpack(f);
      std::uint32_t b = q.back.load_plain();  // own counter
      if (room(b, h)) {
        q.slots[b % Slots].store(gp, rlx);  // published by the store below
        q.back.store(b + 1, rel);  // release: to consumers' acquire
        return;
      }
      if (b - h.real < Cap) {  // a stalled thief holds the slots: gp alone to the global tail
        guard<B> lk(*q.home);
        q.home->q.pushBack(gp);
        return;
      }
      if (spill(q, gp, f, h, b)) return;
    }
  }

  // Owner, full ring: the oldest Cap/2 and gp to the global tail; false if
  // a consumer moved `front` meanwhile. `steal` moves too unless a thief is
  // in flight (its settle then frees these slots as well).
  static bool spill(p& q, G* gp, std::uint64_t f, halves h, std::uint32_t b) {
    std::uint32_t r = h.real, n = (b - r) / 2;
    RQ_CHECK(B, n == Cap / 2, "packed: spill of a ring that is not full", "real", r, "back", b);
    std::array<G*, Cap / 2 + 1> out{};
    for (std::uint32_t i = 0; i < n; i++) out[i] = q.slots[(r + i) % Slots].load(rlx);
    std::uint64_t to = h.steal == r ? pack(r + n, r + n) : pack(h.steal, r + n);
    // release: our slot reads happen before the slots are reused
    if (!q.front.compare_exchange_strong(f, to, rel, rlx)) return false;
    out[n] = gp;
    runqcheck::gQueue<B> batch;
    for (std::uint32_t i = 0; i <= n; i++) batch.pushBack(out[i]);
    guard<B> lk(*q.home);
    q.home->q.pushBackAll(std::move(batch));
    return true;
  }

  // Owner only: as many as fit, in order; the rest stay in `in`.
  static void runqputbatch(p& q, runqcheck::gQueue<B>& in) {
    if (in.empty()) return;
    halves h = unpack(q.front.load(acq));  // acquire: as in runqput
    std::uint32_t b = q.back.load_plain();
    while (!in.empty() && room(b, h)) q.slots[b++ % Slots].store(in.pop(), rlx);
    q.back.store(b, rel);  // release: publishes the slots
  }

  // The owner takes one G off the ring head, or nil.
  static G* pop(p& q) {
    std::uint64_t f = q.front.load(acq);  // acquire: other consumers
    for (;;) {
      halves h = unpack(f);
      std::uint32_t b = q.back.load_plain();
      if (h.real == b) return nullptr;
      G* gp = q.slots[h.real % Slots].load(rlx);
      std::uint32_t r1 = h.real + 1;
      bool both = h.steal == h.real && F != flaw::pop_lags;
      std::uint64_t to = both ? pack(r1, r1) : pack(h.steal, r1);
      // release: our slot read happens before the slot is reused
      if (q.front.compare_exchange_strong(f, to, acq_rel, acq)) return gp;
    }
  }

  // Owner only.
  static got runqget(p& q) {
    if (G* n = q.hot.load(rlx); n != nullptr) {
      // release: pairs with runqempty's acquire of hot
      if (q.hot.compare_exchange_strong(n, nullptr, rel, rlx)) return {n, true};
    }
    return {pop(q), false};
  }

  // Owner only.
  static runqcheck::gQueue<B> runqdrain(p& q) {
    runqcheck::gQueue<B> out;
    if (G* n = q.hot.load(rlx); n != nullptr) {
      // release: as in runqget
      if (q.hot.compare_exchange_strong(n, nullptr, rel, rlx)) out.pushBack(n);
    }
    std::uint64_t f = q.front.load(acq);  // acquire: other consumers
    for (;;) {
      halves h = unpack(f);
      std::uint32_t b = q.back.load_plain();
      if (h.real == b) return out;
      std::uint64_t to = h.steal == h.real ? pack(b, b) : pack(h.steal, b);
      std::array<G*, Cap> got{};
      for (std::uint32_t i = h.real; i != b; i++) got[i - h.real] = q.slots[i % Slots].load(rlx);
      if (!q.front.compare_exchange_strong(f, to, acq_rel, acq)) continue;  // release: as above
      for (std::uint32_t i = 0; i != b - h.real; i++) out.pushBack(got[i]);
      return out;
    }
  }

  // Copies ceil(n/2) of victim's ring into thief's slots from thief's back
  // (or takes victim's hot into *lone); returns how many.
  static std::uint32_t grab(p& victim, p& thief, bool take_hot, G** lone) {
    std::uint64_t f = victim.front.load(acq);  // acquire: other consumers
    for (;;) {
      halves h = unpack(f);
      if (h.steal != h.real) {  // another thief in flight: wait for its settle
        B::spin_pause();
        f = victim.front.load(acq);
        continue;
      }
      std::uint32_t b = victim.back.load(acq);  // acquire: the owner's release of back
      std::uint32_t n = b - h.real;
      if (n == 0) {
        if (!take_hot) return 0;
        G* nx = victim.hot.load(acq);
        if (nx == nullptr) return 0;
        // acquire: pairs with the owner's release CAS that set it
        if (!victim.hot.compare_exchange_strong(nx, nullptr, acq_rel, rlx)) {
          f = victim.front.load(acq);
          continue;
        }
        *lone = nx;
        return 1;
      }
      n -= n / 2;
      if (n > Cap / 2) {  // inconsistent front and back
        f = victim.front.load(acq);
        continue;
      }
      halves th = unpack(thief.front.load(acq));  // acquire: our own ring's consumers
      std::uint32_t tb = thief.back.load_plain();
      bool fits = tb - th.real + n - 1 < Cap;
      if (fits && tb - th.steal + n > Slots) return 0;  // our slots held by a stalled thief
      // acquire: the slots we copy
      if (!victim.front.compare_exchange_strong(f, pack(h.steal, h.real + n), acq_rel, acq))
        continue;
      RQ_CHECK(B, fits, "packed: thief ring overflows", "n", n, "back", tb);
      for (std::uint32_t i = 0; i < n; i++)
        thief.slots[(tb + i) % Slots].store(victim.slots[(h.real + i) % Slots].load(rlx), rlx);
      settle(victim, pack(h.steal, h.real + n));
      return n;
    }
  }

  // Phase 2: steal := real, so that the owner may reuse the slots we read.
  static void settle(p& victim, std::uint64_t prev) {
    std::uint32_t claimed = unpack(prev).real;
    for (;;) {
      std::uint32_t r = F == flaw::stale_settle ? claimed : unpack(prev).real;
      // release: our slot reads happen before the owner overwrites them
      if (victim.front.compare_exchange_strong(prev, pack(r, r), acq_rel, acq)) return;
    }
  }

  // Thief's owner.
  static G* runqsteal(p& thief, p& victim, bool stealRunNextG) {
    G* lone = nullptr;
    std::uint32_t n = grab(victim, thief, stealRunNextG, &lone);
    if (n == 0) return nullptr;
    if (lone != nullptr) return lone;
    n--;
    std::uint32_t b = thief.back.load_plain();
    G* gp = thief.slots[(b + n) % Slots].load(rlx);
    if (n != 0) thief.back.store(b + n, rel);  // release: publishes the stolen Gs
    return gp;
  }

  static void globrunqput(schedt& s, G* gp) {
    guard<B> lk(s);
    s.q.pushBack(gp);
  }
  static G* globrunqget(schedt& s) {
    guard<B> lk(s);
    return s.q.pop();
  }
  static std::int32_t globrunqsize(schedt& s) {
    guard<B> lk(s);
    return s.q.size();
  }

  // Owner, empty ring: n = min(Cap/2, size, size/workers + 1) off the
  // global head, the first returned, the rest into the ring.
  static G* findRunnable_globrunq(p& q) {
    runqcheck::gQueue<B> batch;
    G* gp = nullptr;
    {
      guard<B> lk(*q.home);
      std::int32_t size = q.home->q.size();
      std::int32_t n = std::min({static_cast<std::int32_t>(Cap / 2), size,
                                 size / q.home->workers + 1});
      if (n == 0) return nullptr;
      gp = q.home->q.pop();
      for (std::int32_t i = 1; i < n; i++) batch.pushBack(q.home->q.pop());
    }
    runqputbatch(q, batch);
    if (!batch.empty()) {  // slots held by a stalled thief: the rest back to the global head
      guard<B> lk(*q.home);
      batch.pushBackAll(std::move(q.home->q));
      q.home->q = std::move(batch);
    }
    return gp;
  }

  // World stopped: hot, then the ring oldest first, at the global head.
  static void destroy(p& q) {
    runqcheck::gQueue<B> mine = runqdrain(q);
    guard<B> lk(*q.home);
    mine.pushBackAll(std::move(q.home->q));
    q.home->q = std::move(mine);
  }

  // Hooks (runqcheck/subject.hpp); no set_runq_counters.
  static runqcheck::runq_counters runq_counters(p& q) {
    return {unpack(q.front.load(rlx)).real, q.back.load(rlx)};
  }
  static void set_gomaxprocs(schedt& s, std::int32_t n) {
    guard<B> lk(s);
    s.workers = n;
  }
  static std::string describe_p(p& q) {
    halves h = unpack(q.front.load(rlx));
    std::uint32_t b = q.back.load(rlx);
    std::string s = "steal=" + std::to_string(h.steal) + " real=" + std::to_string(h.real) +
                    " back=" + std::to_string(b) + " hot=" + gname(q.hot.load(rlx)) + " ring=[";
    for (std::uint32_t i = h.real; i != b && i - h.real < Cap; i++)
      s += (i == h.real ? "" : " ") + gname(q.slots[i % Slots].load(rlx));
    return s + "]";
  }
  static std::string describe_sched(schedt& s) {  // without mu
    return "global size=" + std::to_string(s.q.size()) + " head=" + gname(s.q.head());
  }
  static std::string gname(G* gp) { return gp == nullptr ? "nil" : "G" + std::to_string(gp->goid); }
};

template <class B, std::uint32_t Cap>
using wrap_bug = runq<B, Cap, flaw::wrap>;
template <class B, std::uint32_t Cap>
using stale_settle = runq<B, Cap, flaw::stale_settle>;
template <class B, std::uint32_t Cap>
using pop_lags = runq<B, Cap, flaw::pop_lags>;

}  // namespace packed
