#!/usr/bin/env bash
# Renders the audit page of the README's walkthrough (the tournament
# fixture, with two more fixtures for errors and boards) in headless
# Chromium and writes docs/audit-page.png. Installs Debian's chromium when
# it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null; then
  apt-get install -y chromium fonts-dejavu-core
fi
cargo build --release --locked --quiet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(
  cd fixtures
  ../target/release/pgn-arbiter -q --fail-on never --findings /dev/null \
    --html "$work/audit.html" --fix "$work/fixed" \
    page/tournament.pgn structure/round-checks.pgn \
    results/contradicts-checkmate-and-stalemate.pgn
)
# The flags keep Chromium from reaching for the network at start.
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$work/profile" --hide-scrollbars \
  --window-size=1100,1900 --screenshot="$PWD/docs/audit-page.png" \
  "file://$work/audit.html" 2>/dev/null
echo "wrote docs/audit-page.png"
