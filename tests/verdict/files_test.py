#!/usr/bin/python3
"""ci/verdict.py's --junit and --sarif files on a failing port.

usage: files_test.py fixture VERDICT_PY WORKDIR FIXTURE_DIR SRC_ROOT
       files_test.py check JUNIT SARIF SRC_ROOT EXPECT_JSON [ARTIFACTS_DIR]
fixture: FIXTURE_DIR holds a gate's build dir as captured from a real run
(junit.xml, runqcheck_columns.json, trimmed; @BUILD@ the build dir, @SRC@
the source root, @SRCREL@ the source root relative to the build dir, as
ccache's CCACHE_BASEDIR makes the compiler's paths) and expect.json; the
build dir is made in WORKDIR and the verdict run on it, then checked.
check: the files of a real gate run (ci/test) against EXPECT_JSON; with ARTIFACTS_DIR,
its --artifacts folder too (artifacts(), below).
EXPECT_JSON: {"preset": P, "port_file": path under SRC_ROOT, "line": the
line every location must name (optional), "failures": [[subject, column id],
...], "passed": [[subject, column id], ...], "repro": the reproducer's
prefix, or a list of prefixes one of which each failure has (default
"replay:"), "picture": false when none is drawn, "specs": {subject: spec}
(fixture: verdict.py's --spec, @SRC@ the source root)}. A fixture may hold
build.log and stage-failed (a build that failed).
Both files must hold the required fields (schema_check.py), the SARIF file
pass the SARIF 2.1.0 schema and GitHub's rules (schema_check.github); each expected
failure a JUnit <failure> with its reason, reproducer and picture, and a
SARIF result whose location is a line of port_file, with the replay command
and the picture as related data. The fixture is run twice: as is, and with --artifacts
(the folder the action uploads), where artifacts() also holds; with specs, that folder
merged (--merge) keeps them in REPRODUCE.txt's rebuild: lines.
Exit 0 if so, 1 naming what is wrong.
"""
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urlparse, unquote

sys.path.insert(0, str(Path(__file__).resolve().parent))
import schema_check  # noqa: E402


# The columns whose tests run nightly only (ci/checkers.json): a gate has no cell of them.
NIGHTLY = {c["id"] for c in json.loads((Path(__file__).resolve().parents[2] / "ci" /
                                        "checkers.json").read_text())["columns"]
           if c.get("nightly")}


# An absolute path in SARIF text: a word that starts with `/` and has a second part.
ABS_PATH = re.compile(r"(?<![\w.$}/-])/[\w.+-]+/[\w./+-]*")


def artifacts(sarif: Path, art: Path, roots) -> list:
    """The SARIF of a gate run with --artifacts ART: every file it names in the artifact
    folder (uriBaseId RUNQCHECK_ARTIFACT, the results' properties.artifact) is there, each
    failure's picture among them; no path of this machine anywhere in it (no file: URI, none
    of roots: the build, source and work dirs; no absolute path but the system's tools in
    /usr/ and /bin/; the driver's informationUri, runqcheck's page, aside), nor any of
    roots in the pictures copied there; REPRODUCE.txt at its root holds each result's
    replay lines and a rebuild: line."""
    bad = []
    log = json.loads(sarif.read_text())
    for run in log["runs"]:
        run["tool"]["driver"].pop("informationUri", None)
        for k, b in run.get("originalUriBaseIds", {}).items():
            if "uri" in b:
                bad.append(f"originalUriBaseIds[{k}] names {b['uri']}")
        for r in run["results"]:
            what = f"{r['properties']['subject']} x {r['ruleId']} ({r['properties']['test']})"
            named = [x["physicalLocation"]["artifactLocation"] for x in
                     r.get("locations", []) + r.get("relatedLocations", [])]
            named = [a["uri"] for a in named if a.get("uriBaseId") == "RUNQCHECK_ARTIFACT"]
            a = r["properties"].get("artifact")
            if a is None:
                bad.append(f"{what}: no properties.artifact")
                continue
            for kind in ("pictures", "files", "logs"):
                named += a[kind]
            named += [a["output"]] if a["output"] else []
            if r["properties"]["pictures"] != a["pictures"]:
                bad.append(f"{what}: properties.pictures {r['properties']['pictures']} are not "
                           f"the artifact's {a['pictures']}")
            for u in named:
                if Path(u).is_absolute() or ".." in Path(u).parts or not (art / u).is_file():
                    bad.append(f"{what}: {u} is not a file of the artifact folder {art}")
            for u in a["pictures"]:  # a page's replay command: not this machine's paths
                page = (art / u).read_text(errors="replace") if (art / u).is_file() else ""
                bad += [f"{what}: picture {u} names {x}" for x in map(str, roots)
                        if re.search(re.escape(x) + r"(?![\w.+-])", page)]
            if not a["logs"] and not a["output"]:
                bad.append(f"{what}: neither its output nor a log in the artifact")
    # REPRODUCE.txt: each result's lines, how to build them again, no path of this machine
    guide = (art / "REPRODUCE.txt").read_text() if (art / "REPRODUCE.txt").is_file() else ""
    if not guide or "rebuild: runqcheck gate --subject" not in guide:
        bad.append(f"{art}/REPRODUCE.txt: missing, or no rebuild: line")
    for r in (r for run in log["runs"] for r in run["results"]):
        bad += [f"REPRODUCE.txt lacks {x!r}" for x in r["properties"].get("replay", [])
                if x.partition("reproduce: ")[2] not in guide and x not in guide]
    bad += [f"REPRODUCE.txt names {x}" for x in map(str, roots)
            if re.search(re.escape(x) + r"(?![\w.+-])", guide)]
    text = json.dumps(log)
    for root in {str(Path(x).resolve()) for x in roots} | {str(x) for x in roots}:
        if root in text:
            bad.append(f"names {root}: {text[max(0, text.index(root) - 80):][:200]}")
    if "file:" in text:
        bad.append(f"a file: URI: {text[max(0, text.index('file:') - 80):][:200]}")
    for m in ABS_PATH.finditer(text):
        if not m.group(0).startswith(("/usr/", "/bin/")):
            bad.append(f"an absolute path: {m.group(0)}")
    return bad


