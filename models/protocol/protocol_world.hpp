// models/protocol/protocol_world.hpp — the wakeup protocol's world: Go's P,
// M and sched around a queue subject's queues, each M a thread of the
// checker, and the checks at quiescence. A template on the backend B, the
// protocol subject Proto and the queue subject S, instantiated by each
// runner with its backend (protocol_under_test.hpp's world_under_test<B>):
// relacy_protocol and fuzz_protocol on Relacy's (tests/relacy/
// protocol_suite.hpp, the Relacy suite), explore_protocol and
// generated_protocol on the exploring engine's (tests/explore/
// protocol_prog.hpp). The scenarios it runs: protocol_scenario.hpp.
//
// Ms in the scheduler run a bounded findRunnable (queues, stealWork,
// protocol.hpp's stop_or_spin and Delicate dance, stopm) and run each G they
// find at once (run_on: that G runs on and its M leaves).
// Ps held by nobody start on pidle. When every M is parked or done the run
// is quiescent and parked Ms leave.
//
// Invariants (after each execution): every G runs at most once (checked
// when it runs) and work conservation: no submitted G is left unrun while a
// P is idle (at quiescence no M is spinning or about to be woken); the idle
// lists hold every parked M and every released P once (check_idle_lists).
//
// The protocol under test is a protocol subject (protocol_subject.hpp) on
// this world's env: Proto<env<B, Proto, S>>, the bundled runqcheck::protocol
// the first. The world reaches its state only through the contract: it owns
// a Proto::state (env::ws()), asks spin_gate whether an M may spin, reads
// observe()'s counts at quiescence and names objects through describe
// (protocol_picture.hpp). A scenario whose Ms need an optional hook Proto
// lacks is not run (missing_hook: the runners print `runqcheck: not
// applied:`). The queues only through subject.hpp's functions on `sched`
// (S::schedt); `core` is sched.lock (go125's global queue too), taken
// around Proto's `locked&` calls unless Proto has its own lock
// (runqcheck::protocol_lock).
//
// One execution at a time: the running world is the global W<world> (one
// per world type, so per backend), set by the runner before init().
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include <runqcheck/go125.hpp>
#include <runqcheck/sched_policy.hpp>
#include <runqcheck/protocol.hpp>
#include <runqcheck/protocol_subject.hpp>
#include <runqcheck/subject.hpp>

#include "invariant.hpp"
#include "protocol_scenario.hpp"

