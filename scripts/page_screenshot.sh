#!/usr/bin/env bash
# Renders the audit pages of the walkthroughs of docs/tournament.md in headless
# Chromium: docs/audit-page.png (the tournament fixture, with two more
# fixtures for errors and boards) and docs/tournament-page.png (four games
# against their tournament report file, one result changed in it).
# Installs Debian's chromium when it is missing.
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
  ../target/release/pgn-arbiter -q --fail-on never --findings /dev/null \
    --html "$work/tournament.html" --trf tournament/result-mismatch.trf \
    tournament/result-mismatch.pgn
)
shot() {
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$work/profile" --hide-scrollbars \
    --window-size="$2" --screenshot="$PWD/docs/$1.png" "file://$work/$1.html" 2>/dev/null
}
# The flags keep Chromium from reaching for the network at start.
mv "$work/audit.html" "$work/audit-page.html"
mv "$work/tournament.html" "$work/tournament-page.html"
shot audit-page 1100,1900
shot tournament-page 1100,1250
echo "wrote docs/audit-page.png and docs/tournament-page.png"
# The page of a real event with its TRF, printed: how many pages an officer
# hands in (docs/tournament.md states it).
event=../shared/corpora/online/lichess-broadcast-FWWRC-2024-full.pgn
if [ -f "$event" ]; then
  python3 scripts/pgn_to_trf.py "$event" > "$work/event.trf"
  target/release/pgn-arbiter -q --fail-on never --findings /dev/null \
    --html "$work/event.html" --trf "$work/event.trf" "$event"
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$work/profile" --no-pdf-header-footer \
    --print-to-pdf="$work/event.pdf" "file://$work/event.html" 2>/dev/null
  pages=$(python3 -c 'import re, sys; print(len(re.findall(rb"/Type\s*/Page[^s]", open(sys.argv[1], "rb").read())))' "$work/event.pdf")
  echo "the FWWRC 2024 page with its TRF prints on $pages pages"
fi
