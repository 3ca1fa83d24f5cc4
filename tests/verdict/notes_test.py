#!/usr/bin/python3
"""Not-applied lines that scenarios and subjects share are printed once.

usage: notes_test.py VERDICT_PY WORKDIR
Writes a relacy build dir by hand: subjects a, b and c, each with a passing
relacy_scenarios test that prints `runqcheck: not applied:` for scenarios s1
and s2 with one reason (ending in its own `(subject NAME)`), and c one more
for s3 with another. Checks that ci/verdict.py prints s1 and s2 on one line
for every subject, s3 on its own for c, and nothing per subject or per
scenario besides. Exit 0 if so, 1 if not.
"""
import json
import subprocess
import sys
from pathlib import Path


def main(argv):
    if len(argv) != 2:
        print("notes_test.py: usage: notes_test.py VERDICT_PY WORKDIR", file=sys.stderr)
        return 2
    verdict, work = argv[0], Path(argv[1]) / "relacy"
    work.mkdir(parents=True, exist_ok=True)
    cases = []
    for s in "abc":
        out = "".join(f"runqcheck: not applied: relacy_protocol {sc}: needs has_x (subject {s})\n"
                      for sc in ("s1", "s2"))
        if s == "c":
            out += "runqcheck: not applied: relacy_protocol s3: needs has_y (subject c)\n"
        cases.append(f'<testcase name="relacy_scenarios/{s}" classname="x" time="1" '
                     f'status="run"><system-out>{out}</system-out></testcase>')
    (work / "junit.xml").write_text(f'<testsuite tests="3">{"".join(cases)}</testsuite>\n')
    (work / "runqcheck_columns.json").write_text(json.dumps(
        {"tests": {f"relacy_scenarios/{s}": "relacy_random" for s in "abc"}}))
    v = subprocess.run(["/usr/bin/python3", verdict, "--subjects", "a,b,c", f"relacy={work}"],
                       capture_output=True, text=True)
    print(v.stdout)
    lines = v.stdout.splitlines()
    want = ["  every subject, relacy random: relacy_protocol s1, s2: needs has_x",
            "  c, relacy random: relacy_protocol s3: needs has_y"]
    bad = [f"missing: {w!r}" for w in want if w not in lines]
    bad += [f"said twice: {ln!r}" for ln in lines
            if "(subject " in ln or ln.count("needs has_x") > 1 or (
                "needs has_x" in ln and ln not in want)]
    if not any("passed*" in ln for ln in lines):
        bad.append("no passed* cell")
    for b in bad:
        print(f"notes_test: {b}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
