#!/usr/bin/python3
"""A port's orders at the audit's sites, from a recording of its accesses (issue #17).

tests/weak/record_orders.cpp runs small sequential scenarios through the subject API on a
recording backend and lists every atomic access (operation, P object, offset, kind, order,
values).  This module tells each P location's role by its behaviour, never by a name:

  ring slot  a G-pointer location written with a plain store (never CASed)
  runnext    a G-pointer location that runqput CASes (or exchanges) from nil to a G
  tail       an integer location that runqput advances (a store or RMW of old + k)
  head       an integer location that runqget advances with a successful CAS
  read-only  written by no operation (a hint such as a status word): not a queue location

and names each access as the audit's sites do (models/mutants/schemata.py over runq.hpp):
FUNCTION_ROLE_KIND (an exchange counts as a CAS: both are RMWs), where FUNCTION is the
subject operation, except that in runqsteal the victim's side is runqgrab, and a head CAS
in runqput is runqputslow's.  Within an operation
op_sites picks the access of each site (the read the operation acts on, its last successful
write: a two-phase steal's second head CAS, tokio's steal := real, after the slot reads);
the weakest over the operations counts.  A structure the idioms do not describe raises
NotApplied.
"""
import re

RANK = {"plain": 0, "relaxed": 1, "consume": 2, "acquire": 2, "release": 2, "acq_rel": 3,
        "seq_cst": 4}
KINDS = {"L": "load", "P": "load", "S": "store", "C": "cas"}


class NotApplied(Exception):
    """The recording does not fit the idioms (the message says why)."""


class Access:
    """One `a` line: where, offset, size, ptr, kind, order, failure order, read, written, ok,
    and the port's file:line that made it (src; "" in a listing without it)."""

    def __init__(self, f):
        (self.where, off, size, ptr, self.kind, self.order, self.fail, self.read, self.written,
         ok) = f[:10]
        self.off, self.size, self.ptr, self.ok = int(off), int(size), ptr == "1", ok == "1"
        self.src = " ".join(f[10:])


class Op:
    """One `op` line and its accesses; side: P0/P1 -> owner, thief or victim."""

    def __init__(self, scenario, step, name, roles):
        self.scenario, self.step, self.name = scenario, int(step), name
        self.side = {p: r for r, p in (x.split("=") for x in roles.split(","))}
        self.acc = []

    def label(self):
        return f"{self.scenario}#{self.step} {self.name}"


def parse(text):
    """(subject, [Op]) from record_orders' listing."""
    subject, ops = None, []
    for n, line in enumerate(text.splitlines(), 1):
        f = line.split()
        if not f:
            continue
        if f[0] == "subject" and len(f) == 4:
            subject = f[1]
        elif f[0] == "op" and len(f) == 5:
            ops.append(Op(*f[1:]))
        elif f[0] == "a" and len(f) >= 11 and ops:
            ops[-1].acc.append(Access(f[1:]))
        else:
            raise ValueError(f"line {n}: not a recorder line: {line!r}")
    if subject is None:
        raise ValueError("no 'subject' line")
    return subject, ops


def num(v):
    """An integer value of the listing, or None (a G, nil)."""
    return int(v) if re.fullmatch(r"\d+", v) else None


def advanced(a):
    """A write that moves an integer counter forward by 1..2^31 (mod 2^32)."""
    r, w = num(a.read), num(a.written)
    return r is not None and w is not None and 0 < (w - r) % 2**32 < 2**31


def role_of(uses):
    """The role of one P location from its accesses [(op, access)], or None."""
    writes = [(op, a) for op, a in uses if a.kind in "SA" or (a.kind == "C" and a.ok)]
    if not writes:
        return "read-only"
    if uses[0][1].ptr:
        if any(op.name == "runqput" and a.kind in "CA" and a.read == "nil"
               and a.written.startswith("g") for op, a in writes):
            return "runnext"
        if any(a.kind == "S" and a.written.startswith("g") for _, a in writes):
            return "slot"
        return None
    put = any(op.name == "runqput" and a.kind in "SA" and advanced(a) for op, a in writes)
    get = any(op.name == "runqget" and a.kind == "C" and advanced(a) for op, a in writes)
    return None if put == get else "tail" if put else "head"


NEED = {"head": "advanced by runqget's CAS", "tail": "advanced by runqput's store",
        "runnext": "CASed or exchanged from nil to a G by runqput"}


def roles(ops):
    """{offset: role} of the P locations, by behaviour; NotApplied when a written location
    has no role, or head, tail, runnext are not one each, or the slots fewer than 2."""
    locs = {}
    for op in ops:
        for a in op.acc:
            if a.where in ("P0", "P1"):
                locs.setdefault(a.off, []).append((op, a))
    for uses in locs.values():
        if any(a.ptr for _, a in uses):  # a G held as an integer: its 0 is nil
            for _, a in uses:
                a.ptr = True
                a.read, a.written = ("nil" if v == "0" else v for v in (a.read, a.written))
    role = {}
    for off, uses in sorted(locs.items()):
        role[off] = role_of(uses)
        if role[off] is None:
            op, w = next((op, a) for op, a in uses if a.kind in "SAC")
            raise NotApplied(f"the P location at byte {off} is written ({op.label()}: "
                             f"{KINDS.get(w.kind, 'RMW')} {w.written}) but behaves as no "
                             "ring slot, head, tail or runnext of Go's queue")
    if all(v == "read-only" for v in role.values()):
        raise NotApplied("no operation writes an atomic of the P objects (a queue under a lock "
                         "has no memory orders to audit)")
    for r, why in NEED.items():
        n = sum(1 for v in role.values() if v == r)
        if n != 1:
            raise NotApplied(f"{n} locations behave as the ring's {r} (the idioms need one: "
                             f"{why})")
    if sum(1 for v in role.values() if v == "slot") < 2:
        raise NotApplied("fewer than 2 ring slots (G pointers stored plainly) in the P object")
    return role


