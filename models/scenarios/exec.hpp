// models/scenarios/exec.hpp — runs a scenario against a subject S on a
// backend B, and checks the invariants after the execution.
//
// Invariants (each failure is reported through B::fatal, so Relacy prints
// the execution and its replay line, and native runs print and abort):
//  - conservation: every G put is delivered exactly once, counting what is
//    left on the Ps and the global queue at the end;
//  - FIFO: a P's owner gets the Gs it put with next=false in put order
//    (kicked runnext Gs, stolen and batched Gs may interleave; a G that may
//    have left the ring and come back is judged only as a lower bound);
//  - a steal takes ceil(n/2) of the n queued Gs (checked whenever the
//    victim's ring was left alone during the steal; needs S::runq_counters;
//    on a backend that defers loads, its counter loads are no events and it
//    is judged at the end over every value they may read: defers_loads);
//  - runqget's inheritTime is true exactly when the G came from runnext: P
//    p's runnext can only hold the last G p's owner put with next=true, so
//    any other G must come with false, and that G with true while nothing
//    could have moved it to the ring (no bring-in since, no second put);
//  - a nil from runqget means the P was empty at some moment of the call:
//    a lower bound of what the P held (the owner's own puts and gets, less
//    what the steals begun on it could have taken) must not be positive;
//  - runqempty is never spuriously true: expect_nonempty ops; and any
//    runqempty(p) answering true though p's owner never left p empty since
//    the threads started and no steal could have emptied it (judge_empty);
//  - reput / reput_next (generated programs) put again the G the thread
//    received last: a G that ran is reused, so stale pointers to it may be
//    in flight (ABA); histories record them as put / put_next of that G;
//  - put_batch (generated programs: injectglist's own-P step) hands
//    runqputbatch new Gs; what it leaves in the gQueue goes to the global
//    tail, and histories record those leftovers as its result;
//  - a G handed from one thread to another carries its plain state with it
//    (its status, written by the putter, read by the receiver: a data race
//    under Relacy if the hand-off lacks a happens-before edge);
//  - the global queue's size equals what can be popped from it;
//  - under Relacy also: no data race on plain variables (schedlink, the
//    global queue, plain slots), and every RQ_CHECK of the port.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runqcheck/backend.hpp"
#include "runqcheck/g.hpp"
#include "runqcheck/gqueue.hpp"
#include "invariant.hpp"
#include "runqcheck/subject.hpp"
#include "counters.hpp"
#include "hooks.hpp"
#include "scenario.hpp"

namespace runqcheck::model {

inline constexpr int kMaxP = 4;
inline constexpr int kMaxG = 24;
inline constexpr int kMaxThreads = 4;

// An optional observer of the operations a world runs: the fuzzer records
// histories (for the linearizability check) and traces with it. Called by
// the thread running the operation; must not allocate (under Relacy, memory
// allocated during an execution belongs to Relacy's heap). Thread -1 is the
// final check, which empties every P and the global queue with get and
// glob_get operations.
struct op_observer {
  virtual void op_begin(int thread, int index, const op& o) = 0;
  // The Gs the operation delivered, in order; runqget's inheritTime;
  // runqempty's answer (expect_nonempty).
  virtual void op_end(int thread, int index, const op& o, const std::uint64_t* gs, int n,
                      bool inheritTime, bool empty) = 0;
  virtual ~op_observer() = default;
};
inline op_observer* observer = nullptr;

// A backend that keeps a harness's judging loads as places, not events
// (the explore backend: explore/observe.hpp), judged at the execution's end.
template <class B>
concept defers_loads = requires(std::vector<typename B::deferred_load>& out,
                                std::vector<std::pair<int, std::uint64_t>>& values) {
  B::defer_loads(out, [] {});
  B::deferred_values(out.front(), values);
};

// A steal whose steal-size rule is judged at the execution's end: the
// runq_counters loads around it, as the backend kept them.
template <class B, class P>
struct deferred_steal {};
template <class B, class P>
  requires defers_loads<B>
struct deferred_steal<B, P> {
  P* victim = nullptr;
  P* pp = nullptr;
  bool got = false;
  // runq_counters(victim) and runq_counters(pp), before and after the steal.
  std::vector<typename B::deferred_load> loads[4];
};

// MaxG: the Gs a scenario may use (ids 0 .. MaxG-1).
template <class S, class B, int MaxG = kMaxG>
class world {
 public:
  using G = g<B>;
  using P = typename S::p;
  static constexpr int max_g = MaxG;

