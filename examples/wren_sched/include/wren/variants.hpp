// wren/variants.hpp — wren's bugs, each a protocol subject that
// relacy_protocol must reject with a replay line (ci/test;
// examples/wren_sched/variants.cmake registers them).
#pragma once

#include "sched.hpp"

namespace wren {

// submit without its step 2 (the fence) and, unless Wake, its step 3:
// lost_wakeup_bug and no_storeload_bug (below).
template <class Env, bool Wake>
struct submit_without_fence : sched<Env> {
  using base = sched<Env>;
  static constexpr const char* name = Wake ? "wren_no_storeload" : "wren_lost_wakeup";
  static void submit(typename base::P* pp, typename base::G* gp, bool next) {
    base::S::runqput(Env::owner(pp), gp, next);  // step 1
    if constexpr (Wake) base::wakep();             // step 3, no step 2 before it
  }
};

// A lost wakeup on submission: the G is published, nobody is woken.
template <class Env>
using lost_wakeup_bug = submit_without_fence<Env, false>;

// A missing StoreLoad on submission: the G is published (runqput's release
// store) and searchers read with no seq_cst fence between them; the load may
// pass the store (an x86 store buffer), read a searcher that is giving up,
// whose recheck then misses the G: nobody is woken.
template <class Env>
using no_storeload_bug = submit_without_fence<Env, true>;

// A searcher gives up without its recheck: work posted while it searched,
// whose poster saw it searching and woke nobody, waits.
template <class Env>
struct drop_no_recheck_bug : sched<Env> {
  using base = sched<Env>;
  static constexpr const char* name = "wren_drop_no_recheck";
  static typename base::recheck dropspinning(typename base::M* mp,
                                             std::span<typename base::S::p* const>) {
    mp->spinning.store(false, base::rx);
    Env::ws().searchers.fetch_add(-1, base::sc);
    return {};
  }
};

// A handoff that parks the last M while work waits: a P with no work on it
// goes to the free stack even when nobody searches and no P is free (the
// searcher clause dropped). A G queued on a busy P, whose wakeup found no
// free P, then waits there while this P sits free and its M blocks.
template <class Env>
struct handoff_parks_bug : sched<Env> {
  using base = sched<Env>;
  static constexpr const char* name = "wren_handoff_parks";
  static void handoffp(typename base::P* pp) {
    if (!base::S::runqempty(*pp) || base::S::globrunqsize(Env::core()) != 0) {
      base::startm(pp, false);
      return;
    }
    {
      typename base::locked l = runqcheck::lock(Env::core());
      if (l.runq().size() == 0) {
        base::pidleput(l, pp);
        return;
      }
    }
    base::startm(pp, false);
  }
};

}  // namespace wren
