// explore/search.hpp — the engine's face for a driver: the program it
// explores, the options, the stats it returns, and the two searches, run by
// the engine compiled once (engine.cpp), not in every driver: the engine
// (engine.hpp) is most of a driver's compile time. A driver includes this
// header only; a test built on an engine broken on purpose compiles its own
// engine.cpp against the patched copy (cmake/explore.cmake).
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "consistency.hpp"
#include "runtime.hpp"

namespace runqcheck::explore {

// What the engine explores: a program of a few threads, re-created for
// every execution.
struct program {
  virtual int threads() const = 0;
  virtual void setup() = 0;     // sequential, before the threads
  virtual void run(int t) = 0;  // thread t's code
  virtual void finish() = 0;    // sequential, after every thread completed
  virtual void teardown() = 0;  // destroy what setup made
  // The thread t is symmetric to: a lower thread with t's code and starting
  // state, on the same locations but those each thread creates itself
  // (symmetry reduction, engine's sym_ok()); -1: none (the default).
  virtual int symmetric_to(int /*t*/) const { return -1; }
  virtual ~program() = default;
};

struct options {
  model m = model::rc11;
  std::uint64_t budget = 0;         // executions (complete + blocked); 0: none
  double seconds = 0;               // a budget in seconds; 0: none
  // Shard `shard` of `shards`: the runs of every shard explore the tree
  // together, each subtree once (see split()).
  unsigned shard = 0, shards = 1;
  bool hash_graphs = false;         // count graphs met twice (the optimality test)
  std::string replay;               // a path ("step:child,...") to follow alone
  std::uint32_t max_events = 4000;  // per thread: beyond, the execution is cut
  // Block a thread at a read that repeats its last iteration (below). Off:
  // only spin_pause and a taken lock block, for a program whose straight-line
  // code reads the same line twice on purpose (the protocol world: pidleput
  // rechecks the runqempty that procresize just asked); a loop that spins
  // without spin_pause is then cut at max_events.
  bool read_spins = true;
  // With read_spins, spin-assume for retry loops (after GenMC's, CAV 2021
  // section 4, there for loops shown side-effect free by analysis): a load
  // at a line the thread read the same location at before in the same
  // operation, with no write of its own since, blocks before it is made,
  // whatever it would read. The iteration that failed wrote nothing, so the
  // execution without it (the thread ran its last iteration first) is
  // explored elsewhere; the same outcomes at far fewer executions where
  // CAS loops fail often. Sound for loops that restart from scratch, not
  // for one that counts its tries or changes course after a failure: the
  // caller checks its port against the search without (docs/explore.md).
  bool retry_assume = false;
  // An execution whose blocked threads all wait for good (above) ends
  // there: finish() judges it, and it counts as complete. For a program
  // whose waits are its way of ending (the protocol world's parked Ms),
  // with no counter of its own to tell them when to leave.
  bool waits_end = false;
  // Await in-place revisits (below, ipr_target()). Off: TruSt's plain
  // revisits only (the A/B oracle of the tests: the same complete graphs).
  bool ipr = true;
  // Symmetry reduction (below, sym_ok()) where the program declares
  // symmetric threads: each class of executions equal up to a permutation
  // of them judged once. Off: every one (the tests' A/B oracle).
  bool symmetry = true;
  // hash_graphs: a graph's hash is the least over the permutations of
  // symmetric threads (graphs equal up to one hash alike).
  bool canonical = false;
  // hash_graphs: a graph's hash leaves out the order of its critical
  // sections (lock_class_hash()): graphs equal but for it hash alike, so
  // the distinct hashes count what a lock-aware reduction (LAPOR) would
  // explore. A measure only: the search is unchanged.
  bool lock_classes = false;
  std::FILE* trace = nullptr;       // prints every execution's graph
  // Called with each event a thread's access replays or adds, in the order
  // the threads run (an order of po ∪ rf): the failure picture's recorder.
  std::function<void(int thread, const event&, const request&)> on_access;
  // Called with each access after the threads (the program's finish: a final drain's),
  // made on the values as they stand, no event: what it read and what it wrote (a load:
  // nothing; a failed CAS: its old value).
  std::function<void(const request&, std::uint64_t read, std::uint64_t wrote)> on_final;
  // Called when the search ends, with the last execution's graph (a
  // replay's: the one on_access saw): the picture orders its rows by it.
  std::function<void(const graph&)> on_end;
  // No reduction (a test of the reduction): every pending thread may add
  // the next event, no revisits; with hash_graphs, the distinct graphs met
  // are every consistent graph of the program.
  bool naive = false;
  // With m == rc11: SC's executions counted in the same tree (stats::sc_*):
  // an SC-consistent graph is RC11-consistent, so SC's are RC11's that are
  // SC-consistent, each judged at its end (docs/generated.md, "Speed").
  bool also_sc = false;
};

struct stats {
  std::uint64_t complete = 0, blocked = 0, cut = 0;
  // Blocked executions whose blocked threads all wait for good (counted in
  // blocked, or, with options::waits_end, judged and counted in complete).
  std::uint64_t for_good = 0;
  std::uint64_t duplicates = 0;       // graphs met twice (hash_graphs)
  std::vector<std::uint64_t> hashes;  // complete graphs' hashes (hash_graphs)
  // options::also_sc: the executions counted above whose graphs are
  // SC-consistent, and the complete ones' hashes (hash_graphs).
  std::uint64_t sc_complete = 0, sc_blocked = 0, sc_cut = 0;
  std::vector<std::uint64_t> sc_hashes;
  std::uint64_t revisits = 0;
  std::uint64_t in_place = 0;  // children with a read revisited in place (ipr_child)
  std::uint64_t dead = 0;  // prefixes no event could extend consistently
  // Prefixes dropped where a thread blocked on a read that was stale when
  // added (ipr: every execution below ends blocked there).
  std::uint64_t stale = 0;
  // Symmetry reduction: prefixes dropped (every graph below them is no
  // canonical member), and executions run to their end but dropped there
  // unjudged (not counted in complete or blocked).
  std::uint64_t symmetric = 0, sym_leaves = 0;
  // Executions dropped unjudged where a weak CAS's spurious failure read
  // another value than the expected one (a plain failure, met elsewhere).
  std::uint64_t spurious_dups = 0;
  // model::lb (lb_revisit()): reads revisited to read a promise; children
  // dropped because the promise's thread alone cannot write it
  // (uncertified), or because a thread's code, re-run with the promised
  // value, no longer makes the events the graph kept (diverged).
  std::uint64_t lb_revisits = 0, uncertified = 0, diverged = 0;
  std::uint64_t left = 0;  // subtrees not explored (budget reached)
  bool exhausted = false;
  bool split = false;  // sharded: the tree was split (else shard 0 counted it all)
  bool failed = false;
  std::string failure;  // what failed
  std::string path;     // its replay path
  double seconds = 0;
  std::uint64_t executions() const { return complete + blocked + cut; }
};

// Explores p's executions under o (engine::run): every consistent graph once,
// or until a failure or o's budget.
stats explore(program& p, options o);

// Knuth's estimate of the number of p's executions under o from n random
// walks of the tree (engine::estimate).
double estimate(program& p, options o, unsigned n, std::uint64_t seed);

}  // namespace runqcheck::explore
