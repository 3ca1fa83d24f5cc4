// runqcheck_fuzz/trace.hpp — the record of one execution under Relacy: every
// operation a thread runs (begin, end, what it delivered) and every access
// inside it (atomic loads, stores, RMWs, plain reads and writes, lock,
// fences), each with its value, its memory order, the Go function it is in,
// and for loads the store it read from. Printed step by step by `runqcheck
// replay`, drawn as a swimlane by `runqcheck explain`, turned into a
// history for the linearizability check.
//
// Recording happens inside the simulation, so nothing here allocates while
// recording: fixed tables, reset before each execution. Reads-from is exact:
// Relacy keeps each atomic's stores in modification order and a load reads
// the latest or one of the few before it; the scheduler counts how many
// stores back (choices::stale), the recorder keeps each object's last stores.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "exec.hpp"
#include "field_names.hpp"
#include "conservation.hpp"
#include "hand_over.hpp"
#include "page_base.hpp"
#include "schedulers.hpp"

namespace runqcheck::fuzz {

enum class ev : std::uint8_t {
  op_begin, op_end, load, store, rmw, cas_fail, fence, read, write, lock, unlock, yield, check
};

inline const char* name_of(ev k) {
  static const char* const n[] = {"op_begin", "op_end", "load", "store", "rmw", "cas_fail", "fence",
                                  "read",     "write",  "lock", "unlock", "yield", "check"};
  return n[static_cast<int>(k)];
}

using model::describe_op;

struct event {
  int thread = -1;  // -1: set-up or final check
  int op = -1;      // index in the thread's script (final check: its own count)
  ev kind{};
  int obj = -1;     // object table index
  std::memory_order mo = std::memory_order::relaxed;
  bool ordered = false;  // an atomic access, fence, or lock (has an order)
  char value[24] = {};
  char old[24] = {};
  int rf = -1;           // load/rmw/cas_fail: the event of the store read; -1: the initial value
  unsigned stale = 0;    // load: stores back from the latest
  const char* func = "";
  const char* file = "";  // the base name
  const char* path = "";  // the file as compiled (resolve_fields reads its line)
  unsigned line = 0;
  int text = -1;         // op_begin/op_end/check: offset in the text pool
};

// One operation as the linearizability check needs it.
struct op_record {
  int thread = 0;
  model::op o{};
  int call = 0, ret = -1;  // event indices; ret -1: never returned
  int res = 0, nres = 0;   // offset and count in the result pool
  bool inheritTime = false, empty = false;
};

class recorder final : public access_observer, public model::op_observer {
 public:
  static constexpr int kMaxEvents = 1 << 15;
  static constexpr int kMaxObjects = 4096;
  static constexpr int kMaxOps = 4096;

  // Before an execution: forget everything.
  void reset() {
    nevents_ = nobjs_ = nops_ = ntext_ = nres_ = nowners_ = ngs_ = 0;
    culprit_ = -1;
    truncated_ = false;
    resolved_ = false;
    failure_[0] = '\0';
    pending_.obj = nullptr;
    phase_ = phase::setup;
    for (int& c : cur_op_) c = -1;
    for (auto& h : hash_) h = -1;
  }

  // Names the variables of a world (ports with Go's field names get them;
  // other objects are named by the function that first touches them).
  template <class W>
  void name_world(W& w, int nprocs, int ngs) {
    for (int i = 0; i < nprocs; i++) name_p(w.proc(i), i);
    for (int i = 0; i < ngs; i++) {
      g_at(w.goroutine(i), w.goroutine(i)->goid);
      name(w.g_status(i), "G.status", i);
      name(&w.goroutine(i)->schedlink, "G.schedlink", i);
    }
    owner(&w.sched(), sizeof w.sched(), "sched", -1);
    if constexpr (requires { w.sched().lock; }) name(&w.sched().lock, "sched.lock");
    for (int t = 0; t < static_cast<int>(kMaxThreads) && t < model::kMaxThreads; t++)
      name(w.done_flag(t), "T.done", t);
  }

  // Names P i's queue (ports with Go's field names; else its fields are
  // named "P<i>+<offset>" by the owner rule). Any suite's before(), tracing.
  template <class Pp>
  void name_p(Pp* pp, int i) {
    owner(pp, sizeof *pp, "P", i);
    if constexpr (requires { pp->runqhead; pp->runqtail; pp->runnext; pp->runq; }) {
      name(&pp->runqhead, "P.runqhead", i);
      name(&pp->runqtail, "P.runqtail", i);
      name(&pp->runnext, "P.runnext", i);
      // std::size: a std::array, or a C port's array (c11.hpp)
      for (std::size_t k = 0; k < std::size(pp->runq); k++) name(&pp->runq[k], "runq", i, k);
    }
    if constexpr (requires { pp->status; }) name(&pp->status, "P.status", i);
  }

