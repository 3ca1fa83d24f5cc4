#!/usr/bin/python3
"""Presets run in separate gates of one build root merge into one verdict (ci/verdict.py
--carry, ci/test_cache.py's record), while their sources are unchanged; a failure's
pictures are those of the last run.

usage: carry_test.py TEST_CACHE_PY VERDICT_PY WORKDIR
Builds two presets' dirs of a small CTest tree with ninja (a "binary" is a script whose
depfile names the port's header, src/port.hpp), runs each as ci/lib.sh's rq_port_tests
does (plan, ctest, merge), then the verdict of the second with the first carried, as
ci/gate passes it. Checks that:
- native, run alone before relacy, shows its cells in relacy's verdict, marked carried
  over (a dagger, a footnote, a line of its JUnit testcase), its failure with its picture,
  and --strict counts its empty columns (it did not before: "its preset was not run");
- after an edit of the header that the binaries were not rebuilt from, native is not
  carried over: its columns say it was run on other sources, naming the header; a touch
  alone keeps it. Nor is it carried over when configured for another subject, when a
  check's key changed (the environment), or when the header was edited after the build
  but before the tests (the record says the binaries were older than their sources);
- a picture of a failure that the next run of its preset fixed is gone from failures/,
  and neither that verdict nor its --artifacts name it.
Exit 0 if so, 1 naming what went wrong.
"""
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

CACHE, VERDICT, WORK = sys.argv[1], sys.argv[2], Path(sys.argv[3])
SPEC = "-DRUNQCHECK_EXTRA_SUBJECTS=q|q/port.hpp|q::port|/src"
problems = []


def check(ok, what, out=""):
    if not ok:
        problems.append(what + (f"\n{out}" if out else ""))


# Each preset's tests: name -> (column id, script). The explore check fails while
# src/explore.sh says so, drawing its picture into failures/ as the engine does.
PASS = "#!/bin/sh\necho ok\n"
FAIL = ('#!/bin/sh\nmkdir -p "$1/failures"\necho "<html>" >"$1/failures/explore__q__s__rc11.html"\n'
        'echo "explore q s rc11: FAILED: invariant: conservation (each G delivered once)"\n'
        'echo "picture: $1/failures/explore__q__s__rc11.html"\nexit 1\n')
TESTS = {"native": {"unit/q": ("unit", "unit"), "explore/q": ("explore", "explore")},
         "relacy": {"relacy_scenarios/q": ("relacy_random", "relacy")}}


def write_tree(d: Path, tests):
    """A build dir: build.ninja (each bin/X a copy of src/X.sh, its deps that and the
    header), CTestTestfile.cmake, runqcheck_columns.json, CMakeCache.txt."""
    (d / "bin").mkdir(parents=True, exist_ok=True)
    src = WORK / "src"
    rules = ["rule cp", "  command = cp $in $out && printf '%s: %s %s\\n' $out $in "
             f"{src}/port.hpp >$out.d", "  depfile = $out.d", "  deps = gcc"]
    ctest = []
    for name, (col, script) in tests.items():
        rules.append(f"build bin/{script}: cp {src}/{script}.sh")
        ctest.append(f'add_test([=[{name}]=] "/bin/sh" "{d}/bin/{script}" "{d}")')
        ctest.append(f'set_tests_properties([=[{name}]=] PROPERTIES LABELS "port;column:{col}" '
                     f'WORKING_DIRECTORY "{d}")')
    (d / "build.ninja").write_text("\n".join(rules) + "\n")
    (d / "CTestTestfile.cmake").write_text("\n".join(ctest) + "\n")
    (d / "runqcheck_columns.json").write_text(json.dumps({
        "protocol_subjects": [], "tests": {n: c for n, (c, _) in tests.items()}}))
    (d / "CMakeCache.txt").write_text("RUNQCHECK_EXTRA_SUBJECTS:STRING="
                                      + SPEC.split("=", 1)[1] + "\n")


def build(d: Path):
    subprocess.run(["ninja", "-C", str(d)], capture_output=True, check=True)


def gate_run(d: Path):
    """plan, ctest (-E the cached ones), merge: what rq_port_tests does."""
    sel = ["-L", "port"]
    skip = subprocess.run([sys.executable, CACHE, "plan", str(d), "--", *sel],
                          capture_output=True, text=True, check=True).stdout.strip()
    (d / "junit.xml").unlink(missing_ok=True)
    if skip != "ALL":
        subprocess.run(["ctest", "--test-dir", str(d), "--output-junit", str(d / "junit.xml"),
                        *sel, *(["-E", skip] if skip else [])],
                       stdout=open(d / "junit.log", "w"), stderr=subprocess.STDOUT)
    subprocess.run([sys.executable, CACHE, "merge", str(d)], check=True)


def verdict(*extra, carry=True, configured=SPEC, env=None):
    """The verdict of relacy's run, native carried over as ci/gate passes it."""
    args = [sys.executable, VERDICT, "--subjects", "q", *extra]
    if carry:
        args += ["--carry", f"native={WORK / 'root' / 'native'}", "--configured", configured]
    v = subprocess.run(args + [f"relacy={WORK / 'root' / 'relacy'}"], capture_output=True,
                       text=True, env=dict(os.environ, **(env or {})))
    return v.returncode, v.stdout + v.stderr


