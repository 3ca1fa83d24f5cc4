#!/usr/bin/env python3
"""picture_test.py TARGET SEED WORKDIR: a one-subject fuzz_interleave target built on a
port with a data race (examples/weak_port: runqput's tail store relaxed) fails SEED
as the fuzz column meets it, with the race's cause in the port's terms (the
hand-over at weak_port.hpp:45), a `picture:` line naming a page beside the crash
file, and a `reproduce with:` command that fails the crash file the same way.
Exit 0 if so, 1 if not, 2 on bad usage."""
import re
import shutil
import subprocess
import sys
from pathlib import Path

CAUSE = "took it over through"
SITE = "weak_port.hpp:45"


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=100)
    return p.returncode, p.stdout + p.stderr


def reason(out):
    return next((ln for ln in out.splitlines() if ln.startswith("runqcheck: ")
                 and "reproduce with" not in ln and "not applied" not in ln), "")


def main(argv):
    if len(argv) != 3:
        print("picture_test.py: usage: picture_test.py TARGET SEED WORKDIR", file=sys.stderr)
        return 2
    target, seed, work = argv[0], argv[1], Path(argv[2])
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    corpus = work / "corpus"  # as the column runs it: a corpus, crash files to the prefix
    corpus.mkdir()
    shutil.copy(seed, corpus)
    rc, out = run([target, str(corpus), "-runs=0", f"-artifact_prefix={work}/"])
    bad = []
    why = reason(out)
    if rc == 0:
        bad.append("the target passed the seed (no data race found)")
    if CAUSE not in why or SITE not in why:
        bad.append(f"the reason does not name the hand-over at {SITE}: {why!r}")
    pics = [ln.split(":", 1)[1].strip() for ln in out.splitlines() if ln.startswith("picture:")]
    page = Path(pics[0]) if pics else None
    if page is None:
        bad.append("no picture: line")
    elif not page.is_file() or page.parent != work:
        bad.append(f"the picture {page} is not a file beside the crash file (in {work})")
    elif SITE not in page.read_text(errors="replace"):
        bad.append(f"the picture does not show {SITE}")
    crash = re.search(r"Test unit written to (\S+)", out)
    repro = re.search(r"reproduce with: (.*) <the crash file named below>", out)
    if not crash or not repro:
        bad.append("no crash file or no reproduce with: line")
    else:
        rc2, out2 = run(repro.group(1).split() + [crash.group(1), f"-artifact_prefix={work}/r-"])
        if rc2 == 0 or reason(out2) != why:
            bad.append(f"the reproducer does not fail the same way: {reason(out2)!r}")
    for b in bad:
        print(f"picture_test: {b}")
    if bad:
        print(out)
    print(f"picture_test: {'FAILED' if bad else 'passed'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
