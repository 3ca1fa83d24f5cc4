// models/generate/protocol.hpp — every small program of the wakeup protocol
// (models/protocol/protocol_world.hpp's world): enumerated small states of the
// scheduler, each M given one of the roles the world runs, and the smaller
// programs a failing one shrinks to; as one line of text and back
// (docs/generated.md, "Protocol programs").
//
// A program: gomaxprocs (1..3 Ps; 4 with a resizer, whose last P dies:
// procresize's hand-out then has an idle P beside a handed-back one), 2..3
// Ms and the Gs the global queue starts with. Each M has a role
// (protocol_scenario.hpp's m_role, same names and order): one holding a P
// (submitter, spinner, running, gosched, injector, resizer, busy,
// syscall_block, syscall_keep, spinner_drop: a spinner whose search found
// nothing, at findRunnable's release of its P and the Delicate dance; each
// G of its program runs on once found, as runs_on says), or none (idle:
// parked; syscall: its G returns from a syscall, its old P another M's or
// none; injector_nop; sysmon; handback: parked, the old M of a P stopped
// with Gs). Ps: the holders' P0, P1, ... in M order, then handback's, then
// idle ones (on pidle), the resizer's dying P last. Gs: numbered in M order,
// then the global queue's; each submit with next false or true where the
// role passes next (runqput's), false where it does not (injectglist, a
// syscall's G, a global G).
//
// Valid states only (Go's own invariants at the start): at most one
// spinner or spinner_drop (its nmspinning; spinner_drop's search found the
// global queue empty, so no global G beside it), one resizer, one sysmon
// (only beside an M in a syscall with its P: retake has nothing else to
// take), a handback only beside a resizer; busy's wakep found no idle P (so none is idle at the
// start); a global G beside an idle P only where an M holding a P is about
// to schedule (running, spinner, gosched, resizer: Go's "a spinning M or one
// in findRunnable"); at least one M not parked; a resizer only beside
// parked Ms (the world is stopped). Left out as Go's own windows, which Go
// 1.27 has too: a blocking syscall's handoffp beside an M that submits
// (catalog handoffp_vs_submit, docs/proofs.md; a submitter's kept where the
// global queue, or the blocking M's P, starts with a G: handoffp starts an
// M for it, which closes the window), and two goscheds (a non-spinning M's global batch leaves the
// second G in its ring with no wakep, as Go's findRunnable does), or a
// gosched beside a syscall's G whose exit finds no P (the same batch: its G
// and the gosched's). In a spinner_drop's program (each G
// runs on) both open without a submitter or a second gosched, as the Ms
// that would come back for the G do not: no syscall_block beside it (its
// handoffp against the dropping spinner's resetspinning wakep), and one G
// at most put on the global queue by a role (injector, injector_nop, a
// syscall's G, a gosched's own).
// Symmetry: Ms of the same role are interchangeable (the Ps they hold are
// numbered by M order), so of the orders of equal roles one is kept (roles
// sorted); a G's number is fixed by its place.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace runqcheck::generate::protocol {

// protocol_scenario.hpp's m_role::kind, in its order (the runner checks it).
enum class kind : std::uint8_t {
  submitter, spinner, running, syscall, idle, gosched, injector, injector_nop, resizer, busy,
  syscall_block, handback, syscall_keep, sysmon, gosched_ring, spinner_drop
};
inline constexpr std::array<std::string_view, 16> kind_names = {
    "submitter", "spinner",  "running", "syscall",       "idle",     "gosched",      "injector",
    "injector_nop", "resizer", "busy", "syscall_block", "handback", "syscall_keep", "sysmon",
    "gosched_ring", "spinner_drop"};
inline std::string_view name_of(kind k) { return kind_names[static_cast<std::size_t>(k)]; }

