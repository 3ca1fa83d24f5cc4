#!/usr/bin/python3
"""Run each checker once per mutant: the kill matrix, and the order audit.

Mutants (models/mutants/schemata.py --manifest): the logic mutants (patches in
models/mutants/logic), plain_slots, every order site of core/ weakened one step
(order:<site>), the wakeup protocol's mutants (models/mutants/protocol), and the
subject mutants of models/mutants/subject_mutants.txt (subject:<name>: another
buggy port; only the subject_mutants columns have a binary for it, the other
cells read n/a). A protocol_mutants column is built on the wakeup protocol's
header (core/include/runqcheck/protocol.hpp, its copy in the schemata), not on the
queues: only protocol mutants run there, the other cells read n/a. A column is a
checker binary built for the subject `mutants`
(the schemata, through ci/gate --subject) or a harness-only binary built on
it; RUNQCHECK_MUTANT selects the mutant. A mutant is killed in a column
when the binary exits non-zero (a failed assertion, a fatal check, a Relacy
failure). The matrix names what caught it, how long it took and, for Relacy,
after how many executions.

The columns are the checker declaration's (ci/checkers.json): each column
with a `kill` command, in declared order; `subject_mutants` marks the columns
with a binary for the subject mutants, `protocol_mutants` the protocol-only
ones. In a command, {KEY} is replaced by --var KEY=VALUE, and {mutant} by the
row's mutant (':' as '.'), for a scratch dir of its own.

Rows are independent: --jobs N runs N rows at once (each cell is one process;
the required kills are of deterministic columns: Relacy, explore, fuzz with a
fixed seed and execution cap, stall with an operation count). Rows print in
catalog order. A cell's time is measured under the other rows' load.

--only C1,C2 runs those columns only and takes every other cell from the
matrix already at --out (and the audit's replays from --audit): a column
added or changed is refreshed without re-running the whole matrix. The page
must hold every other declared column (else the whole matrix is needed).
--rows M1,M2 runs every column on those mutants only (a mutant added to the
catalog) and takes every other row from the page; with --only, those columns
run on every row as well.

usage: killmatrix.py --columns FILE [--var KEY=VALUE]... --out FILE [--quick]
                     --expected FILE --notes FILE [--audit FILE] [--check] [--jobs N]
                     [--only C1,C2] [--rows M1,M2]
"""
import json
import re
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def catalog():
    sys.path.insert(0, str(ROOT / "models/mutants"))
    import schemata  # noqa: E402  (the one list of mutants and sites)
    logic, protocol, _, _, sites = schemata.build(ROOT / "core/include", ROOT / "models/mutants")
    m = schemata.manifest(logic, protocol, sites)
    orders = {x["name"]: x["order"] for x in m["sites"]}
    rows = [(x["name"], x["models"], "logic") for x in m["logic"] + m["slots"] + m["protocol"]]
    for x in m["sites"]:
        rows.append((f"order:{x['name']}", f"{x['name']}: {x['order']} weakened one step", "order"))
    for line in (ROOT / "models/mutants/subject_mutants.txt").read_text().splitlines():
        f = line.split(None, 1)
        if f and not line.startswith("#"):
            rows.append((f"subject:{f[0]}", f[1] if len(f) > 1 else "", "subject"))
    return rows, orders, {x["name"] for x in m["protocol"]}


