#!/usr/bin/env bash
# Builds the wheels of pgn-arbiter (the `pgn-arbiter` command and the
# `pgn_arbiter` module) for manylinux2014 (glibc 2.17) on x86_64 and
# aarch64, with maturin and zig from PyPI, into target/wheels, and checks
# each one's platform tag with auditwheel. The aarch64 build needs the
# target's standard library (`rustup target add aarch64-unknown-linux-gnu`).
# WHEEL_PROFILE names the cargo profile (default: wheel, the release build
# with panics that unwind, as Python needs them; .ci/run tests a
# wheel-test build, see Cargo.toml).
#
#   scripts/build_wheels.sh [TARGET...]   (default: both)
set -euo pipefail
cd "$(dirname "$0")/.."
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(x86_64-unknown-linux-gnu aarch64-unknown-linux-gnu)
tools=$PWD/target/wheel-tools
[ -x "$tools/bin/python" ] || python3 -m venv "$tools"
"$tools/bin/pip" install --quiet --disable-pip-version-check -r python/requirements-build.txt
version=$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' Cargo.toml)
for target in "${targets[@]}"; do
  arch=${target%%-*}
  rm -f target/wheels/pgn_arbiter-*"$arch".whl
  # maturin finds zig through the python on PATH.
  PATH=$tools/bin:$PATH maturin build --quiet --profile "${WHEEL_PROFILE:-wheel}" --locked --zig \
    --compatibility manylinux2014 --target "$target" --out target/wheels
  wheel=$(ls target/wheels/pgn_arbiter-"$version"-cp39-abi3-manylinux2014_"$arch".*.whl)
  "$tools/bin/auditwheel" show "$wheel" | tee target/wheels/"$arch".auditwheel
  grep -q "consistent with the following platform tag:" target/wheels/"$arch".auditwheel
  grep -A1 "consistent with the following platform tag:" target/wheels/"$arch".auditwheel \
    | grep -q "\"manylinux_2_17_$arch\""
  echo "$wheel"
done