  // Names the object at addr: base alone (i < 0: "sched.nmspinning"), or
  // "<base[0]><i>.<base+2>" ("M.park", 2: "M2.park"), or with k a ring slot
  // "P<i>.runq[k]". A suite's before(), tracing; base at most 40 chars.
  void name(const void* addr, const char* base, int i = -1,
            std::size_t k = static_cast<std::size_t>(-1)) {
    int o = object(addr, nullptr, ev::load);
    objs_[o].hooked = false;  // the suite's name stays
    objs_[o].owner = -1;
    char* n = objs_[o].name;
    if (i < 0) std::snprintf(n, sizeof objs_[o].name, "%s", base);
    else if (k == static_cast<std::size_t>(-1))
      std::snprintf(n, sizeof objs_[o].name, "%c%d.%s", base[0], i, base + 2);
    else std::snprintf(n, sizeof objs_[o].name, "P%d.runq[%zu]", i, k);
  }

  // A G's address, shown as "G<goid>" where a value equals it (owner_of).
  void g_at(const void* addr, std::uint64_t goid) {
    if (ngs_ >= model::kMaxG) return;
    gs_[ngs_].at = reinterpret_cast<std::uintptr_t>(addr);
    std::snprintf(gs_[ngs_].name, sizeof gs_[ngs_].name, "G%llu",
                  static_cast<unsigned long long>(goid));
    ngs_++;
  }

  // A struct whose unnamed fields are named after it ("P1+24 atomic@runqput"
  // rather than "atomic#7@runqput"), and whose address, stored as a value,
  // is shown by its name ("P1", not an address). A suite's before(), tracing.
  void owner(const void* addr, std::size_t size, const char* base, int i) {
    if (nowners_ >= kMaxOwners) return;
    owner_t& w = owners_[nowners_++];
    w.at = reinterpret_cast<std::uintptr_t>(addr);
    w.size = size;
    if (i < 0) std::snprintf(w.name, sizeof w.name, "%s", base);
    else std::snprintf(w.name, sizeof w.name, "%s%d", base, i);
  }

  // After the run (it reads source files and allocates, which a Relacy run
  // may not: a leak to Relacy): each field of an owner named by its offset
  // ("P1+24 atomic@runqput") renamed after the field that the source line
  // of an access to it names (field_at: "P1.tail"; an array's element
  // "P1.slots@24"), as the engine's picture names them; a field at one
  // offset in owners of one size takes one name. The rows' texts and the
  // failure that quote an old name are rewritten. Once until reset().
  void resolve_fields() {
    if (resolved_) return;
    resolved_ = true;
    std::map<std::pair<std::size_t, std::size_t>, std::string> field;  // (size, off) -> field
    for (int i = 0; i < nevents_; i++) {
      const event& e = events_[i];
      if (e.obj < 0 || e.line == 0 || objs_[e.obj].owner < 0) continue;
      auto key = std::pair{owners_[objs_[e.obj].owner].size, objs_[e.obj].off};
      if (field.count(key) > 0) continue;
      if (std::string f = field_at(e.path, e.line); !f.empty()) field.emplace(key, f);
    }
    std::vector<std::pair<std::string, std::string>> to;  // old name -> new
    for (int o = 0; o < nobjs_; o++) {
      obj_t& x = objs_[o];
      if (x.owner < 0) continue;
      auto f = field.find({owners_[x.owner].size, x.off});
      if (f == field.end()) continue;
      std::string n = field_name(owners_[x.owner].name, f->second, x.off,
                                 offsets_named(field, owners_[x.owner].size, f->second));
      if (n.size() >= sizeof x.name) continue;
      to.emplace_back(x.name, n);
      std::snprintf(x.name, sizeof x.name, "%s", n.c_str());
      x.owner = -1;
    }
    if (to.empty()) return;
    std::snprintf(failure_, sizeof failure_, "%s", renamed(failure_, to).c_str());
    for (int i = 0; i < nevents_; i++)
      if (events_[i].text >= 0)
        if (int t = add_text(renamed(text(events_[i].text), to).c_str()); t >= 0)
          events_[i].text = t;
  }

  // A step of a suite's own (not a queue operation): a box on the thread's
  // lane from begin to end, labelled text. The running thread, tracing.
  void step(bool begin, const char* text, const char* func) {
    int th = phase_ == phase::run ? static_cast<int>(rl::thread_index()) : -1;
    event& e = push(begin ? ev::op_begin : ev::op_end, th, 0);
    if (&e == &spare_) return;
    e.text = add_text(text);
    e.func = func;
  }

  enum class phase { setup, run, final };
  void set_phase(phase p) { phase_ = p; }

  // --- op_observer ---
  void op_begin(int thread, int index, const model::op& o) override {
    if (thread >= 0) cur_op_[thread] = index;
    if (nops_ < kMaxOps) {
      op_record& r = ops_[nops_++];
      r = op_record{};
      r.thread = thread;
      r.o = o;
      r.call = nevents_;
      if (thread >= 0) open_[thread] = nops_ - 1;
      else open_final_ = nops_ - 1;
    }
    event& e = push(ev::op_begin, thread, index);
    if (&e != &spare_) e.text = text_op(o);
    if (&e != &spare_) e.func = go_function(o.kind);
  }
  void op_end(int thread, int index, const model::op& o, const std::uint64_t* gs, int n,
              bool inheritTime, bool empty) override {
    int ri = thread >= 0 ? open_[thread] : open_final_;
    if (ri >= 0 && ri < nops_) {
      op_record& r = ops_[ri];
      r.ret = nevents_;
      r.res = nres_;
      for (int i = 0; i < n && nres_ < kMaxRes; i++) res_[nres_++] = gs[i];
      r.nres = nres_ - r.res;
      r.inheritTime = inheritTime;
      r.empty = empty;
    }
    event& e = push(ev::op_end, thread, index);
    if (&e != &spare_) {
      e.text = text_result(o, gs, n, inheritTime, empty);
      e.func = go_function(o.kind);
    }
    if (thread >= 0) cur_op_[thread] = -1;
  }

