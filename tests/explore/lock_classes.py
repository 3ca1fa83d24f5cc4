#!/usr/bin/env python3
"""The lock classes of a run's complete graphs, counted from its trace.

An oracle for explore_protocol --lock-classes written apart from the
engine: it reads EXPLORE_TRACE=1 output (engine.hpp's print()), keeps each
complete execution's events with the writes their reads read, leaves out
a lock()'s rf and a failed lock() that ends a thread, and counts the
distinct graphs so left. The trace shows no co, so graphs that differ only
in a co order that no read sees count as one here.
Usage: EXPLORE_TRACE=1 explore_protocol sc ... | lock_classes.py
Prints: "<complete> complete graphs, <classes> classes".
"""
import re
import sys

EVENT = re.compile(r"^\s+(\d+)\.(\d+) (\S) (\S+) mo\d+ loc ([0-9a-f]+)(?: rf (-?\d+)\.(-?\d+))?")


def key_of(threads, lock_locs):
    out = []
    for t in sorted(threads):
        evs = threads[t]
        if evs and evs[-1][1] == "lock" and evs[-1][0] == "R":
            evs = evs[:-1]  # a thread waiting on the lock
        out.append(tuple((k, op, loc, None if loc in lock_locs else rf)
                         for k, op, loc, rf in evs))
    return tuple(out)


def main():
    complete = 0
    classes = set()
    cur = None
    threads = {}
    tid = None

    def close():
        nonlocal complete
        if cur == "complete":
            locks = {loc for evs in threads.values() for _, op, loc, _ in evs if op == "lock"}
            complete += 1
            classes.add(key_of(threads, locks))

    for line in sys.stdin:
        if line.startswith("execution "):
            close()
            cur = re.search(r"\((\w+)\)", line).group(1)
            threads = {}
            continue
        m = re.match(r"^  thread (\d+):", line)
        if m:
            tid = int(m.group(1))
            threads[tid] = []
            continue
        m = EVENT.match(line)
        if m and cur is not None:
            rf = (int(m.group(6)), int(m.group(7))) if m.group(6) is not None else None
            threads[tid].append((m.group(3), m.group(4), m.group(5), rf))
            continue
        if not line.startswith(" "):
            close()
            cur = None
    close()
    print(f"{complete} complete graphs, {len(classes)} classes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
