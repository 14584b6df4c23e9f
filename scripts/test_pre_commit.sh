#!/usr/bin/env bash
# The hooks of .pre-commit-hooks.yaml, run by pre-commit itself
# (`pre-commit try-repo`, as a user would try them) on a small repository
# of PGN files: a clean game passes, games with errors fail the commit and
# are named, a settings file in the repository is read, and files that are
# no PGN are not passed. The three hooks: the one on PATH (the debug
# build), the one pre-commit builds with cargo, and the Python package pip
# builds. Needs pre-commit (PRE_COMMIT, or
# on PATH) and a built target/debug/pgn-arbiter.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pre_commit=${PRE_COMMIT:-pre-commit}
# A relative path is from where the script was started.
case $pre_commit in
  */*) pre_commit=$(realpath "$pre_commit") ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# pre-commit's own cache (the hooks built with cargo and with pip) is kept
# between runs; the builds it makes are quick ones (not optimised), as the
# hook's code is the same whatever the optimisation.
export PRE_COMMIT_HOME=${PRE_COMMIT_HOME:-$root/target/pre-commit-home}
export CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 CARGO_PROFILE_RELEASE_OPT_LEVEL=0
# One target directory for both builds (cargo's for the Rust hook, maturin's
# under pip for the Python one): the dependencies are compiled once.
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target/pre-commit-target}
cd "$work"
git init -q
git config user.email ci@example.invalid
git config user.name ci
cat > clean.pgn <<'PGN'
[Event "Club"]
[Site "Here"]
[Date "2026.12.01"]
[Round "1"]
[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0
PGN
cp "$root/fixtures/sample.pgn" archive.pgn
echo "not a game" > notes.txt
git add .

fail=0
expect() { # expect STATUS TEXT -- COMMAND...: its exit status and a text in its output
  local want=$1 text=$2 out status=0
  shift 3
  out=$("$@" 2>&1) || status=$?
  if [ "$status" != "$want" ] || ! grep -qF -- "$text" <<<"$out"; then
    echo "test_pre_commit: '$*' exited $status (want $want), output:" >&2
    echo "$out" >&2
    fail=1
  fi
}

for hook in pgn-arbiter-system pgn-arbiter pgn-arbiter-python; do
  run=(env "PATH=$root/target/debug:$PATH" "$pre_commit" try-repo "$root" "$hook")
  expect 0 Passed -- "${run[@]}" --files clean.pgn notes.txt
  expect 1 "archive.pgn:238:1: illegal-move [error] game 12:" -- "${run[@]}" --all-files
  # The repository's settings file is read: errors ignored, nothing fails.
  printf 'ignore = ["error"]\n' > pgn-arbiter.toml
  git add pgn-arbiter.toml
  expect 0 Passed -- "${run[@]}" --all-files
  git rm -q --cached pgn-arbiter.toml
  rm pgn-arbiter.toml
done
[ "$fail" = 0 ] && echo "test_pre_commit: the three hooks pass clean games and fail on errors"
exit "$fail"
