#!/usr/bin/python3
"""Self-test of proofs/check_correspondence.py: it must have teeth.

Builds a throw-away fake core tree that defines every name the real table
maps, runs the checker on it (must pass), then breaks the tree in six ways
and checks that each break fails with a message naming the culprit:
  1. a function removed from its file,
  2. a function left only inside a comment,
  3. a mapped file deleted,
  4. a row added to the table whose name exists nowhere,
  5. an order site made relaxed (it is no site any more),
  6. a mutant's patch removed from models/mutants/logic.
Pending rows must be reported as skipped, never as failures.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROOFS = os.path.dirname(HERE)
CHECKER = os.path.join(PROOFS, "check_correspondence.py")
TABLE = os.path.join(PROOFS, "CORRESPONDENCE.md")

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, PROOFS)
import check_correspondence as cc  # noqa: E402

failures = []


def run(root, table=TABLE):
    p = subprocess.run([sys.executable, CHECKER, "--root", root, "--table", table],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def expect(cond, what, out):
    print("%-62s %s" % (what, "ok" if cond else "FAILED"))
    if not cond:
        failures.append(what)
        print("  checker output:\n    " + "\n    ".join(out.splitlines()))


def fake_tree(root, rows):
    """Write a core tree that defines exactly what the table maps."""
    funcs, sites = {}, {}
    mutants = set()
    for r in rows:
        if r["file"] is not None and "pending" not in r["file"]:
            rel = r["file"].strip("` ")
            funcs.setdefault(rel, set()).update(r["names"])
            sites.setdefault(rel, set()).update(r["sites"])
        mutants.update(r["mutants"])
    files = {}
    for rel in funcs:
        body = ["// fake core for the checker's self-test", "#pragma once"]
        for n in sorted(funcs[rel]):
            if n in ("gQueue", "gList"):
                body.append("template <class G> class %s {\n  int size = 0;\n};" % n)
            else:
                body.append("inline void %s(int x) { (void)x; }" % n)
        # An order site <function>_<field>_<op> is a non-relaxed access.
        ops = {"load": "load(acquire)", "store": "store(1, release)",
               "cas": "compare_exchange_strong(h, h, release, relaxed)"}
        by_fn = {}
        for n in sorted(sites[rel]):
            fn, field, op = n.rsplit("_", 2)
            by_fn.setdefault(fn, []).append("  pp.%s.%s;" % (
                {"head": "runqhead", "tail": "runqtail"}.get(field, field), ops[op]))
        for fn, accs in by_fn.items():
            body.append("template <class P>\nvoid %s(P& pp) {\n%s\n}" % (fn, "\n".join(accs)))
        files[rel] = "\n".join(body) + "\n"
    for m in mutants:
        files["%s/%s.patch" % (cc.MUTANTS_DIR, m)] = "# fake\n"
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    return files


def main():
    rows = cc.parse_table(TABLE)
    tmp = tempfile.mkdtemp(prefix="corr-selftest-")
    try:
        files = fake_tree(tmp, rows)
        rc, out = run(tmp)
        expect(rc == 0, "complete fake tree passes", out)
        expect("pending" in out and "wakep" in out, "pending rows are reported as skipped", out)

        runq = os.path.join(tmp, "core/include/runqcheck/runq.hpp")
        src = open(runq).read()

        # 1. a function disappears
        with open(runq, "w") as f:
            f.write(src.replace("inline void runqempty(int x) { (void)x; }\n", ""))
        rc, out = run(tmp)
        expect(rc == 1 and "runqempty" in out and "runq.hpp" in out,
               "removed runqempty fails and names it", out)
        expect(len([l for l in out.splitlines() if "runqempty:" in l and "no '" in l]) ==
               len([r for r in rows if "runqempty" in r["names"]]),
               "one line per table row that maps runqempty", out)

        # 2. the name survives only in a comment
        with open(runq, "w") as f:
            f.write(src.replace("inline void runqempty(int x) { (void)x; }\n",
                                "// runqempty(int x) was here\n/* runqempty( */\n"))
        rc, out = run(tmp)
        expect(rc == 1 and "runqempty" in out, "runqempty only in comments fails", out)
        with open(runq, "w") as f:
            f.write(src)

        # 3. a mapped file is deleted
        g = os.path.join(tmp, "core/include/runqcheck/gqueue.hpp")
        os.remove(g)
        rc, out = run(tmp)
        expect(rc == 1 and "gqueue.hpp does not exist" in out, "deleted gqueue.hpp fails", out)
        fake_tree(tmp, rows)

        # 4. a row whose name exists nowhere
        t2 = os.path.join(tmp, "table.md")
        text = open(TABLE).read()
        extra = ("| z3 `bogus.*` | Z3 lemmas | `runqvanished` | core/include/runqcheck/runq.hpp "
                 "| none | |\n")
        text = re.sub(r"(\| z3 `ring\.\*`[^\n]*\n)", lambda m: m.group(1) + extra, text, count=1)
        with open(t2, "w") as f:
            f.write(text)
        rc, out = run(tmp, t2)
        expect(rc == 1 and "runqvanished" in out, "added row with an unknown name fails", out)

        # 5. an order site becomes relaxed: it is no site any more
        with open(runq, "w") as f:
            f.write(src.replace("  pp.runqtail.load(acquire);", "  pp.runqtail.load(relaxed);"))
        rc, out = run(tmp)
        expect(rc == 1 and "runqgrab_tail_load" in out, "relaxed site runqgrab_tail_load fails",
               out)
        with open(runq, "w") as f:
            f.write(src)

        # 6. a mutant disappears
        mpath = os.path.join(tmp, cc.MUTANTS_DIR, "runqgrab_no_torn_guard.patch")
        os.remove(mpath)
        rc, out = run(tmp)
        expect(rc == 1 and "runqgrab_no_torn_guard" in out,
               "removed mutant runqgrab_no_torn_guard fails", out)
        with open(mpath, "w") as f:
            f.write("# fake\n")
        rc, out = run(tmp)
        expect(rc == 0, "restored fake tree passes again", out)

        # sanity: the fake tree has the files the table names
        expect(len(files) >= 4, "table maps runq.hpp, globrunq.hpp, gqueue.hpp and mutants",
               str(files))
    finally:
        shutil.rmtree(tmp)
    if failures:
        print("test_check_correspondence: %d check(s) FAILED" % len(failures))
        return 1
    print("test_check_correspondence: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