  // --- access_observer ---
  void before_load(const void*) override {
    int t = rl::thread_index();
    if (t >= 0 && t < static_cast<int>(kMaxThreads)) current_choices().stale[t] = 0;
  }
  void before_plain(access_observer::kind k, const void* obj, const loc& l) override {
    pending_ = {k,
                obj,
                l.function_name(),
                l.file_name(),
                l.line(),
                phase_ == phase::run ? static_cast<int>(rl::thread_index()) : -1};
  }
  void on_access(access_observer::kind k, const void* obj, const char* value, const char* old,
                 std::memory_order mo, const loc& l) override {
    pending_.obj = nullptr;
    int th = phase_ == phase::run ? static_cast<int>(rl::thread_index()) : -1;
    ev kind = static_cast<ev>(static_cast<int>(k) + 2);
    event& e = push(kind, th, th >= 0 ? cur_op_[th] : -1);
    if (&e == &spare_) return;
    e.mo = mo;
    e.ordered = kind != ev::read && kind != ev::write && kind != ev::yield && kind != ev::check;
    std::snprintf(e.value, sizeof e.value, "%s", kind == ev::check ? "" : owner_of(value));
    std::snprintf(e.old, sizeof e.old, "%s", owner_of(old));
    e.func = relacy::short_name(l.function_name());
    e.file = base_name(l.file_name());
    e.path = l.file_name();
    e.line = l.line();
    if (kind == ev::check) {
      e.text = add_text(value);
      return;
    }
    if (obj == nullptr) return;
    int o = object(obj, e.func, kind);
    e.obj = o;
    obj_t& ob = objs_[o];
    bool reads = kind == ev::load || kind == ev::rmw || kind == ev::cas_fail || kind == ev::read;
    bool writes = kind == ev::store || kind == ev::rmw || kind == ev::write;
    if (reads) {
      unsigned back = kind == ev::load && th >= 0 && th < static_cast<int>(kMaxThreads)
                          ? current_choices().stale[th]
                          : 0;
      e.stale = back;
      e.rf = back < ob.nstores && back < kStoreLog ? ob.stores[(ob.nstores - 1 - back) % kStoreLog]
                                                   : -1;
    }
    if (writes) ob.stores[ob.nstores++ % kStoreLog] = nevents_ - 1;
  }

