"""The verdict as files for CI systems (ci/verdict.py --junit / --sarif).

JUnit XML: one testsuite per subject, one testcase per subject x column (the
matrix's cells); a FAILED cell has one <failure> (junit.xsd allows one): its
message the reason (with more than one failing test, how many and the first
one's), its text each failing test's reason, reproducers and pictures; a
cell that did not apply is <skipped> with why.
SARIF 2.1.0: one result per failing test and column (one per finding where its output
names several at lines of the port: weak memory's `at: SITE FILE:LINE`), ruleId the column's id
(ci/checkers.json), message the reason, location the port's own file and
line: in a Relacy history (`file(line)` of each access) the failing access,
else the access a data race's cause names (the hand-over: a relaxed store or load),
else the port's last write before it when the failure is on the harness's data;
else the last port line the output names (a fatal error's `at file:line`, a
sanitizer's frame); else the port's header. The replay command and the
picture as related data. With the artifact folder (ci/verdict_artifacts.py): each
failure's location as collected, its pictures, files, output and logs named relative to the
folder (uriBaseId RUNQCHECK_ARTIFACT), no base given a path of this machine.
"""
import json
import os
import re
import socket
import time
import xml.etree.ElementTree as ET
from pathlib import Path

# `path(line)` (Relacy's history), `path:line` (fatal errors, sanitizers, gtest).
SRC_LINE = re.compile(r"((?:[A-Za-z]:)?[\w./+-]*\.(?:hpp|hh|hxx|h|cpp|cc|cxx|c))"
                      r"(?:\((\d+)\)|:(\d+))")


def locations(out: str, port: dict, build: Path = None) -> list:
    """[(abs path, line)] the output names inside the port's include dirs, in
    order (the last is the access that failed: Relacy's history ends on it).
    A relative path is the compiler's, from the build dir (ccache's
    CCACHE_BASEDIR makes them so), or from an include dir."""
    dirs = [Path(d).resolve() for d in port.get("include_dirs", [])]
    bases = ([build] if build else []) + dirs
    found = []
    for line in out.splitlines():
        if line.lstrip().startswith(("replay:", "reproduce:", "picture:")):
            continue
        for m in SRC_LINE.finditer(line):
            f, n = m.group(1), int(m.group(2) or m.group(3))
            p = Path(f)
            cands = [p] if p.is_absolute() else [d / p for d in bases]
            for c in cands:
                try:
                    c = c.resolve()
                except OSError:
                    continue
                if n > 0 and any(c.is_relative_to(d) for d in dirs) and c.is_file():
                    found.append((str(c), n))
                    break
    return found


def history(out: str) -> str:
    """Relacy's first `execution history` block (up to its per-thread lists), or ""."""
    lines = out.splitlines()
    i = next((i for i, ln in enumerate(lines) if ln.startswith("execution history")), None)
    if i is None:
        return ""
    end = next((j for j in range(i + 1, len(lines)) if not lines[j].strip()), len(lines))
    return "\n".join(lines[i + 1:end])


WRITE = re.compile(r"\b(store|CAS|exchange|fetch_\w+|rmw)\b")
# A data race's hand-over in `runqcheck: cause:` ("... the load in grab_into (queue.hpp:100)
# is relaxed, not an acquire"): the port's access that should have ordered the race.
CAUSE_SITE = re.compile(r"the \w+ in \w+ \(([\w.+-]+):(\d+)\) is \w+, not a")


def cause_site(out: str, hist: list, port: dict, build: Path = None):
    """(path, line) of the hand-over that the first failure's cause names, found in its
    history (the cause names the file by its base name), or None."""
    first = next((ln for ln in out.splitlines() if ln.startswith("runqcheck: cause:")), "")
    m = CAUSE_SITE.search(first)
    if m is None:
        return None
    for ln in hist:
        for at in locations(ln, port, build):
            if Path(at[0]).name == m.group(1) and at[1] == int(m.group(2)):
                return at
    return None


