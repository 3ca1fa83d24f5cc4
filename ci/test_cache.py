#!/usr/bin/python3
"""ci/gate's test-result cache: a check that passed is not run again while
nothing it runs has changed (as `go test` caches a package's passing result).

usage: test_cache.py plan [--no-reuse] DIR -- CTEST_ARGS...
         the tests `ctest --test-dir DIR CTEST_ARGS` would run, each with its
         key; prints a `ctest -E` regex of those whose key has a passing
         result on record ("" when none, or with --no-reuse; "ALL" when
         every one has).
       test_cache.py merge DIR
         after ctest (or instead of it, on "ALL"): records the passing results
         of DIR/junit.xml under their keys, forgets the failing ones, and adds
         the cached results to DIR/junit.xml (attribute cached="true", the
         output of the run that passed) and to DIR/junit.log.

A test's key hashes its command and CTest properties; the contents of every
file its command names (the checker binaries, scripts: relinked
but identical binaries keep the key, as after a `touch` of a port's header);
for files outside the build tree and runqcheck's tree (the interpreters,
qemu), their size and time; runqcheck's own tree but its prose (the scripts
a test calls by name, the corpora, the Go side of diff_go) and the Go
toolchains' versions; and the environment that steers checks
(RUNQCHECK_*, RC_PARAMS, GTEST_*, GO*, the sanitizers' options). A folder a
command names is not part of it (outputs, Go's cache; corpora are in the
tree).
Only passing results are kept, one per test, in DIR/test-cache/.

plan also empties DIR's folders of failure files (FAILURE_DIRS: pictures, replay files, saved
programs, crash inputs), which the run then fills with its own, and records what the tests'
binaries were built from: the contents of every source ninja's deps log lists for them,
when the build is up to date with those sources. merge keeps that record
beside junit.xml (DIR/test-cache/results.json), for a later gate that does not run DIR's
preset: carried() says whether the results still hold (ci/verdict.py --carry).
"""
import hashlib
import json
import os
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import ctest_files

VERSION = "runqcheck test cache 1"
ROOT = Path(__file__).resolve().parent.parent
ENV_PREFIXES = ("RUNQCHECK_", "RC_PARAMS", "GTEST_", "GO", "ASAN_", "TSAN_", "UBSAN_",
                "LSAN_", "MSAN_", "QEMU_")
# Not the checks' own: ci/gate's switches (--no-cache) and where Go's cache is.
ENV_IGNORED = {"RUNQCHECK_NO_CACHE", "RUNQCHECK_GOCACHE"}
PATH_RX = re.compile(r"/[^\s'\"=:;]+")
_digests = {}


def digest(p: Path) -> str:
    key = str(p)
    if key not in _digests:
        with open(p, "rb") as f:
            _digests[key] = hashlib.file_digest(f, "sha256").hexdigest()
    return _digests[key]


def file_digest(p: Path) -> str:
    """p's digest now (digest() keeps the first it took)."""
    return hashlib.sha256(p.read_bytes()).hexdigest()


def within(p: Path, d: Path) -> bool:
    try:
        p.relative_to(d)
        return True
    except ValueError:
        return False


def tree_files(root: Path):
    """runqcheck's own files: git's list (tracked and not ignored), or a walk."""
    try:
        out = subprocess.run(["git", "-C", str(root), "ls-files", "-co", "--exclude-standard",
                              "-z"], capture_output=True, check=True).stdout
        return sorted(root / n for n in out.decode().split("\0") if n)
    except (OSError, subprocess.CalledProcessError):
        pass
    found = []
    for d, subs, files in os.walk(root):
        subs[:] = sorted(s for s in subs if not s.startswith(("build", ".git", "__pycache__")))
        found += [Path(d) / f for f in sorted(files)]
    return found


