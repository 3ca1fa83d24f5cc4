// tests/explore/picture.hpp — an explore failure as a picture: the swimlane
// page of `runqcheck explain` (fuzz/explain/swimlane.html, written through
// runqcheck_fuzz/page_base.hpp), drawn by the scenario binary itself.
//
// The failing execution is re-run alone (the engine's replay of its path)
// with options::on_access set: each event a thread replays or adds comes
// here in the order the threads ran, an order of po ∪ rf, with the write it
// reads from (rf, exact: the graph's; under load buffering a store recorded
// after its load, the rf then filled in), its order, value and source line;
// exec.hpp's op_observer marks where each operation begins and ends. Every
// re-run of the program starts a fresh record (setup()), so the last one,
// the failing execution, is what the page shows.
//
// Files, in $RUNQCHECK_FAILURE_DIR or <build>/failures:
//   explore__<subject>__<scenario>__<sc|rc11>[__<mutant>].html   the page
//   ... .replay                            the replay command and binary
#pragma once

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <map>
#include <source_location>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "explore/search.hpp"
#include "runqcheck_fuzz/conservation.hpp"
#include "runqcheck_fuzz/field_names.hpp"
#include "runqcheck_fuzz/hand_over.hpp"
#include "runqcheck_fuzz/page_base.hpp"

namespace runqcheck::explore {

namespace rqm = runqcheck::model;  // (explore::model is the memory model)

class picture final : public rqm::op_observer {
 public:
  // Before each run of the program: forget the last; name the world's
  // objects (Go's field names where the port has them).
  template <class W>
  void reset(W& w, int nprocs, int ngs, int nthreads) {
    begin(nthreads);
    for (int i = 0; i < nprocs; i++) name_p(w.proc(i), i);
    for (int i = 0; i < ngs; i++) {
      g_at(w.goroutine(i), w.goroutine(i)->goid);
      name(w.g_status(i), "G" + std::to_string(i) + ".status");
      name(&w.goroutine(i)->schedlink, "G" + std::to_string(i) + ".schedlink");
    }
    if constexpr (requires { w.sched().lock; }) name(&w.sched().lock, "sched.lock");
    for (int t = 0; t < nthreads; t++) name(w.done_flag(t), "T" + std::to_string(t) + ".done");
  }

  // Before each run of a program that names its objects itself (the
  // protocol world's name_objects, through name and owner below).
  void begin(int nthreads) {
    rows_.clear();
    culprit_ = -1;
    sc_ordered_ = false;
    final_op_ = -1;
    names_.clear();
    mutexes_.clear();
    owners_.clear();
    offset_named_.clear();
    fields_.clear();
    gs_.clear();
    po_.assign(static_cast<std::size_t>(nthreads), {});
    cur_op_.assign(static_cast<std::size_t>(nthreads), -1);
    later_rf_.clear();
  }

  // options::on_access.
  void access(int t, const event& e, const request& q) {
    row r;
    r.thread = t;
    r.op = cur_op_[static_cast<std::size_t>(t)];
    if (q.what == op::lock) mutexes_.push_back(q.obj);
    bool mutex = std::find(mutexes_.begin(), mutexes_.end(), q.obj) != mutexes_.end();
    r.kind = kind_of(e, mutex);
    r.ordered = !e.plain;
    r.mo = std::strcmp(r.kind, "cas_fail") == 0 ? q.mo_fail : e.mo;  // a failed CAS: its order
    if (e.reads() && !e.rf.init()) {
      const auto& wt = po_[static_cast<std::size_t>(e.rf.t)];
      if (static_cast<std::size_t>(e.rf.i) < wt.size())
        r.rf = wt[static_cast<std::size_t>(e.rf.i)];
      else  // a store its thread has not made yet (load buffering): its row comes later
        later_rf_.push_back({static_cast<int>(rows_.size()), e.rf.t, e.rf.i});
    }
    r.reads = e.reads() || e.what == op::cas || e.spurious;
    show(q, e.writes() ? e.wval : e.rval, r.value);
    if (e.kind == ek::rmw) show(q, e.rval, r.old);
    place(r, q);
    auto& pt = po_[static_cast<std::size_t>(t)];
    for (auto& l : later_rf_)  // the loads that read this store before it was recorded
      if (l.t == t && static_cast<std::size_t>(l.i) == pt.size())
        rows_[static_cast<std::size_t>(l.row)].rf = static_cast<int>(rows_.size());
    pt.push_back(static_cast<int>(rows_.size()));
    rows_.push_back(std::move(r));
  }

  // options::on_final: an access after the threads (the final check's drain), made on the
  // values as they stand: a row of no thread, read from no row.
  void final_access(const request& q, std::uint64_t read, std::uint64_t wrote) {
    row r;
    r.op = final_op_;
    if (q.what == op::lock) mutexes_.push_back(q.obj);
    const bool mutex = std::find(mutexes_.begin(), mutexes_.end(), q.obj) != mutexes_.end();
    switch (q.what) {
      case op::lock: r.kind = "lock"; break;
      case op::store: r.kind = mutex ? "unlock" : q.plain ? "write" : "store"; break;
      case op::load: r.kind = q.plain ? "read" : "load"; break;
      case op::cas: r.kind = wrote != read || read == q.a1 ? "rmw" : "cas_fail"; break;
      default: r.kind = "rmw";
    }
    r.ordered = !q.plain;
    r.mo = std::strcmp(r.kind, "cas_fail") == 0 ? q.mo_fail : q.mo;
    r.reads = q.what != op::store && q.what != op::fence;
    const bool rmw = std::strcmp(r.kind, "rmw") == 0;
    show(q, q.what == op::store || rmw ? wrote : read, r.value);
    if (rmw) show(q, read, r.old);
    place(r, q);
    rows_.push_back(std::move(r));
    final_rf(size() - 1);
  }
  // Final row k reads what stands: the last write of its object above it (the co-last
  // write where the rows are in an SC order: order_sc sets it again), else the initial
  // value.
  void final_rf(int k) {
    row& r = rows_[static_cast<std::size_t>(k)];
    r.rf = -1;
    for (int j = k - 1; r.reads && j >= 0; j--)
      if (of(j).obj == r.obj && (writes(of(j)) || std::strcmp(of(j).kind, "unlock") == 0 ||
                                 std::strcmp(of(j).kind, "lock") == 0)) {
        r.rf = j;
        break;
      }
  }

