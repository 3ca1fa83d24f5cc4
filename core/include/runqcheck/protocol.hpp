// runqcheck/protocol.hpp — the wakeup protocol of go1.27 proc.go, the
// second port of proc.go beside runq.hpp, written once on the backend seam:
// the same source runs in the stress scheduler (native backend, OS threads,
// stress/src/proc.cpp), under Relacy (tests/relacy/protocol.cpp), where the
// C++ memory model decides what each load may read, and in diff_go's
// idle-list sequences. It is the first protocol subject
// (protocol_subject.hpp); its mutants are patches of this file
// (models/mutants/protocol/), compiled into a copy (schemata.py).
//
// Ported (proc.go, go1.27; unchanged since go1.25 except where noted):
//   pidleput, pidleget, pidlegetSpinning (needspinning: Go 1.20, #45867),
//   mput, mget, notewakeup/notesleep (mPark), (*m).becomeSpinning, startm,
//   the syscall paths (go1.26 names): syscallingThread, setBlockOnExitSyscall
//   (the G's _Gscan bit), exitsyscallTryGetP (the old-P steal, then an idle
//   P), exitsyscallNoP and retake's syscall part,
//   wakep, resetspinning, the submission path of newproc/ready (runqput,
//   then wakep), goschedImpl's global-queue path (globrunqput, then wakep),
//   findRunnable's "Delicate dance" (spinning -> non-spinning: drop
//   nmspinning, #StoreLoad, recheck the global queue and every P's queue),
//   with checkRunqsNoP, handoffp, injectglist (with its final wakep of #63555),
//   procresize's run-queue hand-off of a dying P ((*p).destroy's queues), and
//   its hand-out of the surviving Ps (go1.26: to their old M, mgetSpecific)
//   with startTheWorld's wakeups.
//   #55160's two parts (docs/proofs.md): the dance's global-queue recheck
//   and gosched's wakep (ad943066f6).
//
// Protocol (proc.go, "Worker thread parking/unparking"; the step numbers
// are Go's, the SPIN model's and stress/src/proc.cpp's):
//   submission:               1. publish the G (runqput: release store of
//                                runqtail, or release CAS of runnext)
//                             2. #StoreLoad (storeload())
//                             3. read nmspinning (wakep)
//   spinning -> non-spinning: 1. nmspinning -= 1
//                             2. #StoreLoad (storeload())
//                             3. recheck the global queue and every runq
// A release store followed by a load of another variable may be reordered
// in C++ (x86's store buffer does it); the two seq_cst fences are ordered
// in S, so whichever side comes second sees the other's store. nmspinning,
// npidle and needspinning are seq_cst: Go's full Load/Add/Cas/Store.
//
// Rejected designs: virtual hooks (an indirect call on every wakep in the
// stress hot path); a copy of the protocol per checker (the reason this
// header exists: the Relacy checker must judge the code the stress
// scheduler runs); the M's park as a B::mutex + condvar (the backend seam
// has no condvar; a note is one atomic, futex-waited natively and a
// yielding spin under Relacy, which is what Go's note is on futex OSes);
// mutant branches in this file (they are patches: models/mutants/protocol).
//
// Env, the world the protocol runs in (protocol_subject.hpp's protocol_env:
// what a protocol may use of it), supplies (all static):
//   types B (backend), S (subject: runqput, runqempty), P (derives S::p;
//   link, idle, oldm, syscalltick: an atomic, sysmontick: sysmon's), M
//   (derives m<B>; spinning, nextp, idleNode: idle_node<M>, id, p: an
//   atomic P*, read by syscall thieves; its park is the Env's own: note<B>
//   below, or stress/'s futex);
//   g_m(G*) -> M*: the M a G runs on (Go: gp.m; a relaxed load);
//   ws() -> state& (wakeup_state<B, P, M>: the world owns one);
//   core() -> runqcheck::schedt<B>&;
//   newm(P*, bool spinning): startm's "no idle M" path;
//   notewakeup(M*): wake a parked M (mp->park.wakeup(), plus what the
//   harness counts); acquirep(M*, P*); releasep(M*) -> P*;
//   owner(P*) -> S::p& (checks the caller owns it);
//   count_wakep() (statistics; may do nothing);
//   handoff_gcstop(locked&, P*) -> bool: handoffp's stop-the-world step
//   (Go: sched.gcwaiting: pp to _Pgcstop, stopwait--; true if it did).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>

