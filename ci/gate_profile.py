#!/usr/bin/python3
"""Where a gate's time goes: per preset and per verdict column, build vs run.

usage: gate_profile.py [--title TEXT] [--out FILE] [--gate-log LOG] PRESET=BUILD_DIR...
       gate_profile.py --ci-test ROOT [--out FILE]
  --ci-test: both tables from what ci/test left under ROOT (docs/gate-times.md):
  the bundled gate (build/logs/gate.log, build/<preset>) and one user port's,
  examples/acme_runq (build/logs/gate-acme.log, build/port/acme_workq/<preset>).

Reads what a gate run left in each preset's build tree (ci/gate, ci/test):
- build: ninja's log (.ninja_log: each output's start and end of its last
  build). A column's build time is the sum of the compile and link steps of
  the binaries its tests run (`ninja -t inputs`), counted once per column;
  steps that several columns share (libraries, generated sources) form the
  row `(shared)`; steps no port check uses (self-tests, tools), `(not the
  gate's)`. Sums are CPU time, roughly: with -j2 the wall time is less.
- run: ctest's JUnit file (junit.xml): each test's time, its column from
  runqcheck_columns.json (ci/checkers.json's one declaration).
- wall: with --gate-log (the gate's stderr, its `[time] preset P: ...`
  lines), each preset's configure, build and test wall time.
Prints Markdown tables (or writes them to FILE); exit 2 on bad usage or a tree
without a build log or a JUnit file. The times are those of the run that
left the trees: a cold one (empty ccache) is the one to record
(docs/gate-times.md says how it was made).
"""
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

import ctest_files


def ninja_steps(build):
    """{output: seconds} of the last build of every output."""
    log = build / ".ninja_log"
    rows = {}
    for line in log.read_text().splitlines()[1:]:
        parts = line.split("\t")
        if len(parts) == 5:
            rows[parts[3]] = (int(parts[0]), int(parts[1]))
    return {o: (e - s) / 1000.0 for o, (s, e) in rows.items()}


def test_binaries(build):
    """{test name: [binaries under BUILD it runs]} (ci/ctest_files.py)."""
    return {n: [f"bin/{b}" for b in ctest_files.binaries(str(build), cmd)]
            for n, (cmd, _) in ctest_files.tests(str(build)).items()}


def inputs(build, output):
    r = subprocess.run(["ninja", "-C", str(build), "-t", "inputs", output],
                       capture_output=True, text=True)
    return set(r.stdout.split()) | {output} if r.returncode == 0 else {output}


def junit_times(build):
    root = ET.parse(build / "junit.xml").getroot()
    return {c.get("name"): float(c.get("time") or 0) for c in root.iter("testcase")}


def profile(preset, build):
    steps = ninja_steps(build)
    cols = json.loads((build / "runqcheck_columns.json").read_text())["tests"]
    times = junit_times(build)
    run = defaultdict(float)
    ntests = defaultdict(int)
    for name, secs in times.items():
        col = cols.get(name, "(no column)")
        run[col] += secs
        ntests[col] += 1
    users = defaultdict(set)  # build step -> columns whose tests need it
    for name, bins in test_binaries(build).items():
        if name not in times:
            continue  # not run by this gate (nightly, self-test)
        col = cols.get(name, "(no column)")
        for b in bins:
            for i in inputs(build, b):
                if i in steps:
                    users[i].add(col)
    built = defaultdict(float)
    for out, secs in steps.items():
        u = users.get(out, set())
        built[next(iter(u)) if len(u) == 1 else "(shared)" if u else "(not the gate's)"] += secs
    rows = []
    for col in sorted(set(run) | set(built), key=lambda c: -(run[c] + built[c])):
        if built[col] >= 0.5 or ntests[col]:
            rows.append((preset, col, built[col], run[col], ntests[col]))
    return rows


STAMP = re.compile(r"^\[(\d\d):(\d\d):(\d\d)\] preset (\S+): (configure|build|built|ctest|\d+s)")


def stamps(log):
    """(seconds of the day, preset, mark) of each preset line of a gate's log, in order;
    mark "end" for the "<N>s" line that ends a preset."""
    for line in Path(log).read_text(errors="replace").splitlines():
        m = STAMP.match(line)
        if m:
            h, mi, se, preset, what = m.groups()
            mark = "end" if what[0].isdigit() else what
            yield int(h) * 3600 + int(mi) * 60 + int(se), preset, mark


