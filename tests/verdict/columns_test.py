#!/usr/bin/python3
"""Every test that judges a subject lands in exactly one declared column.

usage: columns_test.py BUILD_DIR CHECKERS_JSON
For each test labelled `port` in BUILD_DIR (ctest --show-only=json-v1): one
label column:<id>, <id> declared in CHECKERS_JSON, and the same row in
BUILD_DIR/runqcheck_columns.json (what ci/verdict.py reads). Exit 0 if so,
1 naming each test that is not.
"""
import json
import subprocess
import sys
from pathlib import Path


def main(argv):
    if len(argv) != 2:
        print("columns_test.py: usage: columns_test.py BUILD_DIR CHECKERS_JSON", file=sys.stderr)
        return 2
    d, decl = Path(argv[0]), json.loads(Path(argv[1]).read_text())["columns"]
    ids = {c["id"] for c in decl}
    table = json.loads((d / "runqcheck_columns.json").read_text())["tests"]
    shown = json.loads(subprocess.run(["ctest", "--test-dir", str(d), "--show-only=json-v1"],
                                      capture_output=True, text=True, check=True).stdout)
    bad, n = [], 0
    for t in shown["tests"]:
        labels = next((p["value"] for p in t.get("properties", []) if p["name"] == "LABELS"), [])
        cols = [x.split(":", 1)[1] for x in labels if x.startswith("column:")]
        if "port" not in labels:
            if cols:
                bad.append(f"{t['name']}: a column label on a test that judges no subject")
            continue
        n += 1
        if len(cols) != 1 or cols[0] not in ids:
            bad.append(f"{t['name']}: column labels {cols}, not one declared column")
        elif table.get(t["name"]) != cols[0]:
            bad.append(f"{t['name']}: runqcheck_columns.json says {table.get(t['name'])}")
    for b in bad:
        print(f"columns_test: {b}")
    print(f"columns_test: {'FAILED' if bad else 'passed'}: {n} port tests, "
          f"{len(bad)} without their one column")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