def tree_stamp(root: Path) -> str:
    """runqcheck's tree but its prose (docs/, *.md): no check reads that;
    and the Go toolchains' VERSION files (diff_go finds its go by itself)."""
    h = hashlib.sha256()
    for v in sorted(Path("/usr/lib").glob("go-*/VERSION")):
        h.update(f"{v} {v.read_bytes()!r}\n".encode())
    for p in tree_files(root):
        rel = p.relative_to(root)
        if rel.parts[0] == "docs" or p.suffix == ".md":
            continue
        if p.is_file():
            h.update(f"{rel}\0{digest(p)}\n".encode())
    return h.hexdigest()


def path_part(p: Path, outputs: Path) -> str:
    """What a file a command names adds to the key. A folder adds nothing:
    runqcheck's (a corpus) are in the tree's stamp, the others are outputs
    or caches (reports, Go's build cache)."""
    if not p.is_file():
        return ""
    if within(p, outputs) or within(p, ROOT):
        return f"{p} {digest(p)}"
    st = p.stat()
    return f"{p} {st.st_size} {st.st_mtime_ns}"


def key_of(test: dict, outputs: Path, stamp: str) -> str:
    h = hashlib.sha256(f"{VERSION}\n{stamp}\n".encode())
    props = sorted((p["name"], json.dumps(p["value"], sort_keys=True))
                   for p in test.get("properties", []))
    h.update(json.dumps([test["name"], test.get("command", []), props]).encode())
    env = sorted((k, v) for k, v in os.environ.items()
                 if k.startswith(ENV_PREFIXES) and k not in ENV_IGNORED)
    h.update(json.dumps(env).encode())
    for word in test.get("command", []):
        for tok in [word] + PATH_RX.findall(word):
            if tok.startswith("/"):
                h.update(path_part(Path(tok), outputs).encode())
    return h.hexdigest()


def cache_dir(d: Path) -> Path:
    return d / "test-cache"


def load(d: Path) -> dict:
    try:
        return json.loads((cache_dir(d) / "entries.json").read_text())
    except (OSError, ValueError):
        return {}


def save(d: Path, name: str, data) -> None:
    cache_dir(d).mkdir(exist_ok=True)
    tmp = cache_dir(d) / (name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1))
    tmp.replace(cache_dir(d) / name)


# The folders (below a build dir) where the checks write a failure's files.
FAILURE_DIRS = ("failures", "weak_memory", "fuzz_artifacts")
RESULTS = "results.json"  # the record of a run's results: what they were run on


def clear_failures(d: Path) -> None:
    """Removes the files (not the folders: libFuzzer needs its own) an earlier run left in
    d's FAILURE_DIRS: a picture there is then one of this run's failures."""
    for name in FAILURE_DIRS:
        for p in sorted((d / name).rglob("*")):
            if p.is_file() or p.is_symlink():
                p.unlink()


# `ninja -t deps`: an output's entry, then its deps indented.
DEPS_ENTRY = re.compile(r"^(\S.*): #deps \d+, deps mtime \d+ \((VALID|STALE)\)$")


def sources(d: Path, tests) -> tuple:
    """({file: digest}, ""): every source the tests' binaries (d/bin/NAME) were compiled
    from, as ninja's deps log lists them (paths as it writes them, from d), when each is
    older than what was compiled from it (ninja's test; not `ninja -n`, which CMake's glob
    check always finds work for); else (None, why)."""
    bins = sorted({f"bin/{b}" for t in tests
                   for b in ctest_files.binaries(str(d), t.get("command", []))})
    if not bins:
        return {}, ""
    run = lambda *a: subprocess.run(["ninja", "-C", str(d), *a], capture_output=True,
                                    text=True)
    try:
        inputs = run("-t", "inputs", *bins)
        deps = run("-t", "deps", *bins, *inputs.stdout.split())
    except OSError:
        return None, "run where no ninja could list its sources"
    if inputs.returncode or deps.returncode:
        return None, "run on a build ninja could not read"
    got, built = {}, None
    try:
        for ln in deps.stdout.splitlines():
            if m := DEPS_ENTRY.match(ln):
                built = (d / m.group(1)).stat().st_mtime_ns if m.group(2) == "VALID" else -1
            elif ln.startswith("    ") and built is not None:
                f = ln.strip()
                if (d / f).stat().st_mtime_ns > built:
                    return None, ("run on binaries older than their sources (an edit during "
                                  "its gate)")
                got[f] = digest(d / f)
    except OSError as e:
        return None, f"run on a build whose file {e.filename} is gone"
    return got, ""


