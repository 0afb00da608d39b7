#!/usr/bin/env bash
# `make lighthouse`: Lighthouse (from npm, installed under target/) in Debian's Chromium, mobile
# with simulated throttling (Lighthouse's defaults), three runs each of the index and an order
# page of a release `kupa serve --demo` on a temporary SQLite database; prints the median
# performance and accessibility scores, LCP and TBT. Figures, not a test: outside `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
port="${LIGHTHOUSE_PORT:-18600}"
runs="${LIGHTHOUSE_RUNS:-3}"
chromium="${KUPA_CHROMIUM:-/usr/bin/chromium}"
version=12.8.2
dir=target/lighthouse
[ -x "$chromium" ] || { echo "lighthouse: $chromium not found (apt-get install -y chromium)"; exit 1; }
bin="${KUPA_BIN:-target/release/kupa}"
[ -x "$bin" ] || { echo "lighthouse: $bin not built (make build)"; exit 1; }
if ! [ -x "$dir/node_modules/.bin/lighthouse" ] || ! grep -q "\"version\": \"$version\"" "$dir/node_modules/lighthouse/package.json"; then
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "lighthouse@$version"
fi
work="$(mktemp -d)"
KUPA_DATABASE_URL="sqlite:$work/kupa.db" KUPA_LOG=warn \
  "$bin" serve --demo --addr "127.0.0.1:$port" >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 150); do
  curl -sf "http://127.0.0.1:$port/api/health" >/dev/null && break
  sleep 0.2
done
base="http://127.0.0.1:$port"
order_id=$(curl -sf "$base/api/presentations/" | node -e '
  let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
    const ps = JSON.parse(s).presentations.filter((p) => !p.isVod && p.saleState === "onSale");
    console.log(ps[0].id);
  });')
out="$dir/results"
mkdir -p "$out"
flags="--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run"
for page in ${LIGHTHOUSE_PAGES:-"/" "/order/$order_id"}; do
  name=$([ "$page" = "/" ] && echo index || echo order)
  for i in $(seq 1 "$runs"); do
    CHROME_PATH="$chromium" "$dir/node_modules/.bin/lighthouse" "$base$page" \
      --only-categories=performance,accessibility --output=json --quiet \
      --output-path="$out/$name-$i.json" --chrome-flags="$flags" >/dev/null
  done
done
node - "$out" "$runs" <<'JS'
const fs = require('fs');
const [out, runs] = [process.argv[2], Number(process.argv[3])];
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const name of ['index', 'order']) {
  const r = [...Array(runs).keys()].map((i) => JSON.parse(fs.readFileSync(`${out}/${name}-${i + 1}.json`)));
  const perf = median(r.map((x) => Math.round(x.categories.performance.score * 100)));
  const a11y = median(r.map((x) => Math.round(x.categories.accessibility.score * 100)));
  const lcp = median(r.map((x) => x.audits['largest-contentful-paint'].numericValue));
  const tbt = median(r.map((x) => x.audits['total-blocking-time'].numericValue));
  const fcp = median(r.map((x) => x.audits['first-contentful-paint'].numericValue));
  console.log(`${name}: performance ${perf}, accessibility ${a11y}, LCP ${(lcp / 1000).toFixed(2)} s, FCP ${(fcp / 1000).toFixed(2)} s, TBT ${Math.round(tbt)} ms (median of ${runs}; ${r[0].finalDisplayedUrl})`);
}
JS
