#!/bin/sh
# tests/explore/advice.sh BINARY MODELS MARK FIX — BINARY: a failing port's
# catalog under the engine (RUNQCHECK_MUTANT from the environment). Passes
# iff `BINARY MODELS --advise` fails the port, then advises one site alone,
# as `FIX makes all N scenarios pass` (N: every scenario of `BINARY list`
# that MODELS run),
# on a line of the port's source that holds MARK.
# explore_advice: explore__mutants with order:runqput_tail_store, rc11,
# runqput_tail_store, `store relaxed -> release`; explore_advice/lb_port:
# examples/lb_port, lb,c11, THE BUG, `load relaxed -> acquire`.
bin=${1:?usage: advice.sh BINARY MODELS MARK FIX}
models=${2:?}; mark=${3:?}; fix=${4:?}
case ",$models," in  # lb_catalog's scenarios run under LB and C11 only
  *,lb,* | *,c11,* | *,all,*) n=$("$bin" list | wc -l) ;;
  *) n=$("$bin" list | grep -vc '(lb, c11 only)') ;;
esac
out=$("$bin" "$models" --advise 2>&1) && { echo "advice.sh: the port passed"; exit 1; }
adv=$(printf '%s\n' "$out" | grep '^advice: ')
[ -n "$adv" ] || { echo "advice.sh: no advice printed"; exit 1; }
printf '%s\n' "$adv"
want="$fix makes all $n scenarios pass"
# shellcheck disable=SC2046 # file and line, two words
set -- $(printf '%s\n' "$adv" | sed -n "s/^advice: \(.*\):\([0-9]*\): $want .*/\1 \2/p")
[ $# -eq 2 ] || { echo "advice.sh: no $want advised"; exit 1; }
sed -n "${2}p" "$1" | grep -qF "$mark" || { echo "advice.sh: $1:$2 does not hold $mark"; exit 1; }
[ "$(printf '%s\n' "$adv" | grep -c ' -> ')" -eq 1 ] \
  || { echo "advice.sh: another site advised too"; exit 1; }
echo "advice.sh: the advice names the line that holds $mark, checked on all $n scenarios"
