// explore/engine.hpp — the exploring engine: stateless model checking with
// optimal dynamic partial-order reduction over execution graphs, after
// Kokologiannakis, Marmanis, Gladstein, Vafeiadis, "Truly stateless,
// optimal dynamic partial order reduction", POPL 2022 (TruSt), and the graph
// model of Kokologiannakis, Raad, Vafeiadis, PLDI 2019.
//
// The program runs unchanged on the seam (backend/explore.hpp); its threads
// are Boost.Context fibers run one at a time. Each exploration step is a
// graph: the program is re-run from the start, every event the graph holds
// is replayed (a read returns what its rf write wrote), and the lowest
// thread that wants a new event adds it:
//   - a read (load, CAS, fetch_add, lock) may read any write of its
//     location that keeps the graph consistent: one child per write;
//   - a store takes each consistent place in co (one child each), and may
//     revisit each earlier read r of its location that is not in its
//     po ∪ rf prefix: the graph keeps the events added up to r and the
//     store's prefix, and r reads the store. TruSt's maximality condition
//     (every deleted event, and r, was added reading or writing co-last)
//     lets one graph only revisit, so each consistent graph is met once;
//   - an RMW is a read whose success adds its write, co-next to the write
//     it read; its write revisits like a store's.
// The consistency of each new graph is judged per model (consistency.hpp).
//
// Spin-assume (Kokologiannakis, Vafeiadis, CAV 2021 section 4): a loop
// iteration that wrote nothing and read nothing new cannot lead anywhere
// new, so the thread blocks instead of unrolling; a later write may revisit
// one of its reads and let it leave the loop. B::spin_pause() blocks when
// the thread wrote nothing since its operation began or its last
// spin_pause, unless a CAS of it failed reading a write new to its line
// since (compare_exchange hands the loop that value: the next try differs);
// an atomic read at a source line the thread read at before in
// the same operation, from the same write, with no write and no new value
// read in between, blocks too (a CAS or guard retry loop repeating itself);
// a weak CAS's spurious failure counts as new to both (its retry cannot fail
// so).
// With options::retry_assume, such a load blocks before it is made, whatever
// it would read (a failed try of a retry loop, wrote nothing: the execution
// without that try is explored too).
// An execution that ends with a thread blocked is counted as "blocked".
// Await in-place revisits (options::ipr, below: after Awamoche, CAV 2023)
// keep most such executions from being explored at all: a write that ends
// a blocked thread's wait revisits its read in the same child, and a
// thread that blocks on a read stale when added (a lock() failing on an
// old write) ends its prefix there.
// A blocked thread waits for good when every read of its last iteration
// read its location's co-last write: no write is left that could end its
// wait (else a fairer schedule re-runs the iteration with a newer value,
// and the revisit that gives it that value is explored elsewhere). With
// options::waits_end, an execution whose blocked threads all wait for good
// is the program's end (parked Ms at quiescence) and is judged by finish();
// without it, such an execution is a hang: a failure.
//
// Threads are raw Boost.Context contexts on stacks the engine reuses: an
// execution that stops early (a revisit re-runs the program) simply drops
// its threads. Rejected: boost::context::fiber, which unwinds a dropped
// thread's stack and so aborts when the thread waits inside a destructor
// (an unlock in sched.lock's guard). Objects on a dropped stack are not
// destroyed; the port's operations allocate nothing there.
// Rejected: a search over interleavings (Relacy's full search, no
// reduction: 2,000x the executions); storing visited graphs (optimality
// would come from memory, not from the maximality condition).
#pragma once

#include <boost/context/detail/fcontext.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "consistency.hpp"
#include "observe.hpp"
#include "runtime.hpp"
#include "search.hpp"

namespace runqcheck::explore {

class engine final : public runtime {
 public:
  // The spare graphs and thread stacks come from the last engine of this
  // thread that ended (the generated programs run an engine each): their
  // buffers are warm, and a new engine allocates little.
  engine(program& p, options o)
      : prog_(p), opt_(std::move(o)), spares_(std::move(kept().spares)),
        stacks_(std::move(kept().stacks)) {}
  ~engine() override {
    if (kept().stacks.empty()) kept().stacks = std::move(stacks_);
    if (kept().spares.empty()) kept().spares = std::move(spares_);
  }
  engine(const engine&) = delete;
  engine& operator=(const engine&) = delete;

  stats run() {
    auto t0 = std::chrono::steady_clock::now();
    nt_ = prog_.threads();
    if (nt_ > kMaxThreads) {
      st_.failed = true;
      st_.failure = "explore: more than " + std::to_string(kMaxThreads) + " threads";
      return st_;
    }
    replay_ = parse_path(opt_.replay);
    init_symmetry();
    item root;
    root.g.th.resize(nt_);
    work_.push_back(std::move(root));
    while (!work_.empty() && !st_.failed) {
      if (opt_.budget != 0 && st_.executions() >= opt_.budget) break;
      if (opt_.seconds > 0 && since(t0) >= opt_.seconds) break;
      item it = std::move(work_.back());
      work_.pop_back();
      execute(it);
    }
    st_.left = work_.size();
    st_.exhausted = work_.empty() && !st_.failed;
    st_.seconds = since(t0);
    if (opt_.on_end) opt_.on_end(g_);
    return st_;
  }

  // Knuth's estimator of a tree's size (Knuth, "Estimating the efficiency
  // of backtrack programs", 1975; GenMC estimates this way): n walks from
  // the root, each taking one child at random at every node; a walk that
  // ends in an execution counts the product of the numbers of children it
  // met, one that ends in no execution counts 0. The mean is an unbiased
  // estimate of the number of executions.
  double estimate(unsigned n, std::uint64_t seed) {
    nt_ = prog_.threads();
    if (nt_ > kMaxThreads || n == 0) return 0;
    init_symmetry();
    rng_ = seed | 1;
    probing_ = true;
    double sum = 0;
    for (unsigned k = 0; k < n; k++) {
      st_ = stats{};
      work_.clear();
      weight_ = 1;
      item root;
      root.g.th.resize(nt_);
      work_.push_back(std::move(root));
      while (!work_.empty() && !st_.failed) {
        item it = std::move(work_.back());
        work_.pop_back();
        execute(it);
      }
      if (st_.executions() > 0 || st_.failed) sum += weight_;
    }
    probing_ = false;
    st_ = stats{};
    return sum / n;
  }

  // --- runtime (called by the backend) -------------------------------------

  // A location is named by who created it (setup, a thread, finish) and
  // its rank among that creator's, the same in every execution that
  // creates it; its key is a small integer given to that name once, in the
  // order names are first met (an event names the key's index among the
  // keys in use: used()).
  std::uint32_t new_loc(std::uint64_t init) override {
    int creator = phase_ == phase::setup ? 0 : phase_ == phase::run ? cur_ + 1 : nt_ + 1;
    std::uint32_t rank = made_[creator]++;
    if (keys_[creator].size() == rank) name(creator);
    std::uint32_t key = keys_[creator][rank];
    vals_[key] = {init, init};
    return key;
  }

  std::uint64_t access(const request& q) override {
    if (!order_overrides.empty()) {  // order advice's runs only
      request f;
      if (const request& fq = with_override(q, f); &fq != &q) return perform(fq);
    }
    return perform(q);
  }
  std::uint64_t perform(const request& q) {
    if (phase_ != phase::run) return direct(q);
    th& me = ths_[cur_];
    auto& evs = g_.th[cur_];
    if (me.pos < evs.size()) {  // replay, in an order of po ∪ rf (see execute)
      while (!ready(evs[me.pos])) {
        me.state = ts::waiting;
        yield_to_main();
      }
      const event& e = g_.th[cur_][me.pos];
      if (lb_graph_ && (e.what != q.what || keys_used_[e.loc] != q.loc || e.a1 != q.a1 ||
                        e.a2 != q.a2))
        rewrite_or_discard(q);
      if (e.what != q.what || keys_used_[e.loc] != q.loc ||
          (q.what == op::store && e.wval != q.a1))
        fail_here("explore: the program is not deterministic (replay diverged at thread " +
                  std::to_string(cur_) + " event " + std::to_string(me.pos) + ")");
    } else {
      if (evs.size() >= opt_.max_events) {
        me.state = ts::cut;
        yield_to_main();
        std::abort();  // never resumed
      }
      if (opt_.retry_assume && opt_.read_spins) retry_block(me, q);
      me.req = q;
      me.state = ts::pending;
      yield_to_main();  // the engine adds the event (g_ is then another graph)
    }
    const event& e = g_.th[cur_][me.pos++];
    if (opt_.on_access && solo_ == nullptr) opt_.on_access(cur_, e, q);
    std::uint64_t v = e.rval;
    after(me, e, q);
    return v;
  }

  // A weak CAS's choice (runtime.hpp): a choice event, explored both ways,
  // unless the thread failed spuriously with no write of its own since.
  bool fail_spuriously(const std::source_location& l) override {
    if (phase_ != phase::run) return false;
    th& me = ths_[cur_];
    if (me.spurious_at == me.writes + 1) return false;
    request q;
    q.what = op::choice;
    q.site = site_of(l);
    q.where = l;
    bool v = perform(q) != 0;
    // A spurious failure is news to the read-repeat check (after()): its
    // load may read the write the last try read, yet the next try differs.
    // So is it to spin(): a retry loop that pauses after it must try again.
    if (v) me.spurious_at = me.writes + 1, spurious_run_ = true, ++me.fresh, me.pause_news = true;
    return v;
  }

  void spin() override {
    if (phase_ != phase::run) return;
    th& me = ths_[cur_];
    const bool news = std::exchange(me.pause_news, false);
    if (me.writes == me.window && !news) {
      me.iter = me.wfrom;
      me.loop = me.wloop;
      me.state = ts::blocked;
      blocked_now_ |= 1u << cur_;
      yield_to_main();
    }
    me.window = me.writes;
    me.wfrom = me.pos;
    me.wloop = true;
  }

  void op_boundary() override {
    if (phase_ != phase::run) return;
    th& me = ths_[cur_];
    me.window = me.writes;
    me.wfrom = me.pos;
    me.wloop = false;
    me.pause_news = false;
    me.sites.clear();
  }

  [[noreturn]] void fail(const std::string& what) override { fail_here(what); }

  const graph* finished() const override { return phase_ == phase::finish ? &g_ : nullptr; }
  eid place() const override {
    if (phase_ != phase::run) return {};
    return {static_cast<std::int16_t>(cur_), static_cast<std::int32_t>(ths_[cur_].pos)};
  }
  std::uint32_t graph_loc(std::uint32_t key) const override {
    return key < used_of_.size() && used_of_[key] != kUnused ? used_of_[key] : kNoGraphLoc;
  }
  std::uint64_t initial(std::uint32_t key) const override { return vals_[key].init; }
  void readable(std::uint32_t key, eid at,
                std::vector<std::pair<int, std::uint64_t>>& out) override {
    out.clear();
    if (phase_ != phase::finish || at.init()) return;
    std::uint32_t loc = graph_loc(key);
    if (loc == kNoGraphLoc) {  // no event touched it: its initial value only
      out.emplace_back(0, vals_[key].init);
      return;
    }
    if (!clocked()) return;  // po ∪ rf cyclic: not a consistent graph (cannot happen here)
    co_interval r = explore::readable(clocked_, obs_checker_, at.t, at.i, loc);
    auto ws = g_.writes(loc);
    const bool porf = !has_lb(opt_.m) && r.hi > r.lo;  // LB and C11: po ∪ rf cycles allowed
    if (porf && porf_for_ != finishes_) {
      if (!porf_clocks(g_, porf_)) return;  // cannot happen (RC11, SC)
      porf_for_ = finishes_;
    }
    for (int k = r.lo; k <= r.hi; k++) {
      if (k > r.lo && porf && explore::porf_after(porf_, ws[k - 1], at.t, at.i)) continue;
      out.emplace_back(k, k == 0 ? vals_[key].init : g_.at(ws[k - 1]).wval);
    }
  }
  bool finished_sc() override { return phase_ == phase::finish && sc_now(); }
  std::uint32_t sc_step(eid e) const override { return sc_checker_.sc_step(e); }
  bool finished_hb(eid a, eid b) override {
    return phase_ == phase::finish && clocked() && obs_checker_.hb(a, b);
  }

