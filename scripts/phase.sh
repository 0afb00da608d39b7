#!/usr/bin/env bash
# phase.sh NAME COMMAND...: runs COMMAND and prints how long it took (CI reads these lines).
set -uo pipefail
name="$1"; shift
t0=$(date +%s)
echo "::: $name"
"$@"
status=$?
echo "::: $name took $(( $(date +%s) - t0 ))s (exit $status)"
exit $status
