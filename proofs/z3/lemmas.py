"""Z3 lemmas for the arithmetic of Go's local run queue (issue #7).

Each lemma is a claim over fixed-width bitvectors, so "for all h, t" means all
2^bits values, wraparound included.  A *true* lemma is proved when
premises AND NOT(claim) is unsat.  Every true lemma has at least one false
twin (a plausible wrong variant); a twin is *refuted* when Z3 finds a model of
premises AND NOT(claim), which the runner prints as the counterexample.

Notation used in the comments and in proofs/CORRESPONDENCE.md:
  h, t    runqhead / runqtail as read by the function (uint32 in Go, `bits`
          wide here, 32 by default);
  cap     len(runq) (256 in Go), a power of two;
  L       the true number of Gs in the ring at some instant (an integer,
          0 <= L <= cap: the ring invariant);
  a, b    how far head / tail really advanced between two reads (integers,
          modelled in a wider bitvector so they do not wrap).

Step labels such as 'R5 are those of the step table in
proofs/CORRESPONDENCE.md, which ties each one to a Go statement and to the
C++ core's function and atomic site; Go line numbers are for go1.25 proc.go.
"""

from dataclasses import dataclass, field
from typing import Callable, Dict, List

import z3


@dataclass
class Cfg:
    bits: int = 32   # width of runqhead/runqtail (uint32 in Go)
    cap: int = 256   # len(pp.runq)

    def __post_init__(self):
        if self.cap < 2 or self.cap & (self.cap - 1):
            raise ValueError("cap must be a power of two >= 2")
        if self.cap > 2 ** (self.bits - 1):
            raise ValueError("cap must be <= 2^(bits-1)")

    @property
    def wide(self) -> int:
        # Wide enough that "true" integer quantities below 2^(2*bits) never wrap.
        return 2 * self.bits + 2


@dataclass
class Obligation:
    premises: List[z3.BoolRef]
    claim: z3.BoolRef
    show: Dict[str, z3.ExprRef] = field(default_factory=dict)  # printed in a counterexample
    signed: bool = False   # print 32-bit values as int32 (the glob groups)


@dataclass
class Lemma:
    name: str
    group: str
    expect: str            # "proved" (true lemma) or "refuted" (false twin)
    doc: str
    build: Callable[[Cfg], Obligation]


LEMMAS: List[Lemma] = []


def lemma(name, group, expect, doc):
    def deco(fn):
        LEMMAS.append(Lemma(name, group, expect, doc, fn))
        return fn
    return deco


# --------------------------------------------------------------------------
# helpers
def C(c: Cfg, v: int):
    return z3.BitVecVal(v, c.bits)


def W(c: Cfg, v: int):
    return z3.BitVecVal(v, c.wide)


def widen(c: Cfg, x):
    """Counter value -> wide unsigned integer."""
    return z3.ZeroExt(c.wide - c.bits, x)


def trunc(c: Cfg, x):
    """Wide integer -> counter (mod 2^bits)."""
    return z3.Extract(c.bits - 1, 0, x)


def ceil_half(x):
    # runqgrab: n := t - h; n = n - n/2
    return x - z3.UDiv(x, 2)


def slot(c: Cfg, x):
    # ring index: x % uint32(len(pp.runq))
    return z3.URem(x, C(c, c.cap))


def true_len(c: Cfg, name: str):
    """A true ring length L with 0 <= L <= cap (the ring invariant), wide."""
    L = z3.BitVec(name, c.wide)
    return L, z3.ULE(L, W(c, c.cap))


# --------------------------------------------------------------------------
# group ring: length, fullness and slot indices under wraparound
# Models: runqput's fast-path test 'P3, runqget's empty test 'G2,
# runqempty's head==tail.  Go: runqput (proc.go ~7116), runqget (~7226).

@lemma("ring.length", "ring", "proved",
       "t = h + L with 0 <= L <= cap  =>  t - h == L (uint32 subtraction wraps correctly)")
def _(c):
    h = z3.BitVec("h", c.bits)
    L, inv = true_len(c, "L")
    t = h + trunc(c, L)
    return Obligation([inv], widen(c, t - h) == L, {"h": h, "t": t, "L": L})


@lemma("ring.not_full", "ring", "proved",
       "under the invariant, t - h < cap  <=>  L < cap (runqput's fast-path test means 'not full')")