def named_site(out: str, port: dict):
    """(path, line) of the hand-over that a `runqcheck: ` line's cause names (the fuzz
    column's recorder says it as Relacy's does, with no history to find it in): the port's
    one file of that base name, or None."""
    for ln in out.splitlines():
        m = CAUSE_SITE.search(ln) if ln.startswith("runqcheck: ") else None
        if m is None:
            continue
        f = port_file(port, m.group(1))
        return (str(f), int(m.group(2))) if f is not None else None
    return None


def port_file(port: dict, base: str):
    """The port's one file of base name `base` under its include dirs (a trace, a cause
    name a file by its base name), or None where none or several are."""
    files = {x.resolve() for d in port.get("include_dirs", []) if Path(d).is_dir()
             for x in Path(d).rglob(base) if x.is_file()}
    return files.pop() if len(files) == 1 else None


# A compiler's error line: path:line[:col]: [fatal ]error: (GCC and clang).
COMPILER_ERROR = re.compile(r"^(\S+?):(\d+):(?:\d+:)? (?:fatal )?error:")


def compiler_site(log: str, port: dict, build: Path = None):
    """(path, line, how) of a build that failed: the compiler's first error in the port's
    files; else the first line of them the compiler's messages name; else None."""
    errors = [ln.strip() for ln in log.splitlines() if COMPILER_ERROR.match(ln.strip())]
    for ln in errors:
        at = locations(COMPILER_ERROR.match(ln).group(0), port, build)
        if at:
            return at[0] + ("the compiler's first error in the port",)
    at = locations(log, port, build)
    if at:
        return at[0] + ("the first line of the port the compiler's messages name",)
    return None


def any_error_site(log: str, build: Path = None):
    """(path, line, how): the compiler's first error in any file that exists, else None."""
    for ln in log.splitlines():
        m = COMPILER_ERROR.match(ln.strip())
        if not m:
            continue
        p = Path(m.group(1))
        for c in [p] if p.is_absolute() else [x / p for x in [build] if x]:
            if c.is_file():
                return (str(c.resolve()), int(m.group(2)), "the compiler's first error")
    return None


TRACE = "window.RUNQCHECK_TRACE ="  # a picture's trace (fuzz/explain's page template)


def trace_writes(pictures, port: dict, build: Path = None) -> list:
    """[(abs path, line)] of the port's writes before the failure in the first picture's
    trace (the exhaustive and generated columns' pages: each access with its file:line)."""
    for pic in pictures:
        try:
            page = Path(pic).read_text(errors="replace")
            t = json.JSONDecoder().raw_decode(page, page.index("{", page.index(TRACE)))[0]
        except (OSError, ValueError):
            continue
        end = (t.get("failure") or {}).get("event")
        locs = [e.get("loc", "") for e in t.get("events", [])
                if e.get("kind") in ("store", "rmw", "write")
                and (end is None or e.get("id", 0) < end)]
        files = {n: port_file(port, n) for n, _, _ in (x.rpartition(":") for x in locs)}
        full = [f"{files[n]}:{ln}" for n, _, ln in (x.rpartition(":") for x in locs)
                if files[n] is not None]
        return locations("\n".join(full), port, build)
    return []


# A ThreadSanitizer stack frame: "    #0 FN FILE:LINE[:COL] (module+0x..)".
TSAN_FRAME = re.compile(r"^ {4}#\d+ (.+) (\S+?):(\d+)(?::\d+)? \(")
AT_SITE = re.compile(r"^at: (\S+) (\S+)$", re.M)  # proofs/weak/audit.py: a too-weak site
AT_LINE = re.compile(r"^at: (\S+)$", re.M)  # a Relacy cause's culprit (tests/relacy/driver.hpp)


