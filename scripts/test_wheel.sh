#!/usr/bin/env bash
# The wheel as a user gets it: built for manylinux2014 x86_64
# (scripts/build_wheels.sh), installed into fresh venvs of the oldest and
# the newest CPython at hand (one abi3 wheel serves both), where
# `pgn-arbiter` must give the cargo build's findings and version, and the
# module passes python/tests against the cargo build. Needs a built
# target/debug/pgn-arbiter (or PGN_ARBITER).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
arbiter=$(realpath "${PGN_ARBITER:-target/debug/pgn-arbiter}")
wheel=$(scripts/build_wheels.sh x86_64-unknown-linux-gnu | tail -n 1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The oldest CPython the wheel is for, and the newest: from pyenv where it
# has them, else the python3 on PATH.
pythons=()
for want in 3.9 3.13; do
  found=$(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$want".*/bin/python3 2>/dev/null | tail -n 1 || true)
  [ -n "$found" ] && pythons+=("$found")
done
[ ${#pythons[@]} -gt 0 ] || pythons=(python3)
for python in "${pythons[@]}"; do
  venv=$work/venv-$(basename "$(dirname "$(dirname "$python")")")
  "$python" -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "$wheel" -r python/requirements-test.txt
  echo "== $("$venv/bin/python" --version): $(basename "$wheel")"
  [ "$("$venv/bin/pgn-arbiter" --version)" = "$("$arbiter" --version)" ]
  status=0
  (cd fixtures && "$venv/bin/pgn-arbiter" sample.pgn > "$work/wheel.csv" 2>/dev/null) || status=$?
  [ "$status" = 1 ]
  (cd fixtures && "$arbiter" sample.pgn 2>/dev/null > "$work/cargo.csv") || true
  cmp "$work/wheel.csv" "$work/cargo.csv"
  # Run from elsewhere, so that `import pgn_arbiter` is the installed wheel.
  (cd "$work" && PGN_ARBITER=$arbiter "$venv/bin/python" -m pytest -q -p no:cacheprovider "$root/python/tests")
done
