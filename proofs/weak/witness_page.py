#!/usr/bin/python3
"""A witness execution of wmm.py as the swimlane page of fuzz/explain (issue #17).

trace(prog, x, ...) turns one execution into the runqcheck trace JSON that
fuzz/explain/swimlane.html draws (the format `runqcheck explain` writes): one column per
thread, every event with its order and value, an arrow from each read to the write it reads
from (dashed red when a newer write exists in coherence order: a stale read), and the bad
outcome as the failing check.  Rows follow program order and reads-from where those agree;
under load buffering they cannot (po | rf has a cycle), and the arrow that points up is the
reordering.  page(...) renders it with fuzz/explain/render.py.  Called by audit.py.
"""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
EXPLAIN = ROOT / "fuzz" / "explain"


def row_order(x):
    """Event ids in an order that keeps po and rf edges pointing down where it can: Kahn's
    algorithm on po | rf, taking the smallest ready id, the smallest waiting one on a cycle."""
    ids = [e.id for e in x.events]
    edges = {(a, b) for a, b in x.po | x.rf}
    left, out = set(ids), []
    while left:
        ready = [i for i in left if not any(a in left and b == i for a, b in edges)]
        i = min(ready or left)
        out.append(i)
        left.discard(i)
    return out


def mark_stale(x, ev, at):
    """A load is stale (the page's dashed red arrow) when a write coherence-after the one it
    reads from is on a row above it: on the page, a newer store already existed."""
    row_of = {at[e.id]: e for e in x.events if e.kind == "W"}
    for d in ev:
        if d["kind"] != "load":
            continue
        w = row_of[d["rf"]]
        d["stale"] = sum(1 for e in x.events if e.kind == "W" and e.loc == w.loc
                         and x.co_rank.get(e.id, 0) > x.co_rank.get(w.id, 0)
                         and at.get(e.id, -1) < d["id"])


def thread_label(x, tid):
    fns = []
    for e in x.events:
        if e.tid == tid and e.site:
            fn = e.site.rsplit("_", 2)[0]
            if fn not in fns:
                fns.append(fn)
    return f"T{tid}" + (f" ({', '.join(fns)})" if fns else "")


def trace(prog, x, subject, model, site, command):
    """The trace JSON (a dict) of execution x of idiom prog."""
    src = {r: w for w, r in x.rf}
    rmw_w = {w: r for r, w in x.rmw}
    tids = sorted({e.tid for e in x.events if e.tid >= 0})
    ev, at = [], {}

    def add(**kw):
        kw.setdefault("obj", "")
        kw.setdefault("order", "")
        kw.setdefault("value", "")
        ev.append(dict(id=len(ev), **kw))
        return len(ev) - 1

    add(thread=-1, op=-1, kind="op_begin", func="setup", text="initial values")
    for e in x.events:
        if e.tid < 0:
            at[e.id] = add(thread=-1, op=-1, kind="store", func="setup", obj=e.loc,
                           order="relaxed", value=str(e.val))
    add(thread=-1, op=-1, kind="op_end", func="setup", text="threads start")
    fns = {t: thread_label(x, t).partition("(")[2].split(",")[0].rstrip(")") or prog.name
           for t in tids}
    rmw_r = dict(x.rmw)  # an RMW's read -> its write: one row
    shown = [e for e in x.events if e.tid >= 0 and e.id not in rmw_w]
    first = {t: min(e.id for e in shown if e.tid == t) for t in tids}
    last = {t: max(e.id for e in shown if e.tid == t) for t in tids}
    for i in row_order(x):
        e = x.events[i]
        if e.tid < 0 or e.id in rmw_w:
            continue
        fn = (e.site or "").rsplit("_", 2)[0] or fns[e.tid]
        if e.id == first[e.tid]:
            add(thread=e.tid, op=0, kind="op_begin", func=fn, text=thread_label(x, e.tid))
        common = dict(thread=e.tid, op=0, func=fn, obj=e.loc or "", order=e.order,
                      loc=f"{prog.name} e{e.id}" + (f" @{e.site}" if e.site else ""))
        if e.kind == "F":
            at[e.id] = add(kind="check", text=f"fence {e.order}", **common)
        elif e.id in rmw_r:
            w = rmw_r[e.id]
            at[e.id] = at[w] = add(kind="rmw", value=str(x.events[w].val), old=str(e.val),
                                   rf=src[e.id], **common)
        elif e.kind == "R":
            at[e.id] = add(kind="load", value=str(e.val), rf=src[e.id], stale=0, **common)
        else:
            at[e.id] = add(kind="store", value=str(e.val), **common)
        if e.id == last[e.tid]:
            add(thread=e.tid, op=0, kind="op_end", func=fn, text=thread_label(x, e.tid))
    for d in ev:
        if "rf" in d:
            d["rf"] = at[d["rf"]]
    mark_stale(x, ev, at)
    fail = add(thread=-1, op=-1, kind="check", func="check",
               text=f"bad outcome reachable under {model}: {prog.doc}")
    return {"format": "runqcheck-trace", "version": 1, "seed": "", "command": command,
            "subject": subject, "site": f"{site} (proofs/weak idiom {prog.name})",
            "cap": 1, "nprocs": len(tids),
            "threads": [{"id": t, "label": thread_label(x, t), "script": [prog.name]}
                        for t in tids],
            "failure": {"event": fail, "message": f"{model}: {prog.doc}"},
            "events": ev, "verdict": "fail"}


def page(path, tr):
    """Writes the swimlane page of trace tr to path (and tr beside it, .json)."""
    sys.path.insert(0, str(EXPLAIN))
    import render  # fuzz/explain/render.py: the substitution `runqcheck explain` does
    text = json.dumps(tr, indent=1)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).with_suffix(".json").write_text(text)
    template = (EXPLAIN / "swimlane.html").read_text()
    Path(path).write_text(render.render(template, text))
