#!/usr/bin/python3
"""The run queues' idioms as litmus programs, their orders looked up by site name (issue #17).

Each idiom is a function of `o`, the port's orders: o(site) is the order written at that
site of core/include/runqcheck/runq.hpp as models/mutants/schemata.py derives it (an access
that is no site is relaxed in the code, so o gives relaxed for it).  Slot accesses and the
peeks at runnext are relaxed in runq.hpp and are not sites: o.port(name) gives a recorded
port's own order for them (named as port_orders.py names accesses), else relaxed.
The shapes follow runq.hpp and the Relacy catalog
(models/scenarios/catalog.hpp), reduced: rings hold 1 or 2 Gs and each guard is cut to the
one value the idiom needs (runqgrab's "take 1 of 1" is `t - h == 1`, runqput's "not full"
is the head value that frees the slot), so the index and batch arithmetic is Z3's part
(proofs/z3), not this one's.  Each idiom's `bad` outcome is the invariant's violation.
"""
from wmm import CAS, F, If, Program, R, W, X

RLX, SC = "relaxed", "seq_cst"


def ok(reg):
    return X(lambda r: r[reg + "_ok"], reg)


def grab(o, pre, slot_dst=None):
    """runqgrab of one G from ring `pre` (head, tail, slot0.. locations prefixed by pre):
    head and tail loads, the slot read (address from h), optionally the copy into the
    thief's own ring, the head CAS.  Registers: h, t, g, c (+ c_ok)."""
    body = [R("h", pre + "head", o("runqgrab_head_load")),
            R("t", pre + "tail", o("runqgrab_tail_load")),
            If(X(lambda r: r["t"] - r["h"] == 1, "t", "h")),
            R("g", X(lambda r: f"{pre}slot0", "h"), o.port("runqgrab_slot_load"))]  # cap 1
    if slot_dst:
        body.append(W(slot_dst, X(lambda r: r["g"], "g"), o.port("runqsteal_slot_store")))
    body.append(CAS("c", pre + "head", X(lambda r: r["h"], "h"), X(lambda r: r["h"] + 1, "h"),
                    o("runqgrab_head_cas")))
    return body


def pub(put):
    """Tail publication (message passing owner -> thief): the thief that takes the G must
    read the slot the owner wrote and the G's contents."""
    def make(o):
        owner = [W("g1.data", 1)]
        slot = W("slot0", "g1", o.port(put + "_slot_store"))
        if put == "runqsteal":  # runqsteal: slots are written in runqgrab, before the check
            owner += [slot, R("h", "head", o("runqsteal_head_load")),
                      If(X(lambda r: r["h"] == 0, "h"))]
        else:
            owner += [R("h", "head", o(put + "_head_load")),
                      If(X(lambda r: r["h"] == 0, "h")), slot]
        owner.append(W("tail", 1, o(put + "_tail_store")))
        thief = grab(o, "") + [If(ok("c")), R("d", X(
            lambda r: "g1.data" if r["g"] == "g1" else "nil.data", "g"))]
        return Program(f"pub_{put}", {"head": 0, "tail": 0, "slot0": 0, "g1.data": 0,
                                      "nil.data": 0}, [owner, thief],
                       lambda rg, m: rg[1].get("c_ok") and (rg[1]["g"] != "g1"
                                                            or rg[1]["d"] != 1),
                       "the thief takes the G but reads an unwritten slot or G")
    return make


def reuse(put):
    """Slot reuse (load buffering with a control dependency): a thief reads slot 0 and CASes
    head 0 -> 1; the owner (ring of 1, full) reads head == 1 and overwrites slot 0.  The
    thief must not read the new G."""
    def make(o):
        owner = [R("h", "head", o(put + "_head_load")), If(X(lambda r: r["h"] == 1, "h")),
                 W("slot0", "g2", o.port(put + "_slot_store")),
                 W("tail", 2, o(put + "_tail_store"))]
        return Program(f"reuse_{put}", {"head": 0, "tail": 1, "slot0": "g1"},
                       [grab(o, ""), owner],
                       lambda rg, m: rg[0].get("c_ok") and rg[0]["h"] == 0 and rg[0]["g"] == "g2",
                       "a thief's slot read returns the G the owner writes after the thief's CAS")
    return make