def run(cmd, mutant, timeout):
    # rapidcheck: a fixed seed, deterministic kills
    env = {"RUNQCHECK_MUTANT": mutant, "RUNQCHECK_SCALE": "0.2", "RUNQCHECK_STOP_ON_FAIL": "1",
           "RC_PARAMS": "seed=1", "PATH": "/usr/bin:/bin"}
    cmd = [a.replace("{mutant}", mutant.replace(":", ".")) for a in cmd]
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
        out, rc = p.stdout + p.stderr, p.returncode
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        rc = "timeout"
    dt = time.monotonic() - t0
    failed = sorted(set(re.findall(r"\[  FAILED  \] ([A-Za-z_][\w/]*\.[\w/]+)", out)))
    prop = (re.findall(r"^Falsifiable after (\d+) tests?", out, re.M)
            or re.findall(r"Falsifiable after (\d+) tests?", out))
    prop_name = re.findall(r"^- (.+)$", out, re.M)
    fatal = re.findall(r"fatal error: ([^\n]*?)(?: at |\n|$)", out)
    relacy = re.findall(r"^((?:USER ASSERT FAILED|DATA RACE|DEADLOCK|LIVELOCK|RESOURCE LEAK"
                        r"|ACCESS TO FREED MEMORY|DOUBLE FREE|UNINITIALIZED|NON-ATOMIC)[^\n]*)",
                        out, re.M)
    scen = re.findall(r": (\w+): FAILED after (\d+) executions", out)
    # explore (tests/explore/scenarios.cpp, protocol.cpp): a failure's line, its
    # scenario's counts; not a passed, cut (budget of ...) or unjudged (newm) line
    xwhy = re.findall(r"^explore(?:_protocol)? \S+ (\w+) (?:RC11|SC): "
                      r"(?!passed|budget of |[\d,]+ complete executions reached)(.*)$", out, re.M)
    xrun = [r for r in re.findall(r"^explore(?:_protocol)? \S+ (\w+) +(?:RC11|SC) ([\d,]+) "
                                  r"complete, ([\d,]+) blocked.*FAILED$", out, re.M)
            if xwhy and r[0] == xwhy[0][0]]
    replay = re.findall(r"^replay: (.*)$", out, re.M) or re.findall(r"^reproduce: (.*)$", out, re.M)
    # docs name repo paths, not this machine's
    replay = [r.replace(str(ROOT) + "/", "") for r in replay]
    stall = re.findall(r"^stall/\S+: FAILED (\S+:\d+): (.*)$", out, re.M)
    execs = int(scen[0][1]) if scen else None
    if xrun:
        execs = int(xrun[0][1].replace(",", "")) + int(xrun[0][2].replace(",", ""))
    weak = re.findall(r"^FAILED: weak-memory orders: (.*?)(?: \(subject \S+\))?$", out, re.M)
    fz = re.findall(r"^fuzz: killed after (\d+) executions \(([\d?]+) exec/s\): (.*)$", out, re.M)
    if fz:
        execs = int(fz[0][0])
    if rc == 77:  # the check did not apply to this mutant (CTest's skip): no kill
        na = re.findall(r"not applied: (.*)$", out, re.M)
        return {"killed": False, "not_applied": na[0][:110] if na else "exit 77", "how": "",
                "dt": dt, "execs": None, "replay": None}
    if rc == 0:
        how = ""
    elif weak:
        how = weak[0][:110]
    elif fz:
        how = fz[0][2][:90] + (f" ({fz[0][1]} exec/s)" if fz[0][1] not in ("0", "?") else "")
    elif stall:
        how = f"{stall[0][0]}: {stall[0][1]}"[:110]
    elif failed:
        how = ", ".join(failed[:2]) + (f" (+{len(failed) - 2})" if len(failed) > 2 else "")
    elif prop:
        how = (f"property falsified after {prop[0]} sequences"
               + (f" ({prop_name[0][:50]})" if prop_name else ""))
    elif xwhy:
        how = f"{xwhy[0][0]}: {xwhy[0][1]}"[:110]
    elif relacy:
        what = relacy[0].strip()
        what = re.sub(r"USER ASSERT FAILED \(fatal error: (.*?)\)?$", r"\1", what)[:70]
        how = (f"{scen[0][0]}: " if scen else "") + what
    elif fatal:
        how = f"fatal: {fatal[0]}"
    elif rc == "timeout":
        how = "hang (timeout)"
    elif rc == 3 and "watchdog" in out:
        how = "hang (watchdog: no operation returned)"
    else:
        how = f"exit {rc}"
    return {"killed": rc != 0, "how": how, "dt": dt, "execs": execs,
            "replay": replay[0] if replay else None}


