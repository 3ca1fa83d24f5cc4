#!/usr/bin/python3
"""--shard i/N splits a Relacy search into disjoint parts whose union is the whole.

1. On a passing scenario (go125), the executions counted by shards 0..N-1
   (N = 2, 3) sum exactly to the unsharded count: bound 2, full, random.
2. On failing ones (the mutant schemata, RUNQCHECK_MUTANT), bound 2: the
   shard whose part holds the unsharded search's first failing execution
   fails; every shard that fails does so on an execution of its own part
   (the partition of shard.hpp, recomputed here from the printed state),
   and its replay line, run without --shard, fails again. At least one fails.
   A random shard's failure is in its iteration range and replays too.
3. Bad --shard values exit 2 with one line.
   (runqget_runnext_no_cas on owner_vs_thief: one shard of 3 holds no
   failing execution and passes; order:runqget_runnext_cas on empty_next1_next1:
   every shard fails.)
4. ci/deep-search I/N DIR (shard I of a search list, one log per shard)
   and ci/shard_merge.py DIR N: the merged count of bound 2 and full over
   N = 2 shards is the unsharded sum; the merge of the bound 2 shards gives
   the summed count, and it fails if a log is missing or a shard failed.
5. ci/github/workflows/deep_search.yml runs those two commands over its
   matrix.

usage: shard_test.py GO125_BINARY MUTANTS_BINARY PASSING_CASE CI_DIR MUTANT@FAILING_CASE...
"""
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

FAILS = []
SHARED_BRANCHINGS = 4  # shard.hpp


def check(ok, what):
    print(("ok: " if ok else "FAILED: ") + what)
    if not ok:
        FAILS.append(what)


