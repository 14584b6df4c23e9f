#!/usr/bin/env bash
# What the draw rules cost: pgn-arbiter against the same source built with
# the feature bench-no-draw-rules, which keeps the position history out of
# the replay (no repetition, 50-move, 75-move,
# fivefold or mid-game dead-position rules; everything else as it is), one
# thread. The two builds run in turn, A B A B ..., and the ratio is taken
# pair by pair, so a drift of the machine's speed does not move it. Writes
# bench/DRAW-RULES.md. Installs hyperfine if it is missing.
#
#   bench/draw_rules.sh          # 15 pairs per input after one warm-up pair
#   RUNS=25 bench/draw_rules.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
runs=${RUNS:-15}
need_apt hyperfine hyperfine

cargo build --release --locked --bin pgn-arbiter
with=$PWD/target/release/pgn-arbiter

# The same source built with the feature bench-no-draw-rules: the replay
# tells the position history nothing, so it stays empty for every game.
if ! cargo build --release --locked --bin pgn-arbiter --features bench-no-draw-rules \
  --target-dir "$work/target-without" > "$work/without-build.log" 2>&1; then
  cat "$work/without-build.log" >&2
  exit 2
fi
without=$work/target-without/release/pgn-arbiter

make_corpus
online=$work/online.pgn
for f in "$corpora"/online/*.pgn; do cat "$f"; printf '\n\n'; done > "$online"

args="-q --fail-on never -j 1 --findings /dev/null"
: > "$work/draw-pairs.tsv"
for input in "$corpus" "$online"; do
  for i in $(seq 0 "$runs"); do
    hyperfine -N --runs 1 --export-json "$work/pair.json" \
      -n with "$with $args $input" -n without "$without $args $input" >/dev/null 2>&1
    # Pair 0 is the warm-up.
    [ "$i" = 0 ] && continue
    python3 - "$work/pair.json" "$input" >> "$work/draw-pairs.tsv" <<'PY'
import json, sys
r = {x["command"]: x["times"][0] for x in json.load(open(sys.argv[1]))["results"]}
print(f"{sys.argv[2]}\t{r['with']}\t{r['without']}")
PY
  done
done

python3 - "$work/draw-pairs.tsv" "$corpus" "$online" > bench/DRAW-RULES.md <<'PY'
import os, platform, statistics, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
names = {sys.argv[2]: "every file of the shared corpora joined", sys.argv[3]: "the four lichess exports joined"}
print("# What the draw rules cost\n")
print("Written by `bench/draw_rules.sh`; every figure comes from one run of it.\n")
print(f"- Machine: {os.cpu_count()} cores ({cpu}), {platform.platform()}")
print("- A: pgn-arbiter as built; B: the same source with the position history cut out of")
print("  the replay (no claims, no automatic ends; everything else the same). One thread (`-j 1`),")
print("  whole-process wall time (hyperfine), A and B in turn, ratio A/B pair by pair.\n")
print("| input | MB | pairs | A median s | B median s | A/B median | A/B min | A/B max |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for path, label in names.items():
    pairs = [(float(a), float(b)) for p, a, b in rows if p == path]
    ratios = [a / b for a, b in pairs]
    mb = os.path.getsize(path) / 1e6
    print(f"| {label} | {mb:.1f} | {len(pairs)} | {statistics.median(a for a, _ in pairs):.3f} | "
          f"{statistics.median(b for _, b in pairs):.3f} | {statistics.median(ratios):.3f} | "
          f"{min(ratios):.3f} | {max(ratios):.3f} |")
print("\nThe draw rules are to cost at most 15% (A/B at most 1.15).")
PY
cat bench/DRAW-RULES.md
