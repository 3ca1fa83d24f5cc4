// tests/differential/diff_gen.cpp — the C++ half of the differential test
// against production Go: writes N random (seeded) sequences of run-queue
// operations, runs them through the subject (ring capacity 256, Go's), and
// writes what they returned and the final queues. The Go half
// (runqcheck_export_test.go, in package runtime) runs the same sequences
// through go1.27's own runqput (runqputslow on a full ring), runqputbatch,
// runqget, runqdrain, runqempty, runqsteal (runqgrab), globrunqput,
// globrunqget, globrunqgetbatch + runqputbatch (findRunnable_globrunq) and
// globrunqputhead in (*p).destroy's order (destroy), and writes the same
// format; run_diff.sh compares the two files.
//
// Usage: diff_gen <sequences> <seed> <seqs-out> <cpp-out>
//        diff_gen --check-model <sequences> <seed>   (the subject vs the
//        reference model on the same sequences; no Go needed)
//
// Sequence file:          Outcome file:
//   seq <id> <nprocs> <ngs>   seq <id>
//   put <p> <g> <next>        <i> get <g> <inheritTime>
//   putn <p> <g0> <k>         <i> steal <g>
//   get <p>                   <i> drain <g>...
//   steal <thief> <victim> <next>   P<p> runnext <g> ring <g>...
//   drain <p>                 global <g>...
//   empty <p>                 <i> empty <0|1>
//   putbatch <p> <g0> <k>     <i> putbatch <leftover g>...
//   globput <p> <g>           (no line)
//   globget <p>               <i> globget <g>
//   globbatch <p>             <i> globbatch <g>   (p's ring is empty)
//   destroy <p>               (no line)
//   end
// Every op line has three numbers (unused ones are 0). putbatch's leftovers
// are reported and then dropped (queued nowhere) on both sides.
//
// After the N queue sequences come N/4 (at least 1) idle-list sequences of
// the bundled wakeup protocol, for every subject (a subject has no idle
// lists; core/.../protocol.hpp: pidleput, pidleget,
// pidlegetSpinning, mput, mget, mgetSpecific), which the reference model
// does not cover: go1.27's runtime is their only oracle, and --check-model
// skips them. Their own random stream, so the queue sequences of a seed stay.
//   iseq <id> <nprocs> <nms>  seq <id>
//   pidleput 0 0 0            <i> pidleput <p>    (the lowest P not idle)
//   pidleget 0 0 0            <i> pidleget <p>
//   pidlegetspin 0 0 0        <i> pidlegetspin <p> <needspinning> (cleared)
//   mput 0 0 0                <i> mput <m>        (the lowest M not on midle)
//   mget 0 0 0                <i> mget <m>
//   mgetspec <m> 0 0          <i> mgetspec <m>
//   end                       pidle <p>... npidle <n>
//                             midle <m>... nmidle <n>
// (-1: none.) "The lowest not idle" is read from each side's own state, so
// lists that differ go on from what each side has.
// Steals are generated only when the thief's ring has room for what it can
// take (Go throws "runqsteal: runq overflow" otherwise); puts may fill a ring
// and reach runqputslow, so the global queue is part of the outcome.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "runqcheck_subject.hpp"
#include "../../models/watchdog/watchdog.hpp"
#include "runqcheck_ref/reference.hpp"
#include <runqcheck/go125.hpp>
#include <runqcheck/protocol.hpp>
#include <runqcheck/protocol_subject.hpp>

