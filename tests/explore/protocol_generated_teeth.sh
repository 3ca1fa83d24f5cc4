#!/bin/sh
# tests/explore/protocol_generated_teeth.sh BINARY MUTANT ARGS... — passes iff
# generated_protocol BINARY (on the mutant schemata) with ARGS fails under
# RUNQCHECK_MUTANT=MUTANT, prints the shrunk program and a replay: line, and
# that line fails again, and so does `run FILE` on the file it saved, whose
# `# run it:` line names BINARY.
bin=${1:?usage: protocol_generated_teeth.sh BINARY MUTANT ARGS...}
mut=${2:?usage: protocol_generated_teeth.sh BINARY MUTANT ARGS...}
shift 2
out=$(RUNQCHECK_MUTANT=$mut "$bin" "$@" 2>&1)
rc=$?
printf '%s\n' "$out" | grep -v '^generated_protocol [^ ]*: cut by the budget'
[ "$rc" -eq 1 ] || { echo "teeth: $mut: exit $rc, expected 1 (a failure)"; exit 1; }
printf '%s\n' "$out" | grep -q '^  program: ' || { echo "teeth: $mut: no shrunk program"; exit 1; }
line=$(printf '%s\n' "$out" | sed -n 's/^replay: RUNQCHECK_MUTANT=[^ ]* //p' | head -1)
[ -n "$line" ] || { echo "teeth: $mut: no replay: line"; exit 1; }
again=$(eval "RUNQCHECK_MUTANT=$mut $line" 2>&1)
printf '%s\n' "$again" | grep -q 'replay .*: FAILED' \
  || { echo "teeth: $mut: the replay did not fail: $again"; exit 1; }
file=$(printf '%s\n' "$out" | sed -n 's/^  saved: //p' | head -1)
[ -f "$file" ] || { echo "teeth: $mut: no saved file ($file)"; exit 1; }
grep -q "^# run it: $(basename "$bin") run FILE" "$file" \
  || { echo "teeth: $mut: the saved file's '# run it:' names no $(basename "$bin")"; exit 1; }
rerun=$(RUNQCHECK_MUTANT=$mut "$bin" run "$file" 2>&1)
rc=$?
[ "$rc" -eq 1 ] && printf '%s\n' "$rerun" | grep -q ': FAILED under ' \
  || { echo "teeth: $mut: run $file did not fail again (exit $rc): $rerun"; exit 1; }
echo "teeth: $mut: killed, replay and the saved file fail again"