  // --- op_observer ---
  void op_begin(int t, int index, const rqm::op& o) override {
    char b[96];
    rqm::describe_op(o, b, sizeof b);
    if (t >= 0) cur_op_[static_cast<std::size_t>(t)] = index;
    if (t < 0) final_op_ = index;
    mark(t, index, "op_begin", b, o);
  }
  void op_end(int t, int index, const rqm::op& o, const std::uint64_t* gs, int n, bool inherit,
              bool empty) override {
    char b[256];
    fuzz::result_text(o, gs, n, inherit, empty, b, sizeof b);
    mark(t, index, "op_end", b, o);
    if (t >= 0) cur_op_[static_cast<std::size_t>(t)] = -1;
  }

  // options::on_end: where g, the execution the rows record, is SC-consistent,
  // its rows in an SC order of g (checker::sc_order's: each thread runs as far
  // as it can), not in the replay's order of po ∪ rf, where a read of the
  // initial value may come after a write that fr puts after it. An
  // operation's marks stay beside its first and last access, a row of no
  // thread after the access it followed. Before fail() and cause().
  void order_sc(const graph& g) {
    resolve_names();
    checker c;
    if (!c.sc_order(g, true)) return;
    std::size_t n = rows_.size();
    std::vector<std::uint32_t> step(n, UINT32_MAX);  // an access's place in the order
    for (std::size_t t = 0; t < po_.size() && t < g.th.size(); t++)
      for (std::size_t i = 0; i < po_[t].size() && i < g.th[t].size(); i++)
        step[static_cast<std::size_t>(po_[t][i])] =
            c.sc_step({static_cast<std::int16_t>(t), static_cast<std::int32_t>(i)});
    auto access = [&](std::size_t k) { return step[k] != UINT32_MAX; };
    // Each other row goes before or after an access (its first order kept
    // among those beside it), or before every access.
    std::vector<std::vector<std::size_t>> before(n + 1), after(n);
    std::size_t last = 0;  // rows of no thread after every access (the final check) stay last
    for (std::size_t k = 0; k < n; k++)
      if (access(k)) last = k + 1;
    std::vector<std::size_t> tail;
    for (std::size_t k = 0; k < n; k++) {
      if (access(k)) continue;
      if (k >= last && rows_[k].thread < 0) {
        tail.push_back(k);
        continue;
      }
      int t = rows_[k].thread;
      auto mine = [&](std::size_t j) { return access(j) && (t < 0 || rows_[j].thread == t); };
      std::size_t prev = n, next = n;
      for (std::size_t j = k; j-- > 0 && prev == n;)
        if (mine(j)) prev = j;
      for (std::size_t j = k + 1; j < n && t >= 0 && next == n; j++)
        if (mine(j)) next = j;
      bool ahead = std::strcmp(rows_[k].kind, "op_begin") == 0 ? next < n : prev == n;
      std::size_t a = ahead ? next : prev;
      (a == n || ahead ? before[a] : after[a]).push_back(k);
    }
    std::vector<std::size_t> acc;
    for (std::size_t k = 0; k < n; k++)
      if (access(k)) acc.push_back(k);
    std::sort(acc.begin(), acc.end(), [&](std::size_t a, std::size_t b) {
      return step[a] < step[b];
    });
    std::vector<std::size_t> order(before[n]);  // new place -> old row
    for (std::size_t a : acc) {
      order.insert(order.end(), before[a].begin(), before[a].end());
      order.push_back(a);
      order.insert(order.end(), after[a].begin(), after[a].end());
    }
    order.insert(order.end(), tail.begin(), tail.end());
    if (order.size() != n) return;  // (every row has its place)
    std::vector<int> now(n);
    std::vector<row> rows(n);
    for (std::size_t k = 0; k < n; k++) now[order[k]] = static_cast<int>(k);
    for (std::size_t k = 0; k < n; k++) rows[k] = std::move(rows_[order[k]]);
    for (row& r : rows)
      if (r.rf >= 0) r.rf = now[static_cast<std::size_t>(r.rf)];
    for (auto& pt : po_)
      for (int& k : pt) k = now[static_cast<std::size_t>(k)];
    rows_ = std::move(rows);
    for (std::size_t k = n - tail.size(); k < n; k++) final_rf(static_cast<int>(k));
    sc_ordered_ = true;
  }

