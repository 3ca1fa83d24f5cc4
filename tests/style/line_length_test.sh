#!/bin/sh
# ci/line_length.py fails on a line of 101 columns (and names it), passes on
# 100, then holds the project's own tracked code to the limit.
# usage: line_length_test.sh ROOT SCRATCH
root=$1 tmp=$2
rm -rf "$tmp" && mkdir -p "$tmp/ci" || exit 1
printf '%0100d\n' 0 > "$tmp/ok.cpp"
printf '%0100d\n' 0 > "$tmp/ci/gate"
out=$(/usr/bin/python3 "$root/ci/line_length.py" "$tmp") ||
  { echo "line_length_test: 100 columns rejected: $out"; exit 1; }
printf '%0101d\n' 0 > "$tmp/ci/gate"
out=$(/usr/bin/python3 "$root/ci/line_length.py" "$tmp") &&
  { echo "line_length_test: 101 columns in ci/gate passed: $out"; exit 1; }
case $out in
  *"ci/gate:1: 101 columns"*) ;;
  *) echo "line_length_test: the long line is not named: $out"; exit 1 ;;
esac
exec /usr/bin/python3 "$root/ci/line_length.py" "$root"
