// tests/relacy/shard.hpp — `--shard i/N`: one of N disjoint parts of a
// Relacy search, whose union is the whole search (issue 16, part 4).
//
// Random search: the iterations 1..count (each seeded by its number) split
// into N contiguous ranges; shard i runs range i.
//
// Bounded and full search: Relacy's depth-first tree search, with the set
// of shards that own a subtree narrowed at each branching decision below
// the first shared_branchings ones (every shard explores those, so that the
// split happens in many subtrees and the shards' sizes even out). A node
// with c choices and m shards left (positions 0..m-1 in the set), and
// k = j + a hash h of the path's choices: if m <= c, choice j goes to the
// shard at position k mod m alone; if m > c, to the shards at positions
// congruent to k mod c. Every shard in a node's set owns at least one choice there,
// so a shard never starts an execution outside its part: a fresh node takes
// the shard's first choice, and backtracking skips the other shards'
// choices. An execution that ends while its set still holds several shards
// (a path with few branching points) belongs to one of them, picked
// by the path's choices; the others run it too but do not count it (a failure there
// is reported by each of them). Rejected: splitting at one node by choice
// mod N (empty shards whenever the node has fewer than N choices) and a
// hash of a fixed-length prefix (a shard would have to run the first
// execution of every prefix to learn the tree below it).
//
// The state a shard prints (Relacy's "iteration size (count index type)*")
// is an ordinary Relacy state: it replays in an unsharded run.
//
// A scenario that must fail (expect_fatal) passes in a shard only if that
// shard's part holds a failing execution: true of steal_overflow, where
// every execution hits the fatal error; a sparser one would fail a shard.
#pragma once

#include <cstdio>
#include <string>

namespace rqtest {

struct shard_spec {
  unsigned i = 0, n = 1;  // n == 1: unsharded
  bool on() const { return n > 1; }
};

inline shard_spec& current_shard() {
  static shard_spec s;
  return s;
}

// Executions a shard ran that belong to another shard (see above).
inline unsigned long long& foreign_executions() {
  static unsigned long long n = 0;
  return n;
}

// "i/N" with 0 <= i < N, both decimal; false on anything else.
inline bool parse_shard(const std::string& v, shard_spec& s) {
  std::size_t slash = v.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == v.size()) return false;
  std::string a = v.substr(0, slash), b = v.substr(slash + 1);
  if (a.size() > 6 || b.size() > 6 || a.find_first_not_of("0123456789") != std::string::npos ||
      b.find_first_not_of("0123456789") != std::string::npos)
    return false;
  unsigned i = static_cast<unsigned>(std::stoul(a)), n = static_cast<unsigned>(std::stoul(b));
  if (n == 0 || i >= n) return false;
  s.i = i;
  s.n = n;
  return true;
}

// Branching decisions at the top of the tree that every shard explores.
inline constexpr unsigned shared_branchings = 4;

// The shards that own a subtree: positions 0..m-1, shard r + step*position;
// shared: branching decisions left before the set narrows; h: a hash of
// the choices on the path, which rotates the split (subtrees differ in size
// by choice and depth: without it, one shard would get every choice 0).
struct shard_set {
  unsigned r = 0, step = 1, m = 1, shared = shared_branchings, h = 0;
  bool has(unsigned s) const { return s >= r && (s - r) % step == 0 && (s - r) / step < m; }
  // Of an execution that ends with this set: the one shard that counts it.
  unsigned leaf_owner() const { return r + step * (h % m); }
  // The set owning choice j of a node with c choices.
  shard_set child(unsigned j, unsigned c) const {
    if (m == 1 || c == 1) return *this;
    if (shared > 0) return {r, step, m, shared - 1, h * 3 + j + 1};
    unsigned const k = (j + h) % c;
    if (m <= c) return {r + step * ((j + h) % m), step, 1, 0, h * 3 + j + 1};
    return {r + step * k, step * c, (m - k + c - 1) / c, 0, h * 3 + j + 1};
  }
};

}  // namespace rqtest

