#!/usr/bin/env bash
# Memory of the copies table: peak RSS of one run over N synthetic short
# games (lichess-shaped: Round "-", two players of their own, four moves)
# read from standard input, with copies looked for and without
# (--no-duplicates); bytes a game = the difference / N. Writes
# bench/COPIES-MEMORY.md.
#
#   bench/copies_memory.sh            # 1 and 10 million games, and 100
#                                     # million with a 256 MiB limit
#   GAMES="1000000" SPILL= bench/copies_memory.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
games=${GAMES:-1000000 10000000}
# N:LIMIT pairs run with --memory-limit LIMIT (the table then spills to
# disk); their baseline without copies is the last run's above.
spill=${SPILL-100000000:256M}
cargo build --release --locked --quiet
bin=$PWD/target/release/pgn-arbiter

# N distinct games on standard output, fast: a block of 10,000 games made
# once per 10,000, with the block's number in each player's name.
generate() {
  python3 - "$1" <<'PY'
import sys
n = int(sys.argv[1])
out = sys.stdout.buffer
openings = [b"1. e4 e5 2. Nf3 Nc6", b"1. d4 d5 2. c4 e6", b"1. c4 e5 2. Nc3 Nf6", b"1. Nf3 d5 2. g3 Nf6"]
template = b"".join(
    b'[Event "Rated Blitz game"]\n[Site "https://example.org"]\n[Date "2024.01.01"]\n[Round "-"]\n'
    b'[White "w%%d-' + str(i).encode() + b'"]\n[Black "b%%d-' + str(i).encode() + b'"]\n[Result "1-0"]\n\n'
    + openings[i % 4] + b" 1-0\n\n"
    for i in range(10_000)
)
assert n % 10_000 == 0, "a multiple of 10,000 games"
for block in range(0, n, 10_000):
    out.write(template.replace(b"%%d", str(block).encode()))
PY
}

peak() { # peak RSS in KiB of: generate N | pgn-arbiter ARGS
  local n=$1
  shift
  generate "$n" | /usr/bin/time -f '%M' -o "$work/rss" "$bin" -q --fail-on never --findings /dev/null "$@" - >/dev/null
  cat "$work/rss"
}

rows=$work/copies-memory.tsv
: > "$rows"
for n in $games; do
  with=$(peak "$n")
  without=$(peak "$n" --no-duplicates)
  printf '%s\t%s\t%s\t%s\n' "$n" "1G (default)" "$with" "$without" >> "$rows"
done
for pair in $spill; do
  n=${pair%%:*}
  limit=${pair#*:}
  with=$(peak "$n" --memory-limit "$limit")
  printf '%s\t%s\t%s\t%s\n' "$n" "$limit" "$with" "$without" >> "$rows"
done

{
  echo "# Memory of the copies table"
  echo
  echo "Written by \`bench/copies_memory.sh\`; every figure comes from one run of it."
  echo
  machine
  echo "- Input: synthetic short games on standard input (lichess-shaped: Round \"-\","
  echo "  players of their own, four moves), every game distinct. Peak RSS of the"
  echo "  whole process (GNU time), with copies looked for and with \`--no-duplicates\`"
  echo "  (past the limit, the table's older part is on disk: about 1.3 bytes a game"
  echo "  stay in memory)."
  echo
  echo "| games | --memory-limit | peak RSS, copies | peak RSS, --no-duplicates | bytes a game for copies |"
  echo "|---:|---:|---:|---:|---:|"
  while IFS=$'\t' read -r n limit with without; do
    python3 -c "import sys; n,w,o=map(int,sys.argv[2:]); print(f'| {n:,} | {sys.argv[1]} | {w/1024:.0f} MiB | {o/1024:.0f} MiB | {(w-o)*1024/n:.1f} |')" "$limit" "$n" "$with" "$without"
  done < "$rows"
} > bench/COPIES-MEMORY.md
cat bench/COPIES-MEMORY.md
