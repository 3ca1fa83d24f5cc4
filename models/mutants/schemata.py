#!/usr/bin/python3
"""Mutant schemata: every mutant of models/mutants compiled into one copy of the port.

A mutant is a buggy port. A logic mutant is a patch (models/mutants/logic/<name>.patch)
against core/'s queues; a protocol mutant a patch (models/mutants/protocol/<name>.patch)
against core/'s wakeup protocol (protocol.hpp); an order mutant weakens one atomic site one
step; `plain_slots` makes the ring slots plain variables, as Go writes them. This script
writes the schemata: a copy of the core headers that the patches touch (and the headers
that include them), in which

  - each function a patch changes also exists as the patched function, renamed
    `<function>__<mutant>`, and the original starts with a dispatch to it when that
    mutant is selected (in protocol.hpp: member functions, beside the original);
  - each site's order goes through `mutant_select::order(site, mo)`;
  - the ring slot type is `mutant_select::slot<B, T>` (atomic, or plain for plain_slots).

RUNQCHECK_MUTANT=<name> | order:<site> | plain_slots selects one at run time (unset or
`none`: the port itself). Registered as the subject `mutants` (mutants.cmake), the
schemata enters every checker through the subject path, like a user's port.

Sites are derived from the code, not tagged: an atomic access to runqhead, runqtail or
runnext in a function of runq.hpp whose order is not relaxed is the site
<function>_<head|tail|runnext>_<load|store|cas>.

A patch must apply exactly (no fuzz, its removed lines found once) and may change only
function bodies: when the port changes under it, configuration fails with the patch named.

usage: schemata.py [--core CORE_INCLUDE] [--mutants MODELS_MUTANTS] (--out DIR | --manifest)
       schemata.py --break SITE[,SITE...] --out DIR   (a copy with those sites relaxed)
"""
import json
import re
import sys
from pathlib import Path

MUTATED = ("runq.hpp", "globrunq.hpp", "sched_policy.hpp", "protocol.hpp")  # patched files
MEMBERS = ("protocol.hpp",)  # files whose functions are class members (members())
SITE_FILE = "runq.hpp"
FIELDS = {"runqhead": "head", "runqtail": "tail", "runnext": "runnext"}
OPS = {"load": "load", "store": "store", "compare_exchange_strong": "cas"}
ORDER_ARG = {"load": 0, "store": 1, "compare_exchange_strong": 2}
SLOTS = ("plain_slots", "ring slots as plain variables, as Go writes them: a thief reads a "
         "slot the owner may overwrite")


class Error(Exception):
    pass


# --- parsing the port's shape --------------------------------------------------------------

def line_offsets(text):
    """(lines with their ends, the offset of each)."""
    lines = text.splitlines(keepends=True)
    offs, o = [], 0
    for ln in lines:
        offs.append(o)
        o += len(ln)
    return lines, offs


def functions(text):
    """Top-level function definitions: [(name, start, body_open, end)] as offsets.
    A definition starts at column 0 (after an optional `template <...>` line) and ends at
    the next line that is exactly `}`."""
    out = []
    lines, offs = line_offsets(text)
    i = 0
    while i < len(lines):
        ln = lines[i]
        if ln.startswith("template <") or re.match(r"[A-Za-z_][\w:<>, *&]* \**&?\w+\(", ln):
            j, sig = i, ""
            if ln.startswith("template <"):
                j = i + 1
            while j < len(lines) and not lines[j].rstrip().endswith(("{", ";", "}")):
                sig += lines[j]
                j += 1
            if j >= len(lines):
                break
            sig += lines[j]
            head = sig.lstrip()
            is_def = (sig.rstrip().endswith("{") and "(" in sig and not re.match(
                r"(struct|class|union|enum|using|concept|namespace)\b", head)
                and not lines[i].startswith(("struct", "class")))
            if is_def and re.match(r"(template <.*>\s*)?(struct|class|concept|using)\b",
                                   (lines[i] + head) if ln.startswith("template <") else head):
                is_def = False
            if is_def:
                m = re.search(r"([A-Za-z_]\w*)\s*\(", sig)
                k = j + 1
                while k < len(lines) and lines[k].rstrip("\n") != "}":
                    k += 1
                if k >= len(lines):
                    raise Error(f"function {m.group(1)}: no closing brace at column 0")
                out.append((m.group(1), offs[i], offs[j] + len(lines[j]), offs[k] + len(lines[k])))
                i = k + 1
                continue
            i = j + 1
            continue
        i += 1
    return out


