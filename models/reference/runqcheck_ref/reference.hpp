// models/reference/runqcheck_ref/reference.hpp — the executable sequential
// specification of the scheduler's queue state (issue #4).
//
// What it is: Ps with a local FIFO ring (capacity cap) and a runnext slot,
// the global FIFO, the states of the Gs, gomaxprocs; every operation of
// proc.go that moves a G between them, written as plain std containers with
// no atomics and no memory orders. It is the yardstick the property tests
// (tests/property), the linearizability checker (models/lincheck) and the
// differential test against Go (tests/differential) compare the ports with.
//
// Allowed outcomes, not one outcome. Each `allowed_*` function returns the
// set of results the specification permits in the current state; the
// `apply`-style members perform one of them. Sequentially every set has
// exactly one element (the queues are deterministic given the caller's
// random numbers); concurrency enters through models/lincheck, which asks for
// the set at each candidate linearization point and splits the operations
// Go performs in two visible steps (runqput's kick of runnext, runqputslow,
// a steal's publication, runqdrain, the global batch) into two steps.
//
// The rules (go1.25 proc.go; each function names the Go function it
// specifies):
//  - runqput(next=true): g becomes runnext; the old runnext, if any, goes to
//    the ring tail. runqput(next=false): g to the ring tail.
//  - A put into a full ring (runqputslow): the cap/2 oldest Gs of the ring,
//    then the new G, are appended to the global queue in that order.
//  - runqget: runnext first (inheritTime = true), else the ring head
//    (inheritTime = false), else nothing.
//  - runqsteal(thief, victim, stealRunNext): ceil(n/2) of the victim's n ring
//    Gs from the head (the last one is returned, the others go to the thief's
//    ring tail in order); if the ring is empty, its runnext only when
//    stealRunNext; nothing only if both are empty.
//  - globrunqgetbatch(req): n = min(req, size, size/gomaxprocs + 1) Gs from
//    the global head; findRunnable passes req = cap/2 and puts all but the
//    first into its (empty) ring.
//  - (*p).destroy (procresize shrinking): the ring keeps its order at the
//    global head, runnext in front of it.
//  - runqdrain: runnext, then the ring in order.
//  - runqputbatch: as many as fit, in order; the rest stay with the caller.
//
// Deliberate simplifications (documented in docs/reference-model.md):
//  - idle Ps: stealWork skips Ps on the idle list; an idle P always has an
//    empty queue (Go throws "pidleput: P has non-empty run queue"), so
//    stealing from it would find nothing and the model does not track idleness.
//  - timers, netpoll, GC workers, the trace reader: not modelled.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include <runqcheck/found_in.hpp>

namespace runqcheck::ref {

using gid = int;  // a G, by number; Gs are 0, 1, 2, …
inline constexpr gid nil = -1;

// Go's G states that the queues see (runtime2.go: _Grunnable, …).
enum class gstate : std::uint8_t { runnable, running, waiting, syscall, dead };

inline const char* to_string(gstate s) {
  switch (s) {
    case gstate::runnable: return "runnable";
    case gstate::running: return "running";
    case gstate::waiting: return "waiting";
    case gstate::syscall: return "syscall";
    case gstate::dead: return "dead";
  }
  return "?";
}

// A queue of Gs, head first. A vector: the search copies the state at every step, and an
// empty vector copies without allocating (a deque allocates even then).
using gqueue = std::vector<gid>;

// One P's local queue.
struct local {
  gqueue ring;  // head at the front
  gid runnext = nil;
  bool operator==(const local&) const = default;
};

struct runqget_outcome {
  gid gp = nil;
  bool inheritTime = false;
  bool operator==(const runqget_outcome&) const = default;
};

struct steal_outcome {
  std::vector<gid> taken;  // in victim order; the last one is returned
  bool from_runnext = false;
  gid gp() const { return taken.empty() ? nil : taken.back(); }
  bool operator==(const steal_outcome&) const = default;
};

struct batch_outcome {
  gid gp = nil;            // the G to run
  std::vector<gid> rest;   // for the caller's ring, in order
  bool operator==(const batch_outcome&) const = default;
};

inline std::string show(const gqueue& q) {
  std::string s = "[";
  for (std::size_t i = 0; i < q.size(); i++) s += (i ? " " : "") + std::to_string(q[i]);
  return s + "]";
}

// The queue state: Ps' local queues and the global queue.
struct queues {
  std::uint32_t cap = 256;
  std::int32_t gomaxprocs = 1;
  std::vector<local> ps;
  gqueue global;

