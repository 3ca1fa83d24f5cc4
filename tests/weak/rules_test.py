#!/usr/bin/python3
"""The rules of proofs/weak/port_orders.py, on edited recordings (weak_memory_rules).

RECORDER is weak_record__go125.  Its listing is edited the way other ports would record and
judged by audit.py --recorded FILE: a relaxed peek at the head before runqput's acquire
load still passes (the read runqput acts on decides); a plain read of the victim's tail
fails naming runqgrab_tail_load; a runqempty that never reads runnext fails with
that read "not recognised" (no order advised for it); a runqempty that does not read the
tail again after runnext (Go's re-read, which the idioms make), a fence, a G pointer stored
outside the P objects, two tails, and a runqputbatch that never stores the tail are each
`not applied` (exit 77) with their reason, the fence's naming the exhaustive LB column that
judges such a port (issue 43).  A runnext held as an integer (uintptr_t) passes.  A port
whose runqput peeks at runnext seq_cst (an access Go's runq does not make: reported so)
and CASes it relaxed fails, and its witness and picture draw that peek seq_cst, as the
port makes it (issue 30).  A two-phase steal (tokio's: claim by one head CAS, read the
slots, steal := real by another) is judged at its second CAS, the one after the slot
reads: relaxed there fails, relaxed in the claim only passes (trialG: the second CAS was
never judged).  Prints one line per case; exit 1 if one is judged otherwise.

usage: rules_test.py RECORDER
"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
AUDIT = ROOT / "proofs" / "weak" / "audit.py"
sys.path.insert(0, str(ROOT / "proofs" / "weak"))
import port_orders  # noqa: E402


def judge(text, pictures=None):
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
        f.write(text)
        f.flush()
        more = ["--pictures", pictures] if pictures else []
        r = subprocess.run([sys.executable, str(AUDIT), "--recorded", f.name, *more],
                           capture_output=True, text=True, timeout=120)
    return r.returncode, r.stdout + r.stderr


def picture_orders(lines, runnext):
    """A runqput that peeks at runnext seq_cst and CASes it relaxed: the orders its failure's
    pictures draw for runqput's reads of runnext (must all be seq_cst), or the output."""
    def sc_peek(f, _):
        if f is None:
            return []
        if f[1] == "P0" and f[2] == str(runnext) and f[5] in "LC":
            f = f[:6] + (["seq_cst", "seq_cst"] if f[5] == "L" else ["relaxed", "relaxed"]) + f[8:]
        return [" ".join(f)]
    with tempfile.TemporaryDirectory() as d:
        rc, out = judge(edit(lines, "runqput", sc_peek), d)
        drawn = []
        for js in Path(d).glob("*.json"):
            ev = json.loads(js.read_text())["events"]
            drawn += [e["order"] for e in ev if e["kind"] == "load" and e["obj"] == "runnext"
                      and e["func"] == "runqput"]
    return rc, out, drawn


def edit(lines, op_name, fn):
    """fn(access fields, in_op) -> replacement lines for each access line of op_name's ops."""
    out, cur = [], None
    for ln in lines:
        f = ln.split()
        if f[0] == "op":
            cur = f[3]
            out.append(ln)
            if cur == op_name:
                out += fn(None, True)
        elif f[0] == "a" and cur == op_name:
            out += fn(f, True)
        else:
            out.append(ln)
    return "\n".join(out) + "\n"


def guintptr(lines, runnext):
    """The listing of a port whose runnext is an integer: its accesses that hold no G
    (0 read, 0 written) unmarked as pointers, with the value 0, as the recorder lists them."""
    out = []
    for ln in lines:
        f = ln.split()
        if f[0] == "a" and f[1] in ("P0", "P1") and f[2] == str(runnext) and f[8:10] == [
                "nil", "nil"]:
            f = f[:4] + ["0"] + f[5:8] + ["0", "0"] + f[10:]
        out.append(" ".join(f))
    return "\n".join(out) + "\n"


