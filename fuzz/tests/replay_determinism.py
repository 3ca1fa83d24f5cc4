#!/usr/bin/python3
"""Replays one seed N times with `runqcheck replay` and asserts every run
prints byte-identical output (the whole step-by-step trace) and the same
exit status, which must be EXPECT (1: the failure reproduces, 0: passes).

usage: replay_determinism.py RUNQCHECK SEED N EXPECT [MUTANT]
"""
import os
import subprocess
import sys


def main():
    tool, seed, n, expect = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    env = dict(os.environ)
    if len(sys.argv) > 5:
        env["RUNQCHECK_MUTANT"] = sys.argv[5]
    first = None
    for i in range(n):
        p = subprocess.run([tool, "replay", seed], capture_output=True, env=env)
        if p.returncode != expect:
            print(f"run {i + 1}: exit {p.returncode}, expected {expect}\n"
                  f"{p.stdout.decode()[-2000:]}{p.stderr.decode()}")
            return 1
        if first is None:
            first = p.stdout
        elif p.stdout != first:
            print(f"run {i + 1}: trace differs from run 1")
            return 1
    steps = first.count(b"\n#")
    print(f"replay_determinism: {n} replays of {seed}: byte-identical "
          f"({len(first)} bytes, {steps} steps), exit {expect}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