namespace rqproto {

// The backend ends a run whose Ms all wait for good (explore_backend): the
// world then keeps no live count (below), whose RMWs by every M would only
// add orders to explore.
template <class Backend>
constexpr bool ends_waits_v = requires { Backend::ends_waits; };

// Go's plain field, which Relacy checks for data races (B::var), with the
// load/store of an atomic (protocol.hpp reads mp.p as the native one, a
// relaxed atomic there): the scan-bit protocol must order every syscall
// thief's access with the M's own, and only the M's own accesses remain.
template <class B, class T>
struct plain {
  typename B::template var<T> v{};
  T load(std::memory_order, runqcheck::loc l = runqcheck::loc::current()) const {
    return v.load(l);
  }
  void store(T x, std::memory_order, runqcheck::loc l = runqcheck::loc::current()) {
    v.store(x, l);
  }
};

// Go's pp.status and pp.m: go125's p has them (runqgrab reads them); a
// queue of its own need not, and the world's P then has its own.
template <class B, class Q>
struct go_p_fields {};
template <class B, class Q>
  requires(!requires(Q& q) { q.status; q.m; })
struct go_p_fields<B, Q> {
  typename B::template atomic<std::uint32_t> status{
      static_cast<std::uint32_t>(runqcheck::pstatus::idle)};
  typename B::template atomic<runqcheck::m<B>*> m{nullptr};  // acquirep, releasep
};

// Go's P, M and G on backend B around queue subject S.
template <class B, class S>
struct parts {
  template <class T>
  using atomic = typename B::template atomic<T>;
  using core_p = typename S::p;
  using core_g = runqcheck::g<B>;
  struct M;
  struct P : core_p, go_p_fields<B, core_p> {
    P(typename S::schedt& s, std::int32_t id) : core_p(s, id) {}
    P* link = nullptr;           // pidle; sched.lock
    atomic<bool> idle{false};    // Go: idlepMask bit (relaxed hint)
    atomic<M*> oldm{nullptr};    // Go: pp.oldm (go1.26): the M that last acquired it (a hint)
    atomic<std::uint32_t> syscalltick{0};  // owner or a syscall thief; sysmon reads (a hint)
    std::uint32_t sysmontick = 0;          // the sysmon role's
  };
  struct M : runqcheck::m<B> {
    int id = 0;
    atomic<bool> spinning{false};  // this M, and startm before the wakeup (relaxed)
    atomic<P*> nextp{nullptr};     // startm -> the woken M (published by the note)
    runqcheck::note<B> park;
    runqcheck::idle_node<M> idleNode;  // Go: mp.idleNode, midle; sched.lock
    plain<B, P*> p;    // this M; a syscall thief, holding its G's scan bit, clears it
    P* oldp = nullptr;  // Go: mp.oldp, the P held at entersyscall; this M only
    P* curp() const { return p.load(std::memory_order::relaxed); }  // mp.p, as this M reads it
  };
  struct G : core_g {
    atomic<M*> m{nullptr};  // Go: gp.m; set before the run (relaxed: read after curg's acquire)
  };
};

constexpr std::uint32_t st(runqcheck::pstatus s) { return static_cast<std::uint32_t>(s); }
constexpr std::uint32_t st(runqcheck::gstatus s) { return static_cast<std::uint32_t>(s); }

template <class B, template <class> class Proto, class S>
struct world;
template <class World>
inline World* W = nullptr;  // the running execution's (set by the runner)

// Q's set_gomaxprocs hook (subject.hpp), where it has one: missing_hook
// keeps a resize from a queue of its own without it.
template <class Q>
void set_gomaxprocs(typename Q::schedt& s, std::int32_t n) {
  if constexpr (runqcheck::has_set_gomaxprocs<Q>) Q::set_gomaxprocs(s, n);
}

// The hooks the protocol calls (protocol.hpp's top comment).
template <class B_, template <class> class Proto, class S_>
struct env {
  using B = B_;
  using S = S_;
  using P = typename parts<B, S>::P;
  using M = typename parts<B, S>::M;
  using G = typename parts<B, S>::G;
  using core_p = typename S::p;
  using core_g = runqcheck::g<B>;
  using world_t = world<B, Proto, S>;
  static auto& ws() { return W<world_t>->state; }  // Proto's own state
  static runqcheck::schedt<B>& core() { return W<world_t>->core; }
  static typename S::schedt& sched() { return W<world_t>->sched; }  // the queue's global state
  // startm's "no idle M" path (Go: newm): the scenario's spare M gets pp
  // (world::start_spare). With none left the execution leaves the
  // scenario's scope and is counted, not judged (the P stays with nobody).
  // Not a failure: a protocol may start an M where Go's would not (a wakeup
  // more is no bug), and the catalog sizes its Ms for Go's; the runners
  // print the count.
  static void newm(P* pp, bool spinning) { W<world_t>->start_spare(pp, spinning); }
  static void notewakeup(M* mp) {
    // relaxed: the waker is live until after this
    if constexpr (!ends_waits_v<B>) W<world_t>->live.fetch_add(1, std::memory_order::relaxed);
    mp->park.wakeup();
  }
  static void acquirep(M* mp, P* pp) {
    RQ_CHECK(B, mp->p.load(std::memory_order::relaxed) == nullptr, "wirep: already in go",
             "m", mp->id);
    RQ_CHECK(B,
             pp->m.load(std::memory_order::relaxed) == nullptr &&
                 pp->status.load(std::memory_order::relaxed) == st(runqcheck::pstatus::idle),
             "wirep: invalid p state", "p", pp->id);
    pp->m.store(mp, std::memory_order::release);  // release: runqgrab's acquire of pp.m
    pp->status.store(st(runqcheck::pstatus::running), std::memory_order::relaxed);  // a hint
    pp->oldm.store(mp, std::memory_order::relaxed);  // a hint (go1.26, 2263d4aabd)
    mp->p.store(pp, std::memory_order::relaxed);     // relaxed: as releasep
  }
  static P* releasep(M* mp) {
    P* pp = mp->p.load(std::memory_order::relaxed);
    pp->m.store(nullptr, std::memory_order::relaxed);  // relaxed: pidleput's lock publishes it
    pp->status.store(st(runqcheck::pstatus::idle), std::memory_order::relaxed);  // a hint
    mp->p.store(nullptr, std::memory_order::relaxed);  // relaxed: this M, or a P's next owner
    return pp;
  }
  static M* g_m(core_g* gp) {
    return static_cast<G*>(gp)->m.load(std::memory_order::relaxed);  // relaxed: see G::m
  }
  static core_p& owner(P* pp) { return *pp; }
  static void count_wakep() {}
  // No scenario stops the world while a P is handed off.
  static bool handoff_gcstop(runqcheck::locked_sched<B>&, P*) { return false; }
};
template <class B_, template <class> class Proto, class S_>
struct world {
  using B = B_;
  using S = S_;  // the queue subject
  using envt = env<B, Proto, S>;
  using proto = Proto<envt>;
  using P = typename envt::P;
  using M = typename envt::M;
  using G = typename envt::G;
  using core_p = typename S::p;
  using core_g = runqcheck::g<B>;
  template <class T>
  using atomic = typename B::template atomic<T>;
  static constexpr bool ends_waits = ends_waits_v<B>;
  // A queue of its own: its global state is not the core's schedt.
  static constexpr bool own_queue = !std::same_as<typename S::schedt, runqcheck::schedt<B>>;
  static_assert(runqcheck::subject<S, B>, "QUEUE: not a queue subject (subject.hpp)");
  // The syscall and procresize hooks are optional: missing_hook.
  static_assert(runqcheck::protocol_subject<proto>);
  static constexpr bool syscalls = runqcheck::has_protocol_syscalls<proto>;
  static constexpr bool resize = runqcheck::has_protocol_procresize<proto>;