 private:
  enum class phase { setup, run, finish };
  enum class ts : std::uint8_t { running, waiting, pending, done, blocked, cut, failed };

  struct site_rec {
    std::uintptr_t site;
    std::uint32_t loc;
    eid rf;
    std::uint64_t writes, fresh;
    std::size_t pos;  // the read's index in the thread's po
  };
  struct th {
    boost::context::detail::fcontext_t ctx = nullptr;
    ts state = ts::running;
    std::size_t pos = 0;  // next event of the graph to replay
    request req;          // the pending new access
    std::uint64_t writes = 0, window = 0, fresh = 0;
    std::size_t wfrom = 0;  // where the spin window began (po index)
    std::size_t iter = 0;   // blocked: where its repeating iteration began
    std::uint64_t spurious_at = 0;  // writes + 1 at its last spurious failure (0: none)
    // since its last spin_pause: a spurious failure, or a failed CAS that read
    // a write new to its line (the loop's next try differs; spin() then passes)
    bool pause_news = false;
    // wfrom is a loop's start (a spin_pause passed in this operation), and
    // blocked: iter is (see loop_iter()).
    bool wloop = false, loop = false;
    // blocked by options::retry_assume: a failed try, not a wait (no
    // in-place revisit, and stale_block() judges its last read only).
    bool retry = false;
    std::vector<site_rec> sites;
  };
  // model::lb: thread t's promise to write v to loc, made where its
  // events are base's (lb_revisit()).
  struct promise {
    graph base;
    int t = 0;
    std::uint32_t loc = 0;
    std::uint64_t v = 0;
  };
  struct item {
    graph g;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> path;  // (step, child), child > 0
    std::uint32_t step = 0;
    eid rmw_revisit;  // an RMW whose revisits are still to be made
  };
  struct locval {
    std::uint64_t init, cur;
  };

  // --- one execution ---------------------------------------------------------

  // Does an execution whose path has depth entries count here? (A shard
  // counts only below the depth where shards split; see mine().)
  bool counts_at(std::size_t depth) const {
    return opt_.shards <= 1 || opt_.shard == 0 || probing_ || depth >= kShardDepth;
  }

  void execute(item& it) {
    if (opt_.m == model::lb && solo_ == nullptr &&
        !promises_certified(it.g)) {
      st_.uncertified += counts_at(it.path.size());
      return;
    }
    // g_ takes the item's graph; g_'s old buffers go to the spares.
    std::swap(g_, it.g);
    keep_spare(std::move(it.g));
    path_ = std::move(it.path);
    counting_ = counts_at(path_.size());
    step_ = it.step;
    made_.assign(nt_ + 2, 0);
    keys_.resize(nt_ + 2);
    ths_.resize(nt_);
    for (auto& x : ths_) {  // fresh, keeping the sites' buffers
      auto sites = std::move(x.sites);
      sites.clear();
      x = th{};
      x.sites = std::move(sites);
    }
    phase_ = phase::setup;
    current = this;
    direct_n_ = 0;
    discarded_ = false;
    spurious_run_ = false;
    lb_graph_ = false;
    if (has_lb(opt_.m))
      for (auto& tv : g_.th)
        for (const event& x : tv) lb_graph_ |= x.lb;
    blocked_now_ = 0;
    bool ok = guarded([&] { prog_.setup(); });
    phase_ = phase::run;
    stacks_.resize(nt_);
    for (int t = 0; t < nt_ && ok; t++) {
      if (!stacks_[t]) stacks_[t] = std::make_unique_for_overwrite<char[]>(kStack);  // not zeroed
      ths_[t].ctx =
          boost::context::detail::make_fcontext(stacks_[t].get() + kStack, kStack, &entry);
      starting_ = t;
      resume(t);
    }
    // Replay in an order of po ∪ rf, a read after the write it reads: state
    // a port keeps outside B (a container under B::mutex) then sees the
    // same sequence of critical sections as when the events were added.
    for (bool progress = true; progress && ok;) {
      progress = false;
      for (int t = 0; t < nt_; t++)
        if (ths_[t].state == ts::waiting && ready(g_.th[t][ths_[t].pos]))
          resume(t), progress = true;
    }
    if (ok && lb_graph_ && (discarded_ || !replayed_all())) {
      st_.diverged += counting_ && solo_ == nullptr;
      ok = false;
    }
    if (solo_ != nullptr) {  // certified(): thread solo_->t alone from here
      solo_ok_ = ok && solo_run();
      ok = false;
    }
    for (int t = 0; t < nt_ && ok; t++)
      if (ths_[t].state != ts::failed && ths_[t].pos != g_.th[t].size())
        ok = failure("explore: replay did not reach the graph's end (thread " + std::to_string(t) +
                     ")");
    if (ok && !it.rmw_revisit.init()) ok = rmw_node(it.rmw_revisit);
    while (ok && !st_.failed) {
      if (blocked_now_ != 0 && stale_block()) {
        st_.stale += counting_;
        break;
      }
      int t = 0;
      while (t < nt_ && ths_[t].state != ts::pending) t++;
      if (t == nt_) {
        finish_execution();
        break;
      }
      if (!step()) break;  // the execution goes on elsewhere, or stops
    }
    guarded([&] { prog_.teardown(); });
    current = nullptr;
  }

  void finish_execution() {
    ends_++;
    // A plain failure's execution, met with a choice of 0: dropped unjudged.
    if (spurious_run_ && misread_spurious()) {
      st_.spurious_dups += counting_;
      return;
    }
    bool blocked = false, cut = false;
    for (auto& x : ths_) blocked |= x.state == ts::blocked, cut |= x.state == ts::cut;
    if (!cut && sym_on_ && !sym_ok(g_, true)) {  // not its class's canonical member
      st_.sym_leaves += counting_;
      return;
    }
    bool first = false;  // hash_graphs: the graph is met for the first time
    std::uint64_t h = 0;
    if (opt_.hash_graphs && !cut && counting_) {
      h = opt_.canonical      ? canon_hash(g_)
          : opt_.lock_classes ? lock_class_hash(g_)
                              : hash(g_);
      first = seen_.insert(h).second;
      st_.duplicates += !first;
    }
    if (opt_.trace != nullptr) {
      // A run whose blocked threads all wait for good ends there (waits_end):
      // judged, it is complete.
      bool ends = blocked && opt_.waits_end && all_wait_for_good();
      std::fprintf(opt_.trace, "execution %llu (%s), path %s",
                   static_cast<unsigned long long>(st_.executions()),
                   cut                ? "cut"
                   : blocked && !ends ? "blocked"
                                      : "complete",
                   path_text(path_).c_str());
      if (opt_.hash_graphs)
        std::fprintf(opt_.trace, ", hash %016llx", static_cast<unsigned long long>(h));
      std::fprintf(opt_.trace, "\n");
      print(opt_.trace, g_);
    }
    // options::also_sc: SC's too?
    const bool sc = opt_.also_sc && counting_ && sc_now();
    if (cut) {
      st_.cut += counting_;
      st_.sc_cut += sc;
      return;
    }
    if (blocked) {
      bool for_good = all_wait_for_good();
      st_.for_good += for_good && counting_;
      if (for_good && !opt_.waits_end && counting_) {
        std::string who;
        for (int t = 0; t < nt_; t++)
          if (ths_[t].state == ts::blocked) who += (who.empty() ? "" : ", ") + std::to_string(t);
        failure("explore: thread " + who + " waits for good (a deadlock or livelock: its last "
                "iteration read only the newest writes, and no thread is left to write more)");
        return;
      }
      if (!for_good || !opt_.waits_end) {
        st_.blocked += counting_;
        st_.sc_blocked += sc;
        return;
      }
    }
    phase_ = phase::finish;
    finishes_++;
    // Every location of this execution holds its value after setup (the
    // threads' accesses went to the graph): the written ones take their
    // co-last write's.
    g_.co.each([&](std::uint32_t loc, std::span<const eid> ws) {
      if (!ws.empty()) slot(keys_used_[loc]).cur = g_.at(ws.back()).wval;
    });
    if (!guarded([&] { prog_.finish(); })) return;
    st_.complete += counting_;
    st_.sc_complete += sc;
    if (first) st_.hashes.push_back(h);  // complete graphs only (judged by finish())
    if (first && sc) st_.sc_hashes.push_back(h);
  }

  // Did a weak CAS's spurious failure read a value other than the expected
  // one? Then it failed as the CAS would have (explored with a choice of 0).
  bool misread_spurious() const {
    for (const auto& tv : g_.th)
      for (const event& e : tv)
        if (e.spurious && e.rval != e.a1) return true;
    return false;
  }

  // Does every blocked thread wait for good? (finish_execution's question.)
  bool all_wait_for_good() const {
    for (int t = 0; t < nt_; t++)
      if (ths_[t].state == ts::blocked && !waits_for_good(t)) return false;
    return true;
  }
  // Blocked thread t's last iteration read only co-last writes.
  bool waits_for_good(int t) const {
    const th& me = ths_[t];
    for (std::size_t i = me.iter; i < me.pos; i++) {
      const event& e = g_.th[t][i];
      if (!e.reads()) continue;
      auto ws = g_.writes(e.loc);
      if (!(e.rf == (ws.empty() ? eid{} : ws.back()))) return false;
    }
    return true;
  }

  template <class F>
  bool guarded(F&& f) {
    try {
      f();
      return true;
    } catch (stop_thread&) {
      return false;
    }
  }

  static constexpr std::size_t kStack = 256 * 1024;
  // What an engine hands on to the next (see the constructor). An engine
  // owns what it took while it lives: one made meanwhile (nested) starts
  // empty, and the first to end hands its own on.
  struct handed_on {
    std::vector<graph> spares;
    std::vector<std::unique_ptr<char[]>> stacks;
  };
  static handed_on& kept() {
    static thread_local handed_on k;
    return k;
  }
  // SC: from this many writes at the new event's location its candidates
  // are judged by prepare_sc()'s clocks, not a walk each (docs/explore.md).
  static constexpr std::size_t kPrepareSc = 8;

  // A thread's first code: runs the program's thread, then hands back for
  // good (its context is never resumed again).
  static void entry(boost::context::detail::transfer_t from) {
    auto* self = static_cast<engine*>(from.data);
    self->main_ = from.fctx;
    int t = self->starting_;
    try {
      self->prog_.run(t);
      self->ths_[t].state = ts::done;
    } catch (stop_thread&) {
    }
    self->yield_to_main();
    std::abort();  // never resumed
  }
  // Has the write e reads been replayed?
  // (A read of a promise: at once, its value is known.)
  bool ready(const event& e) const {
    return !e.reads() || e.rf.init() || e.lb ||
           ths_[e.rf.t].pos > static_cast<std::size_t>(e.rf.i);
  }

