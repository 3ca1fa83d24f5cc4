"""The failing columns' files in one folder that a CI job uploads as an artifact, and the
merge of several such folders (ci/verdict.py --artifacts DIR / --merge DIR; docs/porting.md,
section 7).

A gate's build dir B (its preset P) is collected into DIR/<B's name>/: B's junit.xml,
runqcheck_columns.json and stage-failed with every path made portable (B written as
$RUNQCHECK_BUILD/<B's name>, the gate's directory as relative paths, runqcheck's tree as
$RUNQCHECK_ROOT), and, where a check failed, B's logs, each failing test's output
(output/<test>.txt) and the files its output names under B (pictures, their paths made
portable too, saved programs, fuzzer inputs) at their paths below B. collected.json records
the preset, the shard and each failure's location, found while the original paths still
resolve. SARIF then names these files relative to DIR (uriBaseId RUNQCHECK_ARTIFACT) and no
path of the machine.

--merge DIR reads every collected folder below DIR back (the shards' artifacts, each
downloaded into its own folder) as one verdict, after checking that no shard is missing.
"""
import json
import re
import shutil
from pathlib import Path

META = "collected.json"
BASE = "RUNQCHECK_ARTIFACT"  # SARIF's uriBaseId of the artifact's files
# Files a failing test's output names besides its pictures: a program the generated
# column saved, an input libFuzzer wrote.
NAMED_FILE = re.compile(r"^\s*saved: (/\S+)$|Test unit written to (/\S+)", re.M)
# The root's guide to the failures' lines (ci/gate keeps a folder that holds one), and how
# its first line starts.
README, README_HEAD = "REPRODUCE.txt", "runqcheck gate"
# What the gate's logs of a build dir are.
LOGS = ("build.log", "junit.log", "ctest-port.log")


def safe_name(test: str) -> str:
    """A test's name as a file name: `explore/weak` -> `explore__weak`."""
    return re.sub(r"[^\w.+-]", "_", test.replace("/", "__"))