  typename proto::state state;  // the protocol's idle lists and counters

  const proto_scenario& sc;
  runqcheck::schedt<B> core;  // sched.lock; go125's global queue too
  // The queue's global state: core itself for go125, else S's own.
  std::conditional_t<own_queue, typename S::schedt, runqcheck::schedt<B>&> sched;
  P ps[max_ps] = {{sched, 0}, {sched, 1}, {sched, 2}, {sched, 3}};
  std::array<core_p*, max_ps> allp{};
  M ms[max_ms + 1];  // the roles' Ms, then the spare (sc.spare_m)
  G gs[max_gs];
  atomic<int> runs[max_gs];
  atomic<int> live{0};  // Ms not parked: when 0, parked Ms leave (quiescence)
  // With ends_waits, in place of live: each M's own record (plain
  // harness state, rebuilt by each run), read by check().
  std::array<bool, max_ms + 1> parked{}, ended{};
  std::array<bool, max_ms + 1> slept{};  // left its park at quiescence (no wakeup came)
  // The spare M (sc.spare_m): its index (-1: none), whether newm took it,
  // whether it still waits for newm (harness state, as parked).
  int spare = -1;
  bool spare_taken = false, spare_waits = false;
  atomic<int> gomaxprocs{0};  // allp's live length (procresize shrinks it)
  runqcheck::randomOrder stealOrder;
  bool unjudged = false;  // newm left the scenario's scope (env::newm)
  atomic<bool> glob_maybe{false};  // go_peek: a global put may have begun

  // The executions check() left unjudged (env::newm); the runners print them.
  static inline std::uint64_t unjudged_executions = 0;

  // The optional hook (protocol_subject.hpp) scenario s needs that proto
  // (or the queue S) lacks, or null: such a scenario is not applied, never
  // run half. missing_feature: what that hook is for ("syscalls",
  // "procresize": a registration's WITHOUT may declare it absent).
  static const char* missing_hook(const proto_scenario& s) { return missing(s).why; }
  static const char* missing_feature(const proto_scenario& s) { return missing(s).feature; }
  struct lack {
    const char* why = nullptr;
    const char* feature = nullptr;
  };
  static lack missing(const proto_scenario& s) {
    for (const m_role& r : s.ms) {
      bool sys = r.k == m_role::syscall || r.k == m_role::syscall_keep || r.k == m_role::sysmon;
      bool rs = r.k == m_role::resizer || r.k == m_role::handback;
      if (sys && !syscalls)
        return {"its Ms exit syscalls or retake: needs has_protocol_syscalls", "syscalls"};
      if (rs && !resize)
        return {"its Ms resize gomaxprocs: needs has_protocol_procresize", "procresize"};
      if (rs && own_queue && !runqcheck::has_set_gomaxprocs<S>)
        return {"its Ms resize gomaxprocs: needs the queue's set_gomaxprocs", "procresize"};
    }
    return {};
  }

  explicit world(const proto_scenario& s) : sc(s), core(s.nprocs), sched(sched_arg(s.nprocs)) {
    static_assert(runqcheck::protocol_env<envt>);  // here: env::ws() needs a complete world
  }
  // sched's initializer: S::schedt(nprocs), or a reference to core.
  decltype(auto) sched_arg(int n) {
    if constexpr (own_queue) return std::int32_t{n};
    else return (core);
  }
  // The lock around proto's `locked&` calls: its own, else sched.lock
  // (at the caller's line). Any M not holding it.
  typename proto::locked plock(runqcheck::loc l = runqcheck::loc::current()) {
    return runqcheck::protocol_lock<proto>(core, l);
  }