def parse_args(args):
    o = {"check": False, "audit": None, "quick": False, "vars": {}, "jobs": 1}
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--check":
            o["check"] = True
            i += 1
        elif a == "--quick":
            o["quick"] = True
            i += 1
        elif a == "--jobs" and i + 1 < len(args):
            if not args[i + 1].isdigit() or int(args[i + 1]) < 1:
                raise SystemExit(f"killmatrix: --jobs takes a positive count, not '{args[i + 1]}'")
            o["jobs"] = int(args[i + 1])
            i += 2
        elif a == "--var" and i + 1 < len(args) and "=" in args[i + 1]:
            k, v = args[i + 1].split("=", 1)
            o["vars"][k] = v
            i += 2
        elif a in ("--only", "--rows") and i + 1 < len(args) and args[i + 1].strip(","):
            o[a[2:]] = [c for c in args[i + 1].split(",") if c]
            i += 2
        elif a in ("--out", "--expected", "--notes", "--audit", "--columns") and i + 1 < len(args):
            o[a[2:]] = args[i + 1]
            i += 2
        else:
            raise SystemExit(f"killmatrix: unknown argument '{a}'")
    for k in ("out", "expected", "notes", "columns"):
        if k not in o:
            raise SystemExit(__doc__)
    return o


def declared_columns(path, values):
    """[(id, command)], subject-mutant ids, protocol-only ids, ids to run unmutated
    first: the kill columns."""
    cols, subject, protocol, unmutated = [], set(), set(), set()
    for c in json.loads(Path(path).read_text())["columns"]:
        if "kill" not in c:
            continue
        try:
            # {mutant} stays for run() (a per-row scratch dir: rows run in parallel)
            cols.append((c["id"], [a.format(**values, mutant="{mutant}") for a in c["kill"]]))
        except KeyError as e:
            raise SystemExit(f"killmatrix: column {c['id']}: no --var {e.args[0]}=...")
        if c.get("subject_mutants"):
            subject.add(c["id"])
        if c.get("protocol_mutants"):
            protocol.add(c["id"])
        if c.get("unmutated"):
            unmutated.add(c["id"])
    return cols, subject, protocol, unmutated


def check_unmutated(cols, ids):
    """Each column of ids passes with no mutant (else no kill of it means anything)."""
    for c, cmd in cols:
        if c not in ids:
            continue
        r = run(cmd, "none", 600)
        if r["killed"] or r.get("not_applied"):
            raise SystemExit(f"killmatrix: the unmutated {c} column fails "
                             f"(RUNQCHECK_MUTANT=none {' '.join(cmd)}): "
                             f"{r['how'] or r.get('not_applied')}")
        print(f"killmatrix: {c} passes with no mutant ({r['dt']:.1f}s)", flush=True)


def quick_cells(cols, name, required, na, applies, full_only=frozenset()):
    """--quick (ci/test's budget): the columns expected.txt requires, then the
    others in order only until one kills the mutant; the rest are not run, nor
    is a column ci/checkers.json marks `"quick": false` (the full matrix's)."""
    skipped = dict(na, skipped=True)
    cells = {c: skipped for c, _ in cols}
    usable = [(c, cmd) for c, cmd in cols if applies(c) and c not in full_only]
    for c, cmd in usable:
        if c in required:
            cells[c] = run(cmd, name, 300)
    for c, cmd in usable:
        if any(x["killed"] for x in cells.values()):
            break
        if c not in required:
            cells[c] = run(cmd, name, 300)
    return cells


def cell(c):
    if c.get("skipped"):
        return "not run (--quick)"
    if c.get("na"):
        return "n/a"
    if not c["killed"]:
        return f"survived (not applied: {c['not_applied']})" if c.get("not_applied") else "survived"
    extra = f", {c['execs']} executions" if c["execs"] is not None else ""
    return f"killed ({c['dt']:.1f}s{extra}): {c['how']}"


