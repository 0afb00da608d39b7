# Kupa. `make run` and `make test` are the two commands a newcomer needs (see README.md).
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
CARGO ?= cargo
NPM ?= npm
E2E_PORT ?= 18080
export KUPA_TEST_POSTGRES_URL

.PHONY: lighthouse run run-cluster build build-debug web-deps web-build api-check gen-api lint fmt test test-rust test-web e2e screenshots fault schemathesis bench bench-load bench-quick dev clean

## run: build what is needed and serve http://127.0.0.1:8080 with the demo cinema chain (SQLite)
run: build
	./target/release/kupa serve --demo

## run-cluster: two nodes on http://127.0.0.1:8081 and :8082 sharing one PostgreSQL database
## (kupa_cluster on KUPA_CLUSTER_ADMIN_URL, default the local postgres), the demo chain loaded once,
## the captcha off as for `make run` (there is no captcha provider yet)
KUPA_CLUSTER_ADMIN_URL ?= postgres://postgres@127.0.0.1:5432/postgres
run-cluster: build
	scripts/cluster.sh ./target/release/kupa $(KUPA_CLUSTER_ADMIN_URL) kupa_cluster 8081 8082 --captcha off

## build: the web app, then the release binary that embeds it
build: web-build
	$(CARGO) build --release -p kupa

build-debug: web-build
	$(CARGO) build -p kupa

# npm ci only when the lock file changed since the last install.
web/node_modules/.installed: web/package-lock.json
	cd web && $(NPM) ci --no-audit --no-fund --loglevel=error
	touch $@

web-deps: web/node_modules/.installed

## web-build: type-check and bundle the web app into web/dist (checks the API types first)
web-build: web-deps api-check
	cd web && $(NPM) run build

## api-check: the committed TypeScript API types are what openapi.json generates
## (a Rust test checks that openapi.json is what the server code describes)
api-check: web-deps
	cd web && npx openapi-typescript src/lib/api/openapi.json 2>/dev/null \
	  | npx prettier --stdin-filepath src/lib/api/schema.d.ts \
	  | diff -u src/lib/api/schema.d.ts - \
	  || { echo "web/src/lib/api/schema.d.ts drifted from openapi.json: run make gen-api"; exit 1; }

## gen-api: rewrite openapi.json from the code, the TypeScript types from it, and docs/api-examples
gen-api: web-deps
	$(CARGO) run -q -p kupa -- openapi > web/src/lib/api/openapi.json
	cd web && $(NPM) run gen-api
	KUPA_WRITE_EXAMPLES=1 $(CARGO) test -q -p kupa-api --tests

## lint: rustfmt, clippy (warnings are errors), one feature set for the test and server builds
## (decision 0078), eslint, prettier, tsc
lint: web-deps
	$(CARGO) fmt --all -- --check
	scripts/feature-sets.sh
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	cd web && $(NPM) run lint

fmt: web-deps
	$(CARGO) fmt --all
	cd web && $(NPM) run format

## test: everything. Rust on SQLite (and PostgreSQL when KUPA_TEST_POSTGRES_URL is set),
## web unit tests, and end-to-end tests in headless Chromium against a real kupa server
test:
	scripts/phase.sh "web dependencies" $(MAKE) --no-print-directory web-deps
	scripts/phase.sh "lint" $(MAKE) --no-print-directory lint
	scripts/phase.sh "rust tests" $(MAKE) --no-print-directory test-rust
	scripts/phase.sh "web unit tests" $(MAKE) --no-print-directory test-web
	scripts/phase.sh "end-to-end tests" $(MAKE) --no-print-directory e2e

# The tests wait on databases far more than they compute: more threads than cores pay.
RUST_TEST_THREADS ?= 6
test-rust:
	$(CARGO) test --workspace -- --test-threads=$(RUST_TEST_THREADS)

test-web: web-deps api-check
	cd web && $(NPM) test

## e2e: Playwright in Debian's Chromium against debug kupa servers in test mode on fresh databases,
## as E2E_SHARDS shards at once (default 2), each with its own server (scripts/e2e-shards.sh)
E2E_SHARDS ?= 2
e2e: build-debug
	E2E_PORT=$(E2E_PORT) E2E_SHARDS=$(E2E_SHARDS) scripts/e2e-shards.sh

## screenshots: the e2e suite's screen-picture tests at every language and width they name
## (make test takes Hebrew at the narrowest and English at the widest, decision 0074), against a
## debug server as make e2e; pictures in web/e2e-artifacts/
PICTURE_SPECS ?= staff-screens reports programme step-screenshots marketing-pages screenshots
screenshots: build-debug
	KUPA_E2E_PICTURES=all E2E_PORT=$(E2E_PORT) scripts/e2e.sh $(PICTURE_SPECS)

## fault: process-level fault tests (docs/operations.md): kill -9 of one of two nodes on PostgreSQL
## (KUPA_TEST_POSTGRES_URL, default the local server; fails when unreachable), a private PostgreSQL
## cluster restarted mid-rush (initdb/pg_ctl on its own port), SQLite killed during commits
fault:
	$(CARGO) test -p kupa --test faults -- --ignored --test-threads=1

## schemathesis: schemathesis (from PyPI, installed into target/schemathesis-venv) against the
## OpenAPI document of a real `kupa serve --demo --test-mode` on a temporary SQLite database,
## bounded to 3 minutes; not part of `make test`. Reports in target/schemathesis/.
schemathesis:
	$(CARGO) build -p kupa
	scripts/schemathesis.sh

## lighthouse: Lighthouse (npm, under target/) in Debian's Chromium, mobile, median of 3, on the
## index and an order page of the release build (figures, not a test; outside make test)
lighthouse: build
	scripts/lighthouse.sh

## bench: benchmarks (figures, not tests): the JavaScript the order page loads, gzipped, then the
## on-sale load benchmark (docs/benchmark.md): kupa on SQLite and on two PostgreSQL nodes
## (KUPA_BENCH_POSTGRES_URL), results in bench/results. BENCH_ARGS passes flags (e.g. --quick).
bench: web-build
	node web/scripts/bundle-size.mjs
	$(MAKE) --no-print-directory bench-load

## bench-load: only the load benchmark; bench-quick: the same, short (a couple of minutes)
bench-load:
	$(CARGO) build --release -p kupa -p kupa-loadgen
	./target/release/kupa-loadgen $(BENCH_ARGS)

bench-quick:
	$(MAKE) --no-print-directory bench-load BENCH_ARGS="--quick $(BENCH_ARGS)"

## dev: the server on :8080 (debug) and Vite's dev server with hot reload on :5173
dev: web-deps
	$(CARGO) build -p kupa
	./target/debug/kupa serve --demo --test-mode & \
	  trap 'kill %1' EXIT; cd web && $(NPM) run dev

clean:
	$(CARGO) clean
	rm -rf web/dist web/node_modules web/e2e-artifacts
