#!/usr/bin/python3
"""A FAILED cell is one JUnit testcase with one <failure>, whatever number of its tests failed.

usage: junit_cell_test.py VERDICT_PY WORKDIR
Writes a native build dir by hand: subject q's exhaustive LB cell with two failing tests
(explore_lb/q and generated_lb/q, the column's two halves), then runs ci/verdict.py --junit.
Ant's junit.xsd, which many CI readers follow, gives a testcase a choice of one <error> or
<failure>: the cell's testcase must hold one <failure> (schema_check.junit), its message
naming how many tests failed and its text each test's reason and replay. Exit 0 if so.
"""
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import schema_check  # noqa: E402


def main(argv):
    if len(argv) != 2:
        print("junit_cell_test.py: usage: junit_cell_test.py VERDICT_PY WORKDIR", file=sys.stderr)
        return 2
    verdict, work = argv[0], Path(argv[1]) / "native"
    work.mkdir(parents=True, exist_ok=True)
    (work / "stage-failed").unlink(missing_ok=True)
    case = ('<testcase name="{t}" classname="x" time="1" status="fail"><failure message=""/>'
            '<system-out>{t}: FAILED: {why}\nreplay: bin/{b} replay {t}</system-out></testcase>')
    (work / "junit.xml").write_text(
        '<testsuite tests="2">'
        + case.format(t="explore_lb/q", why="lost G3 under C11", b="explore__q")
        + case.format(t="generated_lb/q", why="G1 delivered twice under C11", b="generated__q")
        + '</testsuite>\n')
    (work / "runqcheck_columns.json").write_text(json.dumps({
        "protocol_subjects": [],
        "tests": {"explore_lb/q": "explore_lb", "generated_lb/q": "explore_lb"}}))
    out = work.parent / "verdict.xml"
    v = subprocess.run(["/usr/bin/python3", verdict, "--subjects", "q", "--junit", str(out),
                        f"native={work}"], capture_output=True, text=True)
    print(v.stdout + v.stderr)
    if not out.is_file():
        print("junit_cell_test: FAILED: no JUnit file written")
        return 1
    root = ET.parse(out).getroot()
    bad = [f"junit: {x}" for x in schema_check.junit(root)]
    tc = next((t for t in root.iter("testcase") if t.get("name") == "explore_lb"), None)
    fails = [] if tc is None else tc.findall("failure")
    if len(fails) != 1:
        bad.append(f"the exhaustive LB testcase holds {len(fails)} <failure>s, not 1")
    else:
        text, msg = fails[0].text or "", fails[0].get("message", "")
        if "2 tests failed" not in msg:
            bad.append(f"its message does not say 2 tests failed: {msg!r}")
        for want in ("lost G3 under C11", "G1 delivered twice under C11",
                     "bin/explore__q replay", "bin/generated__q replay"):
            if want not in text:
                bad.append(f"its text lacks {want!r}")
    for b in bad:
        print(f"junit_cell_test: FAILED: {b}")
    print("junit_cell_test: " + ("passed" if not bad else "FAILED"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