#include "backend.hpp"
#include "check.hpp"
#include "globrunq.hpp"
#include "gqueue.hpp"
#include "protocol_subject.hpp"
#include "runq.hpp"

namespace runqcheck {

// Go: note (notesleep, notewakeup, noteclear), for any backend: a yielding
// spin (B::spin_pause), which under Relacy is a scheduling point. An M's
// park for a world that has no futex (the Relacy world; the stress
// scheduler parks on a futex of its own).
template <class B>
class note {
 public:
  // notewakeup. Any thread: publishes what it wrote before (nextp, spinning).
  void wakeup() {
    key_.store(1, std::memory_order::release);  // release: pairs with sleep's acquire
  }
  // notesleep until woken, or until give_up() holds (a harness's end of the
  // run). The owner M only. True if woken.
  template <class F>
  bool sleep(F&& give_up) {
    for (;;) {
      if (key_.load(std::memory_order::acquire) != 0) return true;  // acquire: wakeup's release
      if (give_up()) return key_.load(std::memory_order::acquire) != 0;  // a last look, as above
      B::spin_pause();
    }
  }
  // noteclear. The owner M, before it can be woken again (mput under sched.lock).
  void clear() {
    key_.store(0, std::memory_order::relaxed);  // relaxed: next wakeup comes after mput's lock
  }

 private:
  typename B::template atomic<std::uint32_t> key_{0};  // 1 = woken
};

// Go: listNodeManual / listHeadManual (go1.26, list_manual.go), the idle M
// list since 2263d4aabd: intrusive, doubly linked through M::idleNode,
// pushed and popped at its head, any M removable. sched.lock.
template <class M>
struct idle_node {
  M* prev = nullptr;
  M* next = nullptr;
};
template <class M>
struct idle_list {
  M* obj = nullptr;  // the head
  // Go: push. mp becomes the head.
  void push(M* mp) {
    mp->idleNode.next = obj;
    if (obj != nullptr) obj->idleNode.prev = mp;
    obj = mp;
  }
  // Go: pop. The head, its node cleared (as the head, prev is already null).
  M* pop() {
    M* mp = obj;
    if (mp == nullptr) return nullptr;
    obj = mp->idleNode.next;
    mp->idleNode.next = nullptr;
    if (obj != nullptr) obj->idleNode.prev = nullptr;
    return mp;
  }
  // Go: remove. mp must be on the list.
  void remove(M* mp) {
    if (obj == mp) {
      pop();
      return;
    }
    if (M* prev = mp->idleNode.prev; prev != nullptr) prev->idleNode.next = mp->idleNode.next;
    if (M* next = mp->idleNode.next; next != nullptr) next->idleNode.prev = mp->idleNode.prev;
    mp->idleNode = {};
  }
};

// The wakeup part of Go's schedt. pidle, midle, nmidle: sched.lock. The
// counters: seq_cst everywhere (the top comment).
// The counters get a cache line of their own: every wakep reads nmspinning,
// and sched.lock (next in a derived schedt) is written by every lock holder.
template <class B, class P, class M>
struct wakeup_state {
  // Ps on pidle; written under sched.lock
  alignas(64) typename B::template atomic<std::int32_t> npidle{0};
  typename B::template atomic<std::int32_t> nmspinning{0};    // spinning Ms + wakep's reservation
  typename B::template atomic<std::uint32_t> needspinning{0};  // pidlegetSpinning -> Delicate dance
  alignas(64) P* pidle = nullptr;
  idle_list<M> midle;
  std::int32_t nmidle = 0;
};

template <class Env>
struct protocol {
  using B = typename Env::B;
  using S = typename Env::S;
  using P = typename Env::P;
  using M = typename Env::M;
  using G = typename S::p::G;
  using locked = runqcheck::locked_sched<B>;
  using state = wakeup_state<B, P, M>;  // Env::ws(): idle lists and counters
  static constexpr const char* name = "go1.27";  // the protocol subject's name in reports
  static constexpr auto seq_cst = std::memory_order::seq_cst;
  static constexpr auto relaxed = std::memory_order::relaxed;
  static constexpr std::uint32_t st(pstatus s) { return static_cast<std::uint32_t>(s); }
  static constexpr std::uint32_t st(gstatus s) { return static_cast<std::uint32_t>(s); }

  // The #StoreLoad barrier of both sides (top comment). Any M.
  static void storeload() {
    B::fence(seq_cst);  // seq_cst fence: pairs with the other side's (submitter vs spinner)
  }

