// fuzz/tests/c_array_names.cpp — the failure pictures' recorders name a P with Go's
// field names whose ring is a C array (a C port's, runqcheck/c11.hpp), as they name a
// std::array: slot k is "P<i>.runq[k]". Relacy's recorder (runqcheck_fuzz/trace.hpp)
// and the exploring engine's picture (tests/explore/picture.hpp). Before, both called
// runq.size(), which a C array lacks: this file did not compile. And a G kept in a
// uintptr_t slot reads "G7" in both recorders' pages, not an address; a field of
// its own names, by its offset in the struct, and in the engine's picture by the
// field its source line names (`tail_.load(`, `atomic_load_explicit(&p->head`). In
// Relacy's recorder a field a subject hook (runq_counters) touched first is named after
// the port's function that touches it next, not the hook, and after the run by the
// field its source line names, as the engine's picture does. Exit 0: all hold.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <source_location>
#include <string>

#include "picture.hpp"
#include "runqcheck/backend/explore.hpp"
#include "runqcheck_fuzz/report.hpp"

namespace {
// A C port's P under the harness: Go's names, the ring a C array of atomics.
struct c_p {
  std::atomic<std::uint32_t> runqhead{0}, runqtail{0};
  std::atomic<void*> runnext{nullptr};
  std::atomic<void*> runq[4];
};

// A field's first touch by a subject hook (the harness reading the counters), then by
// the port: Relacy's recorder, as the backend calls it from each.
void touch(runqcheck::fuzz::recorder& rec, const void* obj,
           const std::source_location& l = std::source_location::current()) {
  rec.on_access(runqcheck::access_observer::kind::load, obj, "0", "",
                std::memory_order::relaxed, l);
}
void runq_counters(runqcheck::fuzz::recorder& rec, c_p& p) { touch(rec, &p.runqtail); }
void runqput(runqcheck::fuzz::recorder& rec, c_p& p) { touch(rec, &p.runqtail); }
}  // namespace