  // A failure Relacy found itself (data race, deadlock, livelock...), or a
  // check that fired: the last row.
  // A plain access Relacy stopped inside (a data race) is named, with the
  // last write to that variable.
  void failure(const char* text, int thread) {
    char b[2048];
    std::snprintf(b, sizeof b, "%s", text);
    if (nevents_ > 0 && events_[nevents_ - 1].kind == ev::check) {
      // the check already said it; a conservation check's cause is the recording's
      if (std::strstr(text, "conservation (") != nullptr) {
        conservation(b, sizeof b);
        std::snprintf(failure_, sizeof failure_, "%s", b);
      }
      return;
    }
    if (pending_.obj != nullptr) {
      thread = pending_.thread;
      int o = object(pending_.obj, relacy::short_name(pending_.func),
                     static_cast<ev>(static_cast<int>(pending_.kind) + 2));
      const obj_t& ob = objs_[o];
      bool pw = pending_.kind == access_observer::kind::write;
      int last = conflicting(o, thread, pw);
      char w[96] = "its initial value";
      if (last >= 0) {
        const event& c = events_[last];
        bool cw = c.kind == ev::store || c.kind == ev::rmw || c.kind == ev::write;
        std::snprintf(w, sizeof w, "the %s #%d by %s%d", cw ? "write" : "read", last,
                      c.thread < 0 ? "set-up " : "T", c.thread);
      }
      std::snprintf(b, sizeof b,
                    "%s: %s of %s in %s (%s:%u) races with %s (no happens-before edge)", text,
                    pending_.kind == access_observer::kind::write ? "write" : "read", ob.name,
                    relacy::short_name(pending_.func), base_name(pending_.file), pending_.line, w);
      if (!pw && last >= 0) hand_over(b, sizeof b, thread, last, ob.name);
    } else if (std::strstr(text, "LIVELOCK") != nullptr) {
      stale_spin(b, sizeof b);
    } else if (std::strstr(text, "conservation (") != nullptr) {
      conservation(b, sizeof b);
    }
    std::snprintf(failure_, sizeof failure_, "%s", b);  // kept if the trace is full
    event& e = push(ev::check, thread,
                    thread >= 0 && thread < static_cast<int>(kMaxThreads) ? cur_op_[thread] : -1);
    if (&e != &spare_) {
      e.text = add_text(b);
      if (pending_.obj != nullptr) e.obj = object(pending_.obj, nullptr, ev::read);
    }
  }
  // A livelock that is a loop re-reading an old store: of the port's loads (a thread's,
  // not a hook's) that read a store with a newer one after it, the store one thread read
  // most often from one object: "; T1 read P0.runqtail 928 times in runqgrab (x.hpp:80),
  // each time the store #12 though a newer store of it was there: no happens-before edge
  // from that store reached T1 (...)". Coherence forbids the old store once such an edge
  // exists, so a missing acquire (or fence) somewhere in the loop lets it spin.
  void stale_spin(char* b, std::size_t n) {
    // (thread, object, store read) of each stale load -> how often, and the last one
    std::map<std::tuple<int, int, int>, std::pair<int, int>> loops;
    for (int i = 0; i < nevents_; i++) {
      const event& e = events_[i];
      if (e.kind != ev::load || e.stale == 0 || e.thread < 0 || hook_function(e.func)) continue;
      auto& [count, at] = loops[{e.thread, e.obj, e.rf}];
      count++;
      at = i;
    }
    int last = -1, times = 0;
    for (const auto& [key, v] : loops)
      if (v.first > times || (v.first == times && v.second > last))
        times = v.first, last = v.second;
    if (times < 2) return;  // not a loop over an old store
    const event& l = events_[last];
    culprit_ = last;
    char store[32] = "its initial value";
    if (l.rf >= 0) std::snprintf(store, sizeof store, "the store #%d", l.rf);
    std::size_t at = std::strlen(b);
    std::snprintf(b + at, n - at,
                  "; T%d read %s %d times in %s (%s:%u), each time %s though a newer store of it "
                  "was there: no happens-before edge from that store reached T%d (an acquire "
                  "that reads a store made after it would end the loop)",
                  l.thread, object_name(l.obj), times, l.func, l.file, l.line, store, l.thread);
  }
  // A conservation failure (exec.hpp: "... g=N delivered=D put=P; ..."): appends where in
  // the port, as the exhaustive column's picture says it (tests/explore/picture.hpp): a G
  // lost, the port's last store of its pointer and the load after it that read an older
  // store (with the hand-over that should have ordered them), or the store that overwrote
  // it; a G delivered twice, each operation's load of its pointer and a stale one's
  // hand-over. The culprit is the access the text names last.
  void conservation(char* b, std::size_t n) {
    const char* at = std::strstr(b, "conservation (");
    at = at != nullptr ? std::strstr(at, " g=") : nullptr;
    int gid = -1, got = -1, put = -1;
    if (at == nullptr || std::sscanf(at, " g=%d delivered=%d put=%d", &gid, &got, &put) != 3 ||
        got == put)
      return;
    char g[24];
    std::snprintf(g, sizeof g, "G%d", gid);
    if (got < put)
      lost(b, n, g);
    else
      twice(b, n, g);
    with_lost_update(b, n);
  }
  // Appends the recording's first lost update (conservation.hpp) if any, named as the
  // culprit: a G lost or handed out twice often starts there, its own story naming a symptom.
  void with_lost_update(char* b, std::size_t n) {
    const events_view v{*this};
    const int lu = fuzz::lost_update(v);
    if (lu < 0) return;
    const int lr = fuzz::last_read(v, lu);
    const event& x = events_[lu];
    const event& r = events_[lr];
    const event& w = events_[fuzz::written_between(v, lr, lu)];
    culprit_ = lu;
    append(b, n, "; an update lost: T%d's %s in %s (%s:%u) wrote %s over T%d's %s in %s "
           "(%s:%u), made after the value its %s in %s (%s:%u) read (a CAS would have failed "
           "there)", x.thread, name_of(x.kind), x.func, x.file, x.line, object_name(x.obj),
           w.thread, name_of(w.kind), w.func, w.file, w.line, name_of(r.kind), r.func, r.file,
           r.line);
  }
  // conservation's G delivered more often than put (pick_twice): each operation's first
  // read of its pointer, then a read of it though a newer store had replaced it, or one
  // made after its own operation gave the slot up.
  void twice(char* b, std::size_t n, const char* g) {
    const twice_pick p = pick_twice(events_view{*this}, g);
    for (int k = 0; k < p.ntakes; k++) {
      const event& r = events_[p.takes[k]];
      append(b, n, "; T%d read it by the %s of %s in %s (%s:%u)", r.thread, name_of(r.kind),
             object_name(r.obj), r.func, r.file, r.line);
      culprit_ = p.takes[k];
    }
    if (p.kind == twice_kind::replaced) {
      const event& r = events_[p.read];
      const event& w = events_[p.over];
      culprit_ = p.read;
      append(b, n, "; T%d's %s in %s (%s:%u) read it though the store in %s (%s:%u) had "
             "replaced it", r.thread, name_of(r.kind), r.func, r.file, r.line, w.func, w.file,
             w.line);
      if (w.thread != r.thread && w.thread >= 0)
        hand_over(b, n, r.thread, p.over, object_name(r.obj));
    } else if (p.kind == twice_kind::read_late) {
      const event& r = events_[p.read];
      const event& x = events_[p.gave];
      culprit_ = p.read;
      append(b, n, "; T%d's %s in %s (%s:%u) read it after its operation's %s in %s (%s:%u) "
             "had given %s up, which T%d read before that store: that read must come before "
             "that write", r.thread, name_of(r.kind), r.func, r.file, r.line, name_of(x.kind),
             x.func, x.file, x.line, object_name(r.obj), events_[p.over].thread);
    }
  }
  // conservation's G lost (pick_lost): the port's last store of g, and the access after it
  // to blame; with no store, the operation that put it and its last access.
  void lost(char* b, std::size_t n, const char* g) {
    const lost_pick p = pick_lost(events_view{*this}, g);
    if (p.kind == lost_kind::none) return;
    if (p.kind == lost_kind::dropped) {
      const event& m = events_[p.mark];
      const event& x = events_[p.last];
      culprit_ = p.last;
      return append(b, n, "; T%d's %s never stored its pointer: its last access, the %s of %s "
                    "in %s (%s:%u), left it nowhere", m.thread, text(m.text), name_of(x.kind),
                    object_name(x.obj), x.func, x.file, x.line);
    }
    const event& s = events_[p.store];
    append(b, n, "; T%d's %s in %s (%s:%u) left it in %s", s.thread, name_of(s.kind), s.func,
           s.file, s.line, object_name(s.obj));
    const event* r = p.read >= 0 ? &events_[p.read] : nullptr;
    switch (p.kind) {
      case lost_kind::kept:
        culprit_ = p.read;
        return append(b, n, "; T%d's %s in %s (%s:%u) read it, and its operation did not "
                      "deliver it", r->thread, name_of(r->kind), r->func, r->file, r->line);
      case lost_kind::read_older:
        culprit_ = p.read;
        append(b, n, "; T%d's %s in %s (%s:%u) came after that store but read %s (%s), not %s",
               r->thread, name_of(r->kind), r->func, r->file, r->line, read_value(*r),
               r->rf < 0 ? "the initial value" : "an older store", g);
        if (r->thread != s.thread) hand_over(b, n, r->thread, p.store, object_name(r->obj));
        return;
      case lost_kind::overwritten: {
        const event& o = events_[p.over];  // what overwrote it, read here
        append(b, n, "; the %s in %s (%s:%u) overwrote it before any operation read it",
               name_of(o.kind), o.func, o.file, o.line);
        culprit_ = p.over;
        if (p.gave < 0) return;
        culprit_ = p.read;
        const event& x = events_[p.gave];
        return append(b, n, "; T%d's %s in %s (%s:%u) read %s from it after its operation's %s "
                      "in %s (%s:%u) had given %s up, which T%d read first: that read must come "
                      "before that write", r->thread, name_of(r->kind), r->func, r->file,
                      r->line, read_value(*r), name_of(x.kind), x.func, x.file, x.line,
                      object_name(r->obj), o.thread);
      }
      case lost_kind::overwritten_unread: {
        const event& o = events_[p.over];
        culprit_ = p.over;
        return append(b, n, "; the %s in %s (%s:%u) overwrote it before any operation read it",
                      name_of(o.kind), o.func, o.file, o.line);
      }
      default:
        return append(b, n, "; no operation of the port read it from there");
    }
  }
  static bool port(const event& e) {
    return e.thread >= 0 && e.line > 0 && e.obj >= 0 && !harness_function(e.func);
  }
  static bool writes(const event& e) {
    return e.kind == ev::store || e.kind == ev::rmw || e.kind == ev::write;
  }
  static const char* read_value(const event& e) { return e.kind == ev::rmw ? e.old : e.value; }
  static void append(char* b, std::size_t n, const char* fmt, ...)
      __attribute__((format(printf, 3, 4))) {
    std::size_t at = std::strlen(b);
    if (at + 1 >= n) return;
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(b + at, n - at, fmt, ap);
    va_end(ap);
  }
  // A racing read by `thread` of what write #w wrote: appends the hand-over that should
  // have ordered them, as pick_hand_over (hand_over.hpp) picks it among the reader's
  // later reads of stores the writer's thread made after #w: "; T1 took it over through
  // P0.runqtail: the store in runqput (weak_port.hpp:45) is relaxed, not a release".
  void hand_over(char* b, std::size_t n, int thread, int w, const char* raced) {
    // The raced object's G ("G5" of "G5.status"): candidates end at the read that took
    // its pointer (a slot, runnext), as the ones after it cannot have handed it over; a
    // hook's reads (the harness's, relaxed by contract) are none.
    char g[24] = {};
    std::snprintf(g, sizeof g, "%s", raced);
    if (char* dot = std::strchr(g, '.')) *dot = '\0';
    if (g[0] == 'G' && std::strcmp(events_[w].func, "deliver") == 0)
      return delivered_twice(b, n, g, events_[w].thread, thread);
    int reads[64], nr = 0;  // the candidates, in execution order (no allocation here)
    for (int i = w + 1; i < nevents_ && nr < 64; i++) {
      const event& r = events_[i];
      if (r.thread != thread || !is_read(r) || r.rf <= w ||
          events_[r.rf].thread != events_[w].thread || hook_function(r.func))
        continue;
      reads[nr++] = i;
      if (g[0] == 'G' && std::strcmp(r.value, g) == 0) break;
    }
    int early[64], ne = 0;  // its reads of stores #w's thread made before #w: the last 64
    for (int i = 0; i < nevents_; i++) {
      const event& r = events_[i];
      if (r.thread != thread || !is_read(r) || r.rf < 0 || r.rf >= w ||
          events_[r.rf].thread != events_[w].thread || hook_function(r.func))
        continue;
      if (ne == 64) std::copy(early + 1, early + 64, early), ne--;
      early[ne++] = i;
    }
    hand_over_pick h = pick_hand_over(events_view{*this}, std::span<const int>(reads, nr), thread,
                                      std::span<const int>(early, ne), w);
    if (h.kind == hand_over_kind::none) return;
    const event& l = events_[h.read];
    const event& s = events_[l.rf];  // the store it read
    if (h.kind == hand_over_kind::early_release) {
      culprit_ = l.rf;
      const event& x = events_[w];
      std::size_t at = std::strlen(b);
      std::snprintf(b + at, n - at,
                    "; T%d acquired through %s: its load in %s (%s:%u) read the release in %s "
                    "(%s:%u), made before the write in %s (%s:%u): it does not publish that "
                    "write (the release must come after it)",
                    thread, object_name(l.obj), l.func, l.file, l.line, s.func, s.file, s.line,
                    x.func, x.file, x.line);
      return;
    }
    culprit_ = h.kind == hand_over_kind::handed_back || h.kind == hand_over_kind::load
                   ? h.read
                   : l.rf;
    std::size_t at = std::strlen(b);
    if (h.kind == hand_over_kind::handed_back) {
      const event& r = events_[h.via];
      const event& c = events_[r.rf];  // the reader's own write (its claim, say)
      std::snprintf(b + at, n - at,
                    "; T%d took it over through %s: its load in %s (%s:%u) came after its "
                    "own write in %s (%s:%u), which T%d read in %s (%s:%u) before its store "
                    "in %s (%s:%u) refilled it: that load must come before that write",
                    thread, object_name(l.obj), l.func, l.file, l.line, c.func, c.file, c.line,
                    r.thread, r.func, r.file, r.line, s.func, s.file, s.line);
      return;
    }
    const bool store = h.kind != hand_over_kind::load;
    const event& x = store ? s : l;
    std::snprintf(b + at, n - at,
                  "; T%d took it over through %s: the %s in %s (%s:%u) is %s, not %s (nor %s "
                  "a%s fence of its operation)", thread,
                  object_name(l.obj), x.kind == ev::rmw ? "rmw" : store ? "store" : "load",
                  x.func, x.file, x.line,
                  x.ordered ? name_of(x.mo) : "plain", store ? "a release" : "an acquire",
                  store ? "after" : "before", store ? " release" : "n acquire");
    if (h.kind == hand_over_kind::unordered) {  // the load is named too (it may be misplaced)
      at = std::strlen(b);
      std::snprintf(b + at, n - at, " (read by the load in %s (%s:%u), %s)", l.func, l.file,
                    l.line, l.ordered ? name_of(l.mo) : "plain");
    }
  }
  static bool is_read(const event& e) {
    return e.kind == ev::load || e.kind == ev::rmw || e.kind == ev::cas_fail;
  }
  // The events as pick_hand_over reads a recording (hand_over.hpp).
  struct events_view {
    const recorder& r;
    const event& at(int i) const { return r.events_[i]; }
    int rf(int i) const { return at(i).rf; }
    int thread(int i) const { return at(i).thread; }
    int op(int i) const { return at(i).op; }
    bool reads(int i) const { return is_read(at(i)); }
    bool rel(int i) const {
      using mo = std::memory_order;
      const event& e = at(i);
      return e.ordered && (e.mo == mo::release || e.mo == mo::acq_rel || e.mo == mo::seq_cst);
    }
    bool acq(int i) const {
      const event& e = at(i);
      return e.ordered && e.mo != std::memory_order::relaxed &&
             e.mo != std::memory_order::release;
    }
    bool fence(int i) const { return at(i).kind == ev::fence; }
    bool same_obj(int i, int j) const { return at(i).obj == at(j).obj; }
    // and as conservation.hpp reads it
    int size() const { return r.nevents_; }
    bool port(int i) const { return recorder::port(at(i)); }
    bool writes(int i) const { return recorder::writes(at(i)); }
    bool wrote(int i, const char* g) const { return std::strcmp(at(i).value, g) == 0; }
    bool got(int i, const char* g) const { return std::strcmp(read_value(at(i)), g) == 0; }
    // An operation's mark whose text names G g ("runqput(P0, G2, next=true)"; "G2..G4"
    // from G2 on).
    bool names(int i, const char* g) const {
      const event& m = at(i);
      if (m.kind != ev::op_begin || m.thread < 0) return false;
      const char* t = r.text(m.text);
      const std::size_t gl = std::strlen(g);
      for (const char* k = std::strstr(t, g); k != nullptr; k = std::strstr(k + 1, g))
        if (k[gl] != '\0' && std::strchr(",).", k[gl]) != nullptr &&
            (k == t || !std::isalnum(static_cast<unsigned char>(k[-1]))))
          return true;
      return false;
    }
    template <class F>
    int find_before(int t, int limit, F&& pred) const {
      for (int j = 0; j < limit; j++)
        if (at(j).thread == t && pred(j)) return j;
      return -1;
    }
    template <class F>
    int find_after(int t, int from, F&& pred) const {
      for (int j = from + 1; j < r.nevents_; j++)
        if (at(j).thread == t && pred(j)) return j;
      return -1;
    }
  };
  // #w was another thread's delivery of G g: the queue handed g out twice. Says so,
  // with where each thread first read g's pointer in the port, then the first lost update.
  void delivered_twice(char* b, std::size_t n, const char* g, int first, int second) {
    std::size_t at = std::strlen(b);
    std::snprintf(b + at, n - at, "; %s delivered twice, to T%d and to T%d: the queue handed "
                  "it out twice", g, first, second);
    for (int t : {first, second})
      for (int i = 0; i < nevents_; i++) {
        const event& r = events_[i];
        bool rd = r.kind == ev::load || r.kind == ev::rmw || r.kind == ev::cas_fail;
        if (r.thread != t || !rd || std::strcmp(r.value, g) != 0 || harness_function(r.func))
          continue;
        at = std::strlen(b);
        std::snprintf(b + at, n - at, "; T%d took it by the load of %s in %s (%s:%u)", t,
                      object_name(r.obj), r.func, r.file, r.line);
        if (culprit_ < 0) culprit_ = i;
        break;
      }
    with_lost_update(b, n);
  }
  // The access a racing one conflicts with: the latest access to object o
  // by another thread (or the set-up) that a write conflicts with (any), or
  // a read (a write). -1: none recorded.
  int conflicting(int o, int thread, bool write) const {
    for (int i = nevents_ - 1; i >= 0; i--) {
      const event& e = events_[i];
      if (e.obj != o || e.thread == thread) continue;
      bool w = e.kind == ev::store || e.kind == ev::rmw || e.kind == ev::write;
      bool r = e.kind == ev::load || e.kind == ev::cas_fail || e.kind == ev::read;
      if (w || (write && r)) return i;
    }
    return -1;
  }
  // The event a data race's hand-over names (hand_over), or -1: the page opens there.
  int culprit() const { return culprit_; }
  // The failure line as recorded (with the racing access named).
  const char* failure_text() const {
    if (failure_[0] != '\0') return failure_;
    return nevents_ > 0 && events_[nevents_ - 1].kind == ev::check
               ? text(events_[nevents_ - 1].text)
               : "";
  }