  // Go: pidleput. sched.lock must be held; pp's runq must be empty.
  static void pidleput(locked&, P* pp) {
    RQ_CHECK(B, S::runqempty(*pp), "pidleput: P has non-empty run queue", "p", pp->id);
    auto& w = Env::ws();
    pp->idle.store(true, relaxed);  // relaxed: Go's idlepMask, a hint for stealWork
    pp->link = w.pidle;
    w.pidle = pp;
    w.npidle.fetch_add(1, seq_cst);  // seq_cst: wakeup counter
  }

  // Go: pidleget. sched.lock must be held.
  static P* pidleget(locked&) {
    auto& w = Env::ws();
    P* pp = w.pidle;
    if (pp != nullptr) {
      pp->idle.store(false, relaxed);  // relaxed: as pidleput
      w.pidle = pp->link;
      w.npidle.fetch_add(-1, seq_cst);  // seq_cst: wakeup counter
    }
    return pp;
  }

  // Go: pidlegetSpinning (Go 1.20, #45867). sched.lock must be held. A
  // caller that found work but no idle P asks an M about to drop its P to
  // spin instead (findRunnable's needspinning check).
  static P* pidlegetSpinning(locked& l) {
    P* pp = pidleget(l);
    if (pp == nullptr) {
      Env::ws().needspinning.store(1, seq_cst);  // seq_cst: Go's full Store
    }
    return pp;
  }

  // Go: mput / mget. sched.lock must be held.
  // (Go's mput also runs checkdead: the stress scheduler's stopm does, after mput.)
  static void mput(locked&, M* mp) {
    auto& w = Env::ws();
    w.midle.push(mp);
    w.nmidle++;
  }
  static M* mget(locked&) {
    auto& w = Env::ws();
    M* mp = w.midle.pop();
    if (mp != nullptr) w.nmidle--;
    return mp;
  }

  // Go: findRunnable's limit on spinning Ms ("to half the number of busy
  // Ps"): true if mp may spin, becomeSpinning done. mp, holding a P.
  static bool spin_gate(M* mp, std::int32_t gomaxprocs) {
    auto& w = Env::ws();
    if (!mp->spinning.load(relaxed) &&
        2 * w.nmspinning.load(seq_cst) >= gomaxprocs - w.npidle.load(seq_cst))  // Go's full Loads
      return false;
    if (!mp->spinning.load(relaxed)) becomeSpinning(mp);
    return true;
  }

  // The counts the checks at quiescence read (protocol_subject.hpp). After
  // the run, or with sched.lock held.
  static protocol_counts observe() {
    auto& w = Env::ws();
    return {w.nmspinning.load(relaxed), w.npidle.load(relaxed), w.nmidle};
  }

  // Names the protocol's objects for a failure's picture (Go's names).
  template <class F>
  static void describe(F&& name) {
    auto& w = Env::ws();
    name(&w.nmspinning, "sched.nmspinning");
    name(&w.npidle, "sched.npidle");
    name(&w.needspinning, "sched.needspinning");
  }

  // Go: (*m).becomeSpinning. The M itself, holding a P.
  static void becomeSpinning(M* mp) {
    auto& w = Env::ws();
    mp->spinning.store(true, relaxed);  // relaxed: this M's (dumps read it)
    w.nmspinning.fetch_add(1, seq_cst);  // seq_cst: wakeup counter
    w.needspinning.store(0, seq_cst);    // seq_cst: Go's full Store; this M serves the request
  }

  // Go: startm(pp, spinning, lockheld=false). Any thread. Runs pp (or an
  // idle P if pp is null) on an idle M, else on a new one (Env::newm).
  // spinning: the caller incremented nmspinning for the M.
  static void startm(P* pp, bool spinning) {
    M* nmp;
    {
      locked l = runqcheck::lock(Env::core());
      if (pp == nullptr) {
        RQ_CHECK(B, !spinning, "startm: P required for spinning=true");
        pp = pidleget(l);
        if (pp == nullptr) return;
      }
      nmp = mget(l);
    }
    if (nmp == nullptr) {
      Env::newm(pp, spinning);
      return;
    }
    RQ_CHECK(B, !nmp->spinning.load(relaxed), "startm: m is spinning", "m", nmp->id);
    RQ_CHECK(B, nmp->nextp.load(relaxed) == nullptr, "startm: m has p", "m", nmp->id);
    if (spinning) RQ_CHECK(B, S::runqempty(*pp), "startm: p has runnable gs", "p", pp->id);
    nmp->spinning.store(spinning, relaxed);  // relaxed: published by the note's release
    nmp->nextp.store(pp, relaxed);           // relaxed: published by the note's release
    Env::notewakeup(nmp);                    // Go: notewakeup(&nmp.park)
  }

