#!/usr/bin/python3
"""A replay command reproduces a failure with an identical history, twice.

Runs the Relacy scenario binary on a mutant until it fails, takes the
`replay:` line it prints, runs that command twice, and checks that both
replays fail again with the same execution history as the original (object
addresses, which ASLR moves, are numbered in order of appearance) and the
same `runqcheck: cause:` line (none if the original printed none), and that
the failure's picture, if drawn, shows a failing execution. RUNQCHECK_CASE,
when set, picks the scenarios.

A replay line stays short: a long state is saved as @FILE (and said saved).

usage: replay_test.py BINARY MUTANT MODE...
"""
import os
import re
import shlex
import subprocess
import sys


def history(out: str) -> list:
    m = re.search(r"execution history \(\d+\):\n(.*?)(?:\n\n|\Z)", out, re.S)
    if not m:
        return []
    ids = {}
    def norm(a):
        return ids.setdefault(a.group(0), f"@{len(ids)}")
    return [re.sub(r"0x[0-9a-f]+", norm, line) for line in m.group(1).splitlines()]


def run(env, argv):
    p = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout + p.stderr


def main():
    binary, mutant, mode = sys.argv[1], sys.argv[2], sys.argv[3:]
    env = {"PATH": "/usr/bin:/bin", "RUNQCHECK_MUTANT": mutant, "RUNQCHECK_STOP_ON_FAIL": "1"}
    if os.environ.get("RUNQCHECK_CASE"):
        env["RUNQCHECK_CASE"] = os.environ["RUNQCHECK_CASE"]
    rc, out = run(env, [binary, *mode])
    lines = re.findall(r"^replay: (.*)$", out, re.M)
    if rc != 1 or not lines:
        print(f"replay_test: the mutant {mutant} did not fail with a replay line (exit {rc})")
        return 1
    bad_pictures = re.findall(r"^picture: .*(?:WARNING|none).*$", out, re.M)
    if bad_pictures:
        print(f"replay_test: the failure's picture does not show it: {bad_pictures[0]}")
        return 1
    print("failure:", lines[0][:300])
    # A long state (bound 3: thousands of characters) is saved as @FILE, an artifact.
    if len(lines[0]) > 1000:
        print(f"replay_test: a replay line of {len(lines[0])} characters (a long state "
              "belongs in its @FILE)")
        return 1
    for word in shlex.split(lines[0]):
        if word.startswith("@") and (not os.path.isfile(word[1:])
                                     or f"saved: {word[1:]}" not in out):
            print(f"replay_test: the state file {word[1:]} is missing or not said saved")
            return 1
    original = history(out)
    # The failure said in the port's terms (a data race's accesses named): the replay says it too.
    cause = re.findall(r"^runqcheck: cause: .*$", out, re.M)
    words = shlex.split(lines[0])
    renv = dict(env)
    while words and "=" in words[0] and not words[0].startswith("/"):
        k, v = words.pop(0).split("=", 1)
        renv[k] = v
    for attempt in (1, 2):
        rrc, rout = run(renv, words)
        h = history(rout)
        if rrc != 1:
            print(f"replay_test: replay {attempt} did not fail (exit {rrc})")
            return 1
        if not h or h != original:
            print(f"replay_test: replay {attempt} history differs from the original "
                  f"({len(h)} vs {len(original)} steps)")
            return 1
        rcause = re.findall(r"^runqcheck: cause: .*$", rout, re.M)
        if rcause != cause:
            print(f"replay_test: replay {attempt} says {rcause[:1] or 'no cause'}, "
                  f"the original {cause[:1] or 'none'}")
            return 1
        print(f"replay {attempt}: same failure, identical history of {len(h)} steps"
              + (", the same cause" if cause else ""))
    print("1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