def progress_word(c):
    """A cell in main()'s progress line: -, n/a, killed or survived."""
    return ("-" if c.get("skipped") else "n/a" if c.get("na")
            else "killed" if c["killed"] else "survived")


def parse_cell(text):
    """A cell as cell() wrote it, read back (--only)."""
    if text == "n/a":
        return {"killed": False, "how": "", "dt": 0.0, "execs": None, "replay": None, "na": True}
    if text == "not run (--quick)":
        return {"killed": False, "how": "", "dt": 0.0, "execs": None, "replay": None,
                "na": True, "skipped": True}
    m = re.fullmatch(r"survived(?: \(not applied: (.*)\))?", text)
    if m:
        c = {"killed": False, "how": "", "dt": 0.0, "execs": None, "replay": None}
        if m.group(1):
            c["not_applied"] = m.group(1)
        return c
    m = re.fullmatch(r"killed \(([\d.]+)s(?:, (\d+) executions)?\): (.*)", text)
    if not m:
        raise SystemExit(f"killmatrix: --only: a cell of the page not understood: '{text}'")
    return {"killed": True, "how": m.group(3), "dt": float(m.group(1)),
            "execs": int(m.group(2)) if m.group(2) else None, "replay": None}


def previous_cells(page, audit, names, only):
    """--only: {mutant: {column: cell}} of the page at --out, the audit's replays added to
    the cells they came from; every declared column not in `only` must be on the page."""
    if not Path(page).is_file():
        raise SystemExit(f"killmatrix: --only needs the matrix at {page} (run the whole matrix)")
    lines = Path(page).read_text().splitlines()
    head = next((ln for ln in lines if ln.startswith("| mutant | models |")), None)
    if head is None:
        raise SystemExit(f"killmatrix: --only: {page} has no matrix table")
    cols = [c.strip() for c in head.strip("|").split("|")][2:]
    missing = [c for c in names if c not in only and c not in cols]
    if missing:
        raise SystemExit(f"killmatrix: --only: {page} lacks column(s) {', '.join(missing)}: "
                         "add them to --only or run the whole matrix")
    prev = {}
    for ln in lines[lines.index(head) + 2:]:
        if not ln.startswith("| `"):
            break
        f = [x.strip() for x in ln.strip("|").split(" | ")]
        prev[f[0].strip("`")] = {c: parse_cell(t) for c, t in zip(cols, f[2:])}
    replays = {}
    if audit and Path(audit).is_file():
        for ln in Path(audit).read_text().splitlines():
            m = re.match(r"\| (\w+) \|.*\| necessary \|.*\| (\w+): .*; replay: `(.*)` \|$", ln)
            if m:
                replays[(f"order:{m.group(1)}", m.group(2))] = m.group(3)
    for (name, col), r in replays.items():
        if name in prev and col in prev[name]:
            prev[name][col]["replay"] = r
    return prev