namespace rl {

// Relacy's context-bound (Bounded) or full tree search, restricted to the
// part of current_shard(). Same tree, same states as Relacy's schedulers
// (can_switch/on_switch as context_bound_scheduler.hpp); only which
// choices a node takes differs.
template <thread_id_t TC, bool Bounded>
class sharded_tree_scheduler
    : public tree_search_scheduler<sharded_tree_scheduler<TC, Bounded>,
                                   context_bound_scheduler_thread_info<TC>, TC> {
 public:
  using base_t = tree_search_scheduler<sharded_tree_scheduler<TC, Bounded>,
                                       context_bound_scheduler_thread_info<TC>, TC>;
  using thread_info_t = typename base_t::thread_info_t;
  using shared_context_t = typename base_t::shared_context_t;

  sharded_tree_scheduler(test_params& p, shared_context_t& ctx, thread_id_t dyn)
      : base_t(p, ctx, dyn) {}

  thread_id_t iteration_begin_impl() {
    switches_remain_ = this->params_.context_bound;
    this->stree_depth_ = 0;
    unsigned const index = rand_impl(this->running_threads_count, sched_type_sched);
    return this->running_threads[index];
  }

  // A fresh node takes this shard's first choice; a known one replays.
  unsigned rand_impl(unsigned limit, sched_type t) {
    unsigned result = 0;
    if (this->stree_depth_ == this->stree_.size()) {
      result = next_owned(set_before(this->stree_depth_), limit, 0);
      RL_VERIFY(result < limit);
      typename base_t::stree_node n = {limit, result, t, 0};
      this->stree_.push_back(n);
    } else {
      auto& n = this->stree_[this->stree_depth_];
      RL_VERIFY(n.type_ == t && n.count_ == limit && n.index_ < n.count_);
      result = n.index_;
    }
    this->stree_depth_ += 1;
    return result;
  }

  // Backtracks to the deepest node with another choice of this shard.
  bool iteration_end_impl() {
    RL_VERIFY(this->stree_depth_ == this->stree_.size());
    std::size_t const size = this->stree_.size();
    if (set_before(size).leaf_owner() != rqtest::current_shard().i)
      rqtest::foreign_executions() += 1;
    for (std::size_t i = size; i != 0; --i) {
      auto& n = this->stree_[i - 1];
      unsigned const j = next_owned(set_before(i - 1), n.count_, n.index_ + 1);
      if (j < n.count_) {
        this->stree_.resize(i);
        this->stree_[i - 1].index_ = j;
        return false;
      }
    }
    return true;
  }

  bool can_switch(thread_info_t& t) {
    t.sched_count_ += 1;
    return !Bounded || switches_remain_ != 0;
  }

  void on_switch(thread_info_t& t) {
    if (!Bounded) return;
    if (t.state_ == thread_state_running) {
      RL_VERIFY(switches_remain_);
      switches_remain_ -= 1;
    } else {
      t.forced_context_switch_count_ += 1;
    }
  }

  double iteration_count_approx() { return 1.0; }  // progress only

 private:
  unsigned switches_remain_ = 0;

  // The shards owning the subtree below the first d nodes of the path.
  rqtest::shard_set set_before(std::size_t d) const {
    rqtest::shard_set s{0, 1, rqtest::current_shard().n, rqtest::shared_branchings, 0};
    for (std::size_t k = 0; k != d && s.m > 1; ++k)
      s = s.child(this->stree_[k].index_, this->stree_[k].count_);
    return s;
  }

  // The first choice >= from of a node (c choices, owned by s) that this
  // shard owns; c if none.
  static unsigned next_owned(const rqtest::shard_set& s, unsigned c, unsigned from) {
    unsigned const me = rqtest::current_shard().i;
    for (unsigned j = from; j < c; ++j)
      if (s.child(j, c).has(me)) return j;
    return c;
  }
};

}  // namespace rl

namespace rqtest {

// rl::simulate (context.hpp) for a bounded or full search under
// sharded_tree_scheduler: the search, then on failure the same failing
// execution again with its history collected.
template <class T>
bool simulate_shard(rl::test_params& params) {
  constexpr rl::thread_id_t N = T::params::thread_count;
  params.test_name = "shard";
  *params.output_stream << params.test_name << std::endl;
  auto run = [&](rl::ostringstream& oss, bool second) {
    if (params.search_type == rl::fair_context_bound_scheduler_type)
      return rl::run_test<T, rl::sharded_tree_scheduler<N, true>>(params, oss, second);
    return rl::run_test<T, rl::sharded_tree_scheduler<N, false>>(params, oss, second);
  };
  rl::ostringstream oss;
  rl::test_result_e res = run(oss, false);
  if (res != rl::test_result_success && !params.output_history && !params.collect_history) {
    rl::ostringstream oss2;
    params.initial_state = oss.str();
    params.collect_history = true;
    params.final_state = oss.str();
    rl::iteration_t const stop = params.stop_iteration;
    unsigned long long const foreign = foreign_executions();
    rl::test_result_e res2 = run(oss2, true);
    foreign_executions() = foreign;
    RL_VERIFY(res == res2);
    RL_VERIFY(params.stop_iteration == stop);
    (void)res2;
    (void)stop;
  }
  return T::params::expected_result == res;
}

}  // namespace rqtest
