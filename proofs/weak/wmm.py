#!/usr/bin/python3
"""Axiomatic weak-memory checker for small programs (issue #17).

A program is a few threads of instructions (reads, writes, CASes, exchanges, fences), each
access with a C++ order; locations and values may be computed from registers, which gives
address, data and control dependencies.  Every candidate execution (each thread's path for
every choice of read values, reads-from, coherence order) is enumerated explicitly and
judged under:

  rc11   Lahav, Vafeiadis, Kang, Hur, Dreyer, "Repairing sequential consistency in C/C++11",
         PLDI 2017, section 3 (coherence, atomicity, SC via psc, no-thin-air: sb | rf acyclic).
  c11lb  the same without the no-thin-air axiom: C11 as written, load buffering allowed.
  armv8  the ARMv8 axiomatic model of Pulte et al., "Simplifying ARM concurrency", POPL 2018,
         as herdtools7's catalogue/aarch64/cats/aarch64-v04.cat writes it: internal (SC per
         location), external (ob acyclic, ob = obs | lws | dob | aob | bob), atomic.

Why explicit enumeration and not z3: the programs have at most a dozen events, so all
executions number in the thousands; enumerating them keeps every axiom a few lines of set
algebra that reads like the papers' definitions, prints a witness as it is, and needs no
solver (so the gate runs with any python3).  z3 would pay off only for much larger programs.

C++ -> ARMv8 mapping (as GCC and Clang compile for ARMv8.0, without LSE): relaxed load/store
-> LDR/STR; acquire (and seq_cst) load -> LDAR; release (and seq_cst) store -> STLR; an RMW
-> an LDXR/STXR pair, LDAXR when the success order has acquire, STLXR when it has release (a
failing CAS executes the same load-exclusive); fences: acquire -> DMB ISHLD, release,
acq_rel, seq_cst -> DMB ISH.  The compare-and-branch of a CAS loop gives a control
dependency from the reads that fed the expected value to the store-exclusive and all later
events.
"""
import itertools

ORDERS = ("relaxed", "acquire", "release", "acq_rel", "seq_cst")
MODELS = ("rc11", "c11lb", "armv8")


class Error(Exception):
    pass


# --- programs ---------------------------------------------------------------------------

class X:
    """An expression over registers: fn(regs) with the registers it reads (for deps)."""

    def __init__(self, fn, *regs):
        self.fn, self.regs = fn, regs


def ev(e, regs):
    return e.fn(regs) if isinstance(e, X) else e


def uses(e):
    return set(e.regs) if isinstance(e, X) else set()


class R:
    def __init__(self, reg, loc, order="relaxed"):
        self.reg, self.loc, self.order = reg, loc, order


class W:
    def __init__(self, loc, val, order="relaxed"):
        self.loc, self.val, self.order = loc, val, order


class CAS:
    """reg := old value; on old == expect, write new (success order), else a read."""

    def __init__(self, reg, loc, expect, new, order="seq_cst", fail="relaxed"):
        self.reg, self.loc, self.expect, self.new = reg, loc, expect, new
        self.order, self.fail = order, fail


class XCHG:
    """reg := old value; writes new whatever it read (an RMW that never fails)."""

    def __init__(self, reg, loc, new, order="seq_cst"):
        self.reg, self.loc, self.new, self.order = reg, loc, new, order


class F:
    def __init__(self, order="seq_cst"):
        self.order = order


class If:
    """The thread goes on only if cond(regs) holds (a branch: control dependency)."""

    def __init__(self, cond):
        if not isinstance(cond, X):
            raise Error("If needs an X expression")
        self.cond = cond


class Program:
    def __init__(self, name, init, threads, cond, doc=""):
        for t in threads:
            for ins in t:
                o = getattr(ins, "order", "relaxed")
                if o not in ORDERS:
                    raise Error(f"{name}: unknown order {o!r}")
        self.name, self.init, self.threads, self.cond, self.doc = name, init, threads, cond, doc
        self.progress = False  # True: the bad outcome costs progress, not safety


# --- events -----------------------------------------------------------------------------