def members(text):
    """Member function definitions (indented): [(name, start, body_open, end)] as offsets.
    A definition starts at an indented line (after an optional `template <...>` line of the
    same indent) and ends at the next line that is that indent and `}`."""
    out = []
    lines, offs = line_offsets(text)
    i = 0
    while i < len(lines):
        m = re.match(r"( +)(template <|[A-Za-z_][\w:<>, *&]* \**&?\w+\()", lines[i])
        if not m:
            i += 1
            continue
        ind, j, sig = m.group(1), i, ""
        if m.group(2) == "template <":
            j = i + 1
        # a line's end, its comment aside (`void takeP() const { … }  // Go: takeP`)
        while j < len(lines) and not code(lines[j]).endswith(("{", ";", "}")):
            sig += lines[j]
            j += 1
        if j >= len(lines):
            break
        sig += lines[j]
        if (code(lines[j]).endswith("{") and "(" in sig
                and not re.match(r"(struct|class|union|enum|if|for|while)\b", sig.lstrip())):
            name = re.search(r"([A-Za-z_]\w*)\s*\(", sig).group(1)
            k = j + 1
            while k < len(lines) and lines[k].rstrip("\n") != ind + "}":
                k += 1
            if k >= len(lines):
                raise Error(f"member {name}: no closing brace at its indent")
            out.append((name, offs[i], offs[j] + len(lines[j]), offs[k] + len(lines[k])))
            i = k + 1
            continue
        i = j + 1
    return out


def code(line):
    return re.sub(r"\s*//.*$", "", line.rstrip())


def parser(fname):
    return members if fname in MEMBERS else functions


def split_args(s):
    """Top-level comma split of an argument or parameter list."""
    depth, cur, out = 0, "", []
    for ch in s:
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return [a.strip() for a in out]


def signature(text, start, body_open):
    """(template parameter names, parameter names) of the function text[start:body_open]."""
    sig = text[start:body_open].lstrip()
    tparams = []
    m = re.match(r"template <(.*?)>\n", sig)
    if m:
        tparams = [re.sub(r"\s*=.*$", "", p).split()[-1] for p in split_args(m.group(1))]
        sig = sig[m.end():]
    open_ = sig.index("(")
    depth, k = 0, open_
    for k in range(open_, len(sig)):
        depth += sig[k] == "("
        depth -= sig[k] == ")"
        if depth == 0:
            break
    params = [re.sub(r"\s*=.*$", "", p) for p in split_args(sig[open_ + 1:k])]
    # an unnamed parameter (`locked&`) is None: weave() names it
    names = [None if re.search(r"[&*>]$", p) or re.fullmatch(r"[\w:]+", p)
             else re.findall(r"\w+", p)[-1] for p in params if p]
    return tparams, names


def matching_paren(text, open_):
    depth = 0
    for k in range(open_, len(text)):
        depth += text[k] == "("
        depth -= text[k] == ")"
        if depth == 0:
            return k
    raise Error("unbalanced parentheses")