  void resume(int t) {
    int prev = cur_;
    cur_ = t;
    ths_[t].state = ts::running;
    auto r = boost::context::detail::jump_fcontext(ths_[t].ctx, this);
    ths_[t].ctx = r.fctx;
    cur_ = prev;
  }
  void yield_to_main() { main_ = boost::context::detail::jump_fcontext(main_, nullptr).fctx; }

  [[noreturn]] void fail_here(const std::string& what) {
    failure(what);
    if (phase_ == phase::run) ths_[cur_].state = ts::failed;
    throw stop_thread{};
  }
  bool failure(const std::string& what) {
    if (solo_ != nullptr) return false;  // a certification run reports nothing
    if (!st_.failed) {
      st_.failed = true;
      st_.failure = what;
      st_.path = path_text(path_);
    }
    return false;
  }

  locval& slot(std::uint32_t key) { return vals_[key]; }
  // A key for the creator's next name (once a run: kept out of new_loc's
  // fast path).
  [[gnu::noinline]] void name(int creator) {
    key_from_.push_back({creator, static_cast<std::uint32_t>(keys_[creator].size())});
    keys_[creator].push_back(static_cast<std::uint32_t>(vals_.size()));
    vals_.emplace_back();
  }
  // An event's location: not its key but the index of the key among those
  // the threads have accessed, given once, in the order first met (the
  // graph's loc_lists then span these only: a few of the program's
  // locations).
  std::uint32_t used(std::uint32_t key) {
    if (key >= used_of_.size()) used_of_.resize(key + 1, kUnused);
    if (used_of_[key] == kUnused) {
      used_of_[key] = static_cast<std::uint32_t>(keys_used_.size());
      keys_used_.push_back(key);
    }
    return used_of_[key];
  }

  // Accesses before and after the threads: sequential, on the values as
  // they stand (after: each location's co-last write).
  std::uint64_t direct(const request& q) {
    // No other thread runs here to change what a spin waits for: a loop is
    // one that never ends, not a blocked execution (a port's own lock taken
    // and kept, spun on by setup's next operation).
    // A guard's unlock while a failure unwinds (check() failing under its lock) must
    // not throw again: that would end the process (std::terminate).
    const bool unwinding = std::uncaught_exceptions() > 0;
    if (++direct_n_ > kMaxDirect && !unwinding)
      fail_here("explore: the sequential part before or after the threads made over " +
                std::to_string(kMaxDirect) + " accesses: a spin that no thread can end");
    if (q.what == op::fence || q.what == op::choice) return 0;
    locval& l = slot(q.loc);
    std::uint64_t v = l.cur;
    if (q.what == op::store) {
      l.cur = q.a1;
    } else if (q.what != op::load) {
      event e;
      e.what = q.what;
      e.a1 = q.a1;
      e.a2 = q.a2;
      e.bytes = q.bytes;
      settle(e, v);
      if (e.kind == ek::rmw)
        l.cur = e.wval;
      else if (q.what == op::lock && !unwinding)
        fail_here("explore: lock() on a taken lock outside the threads");
    }
    if (phase_ == phase::setup) l.init = l.cur;
    if (phase_ == phase::finish && opt_.on_final) opt_.on_final(q, v, l.cur);
    return v;
  }

  // After an access (new or replayed): the thread's write count, a lock it
  // did not get, a read that repeats the thread's last iteration.
  void after(th& me, const event& e, const request& q) {
    if (e.writes()) me.writes++;
    if (e.what == op::lock && e.kind == ek::read) block(me, me.pos - 1);
    // A plain read (B::var) is no loop's guard: its line may not be the
    // access's (a C port's RUNQCHECK_PLAIN read names the field's
    // declaration), and a loop on one is cut at max_events.
    if (!e.reads() || e.kind == ek::rmw || q.plain || !opt_.read_spins) return;
    for (auto& s : me.sites) {
      if (s.site != q.site) continue;
      if (s.loc == e.loc && s.rf == e.rf && s.writes == me.writes) {
        if (s.fresh == me.fresh) block(me, s.pos);  // nothing new since: a repeated iteration
        s.fresh = me.fresh;
        s.pos = me.pos - 1;
        return;
      }
      s = {q.site, e.loc, e.rf, me.writes, ++me.fresh, me.pos - 1};
      me.pause_news |= e.what == op::cas;
      return;
    }
    me.sites.push_back({q.site, e.loc, e.rf, me.writes, ++me.fresh, me.pos - 1});
    // A failed CAS that read a write new to its line is news to spin() too:
    // compare_exchange hands the loop that value, whose next try may succeed;
    // a try that reads the same write again blocks here, as a repeat.
    me.pause_news |= e.what == op::cas;
  }
  // options::retry_assume: blocks the thread before new load q if it read
  // q's location at q's line before in this operation and wrote nothing
  // since (the try since failed). Not added: as GenMC's assume, the blocked
  // thread's last events are its failed try's. A load only: a CAS loop that
  // retries with the value its failed CAS read (C++'s compare_exchange
  // idiom) carries that value into its next try, which then succeeds; so it
  // is no try that restarts from scratch (acme::workq's runqput: a false
  // wait for good when the CAS was blocked too).
  void retry_block(th& me, const request& q) {
    if (q.plain || q.what != op::load) return;
    const std::uint32_t loc = graph_loc(q.loc);
    for (const auto& s : me.sites)
      if (s.site == q.site && s.loc == loc && s.writes == me.writes) block(me, s.pos, true);
  }
  // Blocks the thread; its repeating iteration began at po index from
  // (retry: a failed try of options::retry_assume's).
  void block(th& me, std::size_t from, bool retry = false) {
    me.iter = from;
    me.loop = true;
    me.retry = retry;
    me.state = ts::blocked;
    blocked_now_ |= 1u << cur_;
    yield_to_main();
    std::abort();  // never resumed
  }

  // --- adding events -----------------------------------------------------------

  // A node of the exploration tree: its children, the first applied here,
  // the others queued. In replay mode only the chosen one is kept. A
  // forward child is the parent (g_) plus one event, made a graph of its
  // own only when it is queued: most nodes have one child.
  enum class ck : std::uint8_t { same, fwd, whole };
  // Built by its constructors, not zeroed whole (a child is made per
  // candidate; zeroing its graph and event was two fifths of add()).
  struct child {
    child(ck k, int t) : kind(k), thread(t) {}
    child(const event& x, std::ptrdiff_t a, eid r, int t)
        : kind(ck::fwd), e(x), at(a), rmw(r), thread(t) {}
    ck kind = ck::whole;
    std::optional<graph> g;  // whole: a revisit's graph
    event e;                 // fwd: the new event, at the end of thread's po
    std::ptrdiff_t at = -1;  // fwd: its place in its location's co, or -1
    eid rmw;                 // an RMW child: its revisits are made when it runs
    int thread = 0;          // whose event was added
    bool rerun = false;      // a revisit: the program must re-run to reach it
  };
  // Appends a child to kids (built in place: a child is large).
  static void fwd_child(std::vector<child>& kids, const event& e, std::ptrdiff_t at, eid rmw,
                        int t) {
    kids.emplace_back(e, at, rmw, t);
  }
  static void whole_child(std::vector<child>& kids, graph&& g, int t, eid rmw = {}) {
    child& c = kids.emplace_back(ck::whole, t);
    c.g.emplace(std::move(g));
    c.rmw = rmw;
    c.rerun = true;
  }
  // g (the parent graph) becomes child c's graph.
  static void apply(graph& g, child& c) {
    if (c.kind == ck::whole) {
      g = std::move(*c.g);
    } else if (c.kind == ck::fwd) {
      const event& y = c.e;
      push_event(g, c.thread, y);
      eid id{static_cast<std::int16_t>(c.thread),
             static_cast<std::int32_t>(g.th[c.thread].size() - 1)};
      if (y.kind != ek::fence) g.add_access(y.loc, id);
      if (c.at >= 0) g.co.insert(y.loc, static_cast<std::size_t>(c.at), id);
    }
  }
  // Child c as a graph of its own (g_ is its parent).
  graph materialize(child& c) {
    if (c.kind == ck::whole) return std::move(*c.g);
    graph g = copy_of(g_);
    apply(g, c);
    return g;
  }

  // Graphs no longer used, kept for their buffers: a copy made into one
  // (copy assignment reuses each vector's capacity) seldom allocates.
  // Every queued child is such a copy, and every executed item hands its
  // old buffers back (execute()).
  static constexpr std::size_t kSpares = 64;
  static constexpr std::size_t kEvents = 32;  // a thread's events' first room (push_event)
  graph spare() {
    if (spares_.empty()) return {};
    graph g = std::move(spares_.back());
    spares_.pop_back();
    return g;
  }
  void keep_spare(graph&& g) {
    if (spares_.size() < kSpares && g.th.capacity() != 0) spares_.push_back(std::move(g));
  }
  // Hands g to the spares when it goes out of scope (unless moved away).
  struct spare_at_exit {
    engine& e;
    graph& g;
    ~spare_at_exit() { e.keep_spare(std::move(g)); }
  };
  // A copy of g, made in a spare's buffers.
  graph copy_of(const graph& g) {
    graph h = spare();
    h = g;
    return h;
  }

  // Adds the next event: the lowest pending thread's (naive: any pending
  // thread's). False: this execution stops here (its chosen child runs
  // later, from the queue; or none is consistent; or a failure).
  bool step() {
    auto& kids = kids_;  // reused: no allocation once warm
    kids.clear();
    for (int t = 0; t < nt_; t++) {
      if (ths_[t].state != ts::pending) continue;
      if (!add(t, kids)) return false;
      if (!opt_.naive) break;
    }
    if (opt_.naive) {  // each partial graph once: it fixes every thread's state
      for (auto& c : kids) {
        c.g = materialize(c);
        c.kind = ck::whole;
      }
      std::erase_if(kids, [&](const child& c) { return !visited_.insert(hash(*c.g)).second; });
      if (kids.empty()) return false;
    }
    if (kids.empty()) return dead();
    int next = kids.front().thread;
    bool go = branch(kids, [&](child& c) {
      apply(g_, c);
      if (!c.rmw.init()) return rmw_node(c.rmw);
      return true;
    });
    if (go) resume(next);
    return go;
  }

  // The event a request asks for, before its kind, place and reads-from are
  // chosen (add and solo_run).
  event from_request(const request& q) {
    event e;
    e.what = q.what;
    e.mo = q.mo;
    e.mo_fail = q.mo_fail;
    e.plain = q.plain;
    e.spurious = q.spurious;
    e.loc = used(q.loc);
    e.a1 = q.a1;
    e.a2 = q.a2;
    e.bytes = q.bytes;
    return e;
  }

