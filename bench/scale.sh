#!/usr/bin/env bash
# What a cluster would take for the lichess database. First the CPU time
# one shard of lichess games costs (counting its lines, as scale/audit.py
# does, the older count of games and lines, the audit that keeps its
# results, and the rendering of its reports, decompression included where
# there is some), the one look across every shard's games, and the wall
# time it gives for one month and for the whole archive on W cores. Then,
# on an archive of at least 6 GB written as pzstd writes the database (the
# sample over and over: BIG_COPIES copies of it, 0 to leave this out),
# what listing its frames costs, once by the driver and per shard, against
# a whole scale/audit.py run over it on this machine's cores (its CPU time
# from GNU time; the driver in a venv of scale/requirements.txt), and
# against one default run over it (copies and rounds on), whose reports
# the joined reports must equal. Each copy of the lichess games has its
# players renamed (`3.Name`), so that copies of the sample are other
# games, not copies: the archive's copies and rounds are those of lichess. Writes bench/SCALE.md. Installs hyperfine, zstd
# and GNU time if missing. About 12 minutes on 2 cores.
#
#   bench/scale.sh
#   RUNS=10 BIG_COPIES=0 bench/scale.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
runs=${RUNS:-5}
need_apt hyperfine hyperfine
need_apt zstd zstd
[ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time >/dev/null; }
copies=${BIG_COPIES:-640}

cargo build --release --locked --bin pgn-arbiter
bin=$PWD/target/release/pgn-arbiter
# Copy number $1 of the games on standard input: its players renamed.
renamed() {
  sed -e "s/^\[White \"/[White \"$1./" -e "s/^\[Black \"/[Black \"$1./"
}
# The sample: the lichess exports of the shared corpora, four times over
# (long enough to time), written as the database is (pzstd: independent
# frames, a skippable frame before each).
sample=$work/lichess.pgn
for k in 1 2 3 4; do
  find "$corpora/online" -name 'lichess_*.pgn' | LC_ALL=C sort | while read -r f; do cat "$f"; printf '\n\n'; done | renamed "$k"
done > "$sample"
rm -f "$sample.zst"
pzstd -q -p "$(nproc)" "$sample" -o "$sample.zst"
frames=$(( $("$bin" frames "$sample.zst" | wc -l) - 1 ))
range="0..$((frames - 1))"
games=$("$bin" --count --zstd-frames "$range" "$sample.zst" | python3 -c 'import json,sys; print(json.load(sys.stdin)["games"])')
kept=$work/sample.results
"$bin" -q -j 1 --zstd-frames "$range" --keep-results "$kept" "$sample.zst"
printf '{"results": "%s", "games_before": 0, "across": "%s"}\n' "$kept" "$work/sample.across" > "$work/sample.list"
"$bin" across "$work/sample.list" >/dev/null
hyperfine -N --warmup 1 --runs "$runs" --export-json "$work/scale.json" \
  -n count "$bin --count --zstd-frames $range $sample.zst" \
  -n count-lines "$bin --count-lines --zstd-frames $range $sample.zst" \
  -n audit "$bin -q -j 1 --keep-results $work/timed.results --zstd-frames $range $sample.zst" \
  -n across "$bin across $work/sample.list" \
  -n render "$bin -q --fail-on never --no-header --render $kept --across $work/sample.across --findings /dev/null --games /dev/null" \
  -n decompress "zstd -dcq $sample.zst -o /dev/null -f" >/dev/null
results_size=$(stat -c %s "$kept")

python3 - "$work/scale.json" "$games" "$(stat -c %s "$sample")" "$(stat -c %s "$sample.zst")" "$frames" "$results_size" > "$work/scale.md" <<'PY'
import json, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
games, plain, packed, frames = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
results_size = int(sys.argv[6])
cpu = {name: r["user"] + r["system"] for name, r in results.items()}
wall = {name: r["mean"] for name, r in results.items()}
per_game = (cpu["count-lines"] + cpu["audit"] + cpu["render"]) / games
print(f"- Sample: the lichess exports of the shared corpora four times over, {games} games, {plain / 1e6:.1f} MB")
print(f"  of PGN, {packed / 1e6:.1f} MB as pzstd writes it ({frames} frames); {plain / games:.0f} bytes a game.")
print(f"- Mean of the runs (hyperfine), seconds of CPU (wall): counting lines {cpu['count-lines']:.3f} "
      f"({wall['count-lines']:.3f}),")
print(f"  {cpu['count-lines'] / cpu['audit']:.2f}x the audit; counting games and lines (`--count`, the pass "
      f"the driver made before) {cpu['count']:.3f} ({wall['count']:.3f}),")
print(f"  {cpu['count'] / cpu['audit']:.2f}x the audit; auditing one shard (-j 1, its results kept) "
      f"{cpu['audit']:.3f} ({wall['audit']:.3f});")
print(f"  rendering its reports {cpu['render']:.3f} ({wall['render']:.3f}), {cpu['render'] / cpu['audit']:.2f}x the "
      f"audit; zstd -d alone {wall['decompress']:.3f} wall")
print(f"  ({plain / 1e6 / wall['decompress']:.0f} MB/s of PGN). Each decompresses; the audit's reader thread")
print(f"  decompresses beside its worker, so the CPU time is what a core of a cluster spends.")
print(f"- Per game, counting lines, auditing and rendering: {per_game * 1e6:.2f} µs of CPU, so one core "
      f"does {1 / per_game:,.0f} games/s.")
print(f"- The results kept: {results_size / games:.0f} bytes a game. Looking across them (`pgn-arbiter across`, "
      f"copies and rounds, one task for the whole run): {cpu['across']:.3f} s of CPU, "
      f"{games / cpu['across']:,.0f} games/s on one core;")
