#!/usr/bin/python3
"""Print the gate's verdict table from the presets' CTest JUnit files.

One row per check: preset, check, verdict, count (what the check counted:
test cases, executions, states), wall time. Every failure is followed by the
command that reproduces it. Exit status 1 if anything failed.

usage: verdict.py ROOT PRESET...
"""
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

COUNTERS = [
    (re.compile(r"(\d+) scenarios, (\d+) executions"), "{} scenarios, {} executions"),
    (re.compile(r"\[  PASSED  \] (\d+) tests?"), "{} test cases"),
    (re.compile(r"(\d+) passed, (\d+) failed"), "{} passed"),
    (re.compile(r"after (\d+) executions"), "{} executions"),
    (re.compile(r"(\d+) states, stored"), "{} states"),
    (re.compile(r"(\d+) lemmas? (?:proved|checked)"), "{} lemmas"),
]


def count_of(out: str) -> str:
    for rx, fmt in COUNTERS:
        m = rx.findall(out)
        if m:
            last = m[-1] if isinstance(m[-1], tuple) else (m[-1],)
            return fmt.format(*last)
    return ""


def reproducers(preset: str, name: str, out: str):
    cmds = [f"ctest --preset {preset} -R '^{re.escape(name)}$' --output-on-failure"]
    failed = sorted(set(re.findall(r"\[  FAILED  \] ([A-Za-z_][\w/]*\.[\w/]+)", out)))
    if failed and "/" in name:
        checker, subject = name.split("/", 1)
        cmds.append(f"build/{preset}/bin/{checker}__{subject} --gtest_filter='{':'.join(failed[:8])}'")
    for line in out.splitlines():
        if line.startswith("replay:") or "reproduce:" in line:
            cmds.append("  " + line.strip())
    return cmds


def main() -> int:
    root = Path(sys.argv[1])
    rows, repro, bad = [], [], 0
    for preset in sys.argv[2:]:
        stage = root / "build" / preset / "stage-failed"
        junit = root / "build" / preset / "junit.xml"
        if stage.exists():
            what = stage.read_text().strip()
            rows.append((preset, f"({what})", "FAILED", "", ""))
            repro.append(f"{preset} {what}: cmake --workflow --preset {preset}   (log: build/logs/{preset}.log)")
            bad += 1
            continue
        if not junit.exists():
            rows.append((preset, "(no results)", "FAILED", "", ""))
            bad += 1
            continue
        suite = ET.parse(junit).getroot()
        cases = suite.findall(".//testcase")
        if not cases:
            rows.append((preset, "(no tests ran)", "FAILED", "", ""))
            bad += 1
        for tc in cases:
            name = tc.get("name", "?")
            status = tc.get("status", "")
            out = "".join(x.text or "" for x in tc.iter("system-out"))
            failed = tc.find("failure") is not None or tc.find("error") is not None or status == "fail"
            skipped = tc.find("skipped") is not None or status in ("notrun", "disabled")
            verdict = "FAILED" if failed else ("skipped" if skipped else "passed")
            if failed or skipped and status == "notrun":
                bad += 1 if failed else 0
            t = float(tc.get("time", "0") or 0)
            rows.append((preset, name, verdict, count_of(out), f"{t:.1f}s"))
            if failed:
                repro.append(f"{preset} {name}:")
                repro.extend("  " + c for c in reproducers(preset, name, out))
    head = ("preset", "check", "verdict", "count", "wall")
    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(5)]
    line = lambda r: "  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip()
    print()
    print(line(head))
    print(line(tuple("-" * w for w in widths)))
    for r in rows:
        print(line(r))
    passed = sum(1 for r in rows if r[2] == "passed")
    print()
    print(f"gate: {passed} passed, {bad} failed")
    if repro:
        print("\nreproduce:")
        for r in repro:
            print("  " + r)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
