#!/usr/bin/env bash
# lichess's variants against python-chess: every game of the shared corpora
# whose Variant tag names one of lichess's variants (Atomic, Antichess, King
# of the Hill, Three-check, Crazyhouse, Racing Kings, Horde), joined twenty
# times; pgn-arbiter on one thread (every check, duplicates aside) against
# python-chess replaying the same games on its variant boards and judging
# their final positions (bench/python_chess_replay.py). Whole-process wall
# time, A and B in turn, ratio A/B pair by pair. Writes bench/VARIANTS.md.
# Installs hyperfine and python-chess if they are missing.
#
#   bench/variants.sh          # 5 pairs after one warm-up pair
#   RUNS=9 bench/variants.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
runs=${RUNS:-5}
need_apt hyperfine hyperfine
python3 -c 'import chess' 2>/dev/null || pip install -q chess

cargo build --release --locked --bin pgn-arbiter
bin=$PWD/target/release/pgn-arbiter
file=$work/variants.pgn
# A game starts at a tag after a blank line.
python3 - "$corpora" "$file" <<'PY'
import pathlib, re, sys
lichess = {"atomic", "antichess", "kingofthehill", "koth", "threecheck", "3check",
           "crazyhouse", "racingkings", "horde"}
games = []
for path in sorted(pathlib.Path(sys.argv[1]).rglob("*.pgn")):
    text = path.read_bytes().decode("utf-8", errors="replace").replace("\r\n", "\n")
    if '[Variant "' not in text:
        continue
    for game in re.split(r"\n[ \t]*\n(?=\[)", text):
        m = re.search(r'^\[Variant "([^"]*)"\]', game, re.M)
        if m and re.sub(r"[ \-_]", "", m.group(1).lower()) in lichess:
            games.append(game.strip() + "\n")
pathlib.Path(sys.argv[2]).write_text("\n".join(games * 20))
PY
games=$("$bin" --count "$file" | python3 -c 'import json, sys; print(json.load(sys.stdin)["games"])')
theirs=$(python3 bench/python_chess_replay.py "$file")

: > "$work/variant-pairs.tsv"
time_pairs "$bin -q -j 1 --fail-on never --no-duplicates --findings /dev/null $file" \
  "python3 bench/python_chess_replay.py $file" "$runs" variants "$work/variant-pairs.tsv"

{
  echo "# lichess's variants against python-chess"
  echo
  echo "Written by \`bench/variants.sh\` at $(git rev-parse --short HEAD); every figure comes from one run of it."
  echo
  machine
  echo "- Input: every game of the shared corpora whose Variant tag names one of lichess's variants, joined"
  echo "  twenty times: $(( $(stat -c %s "$file") / 1000 )) kB; games read: pgn-arbiter ${games:-?}, python-chess $theirs."
  echo "- A: pgn-arbiter, one thread, every check but duplicates; B: python-chess $(python3 -c 'import chess; print(chess.__version__)'),"
  echo "  replaying each mainline on its variant board and judging the final position."
  echo "- Whole-process wall time (hyperfine), A and B in turn, ratio A/B pair by pair (below 1: A is faster)."
  echo
  pair_table "$work/variant-pairs.tsv" input
} > bench/VARIANTS.md
cat bench/VARIANTS.md