  // Appends to kids the ways to add thread t's pending access. False: a
  // failure (a data race).
  bool add(int t, std::vector<child>& kids) {
    bool rev = !opt_.naive;
    const request& q = ths_[t].req;
    event e = from_request(q);
    e.stamp = g_.next_stamp;
    eid id{static_cast<std::int16_t>(t), static_cast<std::int32_t>(g_.th[t].size())};
    // Each candidate is tried on g_ itself (the event appended, placed in
    // co) and undone; only consistent ones are copied.
    auto place = [&](const event& x, std::ptrdiff_t at) {
      push_event(g_, t, x);
      if (at >= 0) g_.co.insert(e.loc, static_cast<std::size_t>(at), id);
    };
    auto undo = [&](std::ptrdiff_t at) {
      g_.th[t].pop_back();
      g_.next_stamp--;
      if (at >= 0) g_.co.erase(e.loc, id);
    };
    // The candidates' checks need the event in g_.acc only where a
    // revisit cuts the graph (restrict()). Under SC, with many writes to
    // choose among, they look up what reaches what in g_ as it is now.
    if (opt_.m == model::sc && q.what != op::fence &&
        g_.writes(used(q.loc)).size() >= kPrepareSc)
      checker_.prepare_sc(g_);
    struct unprep {
      checker& c;
      ~unprep() { c.unprepare(); }
    } done{checker_};
    if (q.what == op::fence || q.what == op::choice) {
      e.kind = ek::fence;  // a choice: two children, 0 (no spurious failure) then 1
      for (std::uint64_t v = 0; v < (q.what == op::choice ? 2u : 1u); v++) {
        e.rval = v;
        place(e, -1);
        if (checker_.consistent(g_, opt_.m, id)) fwd_child(kids, g_.at(id), -1, {}, t);
        undo(-1);
      }
    } else if (q.what == op::store) {
      e.kind = ek::write;
      e.wval = q.a1;
      auto n = static_cast<std::ptrdiff_t>(g_.writes(e.loc).size());
      bool awaited = awaits(t, e.loc);
      for (std::ptrdiff_t p = n; p >= 0; p--) {  // co-last first
        place(e, p);
        bool ok = checker_.consistent(g_, opt_.m, id);
        if (ok && !race_free(g_, id, kids.size())) return false;
        ok = ok && sym_kept(g_);
        if (ok && !(awaited && ipr_child(kids, id, {}))) fwd_child(kids, g_.at(id), p, {}, t);
        if (st_.failed) return false;
        undo(p);
      }
      if (rev) {  // from the co-last place: where the revisits start
        place(e, n);
        g_.add_access(e.loc, id);
        revisits(g_, id, kids);
        g_.acc.erase(e.loc, id);
        undo(n);
      }
    } else {
      auto co = g_.writes(e.loc);
      auto& cands = cands_;  // reused: place() moves co's array
      cands.assign(co.rbegin(), co.rend());  // co-last first
      cands.push_back(eid{});
      std::vector<graph> late;  // RMWs whose write has no consistent place
      // A lock() that fails on a stale write blocks stale (stale_block()).
      bool skip_stale_locks = q.what == op::lock && opt_.ipr && rev;
      bool awaited = awaits(t, e.loc);
      for (eid w : cands) {
        event x = e;
        x.rf = w;
        settle(x, g_.value(w, slot(q.loc).init));
        if (skip_stale_locks && x.kind == ek::read && !(w == cands.front())) {
          st_.stale += counting_;
          continue;
        }
        std::ptrdiff_t at = -1;
        if (x.kind == ek::rmw) at = g_.co.index(e.loc, w);
        place(x, at);
        bool ok = checker_.consistent(g_, opt_.m, id);
        if (ok && !race_free(g_, id, kids.size())) return false;
        bool kept = ok && sym_kept(g_);  // dropped: its subtree with it
        eid rmw = x.kind == ek::rmw && rev ? id : eid{};
        if (kept && !(x.kind == ek::rmw && awaited && ipr_child(kids, id, rmw)))
          fwd_child(kids, g_.at(id), at, rmw, t);
        if (st_.failed) return false;
        // TruSt adds an RMW's read, then its write: a write with no
        // consistent place in co still revisits (another RMW that read
        // the same write may read this one instead).
        bool keep = !ok && x.kind == ek::rmw && rev;
        undo(at);
        if (keep && read_part_consistent(x, t)) {  // copied only then: placed again
          place(x, at);
          checker_.consistent(g_, opt_.m, id);  // false again; sets its clocks, as above
          late.push_back(copy_of(g_));
          late.back().add_access(e.loc, id);
          undo(at);
        }
      }
      for (const graph& g : late) revisits(g, id, kids);
    }
    return !st_.failed;
  }

  // Is g_ plus the read part of RMW x consistent? (The read reads with the
  // success order's read half.)
  bool read_part_consistent(const event& x, int t) {
    graph& g = g_;  // tried in place, as add()'s candidates are
    event y = x;
    y.kind = ek::read;
    y.what = op::load;
    auto m = static_cast<std::memory_order>(x.mo);
    if (m == std::memory_order::release) m = std::memory_order::relaxed;
    if (m == std::memory_order::acq_rel) m = std::memory_order::acquire;
    y.mo = static_cast<std::uint8_t>(m);
    push_event(g, t, y);
    eid id{static_cast<std::int16_t>(t), static_cast<std::int32_t>(g.th[t].size() - 1)};
    bool ok = checker_.consistent(g, opt_.m, id);
    g.th[t].pop_back();
    g.next_stamp--;
    return ok;
  }

  // The revisits an RMW's write makes: a node of its own (its first child:
  // no revisit).
  bool rmw_node(eid id) {
    auto& kids = rmw_kids_;
    kids.clear();
    kids.emplace_back(ck::same, id.t);
    revisits(g_, id, kids);
    if (kids.size() == 1) {
      step_++;
      return true;
    }
    return branch(kids, [&](child& c) {
      apply(g_, c);
      return true;
    });
  }

  // Applies child 0 (or, replaying, the chosen child) and queues the rest.
  template <class Apply>
  bool branch(std::vector<child>& kids, Apply&& apply) {
    std::uint32_t s = step_++;
    std::size_t pick = 0;
    if (probing_) {  // one child at random (xorshift64)
      rng_ ^= rng_ << 13, rng_ ^= rng_ >> 7, rng_ ^= rng_ << 17;
      pick = static_cast<std::size_t>(rng_ % kids.size());
      weight_ *= static_cast<double>(kids.size());
      kids.erase(kids.begin() + static_cast<std::ptrdiff_t>(pick) + 1, kids.end());
    } else if (replaying()) {
      for (auto& [ps, pc] : replay_)
        if (ps == s) pick = pc;
      if (pick >= kids.size())
        return failure("explore: replay path does not fit (step " + std::to_string(s) + ")");
      kids.erase(kids.begin() + static_cast<std::ptrdiff_t>(pick) + 1, kids.end());
      if (opt_.trace != nullptr) std::fprintf(opt_.trace, "node %u: child %zu\n", s, pick);
    }
    bool here = pick == 0 && !kids[0].rerun;  // applied in this run
    for (std::size_t k = kids.size(); k-- > 0;) {
      if ((k == pick && here) || ((replaying() || probing_) && k != pick)) continue;
      item it;
      it.g = materialize(kids[k]);
      it.path = path_;
      it.path.push_back({s, static_cast<std::uint32_t>(k)});
      it.step = s + 1;
      it.rmw_revisit = kids[k].rmw;
      if (mine(it)) work_.push_back(std::move(it));
    }
    if (!here) return false;
    return apply(kids.front());
  }
  bool replaying() const { return !opt_.replay.empty(); }

  // Sharding: an execution's path is its item's (the first child is taken
  // in place). Items whose path is shorter than kShardDepth are explored by
  // every shard alike, their executions counted in shard 0; those of
  // length kShardDepth, queued only by the former and so in the same order
  // in every shard, are dealt out in turn: each subtree is one shard's.
  static constexpr std::size_t kShardDepth = 2;
  bool mine(const item& it) {
    if (opt_.shards <= 1 || probing_ || replaying() || it.path.size() != kShardDepth) return true;
    st_.split = true;
    return dealt_++ % opt_.shards == opt_.shard;
  }
  static double since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }

  // e at the end of thread t's po (not in g.acc: see add() and apply()).
  [[gnu::always_inline]] static void push_event(graph& g, int t, const event& e) {
    g.any_sc |= is_sc(e.mo) || is_sc(e.mo_fail);
    auto& v = g.th[t];
    if (v.size() == v.capacity()) [[unlikely]]
      grow(v);
    v.push_back(e);
    g.th[t].back().stamp = g.next_stamp++;
  }

  // Room for many more events: a copy's vector has just its size, and
  // growing it by doubling from there reallocated on most graphs' first
  // new event.
  [[gnu::noinline]] static void grow(std::vector<event>& v) {
    v.reserve(std::max<std::size_t>(kEvents, 2 * v.size()));
  }

  // No consistent way to go on (a fence closing a psc cycle): the
  // execution is dropped, as an inconsistent graph is.
  bool dead() {
    st_.dead++;
    return false;
  }

  // A data race on a new event of a consistent graph (child k of the node
  // being built) fails the run.
  bool race_free(const graph& g, eid id, std::size_t k) {
    eid o = checker_.race(id);
    if (o.init()) return true;
    const event& e = g.at(id);
    failure("data race: thread " + std::to_string(id.t) + " event " + std::to_string(id.i) + " (" +
            (e.writes() ? "write" : "read") + ", " + (e.plain ? "plain" : "atomic") +
            ") and thread " + std::to_string(o.t) + " event " + std::to_string(o.i) + " (" +
            (g.at(o).writes() ? "write" : "read") + ", " + (g.at(o).plain ? "plain" : "atomic") +
            "), unordered by happens-before");
    if (k > 0) {
      auto p = path_;
      p.push_back({step_, static_cast<std::uint32_t>(k)});
      st_.path = path_text(p);
    }
    return false;
  }

  // --- backward revisits (TruSt, Algorithm 2 and its maximality condition) ---

  using prefix_len = std::array<std::int32_t, kMaxThreads>;  // a length per thread

