#!/usr/bin/python3
"""Merges the verdicts of a sharded Relacy search (--shard i/N).

Each shard's job saves the scenario binary's output as DIR/shard-I-of-N.log
(searches one after another may share a log). The merge fails (exit 1) if
a shard's log is missing, has no verdict line, or says FAILED; it prints
each shard's verdict and the executions summed over shards.

usage: shard_merge.py DIR N
"""
import pathlib
import re
import sys

VERDICT = re.compile(r": (\d+) scenarios, (\d+) executions, (all passed|FAILED)$", re.M)


def main():
    if len(sys.argv) != 3 or not sys.argv[2].isdigit() or int(sys.argv[2]) < 1:
        print("usage: shard_merge.py DIR N", file=sys.stderr)
        return 2
    d, n = pathlib.Path(sys.argv[1]), int(sys.argv[2])
    bad, total = 0, 0
    for i in range(n):
        log = d / f"shard-{i}-of-{n}.log"
        if not log.is_file():
            print(f"shard {i}/{n}: MISSING ({log})")
            bad += 1
            continue
        verdicts = VERDICT.findall(log.read_text(errors="replace"))
        execs = sum(int(v[1]) for v in verdicts)
        total += execs
        ok = bool(verdicts) and all(v[2] == "all passed" for v in verdicts)
        what = "passed" if ok else ("FAILED" if verdicts else "FAILED (no verdict line)")
        print(f"shard {i}/{n}: {what}, {len(verdicts)} searches, {execs} executions")
        bad += not ok
    print(f"{n} shards, {total} executions, {'all passed' if not bad else f'{bad} FAILED'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
