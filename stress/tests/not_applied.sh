#!/bin/sh
# A stand-in stress binary for which no workload applies (test
# stress/cli_protocol_column_not_applied): protocol_column.sh must exit 77.
echo "runqcheck: not applied: stress workload: no hook (protocol stand-in)"