  // g holds write w (a store co-last, or an RMW). Each earlier read r of its
  // location outside w's po ∪ rf prefix may read w instead, keeping the
  // events added up to r and w's prefix, if r and every event deleted were
  // added maximally. Each result (for each consistent co place of a store)
  // is appended to kids.
  void revisits(const graph& g, eid w, std::vector<child>& kids) {
    const event& we = g.at(w);
    // w is the last of its thread: a read of another thread, or none to revisit.
    auto acc = g.acc.of(we.loc);
    if (std::none_of(acc.begin(), acc.end(), [&](eid r) { return r.t != w.t && g.at(r).reads(); }))
      return;
    prefix_len plen{};  // w's po ∪ rf prefix, per thread
    prefix(g, w, plen);
    for (eid rid : acc) {  // by thread, then po
      const event& r = g.at(rid);
      if (!r.reads() || rid == w) continue;
      if (r.stamp > we.stamp) continue;  // added after w (revisited in place by it)
      if (rid.i < plen[rid.t]) {  // in w's prefix: only a promise can be read
        if (has_lb(opt_.m)) lb_revisit(g, w, rid, plen, kids);
        continue;
      }
      if (!maximal(g, rid, w, plen)) continue;
      // Revisited in place where w is co-after what it read (ipr_target()):
      // an RMW's place is fixed, a store's is each one tried below.
      bool paired = opt_.ipr && ipr_target(g, rid.t, w, plen) == rid;
      auto in_place_covers = [&, old_rf = r.rf](const graph& x) {
        return paired && x.co_index(we.loc, w) > x.co_index(we.loc, old_rf);
      };
      if (we.kind == ek::rmw && in_place_covers(g)) continue;
      std::array<std::int32_t, kMaxThreads> keep{};
      for (int u = 0; u < nt_; u++) {
        std::int32_t n = 0;
        while (n < static_cast<std::int32_t>(g.th[u].size()) && g.th[u][n].stamp <= r.stamp) n++;
        keep[u] = std::max(n, plen[u]);
      }
      graph h = restrict(g, keep);
      if (h.th.empty()) continue;  // a kept read would lose its write
      spare_at_exit back{*this, h};
      event& rr = h.at(rid);
      if (rr.kind == ek::rmw) h.co.erase(rr.loc, rid);
      if (rr.kind == ek::rmw && read_by_kept(h, rid)) continue;  // its write must stay
      rr.rf = w;
      rr.lb = false;
      settle(rr, we.wval);
      st_.revisits++;
      bool now_rmw = rr.kind == ek::rmw;
      if (opt_.ipr && !(now_rmw && we.kind == ek::rmw))
        unblock_kept(h, rid, w, plen, w);
      if (we.kind == ek::rmw) {
        if (rr.kind == ek::rmw) h.co.insert_after(we.loc, w, rid);
        // r made an RMW writes co-next to w: a waiter it unblocks reads w,
        // or r's write (a second child; plain TruSt's revisit of the waiter
        // by w, or by r's write once r runs).
        graph h2;
        spare_at_exit back2{*this, h2};
        bool two = opt_.ipr && now_rmw;
        if (two) {
          h2 = copy_of(h);
          two = unblock_kept(h2, rid, w, plen, rid) > 0;
          unblock_kept(h, rid, w, plen, w);
        }
        for (graph* x : {&h, &h2}) {
          if (x == &h2 && !two) break;
          if (!checker_.consistent(*x, opt_.m)) continue;
          if (!race_free(*x, rid, kids.size())) return;
          if (!sym_kept(*x)) continue;
          eid again = rmw_of(*x, rid);
          whole_child(kids, std::move(*x), rid.t, again);
        }
        continue;
      }
      h.co.erase(we.loc, w);
      bool hb_known = false;  // h's clocks, judged at the first place (co leaves them)
      for (std::size_t p = h.writes(we.loc).size() + 1; p-- > 0;) {
        // Each place tried on h itself, copied only if consistent.
        h.co.insert(we.loc, p, w);
        if (rr.kind == ek::rmw) h.co.insert(we.loc, p + 1, rid);
        if (!hb_known && !checker_.has_clocks(h, opt_.m)) {  // po ∪ rf has a cycle: no place
          h.co.erase(we.loc, w);
          if (rr.kind == ek::rmw) h.co.erase(we.loc, rid);
          break;
        }
        hb_known = true;
        bool ok = !in_place_covers(h) && checker_.consistent(h, opt_.m, {}, we.loc);
        if (ok && !race_free(h, rid, kids.size())) return;
        if (ok && sym_kept(h)) whole_child(kids, copy_of(h), rid.t, rmw_of(h, rid));
        if (rr.kind == ek::rmw) h.co.erase(we.loc, rid);
        h.co.erase(we.loc, w);
      }
    }
  }

  // --- load buffering (model::lb) ---
  //
  // Promises after Kang, Hur, Lahav, Vafeiadis, Dreyer, "A promising
  // semantics for relaxed-memory concurrency", POPL 2017, fitted to TruSt's
  // revisits: a store w of thread T (location x, value v) may be read by a
  // read r of another thread that is in w's po ∪ rf prefix, as if T had
  // promised x = v just before r. The child keeps
  // what a plain revisit keeps (the events added up to r, w's prefix) and r
  // reads w; it is made only if
  //   - r is an atomic read (or RMW's read), not seq_cst (an acquire r
  //     reading a relaxed w synchronizes with nothing; hb is checked); w a
  //     relaxed atomic store or relaxed RMW, and T's events after r in
  //     po ∪ rf (which w overtakes) hold no acquire read, fence or seq_cst
  //     access: the reorderings compilers and ARMv8 make;
  //   - a promised RMW's read does not read r's po ∪ rf future (any model);
  //   - the graph is consistent under model::lb (hb acyclic);
  //   - promises_certified(), each time a graph holding the promise is
  //     re-run: T alone, from its events not after r in po ∪ rf, each read
  //     reading its location's co-last write, writes x = v (no
  //     out-of-thin-air value: v does not come from r); and again from
  //     each of T's events up to w (Promising's re-certification);
  //   - re-run, every thread makes again the events kept (the code after r
  //     sees the promised value; a store no event reads may write another
  //     value; else the child is dropped: diverged).
  // Not complete: a promise certified by another solo path, a release store
  // promised, a promise that changes the kept events of r's thread (dropped
  // as diverged) are not explored (docs/explore.md, which says what LB
  // admits and the argument's gap).
  // model::c11 makes every promise (any atomic r and w, nothing required of
  // T's events) uncertified: C11 as written, judged by RC11's axioms less
  // po ∪ rf acyclicity (proofs/weak's c11lb).
  void lb_revisit(const graph& g, eid w, eid rid, const prefix_len& plen,
                  std::vector<child>& kids) {
    const event& r = g.at(rid);
    const event& we = g.at(w);
    // C11 as written: any atomic r and w; hb, coherence and psc judge.
    const bool lb = opt_.m == model::lb;
    if (rid.t == w.t || r.plain || !we.writes() || we.plain) return;
    if (lb && (is_sc(read_mo(r)) || is_rel(we.mo) || is_sc(we.mo))) return;
    if (lb && we.kind == ek::rmw && (is_acq(read_mo(we)) || is_sc(read_mo(we)))) return;
    if (!maximal(g, rid, w, plen)) return;
    std::array<std::int32_t, kMaxThreads> keep{}, at_r{};
    for (int u = 0; u < nt_; u++) {
      std::int32_t n = 0;
      while (n < static_cast<std::int32_t>(g.th[u].size()) && g.th[u][n].stamp <= r.stamp) n++;
      keep[u] = std::max(n, plen[u]);
    }
    // The promise is made just before r: its graph is what the child keeps
    // less r and what follows r in po ∪ rf; T's events from there to w are
    // what w overtakes.
    porf_after(g, rid, at_r);
    // A promised RMW overtakes with its read, which must not read r's future.
    if (we.kind == ek::rmw && !we.rf.init() && we.rf.i >= at_r[we.rf.t]) return;
    for (std::int32_t i = at_r[w.t]; lb && i < w.i; i++) {
      const event& x = g.th[w.t][i];
      if (x.kind == ek::fence || is_sc(x.mo) || (x.reads() && is_acq(read_mo(x)))) return;
    }
    graph h = restrict(g, keep);
    if (h.th.empty()) return;
    event& rr = h.at(rid);
    if (rr.kind == ek::rmw) {
      if (read_by_kept(h, rid)) return;  // its write must stay where it is
      h.co.erase(rr.loc, rid);
    }
    rr.rf = w;
    rr.lb = true;
    settle(rr, we.wval);
    h.co.erase(we.loc, w);
    for (std::size_t at = h.writes(we.loc).size() + 1; at-- > 0;) {  // each place of w in co
      graph x = h;
      x.co.insert(we.loc, at, w);
      if (x.at(rid).kind == ek::rmw) x.co.insert(we.loc, at + 1, rid);
      if (!checker_.consistent(x, model::lb) || !sym_kept(x)) continue;
      st_.lb_revisits++;
      eid rmw = rmw_of(x, rid);
      whole_child(kids, std::move(x), rid.t, rmw);
    }
  }

  // Per thread, the first event that r reaches along po ∪ rf in g (r's
  // own: r; the thread's size: none). no_lb: not along a promise's rf (the
  // read read the promise, made before the write).
  void porf_after(const graph& g, eid r, std::array<std::int32_t, kMaxThreads>& from,
                  bool no_lb = false) const {
    for (int u = 0; u < nt_; u++) from[u] = static_cast<std::int32_t>(g.th[u].size());
    from[r.t] = r.i;
    for (bool more = true; more;) {
      more = false;
      for (int u = 0; u < nt_; u++)
        for (std::size_t i = 0; i < g.th[u].size(); i++) {
          const event& x = g.th[u][i];
          auto at = static_cast<std::int32_t>(i);
          if (at < from[u] && x.reads() && !x.rf.init() && !(no_lb && x.lb) &&
              x.rf.i >= from[x.rf.t]) {
            from[u] = at;
            more = true;
          }
        }
    }
  }

  // model::lb: is every promise g's reads read certified? Each read r of a
  // promise (event::lb) reads a store w of thread T: T alone, on g less r
  // and what follows r in po ∪ rf (the promise made just before r), must
  // write w's value to w's location; and again after each of T's events
  // from there up to w (Promising's re-certification: T alone, on g less
  // what follows that event in po ∪ rf, a promise's rf not followed). Judged
  // each time a graph is re-run (a revisit may delete writes an earlier
  // certification read), not inside a certification run.
  bool promises_certified(const graph& g) {
    for (std::size_t t = 0; t < g.th.size(); t++)
      for (std::size_t i = 0; i < g.th[t].size(); i++) {
        const event& r = g.th[t][i];
        if (!r.lb) continue;
        std::array<std::int32_t, kMaxThreads> cut{};
        porf_after(g, {static_cast<std::int16_t>(t), static_cast<std::int32_t>(i)}, cut);
        promise p;
        p.base = restrict(g, cut);
        if (p.base.th.empty()) return false;
        p.t = r.rf.t;
        p.loc = r.loc;
        p.v = g.at(r.rf).wval;
        const std::int32_t from = cut[p.t];
        if (!certified(p)) return false;
        for (std::int32_t k = from; k < r.rf.i; k++) {
          porf_after(g, {static_cast<std::int16_t>(p.t), k}, cut, true);
          cut[p.t] = k + 1;
          p.base = restrict(g, cut, true);
          if (p.base.th.empty() || !certified(p)) return false;
        }
      }
    return true;
  }

  // Can thread p.t, run alone on p.base (each read reading the co-last
  // write of its location, its own writes placed co-last), write p.v to
  // p.loc? A run of the program that stops there (nothing reported).
  bool certified(promise& p) {
    item s;
    s.g = std::move(p.base);
    solo_ = &p;
    solo_ok_ = false;
    execute(s);
    solo_ = nullptr;
    return solo_ok_;
  }
  bool solo_run() {
    int t = solo_->t;
    for (std::uint32_t n = 0; n < opt_.max_events; n++) {
      th& me = ths_[t];
      if (me.state != ts::pending) return false;  // done, blocked, cut or failed
      const request& q = me.req;
      event e = from_request(q);
      if (q.what == op::fence || q.what == op::choice) {
        e.kind = ek::fence;  // a choice: 0, as a maximal one
      } else if (q.what == op::store) {
        e.kind = ek::write;
        e.wval = q.a1;
      } else {
        auto ws = g_.writes(e.loc);
        e.rf = ws.empty() ? eid{} : ws.back();
        settle(e, g_.value(e.rf, slot(q.loc).init));
      }
      push_event(g_, t, e);
      eid id{static_cast<std::int16_t>(t), static_cast<std::int32_t>(g_.th[t].size() - 1)};
      if (e.kind != ek::fence) g_.add_access(e.loc, id);
      const event& x = g_.at(id);
      if (x.writes()) g_.co.insert(x.loc, g_.writes(x.loc).size(), id);
      if (x.writes() && x.loc == solo_->loc && x.wval == solo_->v) return true;
      resume(t);
    }
    return false;
  }
  // model::lb: a thread's code, re-run, left the graph's events (see
  // lb_revisit()): the execution is dropped, not reported.
  [[noreturn]] void discard_here() {
    discarded_ = true;
    ths_[cur_].state = ts::failed;
    throw stop_thread{};
  }
  // A store that re-runs with another value (it follows a read of a
  // promise) takes it if no event reads it; any other change discards.
  void rewrite_or_discard(const request& q) {
    event& e = g_.th[cur_][ths_[cur_].pos];
    eid self{static_cast<std::int16_t>(cur_), static_cast<std::int32_t>(ths_[cur_].pos)};
    if (e.what != op::store || q.what != op::store || keys_used_[e.loc] != q.loc)
      discard_here();
    for (auto& tv : g_.th)
      for (const event& x : tv)
        if (x.reads() && x.rf == self) discard_here();
    e.a1 = e.wval = q.a1;
  }
  bool replayed_all() const {
    for (int t = 0; t < nt_; t++)
      if (ths_[t].pos != g_.th[t].size()) return false;
    return true;
  }

