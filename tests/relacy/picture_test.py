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

usage: picture_test.py BINARY OUTDIR SCENARIO
"""
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
    binary, outdir, scenario = sys.argv[1:4]
    shutil.rmtree(outdir, ignore_errors=True)
    rc = 0
    for search, checker, mode in ((["random", "10000"], "relacy_scenarios", "random"),
                                  (["bound", "2"], "relacy_scenarios_bound2", "bound:2")):
        rc = check_search(binary, outdir, scenario, search, checker, mode)
    print("2 passed, 0 failed" if rc == 0 else "2 passed, 0 failed (page rendering skipped)")
    return rc


def check_search(binary, outdir, scenario, search, checker, mode):
    env = {"PATH": "/usr/bin:/bin", "RUNQCHECK_CASE": scenario, "RUNQCHECK_FAILURE_DIR": outdir}
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
    want = f"{checker}__{os.path.basename(binary).split('__')[-1]}__{scenario}.html"
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

    # explain redraws the same page.
    page2 = os.path.join(outdir, checker + ".explain.html")
    trace = os.path.join(outdir, checker + ".explain.json")
    rc, eout = run([binary, "explain", r["mode"], r["state"], "--html", page2, "--json", trace],
                   renv)
    if rc != 0:
        fail(f"explain exited {rc}: {eout.strip()}")
    with open(html, "rb") as a, open(page2, "rb") as b:
        if a.read() != b.read():
            fail(f"explain drew {page2}, which differs from the failing run's {html}")
    print("explain:", eout.strip().splitlines()[0])
    with open(html, encoding="utf-8") as f:
        text = f.read()
    if f'"scenario":"{scenario}"' not in text or '"verdict":"fail"' not in text:
        fail(f"{html}: the embedded trace does not name the scenario or its failure")

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
