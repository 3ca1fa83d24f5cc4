#!/usr/bin/python3
"""A protocol failure's one-line reason is the failing invariant.

usage: protocol_reason.py BINARY VERDICT_PY MUTANT SCENARIO
Runs BINARY (explore_protocol on the mutant schemata) with RUNQCHECK_MUTANT=MUTANT
on SCENARIO under RC11 and hands its output to ci/verdict.py's reason_of, as the
gate does for a failing cell: the reason must be the invariant's line (`explore_protocol
SUBJECT SCENARIO RC11: ... invariant: ...`), not the engine's statistics line before it.
Exit 0 if so, 1 naming what it got.
"""
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

if len(sys.argv) != 5:
    sys.exit("usage: protocol_reason.py BINARY VERDICT_PY MUTANT SCENARIO")
binary, verdict, mutant, scenario = sys.argv[1:]
env = dict(os.environ, RUNQCHECK_MUTANT=mutant, RUNQCHECK_CASE=scenario)
p = subprocess.run([binary, "rc11", "--budget", "2000"], env=env, capture_output=True,
                   text=True, timeout=120)
out = p.stdout + p.stderr
if p.returncode != 1:
    sys.exit(f"protocol_reason.py: {mutant} on {scenario}: exit {p.returncode}, want 1\n{out}")
sys.path.insert(0, str(Path(verdict).parent))  # its verdict_files
spec = importlib.util.spec_from_file_location("verdict", verdict)
v = importlib.util.module_from_spec(spec)
spec.loader.exec_module(v)
why = v.reason_of(out, "")
print(f"reason: {why}")
ok = (why.startswith("explore_protocol ") and f" {scenario} RC11: " in why
      and "invariant:" in why and " complete, " not in why)
if not ok:
    sys.exit("protocol_reason.py: the reason is not the failing invariant's line")
print("protocol_reason.py: ok: the reason names the failing invariant")
