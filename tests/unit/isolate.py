#!/usr/bin/python3
"""Run a GoogleTest binary so that a crash explains itself and stops nothing.

usage: isolate.py [--emulator=ARG]... BINARY [GTEST ARG...]

Runs BINARY with its arguments (under the emulator's command, its --emulator ARGs in
order: a cross build's CMAKE_CROSSCOMPILING_EMULATOR, qemu-aarch64 -L ...), output passed
through. If it dies by a
signal or the watchdog stops it (exit 3), the test in flight (a `[ RUN      ]` line with no end)
is named:
`runqcheck: crash: SIGSEGV in Suite.Test`, with a `reproduce:` line; the
tests it had not run yet then run (again under this rule), and each crashed
test is re-run alone to say whether it crashes on its own.
After MAX_HANGS hangs the rest is not run (each hang costs the watchdog's wait
twice, and a port that hangs everywhere would cost minutes a test): the
count left and a line that runs them are printed.
Exit: 1 if a test crashed or failed, else the binary's own status (77: the
binary's skip).
"""
import re
import signal
import subprocess
import sys

WATCHDOG = 3  # models/watchdog: no operation returned in time (it prints a dump)
MAX_HANGS = 3
RUN = re.compile(r"^\[ RUN      \] (\S+)")
END = re.compile(r"^\[ +(?:OK|FAILED|SKIPPED) +\] (\S+?)(?: \(|$)")


def signame(rc: int) -> str:
    if rc == WATCHDOG:
        return "watchdog exit 3 (a hang)"
    n = -rc if rc < 0 else rc - 128
    try:
        return signal.Signals(n).name
    except ValueError:
        return f"signal {n}"


def died(rc: int) -> bool:
    """Killed by a signal, or stopped by the watchdog mid-test."""
    return rc < 0 or rc > 128 or rc == WATCHDOG


def run(cmd):
    """Runs cmd, echoing its output; returns (rc, started, ended)."""
    started, ended = [], set()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         errors="replace", bufsize=1)
    for line in p.stdout:
        sys.stdout.write(line)
        m = RUN.match(line)
        if m:
            started.append(m.group(1))
        m = END.match(line)
        if m:
            ended.add(m.group(1))
    sys.stdout.flush()
    return p.wait(), started, ended


def listed(cmd):
    """The full names of the tests the binary would run."""
    out = subprocess.run(cmd + ["--gtest_list_tests"], capture_output=True, text=True,
                         errors="replace").stdout
    names, suite = [], ""
    for line in out.splitlines():
        if not line.strip():
            continue
        if not line.startswith(" "):
            suite = line.split("#")[0].strip()
        else:
            names.append(suite + line.split("#")[0].strip())
    return names


def main(argv):
    emulator = []
    while argv and argv[0].startswith("--emulator="):
        emulator.append(argv.pop(0).removeprefix("--emulator="))
    if not argv:
        print("isolate.py: usage: isolate.py [--emulator=ARG]... BINARY [GTEST ARG...]",
              file=sys.stderr)
        return 2
    argv = emulator + argv
    binary = " ".join(argv[:len(emulator) + 1])  # as the reproduce: lines run it
    base = [a for a in argv if not a.startswith("--gtest_filter=")]
    user_filter = [a for a in argv if a.startswith("--gtest_filter=")]
    done, crashed = set(), []
    rc, started, ended = run(argv)
    while died(rc):
        inflight = [t for t in started if t not in ended]
        if not inflight:
            print(f"runqcheck: crash: {signame(rc)} outside any test of {binary}")
            break
        t = inflight[-1]
        crashed.append((t, signame(rc)))
        print(f"runqcheck: crash: {signame(rc)} in {t}")
        print(f"reproduce: {binary} --gtest_filter={t}")
        done.update(started)
        todo = [x for x in listed(argv if user_filter else base) if x not in done]
        if not todo:
            break
        if sum(sig == signame(WATCHDOG) for _, sig in crashed) >= MAX_HANGS:
            print(f"isolate.py: stopped after {MAX_HANGS} hangs: {len(todo)} tests not run "
                  "(each hang waits for the watchdog)")
            print(f"isolate.py: to run them: {binary} --gtest_filter={':'.join(todo)}")
            break
        print(f"isolate.py: running the {len(todo)} tests not run yet", flush=True)
        rc, started, ended = run(base + ["--gtest_filter=" + ":".join(todo)])
    for t, sig in crashed:
        alone = subprocess.run(base + ["--gtest_filter=" + t], capture_output=True).returncode
        again = "dies again" if died(alone) else f"exits {alone}"
        print(f"isolate.py: {t} ({sig}) run alone: {again}")
    return 1 if crashed else rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
