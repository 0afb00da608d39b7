#!/usr/bin/env bash
# Fails when a crate of the server's build gets other features in the test build (decision 0078).
# `cargo test --workspace` resolves features with the dev-dependencies; `cargo build -p kupa` (the
# e2e suite's server) and `cargo test -p kupa` (make fault) without most of them. A crate whose
# features differ is compiled twice, with every crate above it: minutes of CI. The fix is to turn
# the feature on in a normal dependency too (see crates/app/Cargo.toml's regex-syntax).
set -euo pipefail
cd "$(dirname "$0")/.."
tree() { cargo tree --workspace --locked -e "$1" -f '{p} {f}' --prefix none | sed 's/ (\*)$//' | sort -u; }
# A crate appears once per way it is built (for the target, or for a build script or proc-macro on
# the host), each with its features. Every one of the server build's must be in the test build as
# it is; the test build may add crates, and ways, of its own.
missing="$(comm -23 <(tree normal) <(tree normal,dev))"
if [ -n "$missing" ]; then
  echo "the test build (cargo test --workspace) has none of these as the server's build has them,"
  echo "so one of the two compiles them and every crate above them again:"
  sed 's/^/  /' <<<"$missing"
  echo "with the dev-dependencies:"
  for crate in $(awk '{print $1}' <<<"$missing" | sort -u); do
    tree normal,dev | grep "^$crate " | sed 's/^/  /'
  done
  exit 1
fi
echo "feature sets: the server's build and the test build agree"