  queues() = default;
  queues(std::uint32_t capacity, int nprocs)
      : cap(capacity), gomaxprocs(nprocs), ps(static_cast<std::size_t>(nprocs)) {}
  bool operator==(const queues&) const = default;

  // --- allowed outcomes ---------------------------------------------------

  // Go: runqget. runnext first, with inheritTime.
  std::vector<runqget_outcome> allowed_runqget(int p) const {
    const local& l = ps[p];
    if (l.runnext != nil) return {{l.runnext, true}};
    if (!l.ring.empty()) return {{l.ring.front(), false}};
    return {{nil, false}};
  }

  // Go: runqgrab (what a steal takes from the victim).
  std::vector<steal_outcome> allowed_steal(int victim, bool stealRunNext) const {
    const local& v = ps[victim];
    std::size_t n = v.ring.size() - v.ring.size() / 2;  // ceil(n/2)
    if (n > 0)
      return {{std::vector<gid>(v.ring.begin(), v.ring.begin() + static_cast<std::ptrdiff_t>(n)),
               false}};
    if (stealRunNext && v.runnext != nil) return {{{v.runnext}, true}};
    return {{{}, false}};
  }

  // Go: globrunqgetbatch's batch size.
  std::int32_t globrunqgetbatch_n(std::int32_t req) const {
    auto size = static_cast<std::int32_t>(global.size());
    if (size == 0) return 0;
    return std::min({req, size, size / gomaxprocs + 1});
  }
  std::vector<batch_outcome> allowed_globrunqgetbatch(std::int32_t req) const {
    std::int32_t n = globrunqgetbatch_n(req);
    if (n == 0) return {{}};
    batch_outcome b{global.front(), std::vector<gid>(global.begin() + 1, global.begin() + n)};
    return {b};
  }

  // Go: runqempty (never spuriously true; exact sequentially).
  bool runqempty(int p) const { return ps[p].ring.empty() && ps[p].runnext == nil; }

  // --- transitions (sequential, deterministic) ---------------------------

  // Ring tail put with runqputslow's spill; returns what went to the global
  // queue (empty unless the ring was full). Go: runqput's ring part + runqputslow.
  std::vector<gid> ring_put(int p, gid g) {
    local& l = ps[p];
    if (l.ring.size() < cap) {
      l.ring.push_back(g);
      return {};
    }
    std::vector<gid> spill(l.ring.begin(), l.ring.begin() + cap / 2);
    l.ring.erase(l.ring.begin(), l.ring.begin() + cap / 2);
    spill.push_back(g);
    global.insert(global.end(), spill.begin(), spill.end());
    return spill;
  }

  // Go: runqput. Returns the Gs runqputslow moved to the global queue.
  std::vector<gid> runqput(int p, gid g, bool next) {
    if (next) {
      std::swap(g, ps[p].runnext);
      if (g == nil) return {};
    }
    return ring_put(p, g);
  }

  // Go: runqputbatch. Returns the leftovers (in order).
  std::vector<gid> runqputbatch(int p, const std::vector<gid>& batch) {
    local& l = ps[p];
    std::size_t i = 0;
    for (; i < batch.size() && l.ring.size() < cap; i++) l.ring.push_back(batch[i]);
    return std::vector<gid>(batch.begin() + static_cast<std::ptrdiff_t>(i), batch.end());
  }

  runqget_outcome runqget(int p) {
    runqget_outcome r = allowed_runqget(p).front();
    local& l = ps[p];
    if (r.inheritTime) l.runnext = nil;
    else if (r.gp != nil) l.ring.erase(l.ring.begin());
    return r;
  }

