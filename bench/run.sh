#!/usr/bin/env bash
# Measures pgn-arbiter against its peers on one machine, in one run, and
# writes bench/RESULTS.md. On a fresh machine it installs what it needs:
# hyperfine and pgn-extract (Debian packages), python-chess (pip).
#
#   bench/run.sh                 # >= 100 MB corpus from ../shared/corpora
#   BIG=1 bench/run.sh           # also peak memory on a ~1 GB corpus
#   RUNS=10 bench/run.sh         # more runs per command (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
runs=${RUNS:-5}

need_peers
python3 -c 'import chess' 2>/dev/null || pip install -q chess

cargo build --release --locked --bin pgn-arbiter --example bare_replay
arbiter=$PWD/target/release/pgn-arbiter
bare=$PWD/target/release/examples/bare_replay

make_corpus
zstd -q -3 -f "$corpus" -o "$corpus.zst"
gzip -6 -c "$corpus" > "$corpus.gz"
# A 5 MB slice for python-chess, cut before a game.
python3 - "$corpus" "$work/slice.pgn" <<'PY'
import sys
data = open(sys.argv[1], "rb").read(5_000_000)
cut = data.rfind(b"\n\n[Event ")
open(sys.argv[2], "wb").write(data[: cut + 1])
PY

bytes=$(stat -c %s "$corpus")
slice_bytes=$(stat -c %s "$work/slice.pgn")
games=$("$arbiter" -q --fail-on never --findings /dev/null --games /dev/stdout "$corpus" | tail -n +2 | wc -l)
slice_games=$(python3 bench/python_chess_replay.py "$work/slice.pgn")

hyperfine -i --warmup 1 --runs "$runs" --export-json "$work/times.json" \
  -n bare-replay "$bare $corpus" \
  -n arbiter-j1 "$arbiter -q --fail-on never -j 1 --findings /dev/null $corpus" \
  -n arbiter "$arbiter -q --fail-on never --findings /dev/null $corpus" \
  -n arbiter-zst "$arbiter -q --fail-on never --findings /dev/null $corpus.zst" \
  -n arbiter-gz "$arbiter -q --fail-on never --findings /dev/null $corpus.gz" \
  -n pgn-extract "/usr/games/pgn-extract -r -s $corpus" \
  -n python-chess "python3 bench/python_chess_replay.py $work/slice.pgn" >&2

rss() { /usr/bin/time -f %M "$@" >/dev/null 2>"$work/rss" || true; tail -n 1 "$work/rss"; }
declare -A peak
peak[bare-replay]=$(rss "$bare" "$corpus")
peak[arbiter-j1]=$(rss "$arbiter" -q --fail-on never -j 1 --findings /dev/null "$corpus")
peak[arbiter]=$(rss "$arbiter" -q --fail-on never --findings /dev/null "$corpus")
peak[arbiter-zst]=$(rss "$arbiter" -q --fail-on never --findings /dev/null "$corpus.zst")
peak[arbiter-gz]=$(rss "$arbiter" -q --fail-on never --findings /dev/null "$corpus.gz")
peak[pgn-extract]=$(rss /usr/games/pgn-extract -r -s "$corpus")
peak[python-chess]=$(rss python3 bench/python_chess_replay.py "$work/slice.pgn")
big=""
if [ -n "${BIG:-}" ]; then
  for _ in 1 2 3 4 5 6 7 8; do cat "$corpus"; printf '\n\n'; done > "$work/big.pgn"
  big="$(stat -c %s "$work/big.pgn") $(rss "$arbiter" -q --fail-on never --findings /dev/null "$work/big.pgn")"
  rm -f "$work/big.pgn"
fi
peaks=""
for k in "${!peak[@]}"; do peaks+="$k=${peak[$k]} "; done

# The sections other scripts keep at the end of RESULTS.md (what variations
# cost, bench/hostile.sh's table) are kept.
hostile=$(sed -n '/^## /,$p' bench/RESULTS.md 2>/dev/null || true)
python3 - "$work/times.json" "$bytes" "$games" "$slice_bytes" "$slice_games" "$peaks" "$big" > bench/RESULTS.md <<'PY'
import json, os, platform, subprocess, sys
times = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
size, games, slice_size, slice_games = (int(x) for x in sys.argv[2:6])
peaks = dict(p.split("=") for p in sys.argv[6].split())
big = sys.argv[7].split()
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
mem = next((l.split()[1] for l in open("/proc/meminfo") if l.startswith("MemTotal")), "0")
def rate(name):
    t = times[name]["median"]
    n_bytes, n_games = (slice_size, slice_games) if name == "python-chess" else (size, games)
    return n_bytes / t / 1e6, n_games / t
base = rate("bare-replay")[1]
print("# Benchmark results\n")
print("Written by `bench/run.sh`; every figure comes from one run of it.\n")
print(f"- Machine: {os.cpu_count()} cores ({cpu}), {int(mem) // 1024} MiB memory, {platform.platform()}")
print(f"- Corpus: every real file of `../shared/corpora` joined, {size / 1e6:.1f} MB, {games} games; "
      f"python-chess reads a {slice_size / 1e6:.1f} MB slice of it ({slice_games} games) and is extrapolated by games/s.")
print(f"- Median of {len(times['arbiter']['times'])} runs after a warm-up (hyperfine); peak RSS from `/usr/bin/time`.\n")
print("| command | median s | MB/s | games/s | games/s vs bare replay | peak RSS MiB |")
print("|---|---:|---:|---:|---:|---:|")
labels = {
    "bare-replay": "bare replay (`examples/bare_replay`, 1 thread)",
    "arbiter-j1": "pgn-arbiter `-j 1`",
    "arbiter": f"pgn-arbiter, all {os.cpu_count()} cores",
    "arbiter-zst": "pgn-arbiter, all cores, `.zst` input",
    "arbiter-gz": "pgn-arbiter, all cores, `.gz` input",
    "pgn-extract": "pgn-extract 19.04 `-r` (errors only)",
    "python-chess": "python-chess (5 MB slice)",
}
for name, label in labels.items():
    mbs, gps = rate(name)
    print(f"| {label} | {times[name]['median']:.3f} | {mbs:.1f} | {gps:,.0f} | {gps / base:.2f}x | {int(peaks[name]) / 1024:.1f} |")
g = lambda n: rate(n)[1]
print("\nRatios (games/s, same run):\n")
print(f"- `-j 1` / bare replay: {g('arbiter-j1') / base:.2f}x (target 0.8x)")
print(f"- all cores / `-j 1`: {g('arbiter') / g('arbiter-j1'):.2f}x (target 1.8x on 2 cores)")
print(f"- all cores / pgn-extract `-r`: {g('arbiter') / g('pgn-extract'):.1f}x (target 6x)")
print(f"- all cores / python-chess: {g('arbiter') / g('python-chess'):.0f}x (target 200x)")
print(f"- `.zst` / plain, all cores: {g('arbiter-zst') / g('arbiter'):.2f}x (target 0.8x)")
if big:
    print(f"- Peak RSS on a {int(big[0]) / 1e9:.2f} GB corpus (the corpus 8 times): {int(big[1]) / 1024:.1f} MiB, "
          f"against {int(peaks['arbiter']) / 1024:.1f} MiB on {size / 1e6:.0f} MB")
PY
[ -z "$hostile" ] || printf '\n%s\n' "$hostile" >> bench/RESULTS.md
cat bench/RESULTS.md
