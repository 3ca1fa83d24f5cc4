#!/usr/bin/python3
"""ci/gate's test-result cache (ci/test_cache.py) on a CTest tree of its own.

usage: cache_test.py TEST_CACHE_PY VERDICT_PY WORKDIR
Three tests run through plan, ctest and merge as ci/lib.sh's rq_port_tests
does: a passing and a failing check, and one whose script is edited between
runs. Checks that only the passing result is reused; that a file the command
names, its content or the environment changing runs it again, a new mtime
alone does not, nor a folder it writes to (Go's build cache); that a failing check
always runs again, and every check
with --no-reuse; that a cached result reaches junit.xml (cached="true") and
the verdict's "cached:" line; and that a run whose ctest wrote nothing is
not filled in from the cache.
Exit 0 if so, 1 naming what went wrong.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

CACHE, VERDICT, WORK = sys.argv[1], sys.argv[2], Path(sys.argv[3])
problems = []


def check(ok, what):
    if not ok:
        problems.append(what)


def write_tree(d: Path):
    (d / "bin").mkdir(parents=True, exist_ok=True)
    for name, body in (("pass_x", "echo ok\n"), ("fail_x", "echo broken; exit 1\n"),
                       ("edit_x", "echo first\n")):
        (d / "bin" / name).write_text("#!/bin/sh\n" + body)
    (d / "bin" / "pass_x").write_text('#!/bin/sh\ndate +%N > "$1/entry.$$"; echo ok\n')
    lines = []
    # pass_x also names a folder outside the build tree that changes on
    # every run, as diff_go names Go's build cache.
    gocache = d.parent.parent / (d.parent.name + "_gocache")
    gocache.mkdir(exist_ok=True)
    for name in ("pass_x", "fail_x", "edit_x"):
        test = f"{name.split('_')[0]}/acme_x"
        extra = f' "{gocache}"' if name == "pass_x" else ""
        lines.append(f'add_test([=[{test}]=] "/bin/sh" "{d}/bin/{name}"{extra})')
        lines.append(f'set_tests_properties([=[{test}]=] PROPERTIES LABELS "port;column:unit" '
                     f'WORKING_DIRECTORY "{d}")')
    (d / "CTestTestfile.cmake").write_text("\n".join(lines) + "\n")
    (d / "runqcheck_columns.json").write_text(json.dumps({"preset": "native", "tests": {
        "pass/acme_x": "unit", "fail/acme_x": "unit", "edit/acme_x": "unit"}}))


def gate_run(d: Path, env=None):
    """plan, ctest (-E the cached ones), merge: what rq_port_tests does."""
    e = dict(os.environ, **(env or {}))
    sel = ["-L", "port"]
    skip = subprocess.run([sys.executable, CACHE, "plan", str(d), "--", *sel], env=e,
                          capture_output=True, text=True, check=True).stdout.strip()
    (d / "junit.xml").unlink(missing_ok=True)
    if skip != "ALL":
        subprocess.run(["ctest", "--test-dir", str(d), "--output-junit", str(d / "junit.xml"),
                        *sel, *(["-E", skip] if skip else [])], env=e,
                       stdout=open(d / "junit.log", "w"), stderr=subprocess.STDOUT)
    subprocess.run([sys.executable, CACHE, "merge", str(d)], env=e, check=True)
    return skip


def cached_names(d: Path):
    root = ET.parse(d / "junit.xml").getroot()
    return sorted(tc.get("name") for tc in root.iter("testcase") if tc.get("cached") == "true")


d = WORK / "native"
shutil.rmtree(WORK, ignore_errors=True)
shutil.rmtree(WORK.parent / (WORK.name + "_gocache"), ignore_errors=True)
write_tree(d)
check(gate_run(d) == "", "first run: nothing may be cached")
check(cached_names(d) == [], "first run: no cached testcase in junit.xml")
skip = gate_run(d)
check("pass/acme_x" in skip and "edit/acme_x" in skip and "fail" not in skip,
      f"second run: the two passing checks cached, the failing one run (got {skip!r})")
check(any((WORK.parent / (WORK.name + "_gocache")).iterdir()), "pass_x wrote to its folder")
check(cached_names(d) == ["edit/acme_x", "pass/acme_x"],
      f"second run: junit.xml's cached testcases (got {cached_names(d)})")
root = ET.parse(d / "junit.xml").getroot()
check(root.get("tests") == "3", f"second run: junit.xml counts 3 tests (got {root.get('tests')})")
check(any(tc.get("name") == "fail/acme_x" and tc.get("cached") is None
          and tc.find("failure") is not None for tc in root.iter("testcase")),
      "second run: the failing check ran again and failed")
log = (d / "junit.log").read_text()
check("failed out of 3 (2 cached)" in log, "junit.log: a summary counting the cached checks")
out = subprocess.run([sys.executable, VERDICT, "--subjects", "acme_x", f"native={d}"],
                     capture_output=True, text=True).stdout
check("cached: 2 of 3 tests not run again" in out, f"the verdict's cached line:\n{out}")
vx = WORK / "verdict.xml"
subprocess.run([sys.executable, VERDICT, "--subjects", "acme_x", "--junit", str(vx), f"native={d}"],
               capture_output=True, text=True)
marked = re.findall(r"^cached: (\d+) of \d+ tests not run again",
                    "".join(x.text or "" for x in ET.parse(vx).getroot().iter("system-out")), re.M)
check(sum(map(int, marked)) == 2,
      f"the verdict's --junit file says which cells hold the 2 cached tests (got {marked})")
check("verdict: 0 passed, 1 FAILED" in out, f"the verdict fails the unit cell:\n{out}")

os.utime(d / "bin" / "edit_x", (1, 1))  # a new mtime, same content: as a relink
check("edit/acme_x" in gate_run(d), "a touched but identical script keeps its result")
(d / "bin" / "edit_x").write_text("#!/bin/sh\necho second\n")
skip = gate_run(d)
check("edit" not in skip and "pass/acme_x" in skip, f"an edited script runs again ({skip!r})")
check("pass/acme_x" in gate_run(d, {"RUNQCHECK_NO_CACHE": "1"}),
      "ci/gate's own switch is no input of a check")
check("pass" not in gate_run(d, {"RUNQCHECK_SCALE": "3"}),
      "a RUNQCHECK_* variable that changed runs every check again")

# A ctest that wrote no junit.xml: its checks are not filled in from the cache.
(d / "bin" / "fail_x").write_text("#!/bin/sh\necho ok\n")
gate_run(d)
skip = subprocess.run([sys.executable, CACHE, "plan", str(d), "--", "-L", "port"],
                      capture_output=True, text=True, check=True).stdout.strip()
check(skip == "ALL", f"every check passed: all cached ({skip!r})")
skip = subprocess.run([sys.executable, CACHE, "plan", "--no-reuse", str(d), "--", "-L", "port"],
                      capture_output=True, text=True, check=True).stdout.strip()
check(skip == "", f"--no-reuse (ci/gate --no-cache): every check runs ({skip!r})")
(d / "bin" / "pass_x").write_text("#!/bin/sh\necho changed\n")
subprocess.run([sys.executable, CACHE, "plan", str(d), "--", "-L", "port"],
               capture_output=True, check=True)
(d / "junit.xml").unlink()
subprocess.run([sys.executable, CACHE, "merge", str(d)], check=True)
check(not (d / "junit.xml").exists(), "no junit.xml made up when ctest wrote none")

bad = subprocess.run([sys.executable, CACHE, "plan"], capture_output=True, text=True)
check(bad.returncode == 2 and "usage" in bad.stderr, "bad usage: a one-line message, exit 2")

if problems:
    print("cache_test.py: FAILED\n  " + "\n  ".join(problems))
    sys.exit(1)
print("cache_test.py: the cache reuses passing results of unchanged checks only")