def check(junit: Path, sarif: Path, src: Path, expect: dict, art: Path = None) -> list:
    bad = []
    root = ET.parse(junit).getroot()
    bad += [f"junit: {x}" for x in schema_check.junit(root)]
    log = json.loads(sarif.read_text())
    bad += [f"sarif: {x}" for x in schema_check.sarif(log)]
    bad += [f"sarif: {x}" for x in schema_check.sarif_schema(log)]
    bad += [f"sarif (GitHub): {x}" for x in schema_check.github(log)]
    cases = {(tc.get("classname"), tc.get("name")): tc for tc in root.iter("testcase")}
    port = (src / expect["port_file"]).resolve()
    repro, pic = expect.get("repro", "replay:"), expect.get("picture", True)
    repros = repro if isinstance(repro, list) else [repro]
    n_lines = len(port.read_text().splitlines())
    run = log["runs"][0]
    base = {k: Path(unquote(urlparse(v["uri"]).path))
            for k, v in run.get("originalUriBaseIds", {}).items() if "uri" in v}
    base.setdefault("SRCROOT", src)  # a base left out (--artifacts): what it stands for
    if art:
        base.setdefault("RUNQCHECK_ARTIFACT", art)

    def path_of(al):
        if "uriBaseId" in al:
            return (base[al["uriBaseId"]] / unquote(al["uri"])).resolve()
        return Path(unquote(urlparse(al["uri"]).path)).resolve()

    for subj, col in expect["failures"]:
        tc = cases.get((f"runqcheck.{subj}", col))
        fails = [] if tc is None else tc.findall("failure")
        if not fails:
            bad.append(f"junit: no failure for {subj} x {col}")
        for f in fails:
            text = f.text or ""
            if (not f.get("message") or not any(x in text for x in repros)
                    or (pic and "picture:" not in text)):
                bad.append(f"junit: {subj} x {col}: no reason, {repro} or picture: ({text[:200]})")
        res = [r for r in run["results"]
               if r["ruleId"] == col and r["properties"]["subject"] == subj]
        if not res:
            bad.append(f"sarif: no result for {subj} x {col}")
        for r in res:
            what = f"sarif: {subj} x {col} ({r['properties']['test']})"
            locs = r.get("locations", [])
            if not locs:
                bad.append(f"{what}: no location")
                continue
            pl = locs[0]["physicalLocation"]
            at, line = path_of(pl["artifactLocation"]), pl["region"]["startLine"]
            if at != port or not 1 <= line <= n_lines:
                bad.append(f"{what}: location {at}:{line}, not a line of {port}")
            elif expect.get("line") and line != expect["line"]:
                bad.append(f"{what}: line {line}, not {expect['line']}")
            if not any(x in y for x in repros for y in r["properties"]["replay"]):
                bad.append(f"{what}: no {repro} command")
            pics = [path_of(x["physicalLocation"]["artifactLocation"])
                    for x in r.get("relatedLocations", [])]
            if pic and not any(str(p).endswith(".html") and p.is_file() for p in pics):
                bad.append(f"{what}: no picture among its related locations")
    if art:
        bad += [f"artifacts: {x}" for x in artifacts(sarif, art, [src, junit.parent])]
        for subj, col in expect["failures"]:
            tc = cases.get((f"runqcheck.{subj}", col))
            text = "".join(f.text or "" for f in ([] if tc is None else tc.findall("failure")))
            if str(src) in text or "$RUNQCHECK_BUILD/" not in text and "log:" not in text:
                bad.append(f"junit: {subj} x {col}: paths of this machine with --artifacts")
    for subj, col in expect.get("passed", []):
        tc = cases.get((f"runqcheck.{subj}", col))
        if tc is None and col in NIGHTLY:
            continue  # a nightly column: in the captured fixture, not in a gate's run
        if tc is None or tc.find("failure") is not None or tc.find("skipped") is not None:
            bad.append(f"junit: {subj} x {col} is not a passed testcase")
    return bad


