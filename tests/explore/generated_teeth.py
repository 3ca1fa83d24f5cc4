#!/usr/bin/python3
"""generated_teeth.py BINARY MUTANT MAX_SIZE [--under MODEL] [--reason TEXT] [ARGS...]:
passes iff the generated column's BINARY (built on the mutant schemata) fails with
RUNQCHECK_MUTANT=MUTANT (MUTANT
"-": none, BINARY built on a broken port of its own)
(ARGS: its bounds, default `both --total 4`), shrinks the failure to a program of at
most MAX_SIZE (operations plus the Gs at the start: the catalog scenario that kills
the mutant, for comparison), prints that program, a saved file holding it, `replay:`
and `picture:` lines, and its replay fails again with the same reason; --under MODEL:
the failure is under that model (its name as printed: C11), no earlier one of ARGS;
--reason TEXT: the failure's reason holds TEXT."""
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

# Also checked: a replay prints the report its failure line promises ("its report below")
# and the search's `runqcheck: cause:` and `at:` lines,
# and the saved file fails in the catalog's runner where its "# run it:" line names it (by
# its name in bin/, as the line names this runner).


def size(spec: str) -> int:
    """Operations plus the Gs at the start of a one-line program (text.hpp)."""
    head, _, threads = spec.partition("|")
    gs = 0
    for word in head.split():
        key, _, val = word.partition("=")
        if re.fullmatch(r"P\d|global", key):
            gs += len([x for x in re.split(r"[,/]", val) if x])
    ops = [w for w in threads.replace("|", " ").split()
           if "(" in w and not w.startswith("wait_done")]
    return gs + len(ops)


def main() -> int:
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    binary, mutant, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
    args = sys.argv[4:]
    under = None
    reason = None
    while args[:1] in (["--under"], ["--reason"]) and len(args) > 1:
        if args[0] == "--under":
            under = args[1]
        else:
            reason = args[1]
        args = args[2:]
    args = args or ["both", "--total", "4"]
    env = dict(os.environ)
    if mutant != "-":  # "-": BINARY is a port's own (a teeth port), no mutant
        env["RUNQCHECK_MUTANT"] = mutant
    p = subprocess.run([binary, *args], env=env, capture_output=True, text=True, timeout=600)
    out = p.stdout + p.stderr
    print(out[-4000:])
    if p.returncode != 1:
        print(f"generated_teeth: {mutant}: exit {p.returncode}, not 1 (a failure)")
        return 1
    why = re.search(r"^  fails under (\S+): (.*)$", out, re.M)
    prog = re.search(r"^  program: (.*)$", out, re.M)
    saved = re.search(r"^  saved: (/\S+)$", out, re.M)
    replay = re.search(r"^replay: (.*)$", out, re.M)
    picture = re.search(r"^picture: (/\S+\.html)", out, re.M)
    for name, m in [("fails under", why), ("program", prog), ("saved", saved),
                    ("replay", replay), ("picture", picture)]:
        if m is None:
            print(f"generated_teeth: {mutant}: no '{name}' line")
            return 1
    if under is not None and why.group(1) != under:
        print(f"generated_teeth: {mutant}: fails under {why.group(1)}, not {under}")
        return 1
    if reason is not None and reason not in why.group(2):
        print(f"generated_teeth: {mutant}: the reason does not say '{reason}'")
        return 1
    n = size(prog.group(1))
    if n > limit:
        print(f"generated_teeth: {mutant}: shrunk to size {n}, more than the catalog's {limit}")
        return 1
    with open(saved.group(1)) as f:
        text = f.read()
    if prog.group(1) not in text:
        print(f"generated_teeth: {mutant}: the saved file does not hold the program")
        return 1
    # The catalog's runner, where the saved file names it, fails the program too.
    run_it = re.search(r"^# run it: ([^(\n]*)", text, re.M)
    # generated__X's catalog runner is explore__X (generated_teeth__X's, explore_teeth__X).
    name = Path(binary).name
    exp = Path(binary).with_name(name.replace("generated", "explore", 1))
    if run_it and f"{name} run FILE" not in run_it.group(1):
        print(f"generated_teeth: {mutant}: the saved file's '# run it:' names no {name}: "
              f"{run_it.group(0)}")
        return 1
    if name.startswith("generated") and run_it and \
            f"{exp.name} --scenario" in run_it.group(1) and exp.is_file():
        r = subprocess.run([str(exp), "--scenario", saved.group(1), why.group(1).lower()],
                           env=env, capture_output=True, text=True, timeout=120)
        if r.returncode == 0:
            print(f"generated_teeth: {mutant}: the saved file says the catalog's runner runs "
                  f"it, which passes it:\n{r.stdout[-1000:]}")
            return 1
    words = shlex.split(replay.group(1))
    while words and "=" in words[0]:
        k, _, v = words.pop(0).partition("=")
        env[k] = v
    again = subprocess.run(words, env=env, capture_output=True, text=True, timeout=120)
    line = f"generated {words[0].rsplit('__', 1)[-1]} replay {why.group(1)}: FAILED: {why.group(2)}"
    if again.returncode == 0 or line not in again.stdout:
        print(f"generated_teeth: {mutant}: the replay did not fail again the same way:\n"
              f"{again.stdout}{again.stderr}")
        return 1
    # A failure whose line says "(its report below)": the replay prints that report too.
    report = re.search(r"^  fails under .*\(its report below\)\n(.+)$", out, re.M)
    if report is not None and report.group(1) not in again.stdout:
        print(f"generated_teeth: {mutant}: the replay lacks the report its line promises "
              f"('{report.group(1)}'):\n{again.stdout}{again.stderr}")
        return 1
    # The failure's cause in the port's terms and its lines: the replay prints them too.
    for want in re.findall(r"^(?:runqcheck: cause: .*|at: .*)$", out, re.M):
        if want not in again.stdout.splitlines():
            print(f"generated_teeth: {mutant}: the replay lacks the search's line '{want}':\n"
                  f"{again.stdout}{again.stderr}")
            return 1
    print(f"generated_teeth: {mutant} killed, shrunk to size {n} (catalog {limit}), "
          "its replay reproduces it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
