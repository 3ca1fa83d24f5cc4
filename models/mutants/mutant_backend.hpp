// models/mutants/mutant_backend.hpp — a test-only backend that injects one
// bug into core/ at run time: a logic mutant (runqcheck::mutant) or one
// atomic site's order weakened one step. Production backends have no such
// hooks, so the shipped instantiation is unchanged (see mutation.hpp).
//
// Selection: RUNQCHECK_MUTANT=<mutant name> or RUNQCHECK_MUTANT=order:<site>
// in the environment, read once at start-up. An unknown name is a one-line
// error and exit status 2.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "runqcheck/backend.hpp"
#include "runqcheck/mutation.hpp"

namespace runqcheck {

// The catalog: name and the real bug each mutant models. A mutant that is
// provably equivalent to the port (no execution can tell them apart) says
// so in `models`, starting with "equivalent:"; ci/mutants reports those
// apart and does not require them killed.
struct mutant_info {
  mutant id;
  const char* name;
  const char* models;
};

inline constexpr mutant_info mutant_catalog[] = {
    {mutant::runqempty_no_tail_reread, "runqempty_no_tail_reread", "runqempty without the tail re-read: spuriously empty while runnext is kicked into the ring (Go < 1.7, fcd7c02c70)"},
    {mutant::runqput_runnext_no_retry, "runqput_runnext_no_retry", "runqput drops its G when the runnext CAS loses to a thief"},
    {mutant::runqputslow_move_127, "runqputslow_move_127", "runqputslow moves 127 Gs: the batch size off by one, below"},
    {mutant::runqputslow_move_129, "runqputslow_move_129", "runqputslow moves 129 Gs: off by one, above"},
    {mutant::runqputslow_no_full_check, "runqputslow_no_full_check", "runqputslow's 'queue is not full' throw removed"},
    {mutant::runqget_runnext_no_cas, "runqget_runnext_no_cas", "runqget clears runnext with a plain store: a thief and the owner both take it"},
    {mutant::runqdrain_no_torn_guard, "runqdrain_no_torn_guard", "equivalent: runqdrain without its torn-read guard; the owner reads head then its own tail, and read-read coherence keeps t-h <= cap, so the guard never fires (Go keeps it defensively)"},
    {mutant::runqdrain_link_before_cas, "runqdrain_link_before_cas", "runqdrain writes schedlink before its CAS (the reverted Go 1.17 version)"},
    {mutant::runqgrab_floor_half, "runqgrab_floor_half", "a steal takes floor(n/2): one queued G is never stolen"},
    {mutant::runqgrab_no_torn_guard, "runqgrab_no_torn_guard", "runqgrab accepts n > cap/2 from an inconsistent (h, t) pair"},
    {mutant::runqgrab_cas_as_load_store, "runqgrab_cas_as_load_store", "runqgrab's head CAS replaced by load + store"},
    {mutant::runqgrab_runnext_no_retry, "runqgrab_runnext_no_retry", "runqgrab gives up after a failed runnext CAS instead of retrying"},
    {mutant::runqgrab_runnext_load_store, "runqgrab_runnext_load_store", "runqgrab takes runnext by load + store instead of CAS: owner and thief both run it"},
    {mutant::runqget_runnext_retry, "runqget_runnext_retry", "equivalent: runqget retries its runnext CAS where Go does not; only a thief can clear runnext, so a retry always finds nil"},
    {mutant::runqsteal_no_overflow_check, "runqsteal_no_overflow_check", "runqsteal's 'runq overflow' throw removed"},
    {mutant::globrunqgetbatch_off_by_one, "globrunqgetbatch_off_by_one", "globrunqgetbatch takes one G more than n"},
    {mutant::globrunqgetbatch_no_size_cap, "globrunqgetbatch_no_size_cap", "globrunqgetbatch's n not capped by the queue size"},
    {mutant::globrunq_without_lock, "globrunq_without_lock", "runqputslow pushes its batch on the global queue without sched.lock"},
    {mutant::findRunnable_no_fairness, "findRunnable_no_fairness", "findRunnable without the schedtick%61 check: two Gs respawning each other starve the global queue (Go 1.2)"},
    {mutant::destroy_runnext_last, "destroy_runnext_last", "procresize puts runnext behind the ring at the global head"},
    // Protocol mutants: only the stress scheduler (stress/) reaches them.
    {mutant::submit_no_wakep, "submit_no_wakep", "newproc and goready put the G in runnext without wakep: no idle P is woken for new work (work conservation lost)"},
    {mutant::spinning_drop_no_recheck, "spinning_drop_no_recheck", "an M leaving the spinning state skips the Delicate-dance recheck of every queue and resetspinning's wakep (the lost wakeup of Go's 'Worker thread parking/unparking')"},
    {mutant::wakep_no_storeload, "wakep_no_storeload", "weak-memory: the seq_cst fences between publishing a G and reading nmspinning, and between dropping nmspinning and rechecking the queues, removed; a store-load reordering (x86 store buffer) can then lose a wakeup, a window of nanoseconds that a run rarely hits"},
    {mutant::exitsyscall_loses_g, "exitsyscall_loses_g", "exitsyscall0 finds no idle P and forgets to put its G on the global queue: the G is lost"},
    {mutant::procresize_drops_runnext, "procresize_drops_runnext", "procresize clears a dying P's runnext instead of moving it to the global queue: that G is lost"},
};

template <class Base>
struct mutant_backend : Base {
  // Ring slots stay atomics unless RUNQCHECK_MUTANT=plain_slots: then they
  // are plain variables with an atomic-shaped API, as in Go (orders
  // ignored), so the checker sees the thief-read vs owner-overwrite race.
  template <class T>
  class slot {
   public:
    slot() = default;
    slot(const slot&) = delete;
    slot& operator=(const slot&) = delete;
    T load(std::memory_order mo, loc l = loc::current()) const { return plain() ? v_.load(l) : a_.load(mo, l); }
    void store(T v, std::memory_order mo, loc l = loc::current()) {
      if (plain()) v_.store(v, l);
      else a_.store(v, mo, l);
    }

