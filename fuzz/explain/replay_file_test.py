#!/usr/bin/python3
"""runqcheck replay|explain FILE.replay: the .replay file of a Relacy failure.

A failing Relacy scenario run writes FILE.replay (tests/relacy/picture.hpp);
`runqcheck replay FILE` and `runqcheck explain FILE --html OUT` run the
scenario binary it names on the recorded execution. Checked here with a
stand-in binary (a script that prints what it was given), so the test needs
no Relacy build:
  - replay: the binary gets `replay MODE STATE` with RUNQCHECK_CASE and
    RUNQCHECK_MUTANT set from the file (and RUNQCHECK_MUTANT unset when the
    file has none), and its exit status is runqcheck's;
  - explain: it gets `explain MODE STATE --html OUT [--json OUT]`;
  - bad files (garbage, another version, a missing field, an unknown line, a
    bad mode or state, a binary that is gone, no file): one line on stderr,
    exit 2.

usage: replay_file_test.py RUNQCHECK WORKDIR
"""
import os
import shutil
import subprocess
import sys

STANDIN = """#!/bin/sh
echo "args: $*"
echo "case: ${RUNQCHECK_CASE-unset} mutant: ${RUNQCHECK_MUTANT-unset}"
[ "$1" = replay ] && exit 1
exit 0
"""


def main():
    cli, work = sys.argv[1], os.path.abspath(sys.argv[2])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    standin = os.path.join(work, "relacy_scenarios__mine")
    with open(standin, "w") as f:
        f.write(STANDIN)
    os.chmod(standin, 0o755)

    def write(name, text):
        path = os.path.join(work, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    good = ("runqcheck-replay 1\nbinary %s\ncase owner_vs_thief\nmode bound:2\nstate 12 3 0 1 \n"
            "command RUNQCHECK_CASE=owner_vs_thief %s replay bound:2 '12 3 0 1 '\n"
            ) % (standin, standin)
    env = dict(os.environ, RUNQCHECK_MUTANT="order:runqput_tail_store")  # must not leak through
    failures = []
    count = [0]

    def check(argv, want_rc, want_out, what):
        count[0] += 1
        p = subprocess.run([cli, *argv], capture_output=True, text=True, env=env, timeout=60)
        out = p.stdout + p.stderr
        ok = p.returncode == want_rc and all(w in out for w in want_out)
        if want_rc == 2:
            ok = ok and p.stdout == "" and len(p.stderr.strip().splitlines()) == 1
        last = out.strip().splitlines()[-1] if out.strip() else ""
        print(f"{'ok  ' if ok else 'FAIL'} {what}: exit {p.returncode}: {last}")
        if not ok:
            failures.append(what)

    f = write("a.replay", good)
    check(["replay", f], 1,
          ["args: replay bound:2 12 3 0 1 \n", "case: owner_vs_thief mutant: unset"],
          "replay runs the binary (exit 1: it fails again), mutant unset")
    f = write("m.replay", good + "mutant order:runqget_runnext_cas\n")
    check(["replay", f], 1, ["case: owner_vs_thief mutant: order:runqget_runnext_cas"],
          "replay sets the mutant")
    page, trace = os.path.join(work, "out", "p.html"), os.path.join(work, "p.json")
    check(["explain", f, "--html", page, "--json", trace], 0,
          [f"args: explain bound:2 12 3 0 1  --html {page} --json {trace}"], "explain")
    # A seed-shaped name does not matter: the first line makes it a replay file.
    f = write("noext", good)
    check(["replay", f], 1, ["args: replay bound:2"], "replay file without the .replay extension")

    bad = {
        "garbage.replay": "hello\n",
        "version.replay": "runqcheck-replay 2\n",
        "missing.replay": "runqcheck-replay 1\ncase x\nmode random\nstate 2\n",
        "unknown.replay": good + "colour blue\n",
        "mode.replay": good.replace("mode bound:2", "mode sideways"),
        "bound.replay": good.replace("mode bound:2", "mode bound:x"),
        "state.replay": good.replace("state 12 3 0 1 ", "state 12; rm -rf /"),
        "gone.replay": good.replace(standin, os.path.join(work, "gone")),
        "empty.replay": "",
    }
    for name, text in bad.items():
        check(["replay", write(name, text)], 2, [name], f"bad file {name}")
    check(["explain", os.path.join(work, "garbage.replay"), "--html", os.path.join(work, "x.html")],
          2, ["garbage.replay"], "explain of a bad file")
    check(["replay", os.path.join(work, "absent.replay")], 2, ["absent.replay"], "no such file")
    check(["replay", os.path.join(work, "a.replay"), "--json", os.path.join(work, "j.json")], 2,
          ["--json"], "replay --json of a replay file")

    print(f"{count[0] - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
