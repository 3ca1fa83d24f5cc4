#!/usr/bin/python3
"""Teeth of models/mutants/schemata.py: it must fail loudly, naming the patch,
when the port changes under a patch, and refuse a patch that changes code
outside a function body; on the real tree it must derive the 21 order sites
and dispatch the protocol's patched member functions.

usage: schemata_test.py WORKDIR
"""
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GEN = ROOT / "models/mutants/schemata.py"
failures = []


def gen(core, mutants, out):
    return subprocess.run([sys.executable, str(GEN), "--core", str(core), "--mutants",
                           str(mutants), "--out", str(out)], capture_output=True, text=True)


def expect(cond, what, out=""):
    print(f"{what:70s} {'ok' if cond else 'FAILED'}")
    if not cond:
        failures.append(what)
        print("  " + out.replace("\n", "\n  "))


def main():
    work = Path(sys.argv[1])
    shutil.rmtree(work, ignore_errors=True)
    core, mut = work / "core", work / "mutants"
    shutil.copytree(ROOT / "core/include", core)
    shutil.copytree(ROOT / "models/mutants", mut, ignore=shutil.ignore_patterns("__pycache__"))

    r = gen(core, mut, work / "out")
    expect(r.returncode == 0, "the real port and patches generate", r.stderr)
    text = (work / "out/runqcheck/runq.hpp").read_text() if r.returncode == 0 else ""
    expect(text.count("mutant_select::order(") == 21, "21 order sites hooked", text[:0])
    expect("runqgrab__runqgrab_floor_half" in text, "a patched function is dispatched to")
    # The wakeup protocol: pristine in core/, its mutants patches of member functions.
    ptext = (work / "out/runqcheck/protocol.hpp").read_text() if r.returncode == 0 else ""
    npatch = len(list((mut / "protocol").glob("*.patch")))
    expect("mutated" not in (core / "runqcheck/protocol.hpp").read_text(),
           "core's protocol.hpp has no mutant branch")
    expect(npatch == 21 and ptext.count("if (mutant_select::is(") == 23,
           "21 protocol patches, 23 mutant branches dispatched", f"{npatch} patches")
    expect("void resume__syscall_steal_no_scan_bit() const {" in ptext,
           "a nested struct's member is patched")
    expect("static void pidleput(locked& rq_arg0, P* pp) {" in ptext,
           "an unnamed parameter is named for the dispatch")

    # The port changes under a patch: runqgrab's half computation is rewritten.
    runq = core / "runqcheck/runq.hpp"
    orig = runq.read_text()
    runq.write_text(orig.replace("    n = n - n / 2;\n", "    n -= n / 2;\n"))
    r = gen(core, mut, work / "out2")
    expect(r.returncode == 1 and "runqgrab_floor_half.patch no longer applies" in r.stderr,
           "a changed port fails naming the patch", r.stderr)
    runq.write_text(orig)

    # A patch that changes code outside a function body is refused.
    bad = mut / "logic/zz_outside.patch"
    bad.write_text("# changes the ring type\n--- a/core/include/runqcheck/runq.hpp\n"
                   "+++ b/core/include/runqcheck/runq.hpp\n@@ -1,1 +1,1 @@\n"
                   "-  static constexpr std::uint32_t capacity = Cap;\n"
                   "+  static constexpr std::uint32_t capacity = Cap + 0;\n")
    r = gen(core, mut, work / "out3")
    expect(r.returncode == 1 and "zz_outside.patch changes runq.hpp outside a function body"
           in r.stderr, "a patch outside a function body is refused", r.stderr)
    bad.unlink()

    # A patch of a file mutants may not touch is refused, and each kind patches its files.
    for i, (patch, file, want, what) in enumerate([
            ("logic/zz_file", "gqueue", "zz_file.patch: patches gqueue.hpp",
             "a patch of another file is refused"),
            ("protocol/zz_queue", "runq", "protocol/zz_queue.patch: a protocol patch patches only",
             "a protocol patch of the queues is refused"),
            ("logic/zz_proto", "protocol", "logic/zz_proto.patch: a logic patch patches the queues",
             "a logic patch of the protocol is refused")]):
        bad = mut / f"{patch}.patch"
        bad.write_text(f"# patches {file}\n--- a/core/include/runqcheck/{file}.hpp\n"
                       f"+++ b/core/include/runqcheck/{file}.hpp\n@@ -1,1 +1,1 @@\n-x\n+y\n")
        r = gen(core, mut, work / f"out4_{i}")
        expect(r.returncode == 1 and want in r.stderr, what, r.stderr)
        bad.unlink()

    # --break: a line-for-line copy with the named sites relaxed.
    r = subprocess.run([sys.executable, str(GEN), "--core", str(core), "--break",
                        "runqput_tail_store", "--out", str(work / "broken")],
                       capture_output=True, text=True)
    b = (work / "broken/runqcheck/runq.hpp").read_text() if r.returncode == 0 else ""
    expect(r.returncode == 0 and "pp.runqtail.store(t + 1, relaxed);" in b
           and len(b.splitlines()) == len(orig.splitlines()), "--break relaxes one site", r.stderr)
    r = subprocess.run([sys.executable, str(GEN), "--core", str(core), "--break", "nosuch",
                        "--out", str(work / "broken2")], capture_output=True, text=True)
    expect(r.returncode == 1 and "unknown site 'nosuch'" in r.stderr,
           "--break of an unknown site fails", r.stderr)
    if failures:
        print(f"schemata_test: {len(failures)} check(s) FAILED")
        return 1
    print("schemata_test: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