constexpr bool holds_p(kind k) {
  return k == kind::submitter || k == kind::spinner || k == kind::running ||
         k == kind::gosched || k == kind::injector || k == kind::resizer || k == kind::busy ||
         k == kind::syscall_block || k == kind::syscall_keep || k == kind::gosched_ring ||
         k == kind::spinner_drop;
}
constexpr bool needs_syscalls(kind k) {
  return k == kind::syscall || k == kind::syscall_keep || k == kind::sysmon;
}
constexpr bool needs_procresize(kind k) { return k == kind::resizer || k == kind::handback; }
// gosched_ring (a gosched whose batch's rest is on its ring with no wakep)
// is the world's, taken by run and replay; not generated: beside no spinner
// it is Go's own window (as two goscheds); beside one, a gosched's ready
// reaches the same state (its wakep sees the spinner and returns).
constexpr bool generated(kind k) { return k != kind::gosched_ring; }
// An M holding a P that schedules next (finds a global G).
constexpr bool schedules(kind k) {
  return k == kind::running || k == kind::spinner || k == kind::gosched || k == kind::resizer ||
         k == kind::gosched_ring || k == kind::spinner_drop;
}
// The Gs a role takes: [lo, hi] (hi capped by the bound), whether next is chosen.
constexpr int min_gs(kind k) {
  switch (k) {
    case kind::submitter: case kind::gosched: case kind::injector: case kind::injector_nop:
    case kind::busy: case kind::syscall: case kind::syscall_keep: case kind::handback:
      return 1;
    case kind::gosched_ring: return 2;  // a G on the ring, the one that goscheds
    default: return 0;
  }
}
constexpr int max_gs_of(kind k) {
  switch (k) {
    case kind::spinner: case kind::running: case kind::idle: case kind::sysmon:
    case kind::spinner_drop:
      return 0;
    case kind::syscall: case kind::syscall_block: return 1;
    default: return 2;
  }
}
// Submit j of n of role k may have next true (runqput's next).
constexpr bool next_choice(kind k, int j, int n) {
  switch (k) {
    case kind::submitter: case kind::busy: case kind::resizer: case kind::syscall_block:
      return true;
    case kind::gosched: return j + 1 < n;  // the last goscheds itself (global queue)
    case kind::syscall_keep: return j > 0;  // the queued ones, not the G in the syscall
    default: return false;
  }
}

struct submit {
  int g;
  bool next;
};
struct m_spec {
  kind k;
  int p = -1;  // held; syscall: its old P (-1: none); handback: its stopped P
  std::vector<submit> subs;
};
struct program {
  int nprocs = 1;
  std::vector<m_spec> ms;
  std::vector<int> global;  // the global queue at the start, head first
  int gs() const {
    int n = static_cast<int>(global.size());
    for (const m_spec& m : ms) n += static_cast<int>(m.subs.size());
    return n;
  }
  // The shrink order's measure: Ms, Gs, Ps.
  int size() const { return static_cast<int>(ms.size()) + gs() + nprocs; }
};

// Whether each G of p runs on once found (the world's run_on: its M leaves):
// where an M's search is already done (spinner_drop), the searches for the
// Gs are what is explored, as the catalog's gosched_vs_dropping_spinner.
inline bool runs_on(const program& p) {
  return std::any_of(p.ms.begin(), p.ms.end(),
                     [](const m_spec& m) { return m.k == kind::spinner_drop; });
}

struct bounds {
  int max_ms = 3;       // 2..3 (the world has 4)
  int max_gs = 2;       // Gs in all (the world has 4)
  int max_gs_3m = 2;    // Gs in all where there are 3 Ms
  int max_procs = 3;    // 1..3
  bool syscalls = true;  // the subject has has_protocol_syscalls
  bool procresize = true;  // the subject has has_protocol_procresize
};

// One M's shape before numbering: its role, its submits' next flags and,
// for a syscall, whether its old P is held by another M (index of that M's
// P among the held ones, or -1).
struct shape {
  kind k;
  std::vector<bool> next;
  int oldp = -1;
  auto key() const { return std::tuple(static_cast<int>(k), next, oldp); }
};

