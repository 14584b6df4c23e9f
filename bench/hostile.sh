#!/usr/bin/env bash
# Peak memory (RSS) and time on hostile input shapes, at -j1 and -j8, with
# the release build. Writes bench/HOSTILE.md and puts the same table at the
# end of bench/RESULTS.md (bench/run.sh keeps it there). Every shape must
# stay within 64 MiB whatever its size.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
need_apt bzip2 bzip2
cargo build --release --quiet
bin=$PWD/target/release/pgn-arbiter
dir=$work/hostile
mkdir -p "$dir"

python3 - "$dir" <<'PY'
import sys, os
d = sys.argv[1]
def write(name, parts):
    path = os.path.join(d, name)
    if os.path.exists(path):
        return
    with open(path, "wb") as f:
        for p in parts:
            f.write(p)
write("stars.pgn", [b"*\n\n" * 3_000_000])
write("header-only.pgn", [b'[White "x"]\n\n' * 1_000_000])
write("header-only-3m.pgn", [b'[White "x"]\n\n' * 3_000_000])
write("header-only-10m.pgn", [b'[White "x"]\n\n' * 10_000_000])
write("long-line.pgn", [b'[Event "x"]\n\n'] + [b"Nf3 Nf6 Ng1 Ng8 " * 65536] * 100 + [b"*\n"])
write("big-comment.pgn", [b'[Event "x"]\n\n{'] + [b"a" * (1 << 20)] * 200 + [b"} *\n"])
write("wrong-check-suffix.pgn", [b'[Event "x"]\n\n'] + [b"Nf3+ Nf6+ Ng1+ Ng8+ " * 25_000] + [b"*\n"])
write("many-bad-tags.pgn", [b"[x]\n" * 2_000_000 + b"\n1. e4 *\n"])
write("deep-variations.pgn", [b'[Event "x"]\n\n1. e4 ' + b"(1. d4 " * 500_000 + b")" * 500_000 + b" *\n"])
write("many-variations.pgn", [b'[Event "x"]\n\n1. e4 e5 ' + b"(1... c5 2. Ke3) " * 200_000 + b"*\n"])
write("tiny-games-with-tags.pgn", [b'[Event "=1+1"]\n[Result "1-0"]\n\n1. e4 0-1\n\n' * 300_000])
# 20 games of a million moves each, just under the 4 MiB a game may hold.
write("long-games.pgn", [b'[Event "x"]\n\n' + b"Nf3 Nf6 Ng1 Ng8 " * 250_000 + b"*\n\n"] * 20)
# 300 games, each with a 3.9 MB tag, for --html and --fix (once a 1.17 GB page).
write("giant-tags.pgn", [b'[Event "' + b"x" * 3_900_000 + b'"]\n[White "' + b"=w" * 1000 + b'"]\n\n1. e4 e5 *\n\n'] * 300)
# Tags with quotes inside their values, at every block boundary.
write("inner-quotes.pgn", [b'[Event "006.Torneo "Pribaltic""]\n[White ""Mephisto""]\n[Annotator "' + b"y" * 300 + b'"]\n\n1. e4 e5 2. Nf3 *\n\n'] * 100_000)
# TRFs that state sizes they do not have, or are no TRF.
write("xxr.trf", [b"012 t\nXXR 10000000\n001    1      Alpha, A                          2000 GER         101 2000/01/01  0.0    1\n"])
write("long-line.trf", [b"001    1      Alpha, A                          2000 GER         101 2000/01/01  0.0    1  " + b"   2 w 1  " * 1_000_000 + b"\n"])
PY
[ -f "$dir/nul.pgn.bz2" ] || head -c 2000M /dev/zero | bzip2 -9 > "$dir/nul.pgn.bz2"

out=bench/HOSTILE.md
{
  echo "# Peak memory on hostile input"
  echo
  echo "Made by \`bench/hostile.sh\` on $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), $(date -u +%Y-%m-%d)."
  echo "Peak RSS as \`/usr/bin/time -f %M\` reports it; exit status and games counted by the run."
  echo
  echo "| input | size | -j | peak RSS (MiB) | time (s) | exit | games |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
} > "$out"
measure() { # name file-or-device size-label jobs [more arguments]
  local name=$1 src=$2 size=$3 j=$4 log=$dir/time.log
  shift 4
  set +e
  timeout 300 /usr/bin/time -f '%M %e' -o "$log" "$bin" -j "$j" --findings /dev/null "$@" "$src" 2> "$dir/stderr.log" >/dev/null
  local status=$?
  set -e
  local games
  games=$(grep -o '[0-9]* games\?,' "$dir/stderr.log" | head -1 | cut -d' ' -f1 || true)
  read -r kb secs < <(tail -1 "$log")
  printf '| %s | %s | %s | %.1f | %s | %s | %s |\n' "$name" "$size" "$j" "$(echo "$kb/1024" | bc -l)" "$secs" "$status" "${games:-0}" >> "$out"
}
for j in 1 8; do
  for f in stars header-only header-only-3m header-only-10m long-line long-games big-comment wrong-check-suffix deep-variations many-variations many-bad-tags tiny-games-with-tags; do
    measure "$f" "$dir/$f.pgn" "$(du -h --apparent-size "$dir/$f.pgn" | cut -f1)" "$j"
  done
  measure "bzip2 of 2000 MB of NUL" "$dir/nul.pgn.bz2" "$(du -h --apparent-size "$dir/nul.pgn.bz2" | cut -f1)" "$j"
  measure "/dev/zero" /dev/zero "endless" "$j"
  rm -f "$dir/page.html" "$dir/fixed.pgn"
  measure "giant-tags, --html and --fix" "$dir/giant-tags.pgn" "$(du -h --apparent-size "$dir/giant-tags.pgn" | cut -f1)" "$j" \
    --games /dev/null --html "$dir/page.html" --fix "$dir/fixed.pgn"
  measure "inner-quotes, --fix" "$dir/inner-quotes.pgn" "$(du -h --apparent-size "$dir/inner-quotes.pgn" | cut -f1)" "$j" \
    --fix "$dir/fixed.pgn"
  for trf in xxr.trf long-line.trf /dev/zero; do
    case $trf in /*) path=$trf ;; *) path=$dir/$trf ;; esac
    measure "sample with --trf $trf" fixtures/sample.pgn "$(du -h --apparent-size "$path" 2>/dev/null | cut -f1 | sed 's/^0$/endless/')" "$j" --trf "$path"
  done
done
# The same section at the end of RESULTS.md, replacing an older one.
python3 - "$out" bench/RESULTS.md <<'PY'
import re, sys
table, results = open(sys.argv[1]).read(), sys.argv[2]
text = open(results).read()
text = re.split(r"\n#+ Peak memory on hostile input\n", text)[0].rstrip("\n")
text += "\n\n## Peak memory on hostile input\n" + table.split("\n", 1)[1]
open(results, "w").write(text)
PY
cat "$out"