  // For observers that name what they see (the fuzzer's trace).
  P* proc(int i) { return i < sc_.nprocs ? &*ps_[i] : nullptr; }
  G* goroutine(int i) { return &gs_[i]; }
  // The state a G carries between threads (see hand_off), for the tracer.
  auto* g_status(int i) { return &status_[i]; }
  typename S::schedt& sched() { return sched_; }
  const void* done_flag(int t) const { return &done_[t]; }
  // The steals whose steal-size rule check() judges (defers_loads<B>).
  const std::vector<deferred_steal<B, P>>& deferred_steals() const { return steals_; }

  explicit world(const scenario& sc) : sc_(sc), sched_(sc.nprocs) {
    for (int i = 0; i < sc.nprocs; i++) ps_[i].emplace(sched_, i);
    // status_ starts idle: B::var's default value is 0 (no store per G: under
    // Relacy each one was a recorded access, MaxG of them per execution).
    static_assert(std::uint32_t(gstatus::idle) == 0);
    for (int i = 0; i < MaxG; i++) gs_[i].goid = static_cast<std::uint64_t>(i);
  }

  // Sequential set-up (Relacy: before()).
  void init() {
    running_ = false;
    if (sc_.start_counter != 0) {
      // The hook where the port has one, else the counters found by behaviour
      // (counters.hpp) where B can and its runner wants (B::setup_finds_counters);
      // runners skip such scenarios otherwise (runs_as_written: "not applied";
      // the fuzzer runs them from 0 and says so).
      if constexpr (has_set_runq_counters<S>) {
        for (int i = 0; i < sc_.nprocs; i++) S::set_runq_counters(*ps_[i], start_counter<S>(sc_));
      } else if constexpr (finds_counters<B>) {
        if (B::setup_finds_counters)
          for (int i = 0; i < sc_.nprocs; i++) start_found(*ps_[i]);
      }
    }
    for (std::size_t i = 0; i < sc_.initial.size(); i++) {
      for (int gid : sc_.initial[i].ring) put(static_cast<int>(i), gid, false);
      if (sc_.initial[i].runnext >= 0) put(static_cast<int>(i), sc_.initial[i].runnext, true);
    }
    for (int gid : sc_.global) {
      introduced_[gid]++;
      unsure_next(gid);
      hand_off(&gs_[gid]);
      S::globrunqput(sched_, &gs_[gid]);
    }
    running_ = true;
    for (held_p& h : held_) h.least = h.lower;
  }

  // Thread t's script (Relacy: thread(t)).
  void run(int t) {
    int index = 0;
    for (const op& o0 : sc_.threads[static_cast<std::size_t>(t)]) {
      op o = o0;
      if (o.kind == op_kind::reput || o.kind == op_kind::reput_next) {
        if (last_got_[t] < 0) continue;  // received nothing: nothing to put again
        o = {o.kind == op_kind::reput ? op_kind::put : op_kind::put_next, o.p, 0,
             static_cast<std::int16_t>(last_got_[t])};
        last_got_[t] = -1;  // handed on
      }
      nstep_[t] = 0;
      inherit_[t] = empty_[t] = false;
      if (observer != nullptr) observer->op_begin(t, index, o);
      step(t, o);
      if (observer != nullptr)
        observer->op_end(t, index, o, step_gs_[t], nstep_[t], inherit_[t], empty_[t]);
      index++;
    }
    done_[t].store(1, std::memory_order::release);  // release: pairs with wait_done's acquire
  }

