#!/usr/bin/python3
"""Teeth of the weak-memory audit: a runq.hpp with runqput's head load relaxed (the lost-slot
order of issue #17) must be rejected by audit.py --port with the load-buffering witness
under C11 with LB, and the site must leave the table; a site no idiom reads must fail
--port as not settled.  Exit 0 only then.
"""
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
RUNQ = HERE.parent.parent / "core" / "include" / "runqcheck" / "runq.hpp"


def main():
    text = RUNQ.read_text()
    # the head load of runqput: the first acquire load of runqhead after "void runqput("
    start = text.index("\nvoid runqput(")
    m = re.compile(r"runqhead\.load\(acquire\)").search(text, start)
    if not m:
        print("test_teeth.py: runqput's acquire head load not found in runq.hpp")
        return 1
    broken = text[:m.start()] + "runqhead.load(relaxed)" + text[m.end():]
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "runq.hpp"
        path.write_text(broken)
        r = subprocess.run([sys.executable, str(HERE / "audit.py"), "--runq", str(path),
                            "--port"], capture_output=True, text=True)
        t = subprocess.run([sys.executable, str(HERE / "audit.py"), "--runq", str(path),
                            "--table"], capture_output=True, text=True)
    out = r.stdout + r.stderr
    if r.returncode != 1 or "reuse_runqput: bad outcome under C11 with LB" not in out:
        print("test_teeth.py: audit.py --port did not reject runqput's relaxed head load "
              f"under C11 with LB (exit {r.returncode}):\n{out}")
        return 1
    if "bad outcome under RC11" in out or "bad outcome under ARMv8" in out:
        print(f"test_teeth.py: a relaxed runqput head load is LB-only, yet:\n{out}")
        return 1
    if t.returncode != 0 or "| runqput_head_load |" in t.stdout:
        print("test_teeth.py: the relaxed head load is still listed as a site")
        return 1
    # a site no idiom reads (runqget's own tail load made acquire) is not settled
    own = "pp.runqtail.load(relaxed);  // own tail"
    i = text.index(own, text.index("runqget_result<B> runqget("))
    extra = text[:i] + own.replace("relaxed", "acquire") + text[i + len(own):]
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "runq.hpp"
        path.write_text(extra)
        e = subprocess.run([sys.executable, str(HERE / "audit.py"), "--runq", str(path),
                            "--port"], capture_output=True, text=True)
    if e.returncode != 1 or "runqget_tail_load: not settled" not in e.stdout:
        print(f"test_teeth.py: an unread site passed --port (exit {e.returncode}):\n"
              + e.stdout + e.stderr)
        return 1
    print("test_teeth.py: runqput's relaxed head load rejected under C11 with LB only:")
    print(out)
    print("test_teeth.py: a site no idiom reads is reported: " + e.stdout.strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
