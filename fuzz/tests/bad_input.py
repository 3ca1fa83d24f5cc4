#!/usr/bin/python3
"""Bad input to `runqcheck`: each case must exit 2 with exactly one line on
stderr naming the problem, never a crash.

usage: bad_input.py RUNQCHECK WORKDIR VALID_SEED
"""
import subprocess
import sys
from pathlib import Path


def main():
    tool, work, valid = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]).read_bytes()
    work.mkdir(parents=True, exist_ok=True)
    files = {
        "empty": b"",
        "garbage": b"\x7fELF this is not a seed at all \x00\xff" * 3,
        "text": b"hello world\n",
        "wrong-version": b"RQF\x02" + valid[4:],
        "truncated": valid[:13],
        "header-only": valid[:11],
        # a program the generated column saved: its "# run it:" line is the message
        "saved program": b"# a program the generated column found failing (q, RC11): x\n"
                         b"# run it: explore__q --scenario FILE, or generated__q run FILE\n"
                         b"cap=4 procs=2 P0=/0 | put(0,1) get(0) | empty(0)\n",
    }
    wants = {"saved program": "run it with explore__q --scenario FILE, or generated__q run FILE"}
    cases = []
    for name, data in files.items():
        (work / name).write_bytes(data)
        cases.append((name, ["replay", str(work / name)], wants.get(name, "seed")))
        cases.append((name + " (explain)",
                      ["explain", str(work / name), "--html", str(work / "x.html")],
                      wants.get(name, "seed")))
    cases += [("missing file", ["replay", str(work / "no-such-file")], "cannot open"),
              ("directory", ["replay", str(work)], "directory"),
              ("no file", ["replay"], "required"),
              ("bad flag", ["replay", "--frobnicate", str(work / "garbage")], ""),
              ("bad subcommand", ["frobnicate"], ""),
              ("pct bad depth", ["pct", "--depth", "0", str(work / "garbage")], "depth"),
              ("corpus bad expect", ["corpus", "--expect", "maybe", str(work)], "expect")]
    bad = 0
    for name, args, want in cases:
        p = subprocess.run([tool] + args, capture_output=True, text=True)
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        ok = p.returncode == 2 and len(lines) == 1 and want.lower() in lines[0].lower()
        print(f"{'ok ' if ok else 'BAD'} {name:22s} exit {p.returncode}: "
              f"{lines[0] if lines else '(no message)'}")
        bad += not ok
    print(f"bad_input: {len(cases) - bad} of {len(cases)} cases rejected with exit 2 and one line")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