  // Invariants at the end (Relacy: after()).
  void check() {
    if constexpr (defers_loads<B> && has_runq_counters<S>)
      for (const deferred_steal<B, P>& d : steals_) judge_steal_size(d);
    int left[MaxG] = {};
    int index = 0;
    for (int i = 0; i < sc_.nprocs; i++) {
      for (;;) {
        op o = get(i);
        if (observer != nullptr) observer->op_begin(-1, index, o);
        auto r = S::runqget(*ps_[i]);
        std::uint64_t id = r.gp != nullptr ? r.gp->goid : 0;
        if (observer != nullptr)
          observer->op_end(-1, index++, o, &id, r.gp != nullptr, r.inheritTime, false);
        judge_get(i, r.gp, r.inheritTime);
        if (r.gp == nullptr) break;
        RQ_INVARIANT(B, r.gp->goid < static_cast<std::uint64_t>(MaxG),
                     "invariant: delivered a G that was never put", "goid", r.gp->goid);
        if (!r.inheritTime) fifo_get(i, static_cast<int>(r.gp->goid));  // the owner's view too
        count(left, r.gp);
      }
    }
    std::int32_t gsize = S::globrunqsize(sched_);
    std::int32_t popped = 0;
    for (;;) {
      op o = glob_get();
      if (observer != nullptr) observer->op_begin(-1, index, o);
      G* gp = S::globrunqget(sched_);
      std::uint64_t id = gp != nullptr ? gp->goid : 0;
      if (observer != nullptr) observer->op_end(-1, index++, o, &id, gp != nullptr, false, false);
      if (gp == nullptr) break;
      popped++;
      count(left, gp);
    }
    RQ_INVARIANT(B, gsize == popped, "invariant: global queue size disagrees with its contents",
                 "size", gsize, "popped", popped);
    for (int gid = 0; gid < MaxG; gid++) {
      int n = left[gid];
      for (int t = 0; t < kMaxThreads; t++) n += delivered_[t][gid];
      if (n == introduced_[gid]) [[likely]]
        continue;
      std::string v = ::runqcheck::detail::fmt_values("g", gid, "delivered", n, "put",
                                                      introduced_[gid]);
      B::fatal(fatal_info{"invariant: conservation (each G delivered exactly once)",
                          v + takers(gid, left[gid]), std::source_location::current(),
                          fatal_kind::invariant});
    }
  }

 private:
  // A G's plain state travels with it: whoever puts it writes its status,
  // whoever receives it reads and rewrites it. Under Relacy the status is a
  // race-checked variable, so a missing happens-before edge on any path a G
  // takes between threads (tail publication, runnext CAS, the global queue's
  // lock, a steal's republication) is a reported data race.
  void hand_off(G* gp) { status_[gp->goid].store(std::uint32_t(gstatus::runnable)); }

  // Counters found by behaviour on the fresh P pp, started as the scenario
  // says. A runner tries the finder before it runs a wrap scenario (it says
  // "not applied" where it finds nothing): not finding them here (a SPEC
  // with counter= run as it is) fails the run, saying why.
  void start_found(P& pp) {
    if (!probe_) probe_.emplace(kProbeGoid);
    found_counters<B> f = find_counters<S, B>(pp, *probe_);
    if (!f.why.empty())
      B::fatal(fatal_info{"invariant: counters near the wrap need S::set_runq_counters or "
                          "counters found by behaviour, not found:",
                          f.why, std::source_location::current(), fatal_kind::harness});
    std::uint64_t v = start_at_width(sc_.start_counter, f.bytes);
    B::set_setup_value(f.head, f.head_value(v));
    B::set_setup_value(f.tail, v);
  }

  void put(int p, int gid, bool next) {
    introduced_[gid]++;
    hand_off(&gs_[gid]);
    fifo_put(p, gid, next);
    held_put(p, gid, next);
    S::runqput(*ps_[p], &gs_[gid], next);
  }

  // injectglist's step with a P (proc.go): runqputbatch(pp, &q), then
  // what is left in q to the global queue. Go does that under one
  // sched.lock (globrunqputbatch); the contract has globrunqput only, so the
  // leftovers go one by one, and lincheck takes them as one step each.
  // Leftovers are recorded as the operation's result (step_gs_).
  void put_batch(int t, const op& o) {
    gQueue<B> q;
    for (int i = 0; i < o.n; i++) {
      G* gp = &gs_[o.g + i];
      introduced_[o.g + i]++;
      unsure_next(o.g + i);
      hand_off(gp);
      q.pushBack(gp);
    }
    S::runqputbatch(*ps_[o.p], q);
    const int left = q.size();
    // The ring took the first n - left, in order (a port that kept others
    // fails lincheck or conservation, not these lower bounds).
    for (int i = 0; i < o.n - left; i++) {
      fifo_put(o.p, o.g + i, false);
      held_put(o.p, o.g + i, false);
    }
    for (G* gp; (gp = q.pop()) != nullptr;) {
      if (nstep_[t] < MaxG) step_gs_[t][nstep_[t]++] = gp->goid;
      S::globrunqput(sched_, gp);
    }
  }

