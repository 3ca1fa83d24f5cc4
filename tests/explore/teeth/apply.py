#!/usr/bin/python3
"""The exploring engine broken on purpose: a copy of engine/explore with one patch of
tests/explore/teeth applied, for a teeth build (cmake/explore.cmake's _rq_explore_selftest
PATCH). The engine has no fault switches of its own; each fault is a patch here, applied
exactly (its removed lines found once) by the mutants' patch reader (models/mutants/
schemata.py), so a patch that no longer fits the engine fails the configuration, named.

usage: apply.py SRC_DIR PATCH OUT_DIR   (writes OUT_DIR/explore/*.hpp)
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "models" / "mutants"))
import schemata  # noqa: E402

ENGINE = ("graph.hpp", "consistency.hpp", "engine.hpp", "observe.hpp", "runtime.hpp",
          "search.hpp")


def main(argv):
    if len(argv) != 4:
        sys.stderr.write("usage: apply.py SRC_DIR PATCH OUT_DIR\n")
        return 2
    src, patch, out = Path(argv[1]), Path(argv[2]), Path(argv[3]) / "explore"
    try:
        _, files = schemata.read_patch(patch, allowed=ENGINE)
        out.mkdir(parents=True, exist_ok=True)
        for f in sorted(src.glob("*.hpp")):
            text = f.read_text()
            if f.name in files:
                text = schemata.apply(text, files[f.name], f"tests/explore/teeth/{patch.name}")
            schemata.put(out / f.name, text)
    except (schemata.Error, OSError) as e:
        sys.stderr.write(f"explore teeth: {e}\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
