#!/usr/bin/python3
"""Every failing cell of a verdict explains itself (ci/verdict.py).

usage: reasons_test.py VERDICT_PY WORKDIR
Writes the JUnit files of a failing port (each checker's failure as its
binary prints it: gtest, a crash through tests/unit/isolate.py, a crash with
no output, diff_go's FAIL line, stall, weak memory, Relacy, rapidcheck, a
port's fatal inside a gtest test, a rapidcheck property, a lincheck
scenario or a watchdog dump; explore, whose passing lines may quote a fatal
error they expected) and checks that the verdict FAILS each
cell with a reason, never "without a message", with the crash's signal,
test and reproducer. Exit 0 if so, 1 naming what is missing.
"""
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from xml.sax.saxutils import escape

SUBJ = "acme_x"
# (test, column title, system-out, ctest's console line or "", words the reason must hold)
CASES = [
    ("unit", "unit",
     "[ RUN      ] SubjectEdges/0.Wrap\nsubject_edges.cpp:480: Failure\n"
     "Expected equality of these values:\n  got\n    3\n[  FAILED  ] SubjectEdges/0.Wrap\n"
     "reproduce: /b/bin/unit__acme_x --gtest_filter=SubjectEdges/0.Wrap\n"
     "[ RUN      ] SubjectConcurrent.Steal\n"
     "reproduce: /b/bin/unit__acme_x --gtest_filter=SubjectConcurrent.Steal\n"
     "runqcheck: crash: SIGSEGV in SubjectConcurrent.Steal\n"
     "reproduce: /b/bin/unit__acme_x --gtest_filter=SubjectConcurrent.Steal\n"
     "isolate.py: SubjectConcurrent.Steal (SIGSEGV) run alone: crashes again\n", "",
     ["crashed: SIGSEGV in SubjectConcurrent.Steal", "subject_edges.cpp:480: Failure"]),
    ("lincheck_threads", "lincheck", "", "***Exception: SegFault", ["crashed (SegFault)"]),
    ("fuzz_interleave", "fuzz interleave",
     "runqcheck: owner_vs_thief: fatal error: invariant: a G lost\n"
     "runqcheck: reproduce with: /b/bin/fuzz_interleave__acme_x <the crash file named below>\n"
     "artifact_prefix='/b/a/'; Test unit written to /b/a/crash-1f\n", "", []),
    ("relacy_scenarios_full", "relacy full",
     "relacy_scenarios: empty_next1_next1: passed after 120 executions\n"
     "relacy_scenarios: steal_runnext_vs_runqget: full search\n", "***Timeout",
     ["timed out", "after: relacy_scenarios: steal_runnext_vs_runqget: full search"]),
    ("diff_go", "diff vs Go",
     "go test runtime (go1.27.4): exit 0 in 3 s\n"
     "FAIL: outcomes differ at line 7 of cpp.txt vs go.txt (in seq 3 cap 256)\n"
     "  C++: runqget 1001 true\n  Go:  runqget 1001 false\n", "",
     ["FAIL: outcomes differ", "C++: runqget 1001 true", "Go:  runqget 1001 false"]),
    ("stall", "stall",
     "stall/owner_vs_thief: FAILED stall.cpp:392: G 1003 taken twice\n"
     "reproduce: RUNQCHECK_STALL=owner_vs_thief:7 /b/bin/stall__acme_x\n", "",
     ["G 1003 taken twice"]),
    ("weak_memory", "weak memory",
     "FAILED: weak-memory orders: runqput_head_load is relaxed, need acquire (subject acme_x)\n"
     "witness:\n  C11 with LB ...\n", "", ["runqput_head_load"]),
    ("property_sched", "property",
     "- sched_ops_cap256\nUsing configuration: seed=1\nFalsifiable after 18 tests and 1 shrink\n"
     "\nstd::tuple<int>:\n(5)\n\nsched_props.cpp:240:\nRC_ASSERT(got == want)\n\n"
     "Expands to:\n5 == 4\n"
     "reproduce: RC_PARAMS=\"reproduce=x\" /b/bin/property_sched__acme_x\n"
     "FAILED: see the reproduce: lines above\n", "",
     ["property sched_ops_cap256: Falsifiable after 18 tests", "RC_ASSERT(got == want)"]),
    ("relacy_scenarios_bound3", "relacy bounded",
     "relacy_scenarios: owner_vs_thief: FAILED after 12 executions, 0.01s\n"
     "replay: /b/bin/relacy_scenarios__acme_x replay bound 3 owner_vs_thief 1:2\n", "",
     ["owner_vs_thief: FAILED after 12"]),
    ("unit_fatal", "unit",
     "[ RUN      ] SubjectEdges/0.Steal\nunknown file: Failure\n"
     "C++ exception with description \"fatal error: acme: ring overflow h=1 t=9 at acme.hpp:40\""
     " thrown in the test body.\n[  FAILED  ] SubjectEdges/0.Steal\n", "",
     ["fatal error: acme: ring overflow"]),
    # a fatal error's own text, whatever the checker: a rapidcheck property it ended, a
    # lincheck FAIL line, the watchdog's dump after a fatal raised with the port's lock held
    ("property_sched_deep", "property",
     "- sched_ops_cap256\nFalsifiable after 26 tests and 5 shrinks\n\nint:\n1\n\n"
     "Exception thrown with message:\nfatal error: acme: queue full n=1\n"
     "reproduce: RC_PARAMS=\"reproduce=x\" /b/bin/property_sched__acme_x\n", "",
     ["Falsifiable after 26 tests", "fatal error: acme: queue full n=1"]),
    ("lincheck_threads_deep", "lincheck",
     "FAIL: scenario overflow_vs_global (a spill), execution 0:\n"
     "thread failed: fatal error: acme: queue full n=2\n"
     "reproduce: RUNQCHECK_CASE=overflow_vs_global /b/bin/lincheck_threads__acme_x 50\n", "",
     ["FAIL: scenario overflow_vs_global", "fatal error: acme: queue full n=2"]),
    ("explore", "exhaustive",
     "explore acme_x steal_overflow SC: passed (expected a fatal error from the port, as Go's"
     " \"runqsteal: runq overflow\": seen fatal error: acme: no room n=1)\n"
     "explore acme_x wrap_2_32                        SC   0 complete, 0 blocked, FAILED\n"
     "explore acme_x wrap_2_32 SC: fatal error: invariant: runqget found nothing though its P "
     "held a G throughout the call p=0 at_least=2\n"
     "replay: /b/bin/explore__acme_x replay wrap_2_32 sc -\n", "",
     ["wrap_2_32", "runqget found nothing"]),
    # Relacy's data race: the driver's cause line, not Relacy's "DATA RACE (data race
    # detected)"
    ("relacy_scenarios", "relacy random",
     "/b/bin/relacy_scenarios__acme_x: owner_vs_thief [x], mode random\n"
     "DATA RACE (data race detected)\niteration: 5\n"
     "/b/bin/relacy_scenarios__acme_x: owner_vs_thief: FAILED after 5 executions, 0.01s\n"
     "replay: RUNQCHECK_CASE=owner_vs_thief /b/bin/relacy_scenarios__acme_x replay random '5 '\n"
     "picture: /b/failures/relacy_scenarios__acme_x__owner_vs_thief.html\n"
     "runqcheck: cause: owner_vs_thief: relacy: DATA RACE: read of G1.status in deliver "
     "(exec.hpp:170) races with the write #12 by T0 (no happens-before edge); T1 took it over "
     "through P0.runqtail: the store in runqput (acme.hpp:45) is relaxed, not a release\n", "",
     ["owner_vs_thief: relacy: DATA RACE: read of G1.status", "acme.hpp:45"]),
    # a data race: the cause (its accesses, the hand-over), not the statistics line
    ("explore_race", "exhaustive",
     "explore acme_x owner_vs_thief                   SC   20 complete, 0 blocked, 0.001 s, "
     "25553 executions/s, FAILED\n"
     "explore acme_x owner_vs_thief SC: data race on G1.status: a read by thread 1 and write of "
     "G1.status at exec.hpp:169 (hand_off), unordered by happens-before; thread 1 took it over "
     "through P0.runqtail: the store of P0.runqtail at acme.hpp:45 (runqput) is relaxed, not a "
     "release\nat: /s/acme.hpp:45\nreplay: /b/bin/explore__acme_x replay owner_vs_thief sc 1:2\n",
     "", ["data race on G1.status", "acme.hpp:45 (runqput) is relaxed"]),
    ("unit_wrap_native", "unit",
     "[ RUN      ] WrapNative.Rounds\n\nrunqcheck: watchdog: FAILED: fatal error: acme: queue "
     "full n=3 at acme.hpp:9 (it ended thread 1's globrunqput; then no subject operation "
     "returned for 5s)\n\nrunqcheck: watchdog: FAILED: no subject operation returned for 5s "
     "(livelock or deadlock in the port); state dump:\n  thread 2: in globrunqget\n",
     "***Exception: Other", ["fatal error: acme: queue full n=3"]),
    # lincheck's history: the line after "execution 0:" says what failed
    ("lincheck_threads_hist", "lincheck",
     "FAIL: scenario owner_vs_thief (owner vs one thief), execution 4:\n"
     "not linearizable w.r.t. the reference model; shortest failing prefix (19 of 32 events):\n"
     "  initial: P0 ring=[] runnext=-1\n"
     "reproduce: RUNQCHECK_CASE=owner_vs_thief /b/bin/lincheck_threads__acme_x 50\n", "",
     ["execution 4: not linearizable w.r.t. the reference model"]),
    # the generated column's history: the reason says "its report below", and the
    # verdict shows that report under it (check_report, below)
    ("generated", "generated",
     "generated acme_x: FAILED under RC11: fatal error: history not linearizable w.r.t. the "
     "reference model (its report below) (program 7 of 9; every smaller one passed)\n"
     "  program: cap=4 procs=2 P0=0,1,2 | put(0,3) get(0) | steal(1,0)\n"
     "  fails under RC11: fatal error: history not linearizable w.r.t. the reference model "
     "(its report below)\n"
     "not linearizable w.r.t. the reference model under its precedence (8 operations):\n"
     "  initial: P0 ring=[0 1 2] runnext=-1; P1 ring=[] runnext=-1; global=[]\n"
     "   2  T1  runqsteal(P1, P0, stealRunNextG=false) = G1\n"
     "  across threads, before: 1<3 2<3\n"
     "  saved: /b/failures/generated__acme_x__gen7__rc11.scn\n"
     "replay: /b/bin/generated__acme_x replay 'cap=4 procs=2 P0=0,1,2 | put(0,3) get(0) | "
     "steal(1,0)' rc11 rc11/16:1\n", "",
     ["history not linearizable w.r.t. the reference model"]),
    # the fuzz column's history (libFuzzer's run, no FAILED line)
    ("fuzz_interleave_short", "fuzz interleave",
     "INFO: Seed: 1\n\nrunqcheck: history not linearizable w.r.t. the reference model: not "
     "linearizable w.r.t. the reference model; shortest failing prefix (12 of 24 events):\n"
     "  initial: P0 ring=[0 1 2] runnext=-1\n   0  T0  call runqput(P0, G3, next=false)\n\n"
     "picture: /b/fuzz/fuzz_artifacts/x/picture-ab.html\n", "",
     ["history not linearizable w.r.t. the reference model"]),
    # ThreadSanitizer: each access with its thread and first frame of the port, not the
    # bare WARNING line; the backend's and the system's frames skipped
    ("unit_tsan", "unit",
     "[ RUN      ] SubjectConcurrent.Steal\n==================\n"
     "WARNING: ThreadSanitizer: data race (pid=4348)\n"
     "  Read of size 8 at 0x7b0c00000010 by thread T2:\n"
     "    #0 runqcheck::native::var<acme::g*>::load() const /s/runqcheck/backend/native.hpp:80 "
     "(unit+0x1429)\n"
     "    #1 acme::ring<runqcheck::native, 256u, std::allocator<acme::g*>, acme::stats_off>"
     "::steal(acme::ring<runqcheck::native, 256u, std::allocator<acme::g*>, acme::stats_off>&)"
     " /s/acme.hpp:88 (unit+0x1429)\n\n"
     "  Previous write of size 8 at 0x7b0c00000010 by thread T1:\n"
     "    #0 acme::ring<long>::push(long) /s/acme.hpp:42:7 (unit+0x1279)\n"
     "    #1 _M_run /usr/include/c++/12/bits/std_thread.h:210 (unit+0x1279)\n\n"
     "SUMMARY: ThreadSanitizer: data race /s/acme.hpp:88 in acme::ring::steal\n", "",
     ["ThreadSanitizer: data race: read of size 8 by thread T2 in acme::ring<...>::steal(...) "
      "(/s/acme.hpp:88); previous write of size 8 by thread T1 in acme::ring<long>::push(long) "
      "(/s/acme.hpp:42)"]),
    # a hang alone: the dump's first thread and its P in the reason, not "state dump:"
    ("property_sched_hang", "property",
     "runqcheck: watchdog: FAILED: no subject operation returned for 5s (livelock or "
     "deadlock in the port); state dump:\n  thread 0: in runqdrain on P2 (its op #22)\n"
     "    P2: head=512 tail=769 no describe_p hook\n  global queue: no describe_sched hook\n"
     "reproduce: RC_PARAMS=\"reproduce=x\" /b/bin/property_sched__acme_x\n", "",
     ["state dump: thread 0: in runqdrain on P2", "P2: head=512 tail=769"]),
]


