#!/usr/bin/python3
"""Print the verdict matrix of ci/gate from the presets' CTest JUnit files.

One row per subject, one column per declared checker column; each cell is `passed`,
`passed*` (passed, but the test printed `runqcheck: not applied: ...`
lines, listed below the table), `FAILED` or `not applied`. Below the table,
for every FAILED cell: the one-line reason, the reproducers (the ctest
command, and every `replay:` / `reproduce:` line the test printed), the
HTML picture (`picture:` lines) and the witness execution (`witness:` lines,
the weak-memory column's). `runqcheck: report: ...` lines are findings that
fail nothing (orders stronger than needed), listed below the table. A test
that exits 77 (SKIP_RETURN_CODE) after a `runqcheck: not applied:` line makes
its cell `not applied` with that reason.

usage: verdict.py [--strict] [--subjects A,B] [--columns C,D] [--title TEXT] [--junit FILE]
                  [--sarif FILE] [--srcroot DIR] [--spec NAMES=SPEC]... [--artifacts DIR]
                  [--shard I/N] [--carry PRESET=BUILD_DIR]... [--configured -DNAME=VALUE]...
                  PRESET=BUILD_DIR...
       verdict.py --merge DIR [options]
--columns: only those columns (ids or titles of ci/checkers.json), as ci/gate --columns runs.
(PRESET `build`: a user's own build tree, any column but the whole-preset ones)
--junit / --sarif: the verdict also as JUnit XML / SARIF 2.1.0 (ci/verdict_files.py);
SARIF's paths are relative to --srcroot (default: the current directory).
--spec: a subject's spec (ci/gate's, paths absolute): where SARIF finds the port of a
build that failed before its configure wrote runqcheck_columns.json.
--artifacts DIR: the build dirs' results and their failures' files (pictures, saved
programs, outputs, logs) collected into DIR (ci/verdict_artifacts.py), the SARIF and JUnit
naming them relative to DIR and no path of this machine. --shard I/N: the runs are shard I
of N (recorded there). --merge DIR: the verdict of every collected folder below DIR (the
shards' artifacts), DIR the artifact root; exit 2 if a shard is missing.
--carry PRESET=BUILD_DIR: a preset this gate did not run, whose build dir an earlier gate
left: its results join the matrix, marked carried over, if they still hold for what is on
disk (ci/test_cache.py's carried(): the same sources, binaries and inputs, and the
--configured definitions, ci/gate's, in its CMakeCache.txt); else its empty columns say why.

Each BUILD_DIR holds junit.xml (ctest --output-junit) and runqcheck_columns.json
(each test's column, written by cmake/columns.cmake from ci/checkers.json, the
columns' one declaration) or, when its configure or build failed, a file
`stage-failed`: "<stage> <log path>".
Exit status: 0 all passed, 1 a cell FAILED (or, with --strict, a check did
not apply), 2 bad usage or a set-up error (a configure that failed, a spec's TYPE
that does not compile: one `error:` line on stderr after the verdict).
"""
import json
import re
import shlex
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import test_cache
import verdict_artifacts
import verdict_files

# The columns, from their one declaration (ci/checkers.json); a test's column is
# the one its build tree's runqcheck_columns.json gives (cmake/columns.cmake).
DECL = [c for c in json.loads((Path(__file__).resolve().parent / "checkers.json").read_text())
        ["columns"] if c.get("title")]
COLUMNS = [c["title"] for c in DECL]
TITLE = {c["id"]: c["title"] for c in DECL}
CHECKS = {c["id"]: "".join(c.get("checks", [])) for c in DECL}  # SARIF's rule descriptions
WHY_EMPTY = {c["title"]: "no test of this column for the subject"
             + (f": {c['not_applied']}" if c.get("not_applied") else "") for c in DECL}
# Which columns a preset fills (a preset that did not build fails these);
# `build`, a user's own build tree: every column but the whole-preset ones.
PRESET_COLUMNS = {"build": [c["title"] for c in DECL if not c.get("whole_preset")]}
# A column judges queue subjects, or ("judges": "protocol") protocol subjects.
PROTOCOL_COLUMNS = {c["title"] for c in DECL if c.get("judges") == "protocol"}
# Columns whose tests are all nightly: shown only where one of their tests ran.
NIGHTLY_COLUMNS = {c["title"] for c in DECL if c.get("nightly")}
for c in DECL:
    for p in c.get("presets", []):
        PRESET_COLUMNS.setdefault(p, []).append(c["title"])

# The presets that fill each column; the mark of a cell carried over from an earlier gate.
PRESETS_OF = {c: [p for p, cs in PRESET_COLUMNS.items() if c in cs] for c in COLUMNS}
CARRIED = "\u2020"  # a dagger

NOT_APPLIED = re.compile(r"runqcheck: not applied: (.*)$")
# A check of a feature the protocol's registration declares absent (WITHOUT):
# listed, never a not-applied check (--strict passes it).
DECLARED = re.compile(r"runqcheck: declared absent: (.*)$")
REPORT = re.compile(r"runqcheck: report: (.*)$")  # findings that do not fail a cell
REASON = re.compile(r"invariant:|fatal error|\bFAILED\b|^FAIL\b|: Failure$|\berror:|LIVELOCK|"
                    r"DEADLOCK|DATA RACE|ERROR: AddressSanitizer|WARNING: ThreadSanitizer|"
                    r"runtime error:|no progress|watchdog|\bdata race\b|"
                    r"^runqcheck: history not linearizable")