  // Go: runqdrain. runnext first, then the ring.
  std::vector<gid> runqdrain(int p) {
    local& l = ps[p];
    std::vector<gid> out;
    if (l.runnext != nil) out.push_back(l.runnext);
    out.insert(out.end(), l.ring.begin(), l.ring.end());
    l = local{};
    return out;
  }

  // Apply a steal outcome: remove it from the victim; all but the last go to
  // the thief's ring tail. Go: runqsteal.
  gid apply_steal(int thief, int victim, const steal_outcome& o) {
    local& v = ps[victim];
    if (o.from_runnext) v.runnext = nil;
    else v.ring.erase(v.ring.begin(), v.ring.begin() + static_cast<std::ptrdiff_t>(o.taken.size()));
    for (std::size_t i = 0; i + 1 < o.taken.size(); i++) ps[thief].ring.push_back(o.taken[i]);
    return o.gp();
  }
  steal_outcome runqsteal(int thief, int victim, bool stealRunNext) {
    steal_outcome o = allowed_steal(victim, stealRunNext).front();
    apply_steal(thief, victim, o);
    return o;
  }

  // Go: globrunqput / globrunqputhead / globrunqget.
  void globrunqput(gid g) { global.push_back(g); }
  void globrunqputhead(gid g) { global.insert(global.begin(), g); }
  gid globrunqget() {
    if (global.empty()) return nil;
    gid g = global.front();
    global.erase(global.begin());
    return g;
  }

  // Go: globrunqgetbatch, without the caller's runqputbatch.
  batch_outcome globrunqgetbatch(std::int32_t req) {
    batch_outcome b = allowed_globrunqgetbatch(req).front();
    global.erase(
        global.begin(),
        global.begin() + (b.gp == nil ? 0 : 1 + static_cast<std::ptrdiff_t>(b.rest.size())));
    return b;
  }

  // findRunnable's global step: the batch, the rest into p's ring.
  // Go: findRunnable ("global runq"), go1.25; the same n as go1.24's
  // globrunqget(pp, 0) when the ring is empty, which is when findRunnable
  // calls it.
  gid findRunnable_globrunq(int p) {
    batch_outcome b = globrunqgetbatch(static_cast<std::int32_t>(cap / 2));
    std::vector<gid> left = runqputbatch(p, b.rest);
    global.insert(global.begin(), left.begin(), left.end());  // never happens: the ring is empty
    return b.gp;
  }

  // Go: (*p).destroy's run-queue part: the ring at the global head in ring
  // order, runnext in front of it.
  void destroy(int p) {
    local& l = ps[p];
    global.insert(global.begin(), l.ring.begin(), l.ring.end());
    if (l.runnext != nil) global.insert(global.begin(), l.runnext);
    l = local{};
  }

  std::string describe() const {
    std::ostringstream os;
    for (std::size_t i = 0; i < ps.size(); i++)
      os << "P" << i << " ring=" << show(ps[i].ring) << " runnext=" << ps[i].runnext << "; ";
    os << "global=" << show(global);
    return os.str();
  }
};

// Go: randomOrder / randomEnum, restated (the model does not include core):
// start at r % count, stride a number coprime to count.
inline std::vector<int> steal_order(int count, std::uint32_t r) {
  std::vector<std::uint32_t> coprimes;
  for (int i = 1; i <= count; i++)
    if (std::gcd(i, count) == 1) coprimes.push_back(static_cast<std::uint32_t>(i));
  std::uint32_t pos = r % static_cast<std::uint32_t>(count);
  std::uint32_t inc = coprimes[r / static_cast<std::uint32_t>(count) % coprimes.size()];
  std::vector<int> out;
  for (int i = 0; i < count; i++) {
    out.push_back(static_cast<int>(pos));
    pos = (pos + inc) % static_cast<std::uint32_t>(count);
  }
  return out;
}

// Where findRunnable found its G: the port's own vocabulary.
using source = runqcheck::found_in;
inline const char* to_string(source s) {
  switch (s) {
    case source::none: return "none";
    case source::fairness: return "fairness(%61)";
    case source::local: return "local";
    case source::global: return "global-batch";
    case source::steal: return "steal";
  }
  return "?";
}

struct found {
  gid gp = nil;
  bool inheritTime = false;
  source from = source::none;
  bool operator==(const found&) const = default;
};

// The scheduler-level state: queues plus who runs what.
struct world {
  queues q;
  std::vector<gstate> gs;            // by gid
  std::vector<gid> current;          // per P: the running G or nil
  std::vector<std::uint32_t> schedtick;  // per P
  std::vector<int> syscall_from;     // by gid: the P a G in syscall left (-1)
  int maxprocs = 1;                  // Ps that exist in memory (procresize bound)

