#!/usr/bin/python3
"""Teeth of the weak-memory column (weak_memory_teeth, weak_memory_teeth/lb_port).

`mutants RECORDER`: RECORDER is weak_record__mutants: the mutant schemata (models/mutants)
through the subject path, the order mutant chosen at run time.  For every order site of
runq.hpp, the port with that site weakened one step (RUNQCHECK_MUTANT=order:<site>) is
recorded and judged by audit.py --recorded, which reads no name from the code; it must fail
exactly when audit.py's own table (from runq.hpp) says the site is necessary under some
model, naming the site and printing a witness.  The unmutated port must pass; a listing
that is not a recording must be one line and exit 2.

`lb_port RECORDER DIR`: RECORDER is weak_record__lb_port (examples/lb_port: runqput's head
load relaxed, load buffering): FAILED naming runqput_head_load under C11 with LB, with a
witness and its swimlane page in DIR, which fuzz/explain/check_dom.py (headless Chromium)
finds drawn as its trace says (skipped, said so, without chromium).

usage: teeth.py mutants RECORDER | teeth.py lb_port RECORDER DIR
"""
import os
import shutil
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


def lb_port(recorder, pictures):
    """The load-buffering port: rejected by name, with a witness page."""
    r = subprocess.run([sys.executable, str(AUDIT), "--recorded", recorder, "--pictures",
                        pictures], capture_output=True, text=True, timeout=120)
    out = r.stdout + r.stderr
    print(out)
    want = "FAILED: weak-memory orders: runqput_head_load is relaxed, C11 with LB needs acquire"
    pics = [ln.split(":", 1)[1].strip() for ln in out.splitlines() if ln.startswith("picture:")]
    why = [w for w, bad in (
        (f"exit {r.returncode}, not 1", r.returncode != 1),
        (f"no line '{want}'", not any(ln.startswith(want) for ln in out.splitlines())),
        ("no witness under C11 with LB", "witness: C11 with LB" not in out),
        ("no picture: line naming a page", not pics or not Path(pics[0]).is_file())) if bad]
    if not why and shutil.which(os.environ.get("CHROMIUM", "chromium")):
        dom = subprocess.run([sys.executable, str(ROOT / "fuzz" / "explain" / "check_dom.py"),
                              str(Path(pics[0]).with_suffix(".json")), pics[0]],
                             capture_output=True, text=True, timeout=120)
        print(dom.stdout.strip())
        if dom.returncode != 0:
            why.append(f"the witness page: {dom.stdout.strip()} {dom.stderr.strip()}")
    elif not why:
        print("weak-memory teeth: chromium missing, the page's DOM is not checked")
    for w in why:
        print(f"FAILED: lb_port: {w}")
    return 1 if why else 0


def main(argv):
    if len(argv) == 3 and argv[0] == "lb_port":
        return lb_port(argv[1], argv[2])
    if len(argv) != 2 or argv[0] != "mutants":
        print(__doc__.strip().splitlines()[-1])
        return 2
    recorder, bad = argv[1], []
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