def sites(text):
    """Order sites of runq.hpp: [(name, order, arg_start, arg_end)] in source order."""
    out, seen = [], set()
    for fname, start, body_open, end in functions(text):
        body = text[body_open:end]
        for m in re.finditer(r"\b\w+\.(runqhead|runqtail|runnext)\.(load|store|"
                             r"compare_exchange_strong)\(", body):
            close = matching_paren(body, m.end() - 1)
            args = split_args(body[m.end():close])
            idx = ORDER_ARG[m.group(2)]
            if idx >= len(args):
                raise Error(f"{fname}: {m.group(0)} without an explicit order")
            order = args[idx]
            if order == "relaxed" or order.endswith("::relaxed"):
                continue
            if not re.fullmatch(r"(std::memory_order::)?(acquire|release|acq_rel|seq_cst)", order):
                raise Error(f"{fname}: order '{order}' of {m.group(0)} is not a plain order name")
            name = f"{fname}_{FIELDS[m.group(1)]}_{OPS[m.group(2)]}"
            if name in seen:
                raise Error(f"two accesses would both be site {name}")
            seen.add(name)
            # locate the order argument within the call text
            pos, depth = m.end(), 0
            for _ in range(idx):
                while True:
                    ch = body[pos]
                    depth += ch in "([{<"
                    depth -= ch in ")]}>"
                    pos += 1
                    if ch == "," and depth == 0:
                        break
            a0 = body.index(order, pos)
            out.append((name, order.split("::")[-1], body_open + a0, body_open + a0 + len(order)))
    return out


# --- the mutants ------------------------------------------------------------------------

def read_patch(path, allowed=MUTATED):
    """(description, {file: [hunks]}) where a hunk is (old_lines, new_lines); the files
    patched must be among allowed."""
    desc, files, cur, hunk = [], {}, None, None
    for ln in path.read_text().splitlines():
        if cur is None and ln.startswith("#"):
            desc.append(ln[1:].strip())
        elif ln.startswith("--- "):
            continue
        elif ln.startswith("+++ "):
            cur = ln[4:].split("\t")[0]
            cur = Path(cur[2:] if cur.startswith("b/") else cur).name
            files.setdefault(cur, [])
        elif ln.startswith("@@"):
            hunk = ([], [])
            files[cur].append(hunk)
        elif hunk is not None and ln[:1] in (" ", "-", "+") or (hunk is not None and ln == ""):
            tag, body = (ln[:1], ln[1:]) if ln else (" ", "")
            if tag in " -":
                hunk[0].append(body)
            if tag in " +":
                hunk[1].append(body)
    if not desc or not files:
        raise Error(f"{path.name}: needs '# <what it models>' lines and a unified diff")
    for f in files:
        if f not in allowed:
            raise Error(f"{path.name}: patches {f}; it may patch only {', '.join(allowed)}")
    return " ".join(desc), files


def apply(text, hunks, what):
    for old, new in hunks:
        o, n = "\n".join(old) + "\n", "\n".join(new) + "\n"
        count = text.count(o)
        if count != 1:
            raise Error(f"{what} no longer applies to the file it patches: a hunk's lines "
                        f"are found {count} times (expected once); starts with: "
                        f"{old[0] if old else ''!r}")
        text = text.replace(o, n)
    return text


def catalog(mutants_dir):
    """(queue patches, protocol patches): each {name, models, files}."""
    out = []
    for kind in ("logic", "protocol"):
        out.append([])
        for p in sorted((mutants_dir / kind).glob("*.patch")):
            desc, files = read_patch(p)
            if (kind == "protocol") != (set(files) == set(MEMBERS)):
                raise Error(f"{kind}/{p.name}: a {kind} patch patches "
                            f"{'only protocol.hpp' if kind == 'protocol' else 'the queues'}")
            out[-1].append({"name": p.stem, "models": desc, "files": files})
    return out[0], out[1]


# --- writing the schemata ---------------------------------------------------------------

