#!/bin/sh
# explore_protocol --lock-classes against tests/explore/lock_classes.py (an
# oracle written apart from the engine, on the trace): on injectglist_no_p,
# SC, the run's count of complete graphs is the oracle's, and its classes
# are 11: the oracle's 10 graphs up to the order of critical sections and
# to co (the trace shows no co), with one pair that only co tells apart
# (measured: the engine's count with co left out is 10). A class hash that
# kept the lock's rf (63) or dropped co (10) fails.
# Usage: lock_classes.sh EXPLORE_PROTOCOL LOCK_CLASSES_PY
set -eu
bin=$1 py=$2
out=$(RUNQCHECK_CASE=injectglist_no_p "$bin" sc --lock-classes)
echo "$out"
echo "$out" | grep -q "injectglist_no_p SC: 63 complete graphs, 11 classes" ||
  { echo "lock_classes: expected 63 complete graphs, 11 classes"; exit 1; }
oracle=$(RUNQCHECK_CASE=injectglist_no_p EXPLORE_TRACE=1 "$bin" sc | /usr/bin/python3 "$py")
echo "oracle: $oracle"
[ "$oracle" = "63 complete graphs, 10 classes" ] ||
  { echo "lock_classes: the oracle counted '$oracle'"; exit 1; }
