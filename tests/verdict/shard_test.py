#!/usr/bin/python3
"""The action's shard and merge inputs through its script (ci/action.sh), as a CI job
matrix runs them: the exhaustive column of two ports, examples/weak_port (fails) and
examples/locked_runq (passes), on a few scenarios (RUNQCHECK_CASE), unsharded, then as
shards 0/2 and 1/2 (each its own build dir, its artifact folder where
actions/download-artifact puts it for the merge job), then merged (merge: true).

Passes iff: every gate exits 1 (weak_port fails); the merged verdict matrix is the
unsharded one; both SARIF files hold the same results (subject x column), pass
files_test.py's checks (schema, GitHub's rules, weak_port's line 45, the picture) and
name files of their artifact folder only, with no path of this machine; each shard ran
its part (`(shard I/2)` lines, shard 1's not empty) and the shards' counts of every
scenario the unsharded run exhausted sum to its counts; with shard 1's artifact gone,
the merge exits 2 with one error line.

usage: shard_test.py SRC WORK
"""
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import files_test  # noqa: E402

CASES = "owner_vs_thief,chained_steal"
SPECS = ("weak|weak_port/weak_port.hpp|weak::weak_port|examples/weak_port/include\n"
         "examples/locked_runq/subject.cmake")
EXPECT = {"preset": "native", "port_file": "examples/weak_port/include/weak_port/weak_port.hpp",
          "line": 45, "repro": "replay:", "failures": [["weak", "explore"]],
          "passed": [["locked_runq", "explore"]]}
# explore's line for one scenario and model (tests/explore/cli.hpp's report).
STATS = re.compile(r"^explore (\S+) (\S+) +(SC|RC11) +([\d,]+) complete, ([\d,]+) blocked, "
                   r".*?, (exhausted|FAILED|NOT exhausted)(?: \(shard (\d+)/2[^)]*\))?$", re.M)


def action(src: Path, work: Path, name: str, **env) -> subprocess.CompletedProcess:
    """ci/action.sh as the action runs it, its gate from a stand-in prefix; output kept."""
    e = dict(os.environ, RUNNER_TEMP=str(work), RQ_PREFIX=str(work / "prefix"),
             RQ_PRESETS="native", RQ_COLUMNS="explore", RQ_SUBJECTS=SPECS,
             RQ_JUNIT=str(work / f"{name}.xml"), RQ_SARIF=str(work / f"{name}.sarif"),
             RUNQCHECK_CASE=CASES, RUNQCHECK_NO_CACHE="1",
             # ccache's paths relative to WORK: the three builds compile once
             CCACHE_BASEDIR=str(work), **env)
    e.pop("GITHUB_OUTPUT", None)
    p = subprocess.run([str(src / "ci" / "action.sh")], cwd=src, env=e, capture_output=True,
                       text=True)
    (work / f"{name}.log").write_text(p.stdout + p.stderr)
    return p


def matrix(out: str) -> list:
    """The verdict matrix's rows (its title line left out)."""
    lines = out.splitlines()
    i = next((i for i, x in enumerate(lines) if x.startswith("runqcheck gate")), None)
    if i is None:
        return []
    rows = []
    for x in lines[i + 1:]:
        if not x.strip():
            break
        rows.append(x)
    return rows


def counts(junit: Path) -> dict:
    """{(subject, scenario, model): (complete, blocked, verdict, shard)} of a build dir's
    tests (ctest's junit.xml: every test's output)."""
    out = "".join(x.text or "" for x in ET.parse(junit).getroot().iter("system-out"))
    return {(m[1], m[2], m[3]): (int(m[4].replace(",", "")), int(m[5].replace(",", "")),
                                 m[6], m[7]) for m in STATS.finditer(out)}


def results(sarif: Path) -> set:
    """The failing cells (subject x column) of a SARIF file (a shard's result each)."""
    return {(r["properties"]["subject"], r["ruleId"])
            for r in json.loads(sarif.read_text())["runs"][0]["results"]}


