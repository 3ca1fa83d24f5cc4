#!/usr/bin/python3
"""ci/bench --search: search throughput before and after, in one run (issue 16).

usage: ci/bench --search [--base REV] [--tiny] [--bound K] [--reps N] [--seeds N]
                         [--out FILE] [--bins BEFORE_DIR AFTER_DIR]

Builds the checkers of two trees, `before` (REV, default: where this tree
branched from main, `git merge-base main HEAD`; checked out
with `git worktree` under build/search-bench/, built there) and `after` (this
tree, built in its usual build dirs: build/fuzz, build/fuzz-fast,
build/relacy, build/port/mutants/fuzz), the same way for both (cmake presets fuzz and
relacy, plus the fast fuzz build:
preset fuzz with -O2 and no sanitizer, what preset fuzz-fast is), then, with
before and after runs alternated so that both share the machine's load:

  1. executions/s of fuzz_interleave and fuzz_sequential, sanitized (ASan +
     UBSan, what CI fuzzes with) and fast, from a copy of the checked-in
     corpus with a fixed seed: libFuzzer's own figure (wall clock) and
     executions per CPU second of the fuzzer process (the load-independent
     one: on a shared machine the wall figure drops with the load);
  2. executions/s of Relacy's random search (20,000 executions a scenario)
     and of the context-bounded search (bound K, default 2), per scenario
     (relacy_scenarios__go125);
  3. executions to kill of every fuzz cell the kill matrix expects or shows
     killed (models/mutants/expected.txt, docs/killmatrix.md), run as
     ci/fuzz-kill runs the cell (sanitized binaries), with seeds 1..N
     (--seeds, default 3): one seed's kill of a hard mutant is luck.

Writes a markdown report (default docs/search-bench.md). No figure is
asserted: the exit status is 0 unless a build or a run broke (1), or the
usage is wrong (2). --tiny runs each thing once, a few hundred executions
(the gate's smoke test). --bins takes two directories of already built
binaries instead of building (each holding fuzz_interleave, fuzz_sequential,
fuzz_interleave_fast, fuzz_sequential_fast, relacy_scenarios__go125,
fuzz_interleave__mutants, fuzz_sequential_mutant; a missing one is reported
"not built" and skipped).
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "build" / "search-bench"
BINS = ["fuzz_interleave", "fuzz_sequential", "fuzz_interleave_fast", "fuzz_sequential_fast",
        "relacy_scenarios__go125", "fuzz_interleave__mutants", "fuzz_sequential_mutant"]
FAST_FLAGS = ["-DCMAKE_BUILD_TYPE=RelWithDebInfo",
              "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -fsanitize=fuzzer-no-link",
              "-DCMAKE_EXE_LINKER_FLAGS=", "-DRUNQCHECK_CHECKERS=fuzz"]


def die(msg, code=2):
    print(f"ci/bench --search: {msg}", file=sys.stderr)
    sys.exit(code)


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def sh(cmd, cwd, logf):
    with open(logf, "a") as f:
        f.write("$ " + " ".join(map(str, cmd)) + "\n")
        f.flush()
        return subprocess.run(cmd, cwd=cwd, stdout=f, stderr=subprocess.STDOUT).returncode == 0


def build(tree, dirs, logf):
    """Configures and builds the benchmarked binaries of `tree` in the build
    dirs `dirs` ({part: dir}); returns ({name: path} of those built, all ok).
    Same commands for both trees."""
    jobs = str(os.cpu_count() or 2)
    mut = tree / "models/mutants/mutants.cmake"
    port = ["-DRUNQCHECK_PORT_ONLY=ON", "-DRUNQCHECK_BUNDLED_SUBJECTS=OFF",
            "-DRUNQCHECK_WITH_EXAMPLES=OFF", f"-DRUNQCHECK_EXTRA_SUBJECTS={mut}",
            "-DRUNQCHECK_CHECKERS=fuzz"]
    plan = [  # (build dir, preset, extra -D, targets, {target: bench name})
        ("fuzz", "fuzz", [], ["fuzz_interleave", "fuzz_sequential", "fuzz_sequential_mutant"], {}),
        ("fuzz-fast", "fuzz", FAST_FLAGS, ["fuzz_interleave", "fuzz_sequential"],
         {"fuzz_interleave": "fuzz_interleave_fast", "fuzz_sequential": "fuzz_sequential_fast"}),
        ("relacy", "relacy", [], ["relacy_scenarios__go125"], {}),
        ("port-fuzz", "fuzz", port, ["fuzz_interleave__mutants"], {}),
    ]
    got = {}
    env_ok = True
    for d, preset, extra, targets, rename in plan:
        bdir = dirs[d]
        log(f"build {bdir}: {', '.join(targets)}")
        if not sh(["cmake", "--preset", preset, "-B", str(bdir), *extra], tree, logf):
            env_ok = False
            continue
        ok = sh(["nice", "cmake", "--build", str(bdir), "-j", jobs, "--target", *targets],
                tree, logf)
        env_ok &= ok
        for t in targets:
            p = bdir / "bin" / t
            if p.exists():
                got[rename.get(t, t)] = p
    return got, env_ok


def prebuilt(d):
    d = Path(d)
    if not d.is_dir():
        die(f"--bins: '{d}' is not a directory")
    return {n: d / n for n in BINS if (d / n).exists()}


def fuzz_once(binary, target, runs, secs):
    """One libFuzzer run from a copy of the corpus: (executions, wall exec/s, exec/CPU-s)."""
    corpus = ROOT / "fuzz/corpus" / target
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "c"
        shutil.copytree(corpus, work)
        cmd = [str(binary), str(work), f"-runs={runs}", f"-max_total_time={secs}", "-seed=1",
               "-print_final_stats=1", f"-dict={ROOT}/fuzz/dict/{target}.dict",
               f"-artifact_prefix={tmp}/", "-close_fd_mask=1"]
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        err = p.stderr.read()
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
    n = re.findall(r"stat::number_of_executed_units: (\d+)", err)
    r = re.findall(r"stat::average_exec_per_sec:\s+(\d+)", err)
    if p.returncode != 0 or not n:
        return None
    cpu = ru.ru_utime + ru.ru_stime
    return int(n[-1]), int(r[-1]), int(n[-1]) / cpu if cpu > 0 else 0.0


def med(xs):
    return statistics.median(xs) if xs else None


def fmt(x, nd=0):
    return "n/a" if x is None else f"{x:,.{nd}f}"


def ratio(a, b):
    return "n/a" if not a or not b else f"{b / a:.1f}×"


def bench_fuzz(sides, args, failures):
    rows = []
    for target in ("fuzz_interleave", "fuzz_sequential"):
        for kind, suffix in (("fast", "_fast"), ("ASan+UBSan", "")):
            name = target + suffix
            runs, secs = (300, 5) if args.tiny else ((30000, 20) if suffix else (5000, 20))
            res = {s: [] for s in sides}
            for _ in range(args.reps):
                for s in sides:  # alternated: both sides see the same load
                    b = sides[s].get(name)
                    if b is None:
                        continue
                    log(f"fuzz {name} ({s})")
                    r = fuzz_once(b, target, runs, secs)
                    if r is None:
                        failures.append(f"{name} ({s}) failed")
                    else:
                        res[s].append(r)
            cell = {}
            for s in sides:
                if res[s]:
                    cell[s] = (sum(x[0] for x in res[s]), med([x[1] for x in res[s]]),
                               med([x[2] for x in res[s]]))
                else:
                    cell[s] = None
            rows.append((target, kind, cell))
    return rows


SCEN = re.compile(r"^\S+: (\w+): (passed|FAILED) after (\d+) executions, ([\d.]+)s, "
                  r"(\d+) executions/s", re.M)


def relacy_run(binary, mode, arg):
    p = subprocess.run([str(binary), mode, str(arg)], capture_output=True, text=True)
    found = {m[0]: (int(m[2]), float(m[3]), int(m[4]), m[1]) for m in SCEN.findall(p.stdout)}
    return found, p.returncode


def bench_relacy(sides, args, failures):
    out = {}
    for mode, arg in (("random", 200 if args.tiny else 20000), ("bound", args.bound)):
        res = {}
        for s in sides:
            b = sides[s].get("relacy_scenarios__go125")
            if b is None:
                res[s] = None
                continue
            log(f"relacy {mode} {arg} ({s})")
            res[s], rc = relacy_run(b, mode, arg)
            if rc != 0:
                failures.append(f"relacy {mode} {arg} ({s}) exit {rc}")
        out[(mode, arg)] = res
    return out


def fuzz_cells():
    """(mutant, column) of every fuzz cell expected to kill or killed today."""
    cols = ("fuzz_interleave", "fuzz_sequential")
    cells = set()
    for line in (ROOT / "models/mutants/expected.txt").read_text().splitlines():
        f = line.split()
        if len(f) == 2 and not line.startswith("#"):
            cells |= {(f[0], c) for c in cols if c in f[1].split(",")}
    km = ROOT / "docs/killmatrix.md"
    if km.exists():
        lines = km.read_text().splitlines()
        head = next((ln for ln in lines if ln.startswith("| mutant")), None)
        if head:
            names = [h.strip() for h in head.split("|")]
            for ln in lines:
                if ln.startswith("| `"):
                    c = [x.strip() for x in ln.split("|")]
                    for col in cols:
                        if col in names and c[names.index(col)].startswith("killed"):
                            cells.add((c[1].strip("`"), col))
    return sorted(cells)


def kill_once(binary, col, mutant, runs, secs, seed):
    """One fuzz cell run (as ci/fuzz-kill runs it, with this seed): (killed, executions, s)."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "c"
        shutil.copytree(ROOT / "fuzz/corpus" / col, work)
        cmd = [str(binary), str(work), f"-runs={runs}", f"-max_total_time={secs}", f"-seed={seed}",
               "-print_final_stats=1", f"-artifact_prefix={tmp}/", "-close_fd_mask=1"]
        t0 = time.monotonic()
        p = subprocess.run(cmd, capture_output=True, text=True,
                           env=dict(os.environ, RUNQCHECK_MUTANT=mutant))
        dt = time.monotonic() - t0
    n = re.findall(r"stat::number_of_executed_units: (\d+)", p.stderr)
    return p.returncode != 0, int(n[-1]) if n else None, dt