  world() = default;
  world(std::uint32_t cap, int nprocs, int max_procs)
      : q(cap, nprocs), current(static_cast<std::size_t>(nprocs), nil),
        schedtick(static_cast<std::size_t>(nprocs), 0), maxprocs(max_procs) {}

  int nprocs() const { return q.gomaxprocs; }

  // A new G, runnable on p's runnext. Go: newproc (runqput(pp, newg, true)).
  gid spawn(int p) {
    gid g = static_cast<gid>(gs.size());
    gs.push_back(gstate::runnable);
    syscall_from.push_back(-1);
    q.runqput(p, g, true);
    return g;
  }
  // A G that exists but starts on the global queue (test set-up).
  gid spawn_global() {
    gid g = static_cast<gid>(gs.size());
    gs.push_back(gstate::runnable);
    syscall_from.push_back(-1);
    q.globrunqput(g);
    return g;
  }
  // Go: gopark: the running G waits; p has no G.
  void park(int p) {
    gs[current[p]] = gstate::waiting;
    current[p] = nil;
  }
  // Go: goexit0.
  void goexit(int p) {
    gs[current[p]] = gstate::dead;
    current[p] = nil;
  }
  // Go: ready (runqput(pp, gp, next=true)), called by p's running G.
  void ready(int p, gid g) {
    gs[g] = gstate::runnable;
    q.runqput(p, g, true);
  }
  // Go: goschedImpl / gopreempt_m: the running G to the global tail.
  void gosched(int p) {
    gs[current[p]] = gstate::runnable;
    q.globrunqput(current[p]);
    current[p] = nil;
  }
  // Go: injectglist with a P: runqputbatch, the rest to the global queue.
  void inject(int p, const std::vector<gid>& batch) {
    for (gid g : batch) gs[g] = gstate::runnable;
    std::vector<gid> left = q.runqputbatch(p, batch);
    q.global.insert(q.global.end(), left.begin(), left.end());
  }
  // runqdrain, the Gs then appended to the global queue.
  std::vector<gid> drain_to_global(int p) {
    std::vector<gid> d = q.runqdrain(p);
    q.global.insert(q.global.end(), d.begin(), d.end());
    return d;
  }

  // Go: findRunnable, its queue part: the %61 fairness check, the local
  // runq, the global batch. Go: stealWork for the rest.
  found findRunnable_queues(int p) {
    if (schedtick[p] % 61 == 0 && !q.global.empty()) {
      return {q.globrunqget(), false, source::fairness};
    }
    if (runqget_outcome r = q.runqget(p); r.gp != nil) return {r.gp, r.inheritTime, source::local};
    if (!q.global.empty()) return {q.findRunnable_globrunq(p), false, source::global};
    return {};
  }
  // Go: stealWork: 4 passes over the Ps, each in a random coprime order
  // from a fresh random number rand() (Go: cheaprand()), itself skipped,
  // runnext only on the last pass.
  template <class Rand>
  found stealWork(int p, Rand&& rand) {
    for (int i = 0; i < 4; i++) {
      bool stealRunNextG = i == 3;
      for (int p2 : steal_order(nprocs(), static_cast<std::uint32_t>(rand()))) {
        if (p2 == p) continue;
        steal_outcome o = q.runqsteal(p, p2, stealRunNextG);
        if (o.gp() != nil) return {o.gp(), false, source::steal};
      }
    }
    return {};
  }
  template <class Rand>
  found findRunnable(int p, Rand&& rand) {
    found f = findRunnable_queues(p);
    if (f.gp == nil) f = stealWork(p, rand);
    return f;
  }
  // Go: execute: schedtick advances unless the G inherits the time slice.
  void execute(int p, const found& f) {
    if (f.gp == nil) return;
    current[p] = f.gp;
    gs[f.gp] = gstate::running;
    if (!f.inheritTime) schedtick[p]++;
  }

