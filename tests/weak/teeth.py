#!/usr/bin/python3
"""Teeth of the weak-memory column (weak_memory_teeth, gate selftest).

RECORDER is weak_record__mutants: the mutant schemata (models/mutants) through the subject
path, the order mutant chosen at run time.  For every order site of runq.hpp, the port with
that site weakened one step (RUNQCHECK_MUTANT=order:<site>) is recorded and judged by
audit.py --recorded, which knows no site's name from the code; it must fail exactly when
audit.py's own table (from runq.hpp) says the site is necessary under some model, naming
the site and printing a witness.  The unmutated port must pass; a listing that is not a
recording must be one line and exit 2.

usage: teeth.py RECORDER
"""
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
AUDIT = ROOT / "proofs" / "weak" / "audit.py"
sys.path.insert(0, str(ROOT / "proofs" / "weak"))
import audit  # noqa: E402
import wmm  # noqa: E402


def judge(recorder, mutant):
    env = dict(os.environ, RUNQCHECK_MUTANT=mutant)
    r = subprocess.run([sys.executable, str(AUDIT), "--recorded", recorder], env=env,
                       capture_output=True, text=True, timeout=120)
    return r.returncode, r.stdout + r.stderr


def main(argv):
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[-1])
        return 2
    recorder, bad = argv[0], []
    sites = audit.load_sites(ROOT / "core" / "include" / "runqcheck" / "runq.hpp")
    verdict, _, _ = audit.settle(sites)
    rc, out = judge(recorder, "none")
    print(f"port itself: exit {rc}")
    if rc != 0:
        bad.append(f"the unmutated port: exit {rc}\n{out}")
    for s, mo in sites:
        need = [audit.MODEL_NAMES[m] for m in wmm.MODELS if verdict[s][m]]
        rc, out = judge(recorder, f"order:{s}")
        failed = [ln for ln in out.splitlines() if ln.startswith("FAILED:")]
        print(f"order:{s} ({mo} -> {audit.weaken(mo)}): exit {rc}; necessary under "
              f"{', '.join(need) or 'no model'}" + (f"; {failed[0]}" if failed else ""))
        if need and not (rc == 1 and failed and s in failed[0] and "witness:" in out):
            bad.append(f"order:{s}: necessary under {need} but not rejected with its name and "
                       f"a witness (exit {rc})\n{out}")
        if not need and rc != 0:
            bad.append(f"order:{s}: removable, yet exit {rc}\n{out}")
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
        f.write("not a recording\n")
        f.flush()
        rc, out = judge(f.name, "none")
        if rc != 2 or len(out.strip().splitlines()) != 1:
            bad.append(f"a bad listing: exit {rc}, {len(out.splitlines())} lines\n{out}")
    for b in bad:
        print(f"FAILED: {b}")
    print(f"weak-memory teeth: {len(sites)} order mutants, {len(bad)} wrong")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
