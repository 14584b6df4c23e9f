#!/usr/bin/env bash
# Shows that this checkout's outputs are byte for byte another commit's:
# both reports, the JSON summary (less the time taken and the build's
# commit), the corrected copies and the audit page, on the shared corpora
# (CORPORA) and on every tournament fixture with its TRF. For changes that
# must not change behaviour (a module moved, a function split).
#
#   scripts/same_output.sh REF     # e.g. main, HEAD~3, a commit
#   JOBS=1 scripts/same_output.sh REF   # with -j 1 (one thread reads and checks)
#
# REF is built in a worktree with its own target directory
# ($TMPDIR/pgn-arbiter-ref-target, kept for the next run).
set -euo pipefail
cd "$(dirname "$0")/.."
ref=${1:?usage: scripts/same_output.sh REF}
corpora=$(realpath "${CORPORA:-../shared/corpora}")
work=$(mktemp -d)
cleanup() {
  git worktree remove --force "$work/ref" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
git worktree add --quiet --detach "$work/ref" "$ref"
CARGO_TARGET_DIR=${TMPDIR:-/tmp}/pgn-arbiter-ref-target \
  cargo build --release --locked --quiet --manifest-path "$work/ref/Cargo.toml"
cargo build --release --locked --quiet
old=${TMPDIR:-/tmp}/pgn-arbiter-ref-target/release/pgn-arbiter
new=$PWD/target/release/pgn-arbiter

# Every output of the audits by BIN, in OUT (written in one place for
# both builds: the summary names the outputs).
audit() {
  local bin=$1 out=$work/out args case
  mkdir -p "$out"
  (cd "$(dirname "$corpora")" && "$bin" -q --fail-on never ${JOBS:+-j "$JOBS"} \
    --findings "$out/corpora.findings.csv" --games "$out/corpora.games.csv" \
    --summary "$out/corpora.summary.json" --html "$out/corpora.html" \
    --fix "$out/corpora.fixed" "$(basename "$corpora")")
  for args in fixtures/tournament/*.args; do
    case=$(basename "$args" .args)
    # shellcheck disable=SC2046 # the args file holds one argument a line
    (cd fixtures && "$bin" -q --fail-on never ${JOBS:+-j "$JOBS"} $(cat "tournament/$case.args") \
      --findings "$out/$case.findings.csv" --games "$out/$case.games.csv" \
      --summary "$out/$case.summary.json" --html "$out/$case.html" \
      --fix "$out/$case.fixed.pgn" "tournament/$case.pgn")
  done
  # The time taken, and the commit the build names and its date, are the
  # things that may differ.
  sed -i -E '/"(elapsed_seconds|games_per_second|commit|commit_date)"/d' "$out"/*.summary.json
  mv "$out" "$2"
}

audit "$old" "$work/old"
audit "$new" "$work/new"
if diff -r -q "$work/old" "$work/new"; then
  echo "same output as $ref ($(git rev-parse --short "$ref")): $(find "$work/new" -type f | wc -l) files, $(du -sh "$work/new" | cut -f1)"
else
  echo "outputs differ from $ref" >&2
  exit 1
fi
