#!/usr/bin/python3
"""The classic litmus tests, with their published verdict per model (issue #17).

Each test names its weak outcome; the expectation is whether that outcome is allowed
(True) or forbidden (False) under rc11, c11lb (C11 with load buffering) and armv8.

Sources of the expected verdicts:
  [RC11]  Lahav, Vafeiadis, Kang, Hur, Dreyer, PLDI 2017: SB allowed unless both sides are
          seq_cst (accesses or fences), IRIW allowed for acquire reads and forbidden for
          seq_cst, LB forbidden by no-thin-air and allowed by C11 (sections 1, 3), MP with
          release/acquire or fences forbidden.  An exchange is an RMW: its read and write
          are adjacent in mo (atomicity), its read part takes the acquire, its write part the
          release of its order, as a CAS's (section 3), so two exchanges never read the same
          store and MP through exchanges is forbidden with release/acquire only.
          2+2W with release writes: allowed by C11's release/acquire (Lahav, Giannarakis,
          Vafeiadis, "Taming release-acquire consistency", POPL 2016, which RC11 does not
          adopt).  MP+rel+rmw+acq: the release sequence (RC11's rs) runs through the RMW.
  [ARM]   herdtools7 catalogue/aarch64/tests/kinds.txt: MP, SB, LB, 2+2W Allowed; CoRR,
          MP+dmb.sys, SB+dmb.sys, LB+dmb.sys, 2+2W+dmb.sys Forbidden; MP+dmb.sy+po,
          SB+dmb.sy+po, 2+2W+dmb.sy+po Allowed; MP+rel+acq, SB+dmb.sy+rel-acq Forbidden.
          The dependency and acquire/release rows (MP+rel+addr, LB+ctrls, LB+datas, LB+rel,
          LB+acq, IRIW+addrs, IRIW+acq, SB+rel+acq, 2+2W+rel, MP+rel+rmw+acq, MP+xchg*)
          follow from aarch64.cat's dob, aob and bob as Pulte et al., POPL 2018, discuss
          them (ARMv8 is other-multicopy-atomic: IRIW with ordered readers is forbidden);
          XCHG+XCHG from its atomic axiom (an exchange: an LDXR/STXR pair or SWP).
          LB+rmws: the CAS's compare-and-branch orders the later store (wmm's mapping).
          LB+rmw+acq: nothing orders the relaxed CAS after the earlier load (aob, dob);
          the acquire read orders only what follows it.
          LB+recert (ours): thread 0's store depends on its reads (ctrl), thread 1's read
          is an acquire (bob).
  [OOTA]  Boehm, Demsky, "Outlawing ghosts", MSPC 2014; Kang et al., POPL 2017, section 2:
          C11 as written (c11lb) admits the out-of-thin-air value; RC11 and ARMv8 do not.

usage: litmus.py [--model M] [--teeth] [--list]
  no option: every test under rc11, c11lb, armv8; exit 1 on any mismatch.
  --model M: judge under M (also the wrong:* models); exit 1 on any mismatch.
  --teeth:   exit 0 only if every wrong:* model mismatches on some test.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import wmm  # noqa: E402
from wmm import CAS, XCHG, F, If, Program, R, W, X  # noqa: E402,F401

RLX, ACQ, REL, SC = "relaxed", "acquire", "release", "seq_cst"


def mp(w2=RLX, r1=RLX, fw=None, fr=None, addr=False):
    """Thread 0 writes x then y, thread 1 reads y then x; weak outcome: y=1, x=0."""
    t0 = [W("x", 1)] + ([F(fw)] if fw else []) + [W("y", 1, w2)]
    if addr:  # the second read's address depends on the first read's value
        t1 = [R("a", "y", r1), R("b", X(lambda r: "x" if r["a"] in (0, 1) else "z", "a"))]
    else:
        t1 = [R("a", "y", r1)] + ([F(fr)] if fr else []) + [R("b", "x")]
    return Program("MP", {"x": 0, "y": 0}, [t0, t1],
                   lambda rg, m: rg[1].get("a") == 1 and rg[1].get("b") == 0)


def sb(w=RLX, r=RLX, f=None, t1=None):
    """t1: thread 1's (write, read) orders when they differ from thread 0's."""
    fe = [F(f)] if f else []
    w1, r1 = t1 or (w, r)
    t0 = [W("x", 1, w)] + fe + [R("a", "y", r)]
    t1 = [W("y", 1, w1)] + (fe if not t1 else []) + [R("b", "x", r1)]
    return Program("SB", {"x": 0, "y": 0}, [t0, t1],
                   lambda rg, m: rg[0]["a"] == 0 and rg[1]["b"] == 0)


def lb(r=RLX, w=RLX, dep=None, f=None):
    def thread(src, dst):
        if dep == "ctrl":
            # herd's shape: a branch on the value that writes either way
            return [R("a", src, r), If(X(lambda g: g["a"] in (0, 1), "a")), W(dst, 1, w)]
        if dep == "data":
            return [R("a", src, r), W(dst, X(lambda g: (g["a"] ^ g["a"]) + 1, "a"), w)]
        return [R("a", src, r)] + ([F(f)] if f else []) + [W(dst, 1, w)]
    return Program("LB", {"x": 0, "y": 0}, [thread("x", "y"), thread("y", "x")],
                   lambda rg, m: rg[0].get("a") == 1 and rg[1].get("a") == 1)


def lb_rmw():
    """LB whose reads are relaxed CASes (expected 1, new 1: the old value either way)."""
    def thread(src, dst):
        return [CAS("a", src, 1, 1, RLX, RLX), W(dst, 1)]
    return Program("LB+rmws", {"x": 0, "y": 0}, [thread("x", "y"), thread("y", "x")],
                   lambda rg, m: rg[0].get("a") == 1 and rg[1].get("a") == 1)


def lb_rmw_acq():
    """LB where a relaxed CAS's write overtakes an earlier read (no dependency on it) and is
    read by an acquire read: runqgrab_head_cas relaxed, the owner's acquire head load."""
    t0 = [R("a", "x"), CAS("c", "y", 0, 1, RLX, RLX)]
    t1 = [R("a", "y", ACQ), W("x", 1)]
    return Program("LB+rmw+acq", {"x": 0, "y": 0}, [t0, t1],
                   lambda rg, m: rg[0].get("a") == 1 and rg[1].get("a") == 1)


