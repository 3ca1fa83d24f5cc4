#!/usr/bin/python3
"""Settle every order site of runq.hpp under RC11, C11 with load buffering and ARMv8 (#17).

The sites and their orders come from models/mutants/schemata.py's sites() over
core/include/runqcheck/runq.hpp.  Each site is weakened one step (schemata's rule:
seq_cst -> acq_rel -> acquire, acquire/release -> relaxed) in every idiom of idioms.py that
reads it; the site is *necessary* under a model when some idiom then has a consistent
execution with its bad outcome (the witness is printed), *removable* when none has.  The
port itself must have no bad execution in any idiom under any model.

usage: audit.py [--runq FILE] (--table | --json | --check DOC | --port | --witness SITE MODEL
                                | --recorded RECORDER [--pictures DIR])
  --table          print docs/weak-memory.md
  --check DOC      exit 1 if DOC differs from --table's output
  --port           exit 1 (printing the witness) if the port's own orders let an idiom's
                   bad outcome happen under some model, or if no idiom reads some site
  --witness S M    print the witness (or "removable") of site S under model M
  --recorded R     judge a user's port: R is its weak_record__<subject> binary (or a file
                   holding that binary's listing); the port's orders at the sites come from
                   port_orders.py, not from runq.hpp; exit 0 passed, 1 FAILED (with the
                   witness), 77 not applied (with the reason), 2 bad input; --pictures DIR:
                   each witness also as a swimlane page (witness_page.py), `picture:` lines
"""
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "models" / "mutants"))
import idioms  # noqa: E402
import port_orders  # noqa: E402
import schemata  # noqa: E402
import wmm  # noqa: E402

MODEL_NAMES = {"rc11": "RC11", "c11lb": "C11 with LB", "armv8": "ARMv8"}
# Where a port the idioms cannot fit is judged (the `not applied` line, the page).
LB_COLUMN = ("its orders are judged on every execution by the exhaustive LB column "
             "(explore_lb/{subject}, generated_lb/{subject}: the catalog and the small "
             "generated programs under LB and C11, docs/explore.md)")


def weaken(mo):
    return {"seq_cst": "acq_rel", "acq_rel": "acquire"}.get(mo, "relaxed")


class SiteOrder(str):
    """An order that remembers its site (witnesses name it)."""

    def __new__(cls, order, site):
        s = super().__new__(cls, order)
        s.site = site
        return s


class Orders:
    """o(site): the site's order; an access that is no site is relaxed in the code.
    o.port(name): an access that is no site (a slot, a peek at runnext): a recorded port's
    own order there (`fixed`), else relaxed."""

    def __init__(self, sites, fixed=None):
        self.sites, self.fixed, self.used = dict(sites), dict(fixed or {}), set()

    def __call__(self, name):
        self.used.add(name)
        return SiteOrder(self.sites.get(name, "relaxed"), name)

    def port(self, name):
        return SiteOrder(self.fixed[name], name) if name in self.fixed else "relaxed"


def load_sites(runq):
    try:
        text = Path(runq).read_text()
    except OSError as e:
        raise wmm.Error(f"cannot read {runq}: {e.strerror}")
    try:
        return [(name, order) for name, order, _, _ in schemata.sites(text)]
    except schemata.Error as e:
        raise wmm.Error(f"{runq}: {e}")


def programs(orders, fixed=None):
    """[(program, sites it read)] for every idiom under `orders` (and `fixed`: Orders)."""
    out = []
    for make in idioms.IDIOMS:
        o = Orders(orders, fixed)
        out.append((make(o), o.used))
    return out


def settle(sites, fixed=None):
    """{site: {model: (idiom, execution) or None}}, the users of each site, and the
    port's own bad executions [(idiom, model, execution)] (must be empty)."""
    base = dict(sites)
    port = programs(base, fixed)
    users = {s: [p.name for p, used in port if s in used] for s in base}
    broken = []
    for prog, _ in port:
        if not wmm.candidate(prog):
            raise wmm.Error(f"{prog.name}: no candidate execution has the bad outcome")
        for m in wmm.MODELS:
            x = wmm.witness(prog, m)
            if x is not None:
                broken.append((prog.name, m, x))
    verdict = {}
    for s in base:
        weak = dict(base, **{s: weaken(base[s])})
        verdict[s] = {}
        progs = [p for p, used in programs(weak, fixed) if s in used]
        for m in wmm.MODELS:
            verdict[s][m] = None
            for prog in progs:
                x = wmm.witness(prog, m)
                if x is not None:
                    verdict[s][m] = (prog, x)
                    break
    return verdict, users, broken


