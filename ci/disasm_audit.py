#!/usr/bin/env python3
"""ci/disasm_audit.py — what each atomic of the go1.25 port becomes on aarch64.

Compiles tests/disasm/audit_tu.cpp (every run-queue function instantiated for
runqcheck::native at Cap 256, as noinline exported wrappers) with
aarch64-linux-gnu-g++ -O2 -g twice: -march=armv8-a (outline atomics: CAS is a
call to a libgcc helper such as __aarch64_cas4_rel) and -march=armv8.1-a (LSE:
CASL, CASAL, ...). It disassembles each shared object, follows every wrapper
into the functions it calls, and attributes each memory instruction that
comes from std::atomic to its source line through the DWARF inline chain
(addr2line -i): the innermost frame in core/include/runqcheck that is not the
backend's atomic wrapper. The order that line asks for is read from the
source itself: the order argument of each access; the 21 order sites (non-relaxed
accesses of runq.hpp, named as models/mutants/schemata.py derives them) by name.

Verdicts, per source line and instruction:
  ok        the instruction gives at least the order the source asks for
  PLAIN     an acquire or release became a plain LDR/STR/CAS/helper_relax
  MISSING   a tagged site of a function the wrapper reaches has no
            instruction at all (compiled away, or attribution lost)
  UNCOVERED an order site that no wrapper reaches (a new core
            function without a wrapper in tests/disasm/audit_tu.cpp)
Exit status 0 iff no PLAIN, MISSING or UNCOVERED, 1 otherwise, 2 on bad usage or a
tool failure.

--break SITE[,SITE...] compiles the TU against a copy of the port with those sites relaxed: a
backend whose constexpr weaken() makes those sites relaxed. With
--expect-plain the exit status is inverted into a self-test: 0 iff the audit
reports exactly those sites PLAIN (on both -march variants) and nothing else.

--doc FILE writes the per-function tables (docs/arm64-atomics.md).
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import pathlib
import shutil
import subprocess
import sys
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
CORE = os.path.join(ROOT, "core", "include", "runqcheck")
TU = os.path.join(ROOT, "tests", "disasm", "audit_tu.cpp")
MARCHES = ["armv8-a", "armv8.1-a"]
ORDERS = ["relaxed", "consume", "acquire", "release", "acq_rel", "seq_cst"]

# ---------------------------------------------------------------- source side

sys.path.insert(0, os.path.join(ROOT, "models", "mutants"))
import schemata  # noqa: E402  (the order sites, derived from the code)
ACCESS_RE = re.compile(r"\.(load|store|compare_exchange_strong|fetch_add)\(")
ORDER_WORD_RE = re.compile(r"\b(?:std::memory_order(?:::|_))?"
                           r"(relaxed|consume|acquire|release|acq_rel|seq_cst)\b")


def strip_comment(line: str) -> str:
    i = line.find("//")
    return line if i < 0 else line[:i]


class Source:
    """runq.hpp parsed: tagged sites, their functions, and the call graph."""

    def __init__(self) -> None:
        self.lines: dict[str, list[str]] = {}
        self.site_func: dict[str, str] = {}       # site -> core function
        self.site_order: dict[str, str] = {}      # site -> order in the source
        self.site_lines: dict[str, list[int]] = collections.defaultdict(list)
        self.calls: dict[str, set[str]] = collections.defaultdict(set)
        path = os.path.join(CORE, "runq.hpp")
        self.file(path)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        fns = schemata.functions(text)
        self.funcs = [f[0] for f in fns]

        def line_of(off: int) -> int:
            return text.count("\n", 0, off) + 1

        self.all_sites = []
        self.line_site: dict[int, tuple[str, str]] = {}
        for s, mo, a0, _ in schemata.sites(text):
            fn = next(f[0] for f in fns if f[2] <= a0 < f[3])
            self.all_sites.append(s)
            self.site_func[s] = fn
            self.site_order[s] = mo
            self.site_lines[s].append(line_of(a0))
            self.line_site[line_of(a0)] = (s, mo)
        # Call graph: which function bodies name which functions.
        for name, _, body_open, end in fns:
            body = "\n".join(strip_comment(ln) for ln in text[body_open:end].split("\n"))
            for f in self.funcs:
                if f != name and re.search(r"\b" + f + r"\(", body):
                    self.calls[name].add(f)

    def file(self, path: str) -> list[str]:
        if path not in self.lines:
            with open(path, encoding="utf-8") as f:
                self.lines[path] = f.read().split("\n")
        return self.lines[path]

    def line(self, path: str, no: int) -> str:
        try:
            return self.file(path)[no - 1]
        except (OSError, IndexError):
            return ""

    def reach(self, roots: list[str]) -> set[str]:
        seen, todo = set(), list(roots)
        while todo:
            f = todo.pop()
            if f in seen:
                continue
            seen.add(f)
            todo.extend(self.calls.get(f, ()))
        return seen

    def expected_sites(self, roots: list[str]) -> list[str]:
        fs = self.reach(roots)
        return [s for s in self.all_sites if self.site_func[s] in fs]

    def access_at(self, path: str, no: int) -> tuple[str | None, str | None]:
        """(site or None, order) that source line asks for."""
        code = strip_comment(self.line(path, no))
        if os.path.normpath(path) == os.path.join(CORE, "runq.hpp") and no in self.line_site:
            return self.line_site[no]
        a = ACCESS_RE.search(code)
        if a:
            o = ORDER_WORD_RE.search(code, a.end())
            if o:
                return None, o.group(1)
        return None, None


# Which core functions each wrapper of audit_tu.cpp runs (runq.hpp names;
# globrunq* have no tagged site, only sched.lock's relaxed holder field).
WRAPPERS = {
    "audit_runqempty": ["runqempty"],
    "audit_runqput": ["runqput"],
    "audit_runqputslow": ["runqputslow"],
    "audit_runqputbatch": ["runqputbatch"],
    "audit_runqget": ["runqget"],
    "audit_runqdrain": ["runqdrain"],
    "audit_runqgrab": ["runqgrab"],
    "audit_runqsteal": ["runqsteal"],
    "audit_destroy": ["destroy"],
    "audit_globrunqput": [],
    "audit_globrunqputhead": [],
    "audit_globrunqputbatch": [],
    "audit_globrunqget": [],
    "audit_globrunqsize": [],
    "audit_globrunqgetbatch": [],
    "audit_findRunnable_globrunq": ["runqputbatch"],
}

# -------------------------------------------------------------- machine side

HELPER_RE = re.compile(r"__aarch64_(cas|swp|ldadd|ldclr|ldeor|ldset)"
                       r"(\d+)_(relax|acq_rel|acq|rel)\b")


def classify(mn: str, target: str) -> tuple[str, set[str]] | None:
    """(kind, semantics) of a memory instruction; None if not one.
    kind: load, store, rmw, llsc-load, llsc-store, fence."""
    mn = mn.lower()
    if mn in ("bl", "b") and target:
        m = HELPER_RE.search(target)
        if not m:
            return None
        model = m.group(3)
        sem = {"relax": set(), "acq": {"acquire"}, "rel": {"release"},
               "acq_rel": {"acquire", "release"}}[model]
        return "rmw", sem
    if mn.startswith("dmb") or mn.startswith("dsb"):
        return "fence", {"acquire", "release"}
    if re.fullmatch(r"ldapr[bh]?|ldapur[bh]?|ldar[bh]?", mn):
        return "load", {"acquire"}
    if re.fullmatch(r"ldaxr[bh]?|ldaxp", mn):
        return "llsc-load", {"acquire"}
    if re.fullmatch(r"ldxr[bh]?|ldxp", mn):
        return "llsc-load", set()
    if re.fullmatch(r"stlr[bh]?|stlur[bh]?", mn):
        return "store", {"release"}
    if re.fullmatch(r"stlxr[bh]?|stlxp", mn):
        return "llsc-store", {"release"}
    if re.fullmatch(r"stxr[bh]?|stxp", mn):
        return "llsc-store", set()
    m = re.fullmatch(r"(cas|swp|ldadd|ldclr|ldeor|ldset)(a|l|al)?([bh]|p)?", mn)
    if m:
        suf = m.group(2) or ""
        sem = set()
        if "a" in suf:
            sem.add("acquire")
        if "l" in suf:
            sem.add("release")
        return "rmw", sem
    if re.fullmatch(r"ldr(s?[bhw])?|ldur(s?[bhw])?|ldp(sw)?", mn):
        return "load", set()
    if re.fullmatch(r"str[bh]?|stur[bh]?|stp", mn):
        return "store", set()
    return None


def needs(order: str, kind: str) -> set[str]:
    """The semantics an access of `kind` with C++ order `order` needs."""
    if order in ("relaxed", None):
        return set()
    if order in ("acquire", "consume"):
        return {"acquire"} if kind in ("load", "rmw", "llsc") else set()
    if order == "release":
        return {"release"} if kind in ("store", "rmw", "llsc") else set()
    # acq_rel / seq_cst
    return ({"acquire", "release"} if kind in ("rmw", "llsc")
            else ({"acquire"} if kind == "load" else {"release"}))


def run(cmd: list[str], **kw) -> str:
    try:
        return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout
    except FileNotFoundError:
        raise SystemExit(2)
    except subprocess.CalledProcessError as e:
        sys.stderr.write(f"disasm-audit: command failed: {' '.join(cmd)}\n{e.stderr}\n")
        sys.exit(2)


class Insn:
    __slots__ = ("addr", "mn", "ops", "target", "text")

    def __init__(self, addr, mn, ops, target, text):
        self.addr, self.mn, self.ops, self.target, self.text = addr, mn, ops, target, text


def disassemble(objdump: str, so: str) -> dict[str, list[Insn]]:
    out = run([objdump, "-d", "-C", "--no-show-raw-insn", so])
    funcs: dict[str, list[Insn]] = {}
    cur = None
    for line in out.split("\n"):
        m = re.match(r"^([0-9a-f]+) <(.*)>:$", line)
        if m:
            cur = m.group(2)
            funcs[cur] = []
            continue
        m = re.match(r"^\s+([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
        if m and cur is not None:
            ops = m.group(3)
            code = ops.split("//")[0]
            lt, gt = code.find("<"), code.rfind(">")
            target = code[lt + 1:gt] if 0 <= lt < gt else ""
            funcs[cur].append(Insn(int(m.group(1), 16), m.group(2), ops.split("//")[0].strip(),
                                   target,
                                   (m.group(2) + " " + ops.split("//")[0].strip()).strip()))
    return funcs


def reachable(funcs: dict[str, list[Insn]], root: str) -> list[str]:
    """root and the local functions it calls or tail-calls (runqcheck code
    only: not libc, not the fatal path, not libgcc's atomic helpers)."""
    seen, todo = [], [root]
    while todo:
        f = todo.pop()
        if f in seen or f not in funcs:
            continue
        seen.append(f)
        for i in funcs[f]:
            if i.mn in ("bl", "b") and i.target and "+0x" not in i.target:
                t = i.target
                if "@plt" in t or t.startswith("__aarch64_") or "fatal" in t or "fmt_values" in t:
                    continue
                if "runqcheck::" in t:
                    todo.append(t)
    return seen


def addr2line(tool: str, so: str, addrs: list[int]) -> dict[int, list[tuple[str, str, int]]]:
    """addr -> inline chain [(function, file, line)], innermost first."""
    res: dict[int, list[tuple[str, str, int]]] = {}
    if not addrs:
        return res
    out = run([tool, "-a", "-i", "-f", "-C", "-e", so],
              input="\n".join(hex(a) for a in addrs) + "\n")
    cur = None
    lines = out.split("\n")
    k = 0
    while k < len(lines):
        ln = lines[k]
        if re.fullmatch(r"0x[0-9a-f]+", ln):
            cur = int(ln, 16)
            res[cur] = []
            k += 1
            continue
        if cur is not None and k + 1 < len(lines):
            fn, loc = ln, lines[k + 1]
            m = re.match(r"^(.*):(\d+)(?: \(discriminator \d+\))?$", loc)
            if m:
                path = os.path.normpath(m.group(1))
                if BROKEN[0] and path.startswith(BROKEN[0] + os.sep):
                    path = os.path.join(CORE, os.path.relpath(path, BROKEN[0]))
                res[cur].append((fn, path, int(m.group(2))))
            k += 2
            continue
        k += 1
    return res


def is_std_atomic(path: str) -> bool:
    b = os.path.basename(path)
    return b in ("atomic_base.h", "atomic", "atomic_wait.h") or path.endswith("/bits/atomic_base.h")


def source_frame(chain):
    """The innermost frame in core/include/runqcheck other than the backend's
    std::atomic wrapper: the line where the order is written."""
    for fn, path, no in chain:
        if not path.startswith(CORE + os.sep):
            continue
        if os.path.basename(path) == "native.hpp" and "native::atomic<" in fn:
            continue
        return fn, path, no
    return None


def core_func(fn: str) -> str:
    m = re.search(r"((?:mutex::)?\w+)(?:<[^()<>]*>)?\(", fn)
    return m.group(1) if m else fn


class Access:
    """One source line's accesses in one wrapper on one -march."""

    def __init__(self, key, site, order, path, no, func):
        (self.key, self.site, self.order, self.path, self.no,
         self.func) = key, site, order, path, no, func
        self.insns: list[tuple[str, str, set[str]]] = []   # (text, kind, sem)

    def verdict(self) -> str:
        if not self.insns:
            return "MISSING"
        kinds = {k for _, k, _ in self.insns}
        if kinds & {"llsc-load", "llsc-store"}:
            sem = set().union(*(s for _, k, s in self.insns if k.startswith("llsc")))
            if not needs(self.order, "llsc") <= sem:
                return "PLAIN"
            return "ok"
        for _, k, s in self.insns:
            if k == "fence":
                continue
            if not needs(self.order, k) <= s:
                return "PLAIN"
        return "ok"


def audit_so(src: Source, so: str, tools: dict[str, str]):
    funcs = disassemble(tools["objdump"], so)
    result = {}
    for w, roots in WRAPPERS.items():
        if w not in funcs:
            raise SystemExit(f"disasm-audit: wrapper {w} not in {so}")
        fs = reachable(funcs, w)
        mem = []
        for f in fs:
            for i in funcs[f]:
                c = classify(i.mn, i.target)
                if c is not None:
                    mem.append((i, c))
        chains = addr2line(tools["addr2line"], so, sorted({i.addr for i, _ in mem}))
        acc: dict[tuple, Access] = {}
        unattributed = []
        for i, (kind, sem) in mem:
            chain = chains.get(i.addr, [])
            atomic_insn = (kind == "fence" or i.mn in ("bl", "b")
                           or (chain and is_std_atomic(chain[0][1])))
            if not atomic_insn:
                continue
            fr = source_frame(chain)
            if fr is None:
                if sem or kind == "rmw":
                    unattributed.append(i.text)
                continue
            fn, path, no = fr
            site, order = src.access_at(path, no)
            key = site or f"{os.path.relpath(path, CORE)}:{no}"
            if key not in acc:
                acc[key] = Access(key, site, order, path, no, core_func(fn))
            acc[key].insns.append((i.text, kind, sem))
        for s in src.expected_sites(roots):
            if s not in acc:
                acc[s] = Access(s, s, src.site_order[s], os.path.join(CORE, "runq.hpp"),
                                src.site_lines[s][0], src.site_func[s])
        calls = sorted({i.target.split("@")[0] for f in fs for i in funcs[f]
                        if i.mn in ("bl", "b") and "pthread_mutex" in i.target})
        result[w] = {"acc": acc, "unattributed": unattributed, "funcs": fs, "locks": calls}
    return result


def compile_so(tools, march, out_dir, breaks):
    so = os.path.join(out_dir, f"audit-{march}{'-break' if breaks else ''}.so")
    cmd = [tools["cxx"], "-std=c++20", "-O2", "-g", f"-march={march}", "-fPIC", "-shared",
           "-fvisibility=hidden", "-fno-semantic-interposition",
           "-I", os.path.join(ROOT, "core", "include"), TU, "-o", so]
    if breaks:
        # A line-for-line copy of the port with those orders spelled relaxed;
        # its lines are attributed to core/ (same numbers).
        broken = os.path.join(out_dir, "broken")
        schemata.write_broken(pathlib.Path(ROOT, "core", "include"), breaks, pathlib.Path(broken))
        cmd[cmd.index("-I")] = "-I" + broken
        cmd.insert(cmd.index("-I" + broken) + 1, "-I")
        BROKEN[0] = os.path.join(broken, "runqcheck")
    run(cmd)
    return so


BROKEN = [None]  # the --break copy's runqcheck/ dir, read as core/


def describe(a: Access) -> str:
    if not a.insns:
        return "—"
    seen = collections.OrderedDict()
    for t, _, _ in a.insns:
        m = t.split()[0]
        h = HELPER_RE.search(t)
        name = h.group(0) if h else m.upper()
        seen[name] = seen.get(name, 0) + 1
    return ", ".join(k if n == 1 else f"{k} ×{n}" for k, n in seen.items())


def tally(accs) -> collections.Counter:
    """The multiset of ordering kinds: what the source asks, what was found."""
    c = collections.Counter()
    for a in accs:
        for _, k, s in a.insns:
            base = "CAS" if k == "rmw" else ("LL/SC" if k.startswith("llsc") else k)
            tag = "+".join(sorted(s)) or "plain"
            c[f"{tag} {base}"] += 1
    return c


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "disasm"), help="work directory")
    ap.add_argument("--doc", help="write the Markdown report here (docs/arm64-atomics.md)")
    ap.add_argument("--break", dest="breaks", default="", help="SITE[,SITE...] compiled as relaxed")
    ap.add_argument("--expect-plain", action="store_true",
                    help="self-test: pass iff exactly the --break sites are reported PLAIN")
    ap.add_argument("--cross-prefix", default="aarch64-linux-gnu-")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="print every row, not only failures")
    args = ap.parse_args()
    t0 = time.monotonic()
    src = Source()
    breaks = [b for b in args.breaks.split(",") if b]
    for b in breaks:
        if b not in src.all_sites:
            sys.stderr.write(f"disasm-audit: unknown site '{b}' "
                             "(models/mutants/schemata.py --manifest)\n")
            return 2
    if args.expect_plain and not breaks:
        sys.stderr.write("disasm-audit: --expect-plain needs --break\n")
        return 2
    tools = {k: args.cross_prefix + v
             for k, v in (("cxx", "g++"), ("objdump", "objdump"), ("addr2line", "addr2line"))}
    for t in tools.values():
        if shutil.which(t) is None:
            sys.stderr.write(f"disasm-audit: {t} not found "
                             "(apt-get install g++-aarch64-linux-gnu)\n")
            return 2
    os.makedirs(args.out, exist_ok=True)
    results = {}
    for march in MARCHES:
        so = compile_so(tools, march, args.out, breaks)
        results[march] = audit_so(src, so, tools)

    failures = []  # (march, wrapper, key, verdict, text)
    for march in MARCHES:
        for w, r in results[march].items():
            for a in r["acc"].values():
                v = a.verdict()
                if v != "ok":
                    failures.append((march, w, a.key, v, f"{a.order} -> {describe(a)}"))
    tagged_found = {s for march in MARCHES for r in results[march].values() for s in
                    (a.site for a in r["acc"].values() if a.site and a.insns)}
    # Every order site must be reached by some wrapper on each
    # -march: a new core function needs a wrapper in audit_tu.cpp.
    for march in MARCHES:
        seen = {a.site for r in results[march].values() for a in r["acc"].values()
                if a.site and a.insns}
        for s in src.all_sites:
            if s not in seen:
                failures.append((march, "(no wrapper)", s, "UNCOVERED",
                                 f"{src.site_func[s]} is reached by no wrapper of "
                                 "tests/disasm/audit_tu.cpp"))
    n_rows = sum(len(r["acc"]) for r in results[MARCHES[0]].values())

    for march, w, key, v, text in failures:
        print(f"{v}: {w} [{march}] {key}: {text}")
    if args.verbose:
        for march in MARCHES:
            for w, r in results[march].items():
                for a in r["acc"].values():
                    print(f"  {march:9} {w:28} {a.key:32} {a.order or '?':8} "
                          f"{describe(a):40} {a.verdict()}")
    secs = time.monotonic() - t0
    n_all = sum(len(r["acc"]) for m in MARCHES for r in results[m].values())
    print(f"disasm-audit: {n_all - len(failures)} passed, {len(failures)} failed (rows)")
    print(f"disasm-audit: {len(tagged_found)}/{len(src.all_sites)} tagged sites found, {n_rows} "
          f"(wrapper, access) rows per -march, {len(failures)} failing rows, "
          f"{len(MARCHES)} -march variants, {secs:.1f}s"
          + (f"; broken: {','.join(breaks)}" if breaks else ""))

    if args.doc:
        write_doc(args.doc, src, results, failures, breaks,
                  run([tools["cxx"], "-dumpfullversion"]).strip())

    if args.expect_plain:
        plain_sites = {(m, k) for m, _, k, v, _ in failures if v == "PLAIN"}
        others = [f for f in failures if not (f[3] == "PLAIN" and f[2] in breaks)]
        want = {(m, b) for m in MARCHES for b in breaks}
        if want <= plain_sites and not others:
            print(f"disasm-audit self-test: passed: the audit reports {','.join(breaks)} "
                  "as PLAIN on "
                  f"{' and '.join(MARCHES)}")
            return 0
        print(f"disasm-audit self-test: FAILED: wanted exactly {sorted(want)} PLAIN, "
              f"missed {sorted(want - plain_sites)}, other failures {others}")
        return 1
    if failures:
        print("reproduce: ci/disasm-audit -v" + (f" --break {','.join(breaks)}" if breaks else ""))
    return 1 if failures else 0


