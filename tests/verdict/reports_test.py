#!/usr/bin/python3
"""A report, or a not-applied reason, that several subjects share is printed once,
naming them; a check's scenarios that share a not-applied reason share its line.

usage: reports_test.py VERDICT_PY WORKDIR
Writes a relacy build dir by hand: subjects a, b and c, each with a passing
relacy_scenarios test that prints the same `runqcheck: report:` finding
(ending in its own `(subject NAME)`), and a and b one more that only they
print; each also `runqcheck: not applied:` for scenarios s1 and s2 with one
reason, and c one more for s3 with another. Checks that ci/verdict.py prints
the shared finding once for every subject, the second once for a and b, s1
and s2 on one line for every subject, s3 on its own for c, and nothing twice.
Exit 0 if so, 1 if not.
"""
import json
import subprocess
import sys
from pathlib import Path


def main(argv):
    if len(argv) != 2:
        print("reports_test.py: usage: reports_test.py VERDICT_PY WORKDIR", file=sys.stderr)
        return 2
    verdict, work = argv[0], Path(argv[1]) / "relacy"
    work.mkdir(parents=True, exist_ok=True)
    cases = []
    for s in "abc":
        out = f"runqcheck: report: orders stronger than needed: x_load acquire (subject {s})\n"
        if s != "c":
            out += f"runqcheck: report: accesses Go does not make: y_load (subject {s})\n"
        out += "".join(f"runqcheck: not applied: relacy_protocol {sc}: needs has_x "
                       f"(subject {s})\n" for sc in ("s1", "s2"))
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
    want = ["  every subject, relacy random: orders stronger than needed: x_load acquire",
            "  a, b, relacy random: accesses Go does not make: y_load",
            "  every subject, relacy random: relacy_protocol s1, s2: needs has_x",
            "  c, relacy random: relacy_protocol s3: needs has_y"]
    bad = [f"missing: {w!r}" for w in want if w not in lines]
    bad += [f"printed per subject: {ln!r}" for ln in lines if "(subject " in ln]
    bad += [f"said twice: {ln!r}" for ln in lines if "needs has_x" in ln and ln not in want]
    for b in bad:
        print(f"reports_test: {b}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
