// models/generate/generate.hpp — every small queue program, from the subject
// contract alone (runqcheck/subject.hpp: who may call what), and the
// smaller programs a failing one shrinks to. The small-scope hypothesis
// (Jackson, Software Abstractions): most concurrency bugs show in small
// programs, so enumerate all of them up to a bound, as Korat does for
// structures (Boyapati, Khurshid, Marinov, ISSTA 2002), and let the
// exploring engine run each exhaustively. docs/generated.md.
//
// A program: thread 0 owns P0 (its ring starts with `fill` Gs, runnext set
// or not, the global queue with `global` Gs); threads 1 and 2 own P1, P2,
// which start empty (P1 but where the owner steals from it, below, and
// beside a lone thief that steals: Cap/2 Gs, the most beside which a steal
// still finds room, so that a batch written past its room overwrites one). Roles
// and their operations (as the contract allows):
//   owner   runqput(P0) next false/true, runqget, runqdrain, a reput of the G
//           it got last (next false/true), injectglist's runqputbatch of two
//           new Gs (what does not fit goes to the global tail; with one other
//           thread only, where the batch may not fit), findRunnable's global
//           batch as its first operation on an empty P0, procresize's
//           destroy(P0) as its last, once the others are done (the world
//           stopped), and
//           right after a runqget or runqdrain, runqsteal(P0, P1):
//           findRunnable's stealWork once runqget found nothing (P1 then
//           starts with 0 or 1 G where thread 1 is a thief; only where every
//           steal into an own ring finds room whatever the others do:
//           steals_have_room);
//   thief   runqsteal(own, P0) with and without runnext, runqempty(P0), and
//           after a steal runqget(own), runqdrain(own) and a reput of what it
//           received; the second of two thieves also steals from the first
//           (a chained steal: P1's Gs published by P1's own steal);
//   global  globrunqput of a new G, globrunqget, findRunnable's global batch
//           into its own P as its first operation, then runqget(own) and a
//           reput of what it received.
// A program holds the owner (0..k operations) and one or two other threads
// (1..k each): a thief, a global user, two thieves or one of each.
// Non-redundancy: an operation that can do nothing where it stands (a get of
// a P nobody filled, a reput with nothing received) is never generated;
// two thieves that do not steal from each other are interchangeable (each
// touches only P0 and its own P) unless the owner steals from P1, so of
// (owner, a, b) and (owner, b, a) one is kept; the
// global queue starts non-empty only where a program reads it; a program of
// three threads where one shares nothing with the others (a global user
// while the owner can neither spill nor batch) is the two smaller programs
// side by side, each of which is generated: it is left out.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "scenario.hpp"
#include "text.hpp"

namespace runqcheck::generate {

using model::op;
using model::op_kind;

enum class role : std::uint8_t { owner, thief, global };

inline const char* role_name(role r) {
  return r == role::owner ? "owner" : r == role::thief ? "thief" : "global";
}

struct bounds {
  int ops = 2;                        // k: operations per thread
  int threads = 3;                    // 2 or 3 (the owner and 1..2 others)
  int total = 0;                      // operations in all threads at most (0: ops * threads)
  std::vector<std::uint32_t> caps = {4};
  std::vector<int> global_sizes = {0, 2};  // the global queue's starts (where read)
  std::vector<int> victim_sizes = {0, 1};  // P1's ring at the start, where the owner steals
  bool thief_start = true;  // P1's ring starts with Cap/2 Gs where a lone thief steals into it
  bool prune = true;  // false: twins both ways, unconnected programs too (the pruning's test)
};

// One program before its Gs are numbered: per thread, its role and its
// operations (P indices final, put / glob_put Gs -1 until numbered).
struct program {
  std::uint32_t cap = 4;
  int fill = 0;       // P0's ring at the start
  bool next = false;  // P0's runnext set at the start
  int global = 0;     // the global queue's Gs at the start
  int fill1 = 0;      // P1's ring at the start (the owner's victim, or a lone thief's own)
  std::vector<role> roles;
  std::vector<std::vector<op>> threads;