def cases(lines, head, tail, runnext):
    """(name, listing, exit status, text the output must hold)."""
    peek = f"a P0 {head} 4 0 L relaxed relaxed 0 0 1"
    plain = lambda f, _: [] if f is None else [" ".join(
        f[:5] + ["P"] + f[6:]) if f[1] == "P0" and f[2] == str(tail) and f[5] == "L" else
        " ".join(f)]
    fence = lambda f, _: ["a - 0 0 0 F seq_cst seq_cst 0 0 1"] if f is None else [" ".join(f)]
    heap = lambda f, _: [] if f is None else [" ".join(
        ["a", "-", "0"] + f[3:]) if f[5] == "S" and f[4] == "1" else " ".join(f)]
    twotails = lambda f, _: [] if f is None else [" ".join(f)] + (
        [" ".join(f[:2] + ["200"] + f[3:])] if f[2] == str(tail) and f[5] == "S" else [])
    notail = lambda f, _: [] if f is None else (
        [] if f[2] == str(tail) and f[5] == "S" else [" ".join(f)])
    nonext = lambda f, _: [] if f is None else (
        [] if f[2] == str(runnext) and f[5] == "L" else [" ".join(f)])

    after = {"runnext": False}

    def noreread(f, _):  # runqempty without the tail's re-read after runnext
        if f is None:  # an operation starts
            after["runnext"] = False
            return []
        if f[2] == str(runnext) and f[5] == "L":
            after["runnext"] = True
        elif after["runnext"] and f[2] == str(tail) and f[5] == "L":
            return []
        return [" ".join(f)]

    def two_phase(claim, settle):  # the victim's head CAS, then a second one, these orders
        def ed(f, _):
            if f is None:
                return []
            if f[1] == "P0" and f[2] == str(head) and f[5] == "C" and f[10] == "1":
                again = f[:6] + [settle, settle, f[9]] + f[9:]
                return [" ".join(f[:6] + [claim, claim] + f[8:]), " ".join(again)]
            return [" ".join(f)]
        return ed
    return [
        ("a relaxed peek at the head before runqput's acquire",
         edit(lines, "runqput", lambda f, _: [peek] if f is None else [" ".join(f)]), 0,
         "no idiom has a bad execution"),
        ("a plain read of the victim's tail", edit(lines, "runqsteal", plain), 1,
         "FAILED: weak-memory orders: runqgrab_tail_load is relaxed"),
        ("a fence in runqput", edit(lines, "runqput", fence), 77, "uses a fence"),
        # issue 43: a port the idioms cannot fit is pointed to the engine's LB column
        ("a fence: the LB column judges it", edit(lines, "runqput", fence), 77,
         "judged on every execution by the exhaustive LB column (explore_lb/"),
        ("a slot outside the P objects", edit(lines, "runqput", heap), 77,
         "writes a G pointer outside the P objects"),
        ("two tails", edit(lines, "runqput", twotails), 77, "behave as the ring's tail"),
        ("runqputbatch stores no tail", edit(lines, "runqputbatch", notail), 77,
         "runqputbatch makes no store of the tail"),
        # a runnext held as a uintptr_t (Go's guintptr): the recorder lists its accesses
        # that read and write 0 as an integer's, the others as a G pointer's
        ("runnext held as an integer", guintptr(lines, runnext), 0,
         "no idiom has a bad execution"),
        # issue 30: no order is advised for a read the port never makes
        ("runqempty reads no runnext", edit(lines, "runqempty", nonext), 1,
         "runqempty_runnext_load: not recognised"),
        # a held-out port's bug: the idioms' runqempty re-reads the tail, the port's did not
        ("runqempty does not read the tail again", edit(lines, "runqempty", noreread), 77,
         "runqempty reads no tail after runnext (Go's re-read)"),
        ("a two-phase steal whose second head CAS is relaxed",
         edit(lines, "runqsteal", two_phase("release", "relaxed")), 1,
         "FAILED: weak-memory orders: runqgrab_head_cas is relaxed"),
        ("a two-phase steal whose claim CAS only is relaxed",
         edit(lines, "runqsteal", two_phase("relaxed", "release")), 0,
         "no idiom has a bad execution"),
    ]


def main(argv):
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[-1])
        return 2
    text = subprocess.run([argv[0]], capture_output=True, text=True, timeout=60).stdout
    _, ops = port_orders.parse(text)
    role = port_orders.roles(ops)
    head = next(o for o, r in role.items() if r == "head")
    tail = next(o for o, r in role.items() if r == "tail")
    runnext = next(o for o, r in role.items() if r == "runnext")
    wrong = 0
    for name, listing, rc_want, want in cases(text.splitlines(), head, tail, runnext):
        rc, out = judge(listing)
        ok = rc == rc_want and want in out
        wrong += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name}: exit {rc} (want {rc_want}, '{want}')")
        if not ok:
            print(out)
    rc, out, drawn = picture_orders(text.splitlines(), runnext)
    peeks = [ln for ln in out.splitlines() if ln.endswith("@runqput_runnext_load")]
    # The peek is no site of Go's: reported as such, not as a file that a port may share.
    extra = [ln for ln in out.splitlines() if "accesses Go's runq does not make" in ln]
    ok = (rc == 1 and drawn and set(drawn) == {"seq_cst"} and peeks
          and all(" Rsc runnext=" in ln for ln in peeks)
          and extra and "runq.hpp" not in extra[0])
    wrong += not ok
    print(f"{'ok  ' if ok else 'FAIL'} a seq_cst peek at runnext is drawn seq_cst: exit {rc} "
          f"(want 1), runqput's runnext loads drawn {drawn or 'none'} (want seq_cst)")
    if not ok:
        print(out)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