CRASH = re.compile(r"runqcheck: crash: (.*)$")  # tests/unit/isolate.py
# A checker's own statement of the cause (Relacy's driver: a data race's accesses and
# hand-over, from its traced re-run): the reason when present.
CAUSE = re.compile(r"^runqcheck: cause: (.*)$")
# A non-linearizable history's report (lincheck's): its first line, then its indented lines.
LIN_REPORT = re.compile(r"^not linearizable w\.r\.t\. the reference model")
LIN_REPORT_MAX = 24  # lines of it the verdict shows (the test's output keeps it whole)


def lin_report(out: str) -> list:
    """The first non-linearizable history's report in out, as the verdict shows it below the
    reason (which only says that the history is not linearizable): its lines up to the
    next unindented one or a `saved:` line, at most LIN_REPORT_MAX."""
    lines = out.splitlines()
    start = next((i for i, ln in enumerate(lines) if LIN_REPORT.match(ln)), None)
    if start is None:
        return []
    got = [lines[start].rstrip()]
    for ln in lines[start + 1:]:
        if not ln.startswith(" ") or ln.strip().startswith("saved:"):
            break
        if len(got) == LIN_REPORT_MAX:
            got.append("  ... (the rest in the test's output)")
            break
        got.append(ln.rstrip())
    return got
# A line that reports a check passed (its text may quote a fatal error it expected).
PASSED = re.compile(r": passed\b")
# An exploring checker's statistics line that failed (tests/explore/cli.hpp's report):
# its reason is the line after it that names the same scenario and model.
EXPLORE_STATS = re.compile(r"^(explore\w*) (\S+) (\S+) +(\S+) +[\d,]+ complete, .*\bFAILED"
                           r"(?: \(shard \d+/\d+\))?$")
GTEST_RUN = re.compile(r"\[ RUN      \] (\S+)")
# ctest's own line for a test that died or ran out of time (its console log).
CTEST_END = re.compile(r"Test +#\d+: (\S+) \.*\s*\*\*\*(Exception: .*?|Timeout)\s+[\d.]+ sec")


def spec_port(spec: str) -> dict:
    """A subject spec (ci/gate's, paths absolute) as a port: {header, include_dirs} of
    NAME|HEADER|TYPE|INCLUDE_DIR, {spec, include_dirs: its folder} of a .cmake file: where
    a build that failed before runqcheck_columns.json was written finds the port."""
    f = spec.split("|")
    if len(f) == 4:
        return {"header": f[1], "include_dirs": [f[3]]}
    return {"spec": spec, "include_dirs": [str(Path(spec).parent)]}


def ports_of(d: Path) -> dict:
    """{subject: {header, include_dirs}} of build dir d (its runqcheck_columns.json)."""
    try:
        return json.loads((d / "runqcheck_columns.json").read_text()).get("ports", {})
    except (OSError, ValueError):
        return {}


def columns_of(d: Path) -> dict:
    """{test: column title} of build dir d (its runqcheck_columns.json)."""
    try:
        tests = json.loads((d / "runqcheck_columns.json").read_text())["tests"]
    except (OSError, ValueError, KeyError):
        return {}
    return {t: TITLE.get(c, "other") for t, c in tests.items()}


def protocol_subjects_of(d: Path) -> list:
    """The protocol subjects registered in build dir d (runqcheck_columns.json)."""
    try:
        return json.loads((d / "runqcheck_columns.json").read_text()).get("protocol_subjects", [])
    except (OSError, ValueError):
        return []


# A reason's length on its one line (the matrix's `reason:`, REPRODUCE.txt, JUnit, SARIF);
# the whole text stays in the test's output.
REASON_MAX = 500
# A site of the port a reason names: `FILE:LINE (fn)`, `fn (FILE:LINE)`, `FILE:LINE`,
# Relacy's `FILE(LINE)` (verdict_files.SRC_LINE's paths).
SITE = re.compile(rf"\w+ \({verdict_files.SRC_LINE.pattern}\)"
                  rf"|{verdict_files.SRC_LINE.pattern}(?: \([\w:~<>]+\))?")


MATRIX_WIDTH = 100  # the printed matrix's lines, at most (a column wider is a band alone)


def bands(widths: list, limit: int) -> list:
    """Column indices in bands whose lines, column 0 (the subject) first in each, fit limit."""
    out, band, w = [], [0], widths[0]
    for i in range(1, len(widths)):
        if len(band) > 1 and w + 2 + widths[i] > limit:
            out.append(band)
            band, w = [0], widths[0]
        band.append(i)
        w += 2 + widths[i]
    return out + [band]