  void deliver(int t, G* gp) {
    if (gp == nullptr) return;
    RQ_INVARIANT(B, gp->goid < static_cast<std::uint64_t>(MaxG),
                 "invariant: delivered a G that was never put", "goid", gp->goid);
    delivered_[t][gp->goid]++;
    last_got_[t] = static_cast<int>(gp->goid);
    if (nstep_[t] < MaxG) step_gs_[t][nstep_[t]++] = gp->goid;
    RQ_INVARIANT(B, status_[gp->goid].load() == std::uint32_t(gstatus::runnable),
             "invariant: delivered G is not runnable", "goid", gp->goid);
    status_[gp->goid].store(std::uint32_t(gstatus::running));
  }

  static void count(int* left, G* gp) { left[gp->goid]++; }

  // Who had G gid, for the conservation failure: "; taken by T0 2; left at the end 0".
  std::string takers(int gid, int left) const {
    std::string s;
    for (int t = 0; t < kMaxThreads; t++)
      if (delivered_[t][gid] != 0)
        s += (s.empty() ? "" : ", ") + ("T" + std::to_string(t)) + " " +
             std::to_string(delivered_[t][gid]);
    return "; taken by " + (s.empty() ? std::string("no thread") : s) +
           "; left on the queues at the end " + std::to_string(left);
  }

  void step(int t, const op& o) {
    auto& pp = *ps_[o.p];
    switch (o.kind) {
      case op_kind::put: put(o.p, o.g, false); break;
      case op_kind::put_next: put(o.p, o.g, true); break;
      case op_kind::get: {
        lowest(o.p, held_[o.p].lower - 1);  // while it takes one
        auto r = S::runqget(pp);
        inherit_[t] = r.inheritTime;
        deliver(t, r.gp);
        judge_get(o.p, r.gp, r.inheritTime);
        if (r.gp != nullptr && !r.inheritTime) fifo_get(o.p, static_cast<int>(r.gp->goid));
        break;
      }
      case op_kind::steal:
      case op_kind::steal_next:
      case op_kind::steal_next_must: {
        held_[o.victim].steals_begun++;
        if (o.kind != op_kind::steal) held_[o.victim].next_steals++;
        G* gp = steal(pp, *ps_[o.victim], o.kind != op_kind::steal);
        held_[o.victim].steals_ended++;
        if (o.kind == op_kind::steal_next_must) {
          RQ_INVARIANT(B, gp != nullptr,
                       "invariant: a steal found nothing though the victim always had a G", "p",
                       o.victim);
        }
        if (gp != nullptr) {
          fifo_p_[o.p].epoch++;
          brought_in(o.p);
        }
        deliver(t, gp);
        break;
      }
      case op_kind::drain: {
        lowest(o.p, 0);
        gQueue<B> q = S::runqdrain(pp);
        emptied(o.p, static_cast<int>(op_kind::drain));
        for (G* gp; (gp = q.pop()) != nullptr;) deliver(t, gp);
        break;
      }
      case op_kind::glob_batch: {
        G* gp = S::findRunnable_globrunq(pp);
        if (gp != nullptr) {
          fifo_p_[o.p].epoch++;
          brought_in(o.p);
        }
        deliver(t, gp);
        break;
      }
      case op_kind::put_batch: put_batch(t, o); break;
      case op_kind::glob_put:
        introduced_[o.g]++;
        unsure_next(o.g);
        hand_off(&gs_[o.g]);
        S::globrunqput(sched_, &gs_[o.g]);
        break;
      case op_kind::glob_get: deliver(t, S::globrunqget(sched_)); break;
      case op_kind::expect_nonempty:
        empty_[t] = S::runqempty(*ps_[o.victim]);
        RQ_INVARIANT(B, !empty_[t], "invariant: runqempty spuriously true", "p", o.victim);
        break;
      case op_kind::wait_done:
        while (done_[o.victim].load(std::memory_order::acquire) == 0)
          B::spin_pause();  // acquire: the other thread's ops happen before ours
        break;
      case op_kind::destroy:
        lowest(o.p, 0);
        S::destroy(pp);
        emptied(o.p, static_cast<int>(op_kind::destroy));
        break;
      case op_kind::empty:
        empty_[t] = S::runqempty(*ps_[o.victim]);
        judge_empty(o.victim, empty_[t]);
        break;
      default: break;  // scheduler events: not in a scenario
    }
  }

