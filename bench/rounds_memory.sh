#!/usr/bin/env bash
# Memory of the round tables: peak RSS and wall time of one run over N
# synthetic tournament games (events of 100 players, 9 rounds, boards
# written "R.B", every event its own name, one after the other as
# archives hold them) read from standard input: with no limit, with the
# default --memory-limit (an eighth of it, 128 MiB, for the round tables),
# and with --no-duplicates (no run-wide table); bytes a game = the
# difference from the last / N. Writes bench/ROUNDS-MEMORY.md.
#
#   bench/rounds_memory.sh                 # 1 and 10 million games
#   GAMES="1000000" bench/rounds_memory.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
games=${GAMES:-1000000 10000000}
cargo build --release --locked --quiet
bin=$PWD/target/release/pgn-arbiter

# N games on standard output: a block of 450 (one event: 9 rounds of 50
# boards, a round robin's circle method) made once, with the event's
# number in its name and its players' names.
generate() {
  python3 - "$1" <<'PY'
import sys
n = int(sys.argv[1])
out = sys.stdout.buffer
openings = [b"1. e4 e5 2. Nf3 Nc6", b"1. d4 d5 2. c4 e6", b"1. c4 e5 2. Nc3 Nf6", b"1. Nf3 d5 2. g3 Nf6"]
games = []
for r in range(9):
    for b in range(50):
        a, c = (r + b) % 99, (99 if b == 0 else (r + 99 - b) % 99)
        white, black = (a, c) if (r + b) % 2 else (c, a)
        games.append(
            b'[Event "Open %%d"]\n[Site "Town"]\n[Date "2024.01.01"]\n[Round "'
            + f"{r + 1}.{b + 1}".encode()
            + b'"]\n[White "P%%d-' + str(white).encode() + b'"]\n[Black "P%%d-' + str(black).encode()
            + b'"]\n[Result "1-0"]\n\n' + openings[(r + b) % 4] + b" 1-0\n\n"
        )
template = b"".join(games)
assert n % 450 == 0, "a multiple of 450 games"
for event in range(n // 450):
    out.write(template.replace(b"%%d", str(event).encode()))
PY
}

run() { # "peak RSS in KiB<TAB>wall s" of: generate N | pgn-arbiter ARGS
  local n=$1
  shift
  generate "$n" > "$work/rounds.pgn"
  /usr/bin/time -f '%M\t%e' -o "$work/rss" "$bin" -q --fail-on never --findings /dev/null "$@" "$work/rounds.pgn" >/dev/null
  cat "$work/rss"
}

rows=$work/rounds-memory.tsv
: > "$rows"
for n in $games; do
  n=$((n / 450 * 450))
  printf '%s\t%s\t%s\t%s\n' "$n" "$(run "$n" --memory-limit 0)" "$(run "$n")" "$(run "$n" --no-duplicates)" >> "$rows"
done
rm -f "$work/rounds.pgn"

{
  echo "# Memory of the round tables"
  echo
  echo "Written by \`bench/rounds_memory.sh\`; every figure comes from one run of it."
  echo
  machine
  echo "- Input: synthetic tournament games read from a file: events of 100 players"
  echo "  and 9 rounds (450 games, boards written \`R.B\`), each event its own name,"
  echo "  one after the other. Peak RSS and wall time of the whole process (GNU"
  echo "  time): with \`--memory-limit 0\` (every table in memory), with the default"
  echo "  \`--memory-limit 1G\` (128 MiB of it for the round tables: past it, the"
  echo "  events seen longest ago go to disk), and with \`--no-duplicates\` (no"
  echo "  run-wide table). Bytes a game: the difference from \`--no-duplicates\`,"
  echo "  over the games; it includes the duplicates table's 22 or so."
  echo
  echo "| games | no limit: peak RSS | bytes a game | wall | default limit: peak RSS | bytes a game | wall | --no-duplicates: peak RSS | wall |"
  echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  while IFS=$'\t' read -r n m0 t0 m1 t1 m2 t2; do
    python3 -c "
import sys
n, m0, m1, m2 = map(int, sys.argv[1:5]); t0, t1, t2 = map(float, sys.argv[5:])
print(f'| {n:,} | {m0/1024:.0f} MiB | {(m0-m2)*1024/n:.1f} | {t0:.1f} s | {m1/1024:.0f} MiB | {(m1-m2)*1024/n:.1f} | {t1:.1f} s | {m2/1024:.0f} MiB | {t2:.1f} s |')" "$n" "$m0" "$m1" "$m2" "$t0" "$t1" "$t2"
  done < "$rows"
} > bench/ROUNDS-MEMORY.md
cat bench/ROUNDS-MEMORY.md
