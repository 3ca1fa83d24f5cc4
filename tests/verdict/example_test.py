#!/usr/bin/python3
"""The verdict of a failing example port explains each failure.

usage: example_test.py VERDICT_PY WORKDIR SUBJECT COLUMN_ID INCLUDE_DIR HEADER BINARY [ARG...]
Runs BINARY (a checker built for an example port with a bug, e.g. the unit
suite of examples/acme_runq's fullring_bug) as the gate runs it (a GoogleTest
binary through tests/unit/isolate.py), writes its JUnit file and column
table, and checks that ci/verdict.py FAILS the column with a reason (never
"without a message") and a reproducer, and that its --junit / --sarif files
hold the failure (files_test.py; SARIF's location: a line of the port's
header INCLUDE_DIR/HEADER, when the output names no line of the port).
Exit 0 if so, 1 if not.
"""
import json
import subprocess
import files_test
import sys
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr


def main(argv):
    if len(argv) < 7:
        print("example_test.py: usage: example_test.py VERDICT_PY WORKDIR SUBJECT COLUMN_ID "
              "INCLUDE_DIR HEADER BINARY [ARG...]", file=sys.stderr)
        return 2
    verdict, work, subj, col = argv[0], Path(argv[1]) / "native", argv[2], argv[3]
    inc, header, cmd = Path(argv[4]).resolve(), argv[5], argv[6:]
    isolate = Path(__file__).resolve().parent.parent / "unit" / "isolate.py"
    p = subprocess.run(["/usr/bin/python3", str(isolate)] + cmd, capture_output=True, text=True,
                       errors="replace")
    out = p.stdout + p.stderr
    name = f"{col}/{subj}"
    work.mkdir(parents=True, exist_ok=True)
    fail = '<failure message=""/>' if p.returncode != 0 else ""
    (work / "junit.xml").write_text(
        f'<testsuite tests="1"><testcase name={quoteattr(name)} classname="x" time="1" '
        f'status="{"fail" if fail else "run"}">{fail}<system-out>{escape(out)}</system-out>'
        '</testcase></testsuite>\n')
    (work / "runqcheck_columns.json").write_text(json.dumps(
        {"tests": {name: col}, "ports": {subj: {"header": header, "include_dirs": [str(inc)]}}}))
    junit, sarif = work.parent / "verdict.xml", work.parent / "verdict.sarif"
    v = subprocess.run(["/usr/bin/python3", verdict, "--subjects", subj, "--junit", str(junit),
                        "--sarif", str(sarif), "--srcroot", str(inc), f"native={work}"],
                       capture_output=True, text=True)
    print(v.stdout)
    lines = v.stdout.splitlines()
    reason = next((ln.strip() for ln in lines if ln.strip().startswith("reason:")), "")
    bad = []
    if p.returncode == 0:
        bad.append(f"{cmd[0]} passed: the example's bug was not found")
    if v.returncode != 1:
        bad.append(f"verdict exit {v.returncode}, not 1")
    if not reason or "without a message" in reason:
        bad.append(f"no reason ({reason or 'none'})")
    if not any(ln.strip().startswith("reproduce:") and "--gtest_filter=" in ln for ln in lines):
        bad.append("no reproduce: line with the test's --gtest_filter")
    if v.returncode == 1:
        bad += files_test.check(junit, sarif, inc, {
            "port_file": header, "line": 1, "failures": [[subj, col]],
            "repro": "reproduce:", "picture": False})
    for b in bad:
        print(f"example_test: {b}")
    print(f"example_test: {'FAILED' if bad else 'passed'}: {name}: {reason}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