def main(argv) -> int:
    if len(argv) != 2:
        print("usage: shard_test.py SRC WORK", file=sys.stderr)
        return 2
    src, work = Path(argv[0]).resolve(), Path(argv[1]).resolve()
    shutil.rmtree(work, ignore_errors=True)
    (work / "prefix" / "bin").mkdir(parents=True)
    # The prefix's command, as installed: `runqcheck gate` is the tree's ci/gate.
    cmd = work / "prefix" / "bin" / "runqcheck"
    cmd.write_text(f'#!/bin/sh\n[ "$1" = gate ] || exit 2\nshift\nexec "{src}/ci/gate" "$@"\n')
    cmd.chmod(0o755)
    bad = []
    dl = work / "runqcheck-shards"  # where the merge job's download step puts the artifacts
    runs = {"full": action(src, work, "full", RQ_BUILD_DIR=str(work / "b-full"),
                           RQ_ARTIFACTS=str(work / "artifacts-full"))}
    for i in (0, 1):
        runs[f"shard{i}"] = action(src, work, f"shard{i}", RQ_SHARD=f"{i}/2",
                                   RQ_BUILD_DIR=str(work / f"b{i}"),
                                   RQ_ARTIFACTS=str(dl / f"runqcheck-shard-{i}-of-2"))
    runs["merged"] = action(src, work, "merged", RQ_MERGE="true")
    for name, p in runs.items():
        if p.returncode != 1 or "Traceback" in p.stderr:
            bad.append(f"{name}: exit {p.returncode}, not 1 (log: {work / name}.log)")
    if bad:
        return files_test.report("shard_test", bad)
    full, merged = matrix(runs["full"].stdout), matrix(runs["merged"].stdout)
    if not full or full != merged:
        bad.append(f"merged matrix {merged} is not the unsharded {full}")
    if results(work / "full.sarif") != results(work / "merged.sarif"):
        bad.append(f"SARIF results: merged {results(work / 'merged.sarif')}, unsharded "
                   f"{results(work / 'full.sarif')}")
    for name, art in (("full", work / "artifacts-full"), ("merged", dl)):
        bad += [f"{name}: {x}" for x in files_test.check(
            work / f"{name}.xml", work / f"{name}.sarif", src, EXPECT, art)]
        bad += [f"{name}: artifacts: names {work}" for _ in [0]
                if str(work) in (work / f"{name}.sarif").read_text()]
    whole = counts(work / "b-full" / "native" / "junit.xml")
    parts = [counts(work / f"b{i}" / "native" / "junit.xml") for i in (0, 1)]
    for i, part in enumerate(parts):
        if not part or any(v[3] != str(i) for v in part.values()):
            bad.append(f"shard {i}/2: its searches did not run as shard {i}/2 (log: "
                       f"{work / f'b{i}' / 'native' / 'junit.xml'})")
    if not any(v[0] + v[1] for v in parts[1].values()):
        bad.append("shard 1/2 explored nothing: no tree was split")
    done = [k for k, v in whole.items() if v[2] == "exhausted"]
    if not done:
        bad.append("the unsharded run exhausted no scenario")
    for k in done:
        got = tuple(sum(p.get(k, (0, 0))[j] for p in parts) for j in (0, 1))
        if got != whole[k][:2]:
            bad.append(f"{' '.join(k)}: the shards' counts sum to {got}, unsharded {whole[k][:2]}")
    # A shard whose job uploaded nothing: no verdict, an error.
    shutil.move(dl / "runqcheck-shard-1-of-2", work / "shard1-gone")
    p = action(src, work, "merged-missing", RQ_MERGE="true")
    errs = [x for x in p.stderr.splitlines() if x.startswith("error:")]
    if p.returncode != 2 or len(errs) != 1 or "shard 1/2 missing" not in errs[0]:
        bad.append(f"merge without shard 1: exit {p.returncode}, {errs} (want 2, one error)")
    print(f"shard_test: matrix {full}; {len(done)} exhausted searches summed over 2 shards")
    return files_test.report("shard_test", bad)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
