#!/usr/bin/env bash
# Starts a debug kupa server in test mode on a fresh SQLite database with the demo chain, runs the
# Playwright suite against it in Debian's Chromium, and stops the server whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."
port="${E2E_PORT:-18080}"
chromium="${KUPA_CHROMIUM:-/usr/bin/chromium}"
[ -x "$chromium" ] || { echo "e2e: $chromium not found; install Debian's chromium (apt-get install -y chromium)"; exit 1; }
[ -x target/debug/kupa ] || { echo "e2e: target/debug/kupa not built (make build-debug)"; exit 1; }
[ -f web/dist/index.html ] || { echo "e2e: web/dist not built (make web-build)"; exit 1; }

work="$(mktemp -d)"
mkdir -p web/e2e-artifacts
# E2E_TAG names this run's logs and Playwright output when several runs share the folder
# (scripts/e2e-shards.sh).
tag="${E2E_TAG:-}"
log="web/e2e-artifacts/server${tag}.log"
cluster_log="web/e2e-artifacts/cluster${tag}.log"
# Rate limits set explicitly: every spec runs from 127.0.0.1, so the per-address limits are wider
# than a box office's defaults; the per-session ones are the defaults.
export KUPA_RATE_LIMITS="${KUPA_RATE_LIMITS:-lock.session=60/1m,lock.address=5000/1m,sms.session=5/10m,sms.address=500/10m,login.session=10/10m,login.address=500/10m,code.address=2000/10m,cart.address=5000/10m}"
# Seats held per address likewise: every spec's buyer is 127.0.0.1; per customer and the ceiling
# are the defaults.
export KUPA_HOLD_LIMITS="${KUPA_HOLD_LIMITS:-address=5000}"
# The per-address connection and event stream caps too: all the browsers are on 127.0.0.1.
export KUPA_MAX_CONNECTIONS_PER_ADDRESS="${KUPA_MAX_CONNECTIONS_PER_ADDRESS:-2000}"
export KUPA_MAX_EVENT_STREAMS_PER_ADDRESS="${KUPA_MAX_EVENT_STREAMS_PER_ADDRESS:-500}"
# Four interface languages (the buyer's he and en, and ru and ar: web/e2e/languages.spec.ts),
# and a tenant's own words over the Russian catalogue (scripts/e2e-wording.json).
export KUPA_LOCALES="${KUPA_LOCALES:-he,en,ru,ar}"
export KUPA_WORDING="${KUPA_WORDING:-scripts/e2e-wording.json}"
KUPA_DATABASE_URL="sqlite:$work/e2e.db" KUPA_LOG=warn,kupa=info \
  ./target/debug/kupa serve --demo --test-mode --addr "127.0.0.1:$port" \
  --redirect-allow-list partner.example >"$log" 2>&1 &
server=$!
cluster=""
cluster_db=""
cleanup() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  if [ -n "$cluster" ]; then
    kill "$cluster" 2>/dev/null || true
    wait "$cluster" 2>/dev/null || true
    psql -q "$KUPA_TEST_POSTGRES_URL" -c "DROP DATABASE IF EXISTS $cluster_db WITH (FORCE)" >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# With PostgreSQL, two more nodes share a fresh database, for the test that watches a seat held
# on one node turn unavailable on the other (web/e2e/two-nodes.spec.ts).
if [ -n "${KUPA_TEST_POSTGRES_URL:-}" ]; then
  cluster_db="kupa_e2e_$(date +%s)_$$"
  KUPA_CLUSTER_READY_FILE="$work/cluster-ready" KUPA_LOG=warn,kupa=info \
    scripts/cluster.sh ./target/debug/kupa "$KUPA_TEST_POSTGRES_URL" "$cluster_db" \
    "$((port + 1))" "$((port + 2))" --test-mode >"$cluster_log" 2>&1 &
  cluster=$!
fi

for _ in $(seq 1 150); do
  if curl -sf "http://127.0.0.1:$port/api/health" >/dev/null; then break; fi
  kill -0 "$server" 2>/dev/null || { echo "e2e: the server exited:"; cat "$log"; exit 1; }
  sleep 0.2
done
curl -sf "http://127.0.0.1:$port/api/health" >/dev/null || { echo "e2e: the server did not come up:"; cat "$log"; exit 1; }

if [ -n "$cluster" ]; then
  for _ in $(seq 1 300); do
    [ -f "$work/cluster-ready" ] && break
    kill -0 "$cluster" 2>/dev/null || { echo "e2e: the two-node cluster exited:"; cat "$cluster_log"; exit 1; }
    sleep 0.2
  done
  [ -f "$work/cluster-ready" ] || { echo "e2e: the two-node cluster did not come up:"; cat "$cluster_log"; exit 1; }
  export KUPA_E2E_NODE_A="http://127.0.0.1:$((port + 1))" KUPA_E2E_NODE_B="http://127.0.0.1:$((port + 2))"
fi

cd web
KUPA_E2E_URL="http://127.0.0.1:$port" KUPA_CHROMIUM="$chromium" \
  KUPA_E2E_OUTPUT="./e2e-artifacts/test-results${tag}" npx playwright test "$@"