def where(f: dict, port: dict):
    """(path, line, how) of failure f, always one (GitHub code scanning needs a location).
    A build that failed: the compiler's error in the port (compiler_site). A check: in a
    Relacy history, the failing event when it is the port's, else the hand-over that a data
    race's cause names, else the access the cause blames (its `at:` line: a conservation
    failure's), else the port's last write before it (a race found on the harness's
    data was published by it); else the hand-over a cause without a history names (the
    fuzz column's); a ThreadSanitizer report's first access, its innermost frame in the
    port; else the last port line the output names; else the port's
    last write before the failure in its picture's trace (the exhaustive and generated
    columns). Else the port's header (or its .cmake spec) at line 1; else the
    compiler's first error in any file; else the log at line 1."""
    out, build = f.get("out", ""), f.get("build")
    if f.get("stage"):
        at = compiler_site(out, port, build)
        if at:
            return at
    hist = history(out).splitlines()
    if hist:
        last = locations(hist[-1], port, build)
        if last:
            return last[-1] + ("the access that failed (Relacy's history)",)
        site = cause_site(out, hist, port, build)
        if site:
            return site + ("the access the race's cause names (Relacy's history)",)
        blamed = [x for m in AT_LINE.finditer(out) for x in locations(m.group(1), port, build)]
        if blamed:
            return blamed[0] + ("the access the failure's cause blames (its at: line)",)
        writes = [x for ln in hist if WRITE.search(ln.split(", in ")[0])
                  for x in locations(ln, port, build)]
        if writes:
            return writes[-1] + ("the port's last write before the failure (Relacy's history)",)
    tsan = out.find("WARNING: ThreadSanitizer") if not f.get("stage") else -1
    if tsan >= 0:  # its first access's innermost frame in the port (stacks list it first)
        report = out[tsan:].split("SUMMARY:", 1)[0]
        for ln in report.splitlines():
            at = locations(ln, port, build) if TSAN_FRAME.match(ln) else []
            if at:
                return at[0] + ("the port's innermost frame of ThreadSanitizer's first access",)
    site = None if f.get("stage") or hist else named_site(out, port)
    if site:
        return site + ("the access the race's cause names (the fuzz column's recorder)",)
    locs = [] if f.get("stage") else locations(out, port, build)
    if locs:
        return locs[-1] + ("the last line of the port the test's output names",)
    writes = [] if f.get("stage") else trace_writes(f.get("pictures", []), port, build)
    if writes:
        return writes[-1] + ("the port's last write before the failure (its picture's trace)",)
    for d in port.get("include_dirs", []):
        h = Path(d) / port.get("header", "")
        if port.get("header") and h.is_file():
            return (str(h.resolve()), 1, "the port's header (the output names no line of it)")
    if port.get("spec") and Path(port["spec"]).is_file():
        return (str(Path(port["spec"]).resolve()), 1,
                "the subject's .cmake spec (the output names no line of the port)")
    at = any_error_site(out, build) if f.get("stage") else None
    if at:
        return at
    log = f.get("log") or str(Path(f.get("build") or ".") / "build.log")
    return (str(Path(log).resolve()), 1, "the log (no file of the port is known)")


def write_junit(path: Path, rows, columns, cell, why_empty, title: str) -> None:
    """rows: subjects; columns: (id, title); cell(s, title) -> ci/verdict.py's Cell."""
    suites = ET.Element("testsuites", name=title or "runqcheck gate")
    n_all = n_fail = n_skip = 0
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime())
    for s in rows:
        suite = ET.SubElement(suites, "testsuite", name=f"runqcheck.{s}", timestamp=stamp,
                              hostname=socket.gethostname())
        n = fails = skips = 0
        secs = 0.0
        for cid, ctitle in columns:
            c = cell(s, ctitle)
            v = c.verdict()
            n += 1
            secs += c.time
            tc = ET.SubElement(suite, "testcase", name=cid, classname=f"runqcheck.{s}",
                               time=f"{c.time:.2f}")
            out = []
            if c.cached:  # passed in an earlier gate with the same inputs (ci/test_cache.py)
                out.append(f"cached: {c.cached} of {len(c.tests)} tests not run again: each "
                           "passed in an earlier gate with the same inputs\n")
            if c.carried:  # a preset not run now, from an earlier gate (ci/verdict.py --carry)
                out.append(f"carried over: {c.carried} of {len(c.tests)} tests from an earlier "
                           "gate of this build dir, sources unchanged\n")
            if v == "FAILED":
                fails += 1
                # One <failure> (junit.xsd: a testcase holds one), each failing test's
                # reason, reproducers and pictures in its text.
                blocks = []
                for f in c.failures:
                    text = [f"{f['test']} [{f['preset']}]", f"reason: {f['reason']}"]
                    text += [r if r.startswith(("replay:", "reproduce:", "log:"))
                             else f"reproduce: {r}" for r in f["repro"]]
                    text += [f"picture: {p}" for p in f["pictures"]]
                    text += [f"witness: {w}" for w in f["witness"]]
                    text += [f"report: {w}" for w in f.get("report", [])]
                    blocks.append("\n".join(text) + "\n")
                fs = c.failures
                msg = fs[0]["reason"] if len(fs) == 1 else (
                    f"{len(fs)} tests failed; {fs[0]['test']}: {fs[0]['reason']}" if fs
                    else "FAILED")
                ET.SubElement(tc, "failure", message=msg,
                              type=f"{cid} failed").text = "\n".join(blocks)
            elif v in ("not applied", "not run"):
                skips += 1
                why = "; ".join(c.notes) or why_empty(s, ctitle)
                ET.SubElement(tc, "skipped", message=why)
            elif c.notes:
                out += [f"runqcheck: not applied: {x}\n" for x in c.notes]
            if out:
                ET.SubElement(tc, "system-out").text = "".join(out)
        suite.set("time", f"{secs:.2f}")
        suite.set("tests", str(n))
        suite.set("failures", str(fails))
        suite.set("errors", "0")
        suite.set("skipped", str(skips))
        n_all, n_fail, n_skip = n_all + n, n_fail + fails, n_skip + skips
    suites.set("tests", str(n_all))
    suites.set("failures", str(n_fail))
    suites.set("errors", "0")
    suites.set("skipped", str(n_skip))
    ET.indent(suites)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n")


