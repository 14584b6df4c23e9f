#!/usr/bin/env bash
# This build against an earlier commit, on the corpus (every real file of
# the shared corpora joined): one thread and all cores, whole-process wall
# time, the two builds in turn (A B A B ...), ratio A/B pair by pair. Writes
# bench/COMPARE.md. Installs hyperfine if it is missing.
#
#   bench/compare.sh REF          # e.g. bench/compare.sh 03b8997
#   RUNS=25 bench/compare.sh REF
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
ref=${1:?usage: bench/compare.sh REF}
runs=${RUNS:-15}
need_apt hyperfine hyperfine

cargo build --release --locked --bin pgn-arbiter
now=$PWD/target/release/pgn-arbiter
tree=$work/compare-$ref
rm -rf "$tree"
git worktree add --force --detach "$tree" "$ref" >/dev/null
trap 'git worktree remove --force "$tree"' EXIT
if ! (cd "$tree" && cargo build --release --locked --bin pgn-arbiter --target-dir "$work/target-compare") > "$work/compare-build.log" 2>&1; then
  cat "$work/compare-build.log" >&2
  exit 2
fi
then_bin=$work/target-compare/release/pgn-arbiter

make_corpus
: > "$work/compare-pairs.tsv"
for jobs in 1 "$(nproc)"; do
  args="-q --fail-on never -j $jobs --findings /dev/null $corpus"
  time_pairs "$now $args" "$then_bin $args" "$runs" "$jobs" "$work/compare-pairs.tsv"
done

{
  echo "# This build against an earlier one"
  echo
  echo "Written by \`bench/compare.sh\`; every figure comes from one run of it."
  echo
  machine
  echo "- A: $(git rev-parse --short HEAD) (this build); B: $ref. Input: every real file of the shared corpora"
  echo "  joined, $(( $(stat -c %s "$corpus") / 1000000 )) MB. Whole-process wall time (hyperfine), A and B in turn,"
  echo "  ratio A/B pair by pair (below 1: A is faster)."
  echo
  pair_table "$work/compare-pairs.tsv" threads
} > bench/COMPARE.md
cat bench/COMPARE.md