# A protocol failure's reason (a protocol subject's row): the failing invariant, not the
# engine's statistics line before it.
PROTOCOL_OUT = (
    "explore_protocol wren_x submit_vs_spinner_drop     RC11 3 complete, 1 blocked, 0.002 s, "
    "1500 executions/s, FAILED\n"
    "explore_protocol wren_x submit_vs_spinner_drop RC11: invariant: a runnable G while a P is "
    "idle at quiescence g=1\n"
    "replay: /b/bin/explore_protocol__wren_x replay submit_vs_spinner_drop rc11 rc11/3:1\n")
PROTOCOL_REASON = ("explore_protocol wren_x submit_vs_spinner_drop RC11: invariant: a runnable "
                   "G while a P is idle at quiescence g=1")


def protocol_reason(verdict):
    sys.path.insert(0, str(Path(verdict).parent))  # its verdict_files
    spec = importlib.util.spec_from_file_location("verdict", verdict)
    v = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(v)
    return v.reason_of(PROTOCOL_OUT, "")


def junit(cases):
    xs = []
    for test, _, out, _, _ in cases:
        xs.append(f'<testcase name="{test}/{SUBJ}" classname="x" time="1" status="fail">'
                  f'<failure message=""/><system-out>{escape(out)}</system-out></testcase>')
    return f'<testsuite tests="{len(cases)}">' + "".join(xs) + "</testsuite>\n"