def _uri(p: str, root: Path):
    """(uri, uriBaseId or None): relative to root when under it."""
    q = Path(p).resolve()
    if q.is_relative_to(root):
        return q.relative_to(root).as_posix(), "SRCROOT"
    return q.as_uri(), None


def _artifact(p: str, root: Path) -> dict:
    uri, base = _uri(p, root)
    return {"uri": uri, **({"uriBaseId": base} if base else {})}


ROOT = Path(__file__).resolve().parent.parent  # this tree (a checkout or <prefix>/share/runqcheck)


def tool_version() -> str:
    """runqcheck's version: CMakeLists.txt's project(... VERSION x.y.z)."""
    try:
        m = re.search(r"project\(runqcheck VERSION ([\d.]+)", (ROOT / "CMakeLists.txt").read_text())
    except OSError:
        m = None
    return m.group(1) if m else "0"


def info_uri() -> str:
    """Where to read about runqcheck: $RUNQCHECK_INFO_URI (the action sets its repository's
    page), else this tree's docs/porting.md (section 7: the installed command)."""
    return os.environ.get("RUNQCHECK_INFO_URI") or (ROOT / "docs" / "porting.md").as_uri()


def rule(cid: str, title: str, checks: str) -> dict:
    """A column as a SARIF rule: what it checks, and how to reproduce a result of it."""
    name = "".join(w[:1].upper() + w[1:] for w in re.split(r"[^A-Za-z0-9]+", title) if w)
    full = f"runqcheck's {title} column: {checks or 'a check of the port.'}"
    help_ = (f"{full}\n\nReproduce: each result's properties.replay lists the failure's own "
             "commands (its `replay:` or `reproduce:` line, and the ctest command); "
             f"`runqcheck gate --subject SPEC --columns {cid}` runs the column again. "
             "A build failure's result names the build log.")
    return {"id": cid, "name": name + "Check",  # SARIF1001: a name unlike the id
            "shortDescription": {"text": f"runqcheck column {title}"},
            "fullDescription": {"text": full},
            "help": {"text": help_},
            "defaultConfiguration": {"level": "error"},
            "properties": {"tags": ["concurrency", "runqcheck"], "precision": "high",
                           "problem.severity": "error"}}


ARTIFACT_BASE = {
    "SRCROOT": {"description": {"text": "The repository: the folder the gate ran in."}},
    "RUNQCHECK_ARTIFACT": {"description": {"text": (
        "The folder of the gate's --artifacts (the action uploads it as its artifact, input "
        "'artifact'): each failure's pictures, output, saved programs and the logs.")}}}