def lb_recert():
    """LB where the promising thread's path changes after the promise (Promising's
    re-certification, Kang et al., POPL 2017): thread 0 writes y = 1 if it read z = 0 first,
    or z = 2 second, which thread 2 writes only after thread 0's x = 1; thread 1 reads y
    (acquire), then writes z = 1. Weak outcome: b = 1, c = 2, d = 1: thread 0 promises
    y = 1 (certified while z = 0), but once it reads z = 1 it cannot write y = 1 alone."""
    t0 = [R("b", "z"), W("x", 1), R("c", "z"),
          If(X(lambda g: g["b"] == 0 or g["c"] == 2, "b", "c")), W("y", 1)]
    t1 = [R("d", "y", ACQ), W("z", 1)]
    t2 = [R("f", "x"), If(X(lambda g: g["f"] == 1, "f")), W("z", 2)]
    return Program("LB+recert", {"x": 0, "y": 0, "z": 0}, [t0, t1, t2],
                   lambda rg, m: (rg[0].get("b"), rg[0].get("c"), rg[1].get("d")) == (1, 2, 1))


def oota(ctrl=False, third=False):
    """Out of thin air (Boehm, Demsky, MSPC 2014): thread 0 copies x to y (data) or writes
    y = 1 if it read x != 0 (ctrl), thread 1 copies y to x (data) or writes x = 2 if it read
    y != 0 (ctrl); third: a thread writes x = 1, which lets the ctrl pair write at all.
    Weak outcome: thread 0 reads x = 2, which only thread 1 writes, only after y != 0, which
    only thread 0 writes, only after x != 0: out of thin air (C11 as written allows it)."""
    t0 = ([R("a", "x"), If(X(lambda g: g["a"] != 0, "a")), W("y", 1)] if ctrl
          else [R("a", "x"), W("y", X(lambda g: g["a"], "a"))])
    t1 = ([R("a", "y"), If(X(lambda g: g["a"] != 0, "a")), W("x", 2)] if ctrl
          else [R("a", "y"), W("x", X(lambda g: g["a"], "a"))])
    th = [t0, t1] + ([[W("x", 1)]] if third else [])
    return Program("OOTA", {"x": 0, "y": 0}, th, lambda rg, m: rg[0].get("a") == 2)


def iriw(w=RLX, r=RLX, addr=False, f=None):
    def reader(a, b):
        if addr:
            return [R("a", a, r), R("b", X(lambda g, b=b: b if g["a"] in (0, 1) else "z", "a"), r)]
        return [R("a", a, r)] + ([F(f)] if f else []) + [R("b", b, r)]
    return Program("IRIW", {"x": 0, "y": 0, "z": 0},
                   [[W("x", 1, w)], reader("x", "y"), reader("y", "x"), [W("y", 1, w)]],
                   lambda rg, m: (rg[1]["a"], rg[1]["b"], rg[2]["a"], rg[2]["b"]) == (1, 0, 1, 0))


