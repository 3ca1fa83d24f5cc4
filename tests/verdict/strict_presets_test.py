#!/usr/bin/python3
"""--strict judges the presets that were run: a column whose preset was not run is not
applied and passes (ci/gate --presets native,relacy --strict, docs/porting.md section 8);
a column of a preset that ran and did not apply to the subject still fails.

usage: strict_presets_test.py VERDICT_PY WORKDIR
Writes native build dirs by hand (junit.xml, runqcheck_columns.json) and runs
ci/verdict.py --strict on each. Exit 0 if both verdicts are right.
"""
import json
import subprocess
import sys
from pathlib import Path


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
    for b in bad:
        print(f"strict_presets_test: FAILED: {b}")
    if not bad:
        print("strict_presets_test: ok: the presets not run do not fail --strict; "
              "a column of a preset run does")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
