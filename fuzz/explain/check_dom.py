#!/usr/bin/env python3
"""Check a rendered swimlane page against its trace, in headless Chromium.

    fuzz/explain/check_dom.py TRACE.json [PAGE.html] [--dom DUMPED.html]

PAGE.html is the page to check (`runqcheck explain TRACE --html PAGE.html`);
without it the trace is rendered with render.py into a temporary page. The
page is loaded with `chromium --headless --dump-dom` (scripts run) unless
--dom gives a DOM dumped already. $CHROMIUM names another browser binary.

Checks that the page's script ran (body[data-render=ok]), one column head per
thread (+ the set-up/check column, thread -1), one row per event in
execution order with the right thread, one path.rf[data-from][data-to] per
reads-from edge (.stale exactly where stale > 0), the failing event's row
(and only it) marked .fail, the failure's cause (failure.culprit, a data
race's hand-over) and only it marked .culprit, the verdict, and the failure message shown
verbatim (so a "</script>" in the trace came through the escaping intact).

Prints one line, "ok: ..." or "FAIL: ...", and exits 0 or 1.
"""
import json
import os
import subprocess
import sys
import tempfile
from html.parser import HTMLParser

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import render  # noqa: E402  (the same substitution runqcheck explain does)


class Failed(Exception):
    pass


class Dom(HTMLParser):
    """What the check needs from the dumped DOM, in document order."""

    CAPTURE = ("verdict", "failbox")  # ids whose text is collected

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.body = {}
        self.colheads = []   # data-thread values
        self.rows = []       # (event id, thread, classes)
        self.paths = []      # (from, to, classes)
        self.text = {k: "" for k in self.CAPTURE}
        self._capture = []   # stack of (tag, id or None)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = set((a.get("class") or "").split())
        if tag == "body":
            self.body = a
        if "colhead" in cls and "data-thread" in a:
            self.colheads.append(a["data-thread"])
        if "row" in cls and "data-event-id" in a:
            self.rows.append((a["data-event-id"], a.get("data-thread"), cls))
        if tag == "path" and "rf" in cls:
            self.paths.append((a.get("data-from"), a.get("data-to"), cls))
        if a.get("id") in self.CAPTURE:
            self._capture.append((tag, a["id"]))
        elif self._capture:
            self._capture.append((tag, None))

    def handle_endtag(self, tag):
        if self._capture:
            self._capture.pop()

    def handle_data(self, data):
        for _, ident in self._capture:
            if ident:
                self.text[ident] += data


def dump_dom(page):
    chromium = os.environ.get("CHROMIUM", "chromium")
    with tempfile.TemporaryDirectory() as profile:
        try:
            r = subprocess.run(
                [chromium, "--headless", "--no-sandbox", "--disable-gpu",
                 f"--user-data-dir={profile}", "--dump-dom", "file://" + os.path.abspath(page)],
                capture_output=True, text=True, timeout=120)
        except FileNotFoundError:
            raise Failed(f"{chromium} not found "
                         "(install Debian's chromium; ci/screenshot-explain does)")
        except subprocess.TimeoutExpired:
            raise Failed(f"{chromium} --dump-dom timed out")
    if r.returncode != 0 or "<body" not in r.stdout:
        last = (r.stderr.strip().splitlines() or ["no output"])[-1]
        raise Failed(f"{chromium} --dump-dom failed (rc {r.returncode}): {last}")
    return r.stdout


