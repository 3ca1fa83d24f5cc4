#!/usr/bin/python3
"""A cross build's reproduce lines run its binaries through its emulator (ci/verdict.py).

usage: emulator_test.py VERDICT_PY WORKDIR
Writes an arm64 build dir by hand (runqcheck_columns.json naming qemu as its emulator, as
cmake/columns.cmake writes it from CMAKE_CROSSCOMPILING_EMULATOR) whose unit test failed
printing its own binary's path (`reproduce: DIR/bin/unit__x --gtest_filter=...`, which
the host cannot run), and a native one that printed the same: the verdict's arm64 line
must run the binary through qemu, the native one as it is. Exit 0 if so, 1 if not.
"""
import json
import subprocess
import sys
from pathlib import Path

QEMU = ["qemu-aarch64-static", "-L", "/usr/aarch64-linux-gnu"]


def build_dir(d: Path, emulator: list) -> None:
    d.mkdir(parents=True, exist_ok=True)
    out = ("[ RUN      ] A.B\nx.cpp:3: Failure\nExpected equality\n[  FAILED  ] A.B\n"
           f"reproduce: {d.resolve()}/bin/unit__x --gtest_filter=A.B\n"
           f"replay: RUNQCHECK_CASE=c {d.resolve()}/bin/lincheck_threads__x 50\n")
    (d / "junit.xml").write_text(
        '<testsuite tests="1"><testcase name="unit/x" classname="x" time="1" status="fail">'
        f'<failure message=""/><system-out>{out}</system-out></testcase></testsuite>\n')
    (d / "runqcheck_columns.json").write_text(json.dumps(
        {"emulator": emulator, "protocol_subjects": [], "tests": {"unit/x": "unit"},
         "ports": {}}))


def main(argv) -> int:
    if len(argv) != 2:
        print("emulator_test.py: usage: emulator_test.py VERDICT_PY WORKDIR", file=sys.stderr)
        return 2
    verdict, work = argv[0], Path(argv[1]).resolve()
    arm, native = work / "arm64", work / "native"
    build_dir(arm, QEMU)
    build_dir(native, [])
    v = subprocess.run(["/usr/bin/python3", verdict, "--subjects", "x", f"arm64={arm}",
                        f"native={native}"], capture_output=True, text=True)
    print(v.stdout + v.stderr)
    q = " ".join(QEMU)
    want = [f"reproduce: {q} {arm}/bin/unit__x --gtest_filter=A.B",
            f"replay: RUNQCHECK_CASE=c {q} {arm}/bin/lincheck_threads__x 50",
            f"reproduce: {native}/bin/unit__x --gtest_filter=A.B"]
    bad = [w for w in want if w not in v.stdout]
    for b in bad:
        print(f"emulator_test: FAILED: no line '{b}'")
    print("emulator_test: " + ("passed" if not bad else "FAILED"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