namespace detail {

inline void shapes_of(kind k, int max_g, int max_held, std::vector<shape>& out) {
  int hi = std::min(max_gs_of(k), max_g);
  for (int n = min_gs(k); n <= hi; n++) {
    // every next combination where chosen
    int free = 0;
    for (int j = 0; j < n; j++) free += next_choice(k, j, n) ? 1 : 0;
    for (int mask = 0; mask < (1 << free); mask++) {
      shape s{k, {}, -1};
      int b = 0;
      for (int j = 0; j < n; j++)
        s.next.push_back(next_choice(k, j, n) ? ((mask >> b++) & 1) != 0 : false);
      if (k == kind::syscall)
        for (int o = -1; o < max_held; o++) {
          s.oldp = o;
          out.push_back(s);
        }
      else
        out.push_back(s);
    }
  }
}

// The program of shapes ms (sorted), nprocs Ps and nglobal global Gs, or
// false if that state is not valid. Ps: max_procs at most, one more with a
// resizer (its dying P: max_procs live after the resize).
inline bool build(const std::vector<shape>& ms, int nprocs, int nglobal, int max_procs,
                  program& p, const char** why = nullptr) {
  auto no = [&](const char* rule) {
    if (why != nullptr) *why = rule;
    return false;
  };
  int held = 0, spinners = 0, resizers = 0, handbacks = 0, sysmons = 0, keeps = 0, active = 0;
  int goscheds = 0, parked = 0, blocks = 0, submits = 0, submitters = 0, exits = 0;
  int drops = 0, to_global = 0;  // to_global: Gs a role puts on the global queue
  int block_gs = 0;              // Gs on syscall_blocks' Ps (readied before the syscall)
  bool busy = false, sched = false;
  for (const shape& s : ms) {
    held += holds_p(s.k) ? 1 : 0;
    spinners += s.k == kind::spinner || s.k == kind::spinner_drop;
    drops += s.k == kind::spinner_drop;
    int n = static_cast<int>(s.next.size());
    to_global += s.k == kind::injector || s.k == kind::injector_nop ? n
                 : s.k == kind::syscall || s.k == kind::gosched ? 1 : 0;
    resizers += s.k == kind::resizer;
    handbacks += s.k == kind::handback;
    sysmons += s.k == kind::sysmon;
    keeps += s.k == kind::syscall_keep;
    busy |= s.k == kind::busy;
    sched |= schedules(s.k);
    active += s.k != kind::idle && s.k != kind::handback;
    parked += s.k == kind::idle || s.k == kind::handback;
    goscheds += s.k == kind::gosched || s.k == kind::gosched_ring;
    blocks += s.k == kind::syscall_block;
    block_gs += s.k == kind::syscall_block ? n : 0;
    submits += s.k == kind::submitter || s.k == kind::gosched || s.k == kind::injector ||
               s.k == kind::injector_nop;
    submitters += s.k == kind::submitter;
    exits += s.k == kind::syscall || s.k == kind::syscall_keep;
  }
  // Go's own windows and the world's preconditions (the top comment)
  if (resizers > 0 && parked + resizers != static_cast<int>(ms.size()))
    return no("a resizer only beside parked Ms (the world is stopped)");
  // A submitter's: with a G on the global queue, or on the blocking M's P,
  // the window closes (handoffp starts an M for it, which finds the
  // submitted G too); a gosched's or an injector's stays open (the nightly
  // space: `procs=2 global=1 | idle | gosched@0 0 | syscall_block@1` fails
  // the bundled protocol).
  if (blocks > 0 &&
      (submits > submitters || (submitters > 0 && nglobal == 0 && block_gs == 0)))
    return no("a syscall_block beside a submit (Go's own window)");
  if (goscheds > 1) return no("two goscheds (Go's own window)");
  if (goscheds > 0 && exits > 0)
    return no("a gosched beside a G that leaves a syscall without a P (Go's own window)");
  if (spinners > 1) return no("two spinners");
  if (resizers > 1 || sysmons > 1) return no("two resizers or two sysmons");
  if (handbacks > resizers) return no("a handback without a resizer");
  if (active == 0) return no("every M parked");
  if (sysmons > 0 && keeps == 0) return no("a sysmon without a syscall_keep");
  if (nprocs > max_procs + resizers) return no("more Ps than the bound");
  int fixed = held + handbacks + resizers;  // resizer: its dying P
  if (nprocs < std::max(fixed, 1)) return no("fewer Ps than the Ms hold");
  int idle_ps = nprocs - fixed;
  if (busy && idle_ps > 0) return no("a busy M beside an idle P (its wakep found none)");
  if (nglobal > 0 && idle_ps > 0 && !sched)
    return no("a global G beside an idle P and no M about to schedule");
  if (nglobal > 0 && drops > 0) return no("a global G beside a spinner_drop (it found none)");
  // Where each G runs on (runs_on), Go's two windows above open without a
  // second gosched or a submitter: the Ms that would come back do not.
  if (drops > 0 && (blocks > 0 || to_global > 1))
    return no("a syscall_block or two global puts beside a spinner_drop");
  for (const shape& s : ms)
    if (s.k == kind::syscall && s.oldp >= held) return no("a syscall's old P held by no M");
  p = program{};
  p.nprocs = nprocs;
  int g = 0, next_p = 0;
  for (const shape& s : ms) {
    m_spec m{s.k, -1, {}};
    if (holds_p(s.k)) m.p = next_p++;
    for (bool nx : s.next) m.subs.push_back({g++, nx});
    p.ms.push_back(std::move(m));
  }
  for (m_spec& m : p.ms) {
    if (m.k == kind::handback) m.p = next_p++;
    if (m.k == kind::syscall) m.p = -1;
  }
  for (std::size_t i = 0; i < ms.size(); i++)
    if (ms[i].k == kind::syscall) p.ms[i].p = ms[i].oldp;
  for (int i = 0; i < nglobal; i++) p.global.push_back(g++);
  return true;
}

// Gs in all for programs of nms Ms.
inline int max_gs_for(const bounds& b, int nms) {
  return nms >= 3 ? std::min(b.max_gs, b.max_gs_3m) : b.max_gs;
}

// Every M shape of programs of nms Ms within b, in the enumeration's order.
inline std::vector<shape> all_shapes(const bounds& b, int nms) {
  std::vector<shape> all;
  for (std::size_t k = 0; k < kind_names.size(); k++) {
    auto kk = static_cast<kind>(k);
    if (!generated(kk) || (needs_syscalls(kk) && !b.syscalls) ||
        (needs_procresize(kk) && !b.procresize))
      continue;
    shapes_of(kk, max_gs_for(b, nms), nms - 1, all);
  }
  return all;
}

}  // namespace detail

