#!/bin/sh
# tests/differential/diff_lines.sh CPP_LINE GO_LINE — the two outcome lines that differ,
# as run_diff.sh prints them under its FAIL line: each whole when short; a long one (a
# full ring's 256 Gs, a drain's list) as its first four words (what the line is: "P0
# runnext -1 ring") and the words around the first that differs, with its word count.
[ $# -eq 2 ] || { echo "usage: diff_lines.sh CPP_LINE GO_LINE" >&2; exit 2; }
awk -v a="$1" -v b="$2" '
  function show(tag, s, w, n,    out, i) {
    if (length(s) <= 160) { print "  " tag s; return }
    out = w[1] " " w[2] " " w[3] " " w[4]
    if (k - 3 > 5) out = out " ..."
    for (i = (k - 3 > 5 ? k - 3 : 5); i <= n && i <= k + 3; i++) out = out " " w[i]
    if (k + 3 < n) out = out " ..."
    print "  " tag out "  (" n " words)"
  }
  BEGIN {
    n = split(a, x, " "); m = split(b, y, " ")
    for (k = 1; k <= n && k <= m && x[k] == y[k]; k++) {}
    show("C++: ", a, x, n); show("Go:  ", b, y, m)
    if (length(a) > 160 || length(b) > 160) print "  (they differ first at word " k ")"
  }'
