// models/scenarios/catalog.hpp — the scenarios every checker runs. Each is
// small (2–3 threads, ≤ 8 Gs, ring capacity 4) and names the race or rule it
// exists for. Thread i acts as the owner of the P its ops name.
#pragma once

#include <vector>

#include "scenario.hpp"

namespace runqcheck::model {

// Built before main(): under Relacy, memory allocated during a simulation
// belongs to its heap.
inline const std::vector<scenario> catalog = {
    {.name = "owner_vs_thief",
     .targets =
         "owner put/get (runnext kick, runqputslow) vs one thief stealing runnext and the ring",
     .ngs = 6,
     .threads = {{put(0, 0), put_next(0, 1), put_next(0, 2), get(0), put(0, 3), put(0, 4),
                  put(0, 5), get(0)},
                 {steal_next(1, 0), get(1), get(1)}}},
    {.name = "owner_vs_two_thieves",
     .targets = "two thieves racing each other and the owner for the same ring and runnext",
     .nprocs = 3,
     .ngs = 6,
     .initial = {{.ring = {0, 1, 2}, .runnext = 3}},
     .threads = {{put(0, 4), get(0), put(0, 5), get(0)},
                 {steal_next(1, 0), get(1)},
                 {steal_next(2, 0), get(2)}}},
    {.name = "steal_runnext_vs_runqget",
     .targets = "a thief CASes runnext to nil while the owner runqget's it: exactly one wins",
     .ngs = 1,
     .initial = {{.runnext = 0}},
     .threads = {{get(0)}, {steal_next(1, 0), get(1)}}},
    {.name = "put_kicks_runnext_during_steal",
     .targets = "runqput(next) kicks the old runnext into the ring while a thief steals runnext",
     .ngs = 3,
     .initial = {{.runnext = 0}},
     .threads = {{put_next(0, 1), put(0, 2), get(0)}, {steal_next(1, 0), get(1)}}},
    {.name = "overflow_vs_grab",
     .targets = "runqputslow's CAS races a thief's grab on a full ring; the loser retries",
     .ngs = 6,
     .initial = {{.ring = {0, 1, 2, 3}}},
     .threads = {{put(0, 4), put(0, 5), get(0)}, {steal(1, 0), get(1)}}},
    {.name = "drain_vs_thief",
     .targets = "runqdrain claims the ring by one CAS, then links schedlink, while a thief grabs",
     .ngs = 4,
     .initial = {{.ring = {0, 1, 2}, .runnext = 3}},
     .threads = {{drain(0)}, {steal_next(1, 0), get(1)}}},
    {.name = "drain_vs_thief_relink",
     .targets = "runqdrain links schedlink only after its CAS: a thief relinks the Gs it stole (Go "
                "1.17 revert)",
     .ngs = 4,
     .initial = {{.ring = {0, 1, 2}, .runnext = 3}},
     .threads = {{drain(0)}, {steal(1, 0), drain(1)}}},
    {.name = "overflow_vs_global",
     .targets =
         "runqputslow's batch goes onto the global queue under sched.lock while another P uses it",
     .ngs = 7,
     .initial = {{.ring = {0, 1, 2, 3}}},
     .global = {6},
     .threads = {{put(0, 4), get(0)}, {glob_put(5), glob_get(), glob_get()}}},
    {.name = "empty_next1_next1",
     .targets = "runqempty vs the owner kicking runnext into the ring and popping the new runnext "
                "(Go's EmptyTest)",
     .ngs = 2,
     .initial = {{.runnext = 0}},
     .threads = {{put_next(0, 1), get(0)}, {expect_nonempty(0)}}},
    {.name = "empty_next1_next0",
     .targets = "runqempty vs the owner putting to the ring and popping runnext",
     .ngs = 2,
     .initial = {{.runnext = 0}},
     .threads = {{put(0, 1), get(0)}, {expect_nonempty(0)}}},
    {.name = "empty_next0_next1",
     .targets = "runqempty vs the owner setting runnext and popping it",
     .ngs = 2,
     .initial = {{.ring = {0}}},
     .threads = {{put_next(0, 1), get(0)}, {expect_nonempty(0)}}},
    {.name = "empty_next0_next0",
     .targets = "runqempty vs the owner putting and popping the ring",
     .ngs = 2,
     .initial = {{.ring = {0}}},
     .threads = {{put(0, 1), get(0)}, {expect_nonempty(0)}}},
    {.name = "chained_steal",
     .targets = "A steals from B while C steals from A: stolen Gs published by A's tail store",
     .nprocs = 3,
     .ngs = 4,
     .initial = {{}, {.ring = {0, 1, 2, 3}}},
     .threads = {{steal(0, 1), get(0)}, {get(1)}, {steal(2, 0), get(2)}}},
    {.name = "globbatch_vs_thief",
     .targets = "globrunqgetbatch + runqputbatch publish a batch a thief grabs at once",
     .ngs = 5,
     .global = {0, 1, 2, 3, 4},
     .threads = {{glob_batch(0), get(0)}, {steal(1, 0), get(1)}}},
    {.name = "destroy_after_thief",
     .targets =
         "procresize: a thief steals, the world stops, the P is destroyed to the global head",
     .ngs = 4,
     .initial = {{}, {.ring = {0, 1, 2}, .runnext = 3}},
     .threads = {{steal_next(0, 1), get(0)}, {wait_done(0), destroy(1), glob_get()}}},
    {.name = "steal_overflow",
     .targets = "runqsteal into a ring without room must hit 'runqsteal: runq overflow' (broken "
                "precondition)",
     .ngs = 7,
     .initial = {{.ring = {3, 4, 5, 6}}, {.ring = {0, 1, 2}}},
     .threads = {{get(0)}, {steal(1, 0)}},
     .expect_fatal = "runqsteal: runq overflow"},
    {.name = "torn_read",
     .targets = "a thief reads head, the owner empties and refills the ring, the thief reads tail: "
                "n > cap/2 must be retried (runqgrab's guard), or the copy wraps onto the thief's "
                "own queued G",
     .ngs = 9,
     .initial = {{.ring = {0, 1, 2, 3}}, {.ring = {4}}},
     .threads = {{get(0), get(0), get(0), get(0), put(0, 5), put(0, 6), put(0, 7), put(0, 8)},
                 {steal(1, 0), get(1), get(1), get(1)}}},
    {.name = "steal_never_fails",
     .targets = "runqput(next) replaces runnext while a thief CASes it: the thief retries and "
                "still finds a G",
     .ngs = 2,
     .initial = {{.runnext = 0}},
     .threads = {{put_next(0, 1)}, {steal_next_must(1, 0), get(1)}}},
    {.name = "wrap_2_32",
     .targets = "head and tail wrapping past 2^32 during puts, gets and a steal",
     .ngs = 6,
     .initial = {{.ring = {0, 1, 2}}},
     .start_counter = 0xFFFFFFFEu,
     .threads = {{put(0, 3), get(0), put(0, 4), put(0, 5), get(0)}, {steal(1, 0), get(1)}}},
    {.name = "slot_reuse",
     .targets = "the owner rewrites a slot a thief is still reading (needs atomic slots in C++)",
     .ngs = 6,
     .initial = {{.ring = {0, 1, 2, 3}}},
     .threads = {{get(0), get(0), put(0, 4), put(0, 5), get(0)}, {steal(1, 0), get(1)}}},
};

// findRunnable's order, the owner stealing after its own queue came up
// empty (Go's runqget or runqdrain, then stealWork's runqsteal): run by the
// exploring engine under load buffering only (explore_lb/<subject>), where
// a thief's CAS read by the owner's head load before the owner's steal
// rewrites the slot the thief read is an execution C11 allows. Under SC and
// RC11 the catalog's scenarios already cover these paths; the other
// columns do not run them.
inline const std::vector<scenario> lb_catalog = {
    {.name = "get_then_steal",
     .targets = "owner runqget reads head, then its runqsteal refills the slot a thief read",
     .ngs = 6,
     .initial = {{.ring = {0, 1, 2, 3}}, {.ring = {4, 5}}},
     .threads = {{get(0), get(0), steal(0, 1), get(0)}, {steal(1, 0), get(1)}}},
    {.name = "drain_then_steal",
     .targets = "owner runqdrain reads head, then its runqsteal refills the slot a thief read",
     .ngs = 6,
     .initial = {{.ring = {0, 1, 2, 3}}, {.ring = {4, 5}}},
     .threads = {{drain(0), steal(0, 1), get(0)}, {steal(1, 0), get(1)}}},
};

}  // namespace runqcheck::model