// Whether p is a program enumerate(b) makes, up to the symmetry of equal
// roles and the numbering of Ps and Gs: the same rules (build's), declared
// once, for the enumeration and the shrinker. If so, canon is the program
// as enumerate numbers it; if not, why names the rule p breaks (one line).
inline bool in_space(const program& p, const bounds& b, program& canon, std::string& why) {
  const int nms = static_cast<int>(p.ms.size());
  if (nms < 2 || nms > b.max_ms) {
    why = std::to_string(nms) + " M" + (nms == 1 ? "" : "s") + " (the space has 2.." +
          std::to_string(b.max_ms) + ")";
    return false;
  }
  if (p.gs() > detail::max_gs_for(b, nms)) {
    why = std::to_string(p.gs()) + " Gs (the space has <= " +
          std::to_string(detail::max_gs_for(b, nms)) + " with " + std::to_string(nms) + " Ms)";
    return false;
  }
  const std::vector<shape> all = detail::all_shapes(b, nms);
  auto index = [&](const shape& s) {
    for (std::size_t i = 0; i < all.size(); i++)
      if (all[i].key() == s.key()) return static_cast<int>(i);
    return -1;
  };
  std::vector<shape> sh(p.ms.size());
  std::vector<int> ix(p.ms.size(), -1);
  auto never = [&](std::size_t i) {
    why = "M" + std::to_string(i) + ": " + std::string(name_of(p.ms[i].k)) +
          " with these Gs is never generated";
    return false;
  };
  for (std::size_t i = 0; i < p.ms.size(); i++) {
    sh[i].k = p.ms[i].k;
    for (const submit& s : p.ms[i].subs) sh[i].next.push_back(s.next);
    if (p.ms[i].k != kind::syscall && (ix[i] = index(sh[i])) < 0) return never(i);
  }
  // The holders in the enumeration's order number the held Ps (a syscall's
  // old P is one of them).
  std::vector<std::size_t> order(p.ms.size());
  for (std::size_t i = 0; i < order.size(); i++) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return ix[x] < ix[y];
  });
  std::vector<int> held_as(static_cast<std::size_t>(std::max(p.nprocs, 1)), -1);
  int held = 0;
  for (std::size_t i : order)
    if (holds_p(p.ms[i].k) && p.ms[i].p >= 0 && p.ms[i].p < p.nprocs)
      held_as[static_cast<std::size_t>(p.ms[i].p)] = held++;
  for (std::size_t i = 0; i < p.ms.size(); i++) {
    if (p.ms[i].k != kind::syscall) continue;
    int o = p.ms[i].p;
    sh[i].oldp = o >= 0 && o < p.nprocs ? held_as[static_cast<std::size_t>(o)] : -1;
    if (o >= 0 && sh[i].oldp < 0) {
      why = "M" + std::to_string(i) + ": a syscall whose old P no M holds is never generated";
      return false;
    }
    if ((ix[i] = index(sh[i])) < 0) return never(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return ix[x] < ix[y];
  });
  std::vector<shape> ms;
  for (std::size_t i : order) ms.push_back(sh[i]);
  const char* rule = "";
  if (!detail::build(ms, p.nprocs, static_cast<int>(p.global.size()), b.max_procs, canon, &rule)) {
    why = rule;
    return false;
  }
  return true;
}