def fixture(verdict: str, work: Path, fix: Path, src: Path) -> list:
    build = work / json.loads((fix / "expect.json").read_text())["preset"]
    build.mkdir(parents=True, exist_ok=True)
    for name in ("junit.xml", "runqcheck_columns.json", "build.log", "stage-failed"):
        if not (fix / name).exists():
            continue
        text = (fix / name).read_text()
        text = (text.replace("@BUILD@", str(build))
                .replace("@SRCREL@", os.path.relpath(src, build)).replace("@SRC@", str(src)))
        (build / name).write_text(text)
        # the pictures the captured run drew (left out of the fixture), to be collected
        for pic in re.findall(r"^picture: (\S+)", text, re.M):
            Path(pic).parent.mkdir(parents=True, exist_ok=True)
            Path(pic).write_text(f"<html>{pic}</html>\n")
    expect = json.loads((fix / "expect.json").read_text())
    specs = [x for n, s in expect.get("specs", {}).items()
             for x in ("--spec", f"{n}={s.replace('@SRC@', str(src))}")]
    subjects = ",".join(sorted({s for s, _ in expect["failures"]}))
    bad = []
    for art in (None, work / "artifacts"):
        tag = "artifacts" if art else "plain"
        junit, sarif = work / f"verdict-{tag}.xml", work / f"verdict-{tag}.sarif"
        for f in (junit, sarif):
            f.unlink(missing_ok=True)  # written afresh, or the test fails
        more = ["--artifacts", str(art)] if art else []
        p = subprocess.run([sys.executable, verdict, "--junit", str(junit), "--sarif", str(sarif),
                            "--srcroot", str(src), "--subjects", subjects, *specs, *more,
                            f"{expect['preset']}={build}"],
                           capture_output=True, text=True)
        if p.returncode != 1 or "Traceback" in p.stderr or not sarif.exists():
            return [f"verdict.py ({tag}) exit {p.returncode}, not 1 (or no SARIF): "
                    f"{p.stderr.strip()}"]
        bad += [f"{tag}: {x}" for x in check(junit, sarif, src, expect, art)]
        if art and "REPRODUCE.txt" not in p.stdout:  # the log says where the guide is
            bad.append(f"{tag}: the verdict names no REPRODUCE.txt")
    if specs:  # a merge of that folder: REPRODUCE.txt's rebuild: lines keep the specs
        art = work / "artifacts"
        subprocess.run([sys.executable, verdict, "--srcroot", str(src), "--merge", str(art)],
                       capture_output=True, text=True)
        guide = (art / "REPRODUCE.txt").read_text() if (art / "REPRODUCE.txt").is_file() else ""
        if not guide or "--subject 'SPEC'" in guide:
            bad.append(f"merge: {art}/REPRODUCE.txt names no spec: {guide[-300:]}")
    return bad


def main(argv) -> int:
    if len(argv) == 5 and argv[0] == "fixture":
        bad = fixture(argv[1], Path(argv[2]), Path(argv[3]), Path(argv[4]).resolve())
    elif len(argv) in (5, 6) and argv[0] == "check":
        bad = check(Path(argv[1]), Path(argv[2]), Path(argv[3]).resolve(),
                    json.loads(Path(argv[4]).read_text()),
                    Path(argv[5]).resolve() if len(argv) == 6 else None)
    else:
        print("files_test.py: usage: files_test.py fixture VERDICT_PY WORKDIR FIXTURE_DIR "
              "SRC_ROOT | check JUNIT SARIF SRC_ROOT EXPECT_JSON [ARTIFACTS_DIR]",
              file=sys.stderr)
        return 2
    return report("files_test", bad)


def report(tag: str, bad: list) -> int:
    """Prints the problems and the verdict; the exit status. Who calls: this file's main
    and tests/verdict/shard_test.py."""
    for b in bad:
        print(f"{tag}: {b}")
    print(f"{tag}: " + ("passed" if not bad else f"FAILED ({len(bad)} problems)"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
