#!/usr/bin/env bash
# Fuzzes TARGET for SECONDS (default 600). Targets: audit (the whole audit,
# fuzz_targets/audit.rs) and fix (the corrected copy), seeded with every
# input under fixtures/; results (results and across files, as they are
# and sealed around arbitrary records), list (the list `pgn-arbiter
# across` reads), settings (a settings file and a pyproject.toml) and
# parquet (rows through the Parquet writer and back), seeded with
# fuzz/seeds/TARGET/ (the results seeds are the records of real results
# and across files, after a byte the seal counts them by). Needs a nightly
# toolchain (libFuzzer's instrumentation); installs cargo-fuzz if it is
# missing.
#   fuzz/run.sh [SECONDS] [TARGET]
# A crash is saved under fuzz/artifacts/TARGET/; once fixed, copy it to
# fixtures/fuzz/ (not named *.pgn), where `cargo test` keeps it sound.
set -euo pipefail
cd "$(dirname "$0")"
target=${2:-audit}
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
corpus=corpus/$target
mkdir -p "$corpus"
case $target in
  audit | fix) seeds=../fixtures ;;
  *) seeds=seeds/$target ;;
esac
find "$seeds" -type f ! -name '*.csv' ! -name '*.md' ! -name 'LICENSE' -size -300k | while read -r f; do
  cp "$f" "$corpus/$(sha1sum < "$f" | cut -c1-16)"
done
exec cargo +nightly fuzz run "$target" "$corpus" -- \
  -max_total_time="${1:-600}" -rss_limit_mb=1024 -timeout=20 -max_len=65536
