#!/usr/bin/python3
"""A failing Relacy scenario run draws its counterexample.

Runs the scenario binary of a subject that must fail (examples/weak_port) on
one scenario, random and bounded search, with RUNQCHECK_FAILURE_DIR=OUTDIR,
and checks for each that
  - it fails (exit 1) and prints `picture: <abs path>` right after `replay:`;
  - the page and its .replay file exist; the .replay file names this binary
    and holds the replay line;
  - that replay command fails again (exit 1);
  - `<binary> explain MODE STATE --html --json` redraws a byte-identical page;
  - the page renders: fuzz/explain/check_dom.py in headless Chromium (rows,
    reads-from arrows, the failing row). Without chromium: exit 77 (skipped)
    once everything else has passed.

Options (the wakeup protocol's binary, tests/relacy/protocol.cpp):
  --mutant M       RUNQCHECK_MUTANT=M; the files' names end in __M
  --subject NAME   the subject in the files' names (default: the binary's
                   name after its last "__")
  --objects A,B    these objects must be named in the trace (its "obj"s)
  --runqcheck CLI  also `CLI replay FILE.replay` must fail again (exit 1)

usage: picture_test.py BINARY OUTDIR SCENARIO [options]
"""
import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK_DOM = os.path.join(HERE, "..", "..", "fuzz", "explain", "check_dom.py")


def fail(msg):
    print(f"picture_test: {msg}")
    sys.exit(1)


def run(argv, env, timeout=300):
    p = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout + p.stderr


def read_replay(path):
    fields = {}
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines[0] != "runqcheck-replay 1":
        fail(f"{path}: first line {lines[0]!r}, want 'runqcheck-replay 1'")
    for line in lines[1:]:
        if line:
            k, _, v = line.partition(" ")
            fields[k] = v
    return fields


def main():
    ap = argparse.ArgumentParser()
    for a in ("binary", "outdir", "scenario"):
        ap.add_argument(a)
    for o in ("--mutant", "--subject", "--objects", "--runqcheck"):
        ap.add_argument(o)
    a = ap.parse_args()
    shutil.rmtree(a.outdir, ignore_errors=True)
    base = os.path.basename(a.binary)
    rc = 0
    for search, suffix, mode in ((["random", "10000"], "", "random"),
                                 (["bound", "2"], "_bound2", "bound:2")):
        rc = check_search(a, search, base.split("__")[0] + suffix, mode)
    print("2 passed, 0 failed" if rc == 0 else "2 passed, 0 failed (page rendering skipped)")
    return rc


def check_search(a, search, checker, mode):
    binary, outdir, scenario = a.binary, a.outdir, a.scenario
    env = {"PATH": "/usr/bin:/bin", "RUNQCHECK_CASE": scenario, "RUNQCHECK_FAILURE_DIR": outdir}
    if a.mutant:
        env["RUNQCHECK_MUTANT"] = a.mutant
    rc, out = run([binary, *search], env)
    lines = out.splitlines()
    replay = [i for i, l in enumerate(lines) if l.startswith("replay: ")]
    if rc != 1 or not replay:
        fail(f"{scenario} did not fail with a replay line (exit {rc})")
    i = replay[0]
    if i + 1 >= len(lines) or not lines[i + 1].startswith("picture: "):
        fail(f"no 'picture:' line after the replay line: {lines[i + 1:i + 2]}")
    html = lines[i + 1][len("picture: "):]
    print(lines[i])
    print(lines[i + 1])
    if not os.path.isabs(html) or not os.path.isfile(html):
        fail(f"the picture {html!r} is not an existing absolute path")
    subject = a.subject or os.path.basename(binary).split("__")[-1]
    tail = "__" + a.mutant.replace(":", "-").replace("/", "-") if a.mutant else ""
    want = f"{checker}__{subject}__{scenario}{tail}.html"
    if os.path.basename(html) != want:
        fail(f"the picture is named {os.path.basename(html)}, want {want}")
    rfile = html[:-len(".html")] + ".replay"
    if not os.path.isfile(rfile):
        fail(f"no replay file {rfile}")
    r = read_replay(rfile)
    if os.path.realpath(r.get("binary", "")) != os.path.realpath(binary):
        fail(f"{rfile}: binary {r.get('binary')!r}, want {binary}")
    if r.get("case") != scenario or r.get("mode") != mode or not r.get("state", "").strip():
        fail(f"{rfile}: case/mode/state wrong: {r}")
    if r.get("mutant") != a.mutant:
        fail(f"{rfile}: mutant {r.get('mutant')!r}, want {a.mutant!r}")

    # The recorded command reproduces the failure.
    words = shlex.split(r["command"])
    renv = {"PATH": env["PATH"]}
    while words and "=" in words[0] and not words[0].startswith("/"):
        k, v = words.pop(0).split("=", 1)
        renv[k] = v
    rc, rout = run(words, renv)
    if rc != 1:
        fail(f"the replay command of {rfile} did not fail again (exit {rc})")
    print("replay: fails again")
    if a.runqcheck:
        rc, cout = run([a.runqcheck, "replay", rfile], {"PATH": env["PATH"]})
        if rc != 1:
            fail(f"runqcheck replay {rfile} did not fail again (exit {rc}): {cout[-300:]}")
        print("runqcheck replay FILE.replay: fails again")

    # explain redraws the same page.
    page2 = os.path.join(outdir, checker + ".explain.html")
    trace = os.path.join(outdir, checker + ".explain.json")
    rc, eout = run([binary, "explain", r["mode"], r["state"], "--html", page2, "--json", trace],
                   renv)
    if rc != 0:
        fail(f"explain exited {rc}: {eout.strip()}")
    with open(html, "rb") as x, open(page2, "rb") as y:
        if x.read() != y.read():
            fail(f"explain drew {page2}, which differs from the failing run's {html}")
    print("explain:", eout.strip().splitlines()[0])
    with open(html, encoding="utf-8") as f:
        text = f.read()
    if f'"scenario":"{scenario}"' not in text or '"verdict":"fail"' not in text:
        fail(f"{html}: the embedded trace does not name the scenario or its failure")
    with open(trace, encoding="utf-8") as f:
        tr = json.load(f)
    named = {e["obj"] for e in tr["events"]}
    missing = [o for o in (a.objects or "").split(",") if o and o not in named]
    if missing:
        fail(f"{trace}: objects not named in the trace: {missing}")
    print("failure:", tr["failure"]["message"])

    if shutil.which("chromium") is None and "CHROMIUM" not in os.environ:
        print("chromium not installed: page not rendered (skipped)")
        return 77
    p = subprocess.run([sys.executable, CHECK_DOM, trace, html], capture_output=True, text=True,
                       timeout=300)
    print(p.stdout.strip())
    if p.returncode != 0:
        fail("the page did not render as its trace says")
    return 0


if __name__ == "__main__":
    sys.exit(main())
