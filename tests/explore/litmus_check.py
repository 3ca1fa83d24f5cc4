#!/usr/bin/python3
"""The engine's litmus outcomes against proofs/weak's axiomatic checker, both directions.

usage: litmus_check.py EXPLORE_LITMUS [--expect-mismatch]
  Runs EXPLORE_LITMUS --hash (every test of proofs/weak/litmus.py on the seam, under SC,
  RC11, LB and C11), and per test and model compares the set of outcomes (registers and
  final memory) it found with the set the oracle allows: wmm's rc11; SC = po | rf | co | fr
  acyclic with RMW atomicity; C11 (every promise, uncertified) = wmm's c11lb; LB = lb()
  below, or rc11 for the out-of-thin-air shapes (LB_AS_RC11: where c11lb admits OOTA), or
  lb() less what re-certification refuses (RECERT) and what the engine misses (LB_MISSES).
  Exit 0 iff every set is equal, every run exhausted and no SC or RC11 graph was met twice.
  --expect-mismatch (the teeth): exit 0 iff some set differs.
"""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "proofs" / "weak"))
import litmus  # noqa: E402
import wmm  # noqa: E402


def sc(x):
    """Lamport's SC as an axiom: po | rf | co | fr acyclic, and RMWs atomic."""
    fr = {(r, w2) for (w, r) in x.rf for (w1, w2) in x.co if w1 == w}
    if not wmm.acyclic(x.po | x.rf | x.co | fr):
        return False
    return not (x.rmw & wmm.comp(fr, x.co))


def lb(x):
    """The engine's load buffering (engine.hpp, lb_revisit()): c11lb, where a po | rf cycle
    must pass a po edge a -> b that the promise may overtake (b a relaxed store, or a relaxed
    RMW's write with its read; no fence, acquire read or seq_cst access from a up to b) into
    a read that is not seq_cst."""
    if not wmm.JUDGES["c11lb"](x)[0]:
        return False
    E = x.events
    rmw_r = {w: r for r, w in x.rmw}
    po = set(x.po)

    def stops(c):
        return E[c].kind == "F" or E[c].sc() or (E[c].kind == "R" and E[c].acq())

    def overtakes(a, b):
        e = E[b]
        if e.kind != "W" or e.order != "relaxed" or stops(a) or rmw_r.get(b) == a:
            return False
        return not any((a, c) in po and (c, b) in po and stops(c) for c in range(len(E)))

    over = {(a, b) for a, b in po if E[a].tid >= 0 and overtakes(a, b)}
    over |= {(a, rmw_r[b]) for a, b in over if b in rmw_r}  # the RMW's read moves with it
    to_sc = {(w, r) for w, r in x.rf if E[r].sc()}
    return wmm.acyclic(x.rf | (po - over) | wmm.comp(over, to_sc))


JUDGES = {"SC": sc, "RC11": lambda x: wmm.JUDGES["rc11"](x)[0], "LB": lb,
          "C11": lambda x: wmm.JUDGES["c11lb"](x)[0]}
# Where c11lb admits out-of-thin-air values: every po | rf cycle of these shapes carries a
# value only the cycle produces (a real dependency), so no promise is certified and the
# engine's LB outcomes are RC11's (ARMv8 forbids more: its causality order, WRC-like).
LB_AS_RC11 = {"OOTA+ctrls+w", "OOTA+datas", "OOTA+ctrls"}
# Where the promising thread's path changes after its promise (Promising's re-certification,
# engine.hpp's promises_certified()): the executions lb() admits less those in which no thread
# alone could still fulfil the promise. LB+recert: thread 0 promised y = 1 while z = 0; once
# it reads z = 1 (b = 1) it writes y = 1 only after reading z = 2, which thread 2 writes only
# after thread 0's x = 1, so thread 1 cannot read y = 1 (d = 1). ARMv8 forbids it too.
RECERT = {"LB+recert": lambda x: not (x.regs[0].get("b") == 1 and x.regs[1].get("d") == 1)}
# What the engine's LB misses (docs/explore.md, "Load buffering"): LB+recert with b = 2,
# thread 0's first read reading z = 2, which thread 2 writes only because it read thread 0's
# promise x = 1 (a write of the promise's reader that depends on the promise, read by the
# promising thread before the promised write: no revisit builds it). Promising and ARMv8
# allow it; C11 reaches it through thread 2's uncertified promise.
LB_MISSES = {"LB+recert": lambda x: x.regs[0].get("b") == 2}


def key(x, prog):
    threads = []
    for i, rg in enumerate(x.regs):
        regs = sorted((k, v) for k, v in rg.items() if not k.endswith("_ok"))
        threads.append(f"t{i}:" + ",".join(f"{k}={int(v)}" for k, v in regs))
    mem = ",".join(f"{k}={x.final.get(k, prog.init[k])}" for k in sorted(prog.init))
    return ";".join(threads) + "|" + mem


def oracle():
    out = {}
    for name, prog in [(n, p) for n, p, _ in litmus.TESTS] + litmus.SHAPES:
        for m, judge in JUDGES.items():
            if m == "LB" and name in LB_AS_RC11:
                judge = JUDGES["RC11"]
            if m == "LB" and name in RECERT:
                judge = lambda x, n=name: lb(x) and RECERT[n](x) and not LB_MISSES[n](x)  # noqa
            out[(name, m)] = {key(x, prog) for x in wmm.executions(prog) if judge(x)}
    return out


def main(argv):
    if not argv or argv[0].startswith("-"):
        print(__doc__.strip().splitlines()[2])
        return 2
    expect_mismatch = "--expect-mismatch" in argv
    run = subprocess.run([argv[0], "--hash"], capture_output=True, text=True)
    got, problems = {}, []
    for line in run.stdout.splitlines():
        f = line.split(" ")
        if f[0] == "outcome":
            got.setdefault((f[1], f[2]), set()).add(f[3])
        elif f[0] == "count" and (" exhausted" not in line or
                                  ("duplicates=0" not in line and f[2] not in ("LB", "C11"))):
            problems.append(line)
        elif f[0] == "FAIL":
            problems.append(line)
    want = oracle()
    bad = 0
    for k in sorted(want):
        g = got.get(k, set())
        missing, extra = want[k] - g, g - want[k]
        if missing or extra:
            bad += 1
            if not expect_mismatch:
                print(f"MISMATCH {k[0]} {k[1]}: missing {sorted(missing)} extra {sorted(extra)}")
    for p in problems:
        print("PROBLEM", p)
    n = len(want)
    print(f"litmus: {n - bad} of {n} outcome sets equal the oracle's (SC, RC11, LB, C11), "
          f"{len(problems)} problems")
    if expect_mismatch:
        print("teeth: the broken engine was " + ("caught" if bad else "NOT caught"))
        return 0 if bad else 1
    return 0 if bad == 0 and not problems and run.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