int main() {
  c_p p;
  static runqcheck::fuzz::recorder rec;  // large: static storage
  rec.reset();
  rec.name_p(&p, 1);
  runqcheck::explore::picture pic;
  pic.begin(1);
  pic.name_p(&p, 1);
  int bad = 0;
  bool slot = false;
  for (int o = 0; o < 8; o++) slot |= std::strcmp(rec.object_name(o), "P1.runq[3]") == 0;
  if (!slot) {
    std::printf("FAIL: no object named P1.runq[3]\n");
    bad = 1;
  }
  // A G kept as an integer (a C port's uintptr_t slot, Go's guintptr) reads as the G,
  // not as its address, in the engine's picture (reset() learns the Gs' addresses).
  struct gw {
    std::uint64_t goid = 7;
    int schedlink = 0;
  } g7;
  struct world {
    c_p* pp;
    gw* g;
    int flag = 0;
    c_p* proc(int) { return pp; }
    int* g_status(int) { return &flag; }
    gw* goroutine(int) { return g; }
    int* done_flag(int) { return &flag; }
    int& sched() { return flag; }
  } w{&p, &g7};
  pic.reset(w, 1, 1, 1);
  namespace ex = runqcheck::explore;
  ex::request q;
  q.what = ex::op::load;
  q.obj = &p.runq[2];
  q.show = &runqcheck::explore_backend::show<std::uintptr_t>;
  ex::event e;
  e.what = ex::op::load;
  e.kind = ex::ek::read;
  e.rval = reinterpret_cast<std::uintptr_t>(&g7);
  pic.access(0, e, q);
  // A field the recorders cannot name (a port's own names) inside a struct they
  // know: named by its offset, not after the function that touched it first
  // ("Q1+4 atomic", not "Q1+4 atomic@rq_empty", which other functions share).
  struct c_q {
    std::atomic<std::uint32_t> pos[2];
  } cq{};
  pic.owner(&cq, sizeof cq, "Q", 1);
  ex::request q2 = q;
  q2.obj = &cq.pos[1];
  ex::event e2 = e;
  e2.rval = 0;
  pic.access(0, e2, q2);
  runqcheck::model::scenario sc{};
  runqcheck::fuzz::trace_info in;
  in.sc = &sc;
  std::string j = pic.json(in);
  if (j.find("\"Q1+4 atomic\"") == std::string::npos) {
    std::printf("FAIL: a port's own field at Q1+4 is not named \"Q1+4 atomic\"\n");
    bad = 1;
  }
  if (j.find("\"G7\"") == std::string::npos) {
    std::printf("FAIL: a uintptr_t slot holding G7's address is not shown as G7\n");
    bad = 1;
  }
  // Relacy's recorder: the same value, printed in decimal by the backend.
  rec.reset();
  rec.name_world(w, 1, 1);
  std::string dec = std::to_string(reinterpret_cast<std::uintptr_t>(&g7));
  rec.on_access(runqcheck::access_observer::kind::load, &p.runq[2], dec.c_str(), "",
                std::memory_order::relaxed, std::source_location::current());
  if (rec.nevents() < 1 || std::strcmp(rec.at(rec.nevents() - 1).value, "G7") != 0) {
    std::printf("FAIL: Relacy's recorder shows G7's address in a uintptr_t slot as %s\n",
                rec.nevents() < 1 ? "nothing" : rec.at(rec.nevents() - 1).value);
    bad = 1;
  }
  // A field of a port's own struct that a hook touched first takes the port's
  // function that touches it next, not the hook's ("Q1+4 atomic@runqput").
  rec.reset();
  rec.owner(&p, sizeof p, "Q", 1);
  runq_counters(rec, p);
  runqput(rec, p);
  const char* named = rec.object_name(rec.at(rec.nevents() - 1).obj);
  if (std::strcmp(named, "Q1+4 atomic@runqput") != 0) {
    std::printf("FAIL: a field a hook touched first is named %s, not Q1+4 atomic@runqput\n",
                named);
    bad = 1;
  }
  // The engine's picture names a port's own field after the source line that accessed
  // it: C++'s `x.load(`, C11's `atomic_load_explicit(&q->x`, an element `x[i]` or an
  // accessor `x(i)` as "x[]"; a line naming two fields, or none, names nothing.
  const std::pair<const char*, const char*> lines[] = {
      {"  auto t = tail_.load(std::memory_order_acquire);", "tail_"},
      {"  uint32_t h = atomic_load_explicit(&p->head, memory_order_acquire); /* x.load( */",
       "head"},
      {"  atomic_store_explicit(&p->ring[(t + 1) % CAP], g, memory_order_relaxed);", "ring[]"},
      {"  dst.cell(at + i).store(l_.cell(f + i).load(rlx), rlx);", "cell[]"},
      {"  if (h == t.load() && n == next.load()) return;", ""},
      {"  return 0;", ""}};
  for (const auto& [line, want] : lines)
    if (std::string got = runqcheck::fuzz::field_of_line(line); got != want) {
      std::printf("FAIL: field_of_line(\"%s\") = \"%s\", want \"%s\"\n", line, got.c_str(),
                  want);
      bad = 1;
    }
  // End to end: a field of Q at offset 4 read on a line that names it is "Q1.pos[]"'s
  // element, "Q1.pos@4", once the run's rows are resolved (fail() does).
  pic.begin(1);
  pic.owner(&cq, sizeof cq, "Q", 1);
  ex::request q3 = q2;
  q3.where = std::source_location::current(); (void)cq.pos[1].load();
  pic.access(0, e2, q3);
  pic.fail(0, "x");
  if (std::string j3 = pic.json(in); j3.find("\"Q1.pos@4\"") == std::string::npos) {
    std::printf("FAIL: Q1+4, read on a line naming pos[1], is not named \"Q1.pos@4\"\n");
    bad = 1;
  }
  // Relacy's recorder, after the run (resolve_fields): the same field by the same
  // line, and the failure's text that quoted the old name rewritten.
  rec.reset();
  rec.owner(&cq, sizeof cq, "Q", 1);
  rec.on_access(runqcheck::access_observer::kind::load, &cq.pos[1], "0", "",
                std::memory_order::relaxed, q3.where);
  rec.failure((std::string("through ") + rec.object_name(0)).c_str(), -1);
  rec.resolve_fields();
  if (std::strcmp(rec.object_name(0), "Q1.pos@4") != 0 ||
      std::strcmp(rec.failure_text(), "through Q1.pos@4") != 0) {
    std::printf("FAIL: Relacy's recorder names Q1+4 \"%s\" (failure \"%s\"), not Q1.pos@4\n",
                rec.object_name(0), rec.failure_text());
    bad = 1;
  }
  // A field of a struct in an array (`cells[i].stamp`), one name at two offsets: each
  // with its offset, "R1.stamp@0" and "R1.stamp@8" (not both "R1.stamp").
  struct cell {
    std::atomic<std::uint32_t> stamp{0}, item{0};
  } cells[2];
  rec.reset();
  rec.owner(&cells, sizeof cells, "R", 1);
  for (cell& c : cells) {
    std::source_location at = std::source_location::current(); (void)c.stamp.load();
    rec.on_access(runqcheck::access_observer::kind::load, &c.stamp, "0", "",
                  std::memory_order::relaxed, at);
  }
  rec.resolve_fields();
  if (std::strcmp(rec.object_name(0), "R1.stamp@0") != 0 ||
      std::strcmp(rec.object_name(1), "R1.stamp@8") != 0) {
    std::printf("FAIL: two cells' stamps are named \"%s\" and \"%s\", not R1.stamp@0, @8\n",
                rec.object_name(0), rec.object_name(1));
    bad = 1;
  }
  std::printf("%s\n", bad ? "c_array_names: FAILED" : "c_array_names: passed");
  return bad;
}