class Event:
    __slots__ = ("id", "tid", "kind", "loc", "val", "order", "src", "reg", "deps", "rmw",
                 "site")

    def __init__(self, eid, tid, kind, loc, val, order, src="", reg=None, site=None):
        self.id, self.tid, self.kind, self.loc, self.val = eid, tid, kind, loc, val
        self.order, self.src, self.reg = str(order), src, reg
        self.site = site if site is not None else getattr(order, "site", None)
        self.deps = {"addr": set(), "data": set(), "ctrl": set()}  # ids of reads
        self.rmw = None  # for an RMW read: id of its write

    def acq(self):
        return self.order in ("acquire", "acq_rel", "seq_cst") and self.kind in "RF"

    def rel(self):
        return self.order in ("release", "acq_rel", "seq_cst") and self.kind in "WF"

    def sc(self):
        return self.order == "seq_cst"

    def text(self):
        o = {"relaxed": "rlx", "acquire": "acq", "release": "rel", "acq_rel": "ar",
             "seq_cst": "sc"}[self.order]
        if self.kind == "F":
            return f"F{o}"
        cas = (" (xchg)" if self.src == "xchg" else " (cas)") if self.src else ""
        if self.kind == "R":
            return f"R{o} {self.loc}={self.val}" + (f" ({self.reg})" if self.reg else "") + cas
        return f"W{o} {self.loc}={self.val}" + cas


def thread_paths(tid, instrs, domain):
    """Every path of one thread: (events, regs) for each choice of read values in domain.
    Event ids are assigned later; deps hold indices into the thread's event list."""
    out = []

    def go(i, regs, evs, regsrc, ctrl):
        if i == len(instrs):
            out.append((evs, dict(regs)))
            return
        ins = instrs[i]
        if isinstance(ins, If):
            c = ctrl | {regsrc[r] for r in uses(ins.cond) if r in regsrc}
            if ev(ins.cond, regs):
                go(i + 1, regs, evs, regsrc, c)
            else:
                out.append((evs, dict(regs)))
            return
        if isinstance(ins, F):
            e = Event(None, tid, "F", None, None, ins.order)
            e.deps["ctrl"] = set(ctrl)
            go(i + 1, regs, evs + [e], regsrc, ctrl)
            return
        loc = ev(ins.loc, regs)
        addr = {regsrc[r] for r in uses(ins.loc) if r in regsrc}
        if isinstance(ins, W):
            e = Event(None, tid, "W", loc, ev(ins.val, regs), ins.order)
            e.deps.update(addr=addr, data={regsrc[r] for r in uses(ins.val) if r in regsrc},
                          ctrl=set(ctrl))
            go(i + 1, regs, evs + [e], regsrc, ctrl)
            return
        for v in sorted(domain.get(loc, ()), key=repr):
            k = len(evs)
            nregs = dict(regs, **{ins.reg: v})
            nsrc = dict(regsrc, **{ins.reg: k})
            if isinstance(ins, R):
                e = Event(None, tid, "R", loc, v, ins.order, reg=ins.reg)
                e.deps.update(addr=addr, ctrl=set(ctrl))
                go(i + 1, nregs, evs + [e], nsrc, ctrl)
                continue
            if isinstance(ins, XCHG):
                # an LDXR/STXR loop retried only when the store-exclusive fails: no
                # dependency on the value read (SWP with LSE)
                ro = {"release": "relaxed", "acq_rel": "acquire"}.get(ins.order, ins.order)
                wo = {"acquire": "relaxed", "acq_rel": "release"}.get(ins.order, ins.order)
                r = Event(None, tid, "R", loc, v, ro, src="xchg", reg=ins.reg)
                r.deps.update(addr=addr, ctrl=set(ctrl))
                w = Event(None, tid, "W", loc, ev(ins.new, regs), wo, src="xchg")
                w.deps.update(addr=addr, ctrl=set(ctrl),
                              data={regsrc[x] for x in uses(ins.new) if x in regsrc})
                r.rmw = k + 1
                go(i + 1, nregs, evs + [r, w], nsrc, ctrl)
                continue
            exp = ev(ins.expect, regs)
            cctrl = ctrl | {regsrc[r] for r in uses(ins.expect) if r in regsrc}
            if v == exp:
                ro = {"release": "relaxed", "acq_rel": "acquire"}.get(ins.order, ins.order)
                wo = {"acquire": "relaxed", "acq_rel": "release"}.get(ins.order, ins.order)
                site = getattr(ins.order, "site", None)
                r = Event(None, tid, "R", loc, v, ro, src="cas", reg=ins.reg, site=site)
                r.deps.update(addr=addr, ctrl=set(ctrl))
                w = Event(None, tid, "W", loc, ev(ins.new, regs), wo, src="cas", site=site)
                w.deps.update(addr=addr, ctrl=cctrl | {k},
                              data={regsrc[x] for x in uses(ins.new) if x in regsrc})
                r.rmw = k + 1
                go(i + 1, dict(nregs, **{ins.reg + "_ok": True}), evs + [r, w], nsrc,
                   cctrl | {k})
            else:
                # the failing CAS runs the same load-exclusive: its acquire-ness follows
                # the success order on ARMv8; C++ gives it the failure order.
                r = Event(None, tid, "R", loc, v, ins.fail, reg=ins.reg,
                          site=getattr(ins.order, "site", None))
                r.deps.update(addr=addr, ctrl=set(ctrl))
                r.src = "casfail:" + ins.order
                go(i + 1, dict(nregs, **{ins.reg + "_ok": False}), evs + [r], nsrc,
                   cctrl | {k})

    go(0, {}, [], {}, set())
    return out