print(f"  for the archive, {7e9 / (games / cpu['across']) / 3600:.1f} h on one core and "
      f"{7e9 * results_size / games / 1e9:.0f} GB of results read, whatever the cluster.")
print()
print("Wall time on W cores, each running one shard at a time: games × CPU per game / W (the")
print("driver's start, about 1.3 s, the join, and moving the files to the machines are left out).")
print("A month is taken as 100 million games, the archive as 7 billion.")
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

# An archive of at least 6 GB: its frames listed once by the driver and
# handed to the shards, against the whole run.
: > "$work/archive.md"
if [ "$copies" -gt 0 ]; then
  big=$work/archive.pgn.zst
  for k in $(seq "$copies"); do renamed "$k" < "$sample"; done | pzstd -q -p "$(nproc)" -c > "$big"
  venv=$work/scale-venv
  [ -x "$venv/bin/python" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install -q -r scale/requirements.txt; }
  first=$("$bin" frames "$big" | sed -n 2p | awk -F, '{print $2 ".." $2 + $3}')
  hyperfine -N --warmup 1 --runs "$runs" --export-json "$work/listing.json" \
    -n listing "$bin frames $big" \
    -n shard-listed "$bin --count-lines --zstd-frames 0..0 $big" \
    -n shard-handed "$bin --count-lines --zstd-frames 0..0 --frame-bytes $first $big" >/dev/null
  rm -rf "$work/archive-out"
  PGN_ARBITER=$bin /usr/bin/time -f "%e %U %S" -o "$work/archive.time" \
    "$venv/bin/python" scale/audit.py --workers "$(nproc)" --out "$work/archive-out" "$big" 2>/dev/null || true
  # One run over the same file on the same cores, and whether the joined
  # reports are its reports.
  /usr/bin/time -f "%e %U %S" -o "$work/one.time" "$bin" -q --fail-on never \
    --findings "$work/one.findings.csv" --games "$work/one.games.csv" "$big"
  same=no
  cmp -s "$work/one.findings.csv" "$work/archive-out/findings.csv" &&
    cmp -s "$work/one.games.csv" "$work/archive-out/games.csv" && same=yes
  rm -f "$work/one.findings.csv" "$work/one.games.csv"
  python3 - "$work/listing.json" "$work/archive.time" "$work/archive-out/summary.json" "$big" \
    "$(( $(stat -c %s "$sample") * copies ))" "$copies" "$work/one.time" "$same" > "$work/archive.md" <<'PY'
import json, os, sys
listing = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
wall, user, system = map(float, open(sys.argv[2]).read().split()[-3:])
summary = json.load(open(sys.argv[3]))
packed, plain = os.path.getsize(sys.argv[4]), int(sys.argv[5])
cpu = user + system
lists = listing["listing"]["user"] + listing["listing"]["system"]
plan = summary["seconds"]["plan"]
shards = summary["shards"]
per_shard = {k: listing[k]["mean"] for k in ("shard-listed", "shard-handed")}
print(f"- Archive: the sample {sys.argv[6]} times over, "
      f"{packed / 1e9:.2f} GB as pzstd writes it ({plain / 1e9:.1f} GB of PGN), "
      f"{summary['total']['games']:,} games; scale/audit.py cut it into {shards} shards.")
print(f"- The whole run (`scale/audit.py --workers {os.cpu_count()}`, GNU time): {wall:.0f} s wall, "
      f"{cpu:.0f} s of CPU (driver, workers and every pgn-arbiter run); "
      f"complete: {summary['complete']}.")
print(f"- Planning (the driver lists the file once, `pgn-arbiter frames`, and cuts it): {plan:.2f} s wall, "
      f"{plan / cpu:.2%} of the run's CPU time (the listing alone: {lists:.3f} s of CPU, "
      f"{listing['listing']['mean']:.3f} s wall).")
print(f"- A shard opened by listing the file itself (a {shards}-shard run would do it twice a shard): "
      f"{per_shard['shard-listed']:.3f} s wall for frame 0's lines; handed its bytes (`--frame-bytes`), "
      f"{per_shard['shard-handed']:.3f} s. Listed by every shard, twice: "
      f"{2 * shards * per_shard['shard-listed'] / cpu:.2%} of the run's CPU time.")
print(f"- The driver's other steps, wall: shards {summary['seconds']['shards']:.0f} s (of which the look "
      f"across them {summary['seconds']['across']:.1f} s), join {summary['seconds']['join']:.1f} s; "
      f"{summary['total']['by_code'].get('duplicate-game', 0):,} copies found.")
one_wall, one_user, one_system = map(float, open(sys.argv[7]).read().split()[-3:])
print(f"- One run over the file (`pgn-arbiter -j {os.cpu_count()}`, copies and rounds on): {one_wall:.0f} s wall, "
      f"{one_user + one_system:.0f} s of CPU; the driver took {wall / one_wall:.2f}x its wall time and "
      f"{cpu / (one_user + one_system):.2f}x its CPU time. Joined reports identical to its reports: {sys.argv[8]}.")
PY
fi

{
  echo "# What a cluster would take for the lichess database"
  echo
  echo "Written by \`bench/scale.sh\`; every figure comes from one run of it."
  echo
  machine
  echo "- Build $(git rev-parse --short HEAD)."
  cat "$work/scale.md"
  if [ -s "$work/archive.md" ]; then
    echo
    echo "## An archive of 6 GB"
    echo
    cat "$work/archive.md"
  fi
} > bench/SCALE.md
cat bench/SCALE.md
