#!/usr/bin/python3
"""Lines of code at most 100 columns (the project's style rule).

Checks the tracked source files of ROOT (git ls-files where ROOT is a git
checkout; else every file under ROOT but build/): C and C++, Python, shell, CMake, the scripts in
ci/ and .ci/, the workflows. Markdown is not checked (its tables cannot wrap).
Prints each line over the limit as FILE:LINE: N columns and exits 1; exit 0
when there is none. C++ lines wrap with `git clang-format` (.clang-format).

usage: line_length.py [ROOT]
"""
import os
import subprocess
import sys

LIMIT = 100
SUFFIXES = (".cpp", ".hpp", ".h", ".c", ".cc", ".py", ".sh", ".cmake", ".yml", ".yaml")


def checked(rel):
    base = os.path.basename(rel)
    if rel.endswith(SUFFIXES) or base == "CMakeLists.txt":
        return "/fixtures/" not in "/" + rel
    # The extensionless scripts of ci/ and .ci/ (ci/gate, ci/test, .ci/run).
    top = rel.split("/")[0]
    return top in ("ci", ".ci") and "." not in base


def files(root):
    if not os.path.exists(os.path.join(root, ".git")):
        return walk(root)
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True,
                             check=True).stdout
        return [f for f in out.decode().split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        return walk(root)


def walk(root):
    found = []
    for d, subdirs, names in os.walk(root):
        subdirs[:] = [s for s in subdirs if s not in ("build", ".git")]
        found += [os.path.relpath(os.path.join(d, n), root) for n in names]
    return found


def main(argv):
    if len(argv) > 1 or (argv and argv[0].startswith("-")):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    root = argv[0] if argv else "."
    bad = 0
    for rel in sorted(files(root)):
        path = os.path.join(root, rel)
        if not checked(rel) or not os.path.isfile(path):
            continue
        try:
            with open(path, encoding="utf-8") as f:
                lines = f.read().split("\n")
        except UnicodeDecodeError:
            continue  # not text
        for n, line in enumerate(lines, 1):
            if len(line) > LIMIT:
                print(f"{rel}:{n}: {len(line)} columns (the limit is {LIMIT})")
                bad += 1
    if bad:
        print(f"line_length: {bad} lines over {LIMIT} columns")
        return 1
    print(f"line_length: every checked line within {LIMIT} columns")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
