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
  for i in $(seq 0 "$runs"); do
    hyperfine -N --runs 1 --export-json "$work/pair.json" \
      -n now "$now $args" -n then "$then_bin $args" >/dev/null 2>&1
    [ "$i" = 0 ] && continue # the warm-up pair
    python3 - "$work/pair.json" "$jobs" >> "$work/compare-pairs.tsv" <<'PY'
import json, sys
r = {x["command"]: x["times"][0] for x in json.load(open(sys.argv[1]))["results"]}
print(f"{sys.argv[2]}\t{r['now']}\t{r['then']}")
PY
  done
done

python3 - "$work/compare-pairs.tsv" "$corpus" "$ref" "$(git rev-parse --short HEAD)" > bench/COMPARE.md <<'PY'
import os, platform, statistics, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
print("# This build against an earlier one\n")
print("Written by `bench/compare.sh`; every figure comes from one run of it.\n")
print(f"- Machine: {os.cpu_count()} cores ({cpu}), {platform.platform()}")
print(f"- A: {sys.argv[4]} (this build); B: {sys.argv[3]}. Input: every real file of the shared corpora")
print(f"  joined, {os.path.getsize(sys.argv[2]) / 1e6:.1f} MB. Whole-process wall time (hyperfine), A and B in turn,")
print("  ratio A/B pair by pair (below 1: A is faster).\n")
print("| threads | pairs | A median s | B median s | A/B median | A/B min | A/B max |")
print("|---:|---:|---:|---:|---:|---:|---:|")
for jobs in dict.fromkeys(j for j, _, _ in rows):
    pairs = [(float(a), float(b)) for j, a, b in rows if j == jobs]
    ratios = [a / b for a, b in pairs]
    print(f"| {jobs} | {len(pairs)} | {statistics.median(a for a, _ in pairs):.3f} | "
          f"{statistics.median(b for _, b in pairs):.3f} | {statistics.median(ratios):.3f} | "
          f"{min(ratios):.3f} | {max(ratios):.3f} |")
PY
cat bench/COMPARE.md