  int nevents() const { return nevents_; }
  const event& at(int i) const { return events_[i]; }
  const char* text(int off) const { return off < 0 ? "" : text_ + off; }
  const char* object_name(int o) const { return o < 0 ? "" : objs_[o].name; }
  bool truncated() const { return truncated_; }
  int nops() const { return nops_; }
  const op_record& op_at(int i) const { return ops_[i]; }
  const std::uint64_t* results(const op_record& r) const { return res_ + r.res; }

  // The names are literals: data() is null-terminated.
  static const char* go_function(model::op_kind k) { return model::info(k).go.data(); }

 private:
  static constexpr unsigned kStoreLog = 8;
  static constexpr int kHash = 8192;
  static constexpr int kTextPool = 1 << 20;
  static constexpr int kMaxRes = 1 << 16;
  struct obj_t {
    const void* addr = nullptr;
    char name[48] = {};
    int stores[kStoreLog] = {};
    unsigned nstores = 0;
    ev kind = ev::load;     // of the first touch: what the name calls it
    bool hooked = false;    // named after a hook (or no function): the port's own touch renames
    int owner = -1;         // named by its offset off in owners_[owner] ("P1+24 atomic@f")
    std::size_t off = 0;
  };

  // Text t with each renamed object's old name replaced by its new one.
  static std::string renamed(std::string t,
                             const std::vector<std::pair<std::string, std::string>>& to) {
    for (const auto& [from, name] : to)
      for (std::size_t at = t.find(from); at != std::string::npos;
           at = t.find(from, at + name.size()))
        t.replace(at, from.size(), name);
    return t;
  }