  int size() const {
    int n = fill + (next ? 1 : 0) + global + fill1;
    for (const auto& t : threads) n += static_cast<int>(t.size());
    return n;
  }
};

namespace detail {

constexpr bool receives(op_kind k) {
  return k == op_kind::get || k == op_kind::drain || k == op_kind::steal ||
         k == op_kind::steal_next || k == op_kind::glob_get || k == op_kind::glob_batch;
}
constexpr bool fills_own(op_kind k) {  // leaves Gs on the thread's own P
  return k == op_kind::steal || k == op_kind::steal_next || k == op_kind::glob_batch;
}

// Operation i of a sequence of role r on P p, given what came before
// (chain: a thief that may also steal from P1).
inline void next_ops(role r, int p, const std::vector<op>& before, std::vector<op>& out,
                     bool chain) {
  out.clear();
  bool got = false, own = false;
  for (const op& o : before) {
    if (receives(o.kind)) got = true;
    if (o.kind == op_kind::reput || o.kind == op_kind::reput_next) got = false;
    if (fills_own(o.kind)) own = true;
  }
  switch (r) {
    case role::owner:
      out = {model::put(0, -1), model::put_next(0, -1), model::get(0), model::drain(0),
             model::put_batch(0, -1, 2)};
      if (got) {
        out.push_back(model::reput(0));
        out.push_back(model::reput_next(0));
      }
      if (before.empty()) out.push_back(model::glob_batch(0));  // kept where P0 starts empty
      // stealWork after runqget found nothing (the runnext variant: P1's
      // runnext is never set, only P1's owner sets it and none does here)
      if (!before.empty() &&
          (before.back().kind == op_kind::get || before.back().kind == op_kind::drain))
        out.push_back(model::steal(0, 1));
      out.push_back(model::destroy(0));  // the last: see with_destroy()
      break;
    case role::thief:
      out = {model::steal(p, 0), model::steal_next(p, 0), model::empty(0)};
      if (chain) {
        out.push_back(model::steal(p, 1));
        out.push_back(model::steal_next(p, 1));
      }
      if (own) {
        out.push_back(model::get(p));
        out.push_back(model::drain(p));
      }
      if (got) out.push_back(model::reput(p));
      break;
    case role::global:
      out = {model::glob_put(-1), model::glob_get()};
      if (before.empty()) out.push_back(model::glob_batch(p));
      if (own) out.push_back(model::get(p));
      if (got) out.push_back(model::reput(p));
      break;
  }
}

// The Gs an owner's operation adds to its P at most: one a put (or the
// runnext it kicks), n a batch of n.
constexpr int puts_of(const op& o) {
  switch (o.kind) {
    case op_kind::put:
    case op_kind::put_next:
    case op_kind::reput:
    case op_kind::reput_next: return 1;
    case op_kind::put_batch: return o.n;
    default: return 0;
  }
}

inline bool owner_steals(const std::vector<op>& seq) {
  for (const op& o : seq)
    if (o.kind == op_kind::steal && o.p == 0) return true;
  return false;
}

inline bool steals_into_own(const std::vector<op>& seq) {
  for (const op& o : seq)
    if (o.kind == op_kind::steal || o.kind == op_kind::steal_next) return true;
  return false;
}

inline bool chained(const std::vector<op>& seq) {
  for (const op& o : seq)
    if ((o.kind == op_kind::steal || o.kind == op_kind::steal_next) && o.victim == 1) return true;
  return false;
}

// Every sequence of role r on P p of length lo..hi, shortest first; with
// chain, those with a chained steal after all the others (so that a twin's
// list begins with its sibling's, P renamed). A destroy ends a sequence.
inline std::vector<std::vector<op>> sequences(role r, int p, int lo, int hi, bool chain = false) {
  std::vector<std::vector<op>> all, level{{}}, tail;
  if (lo == 0) all.push_back({});
  std::vector<op> nx;
  for (int len = 1; len <= hi; len++) {
    std::vector<std::vector<op>> grown;
    for (const auto& s : level) {
      if (!s.empty() && s.back().kind == op_kind::destroy) continue;
      next_ops(r, p, s, nx, chain);
      for (const op& o : nx) {
        auto t = s;
        t.push_back(o);
        grown.push_back(std::move(t));
      }
    }
    level = std::move(grown);
    if (len < lo) continue;
    for (const auto& s : level) (chain && chained(s) ? tail : all).push_back(s);
  }
  all.insert(all.end(), tail.begin(), tail.end());
  return all;
}

inline bool has(const std::vector<std::vector<op>>& ts, op_kind k) {
  for (const auto& t : ts)
    for (const op& o : t)
      if (o.kind == k) return true;
  return false;
}

enum : unsigned { p0 = 1, global_q = 2 };

// What a thread touches besides its own P: P0, the global queue (the owner
// through a spill of a full ring or its global batch).
inline unsigned touches(role r, const std::vector<op>& seq, int fill, std::uint32_t cap) {
  if (r == role::thief) return p0;
  if (r == role::global) return global_q;
  int puts = 0;
  bool batch = false;
  for (const op& o : seq) {
    batch |= o.kind == op_kind::glob_batch || o.kind == op_kind::destroy;
    puts += puts_of(o);  // a batch's leftovers go to the global tail
  }
  bool spill = fill + puts > static_cast<int>(cap);
  return p0 | (batch || spill ? global_q : 0u);
}

// A batch put only where it may not fit: before each put_batch, an upper
// bound of P0's ring (the start's fill, one more a put, none after a drain
// or destroy; gets and steals ignored) leaves less room than the batch. A
// batch that surely fits is runqputbatch's path that findRunnable's global
// batch already drives; the leftovers to the global tail are injectglist's.
inline bool batches_may_spill(const std::vector<op>& own, int fill, std::uint32_t cap) {
  int ub = fill;
  for (const op& o : own) {
    if (o.kind == op_kind::put_batch && ub + o.n <= static_cast<int>(cap)) return false;
    ub = o.kind == op_kind::drain || o.kind == op_kind::destroy ? 0 : ub + puts_of(o);
  }
  return true;
}

inline bool batches(const std::vector<op>& own) {
  return std::any_of(own.begin(), own.end(),
                     [](const op& o) { return o.kind == op_kind::put_batch; });
}

// Three threads, none sharing nothing with the other two.
inline bool connected(const program& p) {
  if (p.threads.size() < 3) return true;
  std::vector<unsigned> t;
  for (std::size_t i = 0; i < p.threads.size(); i++)
    t.push_back(touches(p.roles[i], p.threads[i], p.fill, p.cap));
  for (std::size_t i = 0; i < t.size(); i++) {
    unsigned others = 0;
    for (std::size_t j = 0; j < t.size(); j++)
      if (j != i) others |= t[j];
    if ((t[i] & others) == 0) return false;
  }
  return true;
}

}  // namespace detail

// The contract's room rule (subject.hpp: a steal's thief ring must have
// room; Go's runqgrab writes the Gs before runqsteal's overflow check):
// before each steal into a P, an upper bound of the Gs on it (ring and
// runnext) is at most Cap/2, the most a steal takes, whatever the others do.
// The bound, along its owner's operations: the start's Gs, one more a put
// (n more a batch of n), one fewer a get, none after a drain or destroy,
// Cap/2 - 1 more a steal or global batch into it (the last G taken is
// returned).
inline bool steals_have_room(const model::scenario& sc) {
  const int cap = static_cast<int>(sc.cap), half = cap / 2;
  std::vector<int> ub(static_cast<std::size_t>(std::max(sc.nprocs, 1)), 0);
  for (std::size_t p = 0; p < sc.initial.size() && p < ub.size(); p++)
    ub[p] = static_cast<int>(sc.initial[p].ring.size()) + (sc.initial[p].runnext >= 0 ? 1 : 0);
  for (const auto& t : sc.threads) {
    for (const op& o : t) {
      if (o.p >= ub.size()) continue;
      int& n = ub[o.p];
      switch (o.kind) {
        case op_kind::put:
        case op_kind::put_next:
        case op_kind::reput:
        case op_kind::reput_next:
        case op_kind::put_batch: n = std::min(n + detail::puts_of(o), cap + 1); break;
        case op_kind::get: n = std::max(n - 1, 0); break;
        case op_kind::drain:
        case op_kind::destroy: n = 0; break;
        case op_kind::steal:
        case op_kind::steal_next:
        case op_kind::steal_next_must:
          if (n > half) return false;
          n += half - 1;
          break;
        case op_kind::glob_batch: n = std::min(n + half - 1, cap + 1); break;
        default: break;
      }
    }
  }
  return true;
}

// The program as a scenario: Gs numbered (the start's first: P0's ring, its
// runnext, P1's ring, the global queue; then each put
// and glob_put in thread order), one P per thread (at least 2); a destroy
// waits for every other thread first (procresize stops the world).
inline model::scenario to_scenario(const program& p) {
  model::scenario sc;
  sc.cap = p.cap;
  sc.nprocs = std::max<int>(2, static_cast<int>(p.threads.size()));
  int g = 0;
  sc.initial.resize(1);
  for (int i = 0; i < p.fill; i++) sc.initial[0].ring.push_back(g++);
  if (p.next) sc.initial[0].runnext = g++;
  if (p.fill1 > 0) sc.initial.resize(2);
  for (int i = 0; i < p.fill1; i++) sc.initial[1].ring.push_back(g++);
  for (int i = 0; i < p.global; i++) sc.global.push_back(g++);
  while (!sc.initial.empty() && sc.initial.back().ring.empty() && sc.initial.back().runnext < 0)
    sc.initial.pop_back();
  sc.threads = p.threads;
  auto& own = sc.threads[0];
  if (!own.empty() && own.back().kind == op_kind::destroy) {
    own.pop_back();
    for (std::size_t t = 1; t < sc.threads.size(); t++)
      own.push_back(model::wait_done(static_cast<int>(t)));
    own.push_back(model::destroy(0));
  }
  for (auto& t : sc.threads) {
    for (op& o : t) {
      if (o.kind == op_kind::put || o.kind == op_kind::put_next || o.kind == op_kind::glob_put)
        o.g = static_cast<std::int16_t>(g++);
      if (o.kind == op_kind::put_batch) {
        o.g = static_cast<std::int16_t>(g);
        g += o.n;
      }
    }
  }
  sc.ngs = g;
  return sc;
}

// Calls f(program) for every program within b, smallest first (by size: the
// operations plus the Gs at the start), each once. Returns how many; with no
// f only counts them (no program kept: three threads with k = 3 are 10^7).
inline std::uint64_t enumerate(const bounds& b,
                               const std::function<void(const program&)>& f = nullptr) {
  using detail::sequences;
  std::vector<program> all;
  std::uint64_t counted = 0;
  auto owners = sequences(role::owner, 0, 0, b.ops);
  // The other threads' shapes: their roles, in canonical order.
  std::vector<std::vector<role>> shapes = {{role::thief}, {role::global}};
  if (b.threads >= 3) {
    shapes.push_back({role::thief, role::thief});
    shapes.push_back({role::thief, role::global});
  }
  for (std::uint32_t cap : b.caps) {
    for (const auto& shape : shapes) {
      const bool twins = shape.size() == 2 && shape[0] == shape[1];
      std::vector<std::vector<std::vector<op>>> others;
      for (std::size_t i = 0; i < shape.size(); i++)
        others.push_back(sequences(shape[i], static_cast<int>(i) + 1, 1, b.ops, twins && i == 1));
      std::vector<std::size_t> ix(shape.size(), 0);
      for (;;) {
        // Twins: the second's list is the first's, then those with a chained steal.
        bool canonical = !b.prune || !twins || ix[1] >= others[0].size() || ix[0] <= ix[1];
        std::size_t others_ops = 0;
        for (std::size_t i = 0; i < shape.size(); i++) others_ops += others[i][ix[i]].size();
        for (const auto& own : owners) {
          // An owner stealing from P1 tells P1 from P2: both orders of twins.
          const bool steals = detail::owner_steals(own);
          if (!canonical && !steals) continue;
          // The owner's batch with one other thread only (batches_may_spill): three
          // threads with a batch doubled the space's executions (143 million against 95).
          if (shape.size() > 1 && detail::batches(own)) continue;
          if (b.total > 0 && own.size() + others_ops > static_cast<std::size_t>(b.total)) continue;
          program pr;
          pr.cap = cap;
          pr.roles = {role::owner};
          pr.threads = {own};
          for (std::size_t i = 0; i < shape.size(); i++) {
            pr.roles.push_back(shape[i]);
            pr.threads.push_back(others[i][ix[i]]);
          }
          bool batch0 = !own.empty() && own[0].kind == op_kind::glob_batch;
          bool reads_global = detail::has(pr.threads, op_kind::glob_get) ||
                              detail::has(pr.threads, op_kind::glob_batch);
          // P1's starts: the owner's victim (below), or, beside a lone thief that
          // steals, its own ring with Cap/2 Gs: the most beside which a steal still
          // finds room, so that a batch written past it overwrites a G.
          std::vector<int> p1_starts = b.victim_sizes;
          const int half = static_cast<int>(cap / 2);
          const bool lone_thief = shape.size() == 1 && shape[0] == role::thief &&
                                  b.thief_start && detail::steals_into_own(pr.threads[1]);
          if (lone_thief && std::find(p1_starts.begin(), p1_starts.end(), half) == p1_starts.end())
            p1_starts.push_back(half);
          for (int fill = 0; fill <= static_cast<int>(cap); fill++) {
            if (!detail::batches_may_spill(own, fill, cap)) continue;
            for (int nx = 0; nx < 2; nx++) {
              if (batch0 && (fill > 0 || nx > 0)) continue;  // the batch needs an empty P0
              for (int gs : b.global_sizes) {
                if (gs > 0 && !reads_global && b.prune) continue;
                for (int v : p1_starts) {
                  // P1 starts with Gs only where the owner steals from a thief's P1,
                  // or with Cap/2 beside a lone thief stealing into it.
                  const bool victim = steals && shape[0] == role::thief &&
                                      std::find(b.victim_sizes.begin(), b.victim_sizes.end(),
                                                v) != b.victim_sizes.end();
                  if (v > 0 && !victim && !(lone_thief && v == half)) continue;
                  pr.fill = fill;
                  pr.next = nx == 1;
                  pr.global = gs;
                  pr.fill1 = v;
                  if ((steals || v > 0) && !steals_have_room(to_scenario(pr))) continue;
                  if (b.prune && !detail::connected(pr)) continue;
                  if (f) all.push_back(pr);
                  counted++;
                }
              }
            }
          }
        }
        std::size_t d = 0;
        while (d < ix.size() && ++ix[d] == others[d].size()) ix[d++] = 0;
        if (d == ix.size()) break;
      }
    }
  }
  if (!f) return counted;
  std::stable_sort(all.begin(), all.end(), [](const program& x, const program& y) {
    if (x.threads.size() != y.threads.size()) return x.threads.size() < y.threads.size();
    return x.size() < y.size();
  });
  for (const program& p : all) f(p);
  return all.size();
}

// The scenarios one step smaller than sc (for shrinking a failure: the
// runner keeps the first that still fails and starts again): a thread
// dropped, an operation dropped, a G of the start dropped (the last of a
// ring, a runnext, the head of the global queue), the capacity halved down
// to min_cap. Gs are renumbered; the owner (thread 0) stays thread 0, each P
// keeps one owner (model::second_owner), and if every steal of sc finds room
// in its ring (steals_have_room), so does every steal of a smaller one: a
// step never leaves the contract (dropping the get before an owner's steal
// would steal into a full ring, which fails on a correct port).
inline std::vector<model::scenario> smaller(const model::scenario& sc, std::uint32_t min_cap) {
  std::vector<model::scenario> out;
  const bool room = steals_have_room(sc);
  auto keep = [&](model::scenario s) {
    if (model::second_owner(s).empty() && (!room || steals_have_room(s)))
      out.push_back(std::move(s));
  };
  auto renumber = [](model::scenario s) {
    std::vector<int> map(static_cast<std::size_t>(std::max(s.ngs, 1)), -1);
    int g = 0;
    auto m = [&](int old) {
      if (map[static_cast<std::size_t>(old)] < 0) map[static_cast<std::size_t>(old)] = g++;
      return map[static_cast<std::size_t>(old)];
    };
    for (auto& ip : s.initial) {
      for (int& x : ip.ring) x = m(x);
      if (ip.runnext >= 0) ip.runnext = m(ip.runnext);
    }
    for (int& x : s.global) x = m(x);
    for (auto& t : s.threads)
      for (op& o : t) {
        if (o.g < 0) continue;
        int first = m(o.g);
        for (int i = 1; o.kind == op_kind::put_batch && i < o.n; i++) m(o.g + i);  // consecutive
        o.g = static_cast<std::int16_t>(first);
      }
    while (!s.initial.empty() && s.initial.back().ring.empty() && s.initial.back().runnext < 0)
      s.initial.pop_back();
    s.ngs = g;
    return s;
  };
  for (std::size_t t = 1; t < sc.threads.size(); t++) {
    if (sc.threads.size() <= 2) break;  // keep two threads: a race needs them
    model::scenario s = sc;
    s.threads.erase(s.threads.begin() + static_cast<long>(t));
    // P and thread indices above t shift down with their owner; a wait for t goes.
    bool steals_from_t = false;
    for (auto& th : s.threads) {
      std::erase_if(th, [&](const op& o) { return o.kind == op_kind::wait_done && o.victim == t; });
      for (op& o : th) {
        steals_from_t |= o.kind != op_kind::wait_done && o.victim == t && o.kind != op_kind::empty;
        if (o.p > t) o.p--;
        if (o.victim > t) o.victim--;
      }
    }
    if (steals_from_t) continue;  // its P would go with it
    if (t < s.initial.size()) s.initial.erase(s.initial.begin() + static_cast<long>(t));
    s.nprocs = std::max(2, s.nprocs - 1);
    keep(renumber(s));
  }
  for (std::size_t t = 0; t < sc.threads.size(); t++) {
    for (std::size_t i = 0; i < sc.threads[t].size(); i++) {
      if (t > 0 && sc.threads[t].size() == 1) continue;  // dropping the thread is above
      if (sc.threads[t][i].kind == op_kind::wait_done) continue;  // a destroy needs it
      model::scenario s = sc;
      s.threads[t].erase(s.threads[t].begin() + static_cast<long>(i));
      keep(renumber(s));
    }
  }
  for (std::size_t p = 0; p < sc.initial.size(); p++) {
    if (!sc.initial[p].ring.empty()) {
      model::scenario s = sc;
      s.initial[p].ring.pop_back();
      keep(renumber(s));
    }
    if (sc.initial[p].runnext >= 0) {
      model::scenario s = sc;
      s.initial[p].runnext = -1;
      keep(renumber(s));
    }
  }
  if (!sc.global.empty()) {
    model::scenario s = sc;
    s.global.erase(s.global.begin());
    keep(renumber(s));
  }
  if (sc.cap / 2 >= min_cap) {
    bool fits = true;
    for (const auto& ip : sc.initial) fits &= ip.ring.size() <= sc.cap / 2;
    if (fits) {
      model::scenario s = sc;
      s.cap = sc.cap / 2;
      keep(s);
    }
  }
  return out;
}

// The pruning's test: every program the unpruned enumeration makes is one
// the pruned enumeration `kept` (as spec_text of to_scenario) holds, or is
// covered by it: its twin mirror (threads 1 and 2, P1 and P2 swapped, the owner's too) is
// kept; or it starts with 2 Gs on a global queue nobody reads, and the same
// program with an empty one is kept; or one of its three threads shares
// nothing with the others, and both parts are kept (the other two, and that
// thread beside an owner with nothing to do). Returns the first program
// that is neither ("" if none), with `why`.
inline const char* uncovered(const bounds& b, const std::function<bool(const program&)>& kept,
                             program& bad) {
  bounds all = b;
  all.prune = false;
  const char* why = nullptr;
  auto reads = [](const program& p) {
    return detail::has(p.threads, op_kind::glob_get) || detail::has(p.threads, op_kind::glob_batch);
  };
  // p without its global start where nobody reads it (the pruned form).
  auto plain = [&](program p) {
    if (!reads(p)) p.global = 0;
    return p;
  };
  // Thread t of p moved to thread `to`, its own P with it (P t -> P to).
  auto move = [](std::vector<op> seq, int t, int to) {
    for (op& o : seq) {
      if (o.p == t) o.p = static_cast<std::uint8_t>(to);
      bool steal = o.kind == op_kind::steal || o.kind == op_kind::steal_next;
      if (steal && o.victim == t) o.victim = static_cast<std::uint8_t>(to);
    }
    return seq;
  };
  enumerate(all, [&](const program& p) {
    if (why != nullptr || kept(plain(p))) return;
    if (p.threads.size() == 3 && p.roles[1] == p.roles[2]) {
      // The mirror: threads 1 and 2 swapped, and P1 and P2 (through a spare index).
      auto swap12 = [&](const std::vector<op>& seq) {
        return move(move(move(seq, 1, 9), 2, 1), 9, 2);
      };
      program m = p;  // the owner's steal from P1 becomes one from P2
      m.threads[0] = swap12(p.threads[0]);
      m.threads[1] = swap12(p.threads[2]);
      m.threads[2] = swap12(p.threads[1]);
      if (p.fill1 == 0 && kept(plain(m))) return;  // P2 never starts with Gs
    }
    if (p.threads.size() == 3 && !detail::connected(p)) {
      for (int i = 1; i < 3; i++) {
        unsigned ti = detail::touches(p.roles[i], p.threads[i], p.fill, p.cap), rest = 0;
        for (int j = 0; j < 3; j++)
          if (j != i) rest |= detail::touches(p.roles[j], p.threads[j], p.fill, p.cap);
        if ((ti & rest) != 0) continue;
        program a = p, c = p;
        a.roles.erase(a.roles.begin() + i);
        a.threads.erase(a.threads.begin() + i);
        if (i == 1) a.threads[1] = move(a.threads[1], 2, 1);
        c.roles = {role::owner, p.roles[i]};
        c.threads = {{}, move(p.threads[i], i, 1)};
        c.fill1 = 0;  // its owner steals nothing
        if (kept(plain(a)) && kept(plain(c))) return;
      }
    }
    bad = p;
    why = "neither kept nor covered by a kept program";
  });
  return why;
}

}  // namespace runqcheck::generate