def table(runq):
    sites = load_sites(runq)
    verdict, users, broken = settle(sites)
    out = ["# Weak-memory audit: every order site under RC11, C11 with LB, ARMv8", "",
           "Generated by `/usr/bin/python3 proofs/weak/audit.py --table`; do not edit "
           "(checked by the",
           "test proofs.weak.audit_current).  Each order site of "
           "core/include/runqcheck/runq.hpp",
           "(models/mutants/schemata.py's sites()) is weakened one step in every idiom of",
           "proofs/weak/idioms.py that uses it, and every execution is judged by "
           "proofs/weak/wmm.py.",
           "*necessary*: an idiom's invariant fails (its witness is below); necessary "
           "(retry):",
           "only progress fails (runqgrab retries its read); no G is lost or duplicated.",
           "*removable*: no consistent execution of the idioms that use the site violates "
           "its invariant",
           "(a claim about these idioms at capacity 1-2, not about every program).",
           "*no idiom*: no idiom reads the site (a new site: idioms.py needs a shape for it).",
           "The ARMv8 column judges the instructions compilers emit (wmm.py's mapping) with the",
           "address and control dependencies of the source kept; C++ does not promise that a",
           "compiler keeps them, so *removable* there means the hardware cannot show the bug,",
           "not that the C++ order may be weakened.", "",
           *textwrap.wrap(
               "A user's port is judged the same way (`--recorded`, the weak memory column) "
               "when the idioms fit it. One they cannot fit (fences, rings on the heap or in "
               "plain slots, a site missing from the idioms' shape, a runqempty that does not "
               "read the tail again after runnext as Go does) prints `not applied` with "
               "the reason, and the line names the column that judges it: the engine's "
               "exhaustive LB column, explore_lb/<subject>, which explores every execution of "
               "the catalog under LB and C11 with the port's own code and orders, idioms or "
               "not (docs/explore.md, \"Load buffering\"); its `--advise` prints the weakest "
               "order a failing site needs and the orders stronger than needed "
               "(\"Order advice\").", 100), "",
           "| site | C++ order | RC11 | C11 with LB | ARMv8 |", "|---|---|---|---|---|"]
    for s, mo in sites:
        cells = [("necessary (retry)" if verdict[s][m][0].progress else "**necessary**")
                 if verdict[s][m] else "removable" if users[s] else "**no idiom**"
                 for m in wmm.MODELS]
        out.append(f"| {s} | {mo} | " + " | ".join(cells) + " |")
    n = {m: sum(1 for s, _ in sites if verdict[s][m]) for m in wmm.MODELS}
    out += ["", "Necessary: " + ", ".join(f"{MODEL_NAMES[m]} {n[m]} of {len(sites)}"
                                          for m in wmm.MODELS) + "."]
    out += ["", "The port as written: " + ("no idiom has a bad execution under any model."
                                          if not broken else "BAD EXECUTIONS:")]
    for name, m, x in broken:
        out += [f"- {name} under {MODEL_NAMES[m]}:", "```", x.text(), "```"]
    out += ["", "## The idioms that read each site", ""]
    for s, _ in sites:
        out += textwrap.wrap(f"- {s}: " + (", ".join(users[s]) or "**none**"), 100,
                             subsequent_indent="  ", break_on_hyphens=False)
    out += ["", "## Not a runq.hpp site", ""]
    for make in idioms.EXTRA:
        prog = make(Orders(sites))
        res = {m: wmm.witness(prog, m) for m in wmm.MODELS}
        out += textwrap.wrap(f"- {prog.name} ({prog.doc}): " + ", ".join(
            f"{MODEL_NAMES[m]} {'bad outcome reachable' if res[m] else 'safe'}"
            for m in wmm.MODELS) + ".", 100, subsequent_indent="  ")
    out += ["", "## Witnesses", "",
            "One per necessary site: under C11 with LB when it is necessary there, else the "
            "first model", "that shows it.  `<- eN`: the write a read reads from; "
            "`co`: coherence order;",
            "`[addr eN; ctrl eM,eK]`: dependencies on reads; `@site`: the access's order site.",
            ""]
    for s, mo in sites:
        ms = [m for m in ("c11lb", "rc11", "armv8") if verdict[s][m]]
        if not ms:
            continue
        prog, x = verdict[s][ms[0]]
        out += [f"### {s} ({mo} -> {weaken(mo)})", "",
                *textwrap.wrap("Necessary under " + ", ".join(
                    f"{MODEL_NAMES[m]} ({verdict[s][m][0].name})" for m in ms) + ".", 100),
                f"Witness under {MODEL_NAMES[ms[0]]}, {prog.name}:", "",
                *textwrap.wrap(f"{prog.doc}.", 100), "", "```", x.text(), "```", ""]
    return "\n".join(out).rstrip("\n") + "\n"


