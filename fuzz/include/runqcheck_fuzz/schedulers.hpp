// runqcheck_fuzz/schedulers.hpp — Relacy schedulers whose every choice comes
// from outside: the next thread at each scheduling point, how many stores
// back an atomic load reads (Relacy's weak-memory choice), and any other
// choice Relacy asks for (rand). Each runs exactly one execution.
//
//   input_scheduler  choices read from a byte string (the fuzz input); when
//                    the bytes run out, deterministic fallbacks. Same bytes,
//                    same execution.
//   pct_scheduler    PCT (Burckhardt et al., ASPLOS 2010): random distinct
//                    thread priorities, d-1 priority change points among the
//                    first k steps; the highest-priority runnable thread runs.
//
// Both record every choice they make in the byte encoding the input
// scheduler reads, so any execution, whoever chose it, is saved as a seed
// and replays exactly.
//
// Thread choice encoding: the candidates are the runnable threads by id. At
// an ordinary point, b % (n+1): 0 stays on the current thread (the
// fuzzer's natural default), k > 0 picks candidate k-1. At a yield (a spin
// wait), the current thread is no candidate unless it is alone, and b % n
// picks one. Load choice: b % 2 == 1 reads one store further back (Relacy
// asks once per step back). Include after std headers (pulls in relacy).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <random>

#include "runqcheck/backend/relacy.hpp"

namespace runqcheck::fuzz {

inline constexpr unsigned kMaxThreads = 8;
inline constexpr std::size_t kMaxChoices = 1 << 16;

// The choices of one execution: read from `in`, recorded in `out`.
struct choices {
  const std::uint8_t* in = nullptr;
  std::size_t in_size = 0;
  std::size_t pos = 0;
  std::uint8_t out[kMaxChoices];
  std::size_t nout = 0;
  std::size_t steps = 0;  // scheduling points seen
  int current_thread = -1;  // the thread running now
  std::size_t stale_loads = 0;  // loads that read an older store than the latest
  // Stores back each thread's current load read (reset by the tracer before a load).
  unsigned stale[kMaxThreads] = {};

  void reset(const std::uint8_t* data, std::size_t size) {
    in = data;
    in_size = size;
    pos = nout = steps = 0;
    current_thread = -1;
    stale_loads = 0;
    std::memset(stale, 0, sizeof stale);
  }
  int next() { return pos < in_size ? in[pos++] : -1; }
  void record(unsigned v) {
    if (nout < kMaxChoices) out[nout++] = static_cast<std::uint8_t>(v);
  }
};

inline choices& current_choices() {
  static choices c;
  return c;
}

namespace detail {
inline bool contains(const rl::thread_id_t* c, unsigned n, int th) {
  for (unsigned i = 0; i < n; i++)
    if (static_cast<int>(c[i]) == th) return true;
  return false;
}
inline unsigned index_of(const rl::thread_id_t* c, unsigned n, rl::thread_id_t th) {
  for (unsigned i = 0; i < n; i++)
    if (c[i] == th) return i;
  return 0;
}
}  // namespace detail

// What both schedulers share: one execution, the encoding of choices.
// (Relacy calls the *_impl members through its CRTP base.)
template <class Derived, rl::thread_id_t N>
class choice_scheduler : public rl::scheduler<Derived, rl::scheduler_thread_info, N> {
  using base_t = rl::scheduler<Derived, rl::scheduler_thread_info, N>;

 public:
  struct task_t {};
  using shared_context_t = typename base_t::shared_context_t;
  choice_scheduler(rl::test_params& p, shared_context_t& c, rl::thread_id_t dyn)
      : base_t(p, c, dyn) {}

  // The runnable threads, by id; at a yield without the current thread
  // unless it is the only one.
  unsigned candidates(bool yield, rl::thread_id_t* out) {
    unsigned n = 0;
    for (rl::thread_id_t i = 0; i < this->running_threads_count && n < N; i++) {
      rl::thread_id_t th = this->running_threads[i];
      unsigned j = n++;
      for (; j > 0 && out[j - 1] > th; j--) out[j] = out[j - 1];  // insertion: kept sorted by id
      out[j] = th;
    }
    if (yield && n > 1) {
      unsigned m = 0;
      for (unsigned i = 0; i < n; i++)
        if (static_cast<int>(out[i]) != current_) out[m++] = out[i];
      n = m;
    }
    return n;
  }

  rl::thread_id_t iteration_begin_impl() {
    current_ = -1;
    rl::unpark_reason r;
    return schedule_impl(r, 0);
  }
  bool iteration_end_impl() { return true; }  // one execution per run
  rl::iteration_t iteration_count_impl() { return 1; }
  void get_state_impl(std::ostream&) {}
  void set_state_impl(std::istream&) {}
  void on_thread_block(rl::thread_id_t, bool) {}

  rl::thread_id_t schedule_impl(rl::unpark_reason& reason, unsigned yield) {
    reason = rl::unpark_reason_normal;
    choices& ch = current_choices();
    ch.steps++;
    rl::thread_id_t c[N] = {};
    unsigned n = candidates(yield != 0, c);
    rl::thread_id_t th = static_cast<Derived*>(this)->pick(c, n, yield != 0);
    // Record the byte that makes the input scheduler pick th.
    if (yield != 0) ch.record(detail::index_of(c, n, th));
    else if (static_cast<int>(th) == current_) ch.record(0);
    else ch.record(detail::index_of(c, n, th) + 1);
    current_ = ch.current_thread = static_cast<int>(th);
    return th;
  }