  // The failure as the last row, on thread t (-1: the final check). The
  // events it names ("thread 0 event 5", the engine's po index) get their
  // row ("= #6"); an event being added when it failed has none.
  void fail(int t, const std::string& what) {
    resolve_names();  // (order_sc did, where the run ended)
    std::string text;
    for (std::size_t at = 0, next; at < what.size(); at = next) {
      next = what.find("thread ", at + 1);
      if (next == std::string::npos) next = what.size();
      text += what.substr(at, next - at);
      int th = -1, i = -1, len = 0;
      if (std::sscanf(what.c_str() + at, "thread %d event %d%n", &th, &i, &len) != 2 || th < 0 ||
          th >= static_cast<int>(po_.size()) || i < 0)
        continue;
      const auto& rows = po_[static_cast<std::size_t>(th)];
      if (i < static_cast<int>(rows.size()))
        text.insert(text.size() - (next - at) + static_cast<std::size_t>(len),
                    " = #" + std::to_string(rows[static_cast<std::size_t>(i)]));
    }
    row r;
    r.thread = t;
    bool in = t >= 0 && t < static_cast<int>(cur_op_.size());
    r.op = in ? cur_op_[static_cast<std::size_t>(t)] : -1;
    r.kind = "check";
    r.text = text;
    rows_.push_back(std::move(r));
  }

  // A failure's cause in the port's terms: a data race's (race_cause), else a
  // conservation failure's (conservation_cause); "" if neither names one.
  std::string cause(const std::string& what, std::vector<std::string>& at) {
    std::string c = race_cause(what, at);
    return c.empty() ? conservation_cause(what, at) : c;
  }

  // The cause of the engine's data race ("data race: thread A event I (read, ...) and
  // thread B event J (write, ...)") in the port's terms: both accesses with their lines
  // and, when A read what B wrote, the hand-over that should have ordered them (below).
  // at gets each named access's FILE:LINE, the hand-over last. "" if what is no data
  // race.
  std::string race_cause(const std::string& what, std::vector<std::string>& at) {
    int ta = -1, ia = -1, tb = -1, ib = -1;
    char ka[16] = {};
    if (std::sscanf(what.c_str(), "data race: thread %d event %d (%15[a-z]", &ta, &ia, ka) != 3)
      return "";
    std::size_t and_at = what.find(" and thread ");
    if (and_at == std::string::npos ||
        std::sscanf(what.c_str() + and_at, " and thread %d event %d", &tb, &ib) != 2)
      return "";
    auto row_of = [&](int th, int i) {
      if (th < 0 || th >= static_cast<int>(po_.size()) || i < 0) return -1;
      const auto& rs = po_[static_cast<std::size_t>(th)];
      return i < static_cast<int>(rs.size()) ? rs[static_cast<std::size_t>(i)] : -1;
    };
    int ra = row_of(ta, ia), rb = row_of(tb, ib);
    std::string obj = ra >= 0 ? rows_[static_cast<std::size_t>(ra)].obj
                      : rb >= 0 ? rows_[static_cast<std::size_t>(rb)].obj : "";
    std::string text = "data race" + (obj.empty() ? "" : " on " + obj) + ": ";
    text += ra >= 0 ? said(rows_[static_cast<std::size_t>(ra)], &at)
                    : "a " + std::string(ka) + " by thread " + std::to_string(ta);
    text += " and ";
    text += rb >= 0 ? said(rows_[static_cast<std::size_t>(rb)], &at)
                    : "an access by thread " + std::to_string(tb);
    text += ", unordered by happens-before";
    if (rb >= 0 && rows_[static_cast<std::size_t>(rb)].func == "deliver")
      return with_lost_update(delivered_twice(obj, ta, tb, text, at), at);
    char kb[16] = {};
    std::sscanf(what.c_str() + and_at, " and thread %*d event %*d (%15[a-z]", kb);
    if (std::strcmp(ka, "write") == 0 && std::strcmp(kb, "read") == 0 && ra >= 0 && rb >= 0) {
      // B read before A's write: only a publication A made too early can be named.
      std::vector<int> early = earlier_reads(tb, rb, ta, ra);
      fuzz::hand_over_pick h = fuzz::pick_hand_over(rows_view{*this}, {}, tb, early, ra);
      return h.kind == fuzz::hand_over_kind::none ? text : text + early_said(h.read, tb, ra, at);
    }
    if (std::strcmp(ka, "read") != 0 || rb < 0) return text;
    return taken_over(ta, ra, tb, rb, obj, text, at);
  }