def value_domain(prog):
    """Per location, the values a read may return: the initial value and every value some
    path writes, to a fixpoint (values no write produces are never read: no thin air)."""
    dom = {loc: {v} for loc, v in prog.init.items()}
    for _ in range(8):
        new = {k: set(v) for k, v in dom.items()}
        for tid, t in enumerate(prog.threads):
            for evs, _ in thread_paths(tid, t, dom):
                for e in evs:
                    if e.kind == "W":
                        if e.loc not in new:
                            raise Error(f"{prog.name}: location {e.loc} has no initial value")
                        new[e.loc].add(e.val)
        if new == dom:
            return dom
        dom = new
    raise Error(f"{prog.name}: value domain does not converge")


class Execution:
    def __init__(self, events, po, rf, co, rmw, regs, deps):
        self.events, self.po, self.rf, self.co, self.rmw = events, po, rf, co, rmw
        self.regs, self.deps = regs, deps

    def text(self):
        ev_ = self.events
        src = {r: w for w, r in self.rf}
        lines = []
        for tid in sorted({e.tid for e in ev_ if e.tid >= 0}):
            lines.append(f"  thread {tid}:")
            for e in ev_:
                if e.tid != tid:
                    continue
                s = f"    e{e.id}: {e.text()}"
                if e.kind == "R":
                    w = ev_[src[e.id]]
                    s += "   <- " + ("init" if w.tid < 0 else f"e{w.id}")
                d = [k + " " + ",".join(f"e{a}" for a, b in sorted(self.deps[k]) if b == e.id)
                     for k in ("addr", "data", "ctrl")
                     if any(b == e.id for _, b in self.deps[k])]
                lines.append(s + ("   [" + "; ".join(d) + "]" if d else "")
                             + (f"   @{e.site}" if e.site else ""))
        for loc in sorted({e.loc for e in ev_ if e.kind == "W"}):
            ws = sorted((e for e in ev_ if e.kind == "W" and e.loc == loc),
                        key=lambda e: self.co_rank[e.id])
            lines.append(f"  co {loc}: " + " -> ".join(
                "init" if w.tid < 0 else f"e{w.id}" for w in ws))
        return "\n".join(lines)