  // The scenario's initial state, before the Ms run (W<world> already set).
  void init() {
    stealOrder.reset(static_cast<std::uint32_t>(sc.nprocs));
    gomaxprocs.store(sc.nprocs, std::memory_order::relaxed);
    for (int i = 0; i < sc.nprocs; i++) allp[static_cast<std::size_t>(i)] = &ps[i];
    for (int i = 0; i < max_gs; i++) gs[i].goid = static_cast<std::uint64_t>(i);
    if (sc.spare_m) {
      spare = static_cast<int>(sc.ms.size());
      ms[spare].id = spare;
    }
    std::array<bool, max_ps> held{};
    for (std::size_t i = 0; i < sc.ms.size(); i++) {
      M* mp = &ms[i];
      mp->id = static_cast<int>(i);
      const m_role& r = sc.ms[i];
      if (r.k == m_role::idle || r.k == m_role::handback) {
        auto l = plock();
        proto::mput(l, mp);
        if (r.k == m_role::handback) {  // its P stopped with Gs queued (gcstop)
          P* pp = &ps[r.p];
          held[static_cast<std::size_t>(r.p)] = true;
          pp->oldm.store(mp, std::memory_order::relaxed);
          pp->status.store(st(runqcheck::pstatus::gcstop), std::memory_order::relaxed);
          for (const submit& s : r.submits) S::runqput(*pp, &gs[s.g], s.next);
        }
        continue;
      }
      if (r.k == m_role::syscall || r.k == m_role::syscall_keep) in_syscall(mp, r);
      if (r.k == m_role::syscall || r.k == m_role::injector_nop || r.k == m_role::sysmon) continue;
      held[static_cast<std::size_t>(r.p)] = true;
      if (r.k == m_role::resizer) {  // the last P, stopped (gcstop) with the submits queued
        P* dying = &ps[sc.nprocs - 1];
        held[static_cast<std::size_t>(sc.nprocs - 1)] = true;
        dying->status.store(st(runqcheck::pstatus::gcstop), std::memory_order::relaxed);
        for (const submit& s : r.submits) S::runqput(*dying, &gs[s.g], s.next);
      }
      envt::acquirep(mp, &ps[r.p]);
      if (r.k == m_role::syscall_block)  // readied before the syscall (runqput only)
        for (const submit& s : r.submits) S::runqput(ps[r.p], &gs[s.g], s.next);
      if (r.k == m_role::syscall_keep)  // readied before the syscall (runqput only)
        for (std::size_t j = 1; j < r.submits.size(); j++)
          S::runqput(ps[r.p], &gs[r.submits[j].g], r.submits[j].next);
      if (r.k == m_role::gosched_ring)  // the batch's rest (Go: runqputbatch), no wakep
        for (std::size_t j = 0; j + 1 < r.submits.size(); j++)
          S::runqput(ps[r.p], &gs[r.submits[j].g], r.submits[j].next);
      if (r.k == m_role::spinner || r.k == m_role::spinner_drop) proto::becomeSpinning(mp);
      if (r.k == m_role::busy)  // no P is idle yet: each wakep sets needspinning
        for (const submit& s : r.submits) proto::submit(mp->curp(), &gs[s.g], s.next);
    }
    {
      auto l = plock();
      for (int i = sc.nprocs - 1; i >= 0; i--)
        if (!held[static_cast<std::size_t>(i)]) proto::pidleput(l, &ps[i]);
    }
    for (int g : sc.global) S::globrunqput(sched, &gs[g]);
    // sysmon: every P's sysmontick (0) already equals its syscalltick (0),
    // as if the last sysmon tick saw the same syscalls.
    // Every M counts as live; an idle one leave()s at its first park.
    live.store(static_cast<int>(sc.ms.size()), std::memory_order::relaxed);
  }

  void run(int idx) {
    run_m(idx);
    ended[static_cast<std::size_t>(idx)] = true;
  }

  // Go: newm(fn, pp, id), from startm (and startTheWorld's hand-out):
  // the spare M, if the scenario has one not yet taken, gets pp, spinning
  // if fn is mspinning, and is woken; else the execution is not judged.
  // Any M (the caller's increment of live covers the spare's wakeup).
  void start_spare(P* pp, bool spinning) {
    if (spare < 0 || spare_taken) {
      unjudged = true;
      return;
    }
    spare_taken = true;
    M* mp = &ms[spare];
    mp->spinning.store(spinning, std::memory_order::relaxed);  // relaxed: the note's release
    mp->nextp.store(pp, std::memory_order::relaxed);           // relaxed: as startm's
    envt::notewakeup(mp);
  }