  // Go: wakep. Any M: start a spinning M if there is an idle P and no
  // spinning M (step 3 of submission).
  static void wakep() {
    auto& w = Env::ws();
    // Be conservative about spinning threads: start one only if none exist.
    if (w.nmspinning.load(seq_cst) != 0) return;  // seq_cst: step 3
    std::int32_t zero = 0;
    // seq_cst: the wakeup counter
    if (!w.nmspinning.compare_exchange_strong(zero, 1, seq_cst, seq_cst)) return;
    Env::count_wakep();
    P* pp;
    {
      locked l = runqcheck::lock(Env::core());
      pp = pidlegetSpinning(l);
      if (pp == nullptr) {
        std::int32_t n = w.nmspinning.fetch_add(-1, seq_cst) - 1;  // seq_cst: counter
        RQ_CHECK(B, n >= 0, "wakep: negative nmspinning", "nmspinning", n);
        return;
      }
    }
    startm(pp, true);
  }

  // Go: resetspinning. The spinning M itself, which found work.
  static void resetspinning(M* mp) {
    RQ_CHECK(B, mp->spinning.load(relaxed), "resetspinning: not a spinning m", "m", mp->id);
    mp->spinning.store(false, relaxed);
    std::int32_t n = Env::ws().nmspinning.fetch_add(-1, seq_cst) - 1;  // seq_cst: counter
    RQ_CHECK(B, n >= 0, "findRunnable: negative nmspinning", "nmspinning", n);
    // M wakeup policy is deliberately somewhat conservative: another
    // spinning M may be needed now.
    wakep();
  }

  // The submission path of newproc and ready (Go: runqput(pp, gp, next);
  // wakep()). The M owning pp.
  static void submit(P* pp, G* gp, bool next) {
    S::runqput(Env::owner(pp), gp, next);  // step 1: publish
    storeload();  // step 2
    wakep();      // step 3
  }

  // Go: goschedImpl, its global-queue path (not the go1.26 stop-the-world
  // runnext one): gp to the global tail, then wakep (ad943066f6, #55160:
  // this M may run other local work first). The M that ran gp,
  // holding a P, gp no longer running.
  static void gosched_globrunqput(G* gp) {
    {
      locked l = runqcheck::lock(Env::core());
      runqcheck::globrunqput(l, gp);
    }
    // No #StoreLoad: the G was published under sched.lock, which a dropping
    // spinner's global recheck takes after its nmspinning decrement.
    wakep();  // Go: if mainStarted { wakep() }
  }

  // Go: handoffp (go1.27; unchanged since go1.25 in what is ported: no
  // trace reader, GC workers, safe-point functions, netpoll or timers). Any
  // thread, for a P nobody owns (released for a blocking syscall, retaken
  // from one): start an M for pp whenever findRunnable would find work on
  // it, else a spinning M if no M spins and no P is idle (the work of a
  // wakep that found no idle P must not wait behind pp), else pp to pidle.
  static void handoffp(P* pp) {
    auto& w = Env::ws();
    // if it has local work, start it straight away (Go peeks at the global
    // queue without sched.lock: a data race in C++, so globrunqsize locks)
    if (!S::runqempty(*pp) || S::globrunqsize(Env::core()) != 0) {
      startm(pp, false);
      return;
    }
    // no local work, check that there are no spinning/idle M's,
    // otherwise our help is not required
    std::int32_t zero = 0;
    if (w.nmspinning.load(seq_cst) + w.npidle.load(seq_cst) == 0 &&  // seq_cst: counters
        w.nmspinning.compare_exchange_strong(zero, 1, seq_cst, seq_cst)) {  // seq_cst: counter
      w.needspinning.store(0, seq_cst);  // seq_cst: Go's full Store; the new M serves it
      startm(pp, true);
      return;
    }
    {
      locked l = runqcheck::lock(Env::core());
      if (Env::handoff_gcstop(l, pp)) return;  // the world is stopping: pp to _Pgcstop
      if (l.runq().size() == 0) {
        pidleput(l, pp);
        return;
      }
    }
    startm(pp, false);
  }