  // A revisited read that now writes (a CAS that now succeeds, an RMW
  // placed anew): its write revisits in turn when its child runs
  // (rmw_node), as a new RMW's does; TruSt adds it as an event of its own.
  static eid rmw_of(const graph& h, eid r) {
    return h.at(r).kind == ek::rmw ? r : eid{};
  }

  // Does an event of h read from e? (A read added before e, revisited by it.)
  bool read_by_kept(const graph& h, eid e) const {
    for (const auto& t : h.th)
      for (const event& x : t)
        if (x.reads() && x.rf == e) return true;
    return false;
  }

  // The po ∪ rf prefix of w (w included), as a length per thread.
  void prefix(const graph& g, eid w, prefix_len& len) {
    len.fill(0);
    auto& todo = todo_;  // reused: no allocation once warm
    todo.assign(1, w);
    while (!todo.empty()) {
      eid e = todo.back();
      todo.pop_back();
      if (e.init() || len[e.t] > e.i) continue;
      for (std::int32_t i = len[e.t]; i <= e.i; i++) {
        const event& x = g.th[e.t][i];
        if (x.reads() && !x.rf.init()) todo.push_back(x.rf);
      }
      len[e.t] = e.i + 1;
    }
  }

  // --- symmetry reduction ---
  //
  // Threads declared symmetric (program::symmetric_to: same code, same
  // starting state; Emerson, Sistla, "Symmetry and model checking", FMSD
  // 1996) have executions equal up to a permutation of them; each class is
  // judged once, at its canonical member: within each class of symmetric
  // threads, lower threads have the lesser event sequence (sym_order(): by
  // index, each event's access, location and the co place of what it reads
  // or writes; shorter first). Any graph has such a permutation, so none is
  // lost; a leaf that is no such member is dropped unjudged.
  // A prefix is dropped only where every graph below it is no canonical
  // member: the pair's events up to where they differ are permanent (added
  // before the first read that a later write may still revisit: TruSt's
  // revisits delete only events added after the read they revisit, and
  // revisit only a read added maximally, which stays so). Rejected:
  // GenMC's rule (SPORE, Kokologiannakis, Marmanis, Vafeiadis, PLDI 2024),
  // a prefix dropped at any pair out of order: TruSt reaches some graphs
  // only through a prefix with hi's store co-before lo's, which a revisit
  // then deletes lo's store from (its maximality picks that prefix), and lo
  // adds it again in order (explore_teeth/sym_prune_any: random_5 keeps 102
  // of its 126 classes).

  void init_symmetry() {
    sym_on_ = false;
    classes_.clear();
    for (int t = 0; t < nt_; t++) {
      int s = prog_.symmetric_to(t);
      sym_[t] = s >= 0 && s < t ? s : -1;
      cls_[t] = sym_[t] < 0 ? t : cls_[sym_[t]];
      if (sym_[t] < 0) continue;
      sym_on_ = opt_.symmetry && !opt_.naive;
      auto c = std::find_if(classes_.begin(), classes_.end(),
                            [&](const auto& v) { return v.front() == cls_[t]; });
      if (c == classes_.end())
        classes_.push_back({cls_[t], t});
      else
        c->push_back(t);
    }
  }
  // What orders event j of thread u among its symmetric threads' (the same
  // under any permutation of them): the access, the location (one a thread
  // of u's class made, by its rank), the co place of what it reads or
  // writes, the kind (a failed lock or CAS against one that took).
  struct sym_key {
    std::uint8_t what = 0;
    std::uint64_t loc = 0;
    int co = 0;
    std::uint8_t kind = 0;
    auto operator<=>(const sym_key&) const = default;
  };
  sym_key key_of(const graph& g, int u, std::size_t j) const {
    const event& e = g.th[u][j];
    sym_key k;
    k.what = static_cast<std::uint8_t>(e.what);
    k.kind = static_cast<std::uint8_t>(e.kind);
    if (e.kind == ek::fence) {
      k.co = static_cast<int>(choice_bits(e));  // a choice's value
      return k;
    }
    std::uint32_t key = keys_used_[e.loc];
    auto [creator, rank] = key_from_[key];
    k.loc = key;
    if (creator == u + 1)
      k.loc = (std::uint64_t{1} << 40) | rank;  // its own
    else if (creator >= 1 && creator <= nt_ && cls_[creator - 1] == cls_[u])
      k.loc = (std::uint64_t{2} << 40) | rank;  // a symmetric thread's
    eid w{static_cast<std::int16_t>(u), static_cast<std::int32_t>(j)};
    k.co = g.co_index(e.loc, e.reads() ? e.rf : w);
    return k;
  }
  // The order of lo's and hi's event sequences: <0, 0, >0. Leaf: a length
  // decides between a sequence and its prefix. Else (a prefix of the tree)
  // only a difference at one index that no graph below it can change
  // counts (at one location, every event up to it added before first:
  // see above), and 0 stands for "not decided".
  int sym_order(const graph& g, int lo, int hi, bool leaf, std::uint32_t first) const {
    const auto& a = g.th[lo];
    const auto& b = g.th[hi];
    std::size_t n = std::min(a.size(), b.size());
    for (std::size_t j = 0; j < n; j++) {
      if (!leaf && (a[j].stamp >= first || b[j].stamp >= first)) return 0;
      sym_key x = key_of(g, lo, j), y = key_of(g, hi, j);
      if (x == y) {
        if (!leaf && a[j].kind != ek::fence && a[j].loc != b[j].loc) return 0;
        continue;
      }
      if (!leaf && a[j].loc != b[j].loc) return 0;
      return x < y ? -1 : 1;
    }
    if (!leaf) return 0;
    return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
  }
  // The least stamp of a read that a later write may still revisit: no
  // write added before it is co-after the one it reads (maximality, with
  // the revisiting write's prefix added, asks that of more writes).
  std::uint32_t first_open(const graph& g) const {
    std::uint32_t m = ~std::uint32_t{0};
    for (std::size_t t = 0; t < g.th.size(); t++)
      for (std::size_t i = 0; i < g.th[t].size(); i++) {
        const event& e = g.th[t][i];
        if (!e.reads() || e.stamp >= m) continue;
        eid self{static_cast<std::int16_t>(t), static_cast<std::int32_t>(i)};
        auto ws = g.writes(e.loc);
        bool open = true;
        for (auto k = static_cast<std::size_t>(g.co_index(e.loc, e.rf)); k < ws.size(); k++)
          if (!(ws[k] == self) && g.at(ws[k]).stamp <= e.stamp) open = false;
        if (open) m = e.stamp;
      }
    return m;
  }
  // Is g a canonical member (leaf), or may a graph below it be one?
  bool sym_ok(const graph& g, bool leaf) const {
    std::uint32_t first = leaf ? 0 : first_open(g);
    for (int hi = 0; hi < nt_; hi++)
      for (int lo = sym_[hi]; lo >= 0; lo = sym_[lo])
        if (sym_order(g, lo, hi, leaf, first) > 0) return false;
    return true;
  }
  // A new child's graph: kept unless symmetry reduction drops it.
  bool sym_kept(const graph& g) {
    if (!sym_on_ || sym_ok(g, false)) return true;
    if (opt_.trace != nullptr) {
      std::fprintf(opt_.trace, "dropped by symmetry:\n");
      print(opt_.trace, g);
    }
    st_.symmetric++;
    return false;
  }

  // TruSt's maximality: r, and each event added after r that the revisit
  // deletes, reads (or, a store, is placed) co-last among the events added
  // before it and w's prefix, w excluded.
  bool maximal(const graph& g, eid r, eid w, const prefix_len& plen) const {
    std::uint32_t rs = g.at(r).stamp;
    if (!added_max(g, r, w, plen)) return false;
    for (int t = 0; t < nt_; t++)
      for (std::int32_t i = plen[t]; i < static_cast<std::int32_t>(g.th[t].size()); i++) {
        eid e{static_cast<std::int16_t>(t), i};
        if (g.th[t][i].stamp > rs && !added_max(g, e, w, plen)) return false;
      }
    return true;
  }
  // e was added maximally, as TruSt's revisit by w (prefix plen) judges it.
  bool added_max(const graph& g, eid e, eid w, const prefix_len& plen) const {
    const event& x = g.at(e);
    if (x.kind == ek::fence) return x.what != op::choice || x.rval == 0;  // 0: the first child
    auto prev = [&](eid y) {
      return !(y == w) && !(y == e) && (g.at(y).stamp <= x.stamp || y.i < plen[y.t]);
    };
    const auto& ws = g.writes(x.loc);
    if (x.reads()) {
      eid last{};
      for (std::size_t k = ws.size(); k-- > 0;)
        if (prev(ws[k])) {
          last = ws[k];
          break;
        }
      if (!(x.rf == last)) return false;
    }
    if (x.kind == ek::write) {
      auto it = std::find(ws.begin(), ws.end(), e);
      for (++it; it != ws.end(); ++it)
        if (prev(*it)) return false;
    }
    return true;
  }

  // --- await in-place revisits (after Kokologiannakis, Marmanis, Vafeiadis,
  // "Unblocking dynamic partial order reduction", CAV 2023: Awamoche) ---
  //
  // A blocked thread's last iteration wrote nothing, so no event depends
  // on it, and a fair schedule re-runs it later. When a new write w makes
  // a read of it stale, TruSt makes two children: w added with the thread
  // still blocked on its stale read (a subtree whose executions end
  // blocked there, unless a later revisit deletes the read), and the
  // backward revisit of the read by w (the events added since deleted,
  // then added again). Here the child that adds w has the read read w in
  // place instead, as if the iteration ran again after w: the events added
  // since stay, the iteration's later reads go, the thread goes on; and
  // that backward revisit is not made where w is co-after the read's old
  // write (its graphs are the in-place child's subtree's). A read so
  // revisited is restamped after w (the iteration added anew).
  // A failed lock() that w (an unlock) releases, where it is the lock's one
  // waiter, is revisited in place too: it takes the lock, keeping its
  // stamp as a read revisited by w does; the plain forward child stays (a
  // thread not waiting may take the lock first). Several waiters: the
  // plain revisits (a child per taker, the others reading its lock, met
  // some graphs twice). Equality with plain TruSt is tested: the complete
  // graphs of both are the same sets, none met twice (--crosscheck,
  // explore_await, whose teeth break these revisits three ways;
  // explore_random_ipr_waits against the naive search, two more).

