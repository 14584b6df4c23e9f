# Shared by the benchmark scripts (sourced): where the inputs live and how
# the benchmark corpus is made.
corpora=${CORPORA:-../shared/corpora}
work=${WORK:-${TMPDIR:-/tmp}/pgn-arbiter-bench}
mkdir -p "$work"

need_apt() { command -v "$1" >/dev/null || { apt-get update -qq && apt-get install -y -qq "$2" >/dev/null; }; }

# The peers the timing scripts run: hyperfine, pgn-extract (in
# /usr/games, off PATH) and GNU time.
need_peers() {
  need_apt hyperfine hyperfine
  [ -x /usr/games/pgn-extract ] || { apt-get update -qq && apt-get install -y -qq pgn-extract >/dev/null; }
  [ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time >/dev/null; }
}

# The corpus: every real file of the shared corpora, joined by blank lines,
# at $work/corpus.pgn.
# Stops, leaving the corpus of an earlier run as it was, when there are no
# corpora to join.
make_corpus() {
  need_apt zstd zstd
  corpus=$work/corpus.pgn
  if [ ! -d "$corpora/master" ]; then
    echo "no shared corpora at $corpora (set CORPORA)" >&2
    exit 1
  fi
  {
    zstd -dc "$corpora/master/gnuchess-book_1.02.pgn.zst"
    find "$corpora" -name '*.pgn' | LC_ALL=C sort | while read -r f; do printf '\n\n'; cat "$f"; done
  } > "$corpus.partial"
  mv "$corpus.partial" "$corpus"
}

# Times two commands in turn (A B A B ...), one warm-up pair then $3 pairs,
# whole-process wall time by hyperfine, appending "label<TAB>A s<TAB>B s" to
# $5 for each pair: time_pairs A_CMD B_CMD RUNS LABEL FILE.
time_pairs() {
  local i
  for i in $(seq 0 "$3"); do
    hyperfine -N --runs 1 --export-json "$work/pair.json" -n A "$1" -n B "$2" >/dev/null 2>&1
    [ "$i" = 0 ] && continue # the warm-up pair
    python3 - "$work/pair.json" "$4" >> "$5" <<'PY'
import json, sys
r = {x["command"]: x["times"][0] for x in json.load(open(sys.argv[1]))["results"]}
print(f"{sys.argv[2]}\t{r['A']}\t{r['B']}")
PY
  done
}

# Two pairs timed in the same rounds (A B C D in turn, one warm-up round),
# so that both ratios meet the same load on the machine; a row for each
# pair and round in FILE:
# time_two_pairs A_CMD B_CMD LABEL_AB C_CMD D_CMD LABEL_CD RUNS FILE.
time_two_pairs() {
  local i
  for i in $(seq 0 "$7"); do
    hyperfine -N --runs 1 --export-json "$work/pair.json" \
      -n A "$1" -n B "$2" -n C "$4" -n D "$5" >/dev/null 2>&1
    [ "$i" = 0 ] && continue # the warm-up round
    python3 - "$work/pair.json" "$3" "$6" >> "$8" <<'PY'
import json, sys
r = {x["command"]: x["times"][0] for x in json.load(open(sys.argv[1]))["results"]}
print(f"{sys.argv[2]}\t{r['A']}\t{r['B']}")
print(f"{sys.argv[3]}\t{r['C']}\t{r['D']}")
PY
  done
}

# The Markdown table of a time_pairs file: pair_table FILE LABEL_HEADER.
pair_table() {
  python3 - "$1" "$2" <<'PY'
import statistics, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
print(f"| {sys.argv[2]} | pairs | A median s | B median s | A/B median | A/B min | A/B max |")
print("|---:|---:|---:|---:|---:|---:|---:|")
for label in dict.fromkeys(j for j, _, _ in rows):
    pairs = [(float(a), float(b)) for j, a, b in rows if j == label]
    ratios = [a / b for a, b in pairs]
    print(f"| {label} | {len(pairs)} | {statistics.median(a for a, _ in pairs):.3f} | "
          f"{statistics.median(b for _, b in pairs):.3f} | {statistics.median(ratios):.3f} | "
          f"{min(ratios):.3f} | {max(ratios):.3f} |")
PY
}

# One line naming the machine, for the reports.
machine() {
  python3 -c 'import os, platform
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
print(f"- Machine: {os.cpu_count()} cores ({cpu}), {platform.platform()}")'
}
