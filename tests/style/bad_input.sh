#!/bin/sh
# tests/style/bad_input.sh BINARY 'ARGS' ... — each ARGS (split on blanks) is bad
# input to BINARY: it must exit 2 with one line on stderr and nothing on stdout,
# never run, pass or crash. Exit 0 if every one does.
bin=${1:?usage: bad_input.sh BINARY 'ARGS' ...}
shift
bad=0
for args in "$@"; do
  err=$(mktemp)
  # shellcheck disable=SC2086 # ARGS are words
  out=$(timeout 60 "$bin" $args 2>"$err")
  rc=$?
  lines=$(wc -l <"$err")
  if [ "$rc" -ne 2 ] || [ "$lines" -ne 1 ] || [ -n "$out" ]; then
    echo "bad_input.sh: FAILED: $bin $args: exit $rc (want 2), $lines line(s) on stderr (want 1)"
    sed 's/^/  stdout: /' <<EOT
$out
EOT
    sed 's/^/  stderr: /' "$err"
    bad=1
  else
    echo "ok: $bin $args: $(cat "$err")"
  fi
  rm -f "$err"
done
exit "$bad"