def run(argv, env):
    e = {"PATH": "/usr/bin:/bin", **env}
    p = subprocess.run(argv, env=e, capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


def replay(cmdline, env):
    """Run a printed `replay:` command line (leading VAR=value words go to the environment)."""
    words = shlex.split(cmdline)
    renv = dict(env)
    while words and "=" in words[0]:
        k, v = words.pop(0).split("=", 1)
        renv[k] = v
    rc, out, _ = run(words, renv)
    return rc, out


def count(out):
    m = re.search(r": (?:passed|FAILED) after (\d+) executions", out)
    return int(m.group(1)) if m else None


def owner(state, n):
    """The shard owning the execution at a tree state (shard.hpp's shard_set)."""
    v = [int(x) for x in state.split()]
    r, step, m, shared, h = 0, 1, n, SHARED_BRANCHINGS, 0
    for k in range(v[1]):
        c, j = v[2 + 3 * k], v[3 + 3 * k]
        if m == 1:
            break
        if c == 1:
            continue
        if shared > 0:
            shared -= 1
        elif m <= c:
            r, m = r + step * ((j + h) % m), 1
        else:
            q = (j + h) % c
            r, step, m = r + step * q, step * c, (m - q + c - 1) // c
        h = (h * 3 + j + 1) % 2**32
    return r + step * (h % m)


def state_of(arg):
    """A replay line's state: inline ('...') or @FILE (a long one, saved)."""
    if arg.startswith("@"):
        with open(arg[1:]) as f:
            return f.read().strip()
    return arg.strip("'")


STATE = r"('[\d ]+'|@\S+)"


def failing_search(mut, mutant, failing, logs):
    """Bound 2 on a failing scenario: per N, which shards fail, and where."""
    env = {"RUNQCHECK_CASE": failing, "RUNQCHECK_MUTANT": mutant}
    rc, out, _ = run([mut, "bound", "2"], env)
    m = re.search(r"^replay: .* replay bound:2 " + STATE + "$", out, re.M)
    check(rc == 1 and m is not None, f"{mutant}: unsharded bound 2 fails on {failing}")
    if m is None:
        return
    first = state_of(m.group(1))
    for n in (2, 3):
        failed = []
        for i in range(n):
            rc, out, _ = run([mut, "bound", "2", "--shard", f"{i}/{n}"], env)
            line = re.search(r"^replay: (.* " + STATE + ")$", out, re.M)
            if rc == 0:
                continue
            check(rc == 1 and line is not None, f"N={n} shard {i}: fails with a replay line")
            if line is None:
                continue
            failed.append(i)
            check(owner(state_of(line.group(2)), n) == i,
                  f"{mutant} N={n} shard {i}: its failure is in its part")
            rrc, rout = replay(line.group(1), env)
            check(rrc == 1 and "FAILED" in rout, f"N={n} shard {i}: replays unsharded")
            if n == 2:
                with open(f"{logs}/shard-{i}-of-{n}.log", "w") as f:
                    f.write(out)
        want = owner(first, n)
        check(want in failed, f"{mutant} N={n}: shard {want} (the first failure's) fails;"
              f" failed: {failed}")
    return env


def main():
    go, mut, passing, ci, *pairs = sys.argv[1:]
    merge, deep = f"{ci}/shard_merge.py", f"{ci}/deep-search"
    wholes = {}
    logs = tempfile.mkdtemp(prefix="shard_test.")
    env = {"RUNQCHECK_CASE": passing}
    for mode in (["bound", "2"], ["full"], ["random", "1000"]):
        rc, out, _ = run([go, *mode], env)
        whole = count(out)
        wholes[mode[0]] = whole
        if mode[0] == "bound":
            whole_bound = whole
        check(rc == 0 and whole, f"{' '.join(mode)}: unsharded passes ({whole} executions)")
        for n in (2, 3):
            parts = []
            for i in range(n):
                rc, out, _ = run([go, *mode, "--shard", f"{i}/{n}"], env)
                parts.append(count(out) if rc == 0 else None)
                if mode[0] == "bound" and n == 3:
                    with open(f"{logs}/shard-{i}-of-{n}.log", "w") as f:
                        f.write(out)
            ok = None not in parts and sum(parts) == whole
            check(ok, f"{' '.join(mode)} N={n}: shards {parts} sum to {whole}")

    envs = [failing_search(mut, *pair.split("@"), logs) for pair in pairs]
    if None in envs or not envs:
        return 1
    env = envs[0]

    # Random: shard 1/2 runs iterations 501..1000 and names its failure by
    # its global iteration, which replays unsharded.
    rc, out, _ = run([mut, "random", "1000", "--shard", "1/2"], env)
    line = re.search(r"^replay: (.*'(\d+) ')$", out, re.M)
    check(rc == 1 and line is not None and int(line.group(2)) > 500,
          "random 1000 --shard 1/2: fails on an iteration of its half")
    if line is not None:
        rrc, rout = replay(line.group(1), env)
        check(rrc == 1 and "FAILED after 1 executions" in rout, "random shard: replays unsharded")

    for bad in ("0/0", "3/2", "garbage", "1/", "/2", "-1/2"):
        rc, out, err = run([go, "bound", "2", "--shard", bad], {"RUNQCHECK_CASE": passing})
        check(rc == 2 and err.count("\n") == 1 and not out, f"--shard {bad}: exit 2, one line")
    rc, _, err = run([go, "replay", "random", "1", "--shard", "0/2"], {"RUNQCHECK_CASE": passing})
    check(rc == 2 and err.count("\n") == 1, "replay --shard: exit 2, one line")

    rc, out, _ = run([sys.executable, merge, logs, "3"], {})
    check(rc == 0 and f"3 shards, {whole_bound} executions, all passed" in out,
          "merge of 3 passing shards: the summed count")
    rc, out, _ = run([sys.executable, merge, logs, "2"], {})
    check(rc == 1 and "FAILED" in out, "merge of failing shards fails")
    rc, out, _ = run([sys.executable, merge, logs, "4"], {})
    check(rc == 1 and "MISSING" in out, "merge with a missing shard fails")

    deep_logs = f"{logs}/deep"
    denv = {"RQ_DEEP_BIN": go, "RQ_DEEP_SEARCHES": f"bound 2@{passing}\nfull@{passing}"}
    for i in range(2):
        rc, _, _ = run([deep, f"{i}/2", deep_logs], denv)
        check(rc == 0, f"ci/deep-search {i}/2 passes")
    rc, out, _ = run([sys.executable, merge, deep_logs, "2"], {})
    want = wholes["bound"] + wholes["full"]
    check(rc == 0 and f"2 shards, {want} executions, all passed" in out,
          f"ci/deep-search + merge: {want} executions (bound 2 + full)")
    rc, _, err = run([deep, "2/2", deep_logs], denv)
    check(rc == 2 and err.count("\n") == 1, "ci/deep-search 2/2: exit 2, one line")

    # The matrix workflow runs these two commands over SHARDS shards.
    with open(f"{ci}/github/workflows/deep_search.yml") as f:
        wf = f.read()
    shards = re.search(r"^  SHARDS: (\d+)", wf, re.M)
    matrix = re.search(r"^        shard: \[([\d, ]+)\]$", wf, re.M)
    ok = shards and matrix and [int(x) for x in matrix.group(1).split(",")] == list(
        range(int(shards.group(1))))
    ok = ok and "run: ci/deep-search ${{ matrix.shard }}/${{ env.SHARDS }} logs" in wf
    check(bool(ok and 'run: python3 ci/shard_merge.py logs "$SHARDS"' in wf),
          "deep_search.yml: a matrix of 0..SHARDS-1, ci/deep-search and the merge")

    shutil.rmtree(logs, ignore_errors=True)
    print(f"{'0 failed' if not FAILS else str(len(FAILS)) + ' failed'}")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