  // Did a thread that blocked since the last look block on a read that
  // was stale when it was added (a write co-after the one it read was
  // added before it)? Such a read is never revisited nor deleted (TruSt's
  // maximality), so every execution below this prefix ends with the thread
  // blocked there: none is complete, none waits for good.
  bool stale_block() {
    unsigned m = std::exchange(blocked_now_, 0u);
    if (!opt_.ipr || opt_.naive) return false;
    for (int t = 0; t < nt_; t++) {
      if ((m >> t & 1u) == 0 || ths_[t].state != ts::blocked) continue;
      if (ths_[t].retry) {  // a failed try: its thread's last read only
        if (stale_last_read(t)) return true;
        continue;
      }
      for (std::size_t i = loop_from(t); i < ths_[t].pos; i++)
        if (stale_when_added(g_.th[t][i])) return true;
    }
    return false;
  }
  // Read x read a write that was not co-last when x was added.
  bool stale_when_added(const event& x) const {
    if (!x.reads()) return false;
    auto ws = g_.writes(x.loc);
    for (auto k = static_cast<std::size_t>(g_.co_index(x.loc, x.rf)); k < ws.size(); k++)
      if (g_.at(ws[k]).stamp < x.stamp) return true;
    return false;
  }
  // Thread t, blocked by a failed try, never goes on below this prefix:
  // its last read was stale when added. A revisit of any read of t deletes
  // that read or is it, and TruSt revisits only where every deleted event,
  // and the read, was added maximally; nor does another thread's revisit
  // delete it. So t's events stay, and t blocks again where it blocked. (A
  // wait's stale read anywhere in its iteration cuts, above; a try's does
  // not: a later read of the try may be revisited, and the try succeed.)
  bool stale_last_read(int t) const {
    for (std::size_t i = ths_[t].pos; i-- > 0;)
      if (g_.th[t][i].reads()) return stale_when_added(g_.th[t][i]);
    return false;
  }

  // Does a blocked thread other than t read loc in its last iteration?
  bool awaits(int t, std::uint32_t loc) const {
    if (!opt_.ipr || opt_.naive) return false;
    for (int u = 0; u < nt_; u++) {
      const th& b = ths_[u];
      if (u == t || b.state != ts::blocked || b.retry) continue;
      for (std::size_t i = b.iter; i < b.pos; i++)
        if (g_.th[u][i].reads() && g_.th[u][i].loc == loc) return true;
    }
    return false;
  }
  // The read of blocked thread u that write w (of g, prefix plen) revisits
  // in place, or none: the first read of w's location in u's last
  // iteration, if it reads a write co-before w, was added maximally, and
  // stays a read with w's value or is a lock() w unlocks with no other
  // waiter (a CAS it would win is left to the plain revisits); the
  // iteration's other reads read co-last (u waits for good but for w's
  // location).
  eid ipr_target(const graph& g, int u, eid w, const prefix_len& plen) const {
    const th& b = ths_[u];
    if (u == w.t || b.state != ts::blocked || b.retry || g.th[u].size() != b.pos) return {};
    const event& we = g.at(w);
    eid r{};
    for (std::size_t i = b.iter; i < b.pos; i++) {
      const event& x = g.th[u][i];
      if (!x.reads()) continue;
      auto ws = g.writes(x.loc);
      if (x.loc != we.loc) {  // the rest of the iteration waits for good
        if (!(x.rf == (ws.empty() ? eid{} : ws.back()))) return {};
        continue;
      }
      if (!r.init()) continue;
      r = {static_cast<std::int16_t>(u), static_cast<std::int32_t>(i)};
      event y = x;
      settle(y, we.wval);
      if (x.kind != ek::read) return {};
      // A lock it would take: only a store's (an unlock).
      if (y.kind != ek::read && (x.what != op::lock || we.kind != ek::write ||
                                 lock_waiters(g, we.loc) > 1))
        return {};
      if (g.co_index(we.loc, x.rf) >= g.co_index(we.loc, w)) return {};
      if (!added_max(g, r, w, plen)) return {};
      if (y.kind != ek::read && deletes_others(g, r, plen))
        return {};
    }
    if (!r.init() && static_cast<std::size_t>(r.i) < loop_from(u)) return {};
    return r;
  }
  // Would w's backward revisit of lock() r (w's prefix plen) delete an
  // event of another thread? A lock taken in place keeps its stamp and the
  // events added since, so it stands for that revisit only where the
  // revisit deletes none of them: else a later revisit of such an event
  // (say a read before another thread's wait) would have to delete w too,
  // which the lock, kept, reads (random_1034 of --generated 2000 lost 42
  // of 468 graphs so).
  bool deletes_others(const graph& g, eid r, const prefix_len& plen) const {
    std::uint32_t rs = g.at(r).stamp;
    for (int t = 0; t < nt_; t++) {
      if (t == r.t) continue;
      for (auto i = static_cast<std::size_t>(plen[t]); i < g.th[t].size(); i++)
        if (g.th[t][i].stamp > rs) return true;
    }
    return false;
  }
  // Where blocked thread t's loop surely began: its iteration's start, or,
  // where that is its operation's start (no spin_pause passed in it), its
  // last read (a read before the loop's head is not read again; a loop
  // that reads nothing never leaves: kept beside a newer write, its old
  // value leaves the execution blocked, not for good, never judged).
  std::size_t loop_from(int t) const {
    const th& b = ths_[t];
    if (b.loop) return b.iter;
    for (std::size_t i = b.pos; i-- > b.iter;)
      if (g_.th[t][i].reads()) return i;
    return b.iter;
  }
  // The blocked threads whose last iteration failed a lock() of loc.
  int lock_waiters(const graph& g, std::uint32_t loc) const {
    int n = 0;
    for (int u = 0; u < nt_; u++) {
      const th& b = ths_[u];
      if (b.state != ts::blocked) continue;
      for (std::size_t i = b.iter; i < b.pos && i < g.th[u].size(); i++)
        if (g.th[u][i].what == op::lock && g.th[u][i].loc == loc) {
          n++;
          break;
        }
    }
    return n;
  }
  // g_ holds new write w (placed in co, not in acc). Appends the children
  // that revisit blocked threads' reads in place (none that is
  // inconsistent). False: the plain forward child is still to be made (no
  // read revisited in place, or a lock's waiter that may also take it
  // later: another thread may take it first).
  bool ipr_child(std::vector<child>& kids, eid w, eid rmw) {
    prefix_len plen{};
    prefix(g_, w, plen);
    std::array<eid, kMaxThreads> hit{};
    int n = 0;
    eid taker{};  // a lock's one waiter
    for (int u = 0; u < nt_; u++) {
      eid r = ipr_target(g_, u, w, plen);
      if (r.init()) continue;
      event y = g_.at(r);
      settle(y, g_.at(w).wval);
      if (y.kind == ek::read)
        hit[n++] = r;
      else
        taker = r;
    }
    if (n == 0 && taker.init()) return false;
    for (int k = taker.init() ? 1 : 0; k < 2; k++) {  // k 0: the waiter takes the lock
      if (k == 1 && n == 0) return false;             // the plain forward child
      graph h = copy_of(g_);
      spare_at_exit back{*this, h};
      h.add_access(h.at(w).loc, w);
      for (int i = 0; i < n; i++) revisit_in_place(h, hit[i], w);
      if (k == 0) revisit_in_place(h, taker, w);
      if (!checker_.consistent(h, opt_.m)) continue;
      for (int i = 0; i < n; i++)
        if (!race_free(h, hit[i], kids.size())) return true;
      if (!sym_kept(h)) continue;
      st_.in_place++;
      whole_child(kids, std::move(h), w.t);
    }
    // An RMW's revisits, made here on the graph without the in-place ones,
    // as the plain child's node makes them (rmw_node), not on h: there a
    // read revisited in place reads w, restamped after it, and no earlier
    // read of its thread could be revisited by w (TruSt's maximality).
    if (!rmw.init()) {
      std::uint32_t loc = g_.at(w).loc;
      g_.add_access(loc, w);
      revisits(g_, w, kids);
      g_.acc.erase(loc, w);
    }
    return true;
  }
  // h is the backward revisit of r by w: the other blocked threads whose
  // iteration h keeps whole and w ends (ipr_target()) read last in place
  // there (w, or r's write where r became an RMW), as they read w in the
  // child that adds w (w's revisit of such a read is not made: its graphs
  // are these). Returns how many. Called by revisits() only.
  int unblock_kept(graph& h, eid r, eid w, const prefix_len& plen, eid last) const {
    int n = 0;
    for (int u = 0; u < nt_; u++) {
      if (u == r.t) continue;
      eid x = ipr_target(h, u, w, plen);
      if (x.init()) continue;
      event y = h.at(x);
      settle(y, h.at(last).wval);
      if (y.kind == ek::read) revisit_in_place(h, x, last), n++;
    }
    return n;
  }
  // Read r of h reads w; its thread's later events go. A read stays one
  // and its iteration is restamped after every event of h; a lock()
  // taken is placed co-next to w.
  void revisit_in_place(graph& h, eid r, eid w) const {
    auto& tv = h.th[r.t];
    for (auto i = static_cast<std::size_t>(r.i) + 1; i < tv.size(); i++)
      if (tv[i].kind != ek::fence)
        h.acc.erase(tv[i].loc, eid{r.t, static_cast<std::int32_t>(i)});
    tv.resize(static_cast<std::size_t>(r.i) + 1);
    settle(tv.back(), h.at(w).wval);
    tv.back().rf = w;
    tv.back().lb = false;  // it reads a replayed write now, not a promise
    if (tv.back().kind == ek::rmw) {
      h.co.insert_after(tv.back().loc, w, r);
      return;
    }
    for (std::size_t i = ths_[r.t].iter; i < tv.size(); i++) tv[i].stamp = h.next_stamp++;
  }

  // g cut to the first keep[t] events of each thread; an empty graph if a
  // kept read would lose the write it reads.
  // lb_kept: a read of a promise may read a write not kept (a
  // re-certification's graph: the promise was made, not yet fulfilled).
  graph restrict(const graph& g, const std::array<std::int32_t, kMaxThreads>& keep,
                 bool lb_kept = false) {
    graph h = spare();
    h.next_stamp = g.next_stamp;
    h.any_sc = g.any_sc;
    h.th.resize(g.th.size());
    for (int t = 0; t < nt_; t++) {
      h.th[t].assign(g.th[t].begin(), g.th[t].begin() + keep[t]);
      for (const event& x : h.th[t])
        if (x.reads() && !x.rf.init() && x.rf.i >= keep[x.rf.t] && !(lb_kept && x.lb)) {
          keep_spare(std::move(h));
          return graph{};
        }
    }
    auto kept = [&](eid x) { return x.i < keep[x.t]; };
    h.co = g.co;
    h.co.filter(kept);
    h.acc = g.acc;
    h.acc.filter(kept);
    return h;
  }