def shorten(text: str, limit: int = REASON_MAX) -> str:
    """text at most about limit characters: cut at a word boundary and never inside a site
    (SITE); the sites after the cut kept, each after an ellipsis (a reason names where
    the port went wrong, often at its end)."""
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit + 1)
    cut = cut if cut > limit // 2 else limit  # one long token: cut inside it
    sites = list(SITE.finditer(text))
    cut = next((m.start() for m in sites if m.start() < cut < m.end()), cut)
    head = text[:cut].rstrip()
    lost = [m for m in sites if m.start() >= cut]
    keep = [x for x in dict.fromkeys(m.group(0) for m in lost) if x not in head]
    more = not lost or text[lost[-1].end():].strip(" .,;)")  # text after the last site
    return " ... ".join([head] + keep) + (" ..." if more else "")


def reason_of(out: str, failure_msg: str, ctest_end: str = "") -> str:
    """The failure's one line: a crash first, then the first line that says
    what failed (a `FAIL:` line with its `C++:`/`Go:` lines), then ctest's."""
    lines = out.splitlines()
    crashes = [m.group(1) for m in map(CRASH.search, lines) if m]
    first = ""
    for i, line in enumerate(lines):
        if CRASH.search(line) or line.startswith("[  FAILED  ] ") or PASSED.search(line):
            continue
        if REASON.search(line.strip()) or "invariant:" in line:
            text = line.strip()
            if text.endswith(": Failure"):
                # GoogleTest: the test in flight, then the failure's lines.
                run = [m.group(1) for m in map(GTEST_RUN.match, lines[:i]) if m]
                more = []
                for x in lines[i + 1:i + 5]:
                    if not x.strip() or x.startswith("["):
                        break
                    more.append(x.strip())
                text = (f"{run[-1]}: " if run else "") + " ".join([text] + more)
            if m := EXPLORE_STATS.match(text):
                # the failing invariant, not the engine's counts
                pre = " ".join(m.groups()) + ": "
                text = next((x.strip() for x in lines[i + 1:] if x.startswith(pre)), text)
            if text.startswith("WARNING: ThreadSanitizer:"):
                text = tsan_reason(lines[i:]) or text
            if text.startswith("FAIL") or text.endswith("FAILED"):
                # its C++:/Go: lines (diff_go), or the fatal error that failed it
                text += "".join(" " + x.strip() for x in lines[i + 1:i + 3]
                                if x.strip().startswith(("C++:", "Go:"))
                                or "fatal error" in x)
            if text.endswith("state dump:"):
                # a watchdog's hang: the dump's first thread and its Ps (where it hangs)
                text += " " + "; ".join(x.strip() for x in lines[i + 1:i + 4]
                                        if x.startswith("  ") and "global queue" not in x)
            elif text.endswith(":") and i + 1 < len(lines) and lines[i + 1].strip():
                # what failed is on the next line (lincheck's "execution 0:")
                text += " " + lines[i + 1].strip()
            first = text
            break
    cause = next((m.group(1) for m in map(CAUSE.match, lines) if m), "")
    if cause:
        first = cause
    prop = rapidcheck_reason(lines)
    if prop:
        first = prop
    last = next((ln.strip() for ln in reversed(lines) if ln.strip()), "")
    if crashes:
        text = "crashed: " + "; ".join(crashes) + (f"; also: {first}" if first else "")
    elif ctest_end:
        # Died or timed out: what it was doing (its last line), then any failure before.
        text = ctest_end.replace(", no message before it", "") if last else ctest_end
        text += (f" after: {last}" if last else "") + (
            f"; also: {first}" if first and first != last else "")
    elif first:
        text = first
    else:
        bare = [ln.strip() for ln in lines if ln.startswith("[  FAILED  ] ")]
        text = (bare[0] if bare else failure_msg
                or "failed without a message (see the ctest command)")
    return shorten(text)


# A ThreadSanitizer report's parts: an access ("Read of size 8 at 0x.. by thread T1:",
# "Previous atomic write ..."), a stack frame (verdict_files.TSAN_FRAME).
TSAN_ACCESS = re.compile(r"^ {2}((?:Previous )?(?:atomic )?(?:read|write)\b.*?) at 0x[0-9a-f]+"
                         r" (by .*?):?$", re.I)
TSAN_FRAME = verdict_files.TSAN_FRAME


def short_fn(fn: str, keep: int = 40) -> str:
    """A symbolized function name with its template arguments and parameters cut to
    <...> and (...) where they are longer than keep characters."""
    out, depth, start = [], 0, 0
    for k, ch in enumerate(fn):
        if ch in "<(":
            if depth == 0:
                start = k
            depth += 1
        elif ch in ">)" and depth:
            depth -= 1
            if depth == 0:
                inner = fn[start:k + 1]
                out.append(inner if len(inner) <= keep else inner[0] + "..." + ch)
                continue
        if depth == 0:
            out.append(ch)
    return "".join(out)