  // The spare M's thread: Go's mstart on newm's new thread. It waits for
  // newm's wakeup (not parked: on no idle list), then acquirep(nextp) and
  // schedule(), as a woken M. Untaken, it leaves at quiescence.
  void run_spare(M* mp) {
    if (wait_for_p(mp, spare_waits)) schedule(mp);
  }

  void run_m(int idx) {
    M* mp = &ms[idx];
    if (idx == spare) {
      run_spare(mp);
      return;
    }
    const m_role& r = sc.ms[static_cast<std::size_t>(idx)];
    if (r.k == m_role::busy) {
      leave();  // its G runs on: its own queue is for the others
      return;
    }
    if (r.k == m_role::sysmon) {
      if constexpr (syscalls) retake();  // else not run (missing_hook)
      leave();
      return;
    }
    if (r.k == m_role::syscall_block) {  // Go: entersyscallblock
      proto::handoffp(envt::releasep(mp));
      leave();  // in the syscall until the run ends
      return;
    }
    if (r.k == m_role::submitter) {
      for (const submit& s : r.submits) proto::submit(mp->curp(), &gs[s.g], s.next);
      leave();  // its G runs on: its own queue is for the others
      return;
    }
    if ((r.k == m_role::gosched || r.k == m_role::gosched_ring) && !gosched(mp, r)) return;
    if (r.k == m_role::injector || r.k == m_role::injector_nop) {
      inject(mp, r);
      leave();  // injector: its G runs on, its own queue is for the others
      return;
    }
    if constexpr (resize)  // else not run (missing_hook)
      if (r.k == m_role::resizer) procresize(mp);
    if ((r.k == m_role::idle || r.k == m_role::handback) && !park(mp)) return;
    bool in_sys = r.k == m_role::syscall || r.k == m_role::syscall_keep;
    if constexpr (syscalls)  // else not run (missing_hook)
      if (in_sys && !exitsyscall(mp, &gs[r.submits[0].g])) return;
    schedule(mp, r.k == m_role::spinner_drop);
  }

  // The checks at quiescence (after the Ms' runs): every thread has ended,
  // so the queues are drained here (owner operations from the harness).
  void check() {
    if (unjudged) {
      unjudged_executions++;
      return;
    }
    if constexpr (ends_waits)  // the run ended: every M done or parked (the spare: or waiting)
      for (std::size_t i = 0; i < static_cast<std::size_t>(threads_of(sc)); i++)
        RQ_INVARIANT(B, ended[i] || parked[i] || (static_cast<int>(i) == spare && spare_waits),
                     "invariant: protocol model: an M waits for good outside a park "
                     "(deadlock)",
                     "m", static_cast<int>(i));
    runqcheck::protocol_counts c = proto::observe();
    std::int32_t npidle = c.idle_ps;
    RQ_INVARIANT(B, c.spinning == 0, "invariant: an M still spinning with every M parked or gone",
             "spinning", c.spinning);
    std::array<bool, max_gs> queued{};
    for (int i = 0; i < sc.nprocs; i++)
      while (core_g* gp = S::runqget(ps[i]).gp) queued[gp->goid] = true;
    while (core_g* gp = S::globrunqget(sched)) queued[gp->goid] = true;
    auto judge = [&](int g) {  // a G of the scenario: run, or queued with no P idle
      if (runs[g].load(std::memory_order::relaxed) == 1) return;
      RQ_INVARIANT(B, queued[static_cast<std::size_t>(g)],
                   "invariant: a G was lost (never run, on no queue)", "g", g);
      RQ_INVARIANT(B, npidle == 0,
                   "invariant: work conservation: a runnable G was never run while a P is idle "
                   "and no M is spinning or being woken (lost wakeup)",
                   "g", g, "npidle", npidle);
    };
    for (const m_role& r : sc.ms)
      for (const submit& s : r.submits) judge(s.g);
    for (int g : sc.global) judge(g);
    check_idle_lists(c);
  }

