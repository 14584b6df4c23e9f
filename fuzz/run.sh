#!/usr/bin/env bash
# Fuzzes the whole audit (fuzz_targets/audit.rs) for SECONDS (default 600),
# seeded with every input under fixtures/. Needs a nightly toolchain
# (libFuzzer's instrumentation); installs cargo-fuzz if it is missing.
# A crash is saved under fuzz/artifacts/audit/; once fixed, copy it to
# fixtures/fuzz/ (not named *.pgn), where `cargo test` keeps it sound.
set -euo pipefail
cd "$(dirname "$0")"
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
corpus=corpus/audit
mkdir -p "$corpus"
find ../fixtures -type f ! -name '*.csv' ! -name '*.md' ! -name 'LICENSE' -size -300k | while read -r f; do
  cp "$f" "$corpus/$(sha1sum < "$f" | cut -c1-16)"
done
exec cargo +nightly fuzz run audit "$corpus" -- \
  -max_total_time="${1:-600}" -rss_limit_mb=1024 -timeout=20 -max_len=65536