def _(c):
    h = z3.BitVec("h", c.bits)
    L, inv = true_len(c, "L")
    t = h + trunc(c, L)
    return Obligation([inv], z3.ULT(t - h, C(c, c.cap)) == z3.ULT(L, W(c, c.cap)),
                      {"h": h, "t": t, "L": L})


@lemma("ring.empty", "ring", "proved",
       "under the invariant, t == h  <=>  L == 0 (runqget / runqempty emptiness test)")
def _(c):
    h = z3.BitVec("h", c.bits)
    L, inv = true_len(c, "L")
    t = h + trunc(c, L)
    return Obligation([inv], (t == h) == (L == 0), {"h": h, "t": t, "L": L})


@lemma("ring.slots_distinct", "ring", "proved",
       "the L live counters h..h+L-1 map to distinct ring slots, and when L < cap the "
       "slot t % cap that runqput writes is none of them")
def _(c):
    h = z3.BitVec("h", c.bits)
    i = z3.BitVec("i", c.bits)
    j = z3.BitVec("j", c.bits)
    L, inv = true_len(c, "L")
    t = h + trunc(c, L)
    live_i = z3.ULT(widen(c, i), L)
    live_j = z3.ULT(widen(c, j), L)
    distinct = z3.Implies(z3.And(live_i, live_j, i != j), slot(c, h + i) != slot(c, h + j))
    put_free = z3.Implies(z3.And(z3.ULT(L, W(c, c.cap)), live_i), slot(c, t) != slot(c, h + i))
    return Obligation([inv], z3.And(distinct, put_free),
                      {"h": h, "t": t, "L": L, "i": i, "j": j})


@lemma("ring.index_wrap", "ring", "proved",
       "cap a power of two: (x+1) % cap == ((x % cap) + 1) % cap for every x, "
       "including x = 2^bits - 1 where the counter wraps")
def _(c):
    x = z3.BitVec("x", c.bits)
    return Obligation([], slot(c, x + 1) == slot(c, slot(c, x) + 1), {"x": x})


@lemma("ring.twin.not_full_le", "ring", "refuted",
       "FALSE: using t - h <= cap as the not-full test (a full ring would be overwritten)")
def _(c):
    h = z3.BitVec("h", c.bits)
    L, inv = true_len(c, "L")
    t = h + trunc(c, L)
    return Obligation([inv], z3.Implies(z3.ULE(t - h, C(c, c.cap)), z3.ULT(L, W(c, c.cap))),
                      {"h": h, "t": t, "L": L})


@lemma("ring.twin.compare_counters", "ring", "refuted",
       "FALSE: comparing counters (t < h + cap) instead of their difference as the not-full test")
def _(c):
    h = z3.BitVec("h", c.bits)
    L, inv = true_len(c, "L")
    t = h + trunc(c, L)
    return Obligation([inv], z3.ULT(t, h + C(c, c.cap)) == z3.ULT(L, W(c, c.cap)),
                      {"h": h, "t": t, "L": L})


@lemma("ring.twin.index_wrap_not_pow2", "ring", "refuted",
       "FALSE: the index wraps consistently where the counter wraps (x >= 2^bits - cap) with a "
       "ring size 1.5*cap, not a power of two (why the C++ core requires has_single_bit(Cap))")
