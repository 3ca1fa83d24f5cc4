#!/usr/bin/python3
"""Print the verdict matrix of ci/gate from the presets' CTest JUnit files.

One row per subject, one column per checker family; each cell is `passed`,
`passed*` (passed, but the test printed `runqcheck: not applied: ...`
lines, listed below the table), `FAILED` or `not applied`. Below the table,
for every FAILED cell: the one-line reason, the reproducers (the ctest
command, and every `replay:` / `reproduce:` line the test printed), the
HTML picture (`picture:` lines) and the witness execution (`witness:` lines,
the weak-memory column's). `runqcheck: report: ...` lines are findings that
fail nothing (orders stronger than needed), listed below the table. A test
that exits 77 (SKIP_RETURN_CODE) after a `runqcheck: not applied:` line makes
its cell `not applied` with that reason.

usage: verdict.py [--strict] [--subjects A,B] [--title TEXT] PRESET=BUILD_DIR...
(PRESET `build`: a user's own build tree, any checker family)

Each BUILD_DIR holds junit.xml (ctest --output-junit) or, when its
configure or build failed, a file `stage-failed`: "<stage> <log path>".
Exit status: 0 all passed, 1 a cell FAILED (or, with --strict, a check did
not apply), 2 bad usage.
"""
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

COLUMNS = ["unit", "property", "lincheck", "relacy random", "relacy bounded", "relacy full",
           "fuzz interleave", "diff vs Go", "stall", "weak memory", "exhaustive", "ASan", "TSan",
           "aarch64"]
# Which columns a preset fills (a preset that did not build fails these).
PRESET_COLUMNS = {
    "native": ["unit", "property", "lincheck", "diff vs Go", "stall", "weak memory", "exhaustive"],
    "relacy": ["relacy random", "relacy bounded", "relacy full"],
    "fuzz": ["fuzz interleave"],
    "asan": ["ASan"], "tsan": ["TSan"], "arm64": ["aarch64"], "arm64-tsan": ["aarch64"],
    # a user's own build tree (runqcheck_port_verdict): any family
    "build": ["unit", "property", "lincheck", "relacy random", "relacy bounded", "relacy full",
              "fuzz interleave", "diff vs Go", "stall", "weak memory", "exhaustive"],
}
# Whole-preset columns: every port test of the preset lands there.
PRESET_WHOLE = {"asan": "ASan", "tsan": "TSan", "arm64": "aarch64", "arm64-tsan": "aarch64"}

NOT_APPLIED = re.compile(r"runqcheck: not applied: (.*)$")
REPORT = re.compile(r"runqcheck: report: (.*)$")  # findings that do not fail a cell
REASON = re.compile(r"invariant:|fatal error|\bFAILED\b|: Failure$|\berror:|LIVELOCK|DEADLOCK|"
                    r"DATA RACE|ERROR: AddressSanitizer|WARNING: ThreadSanitizer|runtime error:|"
                    r"no progress|watchdog")


def column_of(preset: str, checker: str) -> str:
    if preset in PRESET_WHOLE:
        return PRESET_WHOLE[preset]
    if checker.startswith("fuzz_interleave"):
        return "fuzz interleave"
    if preset == "fuzz":
        return "ASan"  # the fuzz preset's other tests: clang with ASan+UBSan
    if checker.startswith("relacy"):
        if "full" in checker:
            return "relacy full"
        if "bound" in checker:
            return "relacy bounded"
        return "relacy random"
    for prefix, col in (("unit", "unit"), ("property", "property"), ("lincheck", "lincheck"),
                        ("diff_go", "diff vs Go"), ("stall", "stall"),
                        ("weak_memory", "weak memory"), ("explore", "exhaustive")):
        if checker.startswith(prefix):
            return col
    return "other"


