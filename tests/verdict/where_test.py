#!/usr/bin/python3
"""ci/verdict_files.py's where() on a Relacy data race: SARIF's location is the port's
access that the race's cause names (the relaxed hand-over), not the port's last write
before the failure; a failure without such a cause keeps the last write, unless an `at:`
line after its cause names the access it blames (a conservation failure's). A failure whose
output names no line of the port (the exhaustive column's invariant): the port's last
write before it in its picture's trace, not the header's line 1. The fuzz column's cause
(no history): its hand-over. A ThreadSanitizer report: its first access's innermost frame
in the port.

usage: where_test.py VERDICT_FILES_PY WORKDIR
Exit 0 if so, 1 naming what is wrong."""
import importlib.util
import shutil
import sys
from pathlib import Path

# A Relacy history as relacy_scenarios prints it (trimmed): the owner's relaxed tail store
# (line 42), a thief's later release store (line 90), the race on the harness's data.
OUT = """execution history (5):
[1] 0: <0x1> atomic store, value=1, (prev value=0), order=relaxed, in push_back, {q}(42)
[2] 1: <0x2> atomic load, value=1, order=relaxed, in grab_into, {q}(30)
[3] 1: <0x3> atomic store, value=1, (prev value=0), order=release, in runqsteal, {q}(90)
[4] 1: <0x4> load, value=0, in deliver, ../models/scenarios/exec.hpp(224)
[5] 1: DATA RACE (data race detected), in deliver, ../models/scenarios/exec.hpp(224)

runqcheck: cause: s: relacy: DATA RACE: read of G4.status in deliver (exec.hpp:224) races \
with the write #20 by T0 (no happens-before edge); T1 took it over through P0+8 \
atomic@push_back: the store in push_back (q.hpp:{line}) is relaxed, not a release
"""
NO_RACE = "runqcheck: cause: s: harness fatal error: invariant: conservation g=1\n"
# An exhaustive column's picture (trimmed): its output names no line of the port; the trace
# names each access by base name: the port's writes at lines 50 and 60, a read at 70, then
# the harness's own write and the failing check.
PAGE = """<script>
window.RUNQCHECK_TRACE =
{"format": "runqcheck-trace", "failure": {"event": 5, "message": "invariant"}, "events": [
 {"id": 0, "kind": "store", "loc": "q.hpp:50"}, {"id": 1, "kind": "rmw", "loc": "q.hpp:60"},
 {"id": 2, "kind": "load", "loc": "q.hpp:70"}, {"id": 3, "kind": "write", "loc": "exec.hpp:9"},
 {"id": 4, "kind": "load", "loc": "q.hpp:80"}, {"id": 5, "kind": "check", "loc": ""},
 {"id": 6, "kind": "store", "loc": "q.hpp:90"}]}
;
</script>
"""


def main(argv) -> int:
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    spec = importlib.util.spec_from_file_location("verdict_files", argv[1])
    vf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(vf)
    work = Path(argv[2])
    shutil.rmtree(work, ignore_errors=True)
    inc = work / "include"
    q = inc / "my" / "q.hpp"
    q.parent.mkdir(parents=True)
    q.write_text("// line\n" * 100)
    port = {"include_dirs": [str(inc)], "header": "my/q.hpp"}
    race = OUT.format(q=q, line=42)
    bad = []
    for name, out, want in [("race", race, 42),
                            ("no race", race.split("runqcheck: cause:")[0] + NO_RACE, 90),
                            ("a cause not in the history", OUT.format(q=q, line=41), 90),
                            # a conservation failure's cause blames the load at line 30
                            ("a cause's at: line", race.split("runqcheck: cause:")[0]
                             + NO_RACE + f"at: {q}:30\n", 30),
                            # the fuzz column: its recorder's cause, no history; a later line
                            # of the port named (a frame) is not the site
                            ("a fuzz cause", "runqcheck: relacy: DATA RACE: read of G4.status "
                             "races; T1 took it over through P0.tail: the store in push_back "
                             f"(q.hpp:42) is relaxed, not a release\n  #3 pop {q}:77\n", 42),
                            # ThreadSanitizer: the first access's innermost frame in the port,
                            # not the outer frames nor the previous access's
                            ("a TSan report", "WARNING: ThreadSanitizer: data race (pid=1)\n"
                             "  Write of size 8 at 0x7b by thread T2:\n"
                             "    #0 var::store() /r/backend/native.hpp:156 (u+0x1)\n"
                             f"    #1 q::empty_out() {q}:28 (u+0x1)\n"
                             f"    #2 q::runqdrain() {q}:9 (u+0x1)\n\n"
                             "  Previous read of size 8 at 0x7b by main thread:\n"
                             f"    #0 q::pop() {q}:81 (u+0x2)\n\n"
                             "SUMMARY: ThreadSanitizer: data race /r/backend/native.hpp:156 "
                             "in var::store\n",
                             28)]:
        path, line, how = vf.where({"out": out}, port)
        if Path(path) != q.resolve() or line != want:
            bad.append(f"{name}: {path}:{line} ({how}), want {q}:{want}")
    page = work / "failures" / "explore__q.html"
    page.parent.mkdir()
    page.write_text(PAGE)
    out = "explore q s RC11: fatal error: invariant: runqempty spuriously true p=0\n"
    path, line, how = vf.where({"out": out, "pictures": [str(page)]}, port)
    if Path(path) != q.resolve() or line != 60:
        bad.append(f"a picture's trace: {path}:{line} ({how}), want {q}:60")
    for b in bad:
        print(f"FAIL {b}")
    print("where_test: " + ("FAILED" if bad else "passed"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