  // The idle lists at quiescence, drained through the protocol's own mget
  // and pidleget: every parked M is on the idle M list once, and no other
  // M is; every P released (idle, no M) is on the idle P list once, and no
  // held P is; observe()'s counts are those lists' lengths. A corrupt list
  // (an ABA on a lock-free stack, a node linked twice), a lost M (parked
  // where no wakeup can reach it) and a lost P fail here.
  void check_idle_lists(const runqcheck::protocol_counts& c) {
    std::array<int, max_ms + 1> on_m{};
    std::array<int, max_ps> on_p{};
    int nm = 0, np = 0, again_m = -1, again_p = -1;  // the first handed out twice
    {
      auto l = plock();
      for (M* mp; again_m < 0 && (mp = proto::mget(l)) != nullptr; nm++)
        if (on_m[static_cast<std::size_t>(mp->id)]++ > 0) again_m = static_cast<int>(mp->id);
      for (P* pp; again_p < 0 && (pp = proto::pidleget(l)) != nullptr; np++)
        if (on_p[static_cast<std::size_t>(pp->id)]++ > 0) again_p = pp->id;
    }
    // Twice in one drain: the list links it twice (a cycle), or its head was
    // left on one already taken.
    RQ_INVARIANT(B, again_m < 0, "invariant: mget handed out an M twice while the idle M list was "
                 "drained (linked twice, or the list's head left on an M already taken)", "m",
                 again_m);
    RQ_INVARIANT(B, again_p < 0, "invariant: pidleget handed out a P twice while the idle P list "
                 "was drained (linked twice, or the list's head left on a P already taken)", "p",
                 again_p);
    // The spare, until newm takes it, is at rest on no list.
    for (std::size_t i = 0; i < static_cast<std::size_t>(threads_of(sc)); i++) {
      bool at_rest = parked[i] || slept[i];
      int id = static_cast<int>(i);
      RQ_INVARIANT(B, on_m[i] == 0 || at_rest,
                   "invariant: an M on the idle M list that is not parked", "m", id);
      RQ_INVARIANT(B, on_m[i] == 1 || !at_rest,
                   "invariant: an M parked but not on the idle M list: no wakeup can reach it "
                   "(a lost M)", "m", id);
    }
    for (int i = 0; i < sc.nprocs; i++) {
      auto k = static_cast<std::size_t>(i);
      bool released = ps[i].m.load(std::memory_order::relaxed) == nullptr &&
                      ps[i].status.load(std::memory_order::relaxed) ==
                          st(runqcheck::pstatus::idle);  // relaxed: every M has stopped
      RQ_INVARIANT(B, on_p[k] == 0 || ps[i].m.load(std::memory_order::relaxed) == nullptr,
                   "invariant: a P on the idle P list that an M holds", "p", i);
      RQ_INVARIANT(B, on_p[k] == 1 || !released,
                   "invariant: a P released (idle, no M) but not on the idle P list: no M can "
                   "take it (a lost P)", "p", i);
    }
    RQ_INVARIANT(B, nm == c.idle_ms, "invariant: observe()'s idle Ms differ from the idle M list",
                 "count", c.idle_ms, "list", nm);
    RQ_INVARIANT(B, np == c.idle_ps, "invariant: observe()'s idle Ps differ from the idle P list",
                 "count", c.idle_ps, "list", np);
  }

 private:
  void leave() {
    if constexpr (!ends_waits)
      live.fetch_add(-1, std::memory_order::release);  // release: pairs with park's acquire
  }

  // The injector's G (or a thread without a P): r's Gs as one list to
  // injectglist, with mp's P (null for injector_nop).
  void inject(M* mp, const m_role& r) {
    runqcheck::gQueue<B> q;
    for (const submit& s : r.submits) q.pushBack(&gs[s.g]);
    glob_put_begins();
    proto::injectglist(mp->curp(), q);
  }

  // Go: mPark, from stopm. False: quiescent, the M leaves without a P.
  bool park(M* mp) {
    leave();
    if (wait_for_p(mp, parked[static_cast<std::size_t>(mp->id)])) return true;
    slept[static_cast<std::size_t>(mp->id)] = true;
    return false;
  }

  // mp sleeps on its note until a wakeup, then takes the P it was handed
  // (acquirep(nextp)); false: quiescence came first. waiting: the harness's
  // record of the wait (parked, or the spare's), set while it lasts.
  bool wait_for_p(M* mp, bool& waiting) {
    waiting = true;
    bool woken = mp->park.sleep([this] {
      if constexpr (ends_waits) return false;  // the engine ends the run
      else return live.load(std::memory_order::acquire) == 0;
    });
    waiting = false;
    if (!woken) return false;
    mp->park.clear();
    P* pp = mp->nextp.load(std::memory_order::relaxed);  // relaxed: the note's acquire
    mp->nextp.store(nullptr, std::memory_order::relaxed);
    envt::acquirep(mp, pp);
    return true;
  }

  // Before the run: mp's G of role r in a syscall (Go: reentersyscall done;
  // its P, if any, still wired: syscall_keep acquires it after this).
  void in_syscall(M* mp, const m_role& r) {
    G* gp = &gs[r.submits[0].g];
    gp->atomicstatus.store(st(runqcheck::gstatus::syscall), std::memory_order::relaxed);
    gp->m.store(mp, std::memory_order::relaxed);
    mp->curg.store(gp, std::memory_order::relaxed);  // before the run: no ordering needed
    mp->oldp = r.p >= 0 ? &ps[r.p] : nullptr;
  }