def weak_models():
    """{site: {model: verdict}} from proofs/weak/audit.py --json (the axiomatic checker)."""
    p = subprocess.run(["/usr/bin/python3", str(Path(__file__).resolve().parent.parent / "proofs"
                                                / "weak" / "audit.py"), "--json"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"killmatrix: proofs/weak/audit.py --json failed: {p.stdout}{p.stderr}".strip())
    return json.loads(p.stdout)


def read_expected(path, quick: bool = False) -> dict:
    """{mutant: the columns expected.txt says kill it}. A column written COLUMN@full is
    required of the full matrix only: quick leaves it out (expected.txt says what shows
    that kill in the quick run instead)."""
    expected = {}
    for line in Path(path).read_text().splitlines():
        f = line.split("#", 1)[0].split()
        if len(f) >= 2:
            cols = [c.removesuffix("@full") for c in f[1].split(",")
                    if not (quick and c.endswith("@full"))]
            expected.setdefault(f[0], set()).update(cols)
    return expected


def _port_columns(columns_json, expected_txt, quick: bool) -> list:
    """The columns whose kill command runs a binary of the port's gate build ({port});
    quick: those expected.txt requires (all --quick runs)."""
    req = set().union(*read_expected(expected_txt, quick).values())
    cols = json.loads(Path(columns_json).read_text())["columns"]
    return [c for c in cols if c.get("kill") and "{port}" in " ".join(c["kill"])
            and (not quick or (c["id"] in req and c.get("quick", True)))]


def gate_columns(columns_json, expected_txt, quick: bool) -> str:
    """What the schemata's gate runs (ci/gate --columns): the port columns of the gate,
    but those run with no mutant here first (`unmutated`, check_unmutated: their kill
    command is the baseline that counts, and the gate's own budget would only cost)."""
    return ",".join(c["id"] for c in _port_columns(columns_json, expected_txt, quick)
                    if c.get("presets") and not c.get("unmutated"))


def _bin_targets(cols, var: str) -> list:
    """PRESET:TARGET of each {var}/PRESET/bin/TARGET word of the columns' kill commands."""
    out = []
    for c in cols:
        for a in c["kill"]:
            m = re.fullmatch(r"\{" + var + r"\}/([\w-]+)/bin/([\w-]+)", a)
            if m and f"{m[1]}:{m[2]}" not in out:
                out.append(f"{m[1]}:{m[2]}")
    return out


def baseline_targets(columns_json, expected_txt, quick: bool) -> str:
    """The binaries of the `unmutated` port columns, as PRESET:TARGET (from {port}/PRESET/
    bin/TARGET in the kill command): built in the gate's build dirs, not run there."""
    cols = _port_columns(columns_json, expected_txt, quick)
    return " ".join(_bin_targets([c for c in cols if c.get("unmutated")], "port"))


def build_targets(columns_json, expected_txt, quick: bool) -> str:
    """The binaries of the self-test builds the kill columns run, as PRESET:TARGET (from
    {build}/PRESET/bin/TARGET in the kill command; quick: of the columns it may run), for
    ci/mutants to build where no self-test build made them (ci/test's did)."""
    cols = [c for c in json.loads(Path(columns_json).read_text())["columns"]
            if c.get("kill") and not (quick and c.get("quick", True) is False)]
    return " ".join(_bin_targets(cols, "build"))


def gate_presets(columns_json, expected_txt, quick: bool) -> str:
    """The presets the schemata's gate needs: its columns' and its baselines' binaries'."""
    ids = set(gate_columns(columns_json, expected_txt, quick).split(","))
    out = []
    for c in json.loads(Path(columns_json).read_text())["columns"]:
        out += [p for p in c.get("presets", []) if c["id"] in ids and p not in out]
    for pt in baseline_targets(columns_json, expected_txt, quick).split():
        out += [] if pt.split(":")[0] in out else [pt.split(":")[0]]
    return ",".join(out)


def full_only_columns(columns_json) -> frozenset:
    """The kill columns --quick leaves to the full matrix (`"quick": false`)."""
    cols = json.loads(Path(columns_json).read_text())["columns"]
    return frozenset(c["id"] for c in cols if c.get("quick", True) is False)


def main():
    # models/mutants/mutants.cmake: the mutants expected.txt requires COLUMN to kill
    if sys.argv[1:2] == ["--required"]:
        if len(sys.argv) != 4:
            sys.exit("usage: killmatrix.py --required COLUMN EXPECTED")
        print(" ".join(m for m, cs in read_expected(sys.argv[3]).items() if sys.argv[2] in cs))
        return
    # ci/mutants: what the schemata's gate runs, and what it builds beside
    modes = {"--gate-columns": gate_columns, "--baseline-targets": baseline_targets,
             "--build-targets": build_targets, "--gate-presets": gate_presets}
    if sys.argv[1:2] and sys.argv[1] in modes:
        a = sys.argv[2:]
        if len(a) not in (2, 3) or a[2:] not in ([], ["--quick"]):
            sys.exit(f"usage: killmatrix.py {sys.argv[1]} CHECKERS_JSON EXPECTED [--quick]")
        print(modes[sys.argv[1]](a[0], a[1], a[2:] == ["--quick"]))
        return
    o = parse_args(sys.argv[1:])
    o["cols"], subject_cols, protocol_cols, unmutated = declared_columns(o["columns"],
                                                                         o["vars"])
    rows, orders, protocol_names = catalog()
    expected = read_expected(o["expected"], o["quick"])
    unknown = {c for cs in expected.values() for c in cs} - {c for c, _ in o["cols"]}
    if unknown:
        raise SystemExit(f"killmatrix: {o['expected']} names columns {o['columns']} does not "
                         f"declare: {', '.join(sorted(unknown))}")
    notes = {}
    for line in Path(o["notes"]).read_text().splitlines():
        if line.strip() and not line.startswith("#") and ":" in line:
            site, why = line.split(":", 1)
            notes[site.strip()] = why.strip()
    full_only = full_only_columns(o["columns"]) if o["quick"] else frozenset()
    check_unmutated([(c, cmd) for c, cmd in o["cols"] if c not in full_only], unmutated)
    names = [c for c, _ in o["cols"]]
    na = {"killed": False, "how": "", "dt": 0.0, "execs": None, "replay": None, "na": True}
    only = o.get("only")
    fresh = set(o.get("rows", ()))  # --rows: these rows run every column
    if fresh:
        bad = sorted(fresh - {name for name, _, _ in rows})
        if bad:
            raise SystemExit(f"killmatrix: --rows names no mutant of the catalog: {', '.join(bad)}")
        only = only or []
    if only is not None:
        bad = [c for c in only if c not in names]
        if bad:
            raise SystemExit(f"killmatrix: --only names undeclared column(s) {', '.join(bad)}")
        if o["quick"]:
            raise SystemExit("killmatrix: --only and --rows refresh the whole matrix's page, "
                             "not --quick's")
        prev = previous_cells(o["out"], o.get("audit"), names, only)

    def known_survivor(name, desc, kind):
        return ((kind == "order" and name[6:] in notes)
                or desc.startswith(("equivalent:", "weak-memory:")))

    def left_to_gate(name):
        """--quick: every column required to kill it is the full matrix's (`"quick":
        false`); the gate's self-tests show those kills (ci/checkers.json says which)."""
        return o["quick"] and bool(expected.get(name)) and expected[name] <= full_only

    def row_cells(row):
        """One row's cells (runs its checkers)."""
        name, desc, kind = row

        def applies(c):
            """Whether column c has a binary for this row (else n/a)."""
            return ((kind != "subject" or c in subject_cols)
                    and (c not in protocol_cols or name in protocol_names))
        if (o["quick"] and known_survivor(name, desc, kind) and not expected.get(name)
                or left_to_gate(name)):
            # --quick: an order the notes explain, or an equivalent mutant, with no
            # required kill, or a mutant only full-matrix columns must kill, is not run
            # (the full matrix runs it).
            return {c: dict(na, skipped=True) for c, _ in o["cols"]}
        if o["quick"]:
            return quick_cells(o["cols"], name, expected.get(name, set()), na, applies,
                               full_only)
        if only is not None:
            # A row the table left out (an equivalent mutant, an order no column
            # kills) survived every column it ran in.
            old = prev.get(name, {})
            survived = {"killed": False, "how": "", "dt": 0.0, "execs": None, "replay": None}
            return {c: (run(cmd, name, 300) if c in only or name in fresh
                        else old.get(c, dict(survived)))
                    if applies(c) else na for c, cmd in o["cols"]}
        return {c: run(cmd, name, 300) if applies(c) else na for c, cmd in o["cols"]}

    results, problems, weak_survivors = [], [], []
    with ThreadPoolExecutor(max_workers=o["jobs"]) as pool:  # rows print as they finish
        for (name, desc, kind), cells in zip(rows, pool.map(row_cells, rows)):
            known = known_survivor(name, desc, kind)
            killed = any(x["killed"] for x in cells.values())
            equivalent = desc.startswith("equivalent:")
            # a real bug whose window this hardware may never open
            weak = desc.startswith("weak-memory:")
            print(f"{name:36s} " + "  ".join(
                f"{c}:{progress_word(cells[c])}({cells[c]['dt']:.1f}s)"
                for c in names), flush=True)
            for c in expected.get(name, ()):
                if c in cells and not cells[c]["killed"] and c not in full_only:
                    problems.append(f"{name} survived {c}, which models/mutants/expected.txt "
                                    "says kills it")
            if not killed and not (o["quick"] and known and not expected.get(name)
                                   or left_to_gate(name)):
                if kind in ("logic", "subject") and not equivalent and not weak:
                    problems.append(f"{name} survived every checker")
                if kind == "order" and name[6:] not in notes:
                    problems.append(f"{name} survived every checker and "
                                    "models/mutants/order-notes.txt does not explain it")
            results.append((name, desc, kind, cells, killed, equivalent))
            if weak and not killed:
                weak_survivors.append((name, desc))

    gated = [r[0] for r in results if left_to_gate(r[0])]  # --quick: the self-tests' kills
    bugs = [r for r in results if not r[5] and (r[2] in ("logic", "subject") or r[4])
            and r[0] not in gated]
    killed_bugs = [r for r in bugs if r[4]]
    ttk = [min(c["dt"] for c in r[3].values() if c["killed"]) for r in killed_bugs]
    median = statistics.median(ttk) if ttk else 0.0
    cols_, rows_ = ", ".join(only or []), ", ".join(sorted(fresh))
    read_back = (f"the cells outside columns {cols_} and rows {rows_}" if only and fresh
                 else f"the cells of columns other than {cols_}" if only
                 else f"the rows other than {rows_}" if fresh else "")
    md = ["# Kill matrix", "",
          "Generated by `ci/mutants`; do not edit. Each row is one buggy port: a patch of core/",
          "(models/mutants/logic), a weakened order, plain slots, or a stress-protocol bug, all in",
          "the mutant schemata (models/mutants/schemata.py), judged as the subject `mutants` "
          "through",
          "`ci/gate --subject` by the checkers a user's port gets; `unit_core`, `fuzz_sequential` "
          "and",
          "`stress` are harness-only columns.",
          "`subject:` rows are buggy ports (models/mutants/subject_mutants.txt) run by the columns",
          "that have a binary for them; n/a elsewhere.",
          "A cell gives the time to kill, the Relacy executions to kill, and what failed"
          + (f" ({o['jobs']} mutants run at once: a time includes the others' load)."
             if o["jobs"] > 1 else "."), "",
          "Columns: " + "; ".join(f"`{c}` = `{Path(cmd[0]).name} {' '.join(cmd[1:])}`"
                                  for c, cmd in o["cols"]), "",
          f"**{len(killed_bugs)} of {len(bugs)} bugs killed by at least one checker; "
          "median time to kill "
          f"{median:.2f}s" + (f" ({read_back} read back from the page, their "
                              "times rounded to 0.1 s)" if read_back else "")
          + ".** Equivalent mutants and over-strong orders are listed below the table.", "",
          "| mutant | models | " + " | ".join(names) + " |", "|---|---|" + "---|" * len(names)]
    for name, desc, kind, cells, killed, equivalent in results:
        if equivalent or (kind == "order" and not killed):
            continue
        md.append(f"| `{name}` | {desc} | " + " | ".join(cell(cells[c]) for c in names) + " |")
    md += ["", "## Equivalent mutants (no execution can tell them from the port)", ""]
    md += [f"- `{r[0]}`: {r[1][len('equivalent: '):]}" for r in results if r[5]]
    md += ["", "## Weak-memory mutants that survived (not required: see each description)", ""]
    md += [f"- `{n}`: {d[len('weak-memory: '):]}" for n, d in weak_survivors] or ["- none"]
    md += ["", "## Weakened orders no checker catches", "",
           "Not bugs the checkers can see; each is explained in docs/order-audit.md "
           "(`ci/audit`).", ""]
    md += [f"- `{r[0]}`: {notes.get(r[0][6:], 'UNEXPLAINED')}" for r in results
           if r[2] == "order" and not r[4]]
    Path(o["out"]).parent.mkdir(parents=True, exist_ok=True)
    Path(o["out"]).write_text("\n".join(md) + "\n")
    print(f"mutants: {len(killed_bugs)} of {len(bugs)} bugs killed, "
          + (f"{len(gated)} more left to the gate's self-tests (their columns are the full "
             f"matrix's: {', '.join(gated)}), " if gated else "")
          + f"median time to kill {median:.2f}s; "
          f"{sum(1 for r in results if r[5])} equivalent; matrix written to {o['out']}")

    if o.get("audit"):
        weak = weak_models()
        models = list(next(iter(weak.values())).keys()) if weak else []
        a = ["# Memory-order audit", "",
             "Generated by `ci/audit`; do not edit. Every atomic operation of "
             "core/include/runqcheck/runq.hpp",
             "that is not already relaxed is weakened one step (acquire/release → relaxed, "
             "acq_rel → acquire)",
             "and run against every checker (*checkers*: necessary when some scenario fails; the "
             "replay command",
             "reproduces that execution), and judged under three memory models by the axiomatic "
             "checker of",
             "proofs/weak (RC11, C11 with load buffering, ARMv8: the idioms of "
             "proofs/weak/idioms.py that",
             "use the site; the idiom that fails is named; witnesses in "
             "[weak-memory.md](weak-memory.md)).",
             "An order no checker shows necessary is explained by what the models say and why it "
             "is kept.",
             "The relaxed accesses (slots, the owner's own tail, runnext reads before a CAS) have "
             "no",
             "weaker order; their safety rests on the orders listed here.", "",
             "| site | C++ order | checkers | " + " | ".join(models) + " | evidence |",
             "|---|---|---|" + "---|" * len(models) + "---|"]
        nec = 0
        for name, desc, kind, cells, killed, _ in results:
            if kind != "order":
                continue
            site = name[6:]
            wm = " | ".join(weak.get(site, {}).get(m, "?") for m in models)
            if killed:
                nec += 1
                first = next(c for c in names if cells[c]["killed"])
                c = cells[first]
                ev = f"{first}: {c['how']}" + (f"; replay: `{c['replay']}`" if c["replay"] else "")
                a.append(f"| {site} | {orders[site]} | necessary | {wm} | {ev} |")
            else:
                a.append(f"| {site} | {orders[site]} | not shown necessary | {wm} | "
                         f"{notes.get(site, 'UNEXPLAINED')} |")
        a += ["", f"{nec} of {sum(1 for r in results if r[2] == 'order')} orders shown necessary "
              "by the checkers; every site is settled per model above.",
              "See docs/memory-order-audit.md for the reasoning behind each order.", "",
              "A user's port gets the model columns too: `ci/gate --subject`'s *weak memory* "
              "column records",
              "the port's orders at these sites (tests/weak: roles told by behaviour, not by "
              "name) and judges them",
              "with the same idioms (`proofs/weak/audit.py --recorded`; docs/porting.md, "
              "section 6)."]
        Path(o["audit"]).write_text("\n".join(a) + "\n")
        print(f"audit: {nec} orders shown necessary; written to {o['audit']}")

    if o["check"] and problems:
        print("\n".join("mutants: " + p for p in problems))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