def too_weak(mo, ref):
    """mo lacks an ordering that ref has (acquire and release are not comparable)."""
    acq = ("acquire", "acq_rel", "seq_cst", "consume")
    rel = ("release", "acq_rel", "seq_cst")
    return ((ref in acq and mo not in acq) or (ref in rel and mo not in rel)
            or (ref == "seq_cst" and mo != "seq_cst"))


def bad_pairs(orders, fixed=None):
    """{(idiom, model): (program, execution)} of the idioms' bad outcomes under orders."""
    out = {}
    for prog, _ in programs(orders, fixed):
        for m in wmm.MODELS:
            x = wmm.witness(prog, m)
            if x is not None:
                out[(prog.name, m)] = (prog, x)
    return out


def listing_of(path):
    """record_orders' listing: run the binary, or read a file that holds it."""
    if Path(path).is_file() and os.stat(path).st_mode & 0o111:
        try:
            r = subprocess.run([path], capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise wmm.Error(f"cannot run the recorder {path}: {e}")
        if r.returncode != 0:
            sys.stdout.write(r.stdout + r.stderr)
            raise wmm.Error(f"the recorder {path} exited {r.returncode}")
        return r.stdout
    try:
        return Path(path).read_text()
    except OSError as e:
        raise wmm.Error(f"cannot read {path}: {e.strerror}")


def port_table(ops, ref):
    """The port's order at every site of ref (plain read: relaxed; a missing read: relaxed;
    a missing write: NotApplied) -> (orders, notes, recorded table, the non-site accesses
    stronger than relaxed, {site: the port's file:line})."""
    got, role, src = port_orders.table(ops)
    orders, notes = {}, [f"roles by behaviour: {port_orders.describe(role)}"]
    for s, _ in ref:
        if s in got:
            mo = got[s][0]
            orders[s] = {"plain": "relaxed", "consume": "acquire"}.get(mo, mo)
            if mo == "plain":
                notes.append(f"{s}: a plain read ({got[s][1]}), judged as relaxed; a plain "
                             "read that races with a write is undefined in C++ besides")
        elif s.endswith("_load"):
            orders[s] = "relaxed"
            notes.append(f"{s}: the port makes no such read; the idioms read it relaxed, "
                         "and a witness through it is not recognised (no order advised)")
        else:
            fn, role_, kind = s.rsplit("_", 2)
            raise port_orders.NotApplied(f"{fn} makes no {kind} of the {role_} (site {s}): "
                                         "the idioms' shape is not the port's")
    extra = {s: v for s, v in got.items() if s not in orders
             and port_orders.RANK[v[0]] > port_orders.RANK["relaxed"]}
    return orders, notes, got, extra, src


def port_fixed(got, orders):
    """The port's order at each recorded access that is no site (Orders.port's `fixed`)."""
    return {s: {"plain": "relaxed", "consume": "acquire"}.get(mo, mo)
            for s, (mo, _) in got.items() if s not in orders}


MODEL_RANK = {m: k for k, m in enumerate(("c11lb", "rc11", "armv8"))}  # witness preference


def too_weak_sites(orders, refd, bad, port=None):
    """{site: [(model, idiom, program, execution)]}: for each site weaker than Go's order,
    the bad outcomes that restoring Go's order there removes (C11 with LB first)."""
    weak = {}
    for s in orders:
        if too_weak(orders[s], refd[s]):
            fixed = bad_pairs(dict(orders, **{s: refd[s]}), port)
            weak[s] = sorted(((m, i, *bad[(i, m)]) for (i, m) in bad if (i, m) not in fixed),
                             key=lambda c: MODEL_RANK[c[0]])
    return weak


def print_port_table(subject, ops, notes, ref, orders, verdict, weak, missing=frozenset()):
    """The per-site table: the port's order ("none": a read it never makes), Go's, and per
    model needed / stronger than needed (one step weaker keeps every idiom's invariant) /
    TOO WEAK / relaxed."""
    print(f"weak-memory orders of subject {subject} ({len(ops)} operations recorded)")
    for n in notes:
        print(f"  {n}")
    print(f"  {'site':24} {'port':8} {'Go':8} "
          + " ".join(f"{MODEL_NAMES[m]:12}" for m in wmm.MODELS).rstrip())
    for s, ref_mo in ref:
        cells = ["TOO WEAK" if any(w[0] == m for w in weak.get(s, [])) else
                 "relaxed" if orders[s] == "relaxed" else
                 "needed" if verdict[s][m] else "stronger" for m in wmm.MODELS]
        print(f"  {s:24} {'none' if s in missing else orders[s]:8} {ref_mo:8} "
              + " ".join(f"{c:12}" for c in cells).rstrip())


def print_reports(subject, ref, orders, verdict, users, weak, extra):
    """`runqcheck: report:` lines (ci/verdict.py lists them; they fail nothing), and for each
    order stronger than needed the idioms that stay safe with it one step weaker."""
    if extra:
        print("runqcheck: report: weak-memory orders: accesses Go's runq does not make "
              "(no site of go1.27's runq.go functions, as runqcheck ports them; the idioms "
              "use the port's order): "
              + ", ".join(f"{s} {mo}" for s, (mo, _) in sorted(extra.items()))
              + f" (subject {subject})")
    over = [s for s, _ in ref if orders[s] != "relaxed" and not verdict[s]["armv8"]
            and not weak.get(s)]
    for s in over:
        print(f"  {s} {orders[s]} -> {weaken(orders[s])}: no bad outcome under ARMv8 in "
              + ", ".join(users[s]))
    if over:
        c11 = [s for s in over if not verdict[s]["c11lb"] and not verdict[s]["rc11"]]
        print("runqcheck: report: weak-memory orders: stronger than needed under ARMv8 "
              "(one step weaker keeps every idiom's invariant): "
              + ", ".join(f"{s} {orders[s]} -> {weaken(orders[s])}" for s in over)
              + (f"; removable under C11 too: {', '.join(c11)}" if c11 else "")
              + "; the others C11 still needs" * (len(c11) < len(over))
              + f" (subject {subject})")


def why_weak(s, order, ref_mo, cases, missing=frozenset(), src=""):
    """One too-weak site for the FAILED line: its order, the models that need Go's, the idiom
    and the port's line (src's file name). A site the port never reads is "not recognised":
    no order is advised for it."""
    models = [MODEL_NAMES[m] for m in wmm.MODELS if any(c[0] == m for c in cases)]
    prog = cases[0][2]
    idiom = f"{prog.name}{': progress only' if prog.progress else ''}"
    if s in missing:
        return (f"{s}: not recognised: the witness needs a read the port never makes "
                f"({idiom}; the port's own accesses do not show where it goes wrong)")
    at = f"; at {Path(src).name}" if src else ""
    return (f"{s} is {order}, {', '.join(models)} need{'s' if len(models) == 1 else ''} "
            f"{ref_mo} ({idiom}{at})")


def print_failure(subject, orders, refd, weak, bad, repro, pictures, missing=frozenset(),
                  src=None):
    """The FAILED line (each too-weak site, or the idioms that fail together), each named
    site's `at:` line (its file:line, which ci/verdict.py's SARIF points at), a witness
    per site (`witness:` lines, which ci/verdict.py shows; with pictures, a DIR, also its
    swimlane page: a `picture:` line) and the reproducer."""
    named = [s for s in weak if weak[s]]
    src = src or {}
    print("FAILED: weak-memory orders: " + ("; ".join(
        why_weak(s, orders[s], refd[s], weak[s], missing, src.get(s, "")) for s in named)
        if named else
        "the port's orders together let " + ", ".join(sorted({i for i, _ in bad}))
        + " reach a bad outcome") + f" (subject {subject})")
    for s in named:
        if src.get(s):
            print(f"at: {s} {src[s]}")
    shown = set()
    for s in named or [None]:
        cases = weak[s] if s else sorted(((m, i, p, x) for (i, m), (p, x) in bad.items()),
                                         key=lambda c: MODEL_RANK[c[0]])
        m, i, prog, x = cases[0]
        if (i, m) in shown:
            continue
        shown.add((i, m))
        print(f"witness: {MODEL_NAMES[m]}, idiom {i}" + (f" (site {s})" if s else "")
              + f": {prog.doc}")
        for line in x.text().splitlines():
            print(f"witness: {line}")
        if pictures:
            import witness_page
            html = Path(pictures) / f"{subject}-{s or i}-{m}.html"
            witness_page.page(html, witness_page.trace(prog, x, subject, MODEL_NAMES[m],
                                                       s or i, repro.split(": ", 1)[1]))
            print(f"picture: {html.resolve()}")
    print(repro)


def judge_port(path, runq, pictures=None):
    """--recorded: the weak-memory verdict of a user's port.  Exit 1 (FAILED) if some idiom's
    bad outcome is reachable under the port's orders in some model, each order that is too
    weak named with its witness; the orders stronger than needed are reported, not failed;
    a structure the idioms do not describe is `not applied` (exit 77, the test's skip)."""
    try:
        subject, ops = port_orders.parse(listing_of(path))
    except ValueError as e:
        raise wmm.Error(f"{path}: {e}")
    ref = load_sites(runq)
    try:
        orders, notes, got, extra, src = port_table(ops, ref)
    except port_orders.NotApplied as e:
        print(f"runqcheck: not applied: weak-memory orders: {e} (subject {subject}); "
              f"{LB_COLUMN.format(subject=subject)}")
        return 77
    port = port_fixed(got, orders)
    verdict, users, _ = settle(list(orders.items()), port)
    bad, refd = bad_pairs(orders, port), dict(ref)
    weak = too_weak_sites(orders, refd, bad, port)
    missing = frozenset(s for s, _ in ref if s not in got)
    print_port_table(subject, ops, notes, ref, orders, verdict, weak, missing)
    print_reports(subject, ref, orders, verdict, users, weak, extra)
    if not bad:
        print(f"weak-memory orders: no idiom has a bad execution under RC11, C11 with LB or "
              f"ARMv8 (subject {subject})")
        return 0
    print_failure(subject, orders, refd, weak, bad,
                  f"reproduce: /usr/bin/python3 {Path(__file__).resolve()} --recorded {path}",
                  pictures, missing, src)
    return 1


def main(argv):
    runq = ROOT / "core" / "include" / "runqcheck" / "runq.hpp"
    args = list(argv)
    if "--runq" in args:
        i = args.index("--runq")
        if i + 1 >= len(args):
            print("audit.py: --runq needs a path")
            return 2
        runq = args[i + 1]
        del args[i:i + 2]
    try:
        if args == ["--table"]:
            sys.stdout.write(table(runq))
            return 0
        if len(args) == 2 and args[0] == "--check":
            try:
                have = Path(args[1]).read_text()
            except OSError as e:
                print(f"audit.py: cannot read {args[1]}: {e.strerror}")
                return 2
            if have != table(runq):
                print(f"audit.py: {args[1]} is stale; regenerate it with "
                      f"/usr/bin/python3 proofs/weak/audit.py --table > {args[1]}")
                return 1
            print(f"audit.py: {args[1]} is current")
            return 0
        if args == ["--json"]:
            sites = load_sites(runq)
            verdict, users, _ = settle(sites)
            cell = {s: {MODEL_NAMES[m]: (("necessary (retry)" if verdict[s][m][0].progress
                                          else "necessary") + f" ({verdict[s][m][0].name})")
                        if verdict[s][m] else "removable" if users[s] else "no idiom"
                        for m in wmm.MODELS} for s, _ in sites}
            print(json.dumps(cell, indent=1))
            return 0
        if args == ["--port"]:
            _, users, broken = settle(load_sites(runq))
            for name, m, x in broken:
                print(f"audit.py: {runq}: {name}: bad outcome under {MODEL_NAMES[m]}:")
                print(x.text())
            lost = [s for s, u in users.items() if not u]
            if lost:
                print(f"audit.py: {runq}: no idiom reads the site(s) {', '.join(lost)}: "
                      "not settled")
            if not broken and not lost:
                print(f"audit.py: {runq}: no idiom has a bad execution under any model")
            return 1 if broken or lost else 0
        if len(args) == 2 and args[0] == "--recorded":
            return judge_port(args[1], runq)
        if len(args) == 4 and args[0] == "--recorded" and args[2] == "--pictures":
            return judge_port(args[1], runq, args[3])
        if len(args) == 3 and args[0] == "--witness":
            sites = dict(load_sites(runq))
            s, m = args[1], args[2]
            if s not in sites or m not in wmm.MODELS:
                print(f"audit.py: unknown site {s} or model {m}")
                return 2
            v, _, _ = settle(list(sites.items()))
            r = v[s][m]
            print(f"{s} under {m}: " + (f"necessary ({r[0].name})\n{r[1].text()}"
                                         if r else "removable"))
            return 0
    except wmm.Error as e:
        print(f"audit.py: {e}")
        return 2
    print("usage: audit.py [--runq FILE] (--table | --json | --check DOC | --port | "
          "--witness SITE MODEL | --recorded RECORDER [--pictures DIR])")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