  event& push(ev kind, int thread, int op) {
    if (nevents_ >= kMaxEvents) {
      truncated_ = true;
      spare_ = event{};
      return spare_;
    }
    event& e = events_[nevents_++];
    e = event{};
    e.kind = kind;
    e.thread = thread;
    e.op = op;
    return e;
  }

  // The object table entry of addr (open addressing on the address: only a
  // lookup key, names come in first-touch order, so runs are reproducible). A name
  // takes the first function that touched it, unless that was a subject hook
  // (runq_counters, ...) or unknown: then the port's first own touch names it.
  int object(const void* addr, const char* func, ev kind) {
    auto h = static_cast<std::size_t>(reinterpret_cast<std::uintptr_t>(addr) >> 3) % kHash;
    for (int i = 0; i < kHash; i++, h = (h + 1) % kHash) {
      if (hash_[h] < 0) break;
      obj_t& x = objs_[hash_[h]];
      if (x.addr != addr) continue;
      if (x.hooked && func != nullptr && !hook_function(func)) call(hash_[h], func);
      return hash_[h];
    }
    if (nobjs_ >= kMaxObjects) return kMaxObjects - 1;
    int o = nobjs_++;
    objs_[o] = obj_t{};
    objs_[o].addr = addr;
    objs_[o].kind = kind;
    call(o, func);
    hash_[h] = o;
    return o;
  }