def reuse_then_steal(taker):
    """The owner finds its ring empty (runqget / runqdrain head load reads the thief's CAS),
    then steals into its own ring: runqsteal writes slot 0 (in runqgrab) before its own head
    load, so the earlier head load is what orders the thief's slot read before the write."""
    def make(o):
        owner = [R("h", "head", o(taker + "_head_load")), If(X(lambda r: r["h"] == 1, "h")),
                 W("slot0", "g2", o.port("runqsteal_slot_store")),
                 R("h2", "head", o("runqsteal_head_load")),
                 W("tail", 2, o("runqsteal_tail_store"))]
        return Program(f"reuse_{taker}_then_runqsteal", {"head": 0, "tail": 1, "slot0": "g1"},
                       [grab(o, ""), owner],
                       lambda rg, m: rg[0].get("c_ok") and rg[0]["h"] == 0 and rg[0]["g"] == "g2",
                       "a thief's slot read returns the G the owner steals in afterwards")
    return make


def take_race(site):
    """Owner take (runqget, runqdrain, runqputslow head CAS; runqget, runqdrain runnext
    CAS) against a thief's: at most one CAS wins."""
    def make(o):
        fn = site.split("_")[0]
        if site.endswith("runnext_cas"):
            owner = [R("n", "runnext", o.port(fn + "_runnext_load")),
                     If(X(lambda r: r["n"] != 0, "n")),
                     CAS("c", "runnext", X(lambda r: r["n"], "n"), 0, o(site))]
            thief = [R("n", "runnext", o.port("runqgrab_runnext_load")),
                     If(X(lambda r: r["n"] != 0, "n")),
                     CAS("c", "runnext", X(lambda r: r["n"], "n"), 0, o("runqgrab_runnext_cas"))]
            init = {"runnext": "g1"}
        else:
            owner = [R("h", "head", o(site.replace("_cas", "_load"))
                       if not site.startswith("runqputslow") else o("runqput_head_load")),
                     If(X(lambda r: r["h"] == 0, "h")),
                     R("g", "slot0", o.port(fn.replace("runqputslow", "runqput") + "_slot_load")),
                     CAS("c", "head", X(lambda r: r["h"], "h"), X(lambda r: r["h"] + 1, "h"),
                         o(site))]
            thief = grab(o, "")
            init = {"head": 0, "tail": 1, "slot0": "g1"}
        return Program(f"take_race_{site}", init, [owner, thief],
                       lambda rg, m: rg[0].get("c_ok") and rg[1].get("c_ok"),
                       "owner and thief both take the same G")
    return make


def handoff(o):
    """runnext hand-off: the owner CASes runnext nil -> g1 after building g1; a thief that
    CASes it away must see g1's contents."""
    owner = [W("g1.data", 1), R("n", "runnext", o.port("runqput_runnext_load")),
             CAS("c", "runnext", X(lambda r: r["n"], "n"), "g1", o("runqput_runnext_cas"))]
    thief = [R("n", "runnext", o.port("runqgrab_runnext_load")),
             If(X(lambda r: r["n"] != 0, "n")),
             CAS("c", "runnext", X(lambda r: r["n"], "n"), 0, o("runqgrab_runnext_cas")),
             If(ok("c")), R("d", X(lambda r: f"{r['n']}.data", "n"))]
    return Program("runnext_handoff", {"runnext": 0, "g1.data": 0}, [owner, thief],
                   lambda rg, m: rg[1].get("c_ok") and rg[1]["d"] != 1,
                   "a thief takes runnext's G but reads it unbuilt")


def runqempty(o):
    """runqempty: head, tail, runnext, then the tail re-read (relaxed in the port, no site)."""
    return [R("h", "head", o("runqempty_head_load")), R("t", "tail", o("runqempty_tail_load")),
            R("n", "runnext", o("runqempty_runnext_load")), R("t2", "tail", RLX)]


def spurious(rg):
    return (rg.get("t2") is not None and rg["t"] == rg["t2"] and rg["h"] == rg["t"]
            and rg["n"] == 0)


