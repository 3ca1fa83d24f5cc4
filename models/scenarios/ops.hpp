// models/scenarios/ops.hpp — the one vocabulary of operations: the kinds,
// their names (one table), a parser (name -> kind) and a printer (an operation
// as Go names it). Three levels share it: queue operations (the scenario
// catalog, the executor, lincheck's histories, the fuzz seed format through a
// byte -> kind table in input.hpp, the stall checker, the replay listing),
// scenario controls, and the scheduler events of the stateful tests
// (models/sched_ops: spawn, park, schedule, ...; drain and glob_batch are the
// queue operations there too, followed by what the scheduler does with them).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string_view>

namespace runqcheck::model {

// One operation, executed by a thread as the owner of P `p` (thieves own the
// P they steal into, as in Go: runqsteal(pp=own, p2=victim)).
enum class op_kind : std::uint8_t {
  put,              // runqput(p, g, next=false)
  put_next,         // runqput(p, g, next=true)
  get,              // runqget(p) -> g, inheritTime
  steal,            // runqsteal(p, victim, stealRunNextG=false) -> g
  steal_next,       // runqsteal(p, victim, stealRunNextG=true) -> g
  drain,            // runqdrain(p) -> list
  glob_batch,       // findRunnable's global step: globrunqgetbatch + runqputbatch -> g
  glob_put,         // globrunqput(g)
  glob_get,         // globrunqget() -> g
  empty,            // runqempty(victim) -> bool
  destroy,          // procresize: (*p).destroy moves p's Gs to the global head
  // Controls: scenario scripts only; a history records what they run.
  steal_next_must,  // as steal_next, and it must find a G (the victim is never empty meanwhile)
  expect_nonempty,  // runqempty(victim) must be false (checked in the run)
  wait_done,        // spin until thread `victim` finished its script (a world stop)
  // Scheduler events (models/sched_ops), on the reference world and a subject.
  spawn,         // the running G does newproc: runqput(next=true)
  spawn_many,    // that, count times in a row (fills a 256 ring)
  park,          // the running G waits (gopark)
  ready,         // the running G readies a waiting G: runqput(next=true)
  gosched,       // the running G yields to the global tail (goschedImpl)
  goexit,        // the running G exits
  schedule,      // findRunnable (fairness, local, global batch, stealWork) + execute
  steal_work,    // stealWork only (the P's queue empty) + execute
  entersyscall,  // the running G enters a syscall; its P handed off
  exitsyscall,   // a G leaves its syscall: old P, any free P, or the global queue
  procresize,    // a new gomaxprocs
  inject,        // injectglist: runqputbatch, leftovers global
  // A G that ran is put again (generated programs, models/generate): the
  // G this thread received last, put on its P; nothing if it received none.
  // The world runs it as put / put_next of that G (what a history records).
  reput,
  reput_next,
  // injectglist's own-P step: runqputbatch of n new Gs (g, g+1, ...) onto
  // P p; what does not fit the ring goes to the global tail (the harness
  // puts those one by one with globrunqput: the contract names no batch put).
  put_batch,
};

enum class op_level : std::uint8_t { queue, control, sched };

struct op {
  op_kind kind;
  std::uint8_t p = 0;       // the P this thread acts as the owner of
  std::uint8_t victim = 0;  // steal / empty / expect_nonempty: the other P; wait_done: a thread
  std::int16_t g = -1;      // put / glob_put: the G's id; put_batch: its first G's
  std::uint8_t n = 0;       // put_batch: the batch's Gs (g .. g+n-1)
};

struct op_name {
  op_kind kind;
  std::string_view name;  // as scenarios and listings spell it
  std::string_view go;    // the Go function it runs
  op_level level;
};

// The name table, in enum order.
inline constexpr op_name op_names[] = {
    {op_kind::put, "put", "runqput", op_level::queue},
    {op_kind::put_next, "put_next", "runqput", op_level::queue},
    {op_kind::get, "get", "runqget", op_level::queue},
    {op_kind::steal, "steal", "runqsteal", op_level::queue},
    {op_kind::steal_next, "steal_next", "runqsteal", op_level::queue},
    {op_kind::drain, "drain", "runqdrain", op_level::queue},
    {op_kind::glob_batch, "glob_batch", "globrunqgetbatch", op_level::queue},
    {op_kind::glob_put, "glob_put", "globrunqput", op_level::queue},
    {op_kind::glob_get, "glob_get", "globrunqget", op_level::queue},
    {op_kind::empty, "empty", "runqempty", op_level::queue},
    {op_kind::destroy, "destroy", "destroy", op_level::queue},
    {op_kind::steal_next_must, "steal_next_must", "runqsteal", op_level::control},
    {op_kind::expect_nonempty, "expect_nonempty", "runqempty", op_level::control},
    {op_kind::wait_done, "wait_done", "wait", op_level::control},
    {op_kind::spawn, "spawn", "newproc", op_level::sched},
    {op_kind::spawn_many, "spawn_many", "newproc", op_level::sched},
    {op_kind::park, "park", "gopark", op_level::sched},
    {op_kind::ready, "ready", "ready", op_level::sched},
    {op_kind::gosched, "gosched", "goschedImpl", op_level::sched},
    {op_kind::goexit, "goexit", "goexit0", op_level::sched},
    {op_kind::schedule, "schedule", "schedule", op_level::sched},
    {op_kind::steal_work, "steal_work", "stealWork", op_level::sched},
    {op_kind::entersyscall, "entersyscall", "entersyscall", op_level::sched},
    {op_kind::exitsyscall, "exitsyscall", "exitsyscall", op_level::sched},
    {op_kind::procresize, "procresize", "procresize", op_level::sched},
    {op_kind::inject, "inject", "injectglist", op_level::sched},
    {op_kind::reput, "reput", "runqput", op_level::queue},
    {op_kind::reput_next, "reput_next", "runqput", op_level::queue},
    {op_kind::put_batch, "put_batch", "runqputbatch", op_level::queue},
};
static_assert([] {
  for (std::size_t i = 0; i < std::size(op_names); i++)
    if (static_cast<std::size_t>(op_names[i].kind) != i) return false;
  return true;
}());

constexpr const op_name& info(op_kind k) { return op_names[static_cast<std::size_t>(k)]; }
constexpr std::string_view name(op_kind k) { return info(k).name; }

// name -> kind (nullopt: no such operation).
constexpr std::optional<op_kind> parse_op_kind(std::string_view s) {
  for (const op_name& n : op_names)
    if (n.name == s) return n.kind;
  return std::nullopt;
}

// The queue operation a control runs (a history records this one).
constexpr op_kind recorded_as(op_kind k) {
  switch (k) {
    case op_kind::steal_next_must: return op_kind::steal_next;
    case op_kind::expect_nonempty: return op_kind::empty;
    default: return k;
  }
}

// An operation as Go names it ("runqsteal(P1, P0, stealRunNextG=true)").
inline void describe_op(const op& o, char* b, std::size_t n) {
  int p = o.p, v = o.victim, g = o.g;
  switch (o.kind) {
    case op_kind::put: std::snprintf(b, n, "runqput(P%d, G%d, next=false)", p, g); break;
    case op_kind::put_next: std::snprintf(b, n, "runqput(P%d, G%d, next=true)", p, g); break;
    case op_kind::get: std::snprintf(b, n, "runqget(P%d)", p); break;
    case op_kind::steal:
      std::snprintf(b, n, "runqsteal(P%d, P%d, stealRunNextG=false)", p, v);
      break;
    case op_kind::steal_next:
    case op_kind::steal_next_must:
      std::snprintf(b, n, "runqsteal(P%d, P%d, stealRunNextG=true)", p, v);
      break;
    case op_kind::drain: std::snprintf(b, n, "runqdrain(P%d)", p); break;
    case op_kind::glob_batch:
      std::snprintf(b, n, "findRunnable: globrunqgetbatch into P%d", p);
      break;
    case op_kind::glob_put: std::snprintf(b, n, "globrunqput(G%d)", g); break;
    case op_kind::glob_get: std::snprintf(b, n, "globrunqget()"); break;
    case op_kind::empty: std::snprintf(b, n, "runqempty(P%d)", v); break;
    case op_kind::expect_nonempty: std::snprintf(b, n, "runqempty(P%d) must be false", v); break;
    case op_kind::wait_done: std::snprintf(b, n, "wait until T%d is done", v); break;
    case op_kind::destroy: std::snprintf(b, n, "destroy(P%d)", p); break;
    case op_kind::reput:
    case op_kind::reput_next:
      std::snprintf(b, n, "runqput(P%d, the G it got last, next=%s)", p,
                    o.kind == op_kind::reput_next ? "true" : "false");
      break;
    case op_kind::put_batch:
      std::snprintf(b, n, "runqputbatch(P%d, G%d..G%d), the rest globrunqput", p, g,
                    g + std::max(int(o.n), 1) - 1);
      break;
    default: std::snprintf(b, n, "%s(P%d)", info(o.kind).go.data(), p); break;  // sched events
  }
}

}  // namespace runqcheck::model
