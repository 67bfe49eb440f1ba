#!/usr/bin/env bash
# README command 2: install what is missing (everything the tests need),
# build everything, run the whole test suite. `--sanitize` does the same in
# build-asan/ with AddressSanitizer and UndefinedBehaviorSanitizer. Exits
# non-zero when a test fails or when no test ran.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh --full
scripts/build.sh "$@"
build_dir=build
[ "${1:-}" = "--sanitize" ] && build_dir=build-asan
ctest --test-dir "$build_dir" -j"$(nproc)" --output-on-failure --no-tests=error
