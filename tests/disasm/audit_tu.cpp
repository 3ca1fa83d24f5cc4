// tests/disasm/audit_tu.cpp — the translation unit ci/disasm-audit compiles
// for aarch64 and disassembles: every run-queue function of the go1.25 port,
// instantiated for the production backend (runqcheck::native) at Cap 256, as
// a noinline exported wrapper. Never linked into a test binary.
//
// ci/disasm-audit --break SITE,... compiles it against a line-for-line copy of
// the port with those orders spelled relaxed (models/mutants/schemata.py
// --break): the audit must then report those accesses as plain (ctest
// disasm_audit_selftest).
#include <cstdint>

#include <runqcheck/backend/native.hpp>
#include <runqcheck/go125.hpp>

namespace audit {
using backend = runqcheck::native;
constexpr std::uint32_t Cap = 256;
using S = runqcheck::go125<backend, Cap>;
using P = runqcheck::p<backend, Cap>;
using G = runqcheck::g<backend>;
using Q = runqcheck::gQueue<backend>;
using sched = runqcheck::schedt<backend>;
using locked = runqcheck::locked_sched<backend>;
}  // namespace audit

#define AUDIT_FN extern "C" __attribute__((noinline, used, visibility("default")))

// The local run queue (runq.hpp).
AUDIT_FN bool audit_runqempty(audit::P& pp) { return runqcheck::runqempty(pp); }
AUDIT_FN void audit_runqput(audit::P& pp, audit::G* gp, bool next) {
  runqcheck::runqput(pp, gp, next);
}
AUDIT_FN bool audit_runqputslow(audit::P& pp, audit::G* gp, std::uint32_t h, std::uint32_t t) {
  return runqcheck::runqputslow(pp, gp, h, t);
}
AUDIT_FN void audit_runqputbatch(audit::P& pp, audit::Q& q) { runqcheck::runqputbatch(pp, q); }
AUDIT_FN audit::G* audit_runqget(audit::P& pp, bool* inherit) {
  auto r = runqcheck::runqget(pp);
  *inherit = r.inheritTime;
  return r.gp;
}
AUDIT_FN void audit_runqdrain(audit::P& pp, audit::Q* out) { *out = runqcheck::runqdrain(pp); }
AUDIT_FN std::uint32_t audit_runqgrab(audit::P& pp, audit::P::ring& batch, std::uint32_t batchHead,
                                      bool stealRunNextG) {
  return runqcheck::runqgrab(pp, batch, batchHead, stealRunNextG);
}
AUDIT_FN audit::G* audit_runqsteal(audit::P& pp, audit::P& p2, bool stealRunNextG) {
  return runqcheck::runqsteal(pp, p2, stealRunNextG);
}
AUDIT_FN void audit_destroy(audit::P& pp) { audit::S::destroy(pp); }

// The global run queue (globrunq.hpp), as the subject calls it (under sched.lock).
AUDIT_FN void audit_globrunqput(audit::sched& s, audit::G* gp) { audit::S::globrunqput(s, gp); }
AUDIT_FN void audit_globrunqputhead(audit::sched& s, audit::G* gp) {
  auto l = runqcheck::lock(s);
  runqcheck::globrunqputhead(l, gp);
}
AUDIT_FN void audit_globrunqputbatch(audit::sched& s, audit::Q& q) {
  auto l = runqcheck::lock(s);
  runqcheck::globrunqputbatch(l, q);
}
AUDIT_FN audit::G* audit_globrunqget(audit::sched& s) { return audit::S::globrunqget(s); }
AUDIT_FN std::int32_t audit_globrunqsize(audit::sched& s) { return audit::S::globrunqsize(s); }
AUDIT_FN audit::G* audit_globrunqgetbatch(audit::sched& s, std::int32_t n, audit::Q* rest) {
  auto l = runqcheck::lock(s);
  auto r = runqcheck::globrunqgetbatch(l, n);
  *rest = std::move(r.q);
  return r.gp;
}
AUDIT_FN audit::G* audit_findRunnable_globrunq(audit::P& pp) {
  return audit::S::findRunnable_globrunq(pp);
}
