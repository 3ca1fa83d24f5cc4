// fuzz/tests/c_array_names.cpp — the failure pictures' recorders name a P with Go's
// field names whose ring is a C array (a C port's, runqcheck/c11.hpp), as they name a
// std::array: slot k is "P<i>.runq[k]". Relacy's recorder (runqcheck_fuzz/trace.hpp)
// and the exploring engine's picture (tests/explore/picture.hpp). Before, both called
// runq.size(), which a C array lacks: this file did not compile. Exit 0: the names hold.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "picture.hpp"
#include "runqcheck_fuzz/report.hpp"

namespace {
// A C port's P under the harness: Go's names, the ring a C array of atomics.
struct c_p {
  std::atomic<std::uint32_t> runqhead{0}, runqtail{0};
  std::atomic<void*> runnext{nullptr};
  std::atomic<void*> runq[4];
};
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
  std::printf("%s\n", bad ? "c_array_names: FAILED" : "c_array_names: passed");
  return bad;
}
