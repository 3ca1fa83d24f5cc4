#!/usr/bin/python3
"""A weak memory failure with two too-weak sites is two SARIF results, one at each site.

usage: sarif_sites_test.py VERDICT_PY WORKDIR
Writes a port (q/q.hpp) and a native build dir by hand whose weak_memory/q test failed
naming two sites (proofs/weak/audit.py's `at: SITE FILE:LINE` lines, q.hpp:10 and
q.hpp:40), then runs ci/verdict.py --sarif, plain and with --artifacts. GitHub code
scanning shows a result at its one location: each site must have its own result, at its
line, its message naming the site. Exit 0 if so, 1 if not.
"""
import json
import subprocess
import sys
from pathlib import Path


def results(verdict, work, extra):
    out = work / "verdict.sarif"
    out.unlink(missing_ok=True)
    v = subprocess.run(["/usr/bin/python3", verdict, "--subjects", "q", "--sarif", str(out),
                        "--srcroot", str(work), *extra, f"native={work / 'native'}"],
                       capture_output=True, text=True)
    if not out.is_file():
        print(v.stdout + v.stderr)
        return None
    return [r for r in json.loads(out.read_text())["runs"][0]["results"]
            if r["ruleId"] == "weak_memory"]


def main(argv):
    if len(argv) != 2:
        print("sarif_sites_test.py: usage: sarif_sites_test.py VERDICT_PY WORKDIR",
              file=sys.stderr)
        return 2
    verdict, work = argv[0], Path(argv[1]).resolve()
    native, inc = work / "native", work / "include"
    (inc / "q").mkdir(parents=True, exist_ok=True)
    native.mkdir(parents=True, exist_ok=True)
    hdr = inc / "q" / "q.hpp"
    hdr.write_text("".join(f"// line {i}\n" for i in range(1, 61)))
    (native / "stage-failed").unlink(missing_ok=True)
    out = ("FAILED: weak-memory orders: a_store is relaxed, RC11 needs release (pub; at q.hpp:10)"
           "; b_load is relaxed, RC11 needs acquire (get; at q.hpp:40) (subject q)\n"
           f"at: a_store {hdr}:10\nat: b_load {hdr}:40\n"
           "reproduce: python3 proofs/weak/audit.py --recorded bin/weak_record__q\n")
    (native / "junit.xml").write_text(
        '<testsuite tests="1"><testcase name="weak_memory/q" classname="x" time="1" '
        f'status="fail"><failure message=""/><system-out>{out}</system-out></testcase>'
        '</testsuite>\n')
    (native / "runqcheck_columns.json").write_text(json.dumps({
        "protocol_subjects": [], "tests": {"weak_memory/q": "weak_memory"},
        "ports": {"q": {"header": "q/q.hpp", "include_dirs": [str(inc)]}}}))
    bad = []
    for how, extra in (("plain", []), ("--artifacts", ["--artifacts", str(work / "art")])):
        res = results(verdict, work, extra)
        if res is None:
            bad.append(f"{how}: no SARIF file")
            continue
        got = sorted((r["locations"][0]["physicalLocation"]["region"]["startLine"],
                      r["message"]["text"]) for r in res)
        lines = [ln for ln, _ in got]
        if lines != [10, 40]:
            bad.append(f"{how}: weak_memory results at lines {lines}, not [10, 40]")
        elif "a_store" not in got[0][1] or "b_load" not in got[1][1]:
            bad.append(f"{how}: a result's message does not name its site: {got}")
        for r in res:
            uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            if not uri.endswith("include/q/q.hpp"):
                bad.append(f"{how}: a result at {uri}, not the port's q/q.hpp")
    for b in bad:
        print(f"sarif_sites_test: FAILED: {b}")
    print("sarif_sites_test: " + ("passed" if not bad else "FAILED"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