  // Go: one sysmon pass of retake's syscall part (protocol.hpp's
  // retake_syscall on each _Prunning P). A thread without a P.
  void retake()
    requires syscalls
  {
    for (core_p* cp : live_allp()) {
      auto* pp = static_cast<P*>(cp);
      if (pp->status.load(std::memory_order::relaxed) != st(runqcheck::pstatus::running))
        continue;  // relaxed: a hint, as Go's
      proto::retake_syscall(pp);
    }
  }

  // Go: exitsyscall (go1.27). gp back to _Grunning first, waiting while a
  // thief holds its scan bit; then the P is ours if still wired to mp,
  // else exitsyscallTryGetP (the old P back from a syscalling M, or an
  // idle P), else exitsyscallNoP (an idle P, or gp to the global queue and
  // stopm). False: parked until quiescence.
  bool exitsyscall(M* mp, G* gp)
    requires syscalls
  {
    // waits while a thief holds the scan bit; its acquire: resume's release
    proto::casgstatus(gp, runqcheck::gstatus::syscall, runqcheck::gstatus::running);
    P* oldp = mp->oldp;
    mp->oldp = nullptr;
    P* pp = mp->curp();
    if (pp == nullptr) {
      pp = proto::exitsyscallTryGetP(oldp);
      if (pp != nullptr) envt::acquirep(mp, pp);
    }
    if (pp == nullptr) {  // Go: exitsyscallNoP: casgstatus to _Grunnable, dropg
      proto::casgstatus(gp, runqcheck::gstatus::running, runqcheck::gstatus::runnable);
      mp->curg.store(nullptr, std::memory_order::relaxed);  // relaxed: read only by thieves
      glob_put_begins();
      pp = proto::exitsyscallNoP_pidle(gp);
      if (pp != nullptr) envt::acquirep(mp, pp);
    }
    if (pp != nullptr) {
      execute(mp, gp);
      if (sc.run_on) leave();  // gp runs on
      return !sc.run_on;
    }
    {  // Go: stopm
      auto l = plock();
      proto::mput(l, mp);
    }
    return park(mp);
  }

  // A G on mp's P readies submits[0..n-2] (newproc/ready; gosched_ring: on
  // the ring already) and then goschedImpl's itself (submits[n-1]): Go's
  // schedule() follows; the G it finds runs on (the M keeps its P). False:
  // the M released its P and parked to quiescence.
  bool gosched(M* mp, const m_role& r) {
    const std::vector<submit>& subs = r.submits;
    for (std::size_t i = 0; r.k == m_role::gosched && i + 1 < subs.size(); i++)
      proto::submit(mp->curp(), &gs[subs[i].g], subs[i].next);
    glob_put_begins();
    proto::gosched_globrunqput(&gs[subs.back().g]);
    if (core_g* gp = find_runnable(mp); gp != nullptr) {
      execute(mp, gp);
      leave();  // gp runs on
      return false;
    }
    {  // Go: stopm
      auto l = plock();
      proto::mput(l, mp);
    }
    return park(mp);
  }

  // go_peek's flag, before a harness call that may put on the global queue
  // (only there do the scenarios' Gs reach it). Any M.
  void glob_put_begins() {
    if (sc.go_peek) glob_maybe.store(true, std::memory_order::seq_cst);  // seq_cst: a flag
  }

  // findRunnable's queue part (schedtick 1: no fairness check). go_peek: the
  // global queue only if Go's lockless peek could see it non-empty. pp's M.
  core_g* find_queues(P* pp) {
    if (!sc.go_peek) return runqcheck::findRunnable_queues<S>(sched, *pp, 1).gp;
    if (core_g* gp = S::runqget(*pp).gp; gp != nullptr) return gp;
    // seq_cst: a flag set before the put, so a G on the queue is never missed
    if (!glob_maybe.load(std::memory_order::seq_cst)) return nullptr;
    return S::findRunnable_globrunq(*pp);
  }