  // A graph as text: per thread its events; reads name their write.
  void print(std::FILE* f, const graph& g) const {
    static const char* kinds[] = {"R", "W", "U", "F"};
    static const char* ops[] = {"load",  "store", "cas",    "fadd",
                                "lock",  "fence", "xchg",   "choice", "fbits"};
    for (std::size_t t = 0; t < g.th.size(); t++) {
      std::fprintf(f, "  thread %zu:\n", t);
      for (std::size_t i = 0; i < g.th[t].size(); i++) {
        const event& e = g.th[t][i];
        std::fprintf(f, "    %zu.%zu %s %s mo%d loc %06x", t, i, kinds[int(e.kind)],
                     ops[int(e.what)], e.mo, keys_used_[e.loc]);
        if (e.reads())
          std::fprintf(f, " rf %d.%d =%llx", e.rf.t, e.rf.i,
                       static_cast<unsigned long long>(e.rval));
        if (e.writes()) std::fprintf(f, " wrote %llx", static_cast<unsigned long long>(e.wval));
        std::fprintf(f, "%s #%u\n", e.plain ? " plain" : "", e.stamp);
      }
    }
  }

  // --- paths, hashes -------------------------------------------------------------

  static std::vector<std::pair<std::uint32_t, std::uint32_t>> parse_path(const std::string& s) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> v;
    std::size_t i = 0;
    while (i < s.size()) {
      unsigned a = 0, b = 0;
      int n = 0;
      if (std::sscanf(s.c_str() + i, "%u:%u%n", &a, &b, &n) != 2) break;
      v.push_back({a, b});
      i += static_cast<std::size_t>(n);
      if (i < s.size() && s[i] == ',') i++;
    }
    return v;
  }
  static std::string path_text(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& p) {
    std::string s;
    for (auto [a, b] : p) s += (s.empty() ? "" : ",") + std::to_string(a) + ":" + std::to_string(b);
    return s.empty() ? "-" : s;
  }

  // A graph's shape (events, rf, co; not the order they were added in), by
  // location keys in key order: the same in every engine.
  std::uint64_t hash(const graph& g) const {
    std::uint64_t h = 1469598103934665603ull;
    auto mix = [&](std::uint64_t x) { h = (h ^ x) * 1099511628211ull; };
    for (const auto& t : g.th) {
      mix(0xABCDEFull + t.size());
      for (const event& e : t) {
        mix(static_cast<std::uint64_t>(e.kind) | choice_bits(e) |
            (std::uint64_t(keys_used_[e.loc]) << 8));
        if (e.reads()) mix((std::uint64_t(std::uint16_t(e.rf.t)) << 32) | std::uint32_t(e.rf.i));
      }
    }
    for (std::uint32_t key = 0; key < used_of_.size(); key++) {
      if (used_of_[key] == kUnused) continue;
      auto ws = g.co.of(used_of_[key]);
      if (ws.empty()) continue;  // a revisit may leave a location no write
      mix(key);
      for (eid x : ws) mix((std::uint64_t(std::uint16_t(x.t)) << 32) | std::uint32_t(x.i));
    }
    return h;
  }

  // hash() of g without the order of its critical sections: a lock()'s rf
  // and the co of a location some lock() names are left out, and a failed
  // lock() (the last event of a thread waiting on the lock) with them.
  // Graphs equal up to that are one class of LAPOR (Kokologiannakis, Raad,
  // Vafeiadis, OOPSLA 2019): the same events, rf and co but the lock's.
  // For options::lock_classes (a measure); finish_execution() calls it.
  std::uint64_t lock_class_hash(const graph& g) const {
    std::vector<bool> lock_loc(keys_used_.size());
    for (const auto& t : g.th)
      for (const event& e : t)
        if (e.what == op::lock) lock_loc[e.loc] = true;
    std::uint64_t h = 1469598103934665603ull;
    auto mix = [&](std::uint64_t x) { h = (h ^ x) * 1099511628211ull; };
    for (const auto& t : g.th) {
      std::size_t n = t.size();
      if (n > 0 && t[n - 1].what == op::lock && t[n - 1].kind == ek::read) n--;
      mix(0xABCDEFull + n);
      for (std::size_t i = 0; i < n; i++) {
        const event& e = t[i];
        mix(static_cast<std::uint64_t>(e.kind) | choice_bits(e) |
            (std::uint64_t(keys_used_[e.loc]) << 8));
        if (e.reads() && !lock_loc[e.loc])
          mix((std::uint64_t(std::uint16_t(e.rf.t)) << 32) | std::uint32_t(e.rf.i));
      }
    }
    for (std::uint32_t key = 0; key < used_of_.size(); key++) {
      if (used_of_[key] == kUnused || lock_loc[used_of_[key]]) continue;
      auto ws = g.co.of(used_of_[key]);
      if (ws.empty()) continue;
      mix(key);
      for (eid x : ws) mix((std::uint64_t(std::uint16_t(x.t)) << 32) | std::uint32_t(x.i));
    }
    return h;
  }

  // hash() of g as the least over the permutations of each class of
  // symmetric threads: events and co renamed, a location a thread made
  // named by its maker's image and rank.
  std::uint64_t canon_hash(const graph& g) const {
    std::array<int, kMaxThreads> to{};
    for (int t = 0; t < nt_; t++) to[t] = t;
    std::uint64_t best = ~std::uint64_t{0};
    permute(g, 0, to, best);
    return best;
  }
  void permute(const graph& g, std::size_t c, std::array<int, kMaxThreads>& to,
               std::uint64_t& best) const {
    if (c == classes_.size()) {
      best = std::min(best, hash_as(g, to));
      return;
    }
    auto img = classes_[c];  // ascending
    do {
      for (std::size_t k = 0; k < img.size(); k++) to[classes_[c][k]] = img[k];
      permute(g, c + 1, to, best);
    } while (std::next_permutation(img.begin(), img.end()));
  }
  std::uint64_t hash_as(const graph& g, const std::array<int, kMaxThreads>& to) const {
    std::uint64_t h = 1469598103934665603ull;
    auto mix = [&](std::uint64_t x) { h = (h ^ x) * 1099511628211ull; };
    auto id = [&](eid x) {
      if (x.init()) return std::uint64_t{0xFFFFFFFFFFFFull};
      return (std::uint64_t(std::uint16_t(to[x.t])) << 32) | std::uint32_t(x.i);
    };
    auto name = [&](std::uint32_t loc) {
      std::uint32_t key = keys_used_[loc];
      auto [creator, rank] = key_from_[key];
      if (creator < 1 || creator > nt_) return std::uint64_t{key};
      return (std::uint64_t{1} << 40) | (std::uint64_t(to[creator - 1]) << 32) | rank;
    };
    std::array<int, kMaxThreads> from{};
    for (int t = 0; t < nt_; t++) from[to[t]] = t;
    for (int n = 0; n < nt_; n++) {
      const auto& tv = g.th[from[n]];
      mix(0xABCDEFull + tv.size());
      for (const event& e : tv) {
        mix(static_cast<std::uint64_t>(e.kind) | choice_bits(e) | (name(e.loc) << 8));
        if (e.reads()) mix(id(e.rf));
      }
    }
    std::vector<std::pair<std::uint64_t, std::uint64_t>> locs;  // name, its co's hash
    g.co.each([&](std::uint32_t loc, std::span<const eid> ws) {
      if (ws.empty()) return;
      std::uint64_t c = 1469598103934665603ull;
      for (eid x : ws) c = (c ^ id(x)) * 1099511628211ull;
      locs.push_back({name(loc), c});
    });
    std::sort(locs.begin(), locs.end());
    for (auto [n, c] : locs) mix(n), mix(c);
    return h;
  }

  program& prog_;
  options opt_;
  stats st_;
  int nt_ = 0;
  int cur_ = -1;
  phase phase_ = phase::setup;
  // This execution's graph is SC-consistent? Each event's place kept
  // (sc_checker_.sc_step), computed once an execution (also_sc, finished_sc).
  bool sc_now() {
    if (sc_for_ != ends_) sc_ok_ = sc_checker_.sc_order(g_, true), sc_for_ = ends_;
    return sc_ok_;
  }
  // In finish(): clocked_ is g_ with the model's hb clocks (obs_checker_
  // judges it), made once an execution; false: po ∪ rf is cyclic.
  bool clocked() {
    if (clocked_for_ != finishes_) {
      clocked_ = g_;
      if (!obs_checker_.has_clocks(clocked_, opt_.m == model::sc ? model::rc11 : opt_.m))
        return false;
      clocked_for_ = finishes_;
    }
    return true;
  }
  std::uint64_t ends_ = 0, sc_for_ = ~std::uint64_t{0};  // finish_execution()s; sc_now()'s
  bool sc_ok_ = false;
  checker sc_checker_;
  // readable()'s graph with hb's clocks and its po ∪ rf clocks, for the
  // finish() numbered clocked_for_ and porf_for_.
  std::uint64_t finishes_ = 0, clocked_for_ = ~std::uint64_t{0}, porf_for_ = ~std::uint64_t{0};
  graph clocked_;
  checker obs_checker_;
  std::vector<std::vector<clock>> porf_;
  static constexpr std::uint64_t kMaxDirect = 1'000'000;  // setup's and finish's accesses
  std::uint64_t direct_n_ = 0;
  graph g_;
  std::vector<item> work_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> path_, replay_;
  std::uint32_t step_ = 0;
  unsigned blocked_now_ = 0;  // threads blocked since stale_block() last looked
  std::vector<child> kids_, rmw_kids_;  // step()'s and rmw_node()'s children
  std::vector<eid> cands_;              // add()'s writes a read may read
  std::vector<eid> todo_;               // prefix()'s work list
  std::vector<graph> spares_;           // spare(): graphs kept for their buffers
  bool counting_ = true;  // executions count here (see mine())
  std::uint64_t dealt_ = 0;
  bool probing_ = false;  // estimate(): one random child per node
  std::uint64_t rng_ = 1;
  double weight_ = 1;  // estimate(): the product of the nodes' child counts
  std::array<int, kMaxThreads> sym_{};  // per thread: the thread it is symmetric to, or -1
  std::array<int, kMaxThreads> cls_{};  // per thread: the least thread of its class
  bool spurious_run_ = false;  // a weak CAS failed spuriously in this run
  bool sym_on_ = false;                 // symmetry reduction on (sym_ok())
  std::vector<std::vector<int>> classes_;  // the classes of symmetric threads, ascending
  std::vector<std::pair<int, std::uint32_t>> key_from_;  // per key: its creator and rank
  std::vector<std::uint32_t> made_;  // per creator: the locations it made in this execution
  std::vector<std::vector<std::uint32_t>> keys_;  // per creator, by rank: the key
  std::vector<locval> vals_;  // per key: its values in this execution (if made in it)
  static constexpr std::uint32_t kUnused = ~std::uint32_t{0};
  std::vector<std::uint32_t> used_of_;    // per key: its index in keys_used_, or kUnused
  std::vector<std::uint32_t> keys_used_;  // the keys the threads accessed (see used())
  std::vector<th> ths_;
  boost::context::detail::fcontext_t main_ = nullptr;
  std::vector<std::unique_ptr<char[]>> stacks_;
  int starting_ = 0;
  checker checker_;
  promise* solo_ = nullptr;  // certified()'s promise while its run is on
  bool solo_ok_ = false;     // that run wrote the promised value
  bool discarded_ = false;   // discard_here() stopped this run
  bool lb_graph_ = false;    // this run's graph has a read of a promise
  std::unordered_set<std::uint64_t> seen_, visited_;
};

}  // namespace runqcheck::explore
