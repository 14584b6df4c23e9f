#!/usr/bin/env bash
# What replaying variations costs: the default run (A) against
# --no-variations (B) on the corpus (every real file of the shared corpora
# joined), one thread and all cores, A and B in turn, ratio A/B pair by pair.
# Writes bench/VARIATIONS.md. Installs hyperfine if it is missing.
#
#   bench/variations.sh
#   RUNS=25 bench/variations.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
runs=${RUNS:-15}
need_apt hyperfine hyperfine

cargo build --release --locked --bin pgn-arbiter
bin=$PWD/target/release/pgn-arbiter
make_corpus
: > "$work/variations-pairs.tsv"
for jobs in 1 "$(nproc)"; do
  args="-q --fail-on never -j $jobs --findings /dev/null $corpus"
  time_pairs "$bin $args" "$bin --no-variations $args" "$runs" "$jobs" "$work/variations-pairs.tsv"
done
games=$("$bin" -q --fail-on never --games - --findings /dev/null "$corpus" | tail -n +2 | wc -l)

{
  echo "# What replaying variations costs"
  echo
  echo "Written by \`bench/variations.sh\`; every figure comes from one run of it."
  echo
  machine
  echo "- A: the default run (variations replayed); B: \`--no-variations\`, same build ($(git rev-parse --short HEAD))."
  echo "  Input: every real file of the shared corpora joined, $(( $(stat -c %s "$corpus") / 1000000 )) MB, $games games."
  echo "  Whole-process wall time (hyperfine), A and B in turn, ratio A/B pair by pair (above 1: replaying"
  echo "  variations costs that much)."
  echo
  pair_table "$work/variations-pairs.tsv" threads
} > bench/VARIATIONS.md
cat bench/VARIATIONS.md