  // runqsteal, plus (with the runq_counters hook) the steal-size rule: when
  // nothing but this steal touched the victim's ring meanwhile, the steal saw
  // exactly the (head, tail) read around it, so it must have taken
  // ceil(n/2) of n queued Gs, or 1 from runnext when the ring was empty.
  // (Read-read coherence: its reads lie between ours.) The hook's loads are
  // relaxed, so they add no happens-before edge that could hide a bug.
  G* steal(typename S::p& pp, typename S::p& victim, bool next) {
    if constexpr (has_runq_counters<S> && defers_loads<B>) {
      // The same rule, its loads kept as places (no events: a search does not
      // branch on what they read) and judged at the end: judge_steal_size.
      deferred_steal<B, P> d;
      d.victim = &victim, d.pp = &pp;
      B::defer_loads(d.loads[0], [&] { (void)S::runq_counters(victim); });
      B::defer_loads(d.loads[1], [&] { (void)S::runq_counters(pp); });
      G* gp = S::runqsteal(pp, victim, next);
      B::defer_loads(d.loads[2], [&] { (void)S::runq_counters(victim); });
      B::defer_loads(d.loads[3], [&] { (void)S::runq_counters(pp); });
      d.got = gp != nullptr;
      steals_.push_back(std::move(d));
      return gp;
    } else if constexpr (has_runq_counters<S>) {
      auto v0 = S::runq_counters(victim);
      auto o0 = S::runq_counters(pp);
      G* gp = S::runqsteal(pp, victim, next);
      auto v1 = S::runq_counters(victim);
      // The thief's own counters again only when it got a G (no loads
      // otherwise: each is a scheduling point under Relacy).
      auto o1 = gp == nullptr ? o0 : S::runq_counters(pp);
      steal_size_rule(v0, o0, v1, o1, gp != nullptr);
      return gp;
    } else {
      return S::runqsteal(pp, victim, next);
    }
  }

  // The steal-size rule of a deferred steal (steal(), above), over every
  // value its loads may read in the complete execution (each_reading): it
  // fails if one choice of them shows the victim left alone and a wrong
  // size taken, as the same loads made as events would in one of the
  // executions they add.
  void judge_steal_size(const deferred_steal<B, P>& d)
    requires(defers_loads<B> && has_runq_counters<S>)
  {
    using C = runq_counter_t<S>;
    bool whole = each_reading(d, [&](const std::vector<std::uint64_t>* vals) {
      basic_runq_counters<C> v0{}, v1{}, o0{}, o1{};
      bool same = B::feed_loads(d.loads[0], vals[0], [&] { v0 = S::runq_counters(*d.victim); }) &&
                  B::feed_loads(d.loads[1], vals[1], [&] { o0 = S::runq_counters(*d.pp); }) &&
                  B::feed_loads(d.loads[2], vals[2], [&] { v1 = S::runq_counters(*d.victim); }) &&
                  B::feed_loads(d.loads[3], vals[3], [&] { o1 = S::runq_counters(*d.pp); });
      if (!same) {  // its loads depend on the values: this reading is not judged
        static bool said = false;
        some_readings_not_judged(said,
                                 "S::runq_counters loaded other locations when run again on "
                                 "other values");
        return;
      }
      steal_size_rule(v0, o0, v1, o1, d.got);
    });
    if (!whole) {  // the cap cut this steal's readings
      static bool said = false;
      some_readings_not_judged(said, "a steal's loads may read more combinations of values "
                                     "than " + std::to_string(max_readings()) +
                                     " (RUNQCHECK_MAX_READINGS): the first judged, the rest not");
    }
  }
  // The steal-size rule's `not applied` line for readings it could not judge,
  // once a process for each reason (said: that reason's flag).
  static void some_readings_not_judged(bool& said, const std::string& why) {
    if (!said) not_applied("steal-size invariant (some readings)", why.c_str(), S::name);
    said = true;
  }

  // The rule on one reading of the counters: the victim's (v) and the
  // thief's own (o) before (0) and after (1) a steal that got a G or not.
  template <class C>
  static void steal_size_rule(basic_runq_counters<C> v0, basic_runq_counters<C> o0,
                              basic_runq_counters<C> v1, basic_runq_counters<C> o1, bool got) {
    // C: the port's width, so differences wrap at 2^W.
    C took = got ? C(o1.tail - o0.tail + 1) : C(0);
    C n = C(v0.tail - v0.head);
    if (v1.tail == v0.tail && C(v1.head - v0.head) == took && n != 0) {
      RQ_INVARIANT(B, took == n - n / 2, "invariant: a steal takes ceil(n/2) of n queued Gs",
                   "n", n, "took", took);
    }
  }

