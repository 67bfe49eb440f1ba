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
if [ "${1:-}" = "--sanitize" ]; then
  build_dir=build-asan
  # ASan also checks the order of static initialization across files, strictly:
  # an initializer that reads another file's global is reported even where
  # today's link order happens to initialize that one first.
  export ASAN_OPTIONS="check_initialization_order=1:strict_init_order=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
fi
ctest --test-dir "$build_dir" -j"$(nproc)" --output-on-failure --no-tests=error
