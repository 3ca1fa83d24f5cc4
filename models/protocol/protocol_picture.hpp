// models/protocol/protocol_picture.hpp — the picture of a protocol world's
// failure (tests/relacy/picture.hpp, tests/explore/picture.hpp): each M a
// lane headed by its role, each object of the world and of the protocol by
// its Go name; the page itself is the runner's.
#pragma once

#include <cstddef>
#include <string>

#include <runqcheck/protocol_subject.hpp>

#include "protocol_scenario.hpp"

namespace rqproto {

// An M's role as its lane's head says it.
inline const char* role_name(m_role::kind k) {
  switch (k) {
    case m_role::submitter: return "submitter";
    case m_role::spinner: return "spinner";
    case m_role::running: return "running";
    case m_role::syscall: return "in a syscall";
    case m_role::idle: return "idle, parked";
    case m_role::gosched: return "gosched";
    case m_role::injector: return "injector";
    case m_role::injector_nop: return "injector without a P";
    case m_role::resizer: return "procresize";
    case m_role::busy: return "busy";
    case m_role::syscall_block: return "blocking syscall";
    case m_role::handback: return "parked, P's old M";
    case m_role::syscall_keep: return "in a syscall, P wired";
    case m_role::sysmon: return "sysmon";
    case m_role::gosched_ring: return "gosched, its ring queued";
    case m_role::spinner_drop: return "spinner, search done";
  }
  return "?";  // a role this table does not know yet
}

// What M i was given to do, as the lane's head says it. Lane: the page's
// (runqcheck::fuzz::lane: a label, a script of strings).
template <class Lane>
Lane m_lane(const proto_scenario& sc, std::size_t i) {
  if (i == sc.ms.size())  // the spare (sc.spare_m)
    return Lane{"M" + std::to_string(i) + " (spare, newm's)",
                {"waits for newm's P, then schedules"}};
  const m_role& r = sc.ms[i];
  Lane l{"M" + std::to_string(i) + " (" + role_name(r.k) +
             (r.p >= 0 ? ", P" + std::to_string(r.p) : std::string()) + ")",
         {}};
  bool inject = r.k == m_role::injector || r.k == m_role::injector_nop;
  bool gosched = r.k == m_role::gosched || r.k == m_role::gosched_ring;
  for (const submit& sb : r.submits) {
    std::string g = "G" + std::to_string(sb.g);
    if (gosched && &sb == &r.submits.back())
      l.script.push_back("its G " + g + " goscheds: global queue, wakep");
    else if (r.k == m_role::gosched_ring)
      l.script.push_back(g + " on P" + std::to_string(r.p) + "'s ring before the run (no wakep)");
    else if (r.k == m_role::syscall && &sb == &r.submits[0])
      l.script.push_back("exitsyscall " + g + ": the old P, an idle P, else global");
    else if (r.k == m_role::syscall_keep && &sb == &r.submits[0])
      l.script.push_back("exitsyscall " + g + ": its P if still wired, else as an M without one");
    else if (r.k == m_role::syscall_keep)
      l.script.push_back(g + " queued on P" + std::to_string(r.p) + " before the syscall");
    else if (r.k == m_role::resizer)
      l.script.push_back(g + (sb.next ? " in runnext" : " in the ring") + " of the dying P" +
                         std::to_string(sc.nprocs - 1));
    else if (inject) l.script.push_back("injectglist " + g);
    else if (r.k == m_role::handback)
      l.script.push_back(g + " queued on P" + std::to_string(r.p) + ", stopped");
    else if (r.k == m_role::busy)
      l.script.push_back(g + (sb.next ? " in runnext" : " in the ring") +
                         ", readied before the run (its wakep set needspinning)");
    else l.script.push_back("submit " + g + (sb.next ? " (runnext)" : "") + ": runqput, wakep");
  }
  if (r.k == m_role::spinner_drop)
    l.script.push_back("found nothing: release the P, the Delicate dance");
  if (r.k == m_role::resizer) l.script.push_back("procresize: destroy the dying P, wakep");
  if (r.k == m_role::sysmon) l.script.push_back("retake: each P in a syscall, taken, handoffp");
  if (r.k == m_role::syscall_block)
    l.script.push_back("entersyscallblock: handoffp(releasep()), in the syscall to the end");
  else if (r.k == m_role::submitter || r.k == m_role::busy || r.k == m_role::sysmon || inject)
    l.script.push_back("leave: its G runs on");
  else l.script.push_back("findRunnable / stopm until quiescence");
  return l;
}

// Names world w's objects for the recorder: sched.*, P<i>.*, M<i>.*, G<i>.*.
// R: the Relacy recorder (runqcheck_fuzz/trace.hpp) or the explore picture.
template <class R, class World>
void name_objects(R& r, World& w) {
  r.owner(&w.core, sizeof w.core, "sched", -1);
  r.owner(&w.state, sizeof w.state, "state", -1);  // the protocol's own: by its fields' names
  r.name(&w.core.lock, "sched.lock");
  using proto = typename World::proto;
  if constexpr (runqcheck::has_protocol_describe<proto>)
    proto::describe([&](const void* a, const char* n) { r.name(a, n); });
  r.name(&w.live, "harness.live");
  r.name(&w.gomaxprocs, "sched.gomaxprocs");
  for (int i = 0; i < w.sc.nprocs; i++) {
    r.name_p(&w.ps[i], i);
    r.name(&w.ps[i].m, "P.m", i);
    r.name(&w.ps[i].status, "P.status", i);
    r.name(&w.ps[i].idle, "P.idle", i);
    r.name(&w.ps[i].syscalltick, "P.syscalltick", i);
  }
  for (int i = 0; i < threads_of(w.sc); i++) {
    r.owner(&w.ms[i], sizeof w.ms[i], "M", i);
    r.name(&w.ms[i].park, "M.park", i);
    r.name(&w.ms[i].spinning, "M.spinning", i);
    r.name(&w.ms[i].nextp, "M.nextp", i);
    r.name(&w.ms[i].curg, "M.curg", i);
    r.name(&w.ms[i].p, "M.p", i);
  }
  for (int i = 0; i < max_gs; i++) {
    r.name(&w.gs[i].atomicstatus, "G.status", i);
    r.name(&w.gs[i].schedlink, "G.schedlink", i);
    r.name(&w.gs[i].m, "G.m", i);
    r.name(&w.runs[i], "G.runs", i);
  }
}

}  // namespace rqproto
