#!/usr/bin/python3
"""A long reason keeps the sites of the port it names (ci/verdict.py's shorten).

usage: reason_cut_test.py VERDICT_PY WORKDIR
Writes a port (q/rq.h, q/bugs.h) and a native build dir by hand whose explore/q test
failed with a reason of some 700 characters that names the port's culprit lines past the
500th (`rq.h:223 (rq_pop)`, `bugs.h:51 (rq_grab_plain_cons)`), as the exhaustive column's
"delivered twice" reasons do. Runs ci/verdict.py --junit --sarif --artifacts: the printed
reason and REPRODUCE.txt's must name both sites, unbroken, and be cut at a word with an
ellipsis; the test's output file in the artifacts keeps the whole text; the JUnit and SARIF
files stay valid (tests/verdict/schema_check.py). Exit 0 if so, 1 naming what is missing.
"""
import importlib.util
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from xml.sax.saxutils import escape

sys.path.insert(0, str(Path(__file__).resolve().parent))
import schema_check  # noqa: E402

SITES = ["rq.h:223 (rq_pop)", "bugs.h:51 (rq_grab_plain_cons)"]
# The reason's line: the race's accesses at harness lines first, the port's lines last.
WHY = ("explore q steal_vs_pop SC: G4 delivered twice, to thread 1 and to thread 0: the "
       "queue handed it out twice (data race on G4.status: "
       + "; ".join(f"a read by thread {t % 2} of G4.status at exec.hpp:{160 + t} (deliver), "
                   f"unordered by happens-before with the write #{10 + t}" for t in range(5))
       + "); thread 0 took it by the load of P0+28 atomic at " + SITES[0]
       + "; thread 1 took it by the plain load of P0+12 at " + SITES[1] + ", relaxed")


def straddled(verdict) -> list:
    """shorten() at every limit that cuts inside a site (between `rq.h:223` and `(rq_pop)`
    among them): the site kept whole after the ellipsis."""
    sys.path.insert(0, str(Path(verdict).parent))  # its verdict_files
    spec = importlib.util.spec_from_file_location("verdict", verdict)
    v = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(v)
    if not hasattr(v, "shorten"):
        return ["ci/verdict.py has no shorten()"]
    at = WHY.index(SITES[0])
    bad = []
    for limit in range(at - 2, at + len(SITES[0]) + 2):
        got = v.shorten(WHY, limit)
        bad += [f"shorten(limit {limit}) lacks {s!r}: ...{got[limit - 80:]}" for s in SITES
                if s not in got]
    return bad


def main(argv):
    if len(argv) != 2:
        print("reason_cut_test.py: usage: reason_cut_test.py VERDICT_PY WORKDIR",
              file=sys.stderr)
        return 2
    verdict, work = argv[0], Path(argv[1]).resolve()
    native, inc, art = work / "native", work / "include", work / "art"
    (inc / "q").mkdir(parents=True, exist_ok=True)
    native.mkdir(parents=True, exist_ok=True)
    for name in ("rq.h", "bugs.h"):
        (inc / "q" / name).write_text("".join(f"// line {i}\n" for i in range(1, 241)))
    (native / "stage-failed").unlink(missing_ok=True)
    out = ("explore q steal_vs_pop                  SC   7 complete, 0 blocked, FAILED\n"
           f"{WHY}\nreplay: bin/explore__q replay steal_vs_pop sc 1:2\n")
    (native / "junit.xml").write_text(
        '<testsuite tests="1"><testcase name="explore/q" classname="x" time="1" '
        f'status="fail"><failure message=""/><system-out>{escape(out)}</system-out>'
        '</testcase></testsuite>\n')
    (native / "runqcheck_columns.json").write_text(json.dumps({
        "protocol_subjects": [], "tests": {"explore/q": "explore"},
        "ports": {"q": {"header": "q/rq.h", "include_dirs": [str(inc)]}}}))
    junit, sarif = work / "verdict.xml", work / "verdict.sarif"
    for f in (junit, sarif):
        f.unlink(missing_ok=True)
    v = subprocess.run(["/usr/bin/python3", verdict, "--subjects", "q", "--junit", str(junit),
                        "--sarif", str(sarif), "--srcroot", str(work), "--artifacts", str(art),
                        f"native={native}"], capture_output=True, text=True)
    print(v.stdout + v.stderr)
    bad = [] if len(WHY) > 600 and WHY.index(SITES[0]) > 500 else [
        "the fixture's reason is not long enough to test a cut"]
    bad += straddled(verdict)
    repro = art / "REPRODUCE.txt"
    guide = repro.read_text() if repro.is_file() else ""
    for where, text in (("printed", v.stdout), ("REPRODUCE.txt", guide)):
        got = next((ln.strip() for ln in text.splitlines()
                    if ln.strip().startswith("reason: ")), "")
        if not got:
            bad.append(f"{where}: no reason line")
            continue
        bad += [f"{where}: the reason lacks the site {s!r}: {got}" for s in SITES
                if s not in got]
        if got.endswith(":") or " ... " not in got:
            bad.append(f"{where}: the reason is cut mid-token or without an ellipsis: {got}")
        if len(got) > len("reason: ") + len(WHY) - 20:
            bad.append(f"{where}: the reason is not shortened ({len(got)} characters)")
    kept = list(art.glob("*/output/*.txt"))
    if not any(WHY in f.read_text() for f in kept):
        bad.append(f"the artifacts' output files {kept} lack the whole reason")
    if not junit.is_file():
        bad.append("no JUnit file written")
    else:
        bad += [f"junit: {x}" for x in schema_check.junit(ET.parse(junit).getroot())]
    if not sarif.is_file():
        bad.append("no SARIF file written")
    else:
        log = json.loads(sarif.read_text())
        bad += [f"sarif: {x}" for x in schema_check.sarif(log)]
        bad += [f"sarif: {x}" for x in schema_check.sarif_schema(log)]
        bad += [f"sarif (GitHub): {x}" for x in schema_check.github(log)]
        msgs = [r["message"]["text"] for r in log["runs"][0]["results"]]
        if not msgs or not all(s in m for m in msgs for s in SITES):
            bad.append(f"sarif: a result's message lacks a site: {msgs}")
    for b in bad:
        print(f"reason_cut_test: FAILED: {b}")
    print("reason_cut_test: " + ("passed" if not bad else "FAILED"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