def _(c):
    x = z3.BitVec("x", c.bits)
    m = C(c, c.cap + c.cap // 2)
    near_wrap = z3.UGE(x, C(c, 2 ** c.bits - c.cap))  # keeps the bvurem search small
    return Obligation([near_wrap], z3.URem(x + 1, m) == z3.URem(z3.URem(x, m) + 1, m), {"x": x})


# --------------------------------------------------------------------------
# group grab: runqgrab's torn read of (h, t) and what its guard buys.
#
# Timeline for the thief (Go: runqgrab, proc.go ~7273; labels as in
# proofs/CORRESPONDENCE.md):
#   'R1 h := LoadAcq(head)      -- at this instant head = h, tail = T1, L1 = T1 - h
#   ... head advances by a >= 0, tail by b >= 0 (owner puts, other consumers) ...
#   'R2 t := LoadAcq(tail)      -- at this instant head = h + a, tail = t, L2 = t - (h + a)
#   'R3 n := (t-h) - (t-h)/2    ('R4: n == 0 -> maybe steal runnext; not arithmetic)
#   'R5 if n > cap/2 { retry }  -- the torn-read guard
#   'R6 copy slots h .. h+n-1
#   'R7 CasRel(head, h, h+n)    -- head advanced by a2 >= 0 more since 'R2
# The ring invariant holds at every instant: 0 <= L1 <= cap, 0 <= L2 <= cap.

def torn_read(c: Cfg, small=False):
    """small=True (used by the twins): bound the advances by 2*cap, so a refutation
    needs no implausibly long stall of the thief."""
    h = z3.BitVec("h", c.bits)
    L1, inv1 = true_len(c, "L1")
    a = z3.BitVec("a", c.wide)  # head advance between 'R1 and 'R2
    b = z3.BitVec("b", c.wide)  # tail advance between 'R1 and 'R2
    L2 = L1 + b - a
    big = W(c, 2 ** (c.wide - 3))  # a, b are any non-negative amounts (no overflow in wide)
    prem = [inv1, z3.ULT(a, big), z3.ULT(b, big),
            z3.ULE(a, L1 + b),                 # head never passes tail
            z3.ULE(L2, W(c, c.cap))]           # invariant at 'R2
    if small:
        prem += [z3.ULE(a, W(c, 2 * c.cap)), z3.ULE(b, W(c, 2 * c.cap))]
    t = h + trunc(c, L1 + b)
    n = ceil_half(t - h)
    show = {"h": h, "t": t, "L1": L1, "a(head moved)": a, "b(tail moved)": b, "L2": L2, "n": n}
    return h, t, n, a, b, L2, prem, show


@lemma("grab.guard_iff_fits", "grab", "proved",
       "for ALL h, t: n = (t-h) - (t-h)/2 passes the guard n <= cap/2  <=>  t - h <= cap; "
       "so a passing guard bounds the copy by cap/2 (it fits the thief's half ring)")
def _(c):
    h = z3.BitVec("h", c.bits)
    t = z3.BitVec("t", c.bits)
    n = ceil_half(t - h)
    return Obligation([], z3.ULE(n, C(c, c.cap // 2)) == z3.ULE(t - h, C(c, c.cap)),
                      {"h": h, "t": t, "n": n})


@lemma("grab.consistent_read", "grab", "proved",
       "if head did not move between the two reads (a == 0) then t - h is the true length L2, "
       "the guard passes, n is L2/2 or L2/2+1, n <= L2, and n >= 1 when L2 >= 1")
def _(c):
    h, t, n, a, b, L2, prem, show = torn_read(c)
    nw = widen(c, n)
    half = z3.UDiv(L2, 2)
    claim = z3.And(widen(c, t - h) == L2,
                   z3.ULE(n, C(c, c.cap // 2)),
                   z3.Or(nw == half, nw == half + 1),
                   z3.ULE(nw, L2),
                   z3.Implies(z3.UGE(L2, 1), z3.UGE(n, 1)))
    return Obligation(prem + [a == 0], claim, show)


@lemma("grab.guard_pass_bounds", "grab", "proved",
       "torn read: whenever the guard passes, n <= cap/2 and n <= t - h <= cap "
       "(bounds on the copy only; the pair (h, t) may still be inconsistent, see the twins)")
def _(c):
    h, t, n, a, b, L2, prem, show = torn_read(c)
    guard = z3.ULE(n, C(c, c.cap // 2))
    claim = z3.And(z3.ULE(n, t - h), z3.ULE(t - h, C(c, c.cap)))
    return Obligation(prem + [guard], claim, show)


@lemma("grab.cas_validates", "grab", "proved",
       "if the CAS on head succeeds and head advanced by less than 2^bits in between (no ABA), "
       "then head never moved: (h, t) was the true state at 'R2, n <= L2, and no owner put "
       "made before the CAS (tail t' with t <= t' and t' - h < cap) wrote a copied slot")
def _(c):
    h, t, n, a, b, L2, prem, show = torn_read(c)
    a2 = z3.BitVec("a2", c.wide)          # head advance between 'R2 and 'R7
    tp = z3.BitVec("tp", c.bits)          # a tail value at which the owner writes a slot
    i = z3.BitVec("i", c.bits)
    guard = z3.ULE(n, C(c, c.cap // 2))
    cas_ok = trunc(c, a + a2) == 0        # head == h again at 'R7 (mod 2^bits)
    no_aba = z3.ULT(a + a2, W(c, 2 ** c.bits))
    owner_put = z3.And(z3.ULE(t - h, tp - h),          # tail only grows after 'R2
                       z3.ULT(tp - h, C(c, c.cap)))    # runqput's test with head still h
    claim = z3.And(a == 0,
                   widen(c, t - h) == L2,
                   z3.ULE(widen(c, n), L2),
                   z3.Implies(z3.And(owner_put, z3.ULT(i, n)), slot(c, tp) != slot(c, h + i)))
    show = dict(show, a2=a2, tp=tp, i=i)
    return Obligation(prem + [guard, cas_ok, no_aba, z3.ULT(a2, W(c, 2 ** (c.wide - 3)))],
                      claim, show)


@lemma("grab.twin.guard_implies_consistent", "grab", "refuted",
       "FALSE: a passing guard means the reads were consistent: t - h is the queue length L2 "
       "at the instant t was read")
def _(c):
    h, t, n, a, b, L2, prem, show = torn_read(c, small=True)
    return Obligation(prem + [z3.ULE(n, C(c, c.cap // 2))], widen(c, t - h) == L2, show)


@lemma("grab.twin.guard_implies_live", "grab", "refuted",
       "FALSE: a passing guard means the n copied slots were all still in the queue at 'R2 "
       "(they may be consumed and rewritten; only the CAS validates the copy)")
def _(c):
    h, t, n, a, b, L2, prem, show = torn_read(c, small=True)
    return Obligation(prem + [z3.ULE(n, C(c, c.cap // 2))], z3.ULE(widen(c, n), L2), show)


@lemma("grab.twin.no_guard", "grab", "refuted",
       "FALSE: without the guard, n <= cap/2 anyway (a torn read can see t - h > cap)")
def _(c):
    h, t, n, a, b, L2, prem, show = torn_read(c, small=True)
    return Obligation(prem, z3.ULE(n, C(c, c.cap // 2)), show)


@lemma("grab.twin.floor_half", "grab", "refuted",
       "FALSE: stealing the floor half n = (t-h)/2 takes at least one G from a non-empty queue")
def _(c):
    h, t, n, a, b, L2, prem, show = torn_read(c, small=True)
    nf = z3.UDiv(t - h, 2)
    show = dict(show, n_floor=nf)
    return Obligation(prem + [a == 0, z3.UGE(L2, 1)], z3.UGE(nf, 1), show)


@lemma("grab.twin.cas_aba", "grab", "refuted",
       "FALSE: without the no-ABA assumption a successful CAS proves head never moved "
       "(head can advance by exactly 2^bits while the thief is descheduled)")
def _(c):
    h, t, n, a, b, L2, prem, show = torn_read(c)
    a2 = z3.BitVec("a2", c.wide)
    cas_ok = trunc(c, a + a2) == 0
    show = dict(show, a2=a2)
    return Obligation(prem + [z3.ULE(n, C(c, c.cap // 2)), cas_ok,
                              z3.ULE(a, W(c, 2 ** c.bits)), z3.ULE(b, W(c, 2 ** c.bits)),
                              z3.ULT(a2, W(c, 2 ** (c.wide - 3)))], a == 0, show)


# --------------------------------------------------------------------------
# group putslow: runqput's slow path (Go: runqput ~7116, runqputslow ~7135).
# The owner's tail t is exact (only the owner writes it); h is a load-acquire
# of head, possibly older than the current head: head = h + d, d >= 0.  At
# the instant h was read, tail was already t, so t - h <= cap (invariant).

def owner_view(c: Cfg):
    h = z3.BitVec("h", c.bits)
    Lr, inv = true_len(c, "L_at_read")   # true length when h was read
    d = z3.BitVec("d", c.wide)           # head advance since the read
    t = h + trunc(c, Lr)
    prem = [inv, z3.ULE(d, Lr)]   # head never passes tail
    show = {"h": h, "t": t, "L_at_read": Lr, "d(head moved since read)": d}
    return h, t, Lr, d, prem, show


@lemma("putslow.not_full_unreachable", "putslow", "proved",
       "slow path (t - h >= cap) under the invariant  =>  (t-h)/2 == cap/2, "
       "so throw(\"runqputslow: queue is not full\") is unreachable")
def _(c):
    h, t, Lr, d, prem, show = owner_view(c)
    slow = z3.Not(z3.ULT(t - h, C(c, c.cap)))
    return Obligation(prem + [slow], z3.UDiv(t - h, 2) == C(c, c.cap // 2), show)


@lemma("putslow.cas_outcomes", "putslow", "proved",
       "slow path: the batch is cap/2 ring Gs + gp (fits [cap/2+1]); if the CAS succeeds (no ABA) "
       "the ring keeps cap/2 < cap; if it fails, head moved, and the retried fast-path test "
       "(any later head read h2) passes: t - h2 < cap")
def _(c):
    h, t, Lr, d, prem, show = owner_view(c)
    e = z3.BitVec("e", c.wide)                       # further head advance before the retry read
    slow = z3.Not(z3.ULT(t - h, C(c, c.cap)))
    n = z3.UDiv(t - h, 2)
    h2 = h + trunc(c, d + e)
    ok_case = z3.Implies(d == 0, z3.ULT(t - (h + n), C(c, c.cap)))
    fail_case = z3.Implies(d != 0, z3.ULT(t - h2, C(c, c.cap)))
    return Obligation(prem + [slow, z3.ULE(e, Lr), z3.ULE(d + e, Lr)],
                      z3.And(n + 1 == C(c, c.cap // 2 + 1), ok_case, fail_case),
                      dict(show, e=e, h2=h2))


@lemma("putslow.twin.half_is_127", "putslow", "refuted",
       "FALSE: the slow path moves cap/2 - 1 Gs (127 for cap 256)")
def _(c):
    h, t, Lr, d, prem, show = owner_view(c)
    slow = z3.Not(z3.ULT(t - h, C(c, c.cap)))
    return Obligation(prem + [slow], z3.UDiv(t - h, 2) == C(c, c.cap // 2 - 1), show)


@lemma("putslow.twin.no_invariant", "putslow", "refuted",
       "FALSE: without the invariant t - h <= cap the throw is unreachable anyway")
def _(c):
    h = z3.BitVec("h", c.bits)
    t = z3.BitVec("t", c.bits)
    slow = z3.Not(z3.ULT(t - h, C(c, c.cap)))
    return Obligation([slow], z3.UDiv(t - h, 2) == C(c, c.cap // 2), {"h": h, "t": t})


@lemma("putslow.twin.stale_means_full", "putslow", "refuted",
       "FALSE: entering the slow path means the ring is full now (the acquire-read head may be "
       "stale; then the CAS fails and runqput retries)")
def _(c):
    h, t, Lr, d, prem, show = owner_view(c)
    slow = z3.Not(z3.ULT(t - h, C(c, c.cap)))
    return Obligation(prem + [slow], Lr - d == W(c, c.cap), show)


# --------------------------------------------------------------------------
# group steal: runqsteal's room check (Go: runqsteal ~7328).
# The thief grabs g Gs (runqgrab's result, 1 <= g) into its own ring at its
# tail tt, keeps the last one, and publishes g-1: throw if tt - th + (g-1) >= cap.

def thief_view(c: Cfg):
    th = z3.BitVec("th", c.bits)     # thief's head (own ring)
    k, inv = true_len(c, "k")        # thief's own queue length
    tt = th + trunc(c, k)            # thief's tail
    return th, tt, k, inv


@lemma("steal.empty_no_overflow", "steal", "proved",
       "thief ring empty (tt == th) and 1 <= g <= cap/2 grabbed  =>  tt - th + (g-1) < cap: "
       "throw(\"runqsteal: runq overflow\") is unreachable")
def _(c):
    th = z3.BitVec("th", c.bits)
    g = z3.BitVec("g", c.bits)
    tt = th
    prem = [z3.UGE(g, 1), z3.ULE(g, C(c, c.cap // 2))]
    return Obligation(prem, z3.ULT(tt - th + (g - 1), C(c, c.cap)), {"th": th, "tt": tt, "g": g})


@lemma("steal.half_no_overflow", "steal", "proved",
       "generalisation: thief holds k <= cap/2 Gs and grabs 1 <= g <= cap/2  =>  no overflow "
       "and the g written slots [tt, tt+g) overwrite none of the k live ones")
def _(c):
    th, tt, k, inv = thief_view(c)
    g = z3.BitVec("g", c.bits)
    i = z3.BitVec("i", c.bits)
    j = z3.BitVec("j", c.bits)
    prem = [inv, z3.ULE(k, W(c, c.cap // 2)), z3.UGE(g, 1), z3.ULE(g, C(c, c.cap // 2))]
    no_alias = z3.Implies(z3.And(z3.ULT(i, g), z3.ULT(widen(c, j), k)),
                          slot(c, tt + i) != slot(c, th + j))
    return Obligation(prem, z3.And(z3.ULT(tt - th + (g - 1), C(c, c.cap)), no_alias),
                      {"th": th, "tt": tt, "k": k, "g": g, "i": i, "j": j})


@lemma("steal.chain_with_grab", "steal", "proved",
       "for ANY victim read (vh, vt), runqgrab's guard makes g = ceil((vt-vh)/2) <= cap/2, so an "
       "empty thief never overflows (the guard is what discharges runqsteal's precondition)")
def _(c):
    vh = z3.BitVec("vh", c.bits)
    vt = z3.BitVec("vt", c.bits)
    th = z3.BitVec("th", c.bits)
    g = ceil_half(vt - vh)
    tt = th                                  # thief's ring empty
    prem = [z3.UGE(g, 1), z3.ULE(g, C(c, c.cap // 2))]
    return Obligation(prem, z3.ULT(tt - th + (g - 1), C(c, c.cap)),
                      {"vh": vh, "vt": vt, "g": g})


@lemma("steal.twin.thief_over_half", "steal", "refuted",
       "FALSE: the room check cannot fire even if the thief's ring holds more than cap/2 Gs")
def _(c):
    th, tt, k, inv = thief_view(c)
    g = z3.BitVec("g", c.bits)
    prem = [inv, z3.UGT(k, W(c, c.cap // 2)), z3.UGE(g, 1), z3.ULE(g, C(c, c.cap // 2))]
    return Obligation(prem, z3.ULT(tt - th + (g - 1), C(c, c.cap)),
                      {"th": th, "tt": tt, "k": k, "g": g})


@lemma("steal.twin.no_grab_guard", "steal", "refuted",
       "FALSE: an empty thief never overflows even if runqgrab had no n > cap/2 guard")
def _(c):
    vh = z3.BitVec("vh", c.bits)
    vt = z3.BitVec("vt", c.bits)
    th = z3.BitVec("th", c.bits)
    g = ceil_half(vt - vh)
    tt = th                                  # thief's ring empty
    return Obligation([z3.UGE(g, 1)], z3.ULT(tt - th + (g - 1), C(c, c.cap)),
                      {"vh": vh, "vt": vt, "g": g})


# --------------------------------------------------------------------------
# groups globbatch (go1.25 globrunqgetbatch, proc.go ~6930) and globget123
# (go1.3..1.24 globrunqget(pp, max)).  int32 arithmetic as in Go: signed
# division truncates toward zero (z3 '/' on bitvectors is bvsdiv), + wraps.

I32_MAX = 2 ** 31 - 1


def i32(name):
    return z3.BitVec(name, 32)


def smin(*xs):
    m = xs[0]
    for x in xs[1:]:
        m = z3.If(x < m, x, m)   # '<' on BitVec is signed
    return m


def glob_inputs(c: Cfg, bounded=True):
    size = i32("size")            # sched.runq.size (int32)
    gmp = i32("gomaxprocs")       # gomaxprocs (int32)
    prem = [size >= 1, gmp >= 1]
    if bounded:
        # A gQueue holding 2^31-1 Gs needs terabytes of G structs: the bound is
        # a real-world premise, not a theorem; the int32_max twins show why it is needed.
        prem.append(size < I32_MAX)
    return size, gmp, prem


def batch_n(c: Cfg, size, gmp, with_size=True, plus_one=True):
    req = z3.BitVecVal(c.cap // 2, 32)           # int32(len(pp.runq)) / 2
    q = size / gmp + (1 if plus_one else 0)
    return smin(req, size, q) if with_size else smin(req, q)


@lemma("globbatch.bounds", "globbatch", "proved",
       "go1.25: n = min(cap/2, size, size/gomaxprocs+1) with 1 <= size < 2^31-1, gomaxprocs >= 1  "
       "=>  1 <= n <= min(cap/2, size), and the n-1 Gs for runqputbatch fit an empty ring "
       "(n-1 < cap)")
def _(c):
    size, gmp, prem = glob_inputs(c)
    n = batch_n(c, size, gmp)
    req = z3.BitVecVal(c.cap // 2, 32)
    claim = z3.And(n >= 1, n <= size, n <= req, n - 1 < z3.BitVecVal(c.cap, 32))
    return Obligation(prem, claim, {"size": size, "gomaxprocs": gmp, "n": n}, signed=True)


@lemma("globbatch.twin.no_size_min", "globbatch", "refuted",
       "FALSE: dropping 'size' from the min still gives n <= size")
def _(c):
    size, gmp, prem = glob_inputs(c)
    n = batch_n(c, size, gmp, with_size=False)
    return Obligation(prem, n <= size, {"size": size, "gomaxprocs": gmp, "n": n}, signed=True)


@lemma("globbatch.twin.no_plus_one", "globbatch", "refuted",
       "FALSE: without the +1, n = min(cap/2, size, size/gomaxprocs) still returns a G (n >= 1)")
def _(c):
    size, gmp, prem = glob_inputs(c)
    n = batch_n(c, size, gmp, plus_one=False)
    return Obligation(prem, n >= 1, {"size": size, "gomaxprocs": gmp, "n": n}, signed=True)


@lemma("globbatch.twin.int32_max", "globbatch", "refuted",
       "FALSE: the bounds hold for every positive int32 size (size/gomaxprocs+1 overflows at "
       "size = 2^31-1, gomaxprocs = 1)")
def _(c):
    size, gmp, prem = glob_inputs(c, bounded=False)
    n = batch_n(c, size, gmp)
    return Obligation(prem, z3.And(n >= 1, n <= size), {"size": size, "gomaxprocs": gmp, "n": n},
                      signed=True)


def glob123_n(c: Cfg, size, gmp, mx, half_cap=True):
    n = size / gmp + 1
    n = z3.If(n > size, size, n)
    n = z3.If(z3.And(mx > 0, n > mx), mx, n)
    if half_cap:
        h = z3.BitVecVal(c.cap // 2, 32)
        n = z3.If(n > h, h, n)
    return n


@lemma("globget123.bounds", "globget123", "proved",
       "go1.3..1.24 globrunqget(pp, max): 1 <= n <= size, n <= cap/2, n <= max if max > 0; "
       "the n-1 runqput()s done under sched.lock stay on the fast path when the ring is empty")
def _(c):
    size, gmp, prem = glob_inputs(c)
    mx = i32("max")
    n = glob123_n(c, size, gmp, mx)
    claim = z3.And(n >= 1, n <= size, n <= z3.BitVecVal(c.cap // 2, 32),
                   z3.Implies(mx > 0, n <= mx),
                   n - 1 < z3.BitVecVal(c.cap, 32))
    return Obligation(prem, claim, {"size": size, "gomaxprocs": gmp, "max": mx, "n": n},
                      signed=True)


@lemma("globget123.twin.no_half_cap", "globget123", "refuted",
       "FALSE: without the cap/2 clamp, n <= cap/2 anyway")
def _(c):
    size, gmp, prem = glob_inputs(c)
    mx = i32("max")
    n = glob123_n(c, size, gmp, mx, half_cap=False)
    return Obligation(prem, n <= z3.BitVecVal(c.cap // 2, 32),
                      {"size": size, "gomaxprocs": gmp, "max": mx, "n": n}, signed=True)


@lemma("globget123.twin.nonempty_ring", "globget123", "refuted",
       "FALSE: the n-1 runqput()s under sched.lock stay on the fast path whatever the local ring "
       "holds (they can reach runqputslow, which locks sched.lock again: the latent self-deadlock "
       "go1.25 removed by splitting globrunqgetbatch from runqputbatch)")
def _(c):
    size, gmp, prem = glob_inputs(c)
    mx = i32("max")
    k = i32("k")   # Gs already in the local ring
    n = glob123_n(c, size, gmp, mx)
    prem = prem + [k >= 0, k <= z3.BitVecVal(c.cap, 32)]
    return Obligation(prem, k + (n - 1) < z3.BitVecVal(c.cap, 32),
                      {"size": size, "gomaxprocs": gmp, "max": mx, "k": k, "n": n}, signed=True)


@lemma("globget123.twin.int32_max", "globget123", "refuted",
       "FALSE: the bounds hold for every positive int32 size (same int32 overflow as go1.25)")
def _(c):
    size, gmp, prem = glob_inputs(c, bounded=False)
    mx = i32("max")
    n = glob123_n(c, size, gmp, mx)
    return Obligation(prem, z3.And(n >= 1, n <= size),
                      {"size": size, "gomaxprocs": gmp, "max": mx, "n": n}, signed=True)


GROUPS = ["ring", "grab", "putslow", "steal", "globbatch", "globget123"]