def record(d: Path):
    """The record of build dir d's results (merge's), or None."""
    try:
        return json.loads((cache_dir(d) / RESULTS).read_text())
    except (OSError, ValueError):
        return None


def cmake_cache(d: Path) -> dict:
    """{NAME: value} of d's CMakeCache.txt."""
    try:
        text = (d / "CMakeCache.txt").read_text(errors="replace")
    except OSError:
        return {}
    return dict(re.findall(r"^([A-Za-z_][\w.+-]*)(?::[A-Z_]+)?=(.*)$", text, re.M))


def carried(d: Path, configured=()):
    """Whether the results an earlier gate left in build dir d (junit.xml) hold for what is
    on disk now: None when it left none, "" when they hold, else why not (ci/verdict.py
    writes "its preset was <why>; run it again"). They hold when they are the ones merge
    recorded, d is configured with each of configured (ci/gate's -DNAME=VALUE), every
    source of its tests' binaries has the contents it had when they ran, and every test
    has the key it ran with (the same keys as plan's)."""
    if (d / "stage-failed").is_file():
        return "not built in its last gate"
    if not (d / "junit.xml").is_file():
        return None
    rec = record(d)
    if rec is None:
        return "run by a gate that recorded no sources (an older runqcheck)"
    if file_digest(d / "junit.xml") != rec.get("junit"):
        return "run again since, outside the gate (its results are not the recorded ones)"
    cache = cmake_cache(d)
    for a in configured:
        name, _, value = a.removeprefix("-D").partition("=")
        if cache.get(name) != value:
            return f"configured for other subjects or options ({name})"
    if rec.get("sources") is None:
        return rec.get("why") or "run on sources it did not record"
    for f, was in rec["sources"].items():
        try:
            same = digest(d / f) == was
        except OSError:
            same = False
        if not same:
            return f"run on other sources ({os.path.normpath(d / f)} changed)"
    stamp = tree_stamp(ROOT)
    if stamp != rec.get("stamp"):
        return f"run with other files of runqcheck ({ROOT}: a script, a checker's source)"
    r = subprocess.run(["ctest", "--test-dir", str(d), "--show-only=json-v1", *rec["args"]],
                       capture_output=True, text=True)
    tests = json.loads(r.stdout).get("tests", []) if r.returncode == 0 else []
    now = {t["name"]: key_of(t, d.resolve().parent, stamp) for t in tests}
    for name in sorted(set(now) | set(rec["keys"])):
        if now.get(name) != rec["keys"].get(name):
            return (f"run on other inputs ({name}: its binary, command, a file it names or "
                    "the environment)")
    return ""


def cmake_regex_escape(s: str) -> str:
    return re.sub(r"([][.*+?^$|()\\])", r"\\\1", s)


def plan(d: Path, ctest_args, reuse=True) -> int:
    (cache_dir(d) / "plan.json").unlink(missing_ok=True)
    (cache_dir(d) / RESULTS).unlink(missing_ok=True)
    clear_failures(d)
    r = subprocess.run(["ctest", "--test-dir", str(d), "--show-only=json-v1", *ctest_args],
                       capture_output=True, text=True)
    if r.returncode != 0:
        print(f"test_cache.py: ctest --show-only failed: {r.stderr.strip()[:200]}",
              file=sys.stderr)
        return 2
    tests = json.loads(r.stdout).get("tests", [])
    stamp = tree_stamp(ROOT)
    outputs = d.resolve().parent
    keys = {t["name"]: key_of(t, outputs, stamp) for t in tests}
    entries = load(d)
    cached = sorted(n for n, k in keys.items()
                    if reuse and entries.get(n, {}).get("key") == k)
    built, why = sources(d, tests)
    save(d, "plan.json", {"keys": keys, "cached": cached, "args": list(ctest_args),
                          "stamp": stamp,
                          # the columns run (ci/gate --columns), None: all
                          "columns": os.environ.get("RQ_COLUMNS", "").split() or None,
                          "sources": built, "why": why})
    if cached and len(cached) == len(keys):
        print("ALL")
    elif cached:
        print("^(" + "|".join(cmake_regex_escape(n) for n in cached) + ")$")
    else:
        print("")
    return 0