def tsan_reason(lines) -> str:
    """A ThreadSanitizer warning (lines from its WARNING line) as one line: what it is, then
    each access with the thread and the first frame outside the system's headers and
    runqcheck's backend (the port's line), e.g. "ThreadSanitizer: data race: read of size
    8 by thread T2 in ring::steal() (ring.hpp:88); previous write of size 8 by thread T1
    in ring::push(g*) (ring.hpp:42)". "" when no access follows the WARNING line."""
    what = re.sub(r" \(pid=\d+\)$", "", lines[0].strip().removeprefix("WARNING: "))
    parts, access, frames = [], None, []

    def said():
        # the first frame of the port (outside runqcheck's tree), else of runqcheck's own
        # code (the bundled port, the harness), else the access alone
        own = [x for x in frames if not in_tree(x[1])] or frames
        parts.append(f"{access} in {short_fn(own[0][0])} ({own[0][1]}:{own[0][2]})" if own
                     else access)

    for ln in lines[1:]:
        if ln.startswith(("SUMMARY:", "==================")):
            break
        if m := TSAN_ACCESS.match(ln):
            if access:
                said()
            access, frames = f"{m.group(1)[0].lower()}{m.group(1)[1:]} {m.group(2)}", []
        elif access and (f := TSAN_FRAME.match(ln)):
            if not f.group(2).startswith("/usr/") and "runqcheck/backend/" not in f.group(2):
                frames.append(f.groups())
        elif not ln.strip() and access:
            said()
            access = None
    if access:
        said()
    return f"{what}: " + "; ".join(parts) if parts else ""


def in_tree(path: str) -> bool:
    """path (a frame's, a message's) is in runqcheck's own tree (its harness, the bundled
    ports), as written or under $RUNQCHECK_ROOT."""
    if path.startswith("$RUNQCHECK_ROOT/"):
        return True
    try:
        return Path(path).is_absolute() and Path(path).resolve().is_relative_to(
            verdict_files.ROOT)
    except OSError:
        return False


def emulator_of(d: Path) -> list:
    """The command that runs build dir d's binaries (its CMAKE_CROSSCOMPILING_EMULATOR, in
    runqcheck_columns.json: qemu for the arm64 presets), or [] for native ones."""
    try:
        return json.loads((d / "runqcheck_columns.json").read_text()).get("emulator", [])
    except (OSError, ValueError):
        return []


def emulated(line: str, d: Path) -> str:
    """A `reproduce:` or `replay:` line whose command runs a binary of cross-compiled build
    dir d, run through d's emulator (the binary printed its own path, which the host
    cannot run); other lines as they are."""
    emu = emulator_of(d)
    tag, sep, cmd = line.partition(": ")
    words = cmd.split(" ")
    k = next((i for i, w in enumerate(words) if "=" not in w or w.startswith("/")), None)
    if not emu or not sep or k is None or not words[k].startswith(str(d.resolve())):
        return line
    words[k:k] = [shlex.quote(x) for x in emu]
    return f"{tag}{sep}{' '.join(words)}"


def rapidcheck_reason(lines) -> str:
    """rapidcheck's failure: "property P: Falsifiable after ...: ASSERTION (file:line)"."""
    i = next((i for i, ln in enumerate(lines) if ln.startswith("Falsifiable after")), None)
    if i is None:
        return ""
    name = [ln[2:].strip() for ln in lines[:i] if ln.startswith("- ")]
    text = (f"property {name[-1]}: " if name else "") + lines[i].strip()
    at = next((j for j in range(i + 1, len(lines)) if re.fullmatch(r"\S+:\d+:", lines[j])), None)
    # an exception (a fatal error) that failed this property: its message
    end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("- ")), len(lines))
    exc = next((j for j in range(i + 1, end) if lines[j] == "Exception thrown with message:"),
               None)
    if exc is not None and exc + 1 < len(lines) and (at is None or exc < at):
        text += f": {lines[exc + 1].strip()}"
    elif at is not None and at + 1 < len(lines):
        text += f": {lines[at + 1].strip()} ({lines[at][:-1]})"
    return text


def ctest_ends(d: Path) -> dict:
    """{test: "crashed (SegFault) ..."} from the ctest console log of build dir d."""
    ends = {}
    for log in (d / "junit.log", d / "ctest-port.log"):
        try:
            text = log.read_text(errors="replace")
        except OSError:
            continue
        for m in CTEST_END.finditer(text):
            what = m.group(2)
            ends[m.group(1)] = ("timed out (ctest's TIMEOUT)" if what == "Timeout"
                                else f"crashed ({what.split(': ', 1)[1]}), no message before it")
    return ends


def crash_named(line: str, out: str) -> str:
    """A fuzz target's `reproduce with: ... <the crash file named below>`
    with the file libFuzzer named (`Test unit written to PATH`) in its place:
    the verdict does not show the output below it."""
    m = re.search(r"Test unit written to (/\S+)", out)
    line = line.replace("<the crash file named below>", m.group(1)) if m else line
    return line.split("reproduce with: ", 1)[-1]  # the command, printed after "reproduce:"


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
                line = line.split(" Call Stack (most recent call first):")[0]
            return shorten(line)
    return "(no error line in the log)"


class Cell:
    def __init__(self):
        self.tests = []          # (name, state) state: passed / failed / skipped
        self.notes = []          # not-applied lines
        self.declared = []       # declared-absent lines (WITHOUT: not notes)
        self.reports = []        # report lines (shown, never failing)
        self.failures = []       # dicts
        self.time = 0.0          # seconds, its tests' (ctest's junit)
        self.cached = 0          # its tests not run again (ci/test_cache.py)
        self.carried = 0         # its tests from an earlier gate (--carry)
        self.ran = True          # its column ran in this gate or was carried over

    def verdict(self) -> str:
        if not self.tests:  # a column not run says so: "not applied" is the port's
            return "not applied" if self.ran else "not run"
        if any(s == "failed" for _, s in self.tests):
            return "FAILED"
        if all(s == "skipped" for _, s in self.tests):
            return "not applied"
        return "passed*" if self.notes or any(s == "skipped" for _, s in self.tests) else "passed"


