#!/usr/bin/python3
"""Two subjects whose headers share a name: each SARIF result points into its own header.

usage: sarif_same_name_test.py VERDICT_PY WORKDIR
Writes two ports outside the repository (a/ring.hpp and b/ring.hpp, different texts) and a
native build dir by hand whose weak_memory test of each failed at a line of its own
ring.hpp, then runs ci/verdict.py --sarif with --artifacts (a file outside the repository
is copied into the artifact folder) and plain. Each result must be at its subject's line,
in a file whose text is its subject's header. Exit 0 if so, 1 if not.
"""
import json
import subprocess
import sys
from pathlib import Path

LINES = {"a": 12, "b": 34}


def sarif(verdict, work, extra):
    out = work / "verdict.sarif"
    out.unlink(missing_ok=True)
    v = subprocess.run(["/usr/bin/python3", verdict, "--subjects", "a,b", "--sarif", str(out),
                        "--srcroot", str(work / "repo"), *extra, f"native={work / 'native'}"],
                       capture_output=True, text=True)
    if not out.is_file():
        print(v.stdout + v.stderr)
        return None
    return json.loads(out.read_text())


def main(argv):
    if len(argv) != 2:
        print("sarif_same_name_test.py: usage: sarif_same_name_test.py VERDICT_PY WORKDIR",
              file=sys.stderr)
        return 2
    verdict, work = argv[0], Path(argv[1]).resolve()
    native = work / "native"
    (work / "repo").mkdir(parents=True, exist_ok=True)
    native.mkdir(parents=True, exist_ok=True)
    (native / "stage-failed").unlink(missing_ok=True)
    ports, cases, tests = {}, [], {}
    for s in LINES:
        inc = work / "ports" / s
        inc.mkdir(parents=True, exist_ok=True)
        (inc / "ring.hpp").write_text("".join(f"// {s}'s ring, line {i}\n"
                                              for i in range(1, 61)))
        ports[s] = {"header": "ring.hpp", "include_dirs": [str(inc)]}
        tests[f"weak_memory/{s}"] = "weak_memory"
        out = (f"FAILED: weak-memory orders: tail_store is relaxed, RC11 needs release "
               f"(subject {s})\nat {inc / 'ring.hpp'}:{LINES[s]}\n")
        cases.append(f'<testcase name="weak_memory/{s}" classname="x" time="1" '
                     f'status="fail"><failure message=""/><system-out>{out}</system-out>'
                     '</testcase>')
    (native / "junit.xml").write_text(f'<testsuite tests="2">{"".join(cases)}</testsuite>\n')
    (native / "runqcheck_columns.json").write_text(json.dumps({
        "protocol_subjects": [], "tests": tests, "ports": ports}))
    bad = []
    for how, extra in (("--artifacts", ["--artifacts", str(work / "art")]), ("plain", [])):
        log = sarif(verdict, work, extra)
        if log is None:
            bad.append(f"{how}: no SARIF file")
            continue
        run = log["runs"][0]
        bases = {k: v.get("uri") for k, v in run.get("originalUriBaseIds", {}).items()}
        bases["RUNQCHECK_ARTIFACT"] = (work / "art").as_uri() + "/"
        res = [r for r in run["results"] if r["ruleId"] == "weak_memory"]
        if sorted(r["properties"]["subject"] for r in res) != ["a", "b"]:
            bad.append(f"{how}: results of {[r['properties']['subject'] for r in res]}")
            continue
        for r in res:
            s = r["properties"]["subject"]
            loc = r["locations"][0]["physicalLocation"]
            art, line = loc["artifactLocation"], loc["region"]["startLine"]
            uri = (bases.get(art.get("uriBaseId"), "") or "") + art["uri"]
            path = Path(uri.removeprefix("file://"))
            text = path.read_text() if path.is_file() else ""
            if line != LINES[s]:
                bad.append(f"{how}: {s}'s result at line {line}, not {LINES[s]}")
            if not text.startswith(f"// {s}'s ring"):
                bad.append(f"{how}: {s}'s result in {uri}, which is not {s}'s ring.hpp")
    for b in bad:
        print(f"sarif_same_name_test: FAILED: {b}")
    print("sarif_same_name_test: " + ("passed" if not bad else "FAILED"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
