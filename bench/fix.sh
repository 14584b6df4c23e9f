#!/usr/bin/env bash
# What --fix and --html cost: the run with them (A) against the same run
# without (B) on the corpus (every real file of the shared corpora joined),
# one thread and all cores, A and B in turn, ratio A/B pair by pair. The
# corrected copy replaces the previous one, as a repeated run does. Writes
# bench/FIX.md. Installs hyperfine if it is missing.
#
#   bench/fix.sh
#   RUNS=25 bench/fix.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
runs=${RUNS:-15}
need_apt hyperfine hyperfine

cargo build --release --locked --bin pgn-arbiter
bin=$PWD/target/release/pgn-arbiter
make_corpus
: > "$work/fix-pairs.tsv"
for jobs in 1 "$(nproc)"; do
  args="-q --fail-on never -j $jobs --findings /dev/null $corpus"
  time_pairs "$bin --fix $work/fixed.pgn --html $work/audit.html $args" "$bin $args" \
    "$runs" "$jobs" "$work/fix-pairs.tsv"
done
games=$("$bin" -q --fail-on never --games - --findings /dev/null "$corpus" | tail -n +2 | wc -l)
changed=$("$bin" -q --fail-on never --findings /dev/null --summary - --fix "$work/fixed.pgn" "$corpus" |
  python3 -c 'import json,sys; f=json.load(sys.stdin)["total"]["fixed"]; print(f["games"], "games changed,", f["changes"], "changes")')

{
  echo "# What --fix and --html cost"
  echo
  echo "Written by \`bench/fix.sh\`; every figure comes from one run of it."
  echo
  machine
  echo "- A: \`--fix FILE --html FILE\`; B: the same run without them, same build ($(git rev-parse --short HEAD))."
  echo "  Input: every real file of the shared corpora joined, $(( $(stat -c %s "$corpus") / 1000000 )) MB, $games games"
  echo "  ($changed in the copy). Whole-process wall time (hyperfine), A and B in turn, ratio A/B pair"
  echo "  by pair (above 1: writing the copy and the page costs that much)."
  echo
  pair_table "$work/fix-pairs.tsv" threads
} > bench/FIX.md
cat bench/FIX.md
