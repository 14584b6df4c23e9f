#!/usr/bin/env bash
# pgn-arbiter against the floors it is held to, on the corpus (every real
# file of the shared corpora joined), in interleaved pairs (A B A B ...,
# one warm-up pair, whole-process wall time), the ratio taken pair by pair:
#
# - one thread (`-j 1`) against the bare replay that also keeps the Zobrist
#   key of every position (`examples/bare_replay --hash`: what any
#   repetition check needs), and against the bare replay without keys;
# - all cores against one thread, and against pgn-extract `-r`;
# - the machine's own ceiling for that scaling, in the same rounds as all
#   cores against one thread: as many hashed bare replays as cores side by
#   side (separate processes, nothing shared or waited for) against the
#   same replays one after the other;
# - `-j N` against `-j 1` for N = 2, 4, 8 (the scaling curve; past the
#   machine's cores the workers share them);
# - peak memory on the corpus, duplicates looked for (the default);
# - each tool on its own (the README's table): its median time in those
#   pairs, MB/s and games/s of the corpus, and peak memory; python-chess
#   (bench/python_chess_replay.py: every mainline move replayed, the end
#   judged) timed once, since one run takes minutes.
#
# Writes bench/RATIO.md. Installs hyperfine and pgn-extract if missing.
#
#   bench/ratio.sh              # 7 pairs each
#   PAIRS=15 bench/ratio.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
pairs=${PAIRS:-7}
need_peers

cargo build --release --locked --bin pgn-arbiter --example bare_replay
arbiter=$PWD/target/release/pgn-arbiter
bare=$PWD/target/release/examples/bare_replay
make_corpus
cores=$(nproc)
audit() { echo "$arbiter -q --fail-on never -j $1 --findings /dev/null $corpus"; }

out=$work/ratio-pairs.tsv
: > "$out"
time_pairs "$(audit 1)" "$bare --hash $corpus" "$pairs" "-j 1 / hashed bare replay" "$out"
time_pairs "$(audit 1)" "$bare $corpus" "$pairs" "-j 1 / bare replay" "$out"
side=$(for _ in $(seq "$cores"); do printf '%s --hash %s & ' "$bare" "$corpus"; done)
turns=$(for _ in $(seq "$cores"); do printf '%s --hash %s; ' "$bare" "$corpus"; done)
scaling="-j $cores / -j 1"
ceiling="ceiling: $cores hashed bare replays side by side / in turn"
time_two_pairs "$(audit "$cores")" "$(audit 1)" "$scaling" \
  "sh -c '${side}wait'" "sh -c '$turns'" "$ceiling" "$pairs" "$out"
time_pairs "$(audit "$cores")" "/usr/games/pgn-extract -r -s $corpus" "$pairs" "-j $cores / pgn-extract -r" "$out"
for jobs in 2 4 8; do
  [ "$jobs" = "$cores" ] && continue
  time_pairs "$(audit "$jobs")" "$(audit 1)" "$pairs" "-j $jobs / -j 1" "$out"
done
/usr/bin/time -f %M -o "$work/ratio-rss" $(audit "$cores") >/dev/null
peak=$(tail -n 1 "$work/ratio-rss")
# Each tool once more, for its peak memory (python-chess: and its time).
python=${PYTHON_CHESS:-$work/pyc/bin/python}
[ -x "$python" ] || { python3 -m venv "$work/pyc" && "$work/pyc/bin/pip" install -q chess==1.11.2; }
games=$("$arbiter" --count "$corpus" | python3 -c 'import json, sys; print(json.load(sys.stdin)["games"])')
tools=$work/ratio-tools.tsv
: > "$tools"
rss() { # label command...
  local label=$1
  shift
  /usr/bin/time -f '%e %M' -o "$work/ratio-one" "$@" >/dev/null 2>&1 || true
  printf '%s\t%s\n' "$label" "$(tail -n 1 "$work/ratio-one")" >> "$tools"
}
rss "pgn-arbiter -j 1" $(audit 1)
rss "pgn-arbiter -j $cores" $(audit "$cores")
rss "pgn-extract -r" /usr/games/pgn-extract -r -s "$corpus"
rss "python-chess" "$python" bench/python_chess_replay.py "$corpus"
rss "bare replay, hashed" "$bare" --hash "$corpus"
rss "bare replay" "$bare" "$corpus"