def main(argv):
    if len(argv) != 2:
        print("reasons_test.py: usage: reasons_test.py VERDICT_PY WORKDIR", file=sys.stderr)
        return 2
    verdict, work = argv[0], Path(argv[1]) / "native"
    work.mkdir(parents=True, exist_ok=True)
    (work / "junit.xml").write_text(junit(CASES))
    ids = {c["title"]: c["id"] for c in json.loads(
        (Path(verdict).parent / "checkers.json").read_text())["columns"] if c.get("title")}
    (work / "runqcheck_columns.json").write_text(json.dumps(
        {"tests": {f"{t}/{SUBJ}": ids[col] for t, col, _, _, _ in CASES}}))
    (work / "junit.log").write_text("".join(
        f"  {i}/9 Test  #{i}: {t}/{SUBJ} ......{end}  0.12 sec\n"
        for i, (t, _, _, end, _) in enumerate(CASES, 1) if end))
    p = subprocess.run(["/usr/bin/python3", verdict, "--subjects", SUBJ, f"native={work}"],
                       capture_output=True, text=True)
    out = p.stdout
    print(out)
    bad = []
    if p.returncode != 1:
        bad.append(f"exit {p.returncode}, not 1")
    if "without a message" in out:
        bad.append("a cell reads 'without a message'")
    lines = out.splitlines()
    for test, col, _, _, words in CASES:
        head = f"  {SUBJ}, {col}: {test}/{SUBJ} [native]"
        if head not in lines:
            bad.append(f"no failure entry '{head.strip()}'")
            continue
        i = lines.index(head)
        reason = lines[i + 1] if i + 1 < len(lines) else ""
        bad += [f"{test}: reason lacks '{w}' ({reason.strip()})" for w in words if w not in reason]
    # "(its report below)": the report's lines follow the failure's, up to its `saved:`
    want = ["    report:",
            "      not linearizable w.r.t. the reference model under its precedence "
            "(8 operations):",
            "        initial: P0 ring=[0 1 2] runnext=-1; P1 ring=[] runnext=-1; global=[]",
            "         2  T1  runqsteal(P1, P0, stealRunNextG=false) = G1",
            "        across threads, before: 1<3 2<3"]
    at = out.find("\n".join(want) + "\n")
    if at < 0 or "saved:" in out[at:out.find("\n\n", at)]:
        bad.append("generated: the report its reason promises is not shown below it (or runs "
                   "past its saved: line)")
    if (got := protocol_reason(verdict)) != PROTOCOL_REASON:
        bad.append(f"explore_protocol: reason is '{got}', not the failing invariant")
    if "/b/a/crash-1f" not in out or "<the crash file named below>" in out:
        bad.append("fuzz: the reproducer does not name libFuzzer's crash file")
    # a port's fuzz target names itself (runqcheck's seeds index the bundled subjects),
    # printed once as the command, not as "reproduce: runqcheck: reproduce with: ..."
    if "    reproduce: /b/bin/fuzz_interleave__acme_x /b/a/crash-1f\n" not in out:
        bad.append("fuzz: the port target's reproducer is not one command after 'reproduce:'")
    n = out.count("reproduce: /b/bin/unit__acme_x --gtest_filter=SubjectConcurrent.Steal\n")
    if n != 1:  # printed twice by the test (before and after the crash): listed once
        bad.append(f"the crash's reproducer is listed {n} times, not once")
    for b in bad:
        print(f"reasons_test: {b}")
    print("reasons_test: " + ("FAILED" if bad else f"passed: {len(CASES)} failing tests, each with "
                              "its reason"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