class Artifacts:
    """The artifact folder root and how paths are written in it. runs: [(preset, dir)];
    srcroot: the gate's directory (the repository); tree: runqcheck's tree. Who calls:
    ci/verdict.py, after it read the runs' results and before it prints them."""

    def __init__(self, root: Path, srcroot: Path, tree: Path, runs, shard: str = "",
                 columns=None, subjects=(), specs=None):
        self.root = root.resolve()
        self.srcroot = srcroot.resolve()
        self.shard = shard
        self.columns = sorted(columns) if columns else None  # the gate's --columns titles
        # the verdict's subjects, as it finds them (a build that failed names no test)
        self.subjects = subjects
        self.specs = specs or {}  # subject -> its spec as the gate passed it
        self.out = {}  # run dir -> its collected folder
        self.copied = {}  # a copy outside a run's own files -> the file it copies
        subst = []
        for _, d in runs:
            meta = self.meta(d)
            if meta is None:
                name, n = d.name, 2
                while (self.root / name) in self.out.values():
                    name, n = f"{d.name}-{n}", n + 1
                self.out[d] = self.root / name
            else:
                self.out[d] = d.resolve()
            label = f"$RUNQCHECK_BUILD/{self.out[d].name}"
            subst += [(str(d), label), (str(d.resolve()), label)]
        subst += [(str(self.srcroot) + "/", ""), (str(self.srcroot), "."),
                  (str(tree.resolve()), "$RUNQCHECK_ROOT"),
                  (str(self.root), "$RUNQCHECK_ARTIFACT")]
        # longest first: a build dir inside the repository is the build dir's. A path only
        # where one starts, with the `../` that reach it from a build dir (ccache's
        # CCACHE_BASEDIR makes the compiler's paths so).
        start = r"(?:(?<![\w.+/-])|(?<=-I))(?:\.\.(?:/\.\.)*)?"  # `-I`, `../` may lead
        self.subst = [(re.compile(start + re.escape(old) + ("" if old.endswith("/")
                                                             else r"(?![\w.+-])")), new)
                      for old, new in sorted({s for s in subst if s[0] not in ("", "/")},
                                             key=lambda s: -len(s[0]))]

    @staticmethod
    def meta(d: Path):
        """collected.json of a collected folder d, else None."""
        try:
            return json.loads((d / META).read_text())
        except (OSError, ValueError):
            return None

    def portable(self, text: str) -> str:
        """text with the machine's paths written as above."""
        for old, new in self.subst:
            text = old.sub(new.replace("\\", "\\\\"), text)
        return text

    def rel(self, p: Path) -> str:
        """p, a file in the folder, as its path there (SARIF's uri under BASE)."""
        return p.resolve().relative_to(self.root).as_posix()

    def file_of(self, d: Path, named: str):
        """The file a failure of run d names (as the test printed it, or portable), else None."""
        label = f"$RUNQCHECK_BUILD/{self.out[d].name}/"
        p = self.out[d] / named[len(label):] if named.startswith(label) else Path(named)
        return p if p.is_absolute() and p.is_file() else None

    def _copy(self, d: Path, src: Path, text: bool = False):
        """src (a file of run d, or any file) into run d's collected folder; its copy."""
        src = src.resolve()
        out = self.out[d]
        if src.is_relative_to(d.resolve()):
            dst = out / src.relative_to(d.resolve())
        else:  # files/NAME; two files of one name (two ports' ring.hpp): their folders too
            parts = src.parts[1:]
            dst = next(c for k in range(1, len(parts) + 1)
                       for c in [out / "files" / Path(*parts[-k:])]
                       if self.copied.setdefault(c, src) == src)
        dst.parent.mkdir(parents=True, exist_ok=True)
        if text:
            dst.write_text(self.portable(src.read_text(errors="replace")))
        else:
            shutil.copyfile(src, dst)
        return dst

    def collect(self, preset: str, d: Path, failures, where) -> None:
        """Run d's results and its failures' files into its collected folder, and each
        failure f rewritten to name them (f["art"]: pictures, files, output, logs relative
        to the root; f["site"]: its location, from where(f) on the original paths).
        Nothing to copy for a run that is itself a collected folder (--merge)."""
        out = self.out[d]
        meta = self.meta(d)
        if meta is None:
            out.mkdir(parents=True, exist_ok=True)
            for name in ("junit.xml", "runqcheck_columns.json", "stage-failed"):
                if (d / name).is_file():
                    (out / name).write_text(self.portable((d / name).read_text(errors="replace")))
            if failures:
                for name in LOGS:
                    if (d / name).is_file():
                        self._copy(d, d / name, text=True)
            sites = []
        else:
            sites = meta.get("sites", [])
        for f in failures:
            key = {"subject": f["subject"], "test": f["test"]}
            site = next((s for s in sites if {k: s.get(k) for k in key} == key), None)
            if site is None and meta is None:
                site = dict(key, **self._site(d, where(f)))
                sites.append(site)
            named = [m.group(1) or m.group(2) for m in NAMED_FILE.finditer(f.get("out", ""))]
            art = {"pictures": [], "files": [], "output": None, "logs": []}
            for kind, paths in (("pictures", f["pictures"]), ("files", named)):
                for p in paths:
                    src = self.file_of(d, p)
                    if src is not None:
                        # a page's text names its replay command: portable too
                        page = kind == "pictures" and src.suffix == ".html"
                        dst = src if meta is not None else self._copy(d, src, text=page)
                        art[kind].append(self.rel(dst))
            output = out / "output" / (safe_name(f["test"]) + ".txt")
            if meta is None and f.get("out") and not f.get("stage"):
                output.parent.mkdir(parents=True, exist_ok=True)
                output.write_text(self.portable(f["out"]))
            if output.is_file():
                art["output"] = self.rel(output)
            art["logs"] = [self.rel(out / n) for n in LOGS if (out / n).is_file()]
            f["art"] = art
            if site is not None:
                f["site"] = site
            f["reason"] = self.portable(f["reason"])
            f["repro"] = [self.portable(r) for r in f["repro"]]
            f["pictures"] = art["pictures"]
            f["witness"] = [self.portable(w) for w in f["witness"]]
        if meta is None:
            (out / META).write_text(json.dumps(
                {"preset": preset, "shard": self.shard or None, "columns": self.columns,
                 "subjects": list(self.subjects), "sites": sites,
                 "specs": {n: self.portable(x) for n, x in self.specs.items()}},
                indent=1) + "\n")

    def write_reproduce(self, fails, specs) -> None:
        """REPRODUCE.txt at the root: the failures' lines and how to run them away from the
        build dir they name. fails: [(subject, failure, column ids)]; specs: {subject: spec}."""
        out = [f"{README_HEAD}: the failures' files of one gate run (docs/porting.md, "
               "section 7, \"Artifacts\").",
               "<preset>/output/<test>.txt is a failing test's output; the pictures (.html) "
               "open in a browser as they are.",
               "The replay: and reproduce: lines run programs of the gate's build dir, which "
               "this folder does not hold",
               "($RUNQCHECK_BUILD: that build dir; $RUNQCHECK_ROOT: runqcheck's tree, "
               "PREFIX/share/runqcheck). Elsewhere,",
               "build the failing column again from your repository (its rebuild: line), "
               "then run the lines with",
               "  export RUNQCHECK_BUILD=DIR RUNQCHECK_ROOT=PREFIX/share/runqcheck",
               "A file $RUNQCHECK_BUILD/P/X that this folder holds (a log, a picture, a saved "
               "program) is here as P/X.", "",
               "failures:"]
        # a merge's specs: the shards' (their collected.json)
        known = {n: x for d in self.out.values() for n, x in
                 ((self.meta(d) or {}).get("specs") or {}).items()}
        known.update({n: self.portable(x) for n, x in specs.items()})
        for s, f, cols in fails:
            spec = known.get(s, "SPEC")
            preset = f["preset"].split(",")[0]
            out += [f"  {s}, {' / '.join(cols)}: {f['test']} [{f['preset']}]",
                    f"    reason: {f['reason']}",
                    f"    rebuild: runqcheck gate --subject '{spec}' --presets {preset} "
                    f"--columns {','.join(cols)} --build-dir DIR"]
            out += [f"    {r}" if r.startswith(("replay:", "reproduce:", "log:"))
                    else f"    reproduce: {r}" for r in f["repro"]]
            out += [f"    picture: {p}" for p in f["pictures"]]
        (self.root / README).write_text("\n".join(out) + "\n")

    def _site(self, d: Path, at) -> dict:
        """where()'s (path, line, how) as a location: in the repository (SRCROOT), else a
        copy in the artifact (a log, a file of the build dir)."""
        p, line, how = Path(at[0]).resolve(), at[1], at[2]
        if not p.is_relative_to(d.resolve()) and p.is_relative_to(self.srcroot):
            return {"uri": p.relative_to(self.srcroot).as_posix(), "base": "SRCROOT",
                    "line": line, "how": how}
        if p.is_file():
            return {"uri": self.rel(self._copy(d, p, text=True)), "base": BASE, "line": line,
                    "how": how}
        return {"uri": p.name, "base": BASE, "line": line, "how": how}