def executions(prog):
    """Every candidate execution: (Execution, final regs per thread, final memory)."""
    dom = value_domain(prog)
    per_thread = [thread_paths(tid, t, dom) for tid, t in enumerate(prog.threads)]
    for combo in itertools.product(*per_thread):
        events = []
        for loc in sorted(prog.init):
            events.append(Event(len(events), -1, "W", loc, prog.init[loc], "relaxed"))
        po, rmw = set(), set()
        deps = {"addr": set(), "data": set(), "ctrl": set()}
        regs = []
        for tid, (evs, rg) in enumerate(combo):
            base = len(events)
            ids = []
            for j, e in enumerate(evs):
                e2 = Event(base + j, tid, e.kind, e.loc, e.val, e.order, e.src, e.reg, e.site)
                if e.rmw is not None:
                    rmw.add((base + j, base + e.rmw))
                for k in deps:
                    for x in e.deps[k]:
                        deps[k].add((base + x, base + j))
                events.append(e2)
                ids.append(base + j)
            po |= {(a, b) for i, a in enumerate(ids) for b in ids[i + 1:]}
            regs.append(rg)
        reads = [e for e in events if e.kind == "R"]
        cands = []
        for r in reads:
            ws = [w.id for w in events if w.kind == "W" and w.loc == r.loc and w.val == r.val
                  and w.id != r.id]
            if not ws:
                break
            cands.append(ws)
        else:
            locs = sorted({e.loc for e in events if e.kind == "W"})
            cos = []
            for loc in locs:
                ws = [e.id for e in events if e.kind == "W" and e.loc == loc and e.tid >= 0]
                init = [e.id for e in events if e.kind == "W" and e.loc == loc and e.tid < 0]
                cos.append([init + list(p) for p in itertools.permutations(ws)])
            for rfc in itertools.product(*cands):
                rf = {(w, r.id) for w, r in zip(rfc, reads)}
                for coc in itertools.product(*cos):
                    co, rank = set(), {}
                    final = {}
                    for chain, loc in zip(coc, locs):
                        for i, a in enumerate(chain):
                            rank[a] = i
                            co |= {(a, b) for b in chain[i + 1:]}
                        final[loc] = events[chain[-1]].val
                    x = Execution(events, po, rf, co, rmw, regs, deps)
                    x.co_rank = rank
                    x.final = final
                    yield x


# --- relations --------------------------------------------------------------------------

def comp(a, b):
    idx = {}
    for x, y in b:
        idx.setdefault(x, []).append(y)
    return {(x, z) for x, y in a for z in idx.get(y, ())}


def plus(a):
    c = set(a)
    while True:
        n = c | comp(c, c)
        if n == c:
            return c
        c = n


def acyclic(a):
    return all(x != y for x, y in plus(a))


def ident(s):
    return {(x, x) for x in s}


def opt(a, dom):
    return a | ident(dom)


# --- the models -------------------------------------------------------------------------

def rc11(x, nta=True, sc=True):
    """Lahav et al. 2017, RC11 (nta=False: without sb|rf acyclicity, i.e. C11 with LB)."""
    E = x.events
    ids = {e.id for e in E}
    sb = set(x.po)
    init = {e.id for e in E if e.tid < 0}
    sb_init = {(i, e.id) for i in init for e in E if e.tid >= 0}
    rf, mo, rmw = x.rf, x.co, x.rmw
    fr = comp({(r, w) for w, r in rf}, mo) - ident(ids)
    W_ = {e.id for e in E if e.kind == "W"}
    F_ = {e.id for e in E if e.kind == "F"}
    same = {(a, b) for a, b in sb if E[a].loc is not None and E[a].loc == E[b].loc}
    rel = ident({e.id for e in E if e.rel()})
    acq = ident({e.id for e in E if e.acq()})
    rs = comp(comp(ident(W_), opt(same, ids)), ident(W_))
    rs = comp(rs, opt(plus(comp(rf, rmw)), ids))
    fsb = comp(ident(F_), sb)
    sbf = comp(sb, ident(F_))
    sw = comp(comp(comp(comp(rel, opt(fsb, ids)), rs), rf), opt(sbf, ids))
    sw = comp(sw, acq)
    hb = plus(sb | sb_init | sw)
    eco = plus(rf | mo | fr)
    if any(a == b for a, b in comp(hb, opt(eco, ids))):
        return False, "coherence"
    if rmw & comp(fr, mo):
        return False, "atomicity"
    if sc:
        S = ident({e.id for e in E if e.sc()})
        Fs = ident({e.id for e in E if e.sc() and e.kind == "F"})
        neq = {(a, b) for a, b in sb if (a, b) not in same}
        hbl = {(a, b) for a, b in hb if E[a].loc is not None and E[a].loc == E[b].loc}
        scb = sb | comp(comp(neq, hb), neq) | hbl | mo | fr
        left = S | comp(Fs, opt(hb, ids))
        right = S | comp(opt(hb, ids), Fs)
        psc = comp(comp(left, scb), right)
        psc |= comp(comp(Fs, hb | comp(comp(hb, eco), hb)), Fs)
        if not acyclic(psc):
            return False, "sc"
    if nta and not acyclic(sb | rf):
        return False, "no-thin-air"
    return True, ""


