#!/usr/bin/env bash
# `make schemathesis`: schemathesis (from PyPI, in a venv under target/) against the OpenAPI
# document of a real `kupa serve --demo --test-mode` on a temporary SQLite database, bounded to
# 3 minutes in all. In test mode the served document pins recaptchaToken to the test token, so
# the requests it generates carry one the server accepts. Rate limits off: one address's traffic
# is not what is measured. Reports go to target/schemathesis/.
set -euo pipefail
cd "$(dirname "$0")/.."
port="${SCHEMATHESIS_PORT:-18290}"
venv=target/schemathesis-venv
version=4.32.5
if ! "$venv/bin/schemathesis" --version 2>/dev/null | grep -q "$version"; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "schemathesis==$version"
fi
[ -x target/debug/kupa ] || { echo "schemathesis: target/debug/kupa not built"; exit 1; }
work="$(mktemp -d)"
out=target/schemathesis
mkdir -p "$out"
KUPA_DATABASE_URL="sqlite:$work/kupa.db" KUPA_RATE_LIMITS=off KUPA_HOLD_LIMITS=off KUPA_LOG=warn \
  ./target/debug/kupa serve --demo --test-mode --addr "127.0.0.1:$port" >"$out/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 150); do
  curl -sf "http://127.0.0.1:$port/api/health" >/dev/null && break
  kill -0 "$server" 2>/dev/null || { echo "schemathesis: the server exited:"; cat "$out/server.log"; exit 1; }
  sleep 0.2
done
start=$(date +%s)
status=0
# Run inside target/schemathesis, where schemathesis keeps its .schemathesis cache.
(cd "$out" && SCHEMATHESIS_HOOKS=schemathesis_hooks PYTHONPATH=../../scripts timeout 170 ../schemathesis-venv/bin/schemathesis run \
  "http://127.0.0.1:$port/api/openapi.json" \
  --max-time 150 --mode all --workers 2 \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,negative_data_rejection,valid_requests_are_not_refused_as_malformed \
  --report junit,ndjson --report-dir . --no-color "$@") || status=$?
echo "schemathesis: $(( $(date +%s) - start )) s; server log in $out/server.log (5xx lines: $(grep -c ' 5[0-9][0-9] ' "$out/server.log" || true))"
exit "$status"