def reason_of(out: str, failure_msg: str) -> str:
    lines = out.splitlines()
    for i, line in enumerate(lines):
        if REASON.search(line) and not line.startswith("[  FAILED  ] ") or "invariant:" in line:
            text = line.strip()
            if text.endswith(": Failure") and i + 1 < len(lines):
                text += " " + lines[i + 1].strip()
            return text[:300]
    for line in lines:
        if line.startswith("[  FAILED  ] "):
            return line.strip()[:300]
    return (failure_msg or "failed without a message (see the ctest command)")[:300]


def first_error(log: Path) -> str:
    try:
        text = log.read_text(errors="replace")
    except OSError:
        return "(no log)"
    for rx in (r"(?m)^.*\berror:.*$", r"CMake Error.*", r"(?m)^FAILED:.*$"):
        m = re.search(rx, text)
        if m:
            line = m.group(0).strip()
            if line.startswith("CMake Error"):
                rest = text[m.end():].strip().split("\n\n")[0].split()
                line += " " + " ".join(rest)
            return line[:300]
    return "(no error line in the log)"


class Cell:
    def __init__(self):
        self.tests = []          # (name, state) state: passed / failed / skipped
        self.notes = []          # not-applied lines
        self.reports = []        # report lines (shown, never failing)
        self.failures = []       # dicts

    def verdict(self) -> str:
        if not self.tests:
            return "not applied"
        if any(s == "failed" for _, s in self.tests):
            return "FAILED"
        if all(s == "skipped" for _, s in self.tests):
            return "not applied"
        return "passed*" if self.notes or any(s == "skipped" for _, s in self.tests) else "passed"