  // Go: injectglist (go1.27, as in go1.25, whose runqputbatch leaves the
  // overflow to it: the global queue). Any M, or a thread
  // without one: pp is the caller's P (Go: getg().m.p), null if it has none.
  // q's Gs are already runnable (Go marks them here; the caller does, as
  // only it knows their previous state). Empty q: nothing.
  static void injectglist(P* pp, gQueue<B>& q) {
    if (q.empty()) return;
    if (pp == nullptr) {  // no P: all to the global queue, start an M per G
      std::int32_t n = q.size();
      globrunqputbatch_locked(q);
      startIdle(n);
      return;
    }
    inject_with_p(pp, q);
  }

  // injectglist with a P. npidle is read once: that many Gs go to the global
  // queue with an M started for each, the rest to pp's ring (overflow:
  // global). The final wakep is Go's fix for #63555: a P that went idle
  // after the read would otherwise leave those Gs unrun. Its #StoreLoad is
  // needed in C++ too: without it relacy_protocol loses a wakeup in
  // injectglist_vs_idle (wakep_no_storeload, execution 27). The M owning pp.
  static void inject_with_p(P* pp, gQueue<B>& q) {
    gQueue<B> globq;
    // seq_cst: the wakeup counter, read once (Go: sched.npidle.Load())
    for (std::int32_t npidle = Env::ws().npidle.load(seq_cst); npidle > 0 && !q.empty(); npidle--)
      globq.pushBack(q.pop());
    if (!globq.empty()) {
      std::int32_t n = globq.size();
      globrunqputbatch_locked(globq);
      startIdle(n);
    }
    S::runqputbatch(Env::owner(pp), q);  // publish: release store of runqtail
    if (!q.empty()) globrunqputbatch_locked(q);
    storeload();  // step 2 of submission: Go's seq_cst atomics give it
    wakep();      // step 3
  }

  // injectglist's startIdle: up to n idle Ps, each to an M, not spinning;
  // stops at the first pidlegetSpinning that finds none (which then sets
  // needspinning). Any thread. Go calls startm with sched.lock still held
  // (lockheld); here startm takes it again: pp is off pidle, so no other
  // thread can take it in between.
  static void startIdle(std::int32_t n) {
    for (; n > 0; n--) {
      P* pp;
      {
        locked l = runqcheck::lock(Env::core());
        pp = pidlegetSpinning(l);
      }
      if (pp == nullptr) return;
      startm(pp, false);
    }
  }

  // Go: lock; globrunqputbatch(q); unlock. Any thread; q ends empty.
  static void globrunqputbatch_locked(gQueue<B>& q) {
    locked l = runqcheck::lock(Env::core());
    runqcheck::globrunqputbatch(l, q);
  }

  // --- syscalls (go1.26, 7244e9221f: no _Psyscall; a P whose G is in a
  // syscall stays _Prunning and wired to its M, and the G's _Gsyscall
  // status, locked with the _Gscan bit, decides who may take the P) ---

  // Go: casgstatus. Any M. Every G state change is a CAS from the state the
  // caller expects; a failure means a G was run, readied or finished twice
  // (or lost and found in the wrong state). Like Go's, it waits while a
  // syscall thief holds the G's _Gscan bit (setBlockOnExitSyscall), so
  // exitsyscall cannot leave _Gsyscall meanwhile.
  static void casgstatus(G* gp, gstatus from, gstatus to) {
    for (;;) {
      std::uint32_t old = st(from);
      // acq_rel: orders the G's state with its previous owner's, and with a
      // syscall thief's (the scan-bit CAS and resume's release)
      if (gp->atomicstatus.compare_exchange_strong(old, st(to), std::memory_order::acq_rel,
                                                   std::memory_order::acquire))
        return;
      RQ_CHECK(B, old == (st(from) | gscan),
               "casgstatus: bad g status (a G run, readied or finished twice?)", "goid",
               gp->goid, "have", old, "want", st(from));
      B::spin_pause();  // Go: procyield/osyield while scanned
    }
  }

  // Go: syscallingThread. The G, M and P of a thread in a syscall, which
  // cannot leave _Gsyscall while the holder of this value has its scan bit.
  struct syscallingThread {
    G* gp = nullptr;
    M* mp = nullptr;
    P* pp = nullptr;
    std::uint32_t status = 0;