// Every program within b, smallest first (Ms, then Gs, then Ps), each once
// up to the symmetry of equal roles; calls f on each. Returns the count.
inline std::uint64_t enumerate(const bounds& b, const std::function<void(const program&)>& f) {
  std::uint64_t n = 0;
  for (int nms = 2; nms <= b.max_ms; nms++) {
    int gmax = detail::max_gs_for(b, nms);
    std::vector<shape> all = detail::all_shapes(b, nms);
    for (int ngs = 0; ngs <= gmax; ngs++) {
      for (int nprocs = 1; nprocs <= b.max_procs + (b.procresize ? 1 : 0); nprocs++) {
        // multisets of nms shapes (indices non-decreasing: equal roles once)
        std::vector<std::size_t> idx(static_cast<std::size_t>(nms), 0);
        for (;;) {
          std::vector<shape> ms;
          int used = 0;
          for (std::size_t i : idx) {
            ms.push_back(all[i]);
            used += static_cast<int>(all[i].next.size());
          }
          program p;
          if (used <= ngs && detail::build(ms, nprocs, ngs - used, b.max_procs, p)) {
            n++;
            f(p);
          }
          // next multiset
          int j = nms - 1;
          while (j >= 0 && idx[static_cast<std::size_t>(j)] + 1 == all.size()) j--;
          if (j < 0) break;
          idx[static_cast<std::size_t>(j)]++;
          for (int q = j + 1; q < nms; q++)
            idx[static_cast<std::size_t>(q)] = idx[static_cast<std::size_t>(j)];
        }
      }
    }
  }
  return n;
}

// --- one line of text ---
// procs=N [global=a,b] | ROLE[@P] [G...] | ...
//   ROLE: a kind's name; @P its P (held; syscall: its old P; handback: its
//   stopped P); G: a G's number, with 'n' after it for next = true.
//   e.g.  procs=2 | submitter@0 0n | spinner@1 | idle
inline std::string spec_text(const program& p) {
  std::ostringstream o;
  o << "procs=" << p.nprocs;
  if (!p.global.empty()) {
    o << " global=";
    for (std::size_t i = 0; i < p.global.size(); i++) o << (i ? "," : "") << p.global[i];
  }
  for (const m_spec& m : p.ms) {
    o << " | " << name_of(m.k);
    if (m.p >= 0) o << "@" << m.p;
    for (const submit& s : m.subs) o << " " << s.g << (s.next ? "n" : "");
  }
  return o.str();
}

namespace detail {
inline bool number(std::string_view s, int lo, int hi, int& v) {
  if (s.empty() || s.size() > 2) return false;
  v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  return v >= lo && v <= hi;
}
}  // namespace detail

