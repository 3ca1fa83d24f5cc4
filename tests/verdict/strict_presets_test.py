#!/usr/bin/python3
"""--strict judges the presets that were run: a column whose preset was not run is not
applied and passes (ci/gate --presets native,relacy --strict, docs/porting.md section 8);
a column of a preset that ran and did not apply to the subject still fails. A check of a
feature a protocol's registration declares absent (WITHOUT syscalls, procresize) is listed
under `declared absent`, leaves its cell `passed` and passes --strict; the same check `not
applied` makes it `passed*` and fails --strict.

usage: strict_presets_test.py VERDICT_PY WORKDIR
Writes native build dirs by hand (junit.xml, runqcheck_columns.json) and runs
ci/verdict.py --strict on each. Exit 0 if both verdicts are right.
"""
import json
import subprocess
import sys
from pathlib import Path
from xml.sax.saxutils import escape


def gate(verdict, work, tests):
    """ci/verdict.py --strict on a native dir whose passing tests are TESTS (name: column)."""
    work.mkdir(parents=True, exist_ok=True)
    (work / "stage-failed").unlink(missing_ok=True)
    case = '<testcase name="{t}" classname="x" time="1" status="run"><system-out>ok</system-out>' \
           '</testcase>'
    (work / "junit.xml").write_text(f'<testsuite tests="{len(tests)}">'
                                    + "".join(case.format(t=t) for t in tests) + '</testsuite>\n')
    (work / "runqcheck_columns.json").write_text(json.dumps({"protocol_subjects": [],
                                                             "tests": tests}))
    v = subprocess.run(["/usr/bin/python3", verdict, "--strict", "--subjects", "q",
                        f"native={work}"], capture_output=True, text=True)
    print(v.stdout + v.stderr)
    last = [x for x in v.stdout.splitlines() if x.startswith("gate: ")]
    return v.returncode, last[-1] if last else "(no gate: line)"


def gate_protocol(verdict, work, word):
    """ci/verdict.py --strict on p's explore_protocol and stress_protocol tests, whose
    output says WORD ("declared absent" or "not applied") for the syscall scenarios."""
    work.mkdir(parents=True, exist_ok=True)
    out = {"explore_protocol/p": f"runqcheck: {word}: explore_protocol go125_window: its Ms "
                                 "exit syscalls or retake: needs has_protocol_syscalls "
                                 "(subject p)\nexplore_protocol: 9 scenarios explored\n",
           "stress_protocol/p": f"runqcheck: {word}: stress chaos: its Gs enter syscalls: "
                                "needs has_protocol_syscall_thief (protocol p)\n"}
    case = '<testcase name="{t}" classname="x" time="1" status="run"><system-out>{o}' \
           '</system-out></testcase>'
    (work / "junit.xml").write_text(
        f'<testsuite tests="{len(out)}">'
        + "".join(case.format(t=t, o=escape(o)) for t, o in out.items()) + '</testsuite>\n')
    (work / "runqcheck_columns.json").write_text(json.dumps(
        {"protocol_subjects": ["p"],
         "tests": {"explore_protocol/p": "explore_protocol",
                   "stress_protocol/p": "stress_protocol"}}))
    v = subprocess.run(["/usr/bin/python3", verdict, "--strict", "--subjects", "p",
                        "--columns", "explore_protocol,stress_protocol", f"native={work}"],
                       capture_output=True, text=True)
    print(v.stdout + v.stderr)
    return v.returncode, v.stdout


def main(argv):
    if len(argv) != 2:
        print("usage: strict_presets_test.py VERDICT_PY WORKDIR", file=sys.stderr)
        return 2
    verdict, root = argv[0], Path(argv[1])
    bad = []
    native = ["unit", "property", "lincheck", "diff_go", "stall", "weak_memory", "explore",
              "explore_lb", "generated"]
    # Every native column ran for q; the Relacy, fuzz, sanitizer and aarch64 presets did not.
    rc, line = gate(verdict, root / "a" / "native", {f"{c}/q": c for c in native})
    want = f"gate: {len(native)} passed, 0 failed"
    if rc != 0 or line != want:
        bad.append(f"native only: exit {rc}, '{line}' (want 0, '{want}')")
    # q's property test did not run on the native preset: that cell fails --strict.
    rc, line = gate(verdict, root / "b" / "native", {f"{c}/q": c for c in native[1:]})
    want = f"gate: {len(native) - 1} passed, 1 failed"
    if rc != 1 or line != want:
        bad.append(f"a native column not applied: exit {rc}, '{line}' (want 1, '{want}')")
    rc, out = gate_protocol(verdict, root / "declared" / "native", "declared absent")
    row = [x for x in out.splitlines() if x.startswith("p ")]
    if rc != 0 or "gate: 2 passed, 0 failed" not in out:
        bad.append(f"declared absent: exit {rc} (want 0, 'gate: 2 passed, 0 failed')")
    if not row or "passed*" in row[0] or row[0].split()[1:] != ["passed", "passed"]:
        bad.append(f"declared absent: row {row} (want p passed passed)")
    if "\ndeclared absent (subject, column" not in out or "not applied (" in out:
        bad.append("declared absent: not listed under 'declared absent' alone")
    if "p, exhaustive protocol: explore_protocol go125_window" not in out:
        bad.append("declared absent: the scenario and its reason not named")
    rc, out = gate_protocol(verdict, root / "missing" / "native", "not applied")
    if rc != 1 or "gate: 2 passed, 2 failed" not in out:
        bad.append(f"not applied: exit {rc} (want 1, 'gate: 2 passed, 2 failed')")
    for b in bad:
        print(f"strict_presets_test: FAILED: {b}")
    if not bad:
        print("strict_presets_test: ok: the presets not run do not fail --strict; "
              "a column of a preset run does; a check declared absent does not, listed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