 public:
  // At most this many readings of one steal are judged (each_reading): a
  // hook with many loads over a long execution could make their product
  // huge. RUNQCHECK_MAX_READINGS sets it (tests/explore: a small one).
  static std::uint64_t max_readings() {
    static const std::uint64_t n = [] {
      const char* e = std::getenv("RUNQCHECK_MAX_READINGS");
      std::uint64_t v = e != nullptr ? std::strtoull(e, nullptr, 10) : 0;
      return v != 0 ? v : std::uint64_t{1} << 16;
    }();
    return n;
  }

  // f(vals) for each choice of values d's loads may read together (vals[k]:
  // d.loads[k]'s, in order): each load's co-interval (B::deferred_values),
  // two loads of one location read in their order (CoRR), up to
  // max_readings() of them. False when the cap cut them (the rest not judged).
  template <class F>
    requires defers_loads<B>
  static bool each_reading(const deferred_steal<B, P>& d, F&& f) {
    // Buffers kept across calls (one execution's steals, then the next's).
    static thread_local std::vector<const typename B::deferred_load*> all;
    static thread_local std::vector<std::vector<std::pair<int, std::uint64_t>>> cand;
    static thread_local std::vector<std::size_t> pick;
    static thread_local std::vector<std::uint64_t> vals[4];
    all.clear();
    for (const auto& part : d.loads)
      for (const auto& l : part) all.push_back(&l);
    if (cand.size() < all.size()) cand.resize(all.size());
    for (std::size_t i = 0; i < all.size(); i++) {
      B::deferred_values(*all[i], cand[i]);
      if (cand[i].empty()) return true;  // not in a finished execution (cannot happen)
    }
    pick.assign(all.size(), 0);
    const std::uint64_t cap = max_readings();
    std::uint64_t made = 0;
    // Load i's choices, depth first: none co-before an earlier load's of its
    // location (its co-interval is in co order), so only coherent ones.
    auto choose = [&](auto& self, std::size_t i) -> bool {
      if (i == all.size()) {
        if (made == cap) return false;  // one more than the cap allows
        made++;
        std::size_t k = 0;
        for (int part = 0; part < 4; part++) {
          vals[part].clear();
          for (std::size_t j = 0; j < d.loads[part].size(); j++, k++)
            vals[part].push_back(cand[k][pick[k]].second);
        }
        f(static_cast<const std::vector<std::uint64_t>*>(vals));
        return true;
      }
      int lo = 0;
      for (std::size_t j = 0; j < i; j++)
        if (all[j]->key == all[i]->key) lo = std::max(lo, cand[j][pick[j]].first);
      for (std::size_t c = 0; c < cand[i].size(); c++) {
        if (cand[i][c].first < lo) continue;
        pick[i] = c;
        if (!self(self, i + 1)) return false;
      }
      return true;
    };
    return choose(choose, 0);
  }

 private:
  // What P p holds, as the harness knows it without asking the port. Kept by
  // whichever thread runs an op on p (under Relacy one thread runs at a time,
  // and none of this is an access of the explored program).
  //  - next: the last G p's owner put with next=true (-1: none). p's runnext
  //    never holds another G: only p's owner sets it, thieves and gets clear
  //    it. next_sure: nothing could have moved that G to p's ring since (a
  //    steal or global batch of p's owner brings Gs in; a second put of it).
  //  - lower: a lower bound of the Gs on p (ring and runnext) from the
  //    owner's own ops alone; ring_max: an upper bound of the ring's count
  //    since p was last known empty. A steal takes ceil(n/2) of the n Gs it
  //    saw in the ring (n <= the ring's count at its CAS), or runnext alone,
  //    so it takes at most max(1, ceil(ring_max/2)).
  //  - steals_begun/ended: the steals with victim p; base: steals_ended when
  //    p was last known empty (steals ended before then took nothing since);
  //    next_steals: those begun that may take runnext (stealRunNextG).
  //  - least: the least `lower` since the threads started, the owner's ops
  //    in flight included (a get while it takes a G, a drain).
  struct held_p {
    int least = 1 << 30;
    int next = -1;
    bool next_sure = false;
    int lower = 0;
    int ring = 0;      // upper bound of the ring's count now
    int ring_max = 0;  // ... and since p was last known empty
    int steals_begun = 0, steals_ended = 0, base = 0;
    int next_steals = 0;
    // The owner's runqdrain or destroy (op_kind) emptied p, and it has not put since:
    // a G then got with inheritTime was left in runnext by that op.
    int left_by = -1;
  };

