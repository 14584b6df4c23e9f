# Shared by the benchmark scripts (sourced): where the inputs live and how
# the benchmark corpus is made.
corpora=${CORPORA:-../shared/corpora}
work=${WORK:-${TMPDIR:-/tmp}/pgn-arbiter-bench}
mkdir -p "$work"

need_apt() { command -v "$1" >/dev/null || { apt-get update -qq && apt-get install -y -qq "$2" >/dev/null; }; }

# The corpus: every real file of the shared corpora, joined by blank lines,
# at $work/corpus.pgn.
make_corpus() {
  need_apt zstd zstd
  corpus=$work/corpus.pgn
  {
    zstd -dc "$corpora/master/gnuchess-book_1.02.pgn.zst"
    find "$corpora" -name '*.pgn' | LC_ALL=C sort | while read -r f; do printf '\n\n'; cat "$f"; done
  } > "$corpus"
}
