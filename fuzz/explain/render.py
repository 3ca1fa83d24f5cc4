#!/usr/bin/env python3
"""Render a runqcheck trace into the swimlane page, as `runqcheck explain` does.

    fuzz/explain/render.py TRACE.json OUT.html [--template swimlane.html]

Does the substitution the C++ side does, so the page can be tested without
it: the one line `/*@RUNQCHECK_TRACE_JSON@*/null` of the template becomes the
trace JSON with every '<' written as \\u003c (a string such as "</script>"
cannot end the <script> element). Exit 0, or 2 with one line on error.
"""
import json
import os
import sys

TOKEN = "/*@RUNQCHECK_TRACE_JSON@*/null"
TEMPLATE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "swimlane.html")


def embed(trace_text: str) -> str:
    """The JSON as it goes into the page: compact, '<' escaped."""
    trace = json.loads(trace_text)
    if not isinstance(trace, dict) or trace.get("format") != "runqcheck-trace":
        raise ValueError('not a runqcheck trace (want "format": "runqcheck-trace")')
    text = json.dumps(trace, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c")


def render(template: str, trace_text: str) -> str:
    lines = template.split("\n")
    slots = [i for i, line in enumerate(lines) if line.strip() == TOKEN]
    if len(slots) != 1 or template.count(TOKEN) != 1:
        raise ValueError("template must hold the placeholder exactly once, on its own line "
                         f"(found {template.count(TOKEN)})")
    lines[slots[0]] = embed(trace_text)
    return "\n".join(lines)


def main(argv):
    args = list(argv[1:])
    template_path = TEMPLATE
    if "--template" in args:
        k = args.index("--template")
        if k + 1 >= len(args):
            print("render.py: --template needs a file", file=sys.stderr)
            return 2
        template_path = args[k + 1]
        del args[k:k + 2]
    if len(args) != 2:
        print("usage: render.py TRACE.json OUT.html [--template swimlane.html]", file=sys.stderr)
        return 2
    try:
        with open(args[0], encoding="utf-8") as f:
            trace_text = f.read()
        with open(template_path, encoding="utf-8") as f:
            template = f.read()
        page = render(template, trace_text)
    except (OSError, ValueError) as e:  # json.JSONDecodeError is a ValueError
        print(f"render.py: {args[0]}: {e}", file=sys.stderr)
        return 2
    with open(args[1], "w", encoding="utf-8") as f:
        f.write(page)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
