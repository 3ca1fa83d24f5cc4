#!/usr/bin/python3
"""Write the docs' column list from the checker declaration (ci/checkers.json).

usage: columns_doc.py [--check]
Rewrites the block between `<!-- columns -->` and `<!-- /columns -->` in
docs/ARCHITECTURE.md and docs/porting.md: one row per declared column (its
id, verdict title, presets, port tests, kill-matrix command). --check: change
nothing, exit 1 naming each stale file. Exit 2 on a file without the block.
"""
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ["docs/ARCHITECTURE.md", "docs/porting.md"]
BLOCK = re.compile(r"(<!-- columns -->\n).*?(<!-- /columns -->)", re.S)


def table() -> str:
    rows = ["| id | verdict column | presets | port tests (`<test>/<subject>`) | kill matrix |",
            "|---|---|---|---|---|"]
    for c in json.loads((ROOT / "ci/checkers.json").read_text())["columns"]:
        tests = ("every port test" if c.get("whole_preset")
                 else ", ".join(f"`{t}`" for t in c.get("tests", [])) or "—")
        kill = "`" + " ".join(c["kill"]) + "`" if c.get("kill") else "—"
        if c.get("protocol_mutants"):
            kill += " (protocol mutants only)"
        title = c.get("title") or "— (kill matrix only)"
        title += " (nightly)" if c.get("nightly") else ""
        rows.append(f"| `{c['id']}` | {title} | "
                    f"{', '.join(c.get('presets', [])) or '—'} | {tests} | {kill} |")
    return ("*Generated from ci/checkers.json by `ci/columns_doc.py`; do not edit.*\n\n"
            + "\n".join(rows) + "\n")


def main(argv):
    check = argv == ["--check"]
    if argv and not check:
        print("columns_doc.py: usage: columns_doc.py [--check]", file=sys.stderr)
        return 2
    stale = []
    for doc in DOCS:
        path = ROOT / doc
        text = path.read_text()
        if not BLOCK.search(text):
            print(f"columns_doc.py: {doc} has no <!-- columns --> block", file=sys.stderr)
            return 2
        new = BLOCK.sub(lambda m: m.group(1) + table() + m.group(2), text)
        if new != text:
            stale.append(doc)
            if not check:
                path.write_text(new)
    if check and stale:
        print(f"columns_doc.py: stale column list in {', '.join(stale)} (run ci/columns_doc.py)")
        return 1
    print(f"columns_doc.py: {'checked' if check else 'written'}: {', '.join(DOCS)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