  void held_put(int p, int gid, bool next) {
    held_p& h = held_[p];
    h.left_by = -1;
    unsure_next(gid);  // a G put twice may be in two places
    const int cap = static_cast<int>(sc_.cap);
    // Into the ring: the G, or the runnext it kicks (if one may be there).
    const int in = !next || h.next >= 0 ? 1 : 0;
    // A full ring spills Cap/2 Gs to the global queue (runqputslow), leaving Cap/2.
    const bool spill = in == 1 && h.ring >= cap;
    h.lower = spill ? std::min(h.lower + 1, cap / 2) : h.lower + 1;
    if (running_) h.least = std::min(h.least, h.lower);  // a spill's Cap/2 stay throughout
    h.ring = std::min(h.ring + in, cap);
    h.ring_max = std::max(h.ring_max, h.ring);
    if (next) {
      h.next = gid;
      h.next_sure = introduced_[gid] == 1;
    }
  }

  // A G put anywhere else may also be in p's ring: its place is unsure.
  void unsure_next(int gid) {
    for (int i = 0; i < sc_.nprocs; i++) {
      if (held_[i].next == gid) held_[i].next_sure = false;
    }
  }

  // p's owner brought Gs into p's ring (its steal, its global batch): at most
  // Cap/2, and any of them may be the one p last put to runnext.
  void brought_in(int p) {
    held_p& h = held_[p];
    h.next_sure = false;
    h.left_by = -1;
    h.ring = std::min(h.ring + static_cast<int>(sc_.cap) / 2, static_cast<int>(sc_.cap));
    h.ring_max = std::max(h.ring_max, h.ring);
  }

  // p is empty now (drained, destroyed, or a runqget found nothing; by: the
  // owner's drain or destroy, else -1).
  void emptied(int p, int by = -1) {
    held_p& h = held_[p];
    h.left_by = by;
    h.next = -1;
    h.lower = h.ring = h.ring_max = 0;
    h.base = h.steals_ended;
    h.least = 0;
  }

  void lowest(int p, int v) {
    if (running_) held_[p].least = std::min(held_[p].least, std::max(v, 0));
  }

  // runqempty(p) answered `empty`: true is allowed only if p may have been
  // empty at a state of p's owner that the caller can see. The owner's ops
  // run in order, so p's content goes through one state after another; a
  // port's runqempty reads a consistent snapshot of one of them (Go's
  // re-read of runqtail), under any memory model one no later than the
  // call's end. If every state since the threads started held `least` Gs
  // or more and the steals begun on p could not have taken them all, true
  // is spurious.
  void judge_empty(int p, bool empty) {
    const held_p& h = held_[p];
    int left = h.least - h.steals_begun * std::max(1, (h.ring_max + 1) / 2);
    RQ_INVARIANT(B, !empty || left <= 0,
                 "invariant: runqempty true though its P held a G at every state since the "
                 "threads started", "p", p, "at_least", left);
  }

  // runqget(p) answered {gp, inheritTime}: judged by what the harness knows.
  void judge_get(int p, G* gp, bool inheritTime) {
    held_p& h = held_[p];
    if (gp == nullptr) {
      // Only p's owner (this thread) and a steal with stealRunNextG clear runnext.
      RQ_INVARIANT(B, h.next < 0 || !h.next_sure || h.next_steals > 0,
                   "invariant: runqget found nothing though runnext held a G throughout the "
                   "call (no steal could take it)", "p", p, "g", h.next);
      int steals = h.steals_begun - h.base;
      int left = h.lower - steals * std::max(1, (h.ring_max + 1) / 2);
      RQ_INVARIANT(B, left <= 0,
                   "invariant: runqget found nothing though its P held a G throughout the call",
                   "p", p, "at_least", left);
      emptied(p);
      return;
    }
    int gid = gp->goid < static_cast<std::uint64_t>(MaxG) ? static_cast<int>(gp->goid) : -1;
    if (gid != h.next) {
      // Named for the op that broke the contract, not for this runqget.
      RQ_INVARIANT(B, !inheritTime || h.left_by != static_cast<int>(op_kind::drain),
                   "invariant: runqdrain left a G in runnext (the P must end empty): runqget "
                   "got it after with inheritTime", "p", p, "g", gid);
      RQ_INVARIANT(B, !inheritTime || h.left_by != static_cast<int>(op_kind::destroy),
                   "invariant: destroy left a G in runnext (every G must go to the global "
                   "queue): runqget got it after with inheritTime", "p", p, "g", gid);
      RQ_INVARIANT(B, !inheritTime,
                   "invariant: runqget's inheritTime true for a G that was not in runnext", "p", p,
                   "g", gid);
    } else if (h.next_sure) {
      RQ_INVARIANT(B, inheritTime, "invariant: runqget's inheritTime false for the G in runnext",
                   "p", p, "g", gid);
    }
    if (h.lower > 0) h.lower--;
    if (gid == h.next && (inheritTime || h.next_sure)) {
      h.next = -1;
    } else if (h.ring > 0) {
      h.ring--;
    }
  }