  // Go: GOMAXPROCS(n-1) from a G holding a P, reduced: the world is stopped
  // (every other P stopped or idle: the idle ones leave pidle, as
  // stopTheWorld's "stop idle P's"), procresize destroys the last P's queue
  // (protocol.hpp's destroy_runq), shrinks allp and hands the surviving Ps
  // out (procresize_runnable: empty ones to pidle, runnable ones to their
  // old M if idle); startTheWorld wakes those Ms, then its wakep starts an
  // M if a P is idle. The G then ends; its M schedules.
  void procresize(M* mp)
    requires resize
  {
    std::int32_t n = sc.nprocs - 1;
    glob_put_begins();  // destroy_runq puts the dying P's Gs on the global queue
    P* runnable;
    {
      auto l = plock();
      while (P* pp = proto::pidleget(l))
        pp->status.store(st(runqcheck::pstatus::gcstop), std::memory_order::relaxed);
      proto::destroy_runq(l, &ps[n]);
      ps[n].status.store(st(runqcheck::pstatus::dead), std::memory_order::relaxed);
      if constexpr (!own_queue && !runqcheck::has_protocol_lock<proto>) l.set_gomaxprocs(n);
      std::array<P*, max_ps> live{};
      for (int i = 0; i < n; i++) live[static_cast<std::size_t>(i)] = &ps[i];
      runnable = proto::procresize_runnable(
          l, std::span<P* const>(live.data(), static_cast<std::size_t>(n)), mp->curp());
      stealOrder.reset(static_cast<std::uint32_t>(n));
      gomaxprocs.store(n, std::memory_order::release);  // release: allp's length, as proc.cpp
    }
    if constexpr (own_queue || runqcheck::has_protocol_lock<proto>)
      set_gomaxprocs<S>(sched, n);  // outside Proto's lock: the queue's own
    proto::startTheWorld_runnable(runnable);
    proto::wakep();  // Go: startTheWorldWithSema's wakep
  }

  // allp[0..gomaxprocs).
  std::span<core_p* const> live_allp() const {
    auto n = gomaxprocs.load(std::memory_order::acquire);  // acquire: pairs with procresize
    return std::span<core_p* const>(allp.data(), static_cast<std::size_t>(n));
  }

  // Go's idlepMask bit of allp[i] (stealWork's skip; relaxed: a hint).
  bool idle(std::uint32_t i) const { return ps[i].idle.load(std::memory_order::relaxed); }

  void execute(M* mp, core_g* gp) {
    if (mp->spinning.load(std::memory_order::relaxed)) proto::resetspinning(mp);  // Go: schedule
    int n = runs[gp->goid].fetch_add(1, std::memory_order::relaxed);
    RQ_INVARIANT(B, n == 0, "invariant: a G ran twice", "g", gp->goid);
  }

  // Go: schedule + findRunnable (queues, stealWork, the idle path), bounded.
  // searched: the first findRunnable starts at its "nothing to do" block.
  void schedule(M* mp, bool searched = false) {
    for (int round = 0; round < 8; round++, searched = false) {
      if (core_g* gp = find_runnable(mp, searched); gp != nullptr) {
        execute(mp, gp);
        if (!sc.run_on) continue;
        leave();  // gp runs on
        return;
      }
      {  // Go: stopm
        auto l = plock();
        proto::mput(l, mp);
      }
      if (!park(mp)) return;
    }
    RQ_INVARIANT(B, false, "invariant: protocol model: an M looped 8 times (livelock?)", "m",
                 mp->id);
  }

  // A G, or nullptr after this M released its P (it may then stopm).
  // searched: the first pass skips the search (spinner_drop's was empty).
  core_g* find_runnable(M* mp, bool searched = false) {
    for (;; searched = false) {
      P* pp = mp->curp();
      // Go would fault on a nil mp.p here: only a syscall thief unwires an M
      RQ_INVARIANT(B, pp != nullptr,
               "invariant: an M schedules without a P (a thief took it: two Ms on one P)", "m",
               mp->id);
      if (core_g* gp = searched ? nullptr : find_queues(pp); gp != nullptr) return gp;
      auto all = live_allp();
      if (!searched && proto::spin_gate(mp, static_cast<std::int32_t>(all.size()))) {
        auto f = runqcheck::stealWork<S>(*pp, all, stealOrder, [] { return 0u; },
                                         [&](std::uint32_t i) { return idle(i); });
        if (f.gp != nullptr) return f.gp;
      }
      runqcheck::globrunq_batch<B> r;
      switch (proto::stop_or_spin(mp, pp, r, [] { return false; })) {
        case proto::idle_step::again: continue;
        case proto::idle_step::global: return r.gp;
        case proto::idle_step::released: break;
      }
      if (!mp->spinning.load(std::memory_order::relaxed)) return nullptr;
      auto rc = proto::dropspinning(mp, live_allp());
      if (rc.gp != nullptr) return rc.gp;
      if (rc.pp == nullptr) return nullptr;
    }
  }
};

}  // namespace rqproto
