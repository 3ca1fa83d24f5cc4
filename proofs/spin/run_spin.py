#!/usr/bin/python3
"""Build and run one SPIN verification of a proofs/spin model (issue #7).

The model is copied into --workdir (a build directory, never the source
tree); spin -a, the C compiler and pan all run there.  Prints the settings,
pan's counts (states stored, transitions), time and memory, and one verdict
line.

Without --ltl the run is a safety run (assertions and invalid end states,
pan built with -DSAFETY -DNOCLAIM); with --ltl NAME it checks that claim
(acceptance cycles, pan -a -N NAME, -f with --fair).

  --expect pass       exit 0 iff pan reports errors: 0, the search was not
                      truncated (max search depth) and, with --cover, no
                      statement of the named proctypes was unreached.
  --expect violation  exit 0 iff pan reports an error AND wrote a trail; the
                      trail is replayed with spin -t and its tail printed,
                      so the log shows the counterexample.  (This is how
                      the bug variants are tested: the test passes only when
                      the tool refutes the variant.)

Example:
  run_spin.py --model proofs/spin/ring.pml --workdir /tmp/w --expect pass \\
      -D NG=5 -D PREFILL=3 --collapse --cover Owner,Thief
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import time


def sh(cmd, cwd, timeout):
    t0 = time.monotonic()
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=timeout)
    return p.returncode, p.stdout, time.monotonic() - t0


def grab(pattern, text, conv=float):
    m = re.search(pattern, text, re.M)
    return conv(m.group(1)) if m else None


def unreached(out, procs):
    """Statements pan lists as unreached for the given proctypes."""
    missing = {}
    for m in re.finditer(r"^unreached in (?:proctype|init) ?(\S*)\n((?:\t.*\n)*)", out, re.M):
        name = m.group(1) or "init"
        if name not in procs:
            continue
        lines = [l.strip() for l in m.group(2).splitlines()
                 if l.strip() and not l.strip().startswith("(")]
        if lines:
            missing[name] = lines
    return missing


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--expect", choices=["pass", "violation"], required=True)
    ap.add_argument("-D", dest="defines", action="append", default=[],
                    help="model macro, NAME or NAME=VALUE")
    ap.add_argument("--ltl", help="check this ltl claim (pan -a -N NAME)")
    ap.add_argument("--fair", action="store_true", help="weak fairness (pan -f), with --ltl")
    ap.add_argument("--collapse", action="store_true",
                    help="compile pan with -DCOLLAPSE (lossless)")
    ap.add_argument("--cc-flag", action="append", default=[], help="extra pan compile flag")
    ap.add_argument("--depth", type=int, default=1000000, help="pan -m (search depth bound)")
    ap.add_argument("--cover", default="", help="comma list of proctypes that must have no "
                    "unreached statements (with --expect pass)")
    ap.add_argument("--spin", default=os.environ.get("SPIN", "spin"))
    ap.add_argument("--cc", default=os.environ.get("CC_PAN", "gcc"))
    ap.add_argument("--timeout", type=int, default=240, help="seconds for pan")
    ap.add_argument("--name", default=None, help="label for the verdict line")
    a = ap.parse_args(argv)

    name = a.name or os.path.basename(a.model)
    for tool in (a.spin, a.cc):
        if shutil.which(tool) is None:
            print("%s: FAIL: %s not found (install spin and gcc)" % (name, tool))
            return 1

    os.makedirs(a.workdir, exist_ok=True)
    base = os.path.basename(a.model)
    for f in os.listdir(a.workdir):          # a clean slate: stale pan or trail files mislead
        if f.startswith("pan") or f.endswith(".trail") or f == base or f == "_spin_nvr.tmp":
            os.remove(os.path.join(a.workdir, f))
    shutil.copy(a.model, os.path.join(a.workdir, base))

    dflags = ["-D" + d for d in a.defines]
    ccflags = ["-O2", "-w", "-DNFAIR=3"] + a.cc_flag
    if not a.ltl:                            # safety run: ltl blocks in the model are ignored
        ccflags += ["-DSAFETY", "-DNOCLAIM"]
    if a.collapse:
        ccflags.append("-DCOLLAPSE")
    panargs = ["-m%d" % a.depth]
    if a.ltl:
        panargs += ["-a", "-N", a.ltl]
        if a.fair:
            panargs.append("-f")

    print("model   : %s %s" % (base, " ".join(dflags)))
    print("check   : %s" % ("ltl %s%s" % (a.ltl, " (weak fairness)" if a.fair else "") if a.ltl
                           else "safety (assertions, invalid end states)"))
    print("pan     : %s %s ; ./pan %s" % (a.cc, " ".join(ccflags), " ".join(panargs)))
    print("workdir : %s" % a.workdir)
    sys.stdout.flush()

    rc, out, _ = sh([a.spin] + dflags + ["-a", base], a.workdir, 120)
    if rc != 0:
        print(out)
        print("%s: FAIL: spin -a failed (rc %d)" % (name, rc))
        return 1
    rc, out, _ = sh([a.cc] + ccflags + ["-o", "pan", "pan.c"], a.workdir, 300)
    if rc != 0:
        print(out)
        print("%s: FAIL: compiling pan failed (rc %d)" % (name, rc))
        return 1
    try:
        rc, out, wall = sh(["./pan"] + panargs, a.workdir, a.timeout)
    except subprocess.TimeoutExpired:
        print("%s: FAIL: pan did not finish in %d s" % (name, a.timeout))
        return 1

    errors = grab(r"errors: (\d+)", out, int)
    stored = grab(r"^\s*([\d.e+]+) states, stored", out)
    trans = grab(r"^\s*([\d.e+]+) transitions", out)
    mem = grab(r"^\s*([\d.]+)\s+total actual memory usage", out)
    el = grab(r"pan: elapsed time ([\d.e+]+)", out)
    vec = grab(r"State-vector (\d+) byte", out, int)
    depth = grab(r"depth reached (\d+)", out, int)
    for line in out.splitlines():
        if line.startswith("pan:") and "elapsed" not in line and "rate" not in line:
            print(line)
    print("result  : errors %s, %s states stored, %s transitions, depth %s, state vector %s B, "
          "%.1f MB, pan %.2f s (wall %.2f s)" % (
              errors, "%d" % stored if stored is not None else "?",
              "%d" % trans if trans is not None else "?", depth, vec,
              mem or 0.0, el or 0.0, wall))

    if errors is None:
        print(out[-3000:])
        print("%s: FAIL: could not read pan's result (rc %d)" % (name, rc))
        return 1

    if a.expect == "pass":
        problems = []
        if errors != 0:
            problems.append("pan found %d error(s)" % errors)
        if "max search depth too small" in out:
            problems.append("search truncated: max search depth too small (raise --depth)")
        if "Search not completed" in out and errors == 0:
            problems.append("search not completed")
        procs = [p for p in a.cover.split(",") if p]
        if procs:
            miss = unreached(out, procs)
            for p, lines in miss.items():
                problems.append("unreached code in %s: %s" % (p, "; ".join(lines[:5])))
        if problems:
            trail = os.path.join(a.workdir, base + ".trail")
            if os.path.exists(trail):
                _, tout, _ = sh([a.spin] + dflags + ["-t", "-p", base], a.workdir, 120)
                print("---- trail (last 60 lines) ----")
                print("\n".join(tout.splitlines()[-60:]))
            print("%s: FAIL: %s" % (name, "; ".join(problems)))
            return 1
        print("%s: PASS: no errors, exhaustive%s" % (
            name, (", every statement of %s reached" % ", ".join(procs)) if procs else ""))
        return 0

    # expect violation
    trail = os.path.join(a.workdir, base + ".trail")
    if errors == 0 or not os.path.exists(trail):
        print("%s: FAIL: expected SPIN to find a counterexample, but it reported errors: %s%s "
              "(the variant is no longer refuted: the model lost its teeth)" % (
                  name, errors, "" if os.path.exists(trail) else ", no trail"))
        return 1
    _, tout, _ = sh([a.spin] + dflags + ["-t", "-p", base], a.workdir, 120)
    tl = tout.splitlines()
    steps = [l for l in tl if re.match(r"\s*\d+:\s+proc", l)]
    tail = tl[next((i for i, l in enumerate(tl) if "trail ends" in l or "START OF CYCLE" in l),
                   len(tl)):]
    print("---- counterexample: last 30 of %d steps (full: cd %s && spin %s -t -p %s) ----" % (
        len(steps), a.workdir, " ".join(dflags), base))
    print("\n".join(steps[-30:]))
    print("---- end of trail / cycle ----")
    print("\n".join(tail[:60]))
    what = [l for l in out.splitlines() if re.match(r"pan:\d+:", l)]
    print("%s: PASS: counterexample found as expected (%s)" % (name, what[0] if what else "error"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
