#!/usr/bin/env bash
# Fuzzes TARGET (default audit: fuzz_targets/audit.rs, the whole audit; fix:
# fuzz_targets/fix.rs, the corrected copy) for SECONDS (default 600), seeded
# with every input under fixtures/. Needs a nightly toolchain (libFuzzer's
# instrumentation); installs cargo-fuzz if it is missing.
#   fuzz/run.sh [SECONDS] [TARGET]
# A crash is saved under fuzz/artifacts/TARGET/; once fixed, copy it to
# fixtures/fuzz/ (not named *.pgn), where `cargo test` keeps it sound.
set -euo pipefail
cd "$(dirname "$0")"
target=${2:-audit}
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
corpus=corpus/$target
mkdir -p "$corpus"
find ../fixtures -type f ! -name '*.csv' ! -name '*.md' ! -name 'LICENSE' -size -300k | while read -r f; do
  cp "$f" "$corpus/$(sha1sum < "$f" | cut -c1-16)"
done
exec cargo +nightly fuzz run "$target" "$corpus" -- \
  -max_total_time="${1:-600}" -rss_limit_mb=1024 -timeout=20 -max_len=65536