def grouped_notes(notes, rows):
    """The not-applied lines, each said once: a check's scenarios that share a reason on
    one line ("relacy_protocol go125_window, retake_vs_exitsyscall: needs ..."), and the
    subjects that share that line named together ("every subject" when all do)."""
    scens = {}  # (subject, column, check, why) -> its scenarios, first seen first
    for s, c, n in notes:
        text = re.sub(rf" \((?:subject|protocol) {re.escape(s)}\)$", "", n)
        check, sep, why = text.partition(": ")
        tool, _, scen = check.partition(" ")
        if not sep or not scen:
            tool, scen, why = text, "", ""
        got = scens.setdefault((s, c, tool, why), [])
        if scen and scen not in got:
            got.append(scen)
    subs = {}  # (column, check, why, scenarios) -> subjects
    for (s, c, tool, why), sc in scens.items():
        subs.setdefault((c, tool, why, tuple(sc)), []).append(s)
    out = []
    for (c, tool, why, sc), who in subs.items():
        who = "every subject" if len(who) == len(rows) > 1 else ", ".join(who)
        what = f"{tool} {', '.join(sc)}: {why}" if sc else tool
        out.append(f"  {who}, {c}: {what}")
    return out


def main(argv) -> int:
    strict, subjects, title, runs, only, specs = False, [], "", [], set(), {}
    given = {}  # each subject's spec as the gate passed it
    files = {"--junit": None, "--sarif": None, "--srcroot": Path.cwd(), "--artifacts": None,
             "--merge": None}
    shard, shard_of = "", {}  # this run's --shard; a merged run's (its collected.json)
    carry, configured = [], []  # --carry (preset, dir); --configured -DNAME=VALUE
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--strict":
            strict = True
        elif a in ("--subjects", "--title", "--columns") and args:
            v = args.pop(0)
            if a == "--subjects":
                subjects = [s for s in v.split(",") if s]
            elif a == "--columns":
                ids = {c["id"]: c["title"] for c in DECL}
                for c in (c.strip() for c in v.split(",") if c.strip()):
                    if c not in ids and c not in ids.values():
                        print(f"verdict.py: unknown column '{c}' (columns: {', '.join(ids)})",
                              file=sys.stderr)
                        return 2
                    only.add(ids.get(c, c))
            else:
                title = v
        elif a in files and args:
            files[a] = Path(args.pop(0))
        elif a == "--shard" and args and re.fullmatch(r"\d+/[1-9]\d*", args[0]):
            shard = args.pop(0)
        elif a == "--spec" and args:
            names, _, spec = args.pop(0).partition("=")
            for n in names.split(","):
                specs[n] = spec_port(spec)
                given[n] = spec
        elif a == "--carry" and args and "=" in args[0]:
            preset, d = args.pop(0).split("=", 1)
            carry.append((preset, Path(d)))
        elif a == "--configured" and args:
            configured.append(args.pop(0))
        elif "=" in a and not a.startswith("-"):
            preset, d = a.split("=", 1)
            runs.append((preset, Path(d)))
        else:
            print(f"verdict.py: bad argument '{a}' (usage: verdict.py [--strict] [--subjects A,B] "
                  "[--junit FILE] [--sarif FILE] [--srcroot DIR] PRESET=BUILD_DIR...)",
                  file=sys.stderr)
            return 2
    if files["--merge"]:
        merged, ran, named, err = verdict_artifacts.merged_runs(files["--merge"])
        if err:
            print(f"error: --merge: {err}", file=sys.stderr)
            return 2
        runs += [(p, d) for p, d, _ in merged]
        shard_of = {d: s for _, d, s in merged if s}
        only |= ran or set()  # the columns the shards ran (their --columns)
        subjects += [s for s in named if s not in subjects]
        files["--artifacts"] = files["--merge"]
    if not runs:
        print("verdict.py: no PRESET=BUILD_DIR given", file=sys.stderr)
        return 2
    # The presets carried over: {dir: (its record, its columns)}; those whose results no
    # longer hold: {preset: why}.
    carried, stale = {}, {}
    for preset, d in carry:
        why = test_cache.carried(d, configured)
        if why is None:
            continue
        rec = test_cache.record(d) or {}
        ran = {TITLE.get(i) for i in rec.get("columns") or []}
        cols = [c for c in PRESET_COLUMNS.get(preset, []) if not ran or c in ran]
        if why:
            stale[preset] = why
        else:
            carried[d] = (rec, cols)
            runs.append((preset, d))
        if only and rec:  # (--columns) the columns run now and those an earlier gate ran
            only |= set(cols)
    given_subjects = list(subjects)
    art = files["--artifacts"] and verdict_artifacts.Artifacts(
        files["--artifacts"], files["--srcroot"], Path(__file__).resolve().parent.parent, runs,
        shard, only, subjects, given)

    cells = {}
    cell = lambda s, c: cells.setdefault((s, c), Cell())
    setup = []  # (preset, stage, reason, log) of presets that did not build
    ran_cols = set()
    ports = dict(specs)  # a build tree's runqcheck_columns.json, read below, knows better
    n_tests, n_cached = 0, 0  # cached: not run again (ci/test_cache.py)
    for preset, d in runs:
        cols = carried[d][1] if d in carried else PRESET_COLUMNS.get(preset, ["other"])
        stage = d / "stage-failed"
        junit = d / "junit.xml"
        label = preset + (f", shard {shard_of[d]}" if d in shard_of else "") + (
            ", carried over" if d in carried else "")
        if stage.exists():
            what, _, log = stage.read_text().strip().partition(" ")
            log = str(art and art.file_of(d, log) or log)  # a collected one's copy
            ports.update(ports_of(d))  # written by a configure that passed
            # (a nightly column's tests did not run either way: its cell stays out)
            setup.append((preset, what, first_error(Path(log)), log,
                          [c for c in cols if c not in NIGHTLY_COLUMNS], d))
            ran_cols.update(cols)
            continue
        if not junit.exists():
            why, log = stopped_ctest(d)
            # a nightly column only where one of its tests had started (the gate runs none)
            started = {columns_of(d).get(t) for t in started_tests(Path(log))}
            setup.append((preset, "test", why, log,
                          [c for c in cols if c not in NIGHTLY_COLUMNS or c in started], d))
            ran_cols.update(cols)
            continue
        ran_cols.update(cols)
        ends = ctest_ends(d)
        ports.update(ports_of(d))
        column = columns_of(d)
        for tc in ET.parse(junit).getroot().iter("testcase"):
            name = tc.get("name", "?")
            if "/" not in name:
                continue
            subj = name.split("/", 1)[1]
            if d in carried and given_subjects and subj not in given_subjects:
                continue  # (a build dir for other subjects is not carried: its configure)
            if subj not in subjects:
                subjects.append(subj)
            status = tc.get("status", "")
            cached = tc.get("cached") == "true" and d not in carried
            n_tests += d not in carried
            n_cached += cached
            out = "".join(x.text or "" for x in tc.iter("system-out"))
            fail_el = tc.find("failure")
            if fail_el is None:
                fail_el = tc.find("error")
            failed = fail_el is not None or status == "fail"
            skipped = not failed and (tc.find("skipped") is not None
                                      or status in ("notrun", "disabled"))
            col = column.get(name, "other")
            c = cell(subj, col)
            c.tests.append((name, "failed" if failed else "skipped" if skipped else "passed"))
            c.cached += cached
            c.carried += d in carried
            try:
                c.time += float(tc.get("time", "0"))
            except ValueError:
                pass
            if skipped and not any(NOT_APPLIED.search(ln) or DECLARED.search(ln)
                                   for ln in out.splitlines()):
                c.notes.append(f"{name} ({preset}): skipped by the test itself "
                               "(exit 77: a tool is missing)")
            for line in out.splitlines():
                m = NOT_APPLIED.search(line)
                if m and m.group(1) not in c.notes:
                    c.notes.append(m.group(1))
                m = DECLARED.search(line)
                if m and m.group(1) not in c.declared:
                    c.declared.append(m.group(1))
                m = REPORT.search(line)
                if m and m.group(1) not in c.reports:
                    c.reports.append(m.group(1))
            if failed:
                lines = [ln.strip() for ln in out.splitlines()]
                c.failures.append({
                    "test": name, "preset": label, "subject": subj, "run": d,
                    "reason": reason_of(out, "" if fail_el is None else fail_el.get("message", ""),
                                        ends.get(name, "")),
                    # each once (a test may print one before and after a crash)
                    "repro": list(dict.fromkeys(
                        [f"ctest --test-dir {d} -R '^{re.escape(name)}$' --output-on-failure"]
                        + [emulated(crash_named(ln, out), d) for ln in lines
                           if ln.startswith(("replay:", "reproduce:"))
                           or "reproduce with:" in ln])),
                    "pictures": [ln.split(":", 1)[1].strip() for ln in lines
                                 if ln.startswith("picture:")],
                    "witness": [ln.split(":", 1)[1].rstrip() for ln in out.splitlines()
                                if ln.startswith("witness:")],
                    "report": lin_report(out),
                    "out": out, "build": d,
                })
    protos = {s for _, d in runs for s in protocol_subjects_of(d)}
    # A cell of the other kind (a queue subject's protocol column, a protocol
    # subject's queue column) is "-": no check of that kind exists for it.
    other_kind = lambda s, c: (c in PROTOCOL_COLUMNS) != (s in protos) and c != "other"
    for preset, what, why, log, cols, d in setup:
        try:
            text = Path(log).read_text(errors="replace")
        except OSError:
            text = ""
        for s in subjects or ["(all)"]:
            for col in cols:
                if subjects and other_kind(s, col):  # not its kind: no failure to list
                    continue
                c = cell(s, col)
                c.tests.append((f"({preset} {what})", "failed"))
                label = preset + (f", shard {shard_of[d]}" if d in shard_of else "")
                c.failures.append({"test": f"preset {preset}: {what} failed", "preset": label,
                                   "subject": s, "run": d, "reason": why,
                                   "repro": [f"log: {log}"], "pictures": [],
                                   "witness": [], "out": text, "stage": what, "log": log,
                                   "build": Path(log).parent})

    if art:  # each run's results and failures' files into the artifact folder
        for preset, d in runs:
            art.collect(preset, d, [f for c in cells.values() for f in c.failures
                                    if f["run"] == d],
                        lambda f: verdict_files.where(f, ports.get(f["subject"], {})))

    def print_empty(pairs):
        """The empty cells (subject, column), a line a column: why_empty's."""
        by_col = {}
        for s, c in pairs:
            by_col.setdefault(c, []).append(s)
        for c, subs in by_col.items():
            who = "every subject" if len(subs) == len(rows) > 1 else ", ".join(subs)
            print(f"  {who}, {c}: {why_empty(c)}")

    def why_empty(c):
        """Why column c's empty cells are empty."""
        if c in ran_cols:
            return WHY_EMPTY.get(c, "")
        old = [(p, w) for p, w in stale.items() if c in PRESET_COLUMNS.get(p, [])]
        if old:
            return "; ".join(f"its preset ({p}) was {w}; run it again" for p, w in old)
        if any(p in PRESETS_OF.get(c, []) for p, d in runs if d in carried):
            return "its preset's earlier gate did not run this column"
        return "its preset was not run"

    rows = subjects or ["(none)"]
    columns = [c for c in COLUMNS if any(not other_kind(s, c) for s in rows)
               and (c not in NIGHTLY_COLUMNS or any(cells[k].tests for k in cells if k[1] == c))
               and (not only or c in only)]
    columns += ["other"] if any(k[1] == "other" for k in cells) else []
    for s in rows:
        for c in columns:
            cell(s, c).ran = c in ran_cols
    verdict_of = lambda s, c: "-" if other_kind(s, c) else cell(s, c).verdict()
    grid = [[s] + [verdict_of(s, c) for c in columns] for s in rows]
    # A cell that holds results carried over from an earlier gate: marked (the footnote).
    shown = [[r[0]] + [v + (CARRIED if cell(r[0], c).carried else "")
                       for v, c in zip(r[1:], columns)] for r in grid]
    head = ["subject"] + columns
    widths = [max(len(r[i]) for r in shown + [head]) for i in range(len(head))]
    print()
    if title:
        print(title)
    # In bands of at most MATRIX_WIDTH characters, each with the subject column: one
    # table of every column is some 300 wide (expect_cells.read_matrix joins the bands).
    for n, band in enumerate(bands(widths, MATRIX_WIDTH)):
        fmt = lambda r: "  ".join(r[i].ljust(widths[i]) for i in band).rstrip()
        if n > 0:
            print()
        print(fmt(head))
        print(fmt(["-" * w for w in widths]))
        for r in shown:
            print(fmt(r))
    if any(cell(s, c).carried for s in rows for c in columns):
        when = "; ".join(f"{p}: its tests ran {carried[d][0].get('when', '?')}"
                         for p, d in runs if d in carried)
        print(f"{CARRIED} carried over from an earlier gate of this build dir, sources unchanged "
              f"({when})")

    n_pass = sum(v.startswith("passed") for r in grid for v in r[1:])
    n_fail = sum(v == "FAILED" for r in grid for v in r[1:])
    n_na = sum(v == "not applied" for r in grid for v in r[1:])
    n_unrun = sum(v == "not run" for r in grid for v in r[1:])
    n_star = sum(v == "passed*" for r in grid for v in r[1:])
    notes = [(s, c, n) for s in rows for c in columns for n in cell(s, c).notes]
    empty = [(s, c) for s in rows for c in columns if verdict_of(s, c) == "not applied"
             and not cell(s, c).tests]
    unrun = [(s, c) for s in rows for c in columns if verdict_of(s, c) == "not run"]
    if notes or empty:
        print("\nnot applied (subject, column: check: why)" +
              ("; a cell marked passed* passed, but a check of it is listed here:"
               if n_star else ":"))
        for line in grouped_notes(notes, rows):
            print(line)
        print_empty(empty)
    if unrun:
        print("\nnot run in this gate (subject, column: why; no verdict on the port):")
        print_empty(unrun)
    declared = [(s, c, n) for s in rows for c in columns for n in cell(s, c).declared]
    if declared:
        print("\ndeclared absent (subject, column: check: why; its registration's WITHOUT says"
              " the scheduler has none of it: not a check left out):")
        for line in grouped_notes(declared, rows):
            print(line)
    # A finding several subjects share is printed once, naming them all.
    reports = {}
    for s in rows:
        for c in columns:
            for r in cell(s, c).reports:
                key = (c, r.removesuffix(f" (subject {s})"))
                reports.setdefault(key, []).append((s, r))
    if reports:
        print("\nreports (subject, column: finding; not failures):")
        for (c, shared), found in reports.items():
            subs = [s for s, _ in found]
            who = "every subject" if len(subs) == len(rows) > 1 else ", ".join(subs)
            print(f"  {who}, {c}: {found[0][1] if len(found) == 1 else shared}")
    # One entry per failing test (a preset that did not build fills several columns).
    fails = {}
    for s in rows:
        for c in columns:
            for f in cell(s, c).failures:
                fails.setdefault((s, f["test"], f["preset"]), (f, []))[1].append(c)
    if fails:
        print("\nfailures:" + (f" (pictures: in the artifact folder {files['--artifacts']};"
                               " $RUNQCHECK_BUILD: the gate's --build-dir; elsewhere, its"
                               " REPRODUCE.txt)" if art else ""))
        for (s, *_), (f, cols) in fails.items():
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
            if f.get("report"):
                print("    report:")
                for w in f["report"]:
                    print(f"      {w}")
        if art:  # how to run those lines where the build dir is not
            ids = {t: i for i, t in TITLE.items()}
            art.write_reproduce([(s, f, [ids.get(c, c) for c in cols])
                                 for (s, *_), (f, cols) in fails.items()], given)
    logs = [(p, f) for p, d in runs for f in (d / "junit.log", d / "ctest-port.log",
                                               d / "build.log") if f.exists()]
    if logs:
        print("\nlogs (the whole output of ctest and of the build):")
        for p, f in logs:
            print(f"  {p}: {f}")
    ids = {t: i for i, t in TITLE.items()}
    cols = [(ids.get(c, c), c) for c in columns]
    why = lambda s, c: why_empty(c)
    try:
        if files["--junit"]:
            verdict_files.write_junit(files["--junit"], rows, cols, cell, why, title)
        if files["--sarif"]:
            verdict_files.write_sarif(files["--sarif"], rows, cols, cell, ports,
                                      files["--srcroot"], CHECKS, artifacts=bool(art))
    except OSError as e:
        print(f"verdict.py: cannot write {e.filename}: {e.strerror}", file=sys.stderr)
        return 2
    print()
    n_carried = sum(c.carried for c in cells.values())
    if n_carried:
        print(f"carried over: {n_carried} test{'s' * (n_carried != 1)} of presets not run in "
              f"this gate ({CARRIED} above; ci/gate --no-cache shows only the presets run)")
    if n_cached:
        print(f"cached: {n_cached} of {n_tests} tests not run again: each passed in an earlier "
              "gate with the same binaries and inputs (ci/gate --no-cache runs them)")
    # --strict judges the presets run and those carried over: a column whose preset was
    # neither (the user chose --presets) is not run, and does not fail the gate.
    print(f"verdict: {n_pass} passed, {n_fail} FAILED, {n_na} not applied"
          + (f", {n_unrun} not run" if n_unrun else "")
          + (f"; {n_star} passed cell{' is' if n_star == 1 else 's are'} passed* (a check"
             " did not apply: listed above)" if n_star else "")
          + (" (--strict: a check not applied fails" + ("; one not run does not"
                                                        if n_unrun else "") + ")"
             if strict and (n_na or notes) else ""))
    bad = n_fail + ((n_na + len(notes)) if strict else 0)
    print(f"gate: {n_pass} passed, {bad} failed")
    err = setup_error(setup)
    if err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    return 1 if bad else 0


