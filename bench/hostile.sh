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
# The files of an archive audited in shards: a list of the most shards
# `across` takes (their results missing), a list of one 100 MB line, a
# settings file of 100 MB.
write("many-shards-65536.jsonl", [b'{"results": "missing/%d.results", "games_before": %d, "across": "out/%d.across"}\n' % (i, i, i) for i in range(65_536)])
write("long-line.jsonl", [b'{"results": "' + b"r" * 100_000_000 + b'"}\n'])
write("big.toml", [b'select = "error"\n' + b"# x\n" * 25_000_000])
# TRFs that state sizes they do not have, or are no TRF.
write("xxr.trf", [b"012 t\nXXR 10000000\n001    1      Alpha, A                          2000 GER         101 2000/01/01  0.0    1\n"])
write("long-line.trf", [b"001    1      Alpha, A                          2000 GER         101 2000/01/01  0.0    1  " + b"   2 w 1  " * 1_000_000 + b"\n"])
PY
[ -f "$dir/nul.pgn.bz2" ] || head -c 2000M /dev/zero | bzip2 -9 > "$dir/nul.pgn.bz2"
# Results files: of three million header-only games (rendered), 100 MB of
# zeros (no results file), and one sealed around a record that says it is
# 4 GiB long (the seal made as the tool makes it, over a zstd stream).
# Made again by each run: they are of this build.
rm -f "$dir/header-only-3m.results" "$dir/huge-record.results"
"$bin" -q --fail-on never --keep-results "$dir/header-only-3m.results" "$dir/header-only-3m.pgn"
[ -f "$dir/zeros.results" ] || head -c 100M /dev/zero > "$dir/zeros.results"
if [ ! -f "$dir/huge-record.results" ]; then
  python3 - "$dir/header-only-3m.results" "$dir/huge-record.results" <<'PY'
import hashlib, struct, subprocess, sys
data = open(sys.argv[1], "rb").read()
line = data[:data.index(b"\n") + 1]
records = subprocess.run(["zstd", "-dc"], input=data[len(line):-56], capture_output=True, check=True).stdout
header = records[:4 + struct.unpack("<I", records[:4])[0]]
stream = subprocess.run(["zstd", "-1c"], input=header + struct.pack("<I", 0xFFFFFFFF) + b"x" * 64,
                        capture_output=True, check=True).stdout
mark, counts = b"PGNA\0END", struct.pack("<QQ", 1, len(stream))
seal = mark + counts + hashlib.sha256(line + stream + mark + counts).digest()
open(sys.argv[2], "wb").write(line + stream + seal)
PY
fi

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
# The reports: to /dev/null as CSV, or with FORM=parquet as Parquet files.
reports() {
  if [ "${FORM:-csv}" = parquet ]; then
    echo --output-format parquet --findings "$dir/f.parquet" --games "$dir/g.parquet"
  else
    echo --findings /dev/null
  fi
}
measure() { # name file-or-device size-label jobs [more arguments]
  local name=$1 src=$2 size=$3 j=$4
  shift 4
  # shellcheck disable=SC2046
  measure_command "$name" "$size" "$j" "$bin" -j "$j" $(reports) "$@" "$src"
}
measure_command() { # name size-label jobs command...
  local name=$1 size=$2 j=$3 log=$dir/time.log
  shift 3
  [ "${FORM:-csv}" = parquet ] && name="$name, Parquet"
  set +e
  timeout 300 /usr/bin/time -f '%M %e' -o "$log" "$@" 2> "$dir/stderr.log" >/dev/null
  local status=$?
  set -e
  local games
  games=$(grep -o '[0-9]* games\?,' "$dir/stderr.log" | head -1 | cut -d' ' -f1 || true)
  read -r kb secs < <(tail -1 "$log")
  printf '| %s | %s | %s | %.1f | %s | %s | %s |\n' "$name" "$size" "$j" "$(echo "$kb/1024" | bc -l)" "$secs" "$status" "${games:-0}" >> "$out"
}
size() { du -h --apparent-size "$1" 2>/dev/null | cut -f1 | sed 's/^0$/endless/'; }
for j in 1 8; do
  for FORM in csv parquet; do
  for f in stars header-only header-only-3m header-only-10m long-line long-games big-comment wrong-check-suffix deep-variations many-variations many-bad-tags tiny-games-with-tags; do
    measure "$f" "$dir/$f.pgn" "$(du -h --apparent-size "$dir/$f.pgn" | cut -f1)" "$j"
  done
  measure "bzip2 of 2000 MB of NUL" "$dir/nul.pgn.bz2" "$(du -h --apparent-size "$dir/nul.pgn.bz2" | cut -f1)" "$j"
  measure "/dev/zero" /dev/zero "endless" "$j"
  rm -f "$dir/page.html" "$dir/fixed.pgn"
  # shellcheck disable=SC2046
  measure "giant-tags, --html and --fix" "$dir/giant-tags.pgn" "$(du -h --apparent-size "$dir/giant-tags.pgn" | cut -f1)" "$j" \
    $([ "$FORM" = csv ] && echo --games /dev/null) --html "$dir/page.html" --fix "$dir/fixed.pgn"
  measure "inner-quotes, --fix" "$dir/inner-quotes.pgn" "$(du -h --apparent-size "$dir/inner-quotes.pgn" | cut -f1)" "$j" \
    --fix "$dir/fixed.pgn"
  # shellcheck disable=SC2046
  measure_command "--render header-only-3m.results" "$(size "$dir/header-only-3m.results")" "$j" \
    "$bin" -j "$j" $(reports) --render "$dir/header-only-3m.results"
  done
  FORM=csv
  for results in zeros.results huge-record.results /dev/zero; do
    case $results in /*) path=$results ;; *) path=$dir/$results ;; esac
    measure_command "--render $results" "$(size "$path")" "$j" "$bin" -j "$j" --findings /dev/null --render "$path"
  done
  for list in many-shards-65536.jsonl long-line.jsonl /dev/zero; do
    case $list in /*) path=$list ;; *) path=$dir/$list ;; esac
    measure_command "across $list" "$(size "$path")" "$j" "$bin" across "$path"
  done
  for config in big.toml /dev/zero; do
    case $config in /*) path=$config ;; *) path=$dir/$config ;; esac
    measure "sample with --config $config" fixtures/sample.pgn "$(size "$path")" "$j" --config "$path"
  done
  for trf in xxr.trf long-line.trf /dev/zero; do
    case $trf in /*) path=$trf ;; *) path=$dir/$trf ;; esac
    measure "sample with --trf $trf" fixtures/sample.pgn "$(du -h --apparent-size "$path" 2>/dev/null | cut -f1 | sed 's/^0$/endless/')" "$j" --trf "$path"
  done
  # A JUnit suite holds its cases until its counts are known: 1 MiB in
  # memory, the rest in a temporary file.
  measure_command "header-only-3m, JUnit" "$(size "$dir/header-only-3m.pgn")" "$j" \
    "$bin" -j "$j" --output-format junit --findings /dev/null "$dir/header-only-3m.pgn"
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
