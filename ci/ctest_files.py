#!/usr/bin/python3
"""The CTest tests of a build tree, read from its CTestTestfile.cmake files.

(ctest --show-only leaves out the command of a test whose binary is not built
yet: ci/gate needs the binaries before it builds them.)

usage: ctest_files.py port-targets DIR
  prints the targets whose binaries DIR's port checks (label port, not
  nightly; only the columns $RQ_COLUMNS names, when set) run: each DIR/bin/NAME
  their commands name. Prints nothing when a check names none (then the whole
  tree is to be built).
usage: ctest_files.py unlabeled DIR
  prints each test of DIR with no label and exits 1 if there is one: ci/test
  runs the tests by label (selftest, port, nightly), so such a test never runs.
"""
import os
import re
import sys


def tests(root):
    """{test name: (command words, labels)} of the tree at root."""
    cmds, labels = {}, {}

    def read(d):
        try:
            text = open(os.path.join(d, "CTestTestfile.cmake"), encoding="utf-8").read()
        except OSError:
            return
        for name, rest in re.findall(r"^add_test\(\[=\[(.*?)\]=\] (.*)\)$", text, re.M):
            cmds[name] = re.findall(r'"((?:[^"\\]|\\.)*)"', rest)
        for name, lab in re.findall(r'^set_tests_properties\(\[=\[(.*?)\]=\] PROPERTIES .*?'
                                    r'LABELS "([^"]*)"', text, re.M):
            labels[name] = lab.split(";")
        for sub in re.findall(r'^subdirs\("([^"]*)"\)', text, re.M):
            read(sub if os.path.isabs(sub) else os.path.join(d, sub))

    read(root)
    return {n: (c, labels.get(n, [])) for n, c in cmds.items()}


def binaries(root, cmd):
    """The names of root/bin/NAME that a command's words (or quoted shell text) name."""
    bindir = os.path.realpath(os.path.join(root, "bin"))
    words = re.split(r"[\s'\"=]+", " ".join(cmd))
    return {os.path.basename(w) for w in words
            if w and os.path.realpath(os.path.dirname(w)) == bindir}


def port_targets(root, columns=()):
    """The binaries the port checks run, or None when one of them names none."""
    only = {"column:" + c for c in columns}
    out = set()
    for cmd, lab in tests(root).values():
        if "port" not in lab or "nightly" in lab or (only and not only & set(lab)):
            continue
        hits = binaries(root, cmd)
        if not hits:
            return None
        out |= hits
    return out


def main(argv):
    if len(argv) != 2 or argv[0] not in ("port-targets", "unlabeled"):
        print("usage: ctest_files.py port-targets|unlabeled DIR", file=sys.stderr)
        return 2
    if argv[0] == "unlabeled":
        found = tests(argv[1])
        bare = sorted(n for n, (_, lab) in found.items() if not lab)
        for n in bare:
            print(f"{n}: no label (ci/test runs tests by label: it never runs)")
        print(f"{len(found)} tests, {len(bare)} without a label")
        return 1 if bare or not found else 0
    found = port_targets(argv[1], os.environ.get("RQ_COLUMNS", "").split())
    if found:
        print(" ".join(sorted(found)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
