#!/usr/bin/python3
"""A failing explore run draws its execution, and its replay draws it again.

Runs BINARY (explore__mutants) with RUNQCHECK_MUTANT=MUTANT on SCENARIO under
MODEL (rc11 unless given), with RUNQCHECK_FAILURE_DIR=OUTDIR, and checks that
  - it fails (exit 1) and prints `picture: <abs path>` right after `replay:`;
  - the page holds the trace (runqcheck-trace 1): the failure is its last
    row, some reads name the write they read (rf edges), every rf names an
    earlier write to the same object;
  - the replay line, run as printed, fails again and writes the same page,
    byte for byte (the same trace);
  - under sc, the rows are in an SC order: each read reads the last write of
    its object above it (none: the initial value), as a page drawn in the
    replay's order of po and rf would not always have it;
  - (rc11) the page renders: fuzz/explain/check_dom.py in headless Chromium (rows,
    reads-from arrows, the failing row). Without chromium: exit 77 (skipped)
    once everything else has passed.

usage: picture_test.py BINARY OUTDIR MUTANT SCENARIO [sc|rc11]
"""
import json
import os
import shlex
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK_DOM = os.path.join(HERE, "..", "..", "fuzz", "explain", "check_dom.py")


def fail(msg):
    print(f"picture_test: FAILED: {msg}")
    sys.exit(1)


def run(argv, env):
    p = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout + p.stderr


def trace_of(page):
    with open(page, encoding="utf-8") as f:
        text = f.read()
    at = text.find('{"format":"runqcheck-trace"')
    if at < 0:
        fail(f"{page}: no runqcheck-trace JSON in the page")
    return json.JSONDecoder().raw_decode(text[at:])[0]


def sc_order(ev, writes):
    """Each read row reads the last write of its object in the rows above it."""
    reads = ("load", "read", "rmw", "cas_fail", "lock", "weak_cas", "spurious_fail")
    last = {}
    for e in ev:
        if e["kind"] in reads and e["rf"] != last.get(e["obj"]):
            fail(f"row {e['id']} ({e['kind']} of {e['obj']}) reads "
                 f"{'the initial value' if e['rf'] is None else 'row %d' % e['rf']}, but row "
                 f"{last.get(e['obj'])} wrote it last above it: the rows are not in an SC order")
        if e["kind"] in writes:
            last[e["obj"]] = e["id"]


def main(argv):
    if len(argv) not in (4, 5):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    binary, outdir, mutant, scenario = os.path.abspath(argv[0]), argv[1], argv[2], argv[3]
    model = argv[4] if len(argv) == 5 else "rc11"
    shutil.rmtree(outdir, ignore_errors=True)
    os.makedirs(outdir)
    env = {"PATH": "/usr/bin:/bin", "RUNQCHECK_MUTANT": mutant, "RUNQCHECK_CASE": scenario,
           "RUNQCHECK_FAILURE_DIR": outdir}
    rc, out = run([binary, model], env)
    lines = out.splitlines()
    if rc != 1:
        fail(f"exit {rc}, want 1 (the mutant fails):\n{out}")
    idx = [i for i, ln in enumerate(lines) if ln.startswith("replay: ")]
    if len(idx) != 1 or idx[0] + 1 >= len(lines) or not lines[idx[0] + 1].startswith("picture: /"):
        fail(f"want one `replay:` line followed by `picture: <abs path>`:\n{out}")
    replay = lines[idx[0]][len("replay: "):]
    page = lines[idx[0] + 1][len("picture: "):].split("  ")[0]
    if not os.path.isfile(page):
        fail(f"the page {page} is missing")
    first = open(page, "rb").read()
    t = trace_of(page)
    ev = t["events"]
    if t.get("verdict") != "fail" or t["failure"]["event"] != len(ev) - 1:
        fail(f"the trace's failure is not its last row: {t['failure']}")
    if ev[-1]["kind"] != "check" or not ev[-1]["text"]:
        fail(f"the last row is not the failure: {ev[-1]}")
    edges = [e for e in ev if e["rf"] is not None]
    if not edges:
        fail("no reads-from edge in the trace")
    writes = ("store", "rmw", "write", "unlock", "lock")
    for e in edges:
        w = ev[e["rf"]]
        if e["rf"] >= e["id"] or w["kind"] not in writes or w["obj"] != e["obj"]:
            fail(f"row {e['id']} reads from row {e['rf']}, not an earlier write of {e['obj']}: {w}")
    if model == "sc":
        sc_order(ev, writes)
    # An object is named by what it is: one that an atomic access touches is an
    # atomic (named at its first access, which may be a plain read: load_plain).
    atomic_kinds = ("load", "store", "rmw", "cas_fail", "weak_cas", "spurious_fail")
    for e in ev:
        if e.get("kind") in atomic_kinds and e.get("obj", "").split("@")[0].split(" ")[-1] \
                .startswith("var"):
            fail(f"row {e['id']}, an atomic {e['kind']}, names its object a var: {e['obj']}")
    # The replay line as printed (RUNQCHECK_MUTANT=... BINARY replay ...).
    words = shlex.split(replay)
    renv = dict(env)
    del renv["RUNQCHECK_CASE"]
    while words and "=" in words[0] and not words[0].startswith("/"):
        k, _, v = words.pop(0).partition("=")
        renv[k] = v
    os.remove(page)
    rc, rout = run(words, renv)
    if rc != 1:
        fail(f"the replay exited {rc}, want 1:\n{rout}")
    if not os.path.isfile(page) or open(page, "rb").read() != first:
        fail(f"the replay did not write the same page {page}:\n{rout}")
    if model == "sc":  # the page's rendering: the rc11 runs' check
        print(f"picture_test: ok: {page}: {len(ev)} rows in an SC order, {len(edges)} rf edges, "
              f"replayed identically")
        return 0
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which(
        "chromium-browser")
    if chromium is None:
        print(f"picture_test: ok without the DOM check (no chromium): {page}, {len(ev)} rows, "
              f"{len(edges)} rf edges")
        return 77
    tj = os.path.join(outdir, "trace.json")
    with open(tj, "w", encoding="utf-8") as f:
        json.dump(t, f)
    rc, dom = run([sys.executable, CHECK_DOM, tj, page], dict(os.environ))
    if rc != 0:
        fail(f"check_dom: {dom.strip()}")
    print(f"picture_test: ok: {page}: {len(ev)} rows, {len(edges)} rf edges, replayed identically; "
          f"{dom.strip()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
