#!/usr/bin/env bash
# What reading and checking clocks costs: pgn-arbiter against the same
# source built with the feature bench-no-clocks, which keeps no `[%clk]` or `[%emt]`
# reading (no clock-rises, clock-forfeit-contradicted or played-past-flag;
# everything else the same), one thread, on the corpus (every real file of
# the shared corpora joined) and on the files whose every move has a clock
# (the FWWRC 2024 broadcast and two lichess exports, joined five times).
# A and B in turn, ratio A/B pair by pair. Writes bench/CLOCKS.md.
# Installs hyperfine if it is missing.
#
#   bench/clocks.sh           # 15 pairs per input after one warm-up pair
#   RUNS=25 bench/clocks.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
runs=${RUNS:-15}
need_apt hyperfine hyperfine

cargo build --release --locked --bin pgn-arbiter
with=$PWD/target/release/pgn-arbiter
if ! cargo build --release --locked --bin pgn-arbiter --features bench-no-clocks \
  --target-dir "$work/target-no-clocks" > "$work/no-clocks-build.log" 2>&1; then
  cat "$work/no-clocks-build.log" >&2
  exit 2
fi
without=$work/target-no-clocks/release/pgn-arbiter

make_corpus
clocked=$work/clocked.pgn
for _ in 1 2 3 4 5; do
  for f in lichess-broadcast-FWWRC-2024-full.pgn lichess_jishanshaikh4_first2000.pgn lichess_magnus.pgn; do
    cat "$corpora/online/$f"
    printf '\n\n'
  done
done > "$clocked"

# The clocked files repeat their games: duplicates are not looked for, in
# either build.
args="-q --fail-on never -j 1 --no-duplicates --findings /dev/null"
: > "$work/clock-pairs.tsv"
time_pairs "$with $args $corpus" "$without $args $corpus" "$runs" corpus "$work/clock-pairs.tsv"
time_pairs "$with $args $clocked" "$without $args $clocked" "$runs" clocked "$work/clock-pairs.tsv"
readings() { grep -o '%clk' "$1" | wc -l; }

{
  echo "# What clocks cost"
  echo
  echo "Written by \`bench/clocks.sh\` at $(git rev-parse --short HEAD); every figure comes from one run of it."
  echo
  machine
  echo "- A: pgn-arbiter as built; B: the same source built with \`bench-no-clocks\` (no clock reading"
  echo "  kept or checked). One thread, \`--no-duplicates\`, whole-process wall time (hyperfine), A and B"
  echo "  in turn, ratio A/B pair by pair (above 1: clocks cost that much)."
  echo "- corpus: every real file of the shared corpora joined, $(( $(stat -c %s "$corpus") / 1000000 )) MB, $(readings "$corpus") clock readings."
  echo "- clocked: the FWWRC 2024 broadcast and the jishanshaikh4 and magnus lichess exports joined"
  echo "  five times, $(( $(stat -c %s "$clocked") / 1000000 )) MB, $(readings "$clocked") clock readings (one for about every move)."
  echo
  pair_table "$work/clock-pairs.tsv" input
} > bench/CLOCKS.md
cat bench/CLOCKS.md
