// models/scenarios/ops.hpp — the one vocabulary of queue-level operations:
// the kinds, their names (one table), a parser (name -> kind) and a printer
// (an operation as Go names it). Used by the scenario catalog, the executor,
// lincheck's histories, the fuzz seed format (a byte -> kind table, input.hpp),
// the stall checker's held operations and the replay listing.
// Scheduler-level events (spawn, park, ready, ...) are a level above: see
// models/sched_ops/sched_ops.hpp.
#pragma once

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
};

struct op {
  op_kind kind;
  std::uint8_t p = 0;       // the P this thread acts as the owner of
  std::uint8_t victim = 0;  // steal / empty / expect_nonempty: the other P; wait_done: a thread
  std::int16_t g = -1;      // put / glob_put: the G's id
};

struct op_name {
  op_kind kind;
  std::string_view name;  // as scenarios and listings spell it
  std::string_view go;    // the Go function it runs
  bool control;
};

// The name table, in enum order.
inline constexpr op_name op_names[] = {
    {op_kind::put, "put", "runqput", false},
    {op_kind::put_next, "put_next", "runqput", false},
    {op_kind::get, "get", "runqget", false},
    {op_kind::steal, "steal", "runqsteal", false},
    {op_kind::steal_next, "steal_next", "runqsteal", false},
    {op_kind::drain, "drain", "runqdrain", false},
    {op_kind::glob_batch, "glob_batch", "globrunqgetbatch", false},
    {op_kind::glob_put, "glob_put", "globrunqput", false},
    {op_kind::glob_get, "glob_get", "globrunqget", false},
    {op_kind::empty, "empty", "runqempty", false},
    {op_kind::destroy, "destroy", "destroy", false},
    {op_kind::steal_next_must, "steal_next_must", "runqsteal", true},
    {op_kind::expect_nonempty, "expect_nonempty", "runqempty", true},
    {op_kind::wait_done, "wait_done", "wait", true},
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
  }
}

}  // namespace runqcheck::model
