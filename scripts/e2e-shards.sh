#!/usr/bin/env bash
# Runs the end-to-end suite as E2E_SHARDS Playwright shards at once (default 2), each against its
# own kupa server on its own fresh database (scripts/e2e.sh with ports E2E_PORT, E2E_PORT+10, ...),
# so no shard sees another's seats or logins. Most of a spec's time is spent waiting on the page
# and the server, so two shards on two cores take little more than half the time of one.
# Each shard's output is printed whole when it ends, passing shards first, and the failing tests of
# every shard are listed once more at the very end, where a CI log's tail shows them; the run fails
# when any shard fails.
set -uo pipefail
cd "$(dirname "$0")/.."
shards="${E2E_SHARDS:-2}"
base="${E2E_PORT:-18080}"
mkdir -p web/e2e-artifacts
pids=()
for i in $(seq 1 "$shards"); do
  E2E_TAG="-$i" E2E_PORT=$((base + (i - 1) * 10)) scripts/e2e.sh --shard="$i/$shards" "$@" \
    >"web/e2e-artifacts/shard-$i.log" 2>&1 &
  pids+=($!)
done
status=0
failed=()
for i in $(seq 1 "$shards"); do
  if wait "${pids[$((i - 1))]}"; then
    echo "::: e2e shard $i/$shards passed"
    cat "web/e2e-artifacts/shard-$i.log"
  else
    status=1
    failed+=("$i")
  fi
done
for i in "${failed[@]}"; do
  echo "::: e2e shard $i/$shards FAILED"
  cat "web/e2e-artifacts/shard-$i.log"
done
if [ "$status" -ne 0 ]; then
  echo "::: e2e: what failed or was flaky, shard by shard"
  for i in "${failed[@]}"; do
    echo "shard $i/$shards:"
    grep -E '✘|^ +[0-9]+\) |failed|flaky|Error:' "web/e2e-artifacts/shard-$i.log" | head -40
  done
fi
exit $status