    // Go: releaseP. Unwire pp from the syscalling M, into state (_Pidle or
    // _Pgcstop). The holder of the scan bit.
    void releaseP(pstatus state) const {
      RQ_CHECK(B, state == pstatus::idle || state == pstatus::gcstop,
               "attempted to release P into a bad state");
      pp->m.store(nullptr, relaxed);  // published by resume's release
      mp->p.store(nullptr, relaxed);  // read by exitsyscall after its acquire CAS
      pp->status.store(st(state), relaxed);  // relaxed: a hint
      pp->syscalltick.fetch_add(1, relaxed);  // relaxed: sysmon's hint
    }
    void takeP() const { releaseP(pstatus::idle); }  // Go: takeP
    // Go: resume (casfrom_Gscanstatus): the G may leave _Gsyscall again.
    void resume() const {
      std::uint32_t want = status | gscan;
      // release: pairs with exitsyscall's acquire CAS (the P's new wiring)
      bool ok = gp->atomicstatus.compare_exchange_strong(want, status, std::memory_order::release,
                                                         relaxed);
      RQ_CHECK(B, ok, "casfrom_Gscanstatus: bad status", "goid", gp->goid, "have", want);
    }
  };

  // Go: setBlockOnExitSyscall (go1.26, 7244e9221f). Any thread (sysmon,
  // stopTheWorld, another M's exitsyscall): if pp's M is in a syscall, lock
  // its G in _Gsyscall with the scan bit and fill t. Racy reads, validated
  // after the CAS, as in Go.
  static bool setBlockOnExitSyscall(P* pp, syscallingThread& t) {
    if (pp->status.load(relaxed) != st(pstatus::running)) return false;  // relaxed: a hint
    // acquire: pairs with acquirep's release store of pp.m
    auto* mp = static_cast<M*>(pp->m.load(std::memory_order::acquire));
    if (mp == nullptr) return false;
    G* gp = mp->curg.load(std::memory_order::acquire);  // acquire: the M's release of curg
    if (gp == nullptr) return false;
    std::uint32_t status = gp->atomicstatus.load(relaxed) & ~gscan;  // relaxed: CAS below
    if (status != st(gstatus::syscall)) return false;  // Go also takes _Gdeadextra (extra Ms)
    // acquire: pairs with entersyscall's release CAS (the M's last use of pp)
    if (!gp->atomicstatus.compare_exchange_strong(status, status | gscan,
                                                  std::memory_order::acquire, relaxed)) {
      return false;  // not in _Gsyscall any more
    }
    t = {gp, mp, pp, status};
    if (Env::g_m(gp) != mp || mp->p.load(relaxed) != pp) {
      t.resume();  // not what we observed: nothing to do
      return false;
    }
    return true;
  }

  // Go: exitsyscallTryGetP. An M whose G returns from a syscall without its
  // P: steal the old P back from whatever M is in a syscall on it, else
  // take an idle P. Null: none (exitsyscallNoP follows).
  static P* exitsyscallTryGetP(P* oldp) {
    if (oldp != nullptr) {
      if (syscallingThread t; setBlockOnExitSyscall(oldp, t)) {
        t.takeP();
        t.resume();
        return oldp;
      }
    }
    // Go: sched.pidle != 0, a racy read; seq_cst: the wakeup counter
    if (Env::ws().npidle.load(seq_cst) > 0) {
      locked l = runqcheck::lock(Env::core());
      return pidleget(l);
    }
    return nullptr;
  }

  // Go: retake, its syscall part for one _Prunning P (go1.27). The sysmon
  // thread: a P whose G was in the same syscall for a whole sysmon tick
  // (pp->sysmontick: sysmon's own) is taken and handed off if it has work
  // or nobody else could take it. Go also retakes after 10ms regardless;
  // without time here, never when the check says no work. True: retaken.
  static bool retake_syscall(P* pp) {
    syscallingThread t;
    if (!setBlockOnExitSyscall(pp, t)) return false;  // not in a syscall
    std::uint32_t tick = pp->syscalltick.load(relaxed);  // relaxed: a hint
    if (pp->sysmontick != tick) {  // the syscall began after the last tick
      pp->sysmontick = tick;
      t.resume();
      return false;
    }
    auto& w = Env::ws();
    // seq_cst: the wakeup counters
    if (S::runqempty(*pp) && w.nmspinning.load(seq_cst) + w.npidle.load(seq_cst) > 0) {
      t.resume();
      return false;
    }
    t.takeP();
    t.resume();
    handoffp(pp);
    return true;
  }

  // Go: exitsyscallNoP, under sched.lock: an idle P for gp, else gp goes
  // on the global queue (no wakep: no P is idle). The M, without a P, after
  // gp left _Grunning; null: the caller stopm()s.
  static P* exitsyscallNoP_pidle(G* gp) {
    locked l = runqcheck::lock(Env::core());
    P* pp = pidleget(l);
    if (pp == nullptr) {
      runqcheck::globrunqput(l, gp);
    }
    return pp;
  }