def w22(w=RLX, f=None, one=False):
    fe = [F(f)] if f else []
    return Program("2+2W", {"x": 0, "y": 0},
                   [[W("x", 1, w)] + fe + [W("y", 2, w)],
                    [W("y", 1, w)] + ([] if one else fe) + [W("x", 2, w)]],
                   lambda rg, m: m["x"] == 1 and m["y"] == 1)


def corr():
    return Program("CoRR", {"x": 0}, [[W("x", 1)], [R("a", "x"), R("b", "x")]],
                   lambda rg, m: rg[1]["a"] == 1 and rg[1]["b"] == 0)


def mp_rmw():
    """A relaxed RMW between the release write and the acquire read continues the release
    sequence (RC11's rs: rf;rmw)."""
    return Program("MP+rel+rmw+acq", {"x": 0, "y": 0},
                   [[W("x", 1), W("y", 1, REL)], [CAS("c", "y", 1, 2, RLX)],
                    [R("a", "y", ACQ), R("b", "x")]],
                   lambda rg, m: rg[2]["a"] == 2 and rg[2]["b"] == 0)


def xchg2():
    """Two threads exchange the same location: each reads a distinct store (atomicity)."""
    return Program("XCHG+XCHG", {"x": 0}, [[XCHG("a", "x", 1, RLX)], [XCHG("b", "x", 2, RLX)]],
                   lambda rg, m: rg[0]["a"] == 0 and rg[1]["b"] == 0)


def mp_xchg(w=RLX, r=RLX):
    """MP whose flag is written and read by exchanges: y.xchg(1, w); a = y.xchg(2, r)."""
    return Program("MP+xchg", {"x": 0, "y": 0},
                   [[W("x", 1), XCHG("c", "y", 1, w)], [XCHG("a", "y", 2, r), R("b", "x")]],
                   lambda rg, m: rg[1]["a"] == 1 and rg[1]["b"] == 0)


A_, F_ = True, False
# (name, program, {model: allowed})
TESTS = [
    ("CoRR", corr(), dict(rc11=F_, c11lb=F_, armv8=F_)),
    ("MP+rel+rmw+acq", mp_rmw(), dict(rc11=F_, c11lb=F_, armv8=F_)),
    ("XCHG+XCHG", xchg2(), dict(rc11=F_, c11lb=F_, armv8=F_)),
    ("MP+xchg", mp_xchg(), dict(rc11=A_, c11lb=A_, armv8=A_)),
    ("MP+xchg.rel+xchg.acq", mp_xchg(REL, ACQ), dict(rc11=F_, c11lb=F_, armv8=F_)),
    ("MP", mp(), dict(rc11=A_, c11lb=A_, armv8=A_)),
    ("MP+rel+acq", mp(w2=REL, r1=ACQ), dict(rc11=F_, c11lb=F_, armv8=F_)),
    ("MP+fences(sc)", mp(fw=SC, fr=SC), dict(rc11=F_, c11lb=F_, armv8=F_)),
    ("MP+fence.rel+fence.acq", mp(fw=REL, fr=ACQ), dict(rc11=F_, c11lb=F_, armv8=F_)),
    ("MP+rel+addr", mp(w2=REL, addr=True), dict(rc11=A_, c11lb=A_, armv8=F_)),
    ("MP+rel+po", mp(w2=REL), dict(rc11=A_, c11lb=A_, armv8=A_)),
    ("MP+fence(sc)+po", mp(fw=SC), dict(rc11=A_, c11lb=A_, armv8=A_)),
    ("SB", sb(), dict(rc11=A_, c11lb=A_, armv8=A_)),
    ("SB+rel+acq", sb(w=REL, r=ACQ), dict(rc11=A_, c11lb=A_, armv8=F_)),
    ("SB+fences(sc)", sb(f=SC), dict(rc11=F_, c11lb=F_, armv8=F_)),
    ("SB+sc", sb(w=SC, r=SC), dict(rc11=F_, c11lb=F_, armv8=F_)),
    ("SB+fence(sc)+po", sb(f=SC, t1=(RLX, RLX)), dict(rc11=A_, c11lb=A_, armv8=A_)),
    ("SB+fence(sc)+rel-acq", sb(f=SC, t1=(REL, ACQ)), dict(rc11=A_, c11lb=A_, armv8=F_)),
    ("LB", lb(), dict(rc11=F_, c11lb=A_, armv8=A_)),
    ("LB+ctrls", lb(dep="ctrl"), dict(rc11=F_, c11lb=A_, armv8=F_)),
    ("LB+datas", lb(dep="data"), dict(rc11=F_, c11lb=A_, armv8=F_)),
    ("LB+rel", lb(w=REL), dict(rc11=F_, c11lb=A_, armv8=F_)),
    ("LB+acq", lb(r=ACQ), dict(rc11=F_, c11lb=A_, armv8=F_)),
    ("LB+acq+rel", lb(r=ACQ, w=REL), dict(rc11=F_, c11lb=F_, armv8=F_)),
    ("IRIW", iriw(), dict(rc11=A_, c11lb=A_, armv8=A_)),
    ("IRIW+acq", iriw(r=ACQ), dict(rc11=A_, c11lb=A_, armv8=F_)),
    ("IRIW+addrs", iriw(addr=True), dict(rc11=A_, c11lb=A_, armv8=F_)),
    ("IRIW+sc", iriw(w=SC, r=SC), dict(rc11=F_, c11lb=F_, armv8=F_)),
    ("IRIW+fences(sc)", iriw(f=SC), dict(rc11=F_, c11lb=F_, armv8=F_)),
    ("LB+fences(sc)", lb(f=SC), dict(rc11=F_, c11lb=F_, armv8=F_)),
    ("LB+rmws", lb_rmw(), dict(rc11=F_, c11lb=A_, armv8=F_)),
    ("LB+rmw+acq", lb_rmw_acq(), dict(rc11=F_, c11lb=A_, armv8=A_)),
    ("LB+recert", lb_recert(), dict(rc11=F_, c11lb=A_, armv8=F_)),
    ("OOTA+ctrls+w", oota(ctrl=True, third=True), dict(rc11=F_, c11lb=A_, armv8=F_)),
    ("2+2W", w22(), dict(rc11=A_, c11lb=A_, armv8=A_)),
    ("2+2W+fence(sc)+po", w22(f=SC, one=True), dict(rc11=A_, c11lb=A_, armv8=A_)),
    ("2+2W+rel", w22(w=REL), dict(rc11=A_, c11lb=A_, armv8=F_)),
    ("2+2W+fences(sc)", w22(f=SC), dict(rc11=F_, c11lb=F_, armv8=F_)),
    ("2+2W+sc", w22(w=SC), dict(rc11=F_, c11lb=F_, armv8=F_)),
]