def check(trace, dom):
    events = trace["events"]
    n = len(events)
    if dom.body.get("data-render") != "ok":
        raise Failed(f"page did not render: data-render={dom.body.get('data-render')!r} "
                     f"error={dom.body.get('data-error', '')!r}")

    want_cols = {-1} | {t["id"] for t in trace.get("threads", [])} | {e["thread"] for e in events}
    got_cols = [int(c) for c in dom.colheads]
    if sorted(got_cols) != sorted(want_cols):
        raise Failed(f"column heads for threads {sorted(got_cols)}, "
                     f"want one each for {sorted(want_cols)}")

    if len(dom.rows) != n:
        raise Failed(f"{len(dom.rows)} rows, want one per event: {n}")
    for i, (rid, thread, _) in enumerate(dom.rows):
        if rid != str(i) or thread != str(events[i]["thread"]):
            raise Failed(f"row {i} is event {rid} of thread {thread}, "
                         f"want event {i} of thread {events[i]['thread']}")

    def valid_rf(e):
        rf = e.get("rf")
        return isinstance(rf, int) and not isinstance(rf, bool) and 0 <= rf < n and rf != e["id"]

    want_rf = sorted((e["rf"], e["id"]) for e in events if valid_rf(e))
    got_rf = sorted((int(f), int(t)) for f, t, _ in dom.paths)
    if got_rf != want_rf:
        missing = sorted(set(want_rf) - set(got_rf))[:3]
        extra = sorted(set(got_rf) - set(want_rf))[:3]
        raise Failed(f"{len(got_rf)} rf arrows, want {len(want_rf)} "
                     f"(missing {missing}, unexpected {extra})")
    want_stale = sorted(e["id"] for e in events if valid_rf(e) and (e.get("stale") or 0) > 0)
    got_stale = sorted(int(t) for _, t, cls in dom.paths if "stale" in cls)
    if got_stale != want_stale:
        raise Failed(f"stale arrows into events {got_stale}, want {want_stale}")

    failure = trace.get("failure") or {}
    fe = failure.get("event")
    want_fail = [fe] if isinstance(fe, int) and 0 <= fe < n else []
    got_fail = [int(rid) for rid, _, cls in dom.rows if "fail" in cls]
    if got_fail != want_fail:
        raise Failed(f"rows marked fail: {got_fail}, want {want_fail}")
    cu = failure.get("culprit")
    want_cu = [cu] if isinstance(cu, int) and 0 <= cu < n else []
    got_cu = [int(rid) for rid, _, cls in dom.rows if "culprit" in cls]
    if got_cu != want_cu:
        raise Failed(f"rows marked as the cause: {got_cu}, want {want_cu}")

    if dom.text["verdict"].strip() != str(trace.get("verdict")):
        raise Failed(f"verdict shown {dom.text['verdict'].strip()!r}, "
                     f"want {trace.get('verdict')!r}")
    msg = failure.get("message")
    if msg and not dom.text["failbox"].startswith(msg):
        raise Failed(f"failure message shown {dom.text['failbox'][:80]!r}, want {msg[:80]!r}")

    return (f"{n} rows, {len(got_cols) - 1} thread columns + set-up, {len(got_rf)} rf arrows "
            f"({len(got_stale)} stale), "
            + (f"failure row #{want_fail[0]}" if want_fail else "no failure row")
            + (f", cause row #{want_cu[0]}" if want_cu else ""))


def main(argv):
    args = argv[1:]
    dom_file = None
    if "--dom" in args:
        k = args.index("--dom")
        if k + 1 >= len(args):
            print("FAIL: --dom needs a file")
            return 1
        dom_file = args[k + 1]
        del args[k:k + 2]
    if len(args) not in (1, 2):
        print("FAIL: usage: check_dom.py TRACE.json [PAGE.html] [--dom DUMPED.html]")
        return 1
    trace_path = args[0]
    try:
        with open(trace_path, encoding="utf-8") as f:
            trace_text = f.read()
        trace = json.loads(trace_text)
        if dom_file:
            with open(dom_file, encoding="utf-8") as f:
                html = f.read()
        elif len(args) == 2:
            html = dump_dom(args[1])
        else:
            with open(render.TEMPLATE, encoding="utf-8") as f:
                page = render.render(f.read(), trace_text)
            with tempfile.TemporaryDirectory() as tmp:
                path = os.path.join(tmp, "page.html")
                with open(path, "w", encoding="utf-8") as f:
                    f.write(page)
                html = dump_dom(path)
        dom = Dom()
        dom.feed(html)
        summary = check(trace, dom)
    except Failed as e:
        print(f"FAIL: {trace_path}: {e}")
        return 1
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"FAIL: {trace_path}: {type(e).__name__}: {e}")
        return 1
    print(f"ok: {trace_path}: {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
