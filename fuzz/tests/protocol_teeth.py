#!/usr/bin/env python3
"""fuzz_protocol's teeth: a protocol mutant must fail a bounded fuzz.

Usage: protocol_teeth.py FUZZ_PROTOCOL_MUTANT CORPUS WORKDIR MUTANT RUNS

Fuzzes a copy of CORPUS with RUNQCHECK_MUTANT=MUTANT for at most RUNS inputs
(-seed=1; -len_control=0 -max_len=128: the one-byte seeds grow to whole
interleavings at once, not a few bytes per thousand runs): the run must
fail with an `invariant:` message, the port's own throw (`fatal error:`,
Go's check, e.g. "startm: m has p") or Relacy's data-race verdict (a plain
field such as mp.p written by two threads unordered: syscall_steal_no_scan_bit)
and a `reproduce with:` line; the crash
file it wrote, run as that line says, must fail twice more with the same
message (determinism). Exit 0 when all hold, else 1 with
one line saying what did not.
"""
import os
import re
import shutil
import subprocess
import sys


def run(cmd, env):
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, errors="replace", timeout=110)
    return p.returncode, p.stdout


def failure(out):
    m = re.search(r"^runqcheck: protocol scenario (\S+): "
                  r"(.*(?:invariant|fatal error): .*|relacy: DATA RACE.*)$", out, re.M)
    return m.group(0) if m else None


def main():
    if len(sys.argv) != 6:
        print(__doc__.strip().splitlines()[2])
        return 2
    binary, corpus, work, mutant, runs = sys.argv[1:]
    shutil.rmtree(work, ignore_errors=True)
    copy, art = os.path.join(work, "corpus"), os.path.join(work, "crash")
    shutil.copytree(corpus, copy)
    env = dict(os.environ, RUNQCHECK_MUTANT=mutant)
    rc, out = run([binary, copy, "-runs=" + runs, "-seed=1", "-len_control=0", "-max_len=128",
                   "-exact_artifact_path=" + art], env)
    first = failure(out)
    if rc == 0 or first is None or "runqcheck: reproduce with: RUNQCHECK_MUTANT=" not in out:
        print(f"FAIL: {mutant} not killed by an invariant, a throw or a data race"
              f" in {runs} runs (rc {rc})")
        print(out[-2000:])
        return 1
    print(first)
    print(re.search(r"^runqcheck: reproduce with: .*$", out, re.M).group(0))
    for i in range(2):
        rc, again = run([binary, art], env)
        if rc == 0 or failure(again) != first:
            print(f"FAIL: replay {i + 1} of {art}: rc {rc}, {failure(again)!r} != {first!r}")
            return 1
    print(f"replayed twice: same failure ({art})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