  unsigned rand_impl(unsigned limit, rl::sched_type t) {
    choices& ch = current_choices();
    unsigned v = static_cast<Derived*>(this)->choose(limit, t);
    ch.record(v);
    if (t == rl::sched_type_atomic_load && v == 1) {
      ch.stale_loads++;
      if (current_ >= 0) ch.stale[current_]++;
    }
    return v;
  }

  int current_ = -1;
};

// Choices from the input bytes; fallbacks when they run out: stay on the
// current thread, or at a yield (or when it cannot run) the next runnable
// thread after it by id; read the latest store; no spurious failure.
template <rl::thread_id_t N>
class input_scheduler : public choice_scheduler<input_scheduler<N>, N> {
  using base_t = choice_scheduler<input_scheduler<N>, N>;

 public:
  using base_t::base_t;

  rl::thread_id_t pick(const rl::thread_id_t* c, unsigned n, bool yield) {
    int b = current_choices().next();
    int cur = this->current_;
    if (b >= 0) {
      if (yield) return c[static_cast<unsigned>(b) % n];
      unsigned v = static_cast<unsigned>(b) % (n + 1);
      if (v == 0) return detail::contains(c, n, cur) ? static_cast<rl::thread_id_t>(cur) : c[0];
      return c[v - 1];
    }
    if (!yield && detail::contains(c, n, cur)) return static_cast<rl::thread_id_t>(cur);
    for (unsigned i = 0; i < n; i++)
      if (static_cast<int>(c[i]) > cur) return c[i];
    return c[0];
  }
  unsigned choose(unsigned limit, rl::sched_type t) {
    int b = current_choices().next();
    if (b >= 0) return static_cast<unsigned>(b) % limit;
    return t == rl::sched_type_cas_fail ? limit - 1 : 0;
  }
};

// PCT's parameters for one run.
struct pct_params {
  std::uint64_t seed = 1;
  unsigned depth = 3;     // d: the bug depth the guarantee is for
  std::size_t steps = 1;  // k: an upper bound on the steps of an execution
  bool stale_loads = true;  // also draw Relacy's weak-memory load choices at random
};
inline pct_params& current_pct() {
  static pct_params p;
  return p;
}

// PCT: thread i starts with a random distinct priority >= d; at the j-th
// change point (steps drawn uniformly in [1, k]) the running thread drops to
// priority d-2-j. The highest-priority runnable thread runs. At a yield (a
// spin wait) the yielding thread is passed over for that one step, or PCT
// would livelock on spin loops (an adaptation: PCT's model has no spinning).
template <rl::thread_id_t N>
class pct_scheduler : public choice_scheduler<pct_scheduler<N>, N> {
  using base_t = choice_scheduler<pct_scheduler<N>, N>;

 public:
  pct_scheduler(rl::test_params& p, typename base_t::shared_context_t& c, rl::thread_id_t dyn)
      : base_t(p, c, dyn) {
    const pct_params& pp = current_pct();
    rng_.seed(pp.seed);
    int prio[N];
    for (rl::thread_id_t i = 0; i < N; i++) prio[i] = static_cast<int>(pp.depth + i);
    std::shuffle(prio, prio + N, rng_);
    for (rl::thread_id_t i = 0; i < N; i++) prio_[i] = prio[i];
    for (unsigned j = 0; j + 1 < pp.depth && j < kMaxChange; j++)
      change_[nchange_++] = 1 + rng_() % (pp.steps == 0 ? 1 : pp.steps);
  }

  rl::thread_id_t pick(const rl::thread_id_t* c, unsigned n, bool yield) {
    step_++;
    for (unsigned j = 0; j < nchange_; j++)
      if (change_[j] == step_ && this->current_ >= 0)
        prio_[this->current_] = static_cast<int>(nchange_ - 1 - j);
    rl::thread_id_t best = c[0];
    for (unsigned i = 1; i < n; i++)
      if (prio_[c[i]] > prio_[best]) best = c[i];
    (void)yield;  // a yielding thread is no candidate (candidates())
    return best;
  }
  unsigned choose(unsigned limit, rl::sched_type t) {
    if (t == rl::sched_type_cas_fail) return limit - 1;
    if (t == rl::sched_type_atomic_load && !current_pct().stale_loads) return 0;
    return static_cast<unsigned>(rng_() % limit);
  }

 private:
  static constexpr unsigned kMaxChange = 16;
  std::mt19937_64 rng_;
  int prio_[N] = {};
  std::size_t change_[kMaxChange] = {};
  unsigned nchange_ = 0;
  std::size_t step_ = 0;
};

// Relacy's parameters for one execution under these schedulers: the random
// search type switches on Relacy's weak-memory choices (stale loads), which
// our scheduler makes; Relacy's progress lines go nowhere.
inline rl::test_params one_execution(unsigned depth_limit) {
  static std::ostream sink(nullptr);  // no buffer
  rl::test_params p;
  p.search_type = rl::random_scheduler_type;
  p.iteration_count = 1;
  p.execution_depth_limit = depth_limit;
  p.output_stream = p.progress_stream = &sink;
  return p;
}

}  // namespace runqcheck::fuzz