def passed(tc) -> bool:
    return (tc.get("status") == "run" and tc.find("failure") is None
            and tc.find("error") is None and tc.find("skipped") is None)


def merge(d: Path) -> int:
    try:
        p = json.loads((cache_dir(d) / "plan.json").read_text())
    except (OSError, ValueError):
        print(f"test_cache.py: no plan in {cache_dir(d)} (run plan first)", file=sys.stderr)
        return 2
    keys, cached = p["keys"], p["cached"]
    entries = load(d)
    junit = d / "junit.xml"
    fresh = not cached or len(cached) < len(keys)
    if fresh and not junit.exists():
        return 0  # ctest wrote nothing: the verdict says so, cached results or not
    if fresh:
        tree = ET.parse(junit)
        suite = tree.getroot()
    else:
        suite = ET.Element("testsuite", {"name": "(empty)", "tests": "0", "failures": "0",
                                         "disabled": "0", "skipped": "0", "hostname": "",
                                         "time": "0", "timestamp":
                                         time.strftime("%Y-%m-%dT%H:%M:%S")})
        tree = ET.ElementTree(suite)
    ran = 0
    for tc in suite.iter("testcase"):
        name = tc.get("name", "")
        ran += 1
        if name not in keys:
            continue
        if passed(tc):
            entries[name] = {"key": keys[name], "testcase": ET.tostring(tc, encoding="unicode"),
                             "when": time.strftime("%Y-%m-%d %H:%M:%S")}
        else:
            entries.pop(name, None)
    lines = []
    for name in cached:
        tc = ET.fromstring(entries[name]["testcase"])
        tc.set("cached", "true")
        out = tc.find("system-out")
        if out is None:
            out = ET.SubElement(tc, "system-out")
        out.text = (f"cached: passed at {entries[name]['when']} with the same binaries and "
                    "inputs (ci/gate --no-cache runs it again)\n" + (out.text or ""))
        suite.append(tc)
        lines.append(f"    Test: {name} ... Passed (cached: {entries[name]['when']})")
    total = ran + len(cached)
    suite.set("tests", str(total))
    tree.write(junit, encoding="UTF-8", xml_declaration=True)
    save(d, "entries.json", {n: e for n, e in entries.items() if n in keys})
    save(d, RESULTS, dict(p, junit=file_digest(junit), when=time.strftime("%Y-%m-%d %H:%M:%S")))
    failed = sum(1 for tc in suite.iter("testcase")
                 if tc.find("failure") is not None or tc.get("status") == "fail")
    if cached:
        log = d / "junit.log"
        with open(log, "a" if fresh else "w") as f:
            f.write("\nNot run again (cached results of identical checks):\n")
            f.write("\n".join(lines) + "\n\n")
            pct = 100 * (total - failed) // max(total, 1)
            f.write(f"{pct}% tests passed, {failed} tests failed out of {total} "
                    f"({len(cached)} cached)\n")
    return 0


def main(argv) -> int:
    if argv[:1] == ["plan"]:
        rest = argv[1:]
        reuse = rest[:1] != ["--no-reuse"]
        rest = rest if reuse else rest[1:]
        if rest and rest[0] != "--":
            tail = rest[2:] if rest[1:2] == ["--"] else rest[1:]
            return plan(Path(rest[0]), tail, reuse)
    if len(argv) == 2 and argv[0] == "merge":
        return merge(Path(argv[1]))
    print("usage: test_cache.py plan [--no-reuse] DIR -- CTEST_ARGS... | merge DIR",
          file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