def check_shape(ops, role):
    """The idioms' assumptions the recording can show false."""
    for op in ops:
        for a in op.acc:
            if a.kind == "F":
                raise NotApplied(f"{op.label()} uses a fence: the idioms model orders on "
                                 "accesses, not fences")
            # The schedt's atomics (a lock-free global queue) are no part of the idioms.
            if a.where == "-" and a.ptr and a.kind in "SCA" and a.written.startswith("g"):
                raise NotApplied(f"{op.label()} writes a G pointer outside the P objects "
                                 "(a ring or runnext elsewhere is not followed)")
        if op.name == "runqput":
            seq = [role.get(a.off) for a in op.acc if a.where in ("P0", "P1")
                   and (a.kind in "SA" or a.kind == "C" and a.ok)]
            if "tail" in seq and "slot" in seq and seq.index("tail") < seq.index("slot"):
                raise NotApplied(f"{op.label()} advances the tail before it writes the slot")
        if op.name == "runqempty":
            # Go's runqempty reads the tail again after runnext (a put that kicked runnext into
            # the ring and a get of runnext in between show head == tail, runnext nil). The
            # idioms read it so; judging them would judge a re-read the port does not make.
            seq = [role.get(a.off) for a in op.acc if a.where in ("P0", "P1") and a.kind == "L"]
            last = max((i for i, r in enumerate(seq) if r == "runnext"), default=None)
            if last is not None and "tail" not in seq[last + 1:]:
                raise NotApplied(f"{op.label()} reads no tail after runnext (Go's re-read): "
                                 "the idioms' runqempty re-reads it, so they would judge a "
                                 "check the port does not make")


def site_of(op, a, r):
    """The audit's site name of access a (role r) in operation op, or None (no site).  A
    slot's access is named like a site (FUNCTION_slot_load|store), though runq.hpp has none:
    the idioms draw and judge it with the port's order (idioms.py's o.port)."""
    if r == "read-only":
        return None
    if r == "slot" and a.kind not in "LPS":
        return None
    kind = KINDS.get(a.kind) or ("store" if r == "tail" else "cas")
    fn = op.name
    if fn == "runqsteal" and op.side.get(a.where) == "victim":
        fn = "runqgrab"
    if fn == "runqput" and r == "head" and kind == "cas":
        fn = "runqputslow"
    return f"{fn}_{r}_{kind}"


def op_sites(op, role):
    """{site: (access, decides)} of one operation.  A write site (store, CAS): its last
    successful write (the one after the reads it orders), else its first access.  A read
    site: the read the operation acts on, the last read of it before the first ring write
    (slot, head or tail) that follows its first read: an earlier read is a peek (decides:
    True); with no ring write after it, its first read (decides: False: runqempty's
    reads, or a peek before an early return; runqempty's re-read is no site)."""
    acc = [(k, a, site_of(op, a, role[a.off])) for k, a in enumerate(op.acc)
           if a.where in ("P0", "P1")]
    writes = [k for k, a, _ in acc if role[a.off] in ("slot", "head", "tail")
              and (a.kind in "SA" or (a.kind == "C" and a.ok))]
    first = {}
    for k, a, s in acc:
        if s is not None and s not in first:
            first[s] = (k, a)
    out = {}
    for s, (k0, a0) in first.items():
        end = next((k for k in writes if k > k0), None)
        if not s.endswith("_load"):
            done = [a for k, a, s2 in acc if s2 == s and k in writes]
            out[s] = (done[-1] if done else a0, True)
        elif end is None:
            out[s] = (a0, False)
        else:
            out[s] = ([a for k, a, s2 in acc if s2 == s and k0 <= k < end][-1], True)
    return out


def table(ops):
    """({site: (order, where it was seen)}, roles, {site: the port's file:line of that
    access, or ""}): each site's weakest order over the operations where it decides
    (op_sites), or over all when it never decides."""
    role = roles(ops)
    check_shape(ops, role)
    seen = {}
    for op in ops:
        for s, (a, decides) in op_sites(op, role).items():
            mo = "plain" if a.kind == "P" else a.order
            seen.setdefault(s, []).append((decides, mo, op.label(), a.src))
    out, src = {}, {}
    for s, cands in seen.items():
        use = [c for c in cands if c[0]] or cands
        _, mo, where, src[s] = min(use, key=lambda c: RANK[c[1]])
        out[s] = (mo, where)
    return out, role, src


def describe(role):
    """One line: the offsets of each role."""
    by = {}
    for off, r in sorted(role.items()):
        by.setdefault(r, []).append(off)
    return "; ".join(f"{r} at byte{'s' if len(v) > 1 else ''} " + ",".join(map(str, v))
                     for r, v in by.items())