  // text, and the hand-over through which thread ta's read ra took over what thread tb's
  // write rb left (a G's status, a slot): the release or acquire missing from it. Rows
  // are the failing execution's; at gets each named access's FILE:LINE, the hand-over's
  // last.
  std::string taken_over(int ta, int ra, int tb, int rb, const std::string& obj,
                         std::string text, std::vector<std::string>& at) {
    // The hand-over, picked as Relacy's recorder picks it (fuzz/hand_over.hpp) among
    // A's reads of stores B made after its racing write (and, for a publication made
    // too early, of B's stores before it).
    // Candidates end at the read that took the raced G's pointer ("G5" of "G5.status"),
    // and before the racing read: a read after it (the next operation's load of a
    // tail, say) orders nothing before it; a hook's reads (the harness's, relaxed by
    // contract) are none.
    std::string g = obj.substr(0, obj.find('.'));
    std::vector<int> reads;
    for (int k : po_[static_cast<std::size_t>(ta)]) {
      if (k == ra) break;
      const row& r = rows_[static_cast<std::size_t>(k)];
      if (!r.reads || r.rf <= rb || rows_[static_cast<std::size_t>(r.rf)].thread != tb ||
          fuzz::hook_function(r.func))
        continue;
      reads.push_back(k);
      if (!g.empty() && g[0] == 'G' && g == r.value) break;
    }
    std::vector<int> early = earlier_reads(ta, ra, tb, rb);
    fuzz::hand_over_pick h = fuzz::pick_hand_over(rows_view{*this}, reads, ta, early, rb);
    if (h.kind == fuzz::hand_over_kind::none) return text;
    const int k = h.read;
    if (h.kind == fuzz::hand_over_kind::early_release) return text + early_said(k, ta, rb, at);
    if (h.kind == fuzz::hand_over_kind::handed_back) {
      const int j = h.via;
      culprit_ = k;
      text += "; thread " + std::to_string(ta) + " took it over through " + of(k).obj +
              ": its " + said(of(k), nullptr) + " came after its own " +
              said(of(of(j).rf), &at) + ", which thread " + std::to_string(tb) +
              " read by its " + said(of(j), nullptr) + " before its " +
              said(of(of(k).rf), nullptr) + " refilled " + of(k).obj +
              ": that read must come before that write (the location was no longer thread " +
              std::to_string(ta) + "'s)";
      at.push_back(std::string(of(k).file) + ":" + std::to_string(of(k).line));  // the culprit
      return text;
    }
    // Load buffering (the store's row after the read's): thread tb made the store after
    // a read of a write thread ta made after its own read. That write is the order to
    // fix (a release on it or a release fence before it), not the store's; -1 if none.
    auto cycle = [&](int k) {
      if (of(k).rf <= k) return -1;
      for (int j : po_[static_cast<std::size_t>(tb)]) {
        if (j == of(k).rf) break;
        const row& r = of(j);
        if (r.reads && r.rf > k && of(r.rf).thread == ta) return j;
      }
      return -1;
    };
    if (int j = cycle(k); j >= 0) {
      const row& w = of(of(j).rf);
      culprit_ = of(j).rf;
      std::string mo = fuzz::name_of(static_cast<std::memory_order>(w.mo));
      return text += "; thread " + std::to_string(ta) + " took it over through " + of(k).obj +
                     ": its " + said(of(k), nullptr) + " read a store thread " +
                     std::to_string(tb) + " made later (load buffering), after its " +
                     said(of(j), nullptr) + " read thread " + std::to_string(ta) + "'s " +
                     said(w, &at) + ", " + mo + ", made after that read: nothing orders " +
                     "the read before that write (a release on it, or a release fence " +
                     "before it, does)";
    }
    const bool store = h.kind != fuzz::hand_over_kind::load;
    const row& x = store ? of(of(k).rf) : of(k);
    culprit_ = store ? of(k).rf : k;
    std::string mo = x.ordered ? fuzz::name_of(static_cast<std::memory_order>(x.mo)) : "plain";
    text += "; thread " + std::to_string(ta) + " took it over through " + of(of(k).rf).obj +
            ": the " + said(x, &at) + " is " + mo + ", not " +
            (store ? "a release (nor after a release" : "an acquire (nor before an acquire") +
            " fence of its operation: B::fence, which the checkers see; they do not see "
            "std::atomic_thread_fence)";
    if (of(k).rf > k)  // the store's row comes after the read's
      text += " (load buffering: the read took it before that store was made)";
    if (h.kind == fuzz::hand_over_kind::unordered) {
      // Neither side orders it: the load is named too (it may be what is misplaced,
      // a slot read after the CAS that gave the slot back).
      std::string lmo = of(k).ordered
                            ? fuzz::name_of(static_cast<std::memory_order>(of(k).mo))
                            : "plain";
      text += " (read by the " + std::string(of(k).kind) + " at " + of(k).loc + " (" +
              of(k).func + "), " + lmo + ")";
    }
    return text;
  }

  // A race with another thread's delivery of the G (exec.hpp's deliver): the queue
  // handed that G out twice. Named so, with where each thread first read the G's
  // pointer in the port (at gets those lines first).
  std::string delivered_twice(const std::string& obj, int ta, int tb, const std::string& race,
                              std::vector<std::string>& at) const {
    std::string g = obj.substr(0, obj.find('.'));
    std::string text = g + " delivered twice, to thread " + std::to_string(tb) +
                       " and to thread " + std::to_string(ta) + ": the queue handed it out " +
                       "twice (" + race + ")";
    std::vector<std::string> mine;
    for (int t : {tb, ta}) {
      if (t < 0 || t >= static_cast<int>(po_.size())) continue;
      for (int k : po_[static_cast<std::size_t>(t)]) {
        const row& r = rows_[static_cast<std::size_t>(k)];
        if (!r.reads || r.value != g || fuzz::harness_function(r.func))
          continue;
        text += "; thread " + std::to_string(t) + " took it by the " + said(r, &mine);
        break;
      }
    }
    at.insert(at.begin(), mine.begin(), mine.end());
    return text;
  }

  // The cause of a conservation failure (exec.hpp: "conservation (...) g=N delivered=D
  // put=P") in the port's terms, from the rows: a G lost is followed to the port's last
  // store of its pointer (the slot it was left in), then to the read that came after that
  // store but read an older value (and the hand-over that should have ordered them), or
  // the store that overwrote it before any read; a G delivered twice names each
  // operation's read of its pointer, then a read of a value already replaced, or the
  // read made after its own operation gave the slot up (a claim's write that the
  // overwriting thread read first), after the check's own text. at gets each access's
  // FILE:LINE, the culprit's last.
  // "" if what is no conservation failure, or the rows never hold the G's pointer.
  std::string conservation_cause(const std::string& what, std::vector<std::string>& at) {
    std::size_t k = what.find("conservation (");
    k = k == std::string::npos ? k : what.find(" g=", k);
    int gid = -1, n = -1, put = -1;
    if (k == std::string::npos ||
        std::sscanf(what.c_str() + k, " g=%d delivered=%d put=%d", &gid, &n, &put) != 3)
      return "";
    const std::string g = "G" + std::to_string(gid);
    std::string text = what;  // the check's own words (who took it, what was left), then ours
    if (n == put) return "";
    text = n < put ? lost(g, text, at) : taken_twice(g, text, at);
    return with_lost_update(text.empty() ? what : text, at);
  }