ARTIFACT_KINDS = (("pictures", "picture of the failing execution"),
                  ("files", "a file that reproduces the failure"),
                  ("output", "the test's output"), ("logs", "a log of the build and tests"))


def _related(f: dict) -> list:
    """The failure's files in the artifact folder (f["art"]), as SARIF related locations."""
    art, out = f["art"], []
    for kind, what in ARTIFACT_KINDS:
        for p in [art[kind]] if isinstance(art[kind], str) else art[kind] or []:
            out.append({"id": len(out) + 1, "message": {"text": what},
                        "physicalLocation": {"artifactLocation": {
                            "uri": p, "uriBaseId": "RUNQCHECK_ARTIFACT"}}})
    return out


def _findings(f: dict, port: dict, root: Path) -> list:
    """[None]: failure f is one result; else, when its output's `at: SITE FILE:LINE` lines
    name several lines of the port, each in the repository, one (site, (k, n), path, line)
    per line."""
    found = []
    for m in AT_SITE.finditer(f.get("out", "")):
        at = locations(m.group(2), port, f.get("build"))
        if at:
            found.append((m.group(1), *at[0]))
    if len(found) < 2 or not all(Path(p).resolve().is_relative_to(root) for _, p, _ in found):
        return [None]
    return [(name, (k + 1, len(found)), p, line) for k, (name, p, line) in enumerate(found)]


def write_sarif(path: Path, rows, columns, cell, ports: dict, root: Path,
                checks: dict = None, artifacts: bool = False) -> None:
    """One result per failing test per column; columns: (id, title); checks: {id: what the
    column checks}. Every result has a location (GitHub code scanning requires one).
    artifacts: the failures were collected (f["site"], f["art"]): their files relative to
    the artifact folder, and no absolute path written."""
    root = root.resolve()
    checks = checks or {}
    rules = [rule(cid, t, checks.get(cid, "")) for cid, t in columns]
    index = {cid: i for i, (cid, _) in enumerate(columns)}
    results = []
    for s in rows:
        for cid, ctitle in columns:
            for f, one in ((f, one) for f in cell(s, ctitle).failures
                           for one in _findings(f, ports.get(s, {}), root)):
                res = {"ruleId": cid, "ruleIndex": index[cid], "level": "error",
                       "message": {"text": f"{s}: {f['reason']}"}}
                site = f.get("site") if artifacts else None
                if one is not None:  # one of several findings of the test, each its result
                    name, n, src, line = one
                    res["message"]["text"] = f"{s}: {name} (site {n[0]} of {n[1]}): {f['reason']}"
                    at = (src, line, f"the site {name} (the test's `at:` line)")
                    loc = _artifact(src, root)
                elif site:
                    at = (None, site["line"], site["how"])
                    loc = {"uri": site["uri"], "uriBaseId": site["base"]}
                else:
                    at = where(f, ports.get(s, {}))
                    loc = _artifact(at[0], root)
                res["locations"] = [{"physicalLocation": {
                    "artifactLocation": loc, "region": {"startLine": at[1]}},
                    "message": {"text": at[2]}}]
                if artifacts and "art" in f:
                    related = _related(f)
                else:
                    related = [{"id": i + 1,
                                "message": {"text": "picture of the failing execution"},
                                "physicalLocation": {"artifactLocation": _artifact(p, root)}}
                               for i, p in enumerate(f["pictures"])]
                if related:
                    res["relatedLocations"] = related
                res["properties"] = {"subject": s, "test": f["test"], "preset": f["preset"],
                                     "replay": f["repro"], "pictures": f["pictures"]}
                if artifacts and "art" in f:  # paths relative to the artifact folder
                    res["properties"]["artifact"] = f["art"]
                results.append(res)
    log = {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
           "runs": [{"tool": {"driver": {"name": "runqcheck", "version": tool_version(),
                                         "semanticVersion": tool_version(),
                                         "informationUri": info_uri(), "rules": rules}},
                     "originalUriBaseIds": (ARTIFACT_BASE if artifacts else
                                            {"SRCROOT": {"uri": root.as_uri() + "/"}}),
                     "results": results}]}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(log, indent=1) + "\n")