  // Go: entersyscall + handoffp: the G stays in the syscall, p is free.
  void entersyscall(int p) {
    gid g = current[p];
    gs[g] = gstate::syscall;
    syscall_from[g] = p;
    current[p] = nil;
  }
  // Go: exitsyscall: the old P if it is free, else any free P (lowest id),
  // else runnable on the global queue (exitsyscall0 → globrunqput).
  // Returns the P it runs on, or -1.
  int exitsyscall(gid g) {
    int from = syscall_from[g];
    syscall_from[g] = -1;
    int to = -1;
    if (from >= 0 && from < nprocs() && current[from] == nil) to = from;
    for (int p = 0; to < 0 && p < nprocs(); p++)
      if (current[p] == nil) to = p;
    if (to < 0) {
      gs[g] = gstate::runnable;
      q.globrunqput(g);
      return -1;
    }
    current[to] = g;
    gs[g] = gstate::running;
    return to;
  }

  // Go: procresize(n) after stopTheWorld. Shrinking: the running G of a
  // dying P was preempted to the global tail by the world stop; then
  // (*p).destroy puts the P's queue at the global head.
  void procresize(int n) {
    int old = nprocs();
    for (int p = n; p < old; p++) {
      if (current[p] != nil) {
        gs[current[p]] = gstate::runnable;
        q.globrunqput(current[p]);
        current[p] = nil;
      }
    }
    for (int p = n; p < old; p++)
      q.destroy(p);  // Go: for i := nprocs; i < old; i++ { allp[i].destroy() }
    q.ps.resize(static_cast<std::size_t>(n));
    current.resize(static_cast<std::size_t>(n), nil);
    schedtick.resize(static_cast<std::size_t>(n), 0);
    q.gomaxprocs = n;
  }

  // Invariants: every runnable G is in exactly one queue slot; running Gs
  // are some P's current and in no queue; other Gs are nowhere; rings are
  // within capacity. Returns "" or the first violation.
  std::string check() const {
    std::vector<int> seen(gs.size(), 0);
    auto see = [&](gid g) -> bool {
      if (g < 0 || static_cast<std::size_t>(g) >= gs.size()) return false;
      seen[g]++;
      return true;
    };
    for (std::size_t p = 0; p < q.ps.size(); p++) {
      if (q.ps[p].ring.size() > q.cap) return "P" + std::to_string(p) + " ring over capacity";
      for (gid g : q.ps[p].ring)
        if (!see(g)) return "unknown G in a ring";
      if (q.ps[p].runnext != nil && !see(q.ps[p].runnext)) return "unknown G in runnext";
    }
    for (gid g : q.global)
      if (!see(g)) return "unknown G in the global queue";
    std::vector<int> running(gs.size(), 0);
    for (gid g : current)
      if (g != nil) running[g]++;
    for (std::size_t g = 0; g < gs.size(); g++) {
      int want_q = gs[g] == gstate::runnable ? 1 : 0;
      int want_r = gs[g] == gstate::running ? 1 : 0;
      if (seen[g] != want_q || running[g] != want_r)
        return "G" + std::to_string(g) + " (" + to_string(gs[g]) + ") is in " +
               std::to_string(seen[g]) + " queue slots and current on " +
               std::to_string(running[g]) + " Ps";
    }
    return {};
  }
};

}  // namespace runqcheck::ref