  // text, and the rows' first lost update (conservation.hpp) if any, named as the culprit
  // (at gets its line last): a G lost or handed out twice often starts there, its own
  // story (above) naming a symptom. In an SC order of the rows only (there a write's row is
  // its place in its object's order).
  std::string with_lost_update(std::string text, std::vector<std::string>& at) {
    const rows_view v{*this};
    const int lu = sc_ordered_ ? fuzz::lost_update(v) : -1;
    if (lu < 0) return text;
    const int lr = fuzz::last_read(v, lu);
    const row& x = of(lu);
    const row& w = of(fuzz::written_between(v, lr, lu));
    culprit_ = lu;
    at.push_back(std::string(x.file) + ":" + std::to_string(x.line));
    return text + "; an update lost: thread " + std::to_string(x.thread) + "'s " +
           said(x, nullptr) + " wrote over thread " + std::to_string(w.thread) + "'s " +
           said(w, nullptr) + ", made after the value its " + said(of(lr), nullptr) +
           " read (a CAS would have failed there)";
  }

  // The thread of the last access recorded (the one running at a failure).
  int last_thread() const {
    for (auto it = rows_.rbegin(); it != rows_.rend(); ++it)
      if (it->thread >= 0 && std::strcmp(it->kind, "op_end") != 0) return it->thread;
    return -1;
  }

  std::string json(fuzz::trace_info in) const {
    if (in.culprit < 0) in.culprit = culprit_;  // the page opens at it
    std::string j = fuzz::trace_head(in, in.failed ? static_cast<int>(rows_.size()) - 1 : -1);
    for (std::size_t i = 0; i < rows_.size(); i++) {
      const row& r = rows_[i];
      fuzz::trace_row w;
      w.thread = r.thread;
      w.op = r.op;
      w.kind = r.kind;
      w.func = r.func.c_str();
      w.obj = r.obj.c_str();
      w.order = r.ordered ? fuzz::name_of(static_cast<std::memory_order>(r.mo)) : "";
      w.value = r.value;
      w.old = r.old;
      w.reads = r.reads;
      w.rf = r.rf;
      w.loc = r.loc;
      w.text = r.text.c_str();
      fuzz::trace_event(j, static_cast<int>(i), w);
    }
    fuzz::trace_end(j);
    return j;
  }

  // The rows as text, one a line (a replay prints them): the thread, the
  // operation's mark or the access (its function, kind, object, value, order,
  // the row it reads from) and its source line; the failure last.
  std::string text() const {
    std::string out;
    char b[96];
    for (std::size_t i = 0; i < rows_.size(); i++) {
      const row& r = rows_[i];
      std::snprintf(b, sizeof b, "  #%-4zu %-4s ", i,
                    r.thread < 0 ? "-" : ("T" + std::to_string(r.thread)).c_str());
      out += b;
      if (r.obj.empty() && r.loc.empty()) {  // a mark: an operation's start or end, a failure
        out += std::string(r.kind) + " " + r.text + "\n";
        continue;
      }
      out += r.func + ": " + r.kind + " " + r.obj;
      const char* sep = r.old[0] != '\0' ? " -> " : r.reads ? " reads " : " = ";
      if (r.old[0] != '\0') out += std::string(" ") + r.old;
      if (r.value[0] != '\0') out += sep + std::string(r.value);
      if (r.rf >= 0) out += " (from #" + std::to_string(r.rf) + ")";
      if (r.ordered) out += std::string(" ") + fuzz::name_of(static_cast<std::memory_order>(r.mo));
      out += "  " + r.loc + "\n";
    }
    return out;
  }

