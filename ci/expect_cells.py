#!/usr/bin/python3
"""Check cells of a ci/gate verdict matrix (its printed log).

usage: expect_cells.py LOG SUBJECT:COLUMN[,COLUMN...]=VERDICT ...
  VERDICT: FAILED, passed (passed or passed*), or strict (passed, no
  not-applied check: in the listed columns, or with none listed anywhere in
  the row). A cell carried over from an earlier gate (marked with a dagger) counts as
  its verdict.
Prints each expectation with what the matrix says; exit 0 if all hold,
1 if one does not, 2 on bad usage or a log without a matrix.
"""
import re
import sys


def read_matrix(text):
    """{subject: {column: verdict}} of the first matrix in text, its bands joined (ci/verdict.py
    prints one table a band of columns, blank lines between them), or None."""
    lines = text.splitlines()
    head = lambda i: (i + 1 < len(lines) and lines[i].startswith("subject ")
                      and lines[i + 1].startswith("---"))
    i = next((i for i in range(len(lines)) if head(i)), None)
    if i is None:
        return None
    rows = {}
    while True:
        cols = re.split(r"\s{2,}", lines[i].strip())
        i += 2
        while i < len(lines) and lines[i].strip():
            cells = re.split(r"\s{2,}", lines[i].strip())
            # (a cell carried over from an earlier gate is marked: the same verdict)
            rows.setdefault(cells[0], {}).update(
                zip(cols[1:], (c.rstrip("\u2020") for c in cells[1:])))
            i += 1
        while i < len(lines) and not lines[i].strip():
            i += 1
        if not head(i):
            return rows


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        rows = read_matrix(open(argv[0], encoding="utf-8", errors="replace").read())
    except OSError as e:
        print(f"expect_cells: {e}", file=sys.stderr)
        return 2
    if rows is None:
        print(f"expect_cells: no verdict matrix in {argv[0]}", file=sys.stderr)
        return 2
    ok = True
    for spec in argv[1:]:
        m = re.fullmatch(r"([^:]+):([^=]*)=(FAILED|passed|strict)", spec)
        if not m:
            print(f"expect_cells: bad expectation '{spec}'", file=sys.stderr)
            return 2
        subject, cols, want = m.groups()
        row = rows.get(subject)
        if row is None:
            print(f"  {subject}: no row in the matrix")
            ok = False
            continue
        if want == "strict":
            bad = {c: v for c, v in row.items()
                   if v != "passed" and (not cols or c in cols.split(","))}
            bad.update({c: "(no such column)" for c in cols.split(",") if cols and c not in row})
            print(f"  {subject}: every cell passed, every check applied: "
                  f"{'yes' if not bad else bad}")
            ok &= not bad
            continue
        for col in cols.split(","):
            got = row.get(col, "(no such column)")
            hit = got == "FAILED" if want == "FAILED" else got in ("passed", "passed*")
            print(f"  {subject}, {col}: expected {want}, matrix says {got}")
            ok &= hit
        others = [c for c, v in row.items() if v == "FAILED" and c not in cols.split(",")]
        if others and want == "FAILED":
            print(f"  {subject}: also FAILED: {', '.join(others)}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
