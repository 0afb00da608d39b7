#!/usr/bin/env bash
# Two Kupa nodes on one PostgreSQL, for trying several nodes by hand (`make run-cluster`) and for
# the two-node end-to-end test. Usage:
#   scripts/cluster.sh BINARY ADMIN_URL DATABASE PORT_A PORT_B [extra kupa serve flags...]
# Creates DATABASE on the PostgreSQL of ADMIN_URL if it is missing, loads the demo chain into it
# once (`kupa seed --demo`), starts a node on each port, waits until both answer, and stops both
# when it is interrupted or either node exits. Logs go to target/cluster-PORT.log.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$1" admin="$2" name="$3" port_a="$4" port_b="$5"
shift 5
[ -x "$bin" ] || { echo "cluster: $bin not built"; exit 1; }
command -v psql >/dev/null || { echo "cluster: psql not found (apt-get install -y postgresql-client)"; exit 1; }
[[ "$name" =~ ^[a-z_][a-z0-9_]*$ ]] || { echo "cluster: database name must be lower-case letters, digits and _"; exit 1; }
psql -q "$admin" -v ON_ERROR_STOP=1 -tAc "SELECT 1 FROM pg_database WHERE datname = '$name'" | grep -q 1 \
  || psql -q "$admin" -v ON_ERROR_STOP=1 -c "CREATE DATABASE $name" >/dev/null
url="$(python3 -c 'import sys,urllib.parse as u; p=u.urlsplit(sys.argv[1]); print(u.urlunsplit(p._replace(path="/"+sys.argv[2])))' "$admin" "$name")"
# The catalogue is loaded once, before the nodes start (two nodes seeding at once would race).
KUPA_DATABASE_URL="$url" "$bin" seed --demo 2>&1 | grep -v "already" || true

mkdir -p target
pids=()
stop() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
}
trap stop EXIT INT TERM
for port in "$port_a" "$port_b"; do
  KUPA_DATABASE_URL="$url" "$bin" serve --addr "127.0.0.1:$port" "$@" >"target/cluster-$port.log" 2>&1 &
  pids+=($!)
done
for port in "$port_a" "$port_b"; do
  for _ in $(seq 1 150); do
    curl -sf "http://127.0.0.1:$port/api/health" >/dev/null && break
    sleep 0.2
  done
  curl -sf "http://127.0.0.1:$port/api/health" >/dev/null \
    || { echo "cluster: the node on $port did not come up:"; cat "target/cluster-$port.log"; exit 1; }
done
echo "Kupa: two nodes on one PostgreSQL database ($name):"
echo "  http://127.0.0.1:$port_a   (log target/cluster-$port_a.log)"
echo "  http://127.0.0.1:$port_b   (log target/cluster-$port_b.log)"
echo "Hold a seat on one and watch it turn grey on the other. Ctrl-C stops both."
if [ -n "${KUPA_CLUSTER_READY_FILE:-}" ]; then echo "$url" >"$KUPA_CLUSTER_READY_FILE"; fi
wait -n "${pids[@]}"
echo "cluster: a node exited; stopping the other"
