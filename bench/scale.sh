#!/usr/bin/env bash
# What a cluster would take for the lichess database: the CPU time one
# shard of lichess games costs (the counting pass and the audit, as
# scale/audit.py runs them, decompression included in each), measured here,
# and the wall time it gives for one month and for the whole archive on W
# cores. Writes bench/SCALE.md. Installs hyperfine and zstd if missing.
#
#   bench/scale.sh
#   RUNS=10 bench/scale.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
runs=${RUNS:-5}
need_apt hyperfine hyperfine
need_apt zstd zstd

cargo build --release --locked --bin pgn-arbiter
bin=$PWD/target/release/pgn-arbiter
# The sample: the lichess exports of the shared corpora, four times over
# (long enough to time), written as the database is (pzstd: independent
# frames, a skippable frame before each).
sample=$work/lichess.pgn
for _ in 1 2 3 4; do
  find "$corpora/online" -name 'lichess_*.pgn' | LC_ALL=C sort | while read -r f; do cat "$f"; printf '\n\n'; done
done > "$sample"
rm -f "$sample.zst"
pzstd -q -p "$(nproc)" "$sample" -o "$sample.zst"
frames=$(( $("$bin" frames "$sample.zst" | wc -l) - 1 ))
range="0..$((frames - 1))"
games=$("$bin" --count --zstd-frames "$range" "$sample.zst" | python3 -c 'import json,sys; print(json.load(sys.stdin)["games"])')
hyperfine -N --warmup 1 --runs "$runs" --export-json "$work/scale.json" \
  -n count "$bin --count --zstd-frames $range $sample.zst" \
  -n audit "$bin -q -j 1 --fail-on never --no-duplicates --no-header --findings /dev/null --games /dev/null --zstd-frames $range $sample.zst" \
  -n decompress "zstd -dcq $sample.zst -o /dev/null -f" >/dev/null

python3 - "$work/scale.json" "$games" "$(stat -c %s "$sample")" "$(stat -c %s "$sample.zst")" "$frames" > "$work/scale.md" <<'PY'
import json, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
games, plain, packed, frames = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
cpu = {name: r["user"] + r["system"] for name, r in results.items()}
wall = {name: r["mean"] for name, r in results.items()}
per_game = (cpu["count"] + cpu["audit"]) / games
print(f"- Sample: the lichess exports of the shared corpora four times over, {games} games, {plain / 1e6:.1f} MB")
print(f"  of PGN, {packed / 1e6:.1f} MB as pzstd writes it ({frames} frames); {plain / games:.0f} bytes a game.")
print(f"- Mean of the runs (hyperfine), seconds: counting {wall['count']:.3f} wall, {cpu['count']:.3f} CPU;")
print(f"  auditing one shard (-j 1) {wall['audit']:.3f} wall, {cpu['audit']:.3f} CPU; zstd -d alone {wall['decompress']:.3f} wall")
print(f"  ({plain / 1e6 / wall['decompress']:.0f} MB/s of PGN). Both passes decompress; the audit's reader thread")
print(f"  decompresses beside its worker, so the CPU time is what a core of a cluster spends.")
print(f"- Per game, both passes: {per_game * 1e6:.2f} µs of CPU, so one core does {1 / per_game:,.0f} games/s.")
print()
print("Wall time on W cores, each running one shard at a time: games × CPU per game / W (the")
print("driver's start, about 1.3 s, and moving the files to the machines are left out). A month is")
print("taken as 100 million games, the archive as 7 billion.")
print()
print("| cores | one month (100 M games) | whole archive (7 G games) |")
print("|---:|---:|---:|")
def span(seconds):
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
for cores in (2, 8, 32, 128, 512, 2048):
    print(f"| {cores} | {span(100e6 * per_game / cores)} | {span(7e9 * per_game / cores)} |")
PY

{
  echo "# What a cluster would take for the lichess database"
  echo
  echo "Written by \`bench/scale.sh\`; every figure comes from one run of it."
  echo
  machine
  echo "- Build $(git rev-parse --short HEAD)."
  cat "$work/scale.md"
} > bench/SCALE.md
cat bench/SCALE.md