STARTED = re.compile(r"^\s*Start\s+(\d+): (\S+)", re.M)  # ctest's line as a test starts


def started_tests(log: Path) -> list:
    """The tests a ctest's output (junit.log) shows started."""
    try:
        return [name for _, name in STARTED.findall(log.read_text(errors="replace"))]
    except OSError:
        return []


def stopped_ctest(d: Path) -> tuple[str, str]:
    """Why a preset's ctest left no junit.xml, and the log to read: its output
    (junit.log), naming the test that had started and not ended (a ctest killed
    from outside ends there, and the shell's "Terminated" is not in the log)."""
    log = d / "junit.log"
    try:
        text = log.read_text(errors="replace")
    except OSError:
        return "no results (ctest wrote no junit.xml, nor any output)", str(d)
    started = STARTED.findall(text)
    ended = set(re.findall(r"^\s*\d+/\d+ Test\s+#(\d+): ", text, re.M))
    running = [name for n, name in started if n not in ended]
    if not running:
        return "no results (ctest wrote no junit.xml)", str(log)
    return (f"no results: ctest stopped (killed, or it crashed) while {running[-1]} ran, "
            f"and wrote no junit.xml; run the gate again", str(log))


def setup_error(setup) -> str:
    """The one-line reason of a set-up error (exit 2, not a port's failure): a configure
    that failed (a subject spec whose header, type or dirs CMake rejects, a missing tool), or
    a build whose first error is in the subject header ci/gate generates from the spec (its
    TYPE names no template of the port). "" when every stage failure is the port's."""
    errs = []
    for preset, what, why, log, *_ in setup:
        if what == "configure":
            errs.append(f"preset {preset}: configure failed (the set-up or a subject spec, "
                        f"not the port): {why} (log: {log})")
        # (the path may be relative: ccache's CCACHE_BASEDIR rewrites those under the tree)
        elif what == "build" and re.search(r"(^|/)runqcheck_subjects/", why.split(" error:")[0]):
            errs.append(f"preset {preset}: the subject spec's TYPE or HEADER does not "
                        f"compile as a subject: {why} (log: {log})")
    more = f" (and {len(errs) - 1} more presets)" if len(errs) > 1 else ""
    return errs[0] + more if errs else ""


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
