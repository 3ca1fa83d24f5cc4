#!/bin/sh
# tests/explore/advice_strict.sh BINARY — BINARY: the catalog under the engine
# for acme::strict (examples/acme_runq: workq whose runqput tail store,
# `Publish`, is seq_cst where release suffices). Passes iff `BINARY rc11
# --advise` passes the port, reports that store as `store seq_cst ->
# release`, says that each weakening was checked alone, and reports no
# weakening of a store that publishes Gs (no `store release -> relaxed`: the
# tail stores, which owner_vs_thief needs).
bin=${1:?usage: advice_strict.sh EXPLORE_BINARY}
out=$("$bin" rc11 --advise 2>&1) || { echo "advice_strict: the port failed"; exit 1; }
adv=$(printf '%s\n' "$out" | grep '^advice: ')
printf '%s\n' "$adv"
# shellcheck disable=SC2046 # file and line, two words
set -- $(printf '%s\n' "$adv" |
  sed -n 's/^advice: stronger than needed: \(.*\):\([0-9]*\): store seq_cst -> release .*/\1 \2/p')
[ $# -eq 2 ] || { echo "advice_strict: the seq_cst store is not reported"; exit 1; }
sed -n "${2}p" "$1" | grep -q 'last.store(l + 1, Publish)' \
  || { echo "advice_strict: $1:$2 is not acme::strict's seq_cst store"; exit 1; }
printf '%s\n' "$adv" | grep -q 'store release -> relaxed' \
  && { echo "advice_strict: a publishing store reported weaker"; exit 1; }
printf '%s\n' "$adv" | grep -q '^advice: each weakening was checked alone; two together' \
  || { echo "advice_strict: the bound of the claim is not said"; exit 1; }
echo "advice_strict: the seq_cst store is reported stronger than needed, no publishing store"