def bench_kills(sides, args, failures):
    cells = fuzz_cells()
    if args.tiny:
        cells = [c for c in cells if c[0] == "runqgrab_floor_half"][:2]
    rows = []
    for mutant, col in cells:
        b_name = ("fuzz_interleave__mutants" if col == "fuzz_interleave"
                  else "fuzz_sequential_mutant")
        runs, secs = (40000, 90) if col == "fuzz_interleave" else (10000, 10)
        if args.tiny:
            runs = 500
        cell = {}
        for s in sides:
            b = sides[s].get(b_name)
            if b is None:
                cell[s] = None
                continue
            log(f"kill {mutant} / {col} ({s})")
            cell[s] = [kill_once(b, col, mutant, runs, secs, seed)
                       for seed in range(1, args.seeds + 1)]
            if any(n is None for _, n, _ in cell[s]):
                failures.append(f"kill cell {mutant}/{col} ({s}): a run printed no statistics")
        rows.append((mutant, col, cell))
    return rows


def report(args, sides, revs, fz, rl, kills, failures, load0, load1, elapsed):
    L = []
    L.append("# Search throughput: before and after (issue 16)")
    L.append("")
    L.append("Generated by `ci/bench --search" + (" --tiny" if args.tiny else "") +
             "`; do not edit. Before: " + revs["before"] + "; after: " + revs["after"] + ".")
    L.append(f"Machine: {os.cpu_count()} cores, load average {load0} at the start, "
             f"{load1} at the end; "
             f"{elapsed:.0f} s in all. Before and after runs alternate, so both see the same load.")
    L.append("")
    L.append("## libFuzzer targets")
    L.append("")
    L.append("From a copy of the checked-in corpus, `-seed=1`, the target's dictionary; "
             "median over "
             f"{args.reps} run(s) each. *exec/s* is libFuzzer's own figure (wall clock: it drops "
             "with the machine's load); *exec/CPU-s* counts executions per CPU second of the "
             "fuzzer process (one thread), the figure that does not depend on the load.")
    L.append("")
    L.append("| target | build | before exec/s | after exec/s | before exec/CPU-s | "
             "after exec/CPU-s | "
             "speed-up (CPU) |")
    L.append("|---|---|---|---|---|---|---|")
    for target, kind, cell in fz:
        b, a = cell.get("before"), cell.get("after")
        L.append(f"| `{target}` | {kind} | {fmt(b and b[1])} | {fmt(a and a[1])} | "
                 f"{fmt(b and b[2])} | "
                 f"{fmt(a and a[2])} | {ratio(b and b[2], a and a[2])} |")
    L.append("")
    L.append("## Relacy searches (relacy_scenarios__go125), per scenario")
    L.append("")
    for (mode, arg), res in rl.items():
        L.append(f"### `{mode} {arg}`")
        L.append("")
        if not res.get("before") and not res.get("after"):
            L.append("not built")
            L.append("")
            continue
        L.append("| scenario | executions | before exec/s | after exec/s | before s | after s "
                 "| speed-up |")
        L.append("|---|---|---|---|---|---|---|")
        names = sorted(set((res.get("before") or {}).keys()) | set((res.get("after") or {}).keys()))
        tb = ta = 0.0
        for n in names:
            b = (res.get("before") or {}).get(n)
            a = (res.get("after") or {}).get(n)
            tb += b[1] if b else 0
            ta += a[1] if a else 0
            execs = (a or b)[0]
            L.append(f"| {n} | {execs:,} | {fmt(b and b[2])} | {fmt(a and a[2])} | "
                     f"{fmt(b and b[1], 2)} | {fmt(a and a[1], 2)} | "
                     f"{ratio(b and b[2], a and a[2])} |")
        total = ratio(ta, tb) if ta and tb else "n/a"
        L.append(f"| **all** | | | | {tb:.1f} | {ta:.1f} | {total} |")
        L.append("")
    L.append("## Executions to kill: the kill matrix's fuzz cells")
    L.append("")
    L.append("Every cell models/mutants/expected.txt requires and every cell docs/killmatrix.md "
             "shows killed, run as `ci/fuzz-kill` runs it (sanitized binaries, from a copy of the "
             f"corpus) with seeds 1..{args.seeds}, each at most 40,000 executions for "
             "fuzz_interleave (ci/mutants' cap) and 10,000 for fuzz_sequential. A cell: seeds that "
             "killed, the median executions and seconds to kill over those seeds.")
    L.append("")
    L.append("| mutant | column | before | after |")
    L.append("|---|---|---|---|")
    lost = 0
    for mutant, col, cell in kills:
        def show(x):
            if x is None:
                return "not built"
            k = [(n, t) for killed, n, t in x if killed]
            if not k:
                return f"survived {len(x)} of {len(x)}"
            return (f"{len(k)}/{len(x)} killed, {fmt(med([n for n, _ in k]))} executions, "
                    f"{med([t for _, t in k]):.1f} s")
        b, a = cell.get("before"), cell.get("after")
        kb = sum(1 for killed, _, _ in b if killed) if b else 0
        ka = sum(1 for killed, _, _ in a if killed) if a else 0
        if b and a and ka < kb:
            lost += 1
        L.append(f"| `{mutant}` | {col} | {show(b)} | {show(a)} |")
    L.append("")
    L.append(f"Cells killed by fewer seeds after than before: {lost}.")
    if failures:
        L.append("")
        L.append("## Failures")
        L.append("")
        L.extend(f"- {f}" for f in failures)
    L.append("")
    return "\n".join(L)