{
  echo "# Speed against the floors"
  echo
  echo "Written by \`bench/ratio.sh\` on $(date -u +%Y-%m-%d) at $(git rev-parse --short HEAD); every figure comes from one run of it."
  echo
  machine
  echo "- Corpus: every real file of \`../shared/corpora\` joined, $(python3 -c "print(f'{$(stat -c %s "$corpus") / 1e6:.1f}')") MB."
  echo "- Whole-process wall time by hyperfine, A and B in turn, one warm-up pair, then $pairs pairs (\`-j $cores / -j 1\` and the ceiling: all four in turn in each round)."
  echo "- Speed is B's time over A's, pair by pair: above 1, A is faster."
  echo
  python3 - "$out" <<'PY'
import statistics, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
print("| A / B | pairs | A median s | B median s | speed median | min | max |")
print("|---|---:|---:|---:|---:|---:|---:|")
for label in dict.fromkeys(r[0] for r in rows):
    pairs = [(float(a), float(b)) for j, a, b in rows if j == label]
    speed = [b / a for a, b in pairs]
    print(f"| {label} | {len(pairs)} | {statistics.median(a for a, _ in pairs):.3f} | "
          f"{statistics.median(b for _, b in pairs):.3f} | {statistics.median(speed):.2f}x | "
          f"{min(speed):.2f}x | {max(speed):.2f}x |")
PY
  python3 - "$out" "$scaling" "$ceiling" <<'PY'
import statistics, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
speed = {label: [float(b) / float(a) for j, a, b in rows if j == label] for label in sys.argv[2:]}
of = [ours / most for ours, most in zip(*speed.values())]
print()
print(f"Round by round, `{sys.argv[2]}` over the ceiling (the same rounds): median "
      f"{statistics.median(of):.2f}, {min(of):.2f} to {max(of):.2f}.")
PY
  echo
  echo "Peak memory, all $cores cores, duplicates looked for: $((peak / 1024)) MiB (\`/usr/bin/time -f %M\`)."
  echo
  echo "## Each tool on its own"
  echo
  echo "The corpus, $games games: each tool's median time in the pairs above (python-chess: one run), and its peak memory in one run more (\`/usr/bin/time\`). The README shows this table."
  echo
  python3 - "$out" "$tools" "$(stat -c %s "$corpus")" "$games" "$cores" <<'PY'
import statistics, sys
pairs = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
tools = dict(l.rstrip("\n").split("\t") for l in open(sys.argv[2]))
size, games, cores = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
def median(label, side):
    return statistics.median(float(r[1 if side == "A" else 2]) for r in pairs if r[0] == label)
seconds = {
    "pgn-arbiter -j 1": median("-j 1 / hashed bare replay", "A"),
    f"pgn-arbiter -j {cores}": median(f"-j {cores} / pgn-extract -r", "A"),
    "pgn-extract -r": median(f"-j {cores} / pgn-extract -r", "B"),
    "python-chess": float(tools["python-chess"].split()[0]),
    "bare replay, hashed": median("-j 1 / hashed bare replay", "B"),
    "bare replay": median("-j 1 / bare replay", "B"),
}
print("| tool | seconds | MB/s | games/s | peak MiB |")
print("|---|---:|---:|---:|---:|")
for tool, s in seconds.items():
    peak = int(tools[tool].split()[1]) / 1024
    rate = size / 1e6 / s
    print(f"| {tool} | {s:.2f} | {rate:.0f} | {games / s:,.0f} | {peak:.0f} |" if rate >= 10 else
          f"| {tool} | {s:.2f} | {rate:.2f} | {games / s:,.0f} | {peak:.0f} |")
PY
} > bench/RATIO.md
cat bench/RATIO.md