 private:
  struct row {
    int thread = -1, op = -1;
    const char* kind = "";
    bool ordered = false, reads = false;
    std::uint8_t mo = 0;
    int rf = -1;
    char value[24] = {}, old[24] = {};
    std::string func, obj, loc, text;
    const char* file = "";  // the access's source line (loc is its file name's)
    unsigned line = 0;
  };
  // Row r's function, source line and object, from the access's request.
  void place(row& r, const request& q) {
    r.func = func_of(q.where.function_name());
    const char* f = std::strrchr(q.where.file_name(), '/');
    r.loc = std::string(f != nullptr ? f + 1 : q.where.file_name()) + ":" +
            std::to_string(q.where.line());
    r.file = q.where.file_name();
    r.line = q.where.line();
    const char* what = q.atomic_obj ? "atomic" : kind_name(r.kind);
    r.obj = q.obj == nullptr ? "" : object(q.obj, what, r.func, q.where);
  }
  // Thread tr's reads before its row rr of stores thread tw made before its row rw (a
  // hook's none): where a publication made too early was read (hand_over.hpp, rule 4).
  std::vector<int> earlier_reads(int tr, int rr, int tw, int rw) const {
    std::vector<int> early;
    for (int k : po_[static_cast<std::size_t>(tr)]) {
      if (k == rr) break;
      const row& r = rows_[static_cast<std::size_t>(k)];
      if (r.reads && r.rf >= 0 && r.rf < rw && rows_[static_cast<std::size_t>(r.rf)].thread == tw &&
          !fuzz::hook_function(r.func))
        early.push_back(k);
    }
    return early;
  }
  // "; thread R acquired ... before its write": read k of thread tr acquired a release
  // made before the racing write rw, which it therefore does not publish.
  std::string early_said(int k, int tr, int rw, std::vector<std::string>& at) {
    const row& l = rows_[static_cast<std::size_t>(k)];
    const row& w = rows_[static_cast<std::size_t>(l.rf)];
    culprit_ = l.rf;
    return "; thread " + std::to_string(tr) + " acquired through " + w.obj + ": its " +
           said(l, nullptr) + " read the " + said(w, &at) + ", a release made before the " +
           said(rows_[static_cast<std::size_t>(rw)], nullptr) +
           ": it does not publish that write (the release must come after it)";
  }
  const row& of(int k) const { return rows_[static_cast<std::size_t>(k)]; }
  int size() const { return static_cast<int>(rows_.size()); }
  // An access of the port (not the harness's, not a hook's, not a mark).
  static bool port(const row& r) {
    return r.thread >= 0 && r.line > 0 && !r.obj.empty() && !fuzz::harness_function(r.func);
  }
  static bool writes(const row& r) {
    return std::strcmp(r.kind, "store") == 0 || std::strcmp(r.kind, "rmw") == 0 ||
           std::strcmp(r.kind, "write") == 0;
  }
  // The value read r read (an rmw's old value).
  static std::string got(const row& r) {
    return std::strcmp(r.kind, "rmw") == 0 ? r.old : r.value;
  }
  // "the store of P0.runq[1] at ring.hpp:40 (put)" or "the initial value" of rf row k.
  std::string from(int k, std::vector<std::string>* at) const {
    return k < 0 ? "the initial value" : "the " + said(of(k), at);
  }
  // The read r, after its operation's write c, read a value that w's store made after
  // reading c: r should have come before c.
  std::string read_late(int r, int c, int w, std::vector<std::string>& at) {
    culprit_ = r;
    return "; its operation's " + said(of(c), nullptr) + " had already given " + of(r).obj +
           " up: thread " + std::to_string(of(w).thread) + " read that and its " +
           said(of(w), nullptr) + " reused it, so thread " + std::to_string(of(r).thread) +
           "'s " + said(of(r), &at) + " read " + got(of(r)) +
           ": that read must come before the write that gives the slot up";
  }

  // conservation_cause's G lost (fuzz::pick_lost): where the port last stored its pointer,
  // and why no operation took it from there; with no store, the operation that put it and
  // its last access (a CAS that failed, say, and nothing stored the G after it).
  std::string lost(const std::string& g, std::string text, std::vector<std::string>& at) {
    const fuzz::lost_pick p = fuzz::pick_lost(rows_view{*this}, g);
    using k = fuzz::lost_kind;
    if (p.kind == k::none) return "";
    if (p.kind == k::dropped) {
      culprit_ = p.last;
      return text + "; thread " + std::to_string(of(p.mark).thread) + "'s " + of(p.mark).text +
             " never stored its pointer: its last access, the " + said(of(p.last), &at) +
             ", left it nowhere";
    }
    const int w = p.store;
    const std::string obj = of(w).obj;
    text += "; thread " + std::to_string(of(w).thread) + "'s " + said(of(w), &at) +
            " left it in " + obj;
    const int i = p.read;
    switch (p.kind) {
      case k::kept:
        culprit(i);
        return text + "; thread " + std::to_string(of(i).thread) + "'s " + said(of(i), &at) +
               " read it, and its operation did not deliver it";
      case k::read_older:  // read an older value though the store came before it
        text += "; thread " + std::to_string(of(i).thread) + "'s " + said(of(i), &at) +
                " came after that store but read " + got(of(i)) + " (" +
                from(of(i).rf, nullptr) + "), not " + g;
        culprit(i);
        return of(i).thread == of(w).thread
                   ? text
                   : taken_over(of(i).thread, i, of(w).thread, w, obj, text, at);
      case k::overwritten:  // read what overwrote it
        text += "; " + from(p.over, nullptr) + " overwrote it before any operation read it";
        if (p.gave >= 0) return text + read_late(i, p.gave, p.over, at);
        culprit(p.over);
        at.push_back(std::string(of(p.over).file) + ":" + std::to_string(of(p.over).line));
        return text;
      case k::overwritten_unread:
        culprit(p.over);
        return text + "; the " + said(of(p.over), &at) +
               " overwrote it before any operation read it";
      default:
        return text + "; no operation of the port read it from there";
    }
  }
  // An operation's text names G g ("runqput(P0, G2, next=true)", "G2..G4" from G2 on).
  static bool names_g(const std::string& text, const std::string& g) {
    for (std::size_t k = text.find(g); k != std::string::npos; k = text.find(g, k + 1))
      if (k + g.size() < text.size() && std::strchr(",).", text[k + g.size()]) != nullptr &&
          (k == 0 || !std::isalnum(static_cast<unsigned char>(text[k - 1]))))
        return true;
    return false;
  }