def main():
    ap = argparse.ArgumentParser(prog="ci/bench --search", add_help=True)
    ap.add_argument("--base", default=None)
    ap.add_argument("--tiny", action="store_true")
    ap.add_argument("--bound", type=int, default=None)
    ap.add_argument("--reps", type=int, default=None)
    ap.add_argument("--seeds", type=int, default=None)
    ap.add_argument("--out", default=None)
    ap.add_argument("--bins", nargs=2, metavar=("BEFORE_DIR", "AFTER_DIR"))
    try:
        args = ap.parse_args(sys.argv[1:])
    except SystemExit as e:
        sys.exit(2 if e.code else 0)
    if args.bound is None:
        args.bound = 1 if args.tiny else 2
    if args.reps is None:
        args.reps = 1 if args.tiny else 3
    if args.seeds is None:
        args.seeds = 1 if args.tiny else 3
    if args.bound < 0 or args.reps < 1 or args.seeds < 1:
        die("--bound wants K >= 0, --reps and --seeds N >= 1")
    out = Path(args.out) if args.out else ROOT / "docs/search-bench.md"
    t0 = time.monotonic()
    load0 = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    WORK.mkdir(parents=True, exist_ok=True)
    logf = WORK / "build.log"
    logf.write_text("")
    failures = []
    if args.bins:
        sides = {"before": prebuilt(args.bins[0]), "after": prebuilt(args.bins[1])}
        revs = {"before": f"binaries in {args.bins[0]}", "after": f"binaries in {args.bins[1]}"}
    else:
        if args.base is None:  # main where this tree branched from it (main may have moved on)
            mb = subprocess.run(["git", "merge-base", "main", "HEAD"], cwd=ROOT,
                                capture_output=True, text=True)
            args.base = mb.stdout.strip() if mb.returncode == 0 else "main"
        q = subprocess.run(["git", "rev-parse", "--verify", "--quiet", args.base + "^{commit}"],
                           cwd=ROOT, capture_output=True, text=True)
        if q.returncode != 0:
            die(f"--base: '{args.base}' is not a commit of this repository")
        rev = q.stdout.strip()
        base = WORK / "base-src"
        if base.exists():
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT,
                           capture_output=True)
        if not sh(["git", "worktree", "add", "--detach", str(base), rev], ROOT, logf):
            die(f"git worktree add of {rev} failed (see {logf})", 1)
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                              capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True).stdout.strip()
        revs = {"before": f"`{args.base}` ({rev[:10]})",
                "after": f"this tree ({head}{', with uncommitted changes' if dirty else ''})"}
        # The after side builds in this tree's usual build dirs (what the
        # presets and ci/mutants use: a developer's builds are reused).
        parts = ("fuzz", "fuzz-fast", "relacy", "port-fuzz")
        after = {d: ROOT / "build" / d for d in parts}
        after["port-fuzz"] = ROOT / "build/port/mutants/fuzz"
        sides = {}
        for s, tree, dirs in (("before", base, {d: WORK / "before" / d for d in parts}),
                              ("after", ROOT, after)):
            sides[s], ok = build(tree, dirs, logf)
            if not ok:
                failures.append(f"a build of the {s} tree failed (see {logf})")
    for s in sides:
        for n in BINS:
            if n not in sides[s]:
                log(f"{s}: {n} not built: skipped")
    fz = bench_fuzz(sides, args, failures)
    rl = bench_relacy(sides, args, failures)
    kills = bench_kills(sides, args, failures)
    load1 = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    text = report(args, sides, revs, fz, rl, kills, failures, load0, load1, time.monotonic() - t0)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    log(f"wrote {out}")
    if not args.bins:
        subprocess.run(["git", "worktree", "remove", "--force", str(WORK / "base-src")], cwd=ROOT,
                       capture_output=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