   private:
    static bool plain() { return active().plain_slots; }
    typename Base::template atomic<T> a_;
    typename Base::template var<T> v_;
  };

  struct selection {
    mutant logic = mutant::none;
    int site = -1;  // weakened site, or -1
    bool plain_slots = false;
    std::string label = "none";
  };

  static selection parse_env() {
    selection s;
    const char* env = std::getenv("RUNQCHECK_MUTANT");
    if (env == nullptr || *env == '\0' || std::string_view(env) == "none") return s;
    std::string_view v(env);
    s.label = std::string(v);
    if (v == "plain_slots") {
      s.plain_slots = true;
      return s;
    }
    if (v.rfind("order:", 0) == 0) {
      std::string_view name = v.substr(6);
      for (std::size_t i = 0; i < site_names.size(); i++) {
        if (site_names[i] == name) {
          s.site = static_cast<int>(i);
          return s;
        }
      }
    } else {
      for (const auto& m : mutant_catalog) {
        if (v == m.name) {
          s.logic = m.id;
          return s;
        }
      }
    }
    std::fprintf(stderr, "runqcheck: unknown RUNQCHECK_MUTANT '%s' (see models/mutants/mutant_backend.hpp)\n", env);
    std::exit(2);
  }

  // Parsed before main(): under Relacy, an allocation made inside a
  // simulation comes from its heap and must not outlive it.
  static inline const selection selected = parse_env();
  static const selection& active() { return selected; }

  static bool mutated(mutant m) { return active().logic == m; }
  static std::memory_order weaken(site s, std::memory_order mo) {
    return static_cast<int>(s) == active().site ? weaker(mo) : mo;
  }
};

}  // namespace runqcheck
