#!/usr/bin/python3
"""Run the Z3 lemmas of proofs/z3/lemmas.py (issue #7).

Run with Debian's /usr/bin/python3 (python3-z3).  One line per lemma:
    <name>  proved|refuted|FAILED  <seconds>  [counterexample]
A true lemma must be proved (unsat); a false twin must be refuted (sat, the
counterexample is printed).  Exit status 0 iff every selected lemma met its
expectation; 1 otherwise (the counterexample or the reason is printed);
2 on a usage error.

  run_all.py                         all lemmas, cap 256, 32-bit counters
  run_all.py --group grab            one group (true lemmas and twins)
  run_all.py --group grab --only true
  run_all.py --lemma grab.twin.no_guard
  run_all.py --cap 4 --bits 4        the size the SPIN ring model uses
  run_all.py --list
"""

import argparse
import os
import sys
import time

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

try:
    import z3
except ImportError:
    print("run_all.py: cannot import z3 with %s; install python3-z3 and run with /usr/bin/python3"
          % sys.executable)
    sys.exit(1)

import lemmas as L  # noqa: E402


def fmt(v, signed):
    if z3.is_bv_value(v):
        u = v.as_long()
        s = v.as_signed_long()
        if signed and s < 0:
            return "%d (0x%x)" % (s, u)
        return "%d (0x%x)" % (u, u) if u > 9 else str(u)
    return str(v)


def counterexample(model, ob):
    parts = []
    for k, e in ob.show.items():
        parts.append("%s=%s" % (k, fmt(model.eval(e, model_completion=True), ob.signed)))
    return ", ".join(parts)


def check(lm, cfg, timeout_ms):
    ob = lm.build(cfg)
    s = z3.Solver()
    s.set("timeout", timeout_ms)
    s.add(*ob.premises)
    s.add(z3.Not(ob.claim))
    t0 = time.monotonic()
    r = s.check()
    dt = time.monotonic() - t0
    cex = counterexample(s.model(), ob) if r == z3.sat else ""
    if r == z3.unsat:
        status = "proved"
    elif r == z3.sat:
        status = "refuted"
    else:
        status = "unknown (%s)" % s.reason_unknown()
    return status, dt, cex


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cap", type=int, default=256,
                    help="ring capacity (power of two), default 256")
    ap.add_argument("--bits", type=int, default=32, help="counter width, default 32 (uint32)")
    ap.add_argument("--group", choices=L.GROUPS, action="append",
                    help="only this group (repeatable)")
    ap.add_argument("--lemma", action="append", help="only this lemma (repeatable)")
    ap.add_argument("--only", choices=["true", "twins"],
                    help="only true lemmas or only false twins")
    ap.add_argument("--timeout", type=int, default=60, help="per-lemma solver timeout, seconds")
    ap.add_argument("--list", action="store_true", help="list the lemmas and exit")
    a = ap.parse_args(argv)

    try:
        cfg = L.Cfg(bits=a.bits, cap=a.cap)
    except ValueError as e:
        print("run_all.py: %s" % e)
        return 2

    sel = L.LEMMAS
    if a.group:
        sel = [x for x in sel if x.group in a.group]
    if a.lemma:
        names = {x.name for x in L.LEMMAS}
        bad = [n for n in a.lemma if n not in names]
        if bad:
            print("run_all.py: unknown lemma(s): %s (see --list)" % ", ".join(bad))
            return 2
        sel = [x for x in sel if x.name in a.lemma]
    if a.only == "true":
        sel = [x for x in sel if x.expect == "proved"]
    elif a.only == "twins":
        sel = [x for x in sel if x.expect == "refuted"]

    if a.list:
        for x in sel:
            kind = "lemma" if x.expect == "proved" else "twin "
            print("%-40s %s  %s" % (x.name, kind, x.doc))
        return 0
    if not sel:
        print("run_all.py: nothing selected")
        return 2

    print("z3 %s, cap=%d, counters %d-bit" % (z3.get_version_string(), cfg.cap, cfg.bits))
    failures = 0
    total = 0.0
    for x in sel:
        status, dt, cex = check(x, cfg, a.timeout * 1000)
        total += dt
        ok = status == x.expect
        if x.expect == "proved":
            line = "%-40s %-8s %6.2fs" % (x.name, status if ok else "FAILED", dt)
            if not ok:
                line += "  -- true lemma NOT proved (%s)" % status
                if cex:
                    line += "; counterexample: " + cex
        else:
            line = "%-40s %-8s %6.2fs" % (x.name, status if ok else "FAILED", dt)
            if ok:
                line += "  (false twin, refuted as expected) counterexample: " + cex
            else:
                line += ("  -- false twin NOT refuted (%s): the claim holds or the solver gave up, "
                         "so this twin no longer shows the lemma has teeth" % status)
        print(line, flush=True)
        if not ok:
            failures += 1
            print("    %s: %s" % (x.name, x.doc))
    print("%d lemma(s), %d failure(s), %.2fs solver time" % (len(sel), failures, total))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