  // Object o's name: "P1+24 atomic@runqput" (its owner, the offset, what it is, the
  // function that named it), or "atomic#3@runqput" where no owner holds it.
  void call(int o, const char* func) {
    obj_t& x = objs_[o];
    bool plain = x.kind == ev::read || x.kind == ev::write;
    bool mutex = x.kind == ev::lock || x.kind == ev::unlock;
    const char* what = plain ? "var" : mutex ? "mutex" : "atomic";
    const char* f = func != nullptr ? func : "?";
    x.hooked = func == nullptr || hook_function(func);
    auto at = reinterpret_cast<std::uintptr_t>(x.addr);
    int in = -1;  // the P (or sched) it lies in: "P1+24" says whose field it is
    for (int k = 0; k < nowners_ && in < 0; k++)
      if (at >= owners_[k].at && at < owners_[k].at + owners_[k].size) in = k;
    char n[sizeof objs_[o].name];  // formatted apart: the owner's name lives in *this too
    x.owner = in;
    x.off = in >= 0 ? static_cast<std::size_t>(at - owners_[in].at) : 0;
    if (in >= 0)
      std::snprintf(n, sizeof n, "%s+%zu %s@%s", owners_[in].name, x.off, what, f);
    else
      std::snprintf(n, sizeof n, "%s#%d@%s", what, o, f);
    std::memcpy(objs_[o].name, n, sizeof n);
  }