def weave(fname, text, variants, site_list):
    """text with the variants inserted, dispatches added and site orders hooked."""
    edits = []  # (offset, replace_len, new_text)
    for name, order, a0, a1 in site_list:
        edits.append((a0, a1 - a0, f"mutant_select::order(mutant_select::site::{name}, {order})"))
    fns = parser(fname)(text)
    for fn, start, body_open, end in fns:
        if fn not in variants:
            continue
        tparams, params = signature(text, start, body_open)
        targs = f"<{', '.join(tparams)}>" if tparams else ""
        sig, unnamed = text[start:body_open], [i for i, p in enumerate(params) if p is None]
        if unnamed:  # name them, so that the dispatch can pass them on
            open_ = sig.index("(")
            close = matching_paren(sig, open_)
            ps = split_args(sig[open_ + 1:close])
            for i in unnamed:
                ps[i], params[i] = f"{ps[i]} rq_arg{i}", f"rq_arg{i}"
            sig = sig[:open_ + 1] + ", ".join(ps) + sig[close:]
        call = ", ".join(f"static_cast<decltype({p})&&>({p})" for p in params)
        ind = " " * (len(sig) - len(sig.lstrip(" ")) + 2)
        edits.append((start, body_open - start,
                      "".join(v[1] + "\n" for v in variants[fn]) + sig))
        edits.append((body_open, 0, "".join(
            f"{ind}if (mutant_select::is({vid})) return {fn}__{mname}{targs}({call});\n"
            for mname, _, vid in variants[fn])))
    known = {f[0] for f in fns}
    for fn in variants:
        if fn not in known:
            raise Error(f"{fname}: no function {fn} to dispatch from")
    for off, ln, new in sorted(edits, key=lambda e: (e[0], -e[1]), reverse=True):
        text = text[:off] + new + text[off + ln:]
    return text


def build(core, mutants_dir):
    logic, protocol = catalog(mutants_dir)
    src = {f: (core / "runqcheck" / f).read_text() for f in MUTATED}
    variants = {f: {} for f in MUTATED}
    for vid, m in enumerate(logic + protocol, start=1):
        kind = "logic" if vid <= len(logic) else "protocol"
        for f, hunks in m["files"].items():
            patched = apply(src[f], hunks, f"models/mutants/{kind}/{m['name']}.patch")
            a, b = parser(f)(src[f]), parser(f)(patched)
            if [x[0] for x in a] != [x[0] for x in b]:
                raise Error(f"{m['name']}.patch adds, removes or renames a function of {f}")
            outside_a = "".join(src[f][x[3]:y[1]] for x, y in zip([(0, 0, 0, 0)] + a, a))
            outside_b = "".join(patched[x[3]:y[1]] for x, y in zip([(0, 0, 0, 0)] + b, b))
            if outside_a + src[f][a[-1][3]:] != outside_b + patched[b[-1][3]:]:
                raise Error(f"{m['name']}.patch changes {f} outside a function body")
            changed = 0
            for (fn, s0, o0, e0), (_, s1, o1, e1) in zip(a, b):
                if src[f][s0:e0] != patched[s1:e1]:
                    vt = patched[s1:e1]
                    vt = re.sub(r"\b%s(\s*\()" % re.escape(fn), f"{fn}__{m['name']}\\1", vt,
                                count=1)
                    variants[f].setdefault(fn, []).append((m["name"], vt, vid))
                    changed += 1
            if not changed:
                raise Error(f"{m['name']}.patch changes nothing in {f}")
    site_list = sites(src[SITE_FILE])
    return logic, protocol, src, variants, site_list


def copy_set(core):
    """The mutated headers and every core header that includes one (transitively)."""
    names = {p.name for p in (core / "runqcheck").glob("*.hpp")}
    inc = {n: set(re.findall(r'#include "([\w.]+)"', (core / "runqcheck" / n).read_text()))
           for n in names}
    out = set(MUTATED)
    grew = True
    while grew:
        grew = False
        for n in names:
            if n not in out and inc[n] & out:
                out.add(n)
                grew = True
    return sorted(out)


