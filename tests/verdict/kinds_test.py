#!/usr/bin/python3
"""The verdict keeps queue and protocol subjects to their own columns.

usage: kinds_test.py VERDICT_PY WORKDIR
Writes a relacy build dir by hand: a queue subject q with a passing
relacy_scenarios test and a protocol subject p (runqcheck_columns.json's
protocol_subjects) with a failing relacy_protocol test. Checks that
ci/verdict.py shows p's queue cells and q's protocol cell as `-` (not
counted), p's protocol cell FAILED, and, for q alone, no relacy protocol
column; after a failed build, each subject's failure lists its own kind's
columns only; after a ctest stopped before junit.xml, the failure names the
test that ran and ctest's output. Exit 0 if so, 1 if not.
"""
import json
import subprocess
import sys
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent / "ci"))
from expect_cells import read_matrix  # noqa: E402  (the one parser of a printed matrix)


def matrix(verdict, work, subjects):
    v = subprocess.run(["/usr/bin/python3", verdict, "--subjects", subjects, f"relacy={work}"],
                       capture_output=True, text=True)
    return v.stdout, read_matrix(v.stdout) or {}


def main(argv):
    if len(argv) != 2:
        print("kinds_test.py: usage: kinds_test.py VERDICT_PY WORKDIR", file=sys.stderr)
        return 2
    verdict, work = argv[0], Path(argv[1]) / "relacy"
    work.mkdir(parents=True, exist_ok=True)
    (work / "stage-failed").unlink(missing_ok=True)  # a run before this one's last step
    (work / "junit.xml").write_text(
        '<testsuite tests="2">'
        '<testcase name="relacy_scenarios/q" classname="x" time="1" status="run"/>'
        '<testcase name="relacy_protocol/p" classname="x" time="1" status="fail">'
        '<failure message=""/><system-out>invariant: lost wakeup\nreplay: x</system-out>'
        '</testcase></testsuite>\n')
    (work / "runqcheck_columns.json").write_text(json.dumps({
        "protocol_subjects": ["p"],
        "tests": {"relacy_scenarios/q": "relacy_random", "relacy_protocol/p": "relacy_protocol"}}))
    out, rows = matrix(verdict, work, "q,p")
    print(out)
    want = {("q", "relacy random"): "passed", ("q", "relacy protocol"): "-",
            ("p", "relacy random"): "-", ("p", "unit"): "-", ("p", "relacy protocol"): "FAILED"}
    bad = [f"{s}, {c}: {rows.get(s, {}).get(c)}, not {v}" for (s, c), v in want.items()
           if rows.get(s, {}).get(c) != v]
    if "verdict: 1 passed, 1 FAILED" not in out:
        bad.append("the counts include a cell of the other kind")
    # Every column in bands of at most 100 characters, each with the subject column,
    # which read_matrix joins (the queue columns and the protocol ones: several bands).
    heads = [ln for ln in out.splitlines() if ln.startswith("subject ")]
    if len(heads) < 2 or any(len(ln) > 100 for ln in out.split("\n\n", 2)[1].splitlines()):
        bad.append(f"the matrix is not in bands of at most 100 columns ({len(heads)} heads)")
    if len(rows.get("q", {})) != len(rows.get("p", {})) or "unit" not in rows.get("p", {}):
        bad.append("read_matrix did not join the bands into one row per subject")
    (work / "runqcheck_columns.json").write_text(json.dumps({
        "protocol_subjects": [], "tests": {"relacy_scenarios/q": "relacy_random"}}))
    (work / "junit.xml").write_text(
        '<testsuite tests="1">'
        '<testcase name="relacy_scenarios/q" classname="x" time="1" status="run"/>'
        '</testsuite>\n')
    _, rows = matrix(verdict, work, "q")
    if "relacy protocol" in rows.get("q", {}):
        bad.append("a relacy protocol column with no protocol subject")
    # A test that skipped itself (exit 77) after a not-applied line that is not
    # its last: not applied, with no "a tool is missing" note.
    (work / "junit.xml").write_text(
        '<testsuite tests="1">'
        '<testcase name="relacy_protocol/p" classname="x" time="1" status="notrun">'
        '<skipped/><system-out>runqcheck: not applied: w: no hook\nnone applied\n'
        '</system-out></testcase></testsuite>\n')
    (work / "runqcheck_columns.json").write_text(json.dumps({
        "protocol_subjects": ["p"], "tests": {"relacy_protocol/p": "relacy_protocol"}}))
    out, rows = matrix(verdict, work, "p")
    if rows.get("p", {}).get("relacy protocol") != "not applied" or "tool is missing" in out:
        bad.append("a skipped test's not-applied line, not its last, was not read")
    # A build that failed: each subject's failure names its own kind's columns only.
    (work / "junit.xml").unlink()
    (work / "build.log").write_text("q.hpp:1:1: error: broken\n")
    (work / "stage-failed").write_text(f"build {work / 'build.log'}\n")
    (work / "runqcheck_columns.json").write_text(json.dumps({
        "protocol_subjects": ["p"], "tests": {}}))
    out, _ = matrix(verdict, work, "q,p")
    print(out)
    for line in out.splitlines():
        if line.startswith("  p, ") and "relacy random" in line:
            bad.append(f"p's build failure names a queue column: {line.strip()}")
        if line.startswith("  q, ") and "relacy protocol" in line:
            bad.append(f"q's build failure names a protocol column: {line.strip()}")
        if "relacy full" in line:
            bad.append(f"a build failure names a nightly column: {line.strip()}")
    if not any(line.startswith("  p, relacy protocol") for line in out.splitlines()):
        bad.append("no build failure listed for p's relacy protocol")
    # A ctest stopped (killed from outside) while its second test ran, before
    # junit.xml: the failure names that test and ctest's output.
    # Its nightly column (relacy full) is not listed: none of its tests had started.
    (work / "stage-failed").unlink()
    (work / "runqcheck_columns.json").write_text(json.dumps({
        "protocol_subjects": [], "tests": {"relacy_scenarios/q": "relacy_random",
                                           "relacy_scenarios_bound2/q": "relacy_bounded",
                                           "relacy_scenarios_full/q": "relacy_full"}}))
    log = ("      Start  1: relacy_scenarios/q\n"
           " 1/2 Test  #1: relacy_scenarios/q ...............   Passed    1.00 sec\n"
           "      Start  2: relacy_scenarios_bound2/q\n")
    (work / "junit.log").write_text(log)
    out, rows = matrix(verdict, work, "q")
    if "while relacy_scenarios_bound2/q ran" not in out:
        bad.append("a stopped ctest's failure does not name the test that ran")
    if f"log: {work / 'junit.log'}" not in out:
        bad.append("a stopped ctest's failure does not name its output (junit.log)")
    if "relacy full" in out or rows.get("q", {}).get("relacy bounded") != "FAILED":
        bad.append("a stopped ctest: relacy full listed, or relacy bounded not FAILED")
    # ... and is, where its test was the one running (the nightly run).
    (work / "junit.log").write_text(log.replace("bound2", "full"))
    out, rows = matrix(verdict, work, "q")
    if rows.get("q", {}).get("relacy full") != "FAILED":
        bad.append("a ctest stopped in relacy full's test: that column not FAILED")
    for b in bad:
        print(f"kinds_test: {b}")
    print(f"kinds_test: {'FAILED' if bad else 'passed'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