def walls(log):
    """{preset: [configure, build, tests] seconds} from a gate's log."""
    marks = defaultdict(dict)
    for t, preset, what in stamps(log):
        marks[preset][what] = t
    out = {}
    for preset, m in marks.items():
        if {"configure", "build", "ctest", "end"} <= m.keys():
            # ci/gate builds ahead of the tests: "built" ends the build (a
            # log without it: the tests began when the build ended).
            d = [m["build"] - m["configure"], m.get("built", m["ctest"]) - m["build"],
                 m["end"] - m["ctest"]]
            out[preset] = [x % 86400 for x in d]  # past midnight
    return out


def gate_wall(log):
    """Seconds from the first preset's configure to the last preset's end."""
    marks = [t for t, _, what in stamps(log) if what in ("configure", "end")]
    return (marks[-1] - marks[0]) % 86400 if marks else 0


def tables(title, log, dirs):
    """The Markdown of one gate's tables, or raises SystemExit(2) naming what is missing."""
    if log and not Path(log).is_file():
        sys.exit(f"gate_profile: no gate log '{log}'")
    lines = [f"### {title}", ""]
    wall = walls(log) if log else {}
    if wall:
        total = [sum(w[i] for w in wall.values()) for i in range(3)]
        lines += ["| preset | configure (s) | build (s) | tests (s) | total (s) |",
                  "|---|---|---|---|---|"]
        lines += [f"| {p} | {c} | {b} | {t} | {c + b + t} |" for p, (c, b, t) in wall.items()]
        lines += [f"| all | {total[0]} | {total[1]} | {total[2]} | {sum(total)} |", "",
                  "The builds run ahead of the tests (ci/gate), so the gate's wall time is"
                  f" less than the sum: {gate_wall(log)} s from the first configure to the"
                  " last preset's end.", ""]
    lines += ["| preset | column | build steps (s) | tests (s) | tests |",
              "|---|---|---|---|---|"]
    for preset, d in dirs:
        for need in (".ninja_log", "junit.xml", "runqcheck_columns.json"):
            if not (d / need).is_file():
                sys.exit(f"gate_profile: {d} has no {need} (run the gate there first)")
        lines += [f"| {p} | {c} | {b:.0f} | {r:.0f} | {n} |"
                  for p, c, b, r, n in profile(preset, d)]
    return "\n".join(lines) + "\n"


def ci_test_tables(root):
    root = Path(root).resolve()
    out = []
    for title, log, base in (("bundled gate (ci/gate)", "gate.log", root / "build"),
                             ("one user port (examples/acme_runq, ci/gate --subject)",
                              "gate-acme.log", root / "build/port/acme_workq")):
        presets = [p for p in ("native", "relacy", "asan", "tsan", "arm64", "arm64-tsan",
                               "fuzz") if (base / p / "junit.xml").is_file()]
        out.append(tables(title, root / "build/logs" / log, [(p, base / p) for p in presets]))
    return "\n".join(out)


def main(argv):
    title, out, log, root, dirs = "gate", None, None, None, []
    it = iter(argv)
    for a in it:
        if a in ("--title", "--out", "--gate-log", "--ci-test"):
            v = next(it, None)
            if v is None:
                print(f"gate_profile: {a} needs a value", file=sys.stderr)
                return 2
            if a == "--title":
                title = v
            elif a == "--out":
                out = v
            elif a == "--ci-test":
                root = v
            else:
                log = v
        elif "=" in a and not a.startswith("-"):
            p, d = a.split("=", 1)
            dirs.append((p, Path(d).resolve()))
        else:
            print(f"gate_profile: bad argument '{a}' (usage: see ci/gate_profile.py)",
                  file=sys.stderr)
            return 2
    if not dirs and not root:
        print("gate_profile: no PRESET=BUILD_DIR given", file=sys.stderr)
        return 2
    try:
        text = ci_test_tables(root) if root else tables(title, log, dirs)
    except SystemExit as e:
        print(e.code, file=sys.stderr)
        return 2
    if out:
        Path(out).write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