def merged_runs(root: Path):
    """([(preset, dir, shard)], columns, subjects, error): every collected folder below
    root, in path order; the column titles they ran (None: every column) and their gates'
    subjects; error names a shard that none holds ("" when each shard I/N of 0..N-1 is
    there). Who calls: ci/verdict.py --merge."""
    runs, columns, subjects = [], set(), []
    for m in sorted(root.rglob(META)):
        meta = Artifacts.meta(m.parent)
        if meta and meta.get("preset"):
            runs.append((meta["preset"], m.parent, meta.get("shard") or ""))
            if columns is not None:
                columns = None if meta.get("columns") is None else columns | set(meta["columns"])
            subjects += [s for s in meta.get("subjects", []) if s not in subjects]
    if not runs:
        return [], None, [], (f"no verdict below {root} (no {META}: download the jobs' "
                              "artifacts there)")
    have = {}
    for _, _, s in runs:
        if s:
            i, n = map(int, s.split("/"))
            have.setdefault(n, set()).add(i)
    for n, got in sorted(have.items()):
        gone = [f"{i}/{n}" for i in range(n) if i not in got]
        if gone:
            return runs, columns, subjects, (
                f"shard {', '.join(gone)} missing below {root} (its job uploaded no artifact: "
                "it failed before the gate, or was cancelled)")
    return runs, columns, subjects, ""