namespace {

using B = runqcheck::native;
constexpr std::uint32_t Cap = 256;  // Go's ring
using S = runqcheck::watched<subject_under_test<B, Cap>>;  // a hang fails with a dump
using G = runqcheck::g<B>;

struct dop {
  std::string kind;
  int a = 0, b = 0, c = 0;
};

struct sequence {
  int nprocs = 2;
  int ngs = 0;
  int nms = 0;  // an idle-list sequence's Ms
  std::vector<dop> ops;
};

sequence generate(std::mt19937_64& rng) {
  sequence s;
  auto rnd = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  s.nprocs = rnd(2, 4);
  runqcheck::ref::queues m(Cap, s.nprocs);  // only to keep steals legal
  int len = rnd(1, 200);
  for (int i = 0; i < len; i++) {
    int roll = rnd(0, 99);
    int p = rnd(0, s.nprocs - 1);
    dop o;
    if (roll < 40) {
      o = {"put", p, s.ngs++, rnd(0, 1)};
      m.runqput(p, o.b, o.c != 0);
    } else if (roll < 44) {
      int k = rnd(1, 300);
      o = {"putn", p, s.ngs, k};
      for (int j = 0; j < k; j++) m.runqput(p, s.ngs + j, false);
      s.ngs += k;
    } else if (roll < 48) {
      int k = rnd(1, 200);
      o = {"putbatch", p, s.ngs, k};
      std::vector<runqcheck::ref::gid> batch;
      for (int j = 0; j < k; j++) batch.push_back(s.ngs + j);
      m.runqputbatch(p, batch);
      s.ngs += k;
    } else if (roll < 52) {
      o = {"empty", p};
    } else if (roll < 55) {
      o = {"globput", p, s.ngs++};
      m.globrunqput(o.b);
    } else if (roll < 58) {
      o = {"globget", p};
      m.globrunqget();
    } else if (roll < 61) {
      // findRunnable's step needs an empty ring (subject.hpp): else a drain
      if (m.ps[p].ring.empty()) {
        o = {"globbatch", p};
        m.findRunnable_globrunq(p);
      } else {
        o = {"drain", p};
        m.runqdrain(p);
      }
    } else if (roll < 62) {
      o = {"destroy", p};
      m.destroy(p);
    } else if (roll < 78) {
      o = {"get", p};
      m.runqget(p);
    } else if (roll < 95) {
      int v = rnd(0, s.nprocs - 2);
      if (v >= p) v++;
      if (m.ps[p].ring.size() + Cap / 2 >= Cap) {  // no room: do a get instead
        o = {"get", p};
        m.runqget(p);
      } else {
        o = {"steal", p, v, rnd(0, 1)};
        m.runqsteal(p, v, o.c != 0);
      }
    } else {
      o = {"drain", p};
      m.runqdrain(p);
    }
    s.ops.push_back(o);
  }
  return s;
}

std::string gname(const G* gp) { return gp == nullptr ? "-1" : std::to_string(gp->goid); }

// Prints " g" for each G next() gives until nullptr, at most limit of them: a G
// queued twice (a buggy port's) makes a list a cycle, whose walk would not end.
// Past limit, a line Go never writes ends the walk, so the outcomes differ there.
template <class Next>
void print_gs(std::ostream& out, int limit, Next next) {
  for (int n = 0; G* gp = next(); n++) {
    if (n == limit) {
      out << " ... more Gs than the sequence made (" << limit << "): a G queued twice?";
      return;
    }
    out << " " << gname(gp);
  }
}

void run(const sequence& s, int id, std::ostream& out) {
  typename S::schedt sched(s.nprocs);
  std::vector<std::unique_ptr<typename S::p>> ps;
  for (int i = 0; i < s.nprocs; i++) ps.push_back(std::make_unique<typename S::p>(sched, i));
  std::unique_ptr<G[]> gs(new G[static_cast<std::size_t>(s.ngs) + 1]);
  for (int i = 0; i < s.ngs; i++) gs[i].goid = static_cast<std::uint64_t>(i);
  out << "seq " << id << "\n";
  for (std::size_t i = 0; i < s.ops.size(); i++) {
    const dop& o = s.ops[i];
    if (o.kind == "put") {
      S::runqput(*ps[o.a], &gs[o.b], o.c != 0);
    } else if (o.kind == "putn") {
      for (int j = 0; j < o.c; j++) S::runqput(*ps[o.a], &gs[o.b + j], false);
    } else if (o.kind == "get") {
      auto r = S::runqget(*ps[o.a]);
      out << i << " get " << gname(r.gp) << " " << (r.inheritTime ? 1 : 0) << "\n";
    } else if (o.kind == "steal") {
      G* gp = S::runqsteal(*ps[o.a], *ps[o.b], o.c != 0);
      out << i << " steal " << gname(gp) << "\n";
    } else if (o.kind == "drain") {
      runqcheck::gQueue<B> q = S::runqdrain(*ps[o.a]);
      out << i << " drain";
      print_gs(out, s.ngs, [&q] { return q.pop(); });
      out << "\n";
    } else if (o.kind == "empty") {
      out << i << " empty " << (S::runqempty(*ps[o.a]) ? 1 : 0) << "\n";
    } else if (o.kind == "putbatch") {
      runqcheck::gQueue<B> q;
      for (int j = 0; j < o.c; j++) q.pushBack(&gs[o.b + j]);
      S::runqputbatch(*ps[o.a], q);
      out << i << " putbatch";
      print_gs(out, s.ngs, [&q] { return q.pop(); });
      out << "\n";
    } else if (o.kind == "globput") {
      S::globrunqput(sched, &gs[o.b]);
    } else if (o.kind == "globget") {
      out << i << " globget " << gname(S::globrunqget(sched)) << "\n";
    } else if (o.kind == "globbatch") {
      out << i << " globbatch " << gname(S::findRunnable_globrunq(*ps[o.a])) << "\n";
    } else if (o.kind == "destroy") {
      S::destroy(*ps[o.a]);
    }
  }
  for (int p = 0; p < s.nprocs; p++) {
    auto first = S::runqget(*ps[p]);
    runqcheck::gQueue<B> rest = S::runqdrain(*ps[p]);
    out << "P" << p << " runnext " << (first.inheritTime ? gname(first.gp) : "-1") << " ring";
    if (first.gp != nullptr && !first.inheritTime) out << " " << gname(first.gp);
    print_gs(out, s.ngs, [&rest] { return rest.pop(); });
    out << "\n";
  }
  out << "global";
  print_gs(out, s.ngs, [&sched] { return S::globrunqget(sched); });
  out << "\n";
}

// The same sequence on the reference model, in the same format.
void run_model(const sequence& s, int id, std::ostream& out) {
  runqcheck::ref::queues m(Cap, s.nprocs);
  out << "seq " << id << "\n";
  for (std::size_t i = 0; i < s.ops.size(); i++) {
    const dop& o = s.ops[i];
    if (o.kind == "put") {
      m.runqput(o.a, o.b, o.c != 0);
    } else if (o.kind == "putn") {
      for (int j = 0; j < o.c; j++) m.runqput(o.a, o.b + j, false);
    } else if (o.kind == "get") {
      auto r = m.runqget(o.a);
      out << i << " get " << r.gp << " " << (r.inheritTime ? 1 : 0) << "\n";
    } else if (o.kind == "steal") {
      out << i << " steal " << m.runqsteal(o.a, o.b, o.c != 0).gp() << "\n";
    } else if (o.kind == "drain") {
      out << i << " drain";
      for (int g : m.runqdrain(o.a)) out << " " << g;
      out << "\n";
    } else if (o.kind == "empty") {
      out << i << " empty " << (m.runqempty(o.a) ? 1 : 0) << "\n";
    } else if (o.kind == "putbatch") {
      std::vector<runqcheck::ref::gid> batch;
      for (int j = 0; j < o.c; j++) batch.push_back(o.b + j);
      out << i << " putbatch";
      for (int g : m.runqputbatch(o.a, batch)) out << " " << g;
      out << "\n";
    } else if (o.kind == "globput") {
      m.globrunqput(o.b);
    } else if (o.kind == "globget") {
      out << i << " globget " << m.globrunqget() << "\n";
    } else if (o.kind == "globbatch") {
      out << i << " globbatch " << m.findRunnable_globrunq(o.a) << "\n";
    } else if (o.kind == "destroy") {
      m.destroy(o.a);
    }
  }
  for (int p = 0; p < s.nprocs; p++) {
    out << "P" << p << " runnext " << m.ps[p].runnext << " ring";
    for (int g : m.ps[p].ring) out << " " << g;
    out << "\n";
  }
  out << "global";
  for (int g : m.global) out << " " << g;
  out << "\n";
}

// The idle lists of the wakeup protocol, the bundled one (a subject has no
// idle lists): on the bundled go125 Ps, whatever the subject, in a world of
// their own (one core lock, fake Ms).
struct idle_env {
  using B = runqcheck::native;
  using S = runqcheck::go125<B, Cap>;
  struct M;
  struct P : S::p {
    P(typename S::schedt& s, std::int32_t i) : S::p(s, i) {}
    P* link = nullptr;           // pidle
    B::atomic<bool> idle{false};  // Go: idlepMask
  };
  struct M : runqcheck::m<B> {
    int id = 0;
    runqcheck::idle_node<M> idleNode;
  };
  static inline runqcheck::wakeup_state<B, P, M>* state = nullptr;
  static runqcheck::wakeup_state<B, P, M>& ws() { return *state; }
};
using idle_proto = runqcheck::protocol<idle_env>;
static_assert(runqcheck::has_protocol_idle_lists<idle_proto>);

sequence generate_idle(std::mt19937_64& rng) {
  sequence s;
  auto rnd = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  s.nprocs = rnd(1, 4);
  s.nms = rnd(1, 4);
  int len = rnd(1, 40);
  for (int i = 0; i < len; i++) {
    int roll = rnd(0, 99);
    if (roll < 30) {
      s.ops.push_back({"pidleput"});
    } else if (roll < 45) {
      s.ops.push_back({"pidleget"});
    } else if (roll < 52) {
      s.ops.push_back({"pidlegetspin"});
    } else if (roll < 77) {
      s.ops.push_back({"mput"});
    } else if (roll < 89) {
      s.ops.push_back({"mget"});
    } else {
      s.ops.push_back({"mgetspec", rnd(0, s.nms - 1)});
    }
  }
  return s;
}

// The first of xs that is not idle(x), or null.
template <class T, class F>
T* first_not(const std::vector<std::unique_ptr<T>>& xs, F&& idle) {
  for (const auto& x : xs) {
    if (!idle(x.get())) return x.get();
  }
  return nullptr;
}

void run_idle(const sequence& s, int id, std::ostream& out) {
  using P = idle_env::P;
  using M = idle_env::M;
  typename idle_env::S::schedt sched(s.nprocs);
  runqcheck::schedt<B> core(1);
  runqcheck::wakeup_state<B, P, M> w;
  idle_env::state = &w;
  std::vector<std::unique_ptr<P>> ps;
  for (int i = 0; i < s.nprocs; i++) ps.push_back(std::make_unique<P>(sched, i));
  std::vector<std::unique_ptr<M>> ms;
  for (int i = 0; i < s.nms; i++) {
    ms.push_back(std::make_unique<M>());
    ms.back()->id = i;
  }
  auto pname = [](const P* pp) { return pp == nullptr ? -1 : pp->id; };
  auto mname = [](const M* mp) { return mp == nullptr ? -1 : mp->id; };
  auto on_midle = [&](const M* mp) {
    for (const M* x = w.midle.obj; x != nullptr; x = x->idleNode.next)
      if (x == mp) return true;
    return false;
  };
  out << "seq " << id << "\n";
  auto l = runqcheck::lock(core);
  for (std::size_t i = 0; i < s.ops.size(); i++) {
    const dop& o = s.ops[i];
    out << i << " " << o.kind << " ";
    if (o.kind == "pidleput") {
      P* pick =
          first_not(ps, [](const P* pp) { return pp->idle.load(std::memory_order::relaxed); });
      if (pick != nullptr) idle_proto::pidleput(l, pick);
      out << pname(pick);
    } else if (o.kind == "pidleget") {
      out << pname(idle_proto::pidleget(l));
    } else if (o.kind == "pidlegetspin") {
      out << pname(idle_proto::pidlegetSpinning(l)) << " "
          << w.needspinning.load(std::memory_order::relaxed);
      w.needspinning.store(0, std::memory_order::relaxed);  // cleared: each call stands alone
    } else if (o.kind == "mput") {
      M* pick = first_not(ms, on_midle);
      if (pick != nullptr) idle_proto::mput(l, pick);
      out << mname(pick);
    } else if (o.kind == "mget") {
      out << mname(idle_proto::mget(l));
    } else if (o.kind == "mgetspec") {
      out << mname(idle_proto::mgetSpecific(l, ms[static_cast<std::size_t>(o.a)].get()));
    }
    out << "\n";
  }
  out << "pidle";  // at most one entry more than there are: a cycle shows
  int k = 0;
  for (const P* pp = w.pidle; pp != nullptr && k <= s.nprocs; pp = pp->link, k++) {
    out << " " << pp->id;
  }
  out << " npidle " << w.npidle.load(std::memory_order::relaxed) << "\n";
  out << "midle";
  k = 0;
  for (const M* mp = w.midle.obj; mp != nullptr && k <= s.nms; mp = mp->idleNode.next, k++) {
    out << " " << mp->id;
  }
  out << " nmidle " << w.nmidle << "\n";
  idle_env::state = nullptr;
}

// --check-model N SEED: no Go; the subject must agree with the reference
// model on N sequences (the test registered for every subject).
// The command that regenerates sequences 0..id from the same seed.
std::string repro(const char* self, long id, std::uint64_t seed) {
  return std::string(self) + " --check-model " + std::to_string(id + 1) + " " +
         std::to_string(seed) + "   (sequence " + std::to_string(id) + ", seed " +
         std::to_string(seed) + ")";
}

int check_model(const char* self, long n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (long id = 0; id < n; id++) {
    sequence s = generate(rng);
    runqcheck::wd::set_reproducer(repro(self, id, seed));
    std::ostringstream a, b;
    run(s, static_cast<int>(id), a);
    run_model(s, static_cast<int>(id), b);
    if (a.str() != b.str()) {
      std::istringstream x(a.str()), y(b.str());
      std::string lx, ly;
      while (std::getline(x, lx) && std::getline(y, ly) && lx == ly) {
      }
      std::printf("FAIL: sequence %ld: subject %s says '%s', reference model says '%s'\n", id,
                  subject_name, lx.c_str(), ly.c_str());
      std::printf("reproduce: %s\n", repro(self, id, seed).c_str());
      return 1;
    }
  }
  std::printf("PASS: %ld sequences, subject %s agrees with the reference model\n", n, subject_name);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::string(argv[1]) == "--check-model")
    return check_model(argv[0], std::strtol(argv[2], nullptr, 10),
                       std::strtoull(argv[3], nullptr, 10));
  if (argc != 5) {
    std::fprintf(
        stderr,
        "usage: %s <sequences> <seed> <seqs-out> <cpp-out> | --check-model <sequences> <seed>\n",
        argv[0]);
    return 2;
  }
  long n = std::strtol(argv[1], nullptr, 10);
  std::mt19937_64 rng(std::strtoull(argv[2], nullptr, 10));
  std::ofstream seqs(argv[3]), outs(argv[4]);
  if (!seqs || !outs) {
    std::fprintf(stderr, "diff_gen: cannot write %s or %s\n", argv[3], argv[4]);
    return 2;
  }
  long nops = 0;
  auto write = [&](const char* kind, long id, int third, const sequence& s) {
    seqs << kind << " " << id << " " << s.nprocs << " " << third << "\n";
    for (const dop& o : s.ops) seqs << o.kind << " " << o.a << " " << o.b << " " << o.c << "\n";
    seqs << "end" << std::endl;  // flushed: run_diff.sh names the sequence a crash ended
    nops += static_cast<long>(s.ops.size());
  };
  const std::uint64_t seed = std::strtoull(argv[2], nullptr, 10);
  for (long id = 0; id < n; id++) {
    sequence s = generate(rng);
    runqcheck::wd::set_reproducer(repro(argv[0], id, seed));
    write("seq", id, s.ngs, s);
    run(s, static_cast<int>(id), outs);
  }
  std::mt19937_64 irng(seed ^ 0x1d1e115ULL);
  const long nidle = n / 4 > 0 ? n / 4 : 1;
  for (long id = n; id < n + nidle; id++) {
    sequence s = generate_idle(irng);
    runqcheck::wd::set_reproducer(std::string(argv[0]) + " " + argv[1] + " " + argv[2] + " " +
                                  argv[3] + " " + argv[4] + "   (idle-list sequence " +
                                  std::to_string(id) + ")");
    write("iseq", id, s.nms, s);
    run_idle(s, static_cast<int>(id), outs);
  }
  std::printf("diff_gen (%s): %ld queue and %ld idle-list sequences, %ld operations\n",
              subject_name, n, nidle, nops);
  return 0;
}