def write_doc(path, src, results, failures, breaks, gcc_version):
    rel = lambda p: os.path.relpath(p, ROOT)
    out = []
    out.append("# What the port's atomics become on aarch64\n")
    out.append("Generated by `ci/disasm-audit --doc docs/arm64-atomics.md`; do not edit. "
               "`tests/disasm/audit_tu.cpp` instantiates every run-queue function for "
               "`runqcheck::native` at Cap 256 as a noinline exported wrapper; "
               "`ci/disasm_audit.py` compiles it with `aarch64-linux-gnu-g++` (GCC "
               f"{gcc_version}) `-O2 -g` for "
               "`-march=armv8-a` (outline atomics: a CAS is a call to libgcc's "
               "`__aarch64_cas<size>_<order>`, which picks LSE or an LDXR/STXR loop at run "
               "time) and "
               "`-march=armv8.1-a` (LSE inline), disassembles it, follows each wrapper into what "
               "it calls, "
               "and attributes every instruction that comes from `std::atomic` to the source "
               "line that "
               "asked for it (DWARF inline chain, `addr2line -i`).\n")
    out.append("The expected order is read from the source: the order argument of each access; "
               f"the {len(src.all_sites)} order sites are named as models/mutants/schemata.py "
               "derives them, else the order "
               "argument of the access on that line (slots, own tail, runnext peeks: relaxed). "
               "Verdict `ok`: the instruction gives at least that order "
               "(acquire load → LDAR/LDAPR, "
               "release store → STLR, release CAS → CASL/CASAL or a `_rel`/`_acq_rel` helper, "
               "acquire CAS → CASA/CASAL or an `_acq`/`_acq_rel` helper; relaxed → anything). "
               "`PLAIN`: an acquire or release became a plain LDR/STR/CAS or a `_relax` helper. "
               "`MISSING`: a tagged site of a reached function has no instruction; "
               "`UNCOVERED`: a site no wrapper reaches. "
               "ctest `disasm_audit` fails on either; `disasm_audit_selftest` compiles four "
               "sites as relaxed (a load, a store, a release CAS, an acquire CAS) "
               "(a line-for-line copy of the port, `schemata.py --break`) and passes iff the "
               "audit reports exactly those as PLAIN.\n")
    out.append("Relaxed atomic loads and stores are plain LDR/STR on aarch64: that is correct, "
               "and why "
               "an order lost in a refactoring is invisible in a test run under qemu (which "
               "executes "
               "aarch64 code on x86's TSO memory anyway). GCC 12 never emits LDAPR here (it "
               "would need "
               "`+rcpc`); LDAR is stronger than C++ acquire requires (RCsc).\n")
    if breaks:
        out.append(f"**This report was made with sites broken on purpose: {', '.join(breaks)}.**\n")
    nfail = len(failures)
    out.append(f"Result: {nfail} failing row(s).\n")
    a0, a1 = MARCHES
    for w, roots in WRAPPERS.items():
        r0, r1 = results[a0][w], results[a1][w]
        keys = list(r0["acc"].keys()) + [k for k in r1["acc"] if k not in r0["acc"]]

        def sort_key(k):
            a = r0["acc"].get(k) or r1["acc"][k]
            return (rel(a.path), a.no)

        keys.sort(key=sort_key)
        reach = sorted(src.reach(roots))
        out.append(f"## {w[len('audit_'):]}\n")
        fn_names = (", ".join(f"`{f}`" for f in reach) if reach else
                    "none of runq.hpp (sched.runq is plain data guarded by sched.lock; "
                    "the only atomic "
                    "is the native mutex's relaxed holder field, its self-deadlock check)")
        out.append(f"Core functions: {fn_names}." + (
            f" sched.lock: {', '.join('`' + c + '`' for c in r0['locks'])} (glibc; not audited)."
            if r0["locks"] else "")
            + "\n")
        out.append(f"| site | source | order | {a0} | {a1} | verdict |")
        out.append("|---|---|---|---|---|---|")
        for k in keys:
            x0, x1 = r0["acc"].get(k), r1["acc"].get(k)
            a = x0 or x1
            v0 = x0.verdict() if x0 else "MISSING"
            v1 = x1.verdict() if x1 else "MISSING"
            v = v0 if v0 == v1 else f"{a0}: {v0}, {a1}: {v1}"
            code = strip_comment(src.line(a.path, a.no)).strip().replace("|", "/").replace("`", "'")
            name = f"`{a.site}`" if a.site else f"{a.func}: `{code[:70]}`"
            out.append(f"| {name} | {rel(a.path)}:{a.no} | {a.order} | "
                       f"{describe(x0) if x0 else '—'} | "
                       f"{describe(x1) if x1 else '—'} | {v} |")
        t0, t1 = tally(r0["acc"].values()), tally(r1["acc"].values())
        fmt = lambda t: ", ".join(f"{n}× {k}" for k, n in sorted(t.items())) or "none"
        out.append("")
        out.append(f"Instruction kinds: {a0}: {fmt(t0)}; {a1}: {fmt(t1)}.")
        if r0["unattributed"] or r1["unattributed"]:
            out.append("Ordering instructions with no source line: "
                       f"{sorted(set(r0['unattributed'] + r1['unattributed']))}.")
        out.append("")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out).rstrip() + "\n")


if __name__ == "__main__":
    sys.exit(main())