def empty_next1_next1(o):
    """catalog empty_next1_next1: runnext holds g0; the owner puts g1 to runnext (kicking g0
    into the ring) and then gets g1 from runnext.  runqempty must not say empty."""
    owner = [R("o", "runnext", o.port("runqput_runnext_load")),
             CAS("c", "runnext", X(lambda r: r["o"], "o"), "g1", o("runqput_runnext_cas")),
             If(ok("c")), R("h", "head", o("runqput_head_load")),
             If(X(lambda r: r["h"] == 0, "h")),
             W("slot0", X(lambda r: r["o"], "o"), o.port("runqput_slot_store")),
             W("tail", 1, o("runqput_tail_store")),
             R("n", "runnext", o.port("runqget_runnext_load")), If(X(lambda r: r["n"] != 0, "n")),
             CAS("c2", "runnext", X(lambda r: r["n"], "n"), 0, o("runqget_runnext_cas"))]
    return Program("empty_next1_next1", {"runnext": "g0", "head": 0, "tail": 0, "slot0": 0},
                   [owner, runqempty(o)], lambda rg, m: spurious(rg[1]),
                   "runqempty says empty while the queue always holds a G")


def ring_put(o, slot, g, tail):
    """runqput of g into a ring with room (head 0): the head load, the slot, the tail."""
    return [R("h", "head", o("runqput_head_load")), If(X(lambda r: r["h"] == 0, "h")),
            W(slot, g, o.port("runqput_slot_store")), W("tail", tail, o("runqput_tail_store"))]


def empty_put_then_take(name, taker):
    """The ring holds g0 (cap 2); the owner puts g1 to the ring, then `taker` takes g0 off
    the head by its CAS (runqget, or runqputslow spilling it on the next put).  runqempty
    must not say empty: the P held g0 or g1 throughout, so a runqempty that reads head from
    the take's CAS must also see the tail store before it."""
    def make(o):
        owner = ring_put(o, "slot1", "g1", 2) + [
            R("h2", "head", o(taker.replace("runqputslow", "runqput") + "_head_load")),
            If(X(lambda r: r["h2"] == 0, "h2")),
            R("g", "slot0", o.port(taker.replace("runqputslow", "runqput") + "_slot_load")),
            CAS("c", "head", X(lambda r: r["h2"], "h2"), X(lambda r: r["h2"] + 1, "h2"),
                o(taker + "_head_cas"))]
        return Program(name, {"runnext": 0, "head": 0, "tail": 1, "slot0": "g0", "slot1": 0},
                       [owner, runqempty(o)], lambda rg, m: spurious(rg[1]),
                       "runqempty says empty while the queue always holds a G")
    return make


# catalog empty_next0_next0: the owner's runqget takes g0.
empty_next0_next0 = empty_put_then_take("empty_next0_next0", "runqget")
# generated `cap=4 procs=2 P0=0,1,2 | put(0,3) put(0,4) | steal(1,0) empty(0)`, cap 2: the
# next put finds the ring full and runqputslow spills g0.
empty_putslow = empty_put_then_take("empty_putslow", "runqputslow")


def empty_drain_then_steal(o):
    """generated program `cap=4 procs=2 P0=/0 | put(0,1) drain(0) | empty(0) steal(1,0)`:
    runnext holds g0; the owner puts g1 to the ring, then runqdrain takes runnext by its
    CAS.  A thief whose runqempty reads runnext from that CAS and then steals g1 from the
    ring saw an empty P that was never empty (g1 sat on the ring until the steal)."""
    owner = ring_put(o, "slot0", "g1", 1) + [
             R("n", "runnext", o.port("runqdrain_runnext_load")),
             If(X(lambda r: r["n"] != 0, "n")),
             CAS("c", "runnext", X(lambda r: r["n"], "n"), 0, o("runqdrain_runnext_cas"))]
    thief = runqempty(o) + [
        R("h3", "head", o("runqgrab_head_load")), R("t3", "tail", o("runqgrab_tail_load")),
        If(X(lambda r: r["t3"] - r["h3"] == 1, "t3", "h3")),
        R("g3", "slot0", o.port("runqgrab_slot_load")),
        CAS("c3", "head", X(lambda r: r["h3"], "h3"), X(lambda r: r["h3"] + 1, "h3"),
            o("runqgrab_head_cas"))]
    return Program("empty_drain_then_steal", {"runnext": "g0", "head": 0, "tail": 0,
                                              "slot0": 0},
                   [owner, thief],
                   lambda rg, m: spurious(rg[1]) and rg[1].get("c3_ok") and rg[1]["g3"] == "g1",
                   "runqempty says empty, then the thief steals a G the ring held throughout")