  // conservation_cause's G delivered more often than put (fuzz::pick_twice): each
  // operation's first read of its pointer (a take, or a put that moved it), then the read
  // to blame.
  std::string taken_twice(const std::string& g, std::string text, std::vector<std::string>& at) {
    const fuzz::twice_pick p = fuzz::pick_twice(rows_view{*this}, g);
    if (p.kind == fuzz::twice_kind::none) return "";
    for (int k = 0; k < p.ntakes; k++) {
      const int t = p.takes[static_cast<std::size_t>(k)];
      text += "; thread " + std::to_string(of(t).thread) + "'s " + said(of(t), &at) +
              " read it (" + from(of(t).rf, nullptr) + ")";
    }
    const int t = p.read, w = p.over;
    if (p.kind == fuzz::twice_kind::replaced) {
      text += "; thread " + std::to_string(of(t).thread) + "'s " + said(of(t), nullptr) +
              " read it though the " + said(of(w), nullptr) + " had replaced it";
      culprit(t);
      return of(w).thread == of(t).thread || of(w).thread < 0
                 ? text
                 : taken_over(of(t).thread, t, of(w).thread, w, of(t).obj, text, at);
    }
    if (p.kind == fuzz::twice_kind::read_late) return text + read_late(t, p.gave, w, at);
    return text;
  }
  void culprit(int k) { culprit_ = k; }

  // "read of G5.status at exec.hpp:185 (deliver)"; at (optional) gets "FILE:LINE".
  std::string said(const row& r, std::vector<std::string>* at) const {
    if (at != nullptr && r.line > 0) at->push_back(std::string(r.file) + ":" +
                                                   std::to_string(r.line));
    return std::string(r.kind) + " of " + r.obj + " at " + r.loc + " (" + r.func + ")";
  }
  static bool releases(std::uint8_t mo) { return mo >= 3; }  // release, acq_rel, seq_cst
  static bool acquires(std::uint8_t mo) { return mo >= 1 && mo != 3; }
  // The rows as fuzz::pick_hand_over reads a recording (runqcheck_fuzz/hand_over.hpp).
  struct rows_view {
    const picture& p;
    const row& at(int i) const { return p.rows_[static_cast<std::size_t>(i)]; }
    int rf(int i) const { return at(i).rf; }
    int thread(int i) const { return at(i).thread; }
    int op(int i) const { return at(i).op; }
    bool reads(int i) const { return at(i).reads; }
    bool rel(int i) const { return at(i).ordered && releases(at(i).mo); }
    bool acq(int i) const { return at(i).ordered && acquires(at(i).mo); }
    bool fence(int i) const { return std::strcmp(at(i).kind, "fence") == 0; }
    bool same_obj(int i, int j) const { return at(i).obj == at(j).obj; }
    // and as conservation.hpp reads them
    int size() const { return p.size(); }
    bool port(int i) const { return picture::port(at(i)); }
    bool writes(int i) const { return picture::writes(at(i)); }
    bool wrote(int i, const std::string& g) const { return at(i).value == g; }
    bool got(int i, const std::string& g) const { return picture::got(at(i)) == g; }
    bool names(int i, const std::string& g) const {
      return std::strcmp(at(i).kind, "op_begin") == 0 && at(i).thread >= 0 &&
             names_g(at(i).text, g);
    }
    template <class F>
    int find_before(int t, int limit, F&& pred) const {
      for (int j : p.po_[static_cast<std::size_t>(t)]) {
        if (j == limit) break;
        if (pred(j)) return j;
      }
      return -1;
    }
    template <class F>
    int find_after(int t, int from, F&& pred) const {
      bool past = false;
      for (int j : p.po_[static_cast<std::size_t>(t)]) {
        if (past && pred(j)) return j;
        past = past || j == from;
      }
      return -1;
    }
  };

  static const char* kind_of(const event& e, bool mutex) {
    switch (e.what) {
      case op::lock: return "lock";
      case op::fence: return "fence";
      case op::choice: return e.rval ? "spurious_fail" : "weak_cas";  // the weak CAS's choice
      case op::cas: return e.kind == ek::rmw ? "rmw" : "cas_fail";
      case op::fadd:
      case op::xchg:
      case op::fbits: return "rmw";
      case op::store: return mutex ? "unlock" : e.plain ? "write" : "store";
      default: return e.spurious ? "cas_fail" : e.plain ? "read" : "load";
    }
  }
  static const char* kind_name(const char* k) {
    if (!std::strcmp(k, "read") || !std::strcmp(k, "write")) return "var";
    return !std::strcmp(k, "lock") || !std::strcmp(k, "unlock") ? "mutex" : "atomic";
  }
  // A value as the backend shows it, but the address of a struct the world
  // named (owner: "P1", "M2") by its name: the same on every run.
  void show(const request& q, std::uint64_t v, char (&out)[24]) const {
    if (q.show == nullptr || q.what == op::fence) return;
    for (const auto& [base, size, owner] : owners_)
      if (v == base && v != 0) {
        std::snprintf(out, sizeof out, "%s", owner.c_str());
        return;
      }
    for (const auto& [at, goid] : gs_)  // a G kept as an integer (uintptr_t, guintptr)
      if (v == at) {
        std::snprintf(out, sizeof out, "G%llu", static_cast<unsigned long long>(goid));
        return;
      }
    q.show(v, out, sizeof out);
  }
  // "runqput" of "void runqcheck::runqput(p<B, 4>*, G*, bool) [with ...]".
  static std::string func_of(const char* pretty) {
    const char* paren = std::strchr(pretty, '(');
    if (paren == nullptr) return pretty;
    const char* b = paren;
    while (b > pretty && (std::isalnum(static_cast<unsigned char>(b[-1])) || b[-1] == '_')) b--;
    return std::string(b, paren);
  }