def cells(out: str) -> dict:
    """{column: cell} of the matrix's first row (the dagger kept: carried over)."""
    lines = out.splitlines()
    i = next((i for i, ln in enumerate(lines) if ln.startswith("subject ")), None)
    if i is None:
        return {}
    got = {}
    while i is not None:  # each band of columns (ci/verdict.py prints them apart)
        head = [c for c in lines[i].split("  ") if c.strip()]
        row = [c for c in lines[i + 2].split("  ") if c.strip()]
        got.update({h.strip(): v.strip() for h, v in zip(head[1:], row[1:])})
        i = next((j for j in range(i + 3, len(lines)) if lines[j].startswith("subject ")
                  and j + 1 < len(lines) and lines[j + 1].startswith("---")), None)
    return got


shutil.rmtree(WORK, ignore_errors=True)
(WORK / "src").mkdir(parents=True)
for name, body in (("unit", PASS), ("explore", FAIL), ("relacy", PASS)):
    (WORK / "src" / f"{name}.sh").write_text(body)
(WORK / "src" / "port.hpp").write_text("struct port {};\n")
native, relacy = WORK / "root" / "native", WORK / "root" / "relacy"
for d, preset in ((native, "native"), (relacy, "relacy")):
    write_tree(d, TESTS[preset])
    build(d)

# 1. ci/gate --presets native, then ci/gate --presets relacy: one matrix.
gate_run(native)
gate_run(relacy)
rc, out = verdict()
got = cells(out)
check(got.get("unit") == "passed\u2020" and got.get("exhaustive") == "FAILED\u2020"
      and got.get("relacy random") == "passed",
      f"native's cells carried over, marked, beside relacy's (got {got})", out)
check("\u2020 carried over from an earlier gate of this build dir, sources unchanged (native: "
      "its tests ran" in out, "the footnote of the carried cells", out)
check("explore/q [native, carried over]" in out
      and f"picture: {native}/failures/explore__q__s__rc11.html" in out,
      "the carried failure, with its picture", out)
check(rc == 1, f"the carried failure fails the gate (exit {rc})", out)
for col in ("property", "lincheck", "stall", "weak memory", "generated"):
    check(f"  q, {col}: no test of this column for the subject" in out,
          f"native's {col} column, without a test, says so (not 'its preset was not run')", out)
# --strict judges the merged table: native's columns without a test fail it now.
rc, strict = verdict("--strict")
check(rc == 1 and f"gate: 2 passed, {strict.count(': no test of this column') + 1} failed"
      in strict and "q, property: no test of this column" in strict,
      "--strict fails native's columns without a test (they ran, carried over)", strict)
rc, alone = verdict(carry=False)
check(cells(alone).get("unit") == "not run" and "its preset was not run" in alone,
      "without --carry, native's columns are not run (as before)", alone)
xml = WORK / "verdict.xml"
verdict("--junit", str(xml))
text = xml.read_text() if xml.is_file() else "(no file)"
check("carried over: 1 of 1 tests from an earlier gate" in text,
      "the JUnit file says which cells were carried over", text)

# 2. The header edited, the binaries not rebuilt: native is not carried over.
hdr = WORK / "src" / "port.hpp"
old = hdr.read_text()
os.utime(hdr, (time.time() + 5, time.time() + 5))
rc, out = verdict()
check(cells(out).get("unit") == "passed\u2020", "a touch of the header keeps the results", out)
hdr.write_text("struct port { int x; };\n")
rc, out = verdict()
want = f"its preset (native) was run on other sources ({hdr} changed); run it again"
check(cells(out).get("unit") == "not run" and f"  q, unit: {want}" in out
      and "\u2020" not in out and "explore/q" not in out,
      "an edited header: native's columns say so, no carried cell or failure", out)
hdr.write_text(old)
rc, out = verdict(configured="-DRUNQCHECK_EXTRA_SUBJECTS=other|o.hpp|o::port|/src")
check("its preset (native) was configured for other subjects or options "
      "(RUNQCHECK_EXTRA_SUBJECTS); run it again" in out and "\u2020" not in out,
      "native's build dir configured for another subject is not carried over", out)
rc, out = verdict(env={"RUNQCHECK_SCALE": "3"})
check("its preset (native) was run on other inputs (explore/q: " in out,
      "a RUNQCHECK_* variable that steers the checks changed: not carried over", out)
rc, out = verdict()
check(cells(out).get("unit") == "passed\u2020", "the header as it was: carried over again", out)
# Edited between the build and the tests: the record cannot vouch for the binaries.
hdr.write_text("struct port { long y; };\n")
gate_run(native)
hdr.write_text(old)
rc, out = verdict()
check("its preset (native) was run on binaries older than their sources" in out,
      "a header edited after the build: native's results are not carried over", out)
build(native)

# 3. The failure fixed: its picture is gone, and nothing names it.
pic = native / "failures" / "explore__q__s__rc11.html"
gate_run(native)
check(pic.is_file(), "the failing run drew its picture")
(WORK / "src" / "explore.sh").write_text(PASS)
build(native)
gate_run(native)
check(not pic.exists(), f"the fixed failure's picture is gone from {pic.parent}")
art = WORK / "art"
rc, out = verdict("--artifacts", str(art))
check(rc == 0 and cells(out).get("exhaustive") == "passed\u2020" and "picture:" not in out,
      "the fixed failure: passed, carried over, no picture", out)
check(not list(art.rglob("*.html")), "no picture in the artifact folder",
      " ".join(map(str, art.rglob("*"))))

if problems:
    print("carry_test.py: FAILED\n  " + "\n  ".join(problems))
    sys.exit(1)
print("carry_test.py: presets run apart merge while their sources are unchanged; a fixed "
      "failure leaves no picture")