# Shapes whose weak outcome no candidate execution has (their values never leave 0), so
# they have no verdict here; tests/explore/litmus_check.py compares their outcome sets.
SHAPES = [
    ("OOTA+datas", oota()),
    ("OOTA+ctrls", oota(ctrl=True)),
]


def expected(exp, model):
    """A wrong model is judged against the verdicts of the model it pretends to be."""
    if model.startswith("wrong:"):
        base = model.split(":")[1].split("-")[0]
        return exp[base]
    return exp[model]


def run(model, verbose=True):
    bad = 0
    for name, prog, exp in TESTS:
        if not wmm.candidate(prog):
            print(f"FAIL {name}: no candidate execution has the weak outcome")
            bad += 1
            continue
        got = wmm.witness(prog, model) is not None
        want = expected(exp, model)
        ok = got == want
        bad += not ok
        if verbose or not ok:
            print(f"{'ok  ' if ok else 'FAIL'} {model:24} {name:24} "
                  f"{'allowed' if got else 'forbidden'}"
                  + ("" if ok else f" (published: {'allowed' if want else 'forbidden'})"))
    return bad


def main(argv):
    if "--list" in argv:
        for name, _, exp in TESTS:
            print(name, " ".join(f"{m}={'A' if exp[m] else 'F'}" for m in wmm.MODELS))
        return 0
    if "--teeth" in argv:
        rc = 0
        for m in wmm.JUDGES:
            if m.startswith("wrong:"):
                n = run(m, verbose=False)
                print(f"{m}: {'rejected' if n else 'NOT rejected'} ({n} mismatches)")
                rc |= n == 0
        return rc
    models = list(wmm.MODELS)
    if "--model" in argv:
        i = argv.index("--model")
        if i + 1 >= len(argv) or argv[i + 1] not in wmm.JUDGES:
            print("litmus.py: --model needs one of " + ", ".join(wmm.JUDGES))
            return 2
        models = [argv[i + 1]]
    unknown = [a for a in argv if a.startswith("-") and a not in ("--model",)]
    if unknown:
        print(f"litmus.py: unknown option {unknown[0]}")
        return 2
    bad = sum(run(m) for m in models)
    print(f"{len(TESTS) * len(models) - bad} of {len(TESTS) * len(models)} verdicts match")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
