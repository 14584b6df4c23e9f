#!/usr/bin/env bash
# Memory of the duplicates table: peak RSS and wall time of one run over N
# synthetic short games (lichess-shaped: Round "-", two players of their
# own, four moves) read from a file, with duplicates looked for under a
# memory limit, with no limit, and without (--no-duplicates); bytes a game
# = the difference / N. Writes bench/DUPLICATES-MEMORY.md. The 100-million
# game file takes 23 GB of $TMPDIR while it runs.
#
#   bench/duplicates_memory.sh            # 1 and 10 million games, and 100
#                                     # million with a 256 MiB limit
#   GAMES="1000000" SPILL= bench/duplicates_memory.sh
#   GAMES= SPILL="3000000:8M" bench/duplicates_memory.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
games=${GAMES:-1000000 10000000}
# N:LIMIT pairs run with --memory-limit LIMIT (the table then spills to
# disk).
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

run() { # "peak RSS in KiB<TAB>wall s" of pgn-arbiter ARGS on $work/copies.pgn
  /usr/bin/time -f '%M\t%e' -o "$work/rss" "$bin" -q --fail-on never --findings /dev/null "$@" "$work/copies.pgn" >/dev/null
  cat "$work/rss"
}

# N games with duplicates looked for under LIMIT, with every table in memory,
# and with --no-duplicates, from one file.
row() {
  local n=$1 limit=$2
  generate "$n" > "$work/copies.pgn"
  printf '%s\t%s\t%s\t%s\t%s\n' "$n" "$limit" "$(run --memory-limit "$limit")" \
    "$(run --memory-limit 0)" "$(run --no-duplicates)" >> "$rows"
  rm -f "$work/copies.pgn"
}

rows=$work/duplicates-memory.tsv
: > "$rows"
for n in $games; do
  row "$n" 1G
done
for pair in $spill; do
  row "${pair%%:*}" "${pair#*:}"
done

{
  echo "# Memory of the duplicates table"
  echo
  echo "Written by \`bench/duplicates_memory.sh\`; every figure comes from one run of it."
  echo
  machine
  echo "- Input: synthetic short games read from a file (lichess-shaped: Round"
  echo "  \"-\", players of their own, four moves), every game distinct. Peak RSS"
  echo "  and wall time of the whole process (GNU time) with duplicates looked for under"
  echo "  the limit (seven eighths of it for the duplicates table; past it, the table's"
  echo "  older part is on disk and about 1.3 bytes a game stay in memory), with"
  echo "  every table in memory (\`--memory-limit 0\`), and with \`--no-duplicates\`."
  echo "  Bytes a game: the difference from \`--no-duplicates\`, over the games."
  echo
  echo "| games | --memory-limit | peak RSS | bytes a game | wall | in memory: peak RSS | bytes a game | wall | --no-duplicates: peak RSS | wall |"
  echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  while IFS=$'\t' read -r n limit m1 t1 m0 t0 m2 t2; do
    python3 -c "
import sys
n, m1, m0, m2 = map(int, sys.argv[1:5]); t1, t0, t2 = map(float, sys.argv[5:8])
print(f'| {n:,} | {sys.argv[8]} | {m1/1024:.0f} MiB | {(m1-m2)*1024/n:.1f} | {t1:.0f} s | {m0/1024:.0f} MiB | {(m0-m2)*1024/n:.1f} | {t0:.0f} s | {m2/1024:.0f} MiB | {t2:.0f} s |')" "$n" "$m1" "$m0" "$m2" "$t1" "$t0" "$t2" "$limit"
  done < "$rows"
} > bench/DUPLICATES-MEMORY.md
cat bench/DUPLICATES-MEMORY.md