def armv8(x, dob_on=True, bob_on=True):
    """ARMv8: herdtools7 catalogue/aarch64/cats/aarch64-v04.cat (Pulte et al. 2018 and its
    refinements lws, lrs), without ISB, MTE tags and LSE atomics, which the mapping never
    emits; si (same instruction) is the identity here."""
    E = x.events
    ids = {e.id for e in E}
    po, rf, co, rmw = x.po, x.rf, x.co, x.rmw
    fr = comp({(r, w) for w, r in rf}, co) - ident(ids)

    def ext(a):
        return {(p, q) for p, q in a if E[p].tid != E[q].tid}

    rfe, rfi = ext(rf), rf - ext(rf)
    poloc = {(a, b) for a, b in po if E[a].loc is not None and E[a].loc == E[b].loc}
    if not acyclic(poloc | fr | co | rf):
        return False, "internal"
    R_ = {e.id for e in E if e.kind == "R"}
    W_ = {e.id for e in E if e.kind == "W"}

    def is_a(e):  # LDAR / LDAXR
        if e.kind != "R":
            return False
        if e.src.startswith("casfail:"):
            return e.src.split(":")[1] in ("acquire", "acq_rel", "seq_cst")
        return e.acq()

    A = {e.id for e in E if is_a(e)}
    L = {e.id for e in E if e.kind == "W" and e.rel()}
    dfull = {e.id for e in E if e.kind == "F" and e.order != "acquire"}
    dld = {e.id for e in E if e.kind == "F" and e.order == "acquire"}
    obs = rfe | ext(fr) | ext(co)
    # lrs: a write and a po-later read of its location with no write between them
    lrs = {(w, r) for w, r in poloc if w in W_ and r in R_
           and not any((w, v) in poloc and (v, r) in poloc for v in W_)}
    lws = comp(poloc, ident(W_))
    addr, data, ctrl = x.deps["addr"], x.deps["data"], x.deps["ctrl"]
    dob = set()
    if dob_on:
        dob = (addr | data | comp(ctrl, ident(W_)) | comp(comp(addr, po), ident(W_))
               | comp(addr | data, lrs))
    aob = rmw | comp(comp(ident({w for _, w in rmw}), lrs), ident(A))
    bob = set()
    if bob_on:
        bob = (comp(comp(po, ident(dfull)), po) | comp(comp(ident(L), po), ident(A))
               | comp(comp(comp(ident(R_), po), ident(dld)), po) | comp(ident(A), po)
               | comp(po, ident(L)))
    if not acyclic(obs | lws | dob | aob | bob):
        return False, "external"
    if rmw & comp(ext(fr), ext(co)):
        return False, "atomic"
    return True, ""


JUDGES = {
    "rc11": rc11,
    "c11lb": lambda x: rc11(x, nta=False),
    "armv8": armv8,
    # deliberately wrong models, for the teeth tests
    "wrong:rc11-without-nta": lambda x: rc11(x, nta=False),
    "wrong:c11lb-without-sc": lambda x: rc11(x, nta=False, sc=False),
    "wrong:armv8-without-dob": lambda x: armv8(x, dob_on=False),
    "wrong:armv8-without-bob": lambda x: armv8(x, bob_on=False),
}


def outcome(x, prog):
    return prog.cond(x.regs, x.final)


def candidate(prog):
    """Some candidate execution (judged by no model) has the outcome: without one, every
    'forbidden' verdict on prog would be vacuous."""
    return any(outcome(x, prog) for x in executions(prog))


def witness(prog, model):
    """A consistent execution of prog under model satisfying prog.cond, or None."""
    judge = JUDGES[model]
    for x in executions(prog):
        if outcome(x, prog) and judge(x)[0]:
            return x
    return None