 public:
  // Names: a P's fields; any object (the world's own naming).
  template <class Pp>
  void name_p(Pp* pp, int i) {
    std::string p = "P" + std::to_string(i);
    owners_.emplace_back(reinterpret_cast<std::uintptr_t>(pp), sizeof *pp, p);
    if constexpr (requires { pp->runqhead; pp->runqtail; pp->runnext; pp->runq; }) {
      name(&pp->runqhead, p + ".runqhead");
      name(&pp->runqtail, p + ".runqtail");
      name(&pp->runnext, p + ".runnext");
      for (std::size_t k = 0; k < std::size(pp->runq); k++)  // a std::array or a C array
        name(&pp->runq[k], p + ".runq[" + std::to_string(k) + "]");
    }
  }
  void name(const void* at, std::string n) { names_[at] = std::move(n); }
  // A G's address: a value equal to it reads "G<goid>" whatever its type.
  void g_at(const void* at, std::uint64_t goid) {
    gs_.emplace_back(reinterpret_cast<std::uintptr_t>(at), goid);
  }
  // The fuzz recorder's naming (runqcheck_fuzz/trace.hpp): ("M.park", 2) is
  // "M2.park"; i < 0: base itself.
  void name(const void* at, const char* base, int i) {
    name(at, i < 0 ? std::string(base) : base[0] + std::to_string(i) + (base + 1));
  }
  // A struct whose unnamed fields are named after it ("M1+16 atomic").
  void owner(const void* at, std::size_t size, const char* base, int i) {
    owners_.emplace_back(reinterpret_cast<std::uintptr_t>(at), size,
                         i < 0 ? std::string(base) : base + std::to_string(i));
  }

 private:
  // A named object, else "P1+24 atomic" inside a P (its offset names it:
  // not the function that touched it first, which other functions share),
  // else "atomic#3@runqput" (first-touch order and place: the same on every
  // replay).
  std::string object(const void* at, const char* what, const std::string& func,
                     const std::source_location& where) {
    auto it = names_.find(at);
    if (it != names_.end()) {
      // An offset's field no line named yet (its first named two: `a.store(x); b.store(y);`
      // in a hook): this access's line may.
      if (auto f = offset_named_.find(it->second);
          f != offset_named_.end() && !fields_.contains({f->second.size, f->second.off})) {
        std::string field = fuzz::field_at(where.file_name(), where.line());
        if (!field.empty()) fields_.try_emplace({f->second.size, f->second.off}, field);
      }
      return it->second;
    }
    auto a = reinterpret_cast<std::uintptr_t>(at);
    std::string n = std::string(what) + "#" + std::to_string(names_.size()) + "@" + func;
    for (const auto& [base, size, owner] : owners_)
      if (a >= base && a < base + size) {
        n = owner + "+" + std::to_string(a - base) + " " + what;
        offset_named_[n] = {owner, size, a - base};
      }
    if (auto f = offset_named_.find(n); f != offset_named_.end()) {
      // the first line that names it names them all
      std::string field = fuzz::field_at(where.file_name(), where.line());
      if (!field.empty()) fields_.try_emplace({f->second.size, f->second.off}, field);
    }
    names_[at] = n;
    return n;
  }

  // The rows' objects named by an offset in a struct ("P1+24 atomic") renamed
  // after the field a source line accessing that offset named, in a struct of
  // that size: "P1.head", or "P1.slots@24" for an array's element. Before the
  // rows are read (order_sc).
  void resolve_names() {
    std::unordered_map<std::string, std::string> to;
    for (const auto& [n, o] : offset_named_) {
      auto f = fields_.find({o.size, o.off});
      if (f == fields_.end()) continue;
      to[n] = fuzz::field_name(o.owner, f->second, o.off,
                               fuzz::offsets_named(fields_, o.size, f->second));
    }
    for (row& r : rows_)
      if (auto t = to.find(r.obj); t != to.end()) r.obj = t->second;
    for (auto& [at, n] : names_)
      if (auto t = to.find(n); t != to.end()) n = t->second;
    offset_named_.clear();
  }

  void mark(int t, int index, const char* kind, const char* text, const rqm::op& o) {
    row r;
    r.thread = t;
    r.op = index;
    r.kind = kind;
    r.text = text;
    r.func = rqm::info(o.kind).go;
    rows_.push_back(std::move(r));
  }

  std::vector<row> rows_;
  int culprit_ = -1;                  // cause()'s hand-over or culprit row
  bool sc_ordered_ = false;           // the rows are in an SC order (order_sc)
  int final_op_ = -1;                 // the final check's operation in flight (its index)
  std::vector<std::vector<int>> po_;  // per thread: po index -> row
  struct later_rf {
    int row, t, i;  // row reads thread t's po index i, not recorded yet
  };
  std::vector<later_rf> later_rf_;
  std::vector<int> cur_op_;
  std::vector<const void*> mutexes_;
  std::unordered_map<const void*, std::string> names_;
  struct offset_obj {
    std::string owner;
    std::size_t size, off;
  };
  std::unordered_map<std::string, offset_obj> offset_named_;  // "P1+24 atomic": P1's 24th byte
  std::map<std::pair<std::size_t, std::size_t>, std::string> fields_;  // (size, off) -> field
  std::vector<std::tuple<std::uintptr_t, std::size_t, std::string>> owners_;
  std::vector<std::pair<std::uintptr_t, std::uint64_t>> gs_;  // g_at
};

}  // namespace runqcheck::explore