  // Go: procresize's "release resources from unused P's" loop, its queue
  // part ((*p).destroy: runnext, then the ring, to the global queue's head,
  // the core's destroy). The M that stopped the world, sched.lock held, for
  // each P beyond the new gomaxprocs; stop-the-world itself and the rest of
  // procresize (new Ps, the M hand-back) are the scheduler's (proc.cpp).
  static void destroy_runq(locked& l, P* pp) {
    runqcheck::destroy(l, static_cast<typename S::p&>(*pp));  // no owner: the world is stopped
  }

  // Go: mgetSpecific (go1.26, 2263d4aabd). sched.lock must be held: mp off
  // midle, or null if "not on the list": a node with no neighbours. As in
  // go1.27, midle's only M has none either, so it is not found there
  // (docs/go-vs-cpp.md; procresize's mget then hands it out).
  static M* mgetSpecific(locked&, M* mp) {
    if (mp->idleNode.prev == nullptr && mp->idleNode.next == nullptr) return nullptr;
    auto& w = Env::ws();
    w.midle.remove(mp);
    w.nmidle--;
    return mp;
  }

  // Go: procresize, from "var runnablePs" on (go1.26, 2263d4aabd; no GC
  // mark workers): the surviving Ps other than own go back to work. An
  // empty P goes to pidle (after the others, as Go does); a runnable one
  // to the M that last ran it if that M is idle, else to any idle M (none:
  // startTheWorld starts one). The M that stopped the world, sched.lock
  // held; allp: the Ps after the resize. Returns Go's runnablePs list
  // (linked through P::link), each P's m set to the M that will run it.
  static P* procresize_runnable(locked& l, std::span<P* const> allp, P* own) {
    P* runnablePs = nullptr;
    P* runnablePsNeedM = nullptr;
    P* idlePs = nullptr;
    for (std::size_t i = allp.size(); i-- > 0;) {
      P* pp = allp[i];
      if (pp == own) continue;
      pp->status.store(static_cast<std::uint32_t>(pstatus::idle), relaxed);  // a hint
      if (S::runqempty(*pp)) {
        pp->link = idlePs;
        idlePs = pp;
        continue;
      }
      // Prefer the most recent M if it is idle. A P without one waits until
      // every such P is served: mget could return an M a later P has as oldm.
      M* mp = nullptr;
      if (M* oldm = pp->oldm.load(relaxed); oldm != nullptr) mp = mgetSpecific(l, oldm);
      if (mp == nullptr) {
        pp->link = runnablePsNeedM;
        runnablePsNeedM = pp;
        continue;
      }
      pp->m.store(mp, relaxed);  // relaxed: the world is stopped; startTheWorld's note publishes
      pp->link = runnablePs;
      runnablePs = pp;
    }
    while (P* pp = runnablePsNeedM) {
      runnablePsNeedM = pp->link;
      pp->m.store(mget(l), relaxed);  // relaxed: as above; null: startTheWorld's newm
      pp->link = runnablePs;
      runnablePs = pp;
    }
    while (P* pp = idlePs) {  // any remaining Ps are truly idle
      idlePs = pp->link;
      pidleput(l, pp);
    }
    return runnablePs;
  }

  // Go: startTheWorldWithSema's loop over procresize's runnable Ps: each
  // to its M (nextp, notewakeup), or to a new M. The M that stopped the
  // world, after sched.lock is released.
  static void startTheWorld_runnable(P* p1) {
    while (P* pp = p1) {
      p1 = pp->link;
      if (auto* mp = static_cast<M*>(pp->m.load(relaxed)); mp != nullptr) {
        pp->m.store(nullptr, relaxed);  // relaxed: the M's acquirep rewrites it
        RQ_CHECK(B, mp->nextp.load(relaxed) == nullptr, "startTheWorld: inconsistent mp->nextp",
                 "m", mp->id);
        mp->nextp.store(pp, relaxed);  // relaxed: published by the note's release
        Env::notewakeup(mp);
      } else {
        Env::newm(pp, false);  // Go: newm(nil, p, -1)
      }
    }
  }

  // What stop_or_spin did: released pp to pidle; again: this M must look
  // for work once more (a stop-the-world, or it became spinning for
  // needspinning); global: r holds a global batch, already on pp's ring.
  enum class idle_step { released, again, global };

