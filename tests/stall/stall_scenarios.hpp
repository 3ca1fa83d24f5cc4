// tests/stall/stall_scenarios.hpp — the stall checker's scenarios, as data:
// which operation is held (and by the owner of which P), what P0 holds
// before, and the long sequences the other threads run while it is held.
// Each runs at Cap 256 and Cap 8, for every stall point k of the held op.
#pragma once

#include <string>
#include <vector>

#include "ops.hpp"

namespace runqcheck::stall::model {

// The held operation: one of put, put_next, get, steal, steal_next (the
// shared vocabulary, models/scenarios/ops.hpp).
using runqcheck::model::op_kind;

enum class load_kind {
  owner_churn,  // owner of p: reps x (runqput, runqget), then reps/8 more with next=true
  steal_from,   // owner of p: reps x runqsteal(p, victim, stealRunNextG=true)
  steal_pairs,  // reps x (runqput(victim) by its owner, runqsteal(p, victim))
  glob_pairs,   // reps x (globrunqput, globrunqget)
};

struct load {
  load_kind kind;
  int p = 0, victim = 0;
  long reps = 0;
};

// 2^16 ring puts and gets by one owner: head and tail each advance by 2^16,
// so every counter narrower than 32 bits comes back to its value (ABA).
constexpr long wrap = 1L << 16;

struct scenario {
  const char* name;
  int nps;
  int ring0;      // Gs P0's owner puts before the run (-1: Cap, a full ring)
  bool runnext0;  // then one more with next=true
  op_kind op;     // the held operation, run by the owner of p
  int p, victim;
  std::vector<std::vector<load>> threads;  // the others, one sequence each
};

inline std::string describe(const load& l) {
  auto pn = [](int p) { return "P" + std::to_string(p); };
  auto n = std::to_string(l.reps);
  switch (l.kind) {
    case load_kind::owner_churn:
      return n + " x (runqput(" + pn(l.p) + "), runqget(" + pn(l.p) + ")), then " +
             std::to_string(l.reps / 8) + " x (runqput(" + pn(l.p) + ", next), runqget(" + pn(l.p) +
             "))";
    case load_kind::steal_from:
      return n + " x runqsteal(" + pn(l.p) + ", " + pn(l.victim) + ", true)";
    case load_kind::steal_pairs:
      return n + " x (runqput(" + pn(l.victim) + "), runqsteal(" + pn(l.p) + ", " + pn(l.victim) +
             "))";
    case load_kind::glob_pairs:
      return n + " x (globrunqput, globrunqget)";
  }
  return "?";
}

inline const std::vector<scenario>& catalog() {
  // While P0's owner is held: a thief empties P0 bit by bit (its runnext
  // last), P3 steals from
  // P2 and the global queue turns over, 2^17 operations each.
  const std::vector<std::vector<load>> others = {
      {{load_kind::steal_from, 1, 0, 4}},
      {{load_kind::steal_pairs, 3, 2, wrap}},
      {{load_kind::glob_pairs, 0, 0, wrap}},
  };
  // P0's owner turns its ring over 2^16 times, then 2^13 times its runnext.
  const std::vector<std::vector<load>> churn = {{{load_kind::owner_churn, 0, 0, wrap}}};
  static const std::vector<scenario> all = {
      // (a) the thief (owner of P1) held inside runqsteal(P1, P0); P0's owner
      // turns its ring over 2^16 times (ring count restored: ABA).
      {"thief_steal", 2, 4, false, op_kind::steal, 1, 0, churn},
      {"thief_steal_next", 2, 0, true, op_kind::steal_next, 1, 0, churn},
      // (b) P0's owner held inside runqput / runqget / runqputslow.
      {"owner_put", 4, 4, false, op_kind::put, 0, 0, others},
      {"owner_put_next", 4, 0, true, op_kind::put_next, 0, 0, others},
      {"owner_get", 4, 4, true, op_kind::get, 0, 0, others},
      {"owner_get_ring", 4, 4, false, op_kind::get, 0, 0, others},
      // (c) P0's owner held inside runqget while one steal takes half its
      // ring: the get must still find a G (a nil would be spurious).
      {"owner_get_one_steal",
       2,
       4,
       false,
       op_kind::get,
       0,
       0,
       {{{load_kind::steal_from, 1, 0, 1}}}},
      {"owner_putslow", 4, -1, false, op_kind::put, 0, 0, others},
      {"owner_putslow_next", 4, -1, true, op_kind::put_next, 0, 0, others},
  };
  return all;
}

}  // namespace runqcheck::stall::model