SELECT = r'''// Generated by models/mutants/schemata.py. Do not edit.
// The mutant under test, read once from RUNQCHECK_MUTANT before main().
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string_view>

#include <runqcheck/backend.hpp>

namespace runqcheck::mutant_select {

enum class site : int { @SITES@ };
inline constexpr const char* site_names[] = {@SITE_NAMES@};
// The patches: models/mutants/logic (the queues), then models/mutants/protocol
// (the wakeup protocol, from index protocol_first on).
inline constexpr const char* logic_names[] = {"none", @LOGIC@};
inline constexpr int protocol_first = @PROTOCOL_FIRST@;

struct selection {
  int logic = 0;
  int site = -1;
  bool plain_slots = false;
};

inline selection parse() {
  selection s;
  const char* env = std::getenv("RUNQCHECK_MUTANT");
  if (env == nullptr || *env == '\0' || std::string_view(env) == "none") return s;
  std::string_view v(env);
  if (v == "plain_slots") {
    s.plain_slots = true;
    return s;
  }
  if (v.rfind("order:", 0) == 0) {
    for (int i = 0; i < static_cast<int>(std::size(site_names)); i++)
      if (v.substr(6) == site_names[i]) return s.site = i, s;
  }
  for (int i = 1; i < static_cast<int>(std::size(logic_names)); i++)
    if (v == logic_names[i]) return s.logic = i, s;
  std::fprintf(stderr, "runqcheck: unknown RUNQCHECK_MUTANT '%s' (models/mutants: "
               "ci/mutants --list names them)\n", env);
  std::exit(2);
}

// Parsed before main(): under Relacy, memory allocated inside a simulation
// must not outlive it.
inline const selection selected = parse();

inline bool is(int logic) { return selected.logic == logic; }
// A protocol mutant is selected (the protocol checkers' name check).
inline bool protocol_selected() { return selected.logic >= protocol_first; }

// One step weaker: seq_cst -> acq_rel -> acquire; acquire, release -> relaxed.
inline std::memory_order order(site s, std::memory_order mo) {
  if (static_cast<int>(s) != selected.site) return mo;
  if (mo == std::memory_order::seq_cst) return std::memory_order::acq_rel;
  if (mo == std::memory_order::acq_rel) return std::memory_order::acquire;
  return std::memory_order::relaxed;
}

// A ring slot: B::atomic<T>, or with plain_slots a plain B::var<T> (orders
// ignored), as Go's slots are.
template <class B, class T>
class slot {
 public:
  slot() = default;
  slot(const slot&) = delete;
  slot& operator=(const slot&) = delete;
  T load(std::memory_order mo, loc l = loc::current()) const {
    return selected.plain_slots ? v_.load(l) : a_.load(mo, l);
  }
  void store(T v, std::memory_order mo, loc l = loc::current()) {
    if (selected.plain_slots) v_.store(v, l);
    else a_.store(v, mo, l);
  }

 private:
  typename B::template atomic<T> a_;
  typename B::template var<T> v_;
};

}  // namespace runqcheck::mutant_select
'''