def grab_torn(o):
    """Two thieves: the first reads tail 1 and CASes head 0 -> 1; the second must not read
    head 1 with the older tail 0 (t - h wraps: runqgrab retries for ever, Relacy's
    livelock)."""
    owner = [W("slot0", "g1", o.port("runqput_slot_store")), W("tail", 1, o("runqput_tail_store"))]
    t2 = [R("h", "head", o("runqgrab_head_load")), R("t", "tail", o("runqgrab_tail_load"))]
    prog = Program("grab_torn", {"head": 0, "tail": 0, "slot0": 0},
                   [owner, grab(o, ""), t2],
                   lambda rg, m: rg[2]["h"] == 1 and rg[2]["t"] == 0,
                   "a thief reads head past tail: runqgrab's guard retries (progress, not "
                   "safety: no G is lost; Relacy's livelock for runqgrab_head_load)")
    prog.progress = True
    return prog


def chained(o):
    """catalog chained_steal: P1 steals g from P0 into its own ring and publishes it with
    runqsteal's tail store; P2 steals it from P1 and must see g's contents."""
    p0 = [W("g.data", 1), W("a.slot0", "g", o.port("runqput_slot_store")),
          W("a.tail", 1, o("runqput_tail_store"))]
    p1 = grab(o, "a.", slot_dst="b.slot0") + [
        If(ok("c")), R("h1", "b.head", o("runqsteal_head_load")),
        W("b.tail", 1, o("runqsteal_tail_store"))]
    p2 = [R("h", "b.head", o("runqgrab_head_load")), R("t", "b.tail", o("runqgrab_tail_load")),
          If(X(lambda r: r["t"] - r["h"] == 1, "t", "h")),
          R("g", "b.slot0", o.port("runqgrab_slot_load")),
          R("d", X(lambda r: f"{r['g']}.data", "g"))]
    return Program("chained_steal", {"g.data": 0, "0.data": 0, "a.head": 0, "a.tail": 0,
                                     "a.slot0": 0, "b.head": 0, "b.tail": 0, "b.slot0": 0},
                   [p0, p1, p2], lambda rg, m: rg[2].get("d") is not None and rg[2]["d"] != 1,
                   "the second thief reads the G unbuilt")


def wakeup(storeload=True):
    """The wakeup protocol's store buffering: the submitter publishes (runqput's tail
    store), then reads nmspinning; the spinner decrements nmspinning, then runqempty.  Both
    #StoreLoad fences are stress/src/proc.cpp's storeload() (seq_cst, no runq.hpp site);
    storeload=False is the mutant wakep_no_storeload."""
    def make(o):
        fence = [F(SC)] if storeload else []
        sub = [W("slot0", "g1", o.port("runqput_slot_store")),
               W("tail", 1, o("runqput_tail_store"))] + fence + [
            R("m", "nmspinning", SC)]
        spin = [CAS("c", "nmspinning", 1, 0, SC)] + fence + runqempty(o)
        return Program("wakeup_sb" + ("" if storeload else "_no_storeload"),
                       {"slot0": 0, "head": 0, "tail": 0, "runnext": 0, "nmspinning": 1},
                       [sub, spin], lambda rg, m: rg[0]["m"] == 1 and spurious(rg[1]),
                       "lost wakeup: the submitter sees a spinner, the spinner an empty queue")
    return make


IDIOMS = ([pub(p) for p in ("runqput", "runqputbatch", "runqsteal")]
          + [reuse(p) for p in ("runqput", "runqputbatch")]
          + [reuse_then_steal(t) for t in ("runqget", "runqdrain")]
          + [take_race(s) for s in ("runqget_head_cas", "runqdrain_head_cas",
                                    "runqputslow_head_cas", "runqget_runnext_cas",
                                    "runqdrain_runnext_cas")]
          + [handoff, empty_next1_next1, empty_next0_next0, empty_putslow, empty_drain_then_steal,
             grab_torn, chained, wakeup(True)])
# Not an order site of runq.hpp: shown as its own row (the surviving mutant of the matrix).
EXTRA = [wakeup(False)]