// The program of text (spec_text's form) within the world's limits (Ps, Ms,
// Gs); false with err set (one line) if text is not one.
inline bool parse_spec(std::string_view text, program& p, std::string& err, int max_ps,
                       int max_ms, int max_g) {
  p = program{};
  std::vector<std::string> parts;
  std::string cur;
  for (char c : text) {
    if (c == '|') {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  parts.push_back(cur);
  auto words = [](const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> w;
    for (std::string x; in >> x;) w.push_back(x);
    return w;
  };
  std::vector<bool> seen(static_cast<std::size_t>(max_g), false);
  auto take_g = [&](std::string_view s, int& g) {
    if (!detail::number(s, 0, max_g - 1, g)) {
      err = "'" + std::string(s) + "' is not a G (0.." + std::to_string(max_g - 1) + ")";
      return false;
    }
    if (seen[static_cast<std::size_t>(g)]) {
      err = "G" + std::to_string(g) + " given twice";
      return false;
    }
    seen[static_cast<std::size_t>(g)] = true;
    return true;
  };
  bool procs = false;
  for (const std::string& w : words(parts[0])) {
    if (w.rfind("procs=", 0) == 0) {
      if (!detail::number(std::string_view(w).substr(6), 1, max_ps, p.nprocs)) {
        err = "'" + w + "': procs is 1.." + std::to_string(max_ps);
        return false;
      }
      procs = true;
    } else if (w.rfind("global=", 0) == 0) {
      std::string_view rest = std::string_view(w).substr(7);
      while (!rest.empty()) {
        std::size_t c = rest.find(',');
        int g = 0;
        if (!take_g(rest.substr(0, c), g)) return false;
        p.global.push_back(g);
        rest = c == std::string_view::npos ? std::string_view() : rest.substr(c + 1);
      }
    } else {
      err = "'" + w + "': expected procs=N or global=G,...";
      return false;
    }
  }
  if (!procs) {
    err = "no procs=N before the first '|'";
    return false;
  }
  if (parts.size() < 2 || static_cast<int>(parts.size()) - 1 > max_ms) {
    err = "a program has 1.." + std::to_string(max_ms) + " Ms ('|' before each)";
    return false;
  }
  for (std::size_t i = 1; i < parts.size(); i++) {
    std::vector<std::string> w = words(parts[i]);
    if (w.empty()) {
      err = "M" + std::to_string(i - 1) + ": no role";
      return false;
    }
    std::string role = w[0], at;
    if (std::size_t a = role.find('@'); a != std::string::npos) {
      at = role.substr(a + 1);
      role.resize(a);
    }
    auto it = std::find(kind_names.begin(), kind_names.end(), role);
    if (it == kind_names.end()) {
      err = "M" + std::to_string(i - 1) + ": no role '" + role + "'";
      return false;
    }
    m_spec m{static_cast<kind>(it - kind_names.begin()), -1, {}};
    bool wants_p = holds_p(m.k) || m.k == kind::handback;
    if (!at.empty() && !detail::number(at, 0, p.nprocs - 1, m.p)) {
      err = "M" + std::to_string(i - 1) + ": '@" + at + "' is not a P of procs=" +
            std::to_string(p.nprocs);
      return false;
    }
    if (wants_p != (m.p >= 0) && m.k != kind::syscall) {
      err = "M" + std::to_string(i - 1) + ": " + role + (wants_p ? " needs @P" : " holds no P");
      return false;
    }
    for (std::size_t j = 1; j < w.size(); j++) {
      std::string_view g = w[j];
      bool nx = !g.empty() && g.back() == 'n';
      if (nx) g.remove_suffix(1);
      submit s{0, nx};
      if (!take_g(g, s.g)) return false;
      m.subs.push_back(s);
    }
    int n = static_cast<int>(m.subs.size());
    if (n < min_gs(m.k) || n > std::max(max_gs_of(m.k), 1)) {
      err = "M" + std::to_string(i - 1) + ": " + role + " takes " + std::to_string(min_gs(m.k)) +
            ".." + std::to_string(max_gs_of(m.k)) + " Gs";
      return false;
    }
    p.ms.push_back(std::move(m));
  }
  // The world's own preconditions (protocol_world.hpp's init): one holder a P.
  std::vector<int> owner(static_cast<std::size_t>(p.nprocs), -1);
  bool resizer = false;
  for (std::size_t i = 0; i < p.ms.size(); i++) {
    const m_spec& m = p.ms[i];
    resizer |= m.k == kind::resizer;
    if (!holds_p(m.k) && m.k != kind::handback) continue;
    if (owner[static_cast<std::size_t>(m.p)] >= 0) {
      err = "P" + std::to_string(m.p) + " held by M" +
            std::to_string(owner[static_cast<std::size_t>(m.p)]) + " and M" + std::to_string(i);
      return false;
    }
    owner[static_cast<std::size_t>(m.p)] = static_cast<int>(i);
  }
  if (resizer && (p.nprocs < 2 || owner[static_cast<std::size_t>(p.nprocs - 1)] >= 0)) {
    err = "a resizer needs the last P (it dies) held by nobody";
    return false;
  }
  return true;
}

// The programs one step smaller than p, for shrinking a failure: an M
// dropped (its Gs with it), a submit dropped, a global G dropped, a next
// flag cleared, an idle P freed (procs one less). Each is kept only if it
// is in b's space (in_space: the generator's rules; a step outside could
// fail only for a broken precondition), numbered as enumerate numbers it.
// check false (the teeth's only) keeps parse_spec's checks alone.
inline std::vector<program> smaller(const program& p, const bounds& b, bool check = true) {
  std::vector<program> out;
  auto renumber = [](program q) {
    int g = 0;
    for (m_spec& m : q.ms)
      for (submit& s : m.subs) s.g = g++;
    for (int& x : q.global) x = g++;
    return q;
  };
  auto valid = [](const program& q) {
    std::string err;
    program back;
    return parse_spec(spec_text(q), back, err, 4, 4, 4) && q.ms.size() >= 1;
  };
  auto add = [&](program q) {
    q = renumber(std::move(q));
    program c;
    std::string why;
    if (!check) {
      if (valid(q)) out.push_back(std::move(q));
    } else if (valid(q) && in_space(q, b, c, why) &&
               std::none_of(out.begin(), out.end(), [&](const program& o) {
                 return spec_text(o) == spec_text(c);
               })) {
      out.push_back(std::move(c));
    }
  };
  if (p.ms.size() > 1)
    for (std::size_t i = 0; i < p.ms.size(); i++) {
      program q = p;
      q.ms.erase(q.ms.begin() + static_cast<std::ptrdiff_t>(i));
      for (m_spec& m : q.ms)  // a syscall whose old P's holder left: none
        if (m.k == kind::syscall && m.p == p.ms[i].p && p.ms[i].p >= 0) m.p = -1;
      add(std::move(q));
    }
  for (std::size_t i = 0; i < p.ms.size(); i++)
    for (std::size_t j = 0; j < p.ms[i].subs.size(); j++) {
      program q = p;
      q.ms[i].subs.erase(q.ms[i].subs.begin() + static_cast<std::ptrdiff_t>(j));
      add(q);
      if (p.ms[i].subs[j].next) {
        program r = p;
        r.ms[i].subs[j].next = false;
        add(std::move(r));
      }
    }
  for (std::size_t i = 0; i < p.global.size(); i++) {
    program q = p;
    q.global.erase(q.global.begin() + static_cast<std::ptrdiff_t>(i));
    add(std::move(q));
  }
  // procs one less: the highest P nobody names (a resizer's dying P moves down)
  if (p.nprocs > 1) {
    std::vector<bool> named(static_cast<std::size_t>(p.nprocs), false);
    bool resizer = false;
    for (const m_spec& m : p.ms) {
      if (m.p >= 0) named[static_cast<std::size_t>(m.p)] = true;
      resizer |= m.k == kind::resizer;
    }
    int last = p.nprocs - 1 - (resizer ? 1 : 0);
    if (last >= 0 && !named[static_cast<std::size_t>(last)]) {
      program q = p;
      q.nprocs--;
      add(std::move(q));
    }
  }
  return out;
}

}  // namespace runqcheck::generate::protocol
