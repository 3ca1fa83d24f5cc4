#!/bin/sh
# tests/explore/race_cause.sh BINARY [WANT] — BINARY: the catalog under the engine for
# a port with a data race. Passes iff it fails with a data race, no cause names a read
# made by a hook (runq_counters, describe_p: the checker's own, not the port's) and,
# given WANT, a cause holds it.
bin=${1:?usage: race_cause.sh EXPLORE_BINARY [WANT]}
out=$("$bin" sc 2>&1) && { echo "race_cause: the port passed"; exit 1; }
races=$(printf '%s\n' "$out" | grep 'data race on ')
[ -n "$races" ] || { printf '%s\n' "$out" | tail -5; echo "race_cause: no data race"; exit 1; }
printf '%s\n' "$races" | head -3 | cut -c1-300
if printf '%s\n' "$races" | grep -E '\((set_)?runq_counters|describe_(p|sched)\)'; then
  echo "race_cause: a cause names a hook's access"
  exit 1
fi
if [ -n "$2" ] && ! printf '%s\n' "$races" | grep -qF -- "$2"; then
  echo "race_cause: no cause holds '$2'"
  exit 1
fi
echo "race_cause: every cause names the port's own accesses${2:+, one '$2'}"