  // Go: findRunnable's "We have nothing to do" block. The M itself, holding
  // pp, found no work: under sched.lock take a global batch, or become
  // spinning if pidlegetSpinning asked for it (needspinning, #45867), or
  // release pp to pidle. stopping(): the caller's stop-the-world check.
  template <class F>
  static idle_step stop_or_spin(M* mp, P* pp, runqcheck::globrunq_batch<B>& r, F&& stopping) {
    {
      locked l = runqcheck::lock(Env::core());
      if (stopping()) return idle_step::again;
      if (l.runq().size() != 0) {
        r = runqcheck::globrunqgetbatch(l, static_cast<std::int32_t>(S::p::capacity) / 2);
      } else if (!mp->spinning.load(relaxed) && needspinning_set()) {
        becomeSpinning(mp);  // see dropspinning (the Delicate dance)
        return idle_step::again;
      } else {
        P* released = Env::releasep(mp);
        RQ_CHECK(B, released == pp, "findRunnable: wrong p");
        pidleput(l, pp);
        return idle_step::released;
      }
    }
    runqcheck::runqputbatch(Env::owner(pp), r.q);  // outside the lock
    RQ_CHECK(B, r.q.empty(), "Couldn't put Gs into empty local runq", "left", r.q.size());
    return idle_step::global;
  }

  // findRunnable's needspinning check. sched.lock must be held (Go reads
  // it there too).
  static bool needspinning_set() {
    return Env::ws().needspinning.load(seq_cst) == 1;  // seq_cst: Go's full Load
  }

  // What the Delicate dance's recheck found. gp: a G of the global queue
  // (the rest of its batch is on pp's ring), pp acquired and this M
  // spinning again; gp null and pp set: some P has work, pp acquired, this
  // M spinning again (goto top); both null: nothing, the M may stopm.
  struct recheck {
    G* gp = nullptr;
    P* pp = nullptr;
  };

  // Go: findRunnable's spinning -> non-spinning transition ("Delicate
  // dance"), after the M released its P. The M itself, spinning, holding no
  // P; allp: the Ps as snapshot before releasing (Go: allpSnapshot).
  static recheck dropspinning(M* mp, std::span<typename S::p* const> allp) {
    auto& w = Env::ws();
    mp->spinning.store(false, relaxed);
    std::int32_t n = w.nmspinning.fetch_add(-1, seq_cst) - 1;  // step 1; seq_cst: counter
    RQ_CHECK(B, n >= 0, "findRunnable: negative nmspinning", "nmspinning", n);
    storeload();  // step 2
    // step 3; the global queue's recheck is one of #55160's fixes
    if (recheck r = recheck_global(mp); r.pp != nullptr) return r;
    if (P* pp = checkRunqsNoP(allp); pp != nullptr) {
      Env::acquirep(mp, pp);
      becomeSpinning(mp);
      return {nullptr, pp};
    }
    return {};
  }

  // The Delicate dance's global-queue recheck (Go: inline in findRunnable).
  // An M without a P that just stopped spinning.
  static recheck recheck_global(M* mp) {
    P* pp;
    runqcheck::globrunq_batch<B> r;
    {
      locked l = runqcheck::lock(Env::core());
      if (l.runq().size() == 0) return {};
      pp = pidlegetSpinning(l);
      if (pp == nullptr) return {};
      r = runqcheck::globrunqgetbatch(l, static_cast<std::int32_t>(S::p::capacity) / 2);
    }
    RQ_CHECK(B, r.gp != nullptr, "global runq empty with non-zero runqsize");
    // Go calls runqputbatch before acquirep; the P is ours either way (from
    // pidle), and acquiring first lets the owner check hold.
    Env::acquirep(mp, pp);
    runqcheck::runqputbatch(Env::owner(pp), r.q);
    RQ_CHECK(B, r.q.empty(), "Couldn't put Gs into empty local runq", "left", r.q.size());
    becomeSpinning(mp);
    return {r.gp, pp};
  }

  // Go: checkRunqsNoP. An M without a P: if some non-idle P has work, take
  // an idle P (pidlegetSpinning) for the caller to acquire.
  static P* checkRunqsNoP(std::span<typename S::p* const> allp) {
    for (auto* cp : allp) {
      P* p2 = static_cast<P*>(cp);
      if (!p2->idle.load(relaxed) && !S::runqempty(*p2)) {  // relaxed: idle is a hint
        locked l = runqcheck::lock(Env::core());
        return pidlegetSpinning(l);  // null: no P, don't bother checking remaining Ps
      }
    }
    return nullptr;
  }
};

}  // namespace runqcheck
