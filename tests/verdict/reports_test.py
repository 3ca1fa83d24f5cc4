#!/usr/bin/python3
"""A report that several subjects share is printed once, naming them.

usage: reports_test.py VERDICT_PY WORKDIR
Writes a relacy build dir by hand: subjects a, b and c, each with a passing
relacy_scenarios test that prints the same `runqcheck: report:` finding
(ending in its own `(subject NAME)`), and a and b one more that only they
print. Checks that ci/verdict.py prints the shared finding once for every
subject, the second once for a and b, and no finding twice. Exit 0 if so,
1 if not.
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
            "  a, b, relacy random: accesses Go does not make: y_load"]
    bad = [f"missing: {w!r}" for w in want if w not in lines]
    bad += [f"printed per subject: {ln!r}" for ln in lines if "(subject " in ln]
    for b in bad:
        print(f"reports_test: {b}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