  // A value that is the address of a named owner ("0x55…" as %p prints
  // it): the owner's name, so pages do not depend on where ASLR put it. A G's
  // address as a decimal integer (a C port's uintptr_t slot): "G<goid>".
  const char* owner_of(const char* value) const {
    if (value[0] >= '1' && value[0] <= '9') {
      auto v = static_cast<std::uintptr_t>(std::strtoull(value, nullptr, 10));
      for (int k = 0; k < ngs_; k++)
        if (gs_[k].at == v) return gs_[k].name;
      return value;
    }
    if (value[0] != '0' || value[1] != 'x') return value;
    auto at = static_cast<std::uintptr_t>(std::strtoull(value, nullptr, 16));
    for (int k = 0; k < nowners_; k++)
      if (owners_[k].at == at) return owners_[k].name;
    return value;
  }

  static const char* base_name(const char* path) {
    const char* s = std::strrchr(path, '/');
    return s != nullptr ? s + 1 : path;
  }

  int add_text(const char* s) {
    std::size_t n = std::strlen(s);
    if (ntext_ + static_cast<int>(n) + 1 >= kTextPool) return -1;
    int off = ntext_;
    std::memcpy(text_ + off, s, n + 1);
    ntext_ += static_cast<int>(n) + 1;
    return off;
  }

  int text_op(const model::op& o) {
    char b[96];
    describe_op(o, b, sizeof b);
    return add_text(b);
  }

  int text_result(const model::op& o, const std::uint64_t* gs, int n, bool inheritTime,
                  bool empty) {
    char b[256];
    result_text(o, gs, n, inheritTime, empty, b, sizeof b);
    return add_text(b);
  }

  event events_[kMaxEvents];
  event spare_;
  obj_t objs_[kMaxObjects];
  int hash_[kHash];
  op_record ops_[kMaxOps];
  std::uint64_t res_[kMaxRes];
  char text_[kTextPool];
  static constexpr int kMaxOwners = 16;
  struct owner_t {
    std::uintptr_t at = 0;
    std::size_t size = 0;
    char name[12] = {};
  };
  owner_t owners_[kMaxOwners];
  owner_t gs_[model::kMaxG];  // g_at: each G's address and name (size unused)
  int ngs_ = 0;
  int nevents_ = 0, nobjs_ = 0, nops_ = 0, ntext_ = 0, nres_ = 0, nowners_ = 0;
  int culprit_ = -1;  // hand_over's event
  bool truncated_ = false;
  bool resolved_ = false;  // resolve_fields ran
  char failure_[2048] = {};  // failure()'s text (its row is lost when the trace is full)
  phase phase_ = phase::setup;
  struct {
    access_observer::kind kind{};
    const void* obj = nullptr;
    const char* func = "";
    const char* file = "";
    unsigned line = 0;
    int thread = -1;
  } pending_;
  int cur_op_[kMaxThreads] = {};
  int open_[kMaxThreads] = {};
  int open_final_ = -1;
};

// The one-line failure of a run that ended with Relacy result res (not
// success), recorded as the trace's last row: the port's or the harness's
// fatal error, or Relacy's own verdict (a data race names the racing access).
// thread: the thread running when it failed.
inline std::string failure_message(recorder& rec, rl::test_result_e res, int thread) {
  rec.resolve_fields();  // the failure then names a port's own fields
  std::string m = res == rl::test_result_user_assert_failed && relacy::fatal_text[0] != '\0'
                      ? std::string(relacy::fatal_text)
                      : std::string("relacy: ") + rl::test_result_str(res);
  rec.failure(m.c_str(), thread);
  // the recorder's text: a data race's accesses and hand-over, a livelock's stale loop
  if (res == rl::test_result_data_race || res == rl::test_result_livelock ||
      m.find("conservation (") != std::string::npos)  // and a conservation failure's cause
    m = rec.failure_text();
  return m;
}

}  // namespace runqcheck::fuzz