def main(argv) -> int:
    strict, subjects, title, runs = False, [], "", []
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--strict":
            strict = True
        elif a in ("--subjects", "--title") and args:
            v = args.pop(0)
            if a == "--subjects":
                subjects = [s for s in v.split(",") if s]
            else:
                title = v
        elif "=" in a and not a.startswith("-"):
            preset, d = a.split("=", 1)
            runs.append((preset, Path(d)))
        else:
            print(f"verdict.py: bad argument '{a}' (usage: verdict.py [--strict] [--subjects A,B] "
                  "PRESET=BUILD_DIR...)", file=sys.stderr)
            return 2
    if not runs:
        print("verdict.py: no PRESET=BUILD_DIR given", file=sys.stderr)
        return 2

    cells = {}
    cell = lambda s, c: cells.setdefault((s, c), Cell())
    setup = []  # (preset, stage, reason, log) of presets that did not build
    ran_cols = set()
    for preset, d in runs:
        cols = PRESET_COLUMNS.get(preset, ["other"])
        stage = d / "stage-failed"
        junit = d / "junit.xml"
        if stage.exists():
            what, _, log = stage.read_text().strip().partition(" ")
            setup.append((preset, what, first_error(Path(log)), log, cols))
            ran_cols.update(cols)
            continue
        if not junit.exists():
            setup.append((preset, "test", "no results (ctest wrote no junit.xml)", str(d), cols))
            ran_cols.update(cols)
            continue
        ran_cols.update(cols)
        for tc in ET.parse(junit).getroot().iter("testcase"):
            name = tc.get("name", "?")
            if "/" not in name:
                continue
            checker, subj = name.split("/", 1)
            if subj not in subjects:
                subjects.append(subj)
            status = tc.get("status", "")
            out = "".join(x.text or "" for x in tc.iter("system-out"))
            fail_el = tc.find("failure")
            if fail_el is None:
                fail_el = tc.find("error")
            failed = fail_el is not None or status == "fail"
            skipped = not failed and (tc.find("skipped") is not None
                                      or status in ("notrun", "disabled"))
            col = column_of(preset, checker)
            c = cell(subj, col)
            c.tests.append((name, "failed" if failed else "skipped" if skipped else "passed"))
            if skipped and not NOT_APPLIED.search(out):
                c.notes.append(f"{name} ({preset}): skipped by the test itself "
                               "(exit 77: a tool is missing)")
            for line in out.splitlines():
                m = NOT_APPLIED.search(line)
                if m and m.group(1) not in c.notes:
                    c.notes.append(m.group(1))
                m = REPORT.search(line)
                if m and m.group(1) not in c.reports:
                    c.reports.append(m.group(1))
            if failed:
                lines = [ln.strip() for ln in out.splitlines()]
                c.failures.append({
                    "test": name, "preset": preset,
                    "reason": reason_of(out, "" if fail_el is None else fail_el.get("message", "")),
                    "repro": [f"ctest --test-dir {d} -R '^{re.escape(name)}$' --output-on-failure"]
                             + [ln for ln in lines if ln.startswith(("replay:", "reproduce:"))
                                or "reproduce with:" in ln],
                    "pictures": [ln.split(":", 1)[1].strip() for ln in lines
                                 if ln.startswith("picture:")],
                    "witness": [ln.split(":", 1)[1].rstrip() for ln in out.splitlines()
                                if ln.startswith("witness:")],
                })
    for preset, what, why, log, cols in setup:
        for s in subjects or ["(all)"]:
            for col in cols:
                c = cell(s, col)
                c.tests.append((f"({preset} {what})", "failed"))
                c.failures.append({"test": f"preset {preset}: {what} failed", "preset": preset,
                                   "reason": why, "repro": [f"log: {log}"], "pictures": [],
                                   "witness": []})

    columns = [c for c in COLUMNS] + (["other"] if any(k[1] == "other" for k in cells) else [])
    rows = subjects or ["(none)"]
    grid = [[s] + [cell(s, c).verdict() for c in columns] for s in rows]
    head = ["subject"] + columns
    widths = [max(len(r[i]) for r in grid + [head]) for i in range(len(head))]
    fmt = lambda r: "  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip()
    print()
    if title:
        print(title)
    print(fmt(head))
    print(fmt(["-" * w for w in widths]))
    for r in grid:
        print(fmt(r))

    n_pass = sum(v.startswith("passed") for r in grid for v in r[1:])
    n_fail = sum(v == "FAILED" for r in grid for v in r[1:])
    n_na = sum(v == "not applied" for r in grid for v in r[1:])
    notes = [(s, c, n) for s in rows for c in columns for n in cell(s, c).notes]
    empty = [(s, c) for s in rows for c in columns if cell(s, c).verdict() == "not applied"
             and not cell(s, c).tests]
    if notes or empty:
        print("\nnot applied (subject, column: check: why):")
        for s, c, n in notes:
            print(f"  {s}, {c}: {n}")
        by_col = {}
        for s, c in empty:
            by_col.setdefault(c, []).append(s)
        for c, subs in by_col.items():
            why = ("no test of this family for the subject" if c in ran_cols
                   else "its preset was not run")
            who = "every subject" if len(subs) == len(rows) > 1 else ", ".join(subs)
            print(f"  {who}, {c}: {why}")
    reports = [(s, c, r) for s in rows for c in columns for r in cell(s, c).reports]
    if reports:
        print("\nreports (subject, column: finding; not failures):")
        for s, c, r in reports:
            print(f"  {s}, {c}: {r}")
    # One entry per failing test (a preset that did not build fills several columns).
    fails = {}
    for s in rows:
        for c in columns:
            for f in cell(s, c).failures:
                fails.setdefault((s, f["test"]), (f, []))[1].append(c)
    if fails:
        print("\nfailures:")
        for (s, _), (f, cols) in fails.items():
            print(f"  {s}, {' / '.join(cols)}: {f['test']} [{f['preset']}]")
            print(f"    reason: {f['reason']}")
            for r in f["repro"]:
                own = r.startswith(("replay:", "reproduce:", "log:"))
                print(f"    {r}" if own else f"    reproduce: {r}")
            for p in f["pictures"]:
                print(f"    picture: {p}")
            if f["witness"]:
                print("    witness:")
                for w in f["witness"]:
                    print(f"    {w}")
    print()
    print(f"verdict: {n_pass} passed, {n_fail} FAILED, {n_na} not applied"
          + (" (--strict: not applied fails)" if strict and (n_na or notes) else ""))
    bad = n_fail + ((n_na + len(notes)) if strict else 0)
    print(f"gate: {n_pass} passed, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