  // FIFO bookkeeping, kept by P p's owner thread only. Each own next=false
  // put gets a sequence number; the owner's ring gets must come in sequence
  // order. A G can leave the ring (stolen, spilled) and come back later, at
  // the tail, only through an op of the owner that brings Gs in (its steal,
  // its global batch) or a re-put: such an entry's number is then only a
  // lower bound of its true place, so it is not checked itself, but it still
  // raises the bar for the Gs after it. (Checking it against its first put
  // was a false alarm: stolen away, stolen back, then got after a newer put.)
  void fifo_put(int p, int gid, bool next) {
    fifo_entry& e = fifo_[p][gid];
    if (e.seq >= 0) {  // a re-put while an entry is live: its old place is a lower bound
      e.epoch = -1;
      return;
    }
    if (!next) e = {fifo_p_[p].nput++, fifo_p_[p].epoch};
  }

  void fifo_get(int p, int gid) {
    fifo_entry& e = fifo_[p][gid];
    if (e.seq < 0) return;  // not an own put (kicked runnext, stolen or batched in)
    if (e.epoch == fifo_p_[p].epoch) {
      RQ_INVARIANT(B, e.seq > fifo_p_[p].last, "invariant: owner's runqget out of FIFO order", "p",
                   p, "g", gid, "put#", e.seq, "after put#", fifo_p_[p].last);
    }
    if (e.seq > fifo_p_[p].last) fifo_p_[p].last = e.seq;
    e = {};
  }

  const scenario& sc_;
  typename S::schedt sched_;
  // The G that finds the counters (start_found), left in a slot: it outlives the Ps.
  static constexpr std::uint64_t kProbeGoid = 1000;
  std::optional<G> probe_;
  std::optional<typename S::p> ps_[kMaxP];
  G gs_[MaxG];
  // Each G's plain state, owned by whoever holds the G: a race-checked
  // variable under Relacy (hand_off), kept here, not in the port's g.
  typename B::template var<std::uint32_t> status_[MaxG];
  typename B::template atomic<int> done_[kMaxThreads];
  // Bookkeeping: each array is written by one thread (or before/after).
  int introduced_[MaxG] = {};
  int delivered_[kMaxThreads][MaxG] = {};
  struct fifo_entry {
    int seq = -1;  // the put's number among P's own next=false puts; -1: none
    int epoch = 0;  // the owner's bring-in count at the put; -1: uncertain
  };
  struct fifo_p {
    int nput = 0;   // own next=false puts so far
    int epoch = 0;  // ops that brought Gs into the ring so far
    int last = -1;  // the highest number got so far
  };
  fifo_entry fifo_[kMaxP][MaxG];
  fifo_p fifo_p_[kMaxP];
  held_p held_[kMaxP];
  std::vector<deferred_steal<B, P>> steals_;  // judged by check() (defers_loads<B>)
  // What the current operation of each thread delivered (for the observer).
  std::uint64_t step_gs_[kMaxThreads][MaxG] = {};
  int nstep_[kMaxThreads] = {};
  bool inherit_[kMaxThreads] = {};
  bool empty_[kMaxThreads] = {};
  int last_got_[kMaxThreads] = {-1, -1, -1, -1};  // the G each thread received last
  bool running_ = false;  // the threads have started (init() is done)
};

}  // namespace runqcheck::model
