// fuzz/tests/encode_roundtrip.cpp — the seed encoder (encode.hpp) against the
// parser (input.hpp), over the scenario catalog: every scenario it encodes
// decodes back to itself (G ids renumbered the format's way), and every one it
// refuses uses something the format has no byte for; the op name table parses
// back. Teeth: a changed op byte must decode to a different scenario.
// Exit 0: all held.
#include <algorithm>
#include <cstdio>
#include <span>
#include <vector>

#include "catalog.hpp"
#include "runqcheck_fuzz/encode.hpp"

namespace fz = runqcheck::fuzz;
namespace m = runqcheck::model;

namespace {
// Whether the v1 format lacks something the scenario needs.
bool outside_format(const m::scenario& sc) {
  if (!sc.expect_fatal.empty()) return true;
  for (const auto& script : sc.threads)
    for (const m::op& o : script) {
      bool in_table = false;
      for (m::op_kind k : fz::kByteKinds) in_table |= k == o.kind;
      for (m::op_kind k : fz::kByteKinds7) in_table |= k == o.kind;
      if (!in_table) return true;
    }
  return false;
}
}  // namespace

// A failed check: counted, and printed with what failed.
#define CHECK(ok, ...) (void)((ok) || (std::printf("FAIL " __VA_ARGS__), std::printf("\n"), ++bad))

int main() {
  int bad = 0, encoded = 0, renamed_ids = 0;
  // The name table (ops.hpp): each name parses back to its kind.
  for (const m::op_name& n : m::op_names)
    CHECK(m::parse_op_kind(n.name) == n.kind && m::name(n.kind) == n.name,
          "op name %s does not parse back", n.name.data());
  CHECK(!m::parse_op_kind("runqput"), "a Go function name parses as an op name");
  const std::uint8_t sched[] = {1, 2, 1, 2, 0, 7};
  for (const m::scenario& sc : m::catalog) {
    std::vector<std::uint8_t> bytes;
    m::scenario renamed;
    std::string why = fz::encode(sc, sched, bytes, renamed);
    if (!why.empty()) {
      bool ok = outside_format(sc);
      bad += !ok;
      std::printf("%s %s: not expressible: %s\n", ok ? "ok  " : "FAIL", sc.name.data(),
                  why.c_str());
      continue;
    }
    encoded++;
    fz::decoded d;
    fz::parse_error e = fz::parse(bytes, 1, d);
    bool same = e == fz::parse_error::none && fz::same_scenario(d.sc, renamed);
    bool sched_ok = e == fz::parse_error::none && d.schedule.size() == sizeof sched &&
                    std::equal(d.schedule.begin(), d.schedule.end(), sched);
    bool ids = fz::same_scenario(sc, renamed);
    renamed_ids += !ids;
    // Teeth: each op byte changed to another kind must change the scenario.
    bool teeth = true;
    std::vector<std::size_t> op_at;
    for (std::size_t pos = fz::kHeaderSize, t = 0; t < sc.threads.size(); t++, pos++)
      for (std::size_t i = 0; i < sc.threads[t].size(); i++) op_at.push_back(++pos);
    for (std::size_t i : op_at) {
      std::vector<std::uint8_t> mut = bytes;
      mut[i] = static_cast<std::uint8_t>(mut[i] % 8 == 2 ? 5 : 2);  // get <-> drain / other
      fz::decoded dm;
      if (fz::parse(mut, 1, dm) == fz::parse_error::none && fz::same_scenario(dm.sc, renamed))
        teeth = false;
    }
    bool ok = same && sched_ok && teeth;
    bad += !ok;
    std::printf("%s %s: %zu bytes%s%s%s\n", ok ? "ok  " : "FAIL", sc.name.data(), bytes.size(),
                ids ? "" : " (G ids renumbered)", same ? "" : ", decodes to another scenario",
                teeth ? "" : ", a changed op byte went unnoticed");
  }
  std::printf("%d of %zu catalog scenarios encoded, %d with G ids renumbered, %d failures\n",
              encoded, m::catalog.size(), renamed_ids, bad);
  return bad == 0 && encoded > 0 ? 0 : 1;
}
