#!/usr/bin/python3
"""ci/killmatrix.py --only and --rows: what they name runs, every other cell comes from the page.

Two toy kill columns (shell commands on RUNQCHECK_MUTANT) over the real mutant catalog:
`a` kills the runqget mutants, `b` none. The whole matrix is written; then `a` is changed
to kill nothing and `b` to kill the runqput mutants, and `--only b` refreshes the page.
`a`'s kills must survive from the page (a run that re-ran `a` loses them) and `b`'s new
kills must show. `--rows M` then runs every column on M alone. A page without a column
that --only does not name is refused. A
requirement written `a@full` is the full matrix's, not --quick's.

usage: killmatrix_only_test.py <runqcheck root> <scratch dir>
"""
import json
import re
import subprocess
import sys
from pathlib import Path


def columns(path, a, b):
    cols = [{"id": "a", "title": None, "kill": ["sh", "-c", a]},
            {"id": "b", "title": None, "kill": ["sh", "-c", b]}]
    path.write_text(json.dumps({"about": "toy", "columns": cols}))


def matrix(root, work, cols, *extra):
    cmd = [sys.executable, str(root / "ci/killmatrix.py"), "--columns", str(cols),
           "--out", str(work / "km.md"), "--expected", str(work / "expected.txt"),
           "--notes", str(work / "notes.txt"), *extra]
    return subprocess.run(cmd, capture_output=True, text=True)


def cells(page):
    """{mutant: (a, b)} of the page's table."""
    out = {}
    for ln in page.read_text().splitlines():
        if ln.startswith("| `"):
            f = [x.strip() for x in ln.strip("|").split(" | ")]
            out[f[0].strip("`")] = (f[2], f[3])
    return out


def main():
    root, work = Path(sys.argv[1]), Path(sys.argv[2])
    work.mkdir(parents=True, exist_ok=True)
    (work / "expected.txt").write_text("")
    (work / "notes.txt").write_text("")
    kills = 'case "$RUNQCHECK_MUTANT" in {}*) echo "fatal error: toy kill"; exit 1;; esac'
    cols = work / "cols.json"
    problems = []
    columns(cols, kills.format("runqget"), "exit 0")
    r = matrix(root, work, cols)
    if r.returncode != 0:
        sys.exit(f"FAIL the whole matrix: exit {r.returncode}: {r.stdout}{r.stderr}")
    before = cells(work / "km.md")
    gets = [m for m in before if m.startswith("runqget")]
    if not gets:
        sys.exit("FAIL the whole matrix shows no runqget mutant killed by a")
    columns(cols, "exit 0", kills.format("runqput"))
    r = matrix(root, work, cols, "--only", "b")
    if r.returncode != 0:
        sys.exit(f"FAIL --only b: exit {r.returncode}: {r.stdout}{r.stderr}")
    after = cells(work / "km.md")
    for m in gets:
        if after.get(m, ("",))[0] != before[m][0]:
            problems.append(f"{m}: a's cell '{before[m][0]}' became '{after.get(m)}'")
    puts = [m for m, (_, b) in after.items() if m.startswith("runqput")
            and re.match(r"killed \(", b)]
    if not puts:
        problems.append("no runqput mutant killed by b after --only b")
    if any(m.startswith("runqput") and a.startswith("killed") for m, (a, _) in after.items()):
        problems.append("a kills a runqput mutant it never killed")
    # --rows M: every column runs on row M only; the other rows come from the page.
    # `a` now kills everything and `b` nothing: M's cells turn (killed, survived), the
    # other runqput rows keep (survived, killed).
    columns(cols, 'echo "fatal error: toy kill"; exit 1', "exit 0")
    m, rest = puts[0] if puts else "", puts[1:]
    r = matrix(root, work, cols, "--rows", m)
    rows = cells(work / "km.md")
    if r.returncode != 0 or not rows.get(m, ("",))[0].startswith("killed") \
            or not rows[m][1].startswith("survived"):
        problems.append(f"--rows {m}: exit {r.returncode}, its cells {rows.get(m)}")
    changed = [x for x in rest + gets if rows.get(x) != after.get(x)]
    if changed:
        problems.append(f"--rows {m} changed other rows: {changed}")
    r = matrix(root, work, cols, "--rows", "no_such_mutant")
    if r.returncode == 0 or "--rows names no mutant" not in r.stderr:
        problems.append(f"--rows no_such_mutant: exit {r.returncode}, {r.stderr.strip()!r}")
    # A page without column c that --only does not name: refused, in one line.
    page = work / "km.md"
    page.write_text(page.read_text().replace("| a | b |", "| x | b |"))
    r = matrix(root, work, cols, "--only", "b")
    if r.returncode == 0 or "lacks column(s) a" not in r.stderr:
        problems.append(f"a page without column a: exit {r.returncode}, {r.stderr.strip()!r}")
    # COLUMN@full (expected.txt): a kill --quick leaves to the full matrix. `a` kills
    # nothing; the full matrix must name the requirement, --quick must not.
    (work / "expected.txt").write_text("runqget_second_first a@full,b\n")
    columns(cols, "exit 0", kills.format("runqget"))
    want = "runqget_second_first survived a,"
    full = matrix(root, work, cols, "--check")
    quick = matrix(root, work, cols, "--check", "--quick")
    if want not in full.stdout:
        problems.append(f"the full matrix did not require a@full: {full.stdout[-300:]!r}")
    if not re.search(r"^runqget_second_first +a:-\(.*b:killed", quick.stdout, re.M):
        problems.append(f"--quick did not run b alone on it: {quick.stdout[-300:]!r}"
                        f"{quick.stderr[-300:]!r}")
    if want in quick.stdout or "survived b" in quick.stdout:
        problems.append(f"--quick required a@full or lost b: {quick.stdout[-300:]!r}")
    # ci/mutants' split of the real declaration: a column runs the self-test builds' binary
    # ({build}, listed by --build-targets) or the schemata gate's (--gate-columns), never
    # both, and a {build} column is run unmutated (its baseline is its own command).
    real = [str(root / "ci/checkers.json"), str(root / "models/mutants/expected.txt")]
    km = [sys.executable, str(root / "ci/killmatrix.py")]
    built = subprocess.run(km + ["--build-targets"] + real, capture_output=True,
                           text=True).stdout.split()
    gated = subprocess.run(km + ["--gate-columns"] + real, capture_output=True,
                           text=True).stdout.strip().split(",")
    for c in json.loads(Path(real[0]).read_text())["columns"]:
        own = [a for a in c.get("kill", []) if a.startswith("{build}/") and "/bin/" in a]
        for a in own:
            pt = a.split("/")[1] + ":" + a.split("/")[-1]
            if pt not in built:
                problems.append(f"--build-targets lacks {pt} ({c['id']})")
        if own and c["id"] in gated:
            problems.append(f"{c['id']} runs a self-test binary and is gated too")
        if own and not c.get("unmutated"):
            problems.append(f"{c['id']} runs a self-test binary with no unmutated baseline")
    for p in problems:
        print("FAIL", p)
    if not problems:
        print(f"ok: --only b kept a's {len(gets)} kills from the page and found "
              f"{len(puts)} new kills of b")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