def write(core, mutants_dir, out):
    logic, protocol, src, variants, site_list = build(core, mutants_dir)
    dst = out / "runqcheck"
    dst.mkdir(parents=True, exist_ok=True)
    files = copy_set(core)
    for f in files:
        text = src.get(f) or (core / "runqcheck" / f).read_text()
        if f in MUTATED:
            text = weave(f, text, variants[f], site_list if f == SITE_FILE else [])
        if f == SITE_FILE:
            ring = "std::array<typename B::template atomic<G*>, Cap>"
            if ring not in text:
                raise Error(f"{f}: the ring type '{ring}' is gone; plain_slots cannot be made")
            text = text.replace(ring, "std::array<mutant_select::slot<B, G*>, Cap>")
        text = re.sub(r'#include "([\w.]+)"',
                      lambda m: (m.group(0) if m.group(1) in files
                                 else f"#include <runqcheck/{m.group(1)}>"),
                      text)
        text = text.replace("#pragma once\n", "#pragma once\n\n#include \"schemata.hpp\"\n", 1)
        n_open = text.count("\nnamespace runqcheck {\n")
        n_close = text.count("\n}  // namespace runqcheck\n")
        if n_open != n_close:
            raise Error(f"{f}: cannot find where namespace runqcheck closes")
        text = text.replace("\nnamespace runqcheck {\n",
                            "\nnamespace runqcheck {\ninline namespace schemata {\n")
        text = text.replace("\n}  // namespace runqcheck\n",
                            "\n}  // namespace schemata\n}  // namespace runqcheck\n")
        text = ("// Generated by models/mutants/schemata.py from core/include/runqcheck/"
                f"{f} and models/mutants. Do not edit.\n") + text
        put(dst / f, text)
    sel = (SELECT.replace("@SITES@", ", ".join(s[0] for s in site_list))
           .replace("@SITE_NAMES@", ", ".join(f'"{s[0]}"' for s in site_list))
           .replace("@LOGIC@", ", ".join(f'"{m["name"]}"' for m in logic + protocol))
           .replace("@PROTOCOL_FIRST@", str(len(logic) + 1)))
    put(dst / "schemata.hpp", sel)
    put(out / "manifest.json", json.dumps(manifest(logic, protocol, site_list), indent=1))


def put(path, text):
    """Write only a changed file: a reconfigure must not rebuild every checker."""
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def write_broken(core, breaks, out):
    """A copy of the port with the given sites' orders spelled relaxed, line for
    line (the disassembly audit's self-test: those accesses must be plain)."""
    text = (core / "runqcheck" / SITE_FILE).read_text()
    known = {s[0]: s for s in sites(text)}
    for b in breaks:
        if b not in known:
            raise Error(f"unknown site '{b}' (schemata.py --manifest lists them)")
    for name, _, a0, a1 in sorted((known[b] for b in breaks), key=lambda s: -s[2]):
        text = text[:a0] + "relaxed" + text[a1:]
    (out / "runqcheck").mkdir(parents=True, exist_ok=True)
    for f in copy_set(core):
        t = text if f == SITE_FILE else (core / "runqcheck" / f).read_text()
        t = re.sub(r'#include "([\w.]+)"', lambda m: m.group(0) if m.group(1) in copy_set(core)
                   else f"#include <runqcheck/{m.group(1)}>", t)
        put(out / "runqcheck" / f, t)


def manifest(logic, protocol, site_list):
    return {"logic": [{"name": m["name"], "models": m["models"],
                       "files": sorted(m["files"])} for m in logic],
            "slots": [{"name": SLOTS[0], "models": SLOTS[1]}],
            "protocol": [{"name": m["name"], "models": m["models"]} for m in protocol],
            "sites": [{"name": s[0], "order": s[1]} for s in site_list]}


def main(argv):
    args = dict(zip(argv[::2], argv[1::2])) if "--manifest" not in argv else {}
    if "--manifest" in argv:
        rest = [a for a in argv if a != "--manifest"]
        args = dict(zip(rest[::2], rest[1::2]))
    core = Path(args.get("--core", Path(__file__).resolve().parents[2] / "core/include"))
    mdir = Path(args.get("--mutants", Path(__file__).resolve().parent))
    try:
        if "--manifest" in argv:
            logic, protocol, _, _, site_list = build(core, mdir)
            print(json.dumps(manifest(logic, protocol, site_list), indent=1))
        elif "--out" in args and "--break" in args:
            write_broken(core, [b for b in args["--break"].split(",") if b], Path(args["--out"]))
        elif "--out" in args:
            write(core, mdir, Path(args["--out"]))
        else:
            print(__doc__, file=sys.stderr)
            return 2
    except (Error, OSError) as e:
        print(f"schemata: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
